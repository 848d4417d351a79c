import Foundation
import ConcurrencyModel
import Testing

/// OperationQueue as swift-corelibs-foundation schedules it: readiness through dependencies and
/// cancellation, the concurrency limit, priorities, completion blocks and waits.
@Suite struct OperationQueueTests {
    @Test func aCancelledLinkMakesItsDependentReadyBeforeTheChainBefore() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let load = BlockOperation { print("load") }
            let decompress = BlockOperation { print("decompress") }
            let filter = BlockOperation { print("filter") }
            decompress.addDependency(load)
            filter.addDependency(decompress)
            decompress.cancel()
            queue.addOperations([load, decompress, filter], waitUntilFinished: true)
            print("done")
            """)
        #expect(outcomeSet(exploration) == ["load filter done", "filter load done"])
    }

    @Test func aDependencyCycleNeverStartsAndTheWaitDeadlocks() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let a = BlockOperation { print("A") }
            let b = BlockOperation { print("B") }
            a.addDependency(b)
            b.addDependency(a)
            queue.addOperations([a, b], waitUntilFinished: false)
            print("added")
            queue.waitUntilAllOperationsAreFinished()
            print("done")
            """)
        #expect(outcomeSet(exploration) == ["added deadlock"])
        guard case .stuck(let facts)? = exploration.reports.first?.deadlock else {
            Issue.record("expected a stuck run")
            return
        }
        let waits = facts.compactMap(exploration.narrator.words(for:))
        #expect(waits.contains("a never starts: it depends on b, which never finishes"))
        #expect(waits.contains { $0.hasPrefix("main waits in queue.waitUntilAllOperationsAreFinished() at line 8") })
    }

    @Test func operationsInACycleWithNobodyWaitingStillNeverRun() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let a = BlockOperation { print("A") }
            a.addDependency(a)
            queue.addOperation(a)
            print("added")
            """)
        #expect(outcomeSet(exploration) == ["added deadlock"])
    }

    @Test func oneAtATimeKeepsTheOrderAdded() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            for i in 1...3 {
                queue.addOperation { print(i) }
            }
            queue.waitUntilAllOperationsAreFinished()
            print("end")
            """)
        #expect(outcomeSet(exploration) == ["1 2 3 end"])
    }

    @Test func withoutALimitOperationsInterleave() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            queue.addOperation { print(1) }
            queue.addOperation { print(2) }
            queue.waitUntilAllOperationsAreFinished()
            print("end")
            """)
        #expect(outcomeSet(exploration) == ["1 2 end", "2 1 end"])
    }

    @Test func aResumedQueueStartsTheHighestPriorityFirst() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let low = BlockOperation { print("low") }
            low.queuePriority = .low
            let normal = BlockOperation { print("normal") }
            let high = BlockOperation { print("high") }
            high.queuePriority = .veryHigh
            queue.addOperations([low, normal, high], waitUntilFinished: false)
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            """)
        #expect(outcomeSet(exploration) == ["high normal low"])
    }

    @Test func addingStartsAtOnceSoPriorityCannotOvertakeARunningQueue() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let first = BlockOperation { print("first") }
            let urgent = BlockOperation { print("urgent") }
            urgent.queuePriority = .veryHigh
            queue.addOperation(first)
            queue.addOperation(urgent)
            queue.waitUntilAllOperationsAreFinished()
            """)
        #expect(outcomeSet(exploration) == ["first urgent"])
    }

    @Test func aCompletionBlockRunsAfterItsOperationAlongsideWhatFollows() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let op = BlockOperation { print("op") }
            op.completionBlock = { print("completion") }
            let next = BlockOperation { print("next") }
            next.addDependency(op)
            queue.addOperations([op, next], waitUntilFinished: false)
            op.waitUntilFinished()
            print("waited")
            """)
        let outcomes = outcomeSet(exploration)
        #expect(outcomes.allSatisfy { $0.hasPrefix("op ") })
        #expect(outcomes.contains("op waited next completion"))
        #expect(outcomes.contains("op completion next waited"))
        #expect(!outcomes.contains { $0.contains("next op") })
    }

    @Test func executionBlocksMayRunConcurrentlyAndTheOperationFinishesAfterAll() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let op = BlockOperation { print(1) }
            op.addExecutionBlock { print(2) }
            queue.addOperation(op)
            op.waitUntilFinished()
            print("done")
            """)
        #expect(outcomeSet(exploration) == ["1 2 done", "2 1 done"])
    }

    @Test func theMainOperationQueueWaitsForTheTopLevelCode() throws {
        let exploration = try explore("""
            OperationQueue.main.addOperation { print(Thread.isMainThread) }
            print("top")
            """)
        #expect(outcomeSet(exploration) == ["top true"])
    }

    @Test func waitingOnTheMainThreadForAMainOperationDeadlocks() throws {
        let exploration = try explore("""
            let op = BlockOperation { print("op") }
            OperationQueue.main.addOperations([op], waitUntilFinished: true)
            print("after")
            """)
        #expect(outcomeSet(exploration) == ["deadlock"])
    }

    @Test func cancelAllSkipsWhatHasNotStarted() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            queue.isSuspended = true
            let a = BlockOperation { print("a") }
            a.completionBlock = { print("a completed") }
            queue.addOperation(a)
            queue.cancelAllOperations()
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            print(a.isCancelled)
            """)
        #expect(outcomeSet(exploration) == ["a completed true", "true a completed"])
    }

    @Test func aBlockAddedBeforeTheOperationStartsRunsAndOneAddedLaterCrashes() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let op = BlockOperation { print(1) }
            queue.addOperation(op)
            op.addExecutionBlock { print(2) }
            op.waitUntilFinished()
            print("done")
            """)
        // Added in time (even while the operation waits for a thread), the block runs; added
        // once the operation runs or has finished, Foundation stops the process.
        #expect(outcomeSet(exploration) == ["1 2 done", "2 1 done", "deadlock", "1 deadlock"])
    }

    @Test func addingAnOperationTwiceCrashes() throws {
        let exploration = try explore("""
            let queue = OperationQueue()
            let op = BlockOperation { print("op") }
            queue.addOperation(op)
            queue.addOperation(op)
            """)
        // The first add may already have run the operation when the second one crashes.
        #expect(outcomeSet(exploration) == ["deadlock", "op deadlock"])
        guard case .foundationCrash(_, let misuse, let span)? = exploration.reports.first?.deadlock else {
            Issue.record("expected Foundation's crash")
            return
        }
        #expect(exploration.narrator.message(misuse).contains("already in a queue"))
        #expect(span.line == 4)
    }

    @Test func whyNotNamesTheDependencyTheLimitAndTheCancel() throws {
        func blockers(_ source: String, _ lines: [String]) throws -> [Said] {
            let exploration = try explore(source)
            guard case .impossible(let impossibility) = Explainer(exploration: exploration).explain(Outcome(lines: lines, end: .finished)) else {
                Issue.record("\(lines) should be impossible")
                return []
            }
            return impossibility.blockers.map { Said($0, impossibility) }
        }
        let chain = """
            let queue = OperationQueue()
            let load = BlockOperation { print("load") }
            let decompress = BlockOperation { print("decompress") }
            decompress.addDependency(load)
            queue.addOperations([load, decompress], waitUntilFinished: true)
            """
        #expect(try blockers(chain, ["decompress", "load"]).map(\.rule) == [.operationWaitsForDependencies])
        #expect(try blockers(chain, ["decompress", "load"]).first?.detail == "decompress waits in queue until load has finished")
        let cancelled = chain.replacingOccurrences(of: "queue.addOperations", with: "decompress.cancel()\nqueue.addOperations")
        #expect(try blockers(cancelled, ["load", "decompress"]).map(\.rule) == [.cancelledOperationSkipsItsBlocks])
        let oneSlot = """
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.addOperation { print("a") }
            queue.addOperation { print("b") }
            """
        #expect(try blockers(oneSlot, ["b", "a"]).map(\.rule) == [.operationQueueLimit])
    }

    @Test func constructsOutsideTheSubsetAreNamed() {
        #expect(problems("""
            OperationQueue.main.maxConcurrentOperationCount = 2
            """).first?.message.contains("OperationQueue.main") == true)
        #expect(problems("""
            for _ in 1...2 {
                let op = BlockOperation { print(1) }
            }
            """).first?.message.contains("top level") == true)
        #expect(problems("""
            let queue = OperationQueue()
            queue.addOperation(nothing)
            """).first?.message.contains("not an operation the snippet declares") == true)
    }
}
