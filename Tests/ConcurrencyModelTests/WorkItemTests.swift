import ConcurrencyModel
import Testing

/// DispatchWorkItem as outside puzzles use it (issue 22), each expectation measured with swiftc
/// (`gcdquiz verify`, 30 runs, prelude in front): asyncAfter with an item, a flag read on a line
/// of its own, the optional item whose block checks its own cancellation, and the crashes
/// libdispatch reserves for an item waited for twice or run twice and then waited for or observed.
@Suite struct WorkItemTests {
    /// A work item that checks its own cancellation (the optional-item idiom), cancelled by a
    /// global-queue block due at 250 ms while it sleeps 5 × 100 ms.
    static let selfCancellingItem = """
        var workItem: DispatchWorkItem?
        workItem = DispatchWorkItem {
            for i in 1...5 {
                guard let item = workItem, !item.isCancelled else {
                    print("cancelled")
                    break
                }
                print(i)
                usleep(100_000)
            }
        }
        workItem?.notify(queue: .main, execute: { print("done") })
        DispatchQueue.global().async(execute: workItem!)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.25) { workItem?.cancel() }
        """

    /// The reason a run of `source` ends, in the narrator's words.
    private func ending(_ source: String) throws -> String? {
        let exploration = try explore(source)
        return exploration.reports.first?.deadlock.map(exploration.narrator.words(for:))
    }

    @Test func asyncAfterSubmitsTheItemWhenDue() throws {
        // Performed first: its notify runs then; the later, cancelled submission is skipped.
        #expect(try outcomeSet(explore("""
            let item = DispatchWorkItem { print("work") }
            item.perform()
            let queue = DispatchQueue(label: "q", attributes: .concurrent)
            queue.asyncAfter(deadline: .now() + 0.05, execute: item)
            item.notify(queue: .main) { print("notified") }
            item.isCancelled
            item.cancel()
            """)) == ["work notified"])
        #expect(try outcomeSet(explore("""
            let item = DispatchWorkItem { print("late") }
            serialQueue.asyncAfter(deadline: .now() + 0.1, execute: item)
            serialQueue.async { print("now") }
            """)) == ["now late"])
        expectDiagnostics("serialQueue.asyncAfter(deadline: .now() + 1, execute: 1️⃣print)", ["1️⃣": "'execute:' takes a closure { … } or a DispatchWorkItem declared in the snippet"])
    }

    @Test func aWaitAfterPerformWithTheItemStillQueuedCrashes() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            item.perform()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05, execute: item)
            item.cancel()
            item.wait()
            print("after wait")
            """
        #expect(try outcomeSet(explore(source)) == ["work deadlock"])
        let reason = try #require(try ending(source))
        #expect(reason.hasPrefix("crash at line 5: libdispatch stops the process on main (item): \"A block object may not be both run more than once and waited for\""))
    }

    @Test func aSecondWaitCrashes() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            serialQueue.async(execute: item)
            item.wait()
            print("waited once")
            item.wait()
            print("waited twice")
            """
        #expect(try outcomeSet(explore(source)) == ["work waited once deadlock"])
        #expect(try ending(source)?.contains("\"A block object may not be waited for more than once\"") == true)
    }

    @Test func observingAnItemRunTwiceCrashes() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            item.perform()
            item.perform()
            item.notify(queue: .main) { print("notified") }
            """
        #expect(try outcomeSet(explore(source)) == ["work work deadlock"])
        #expect(try ending(source)?.contains("may not be both run more than once and observed") == true)
    }

    @Test func runningAnItemAgainAfterItsWaitCrashes() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            item.perform()
            item.wait()
            print("waited")
            serialQueue.async(execute: item)
            """
        #expect(try outcomeSet(explore(source)) == ["work waited deadlock"])
        #expect(try ending(source)?.contains("libdispatch stops the process as a queue starts item") == true)
    }

    @Test func aWaitBeforeTheItemRunsWaitsForIt() throws {
        #expect(try outcomeSet(explore("""
            let item = DispatchWorkItem { print("work") }
            DispatchQueue.global().async(execute: item)
            item.wait()
            print("after")
            """)) == ["work after"])
    }

    /// The common cancellation pattern: the item checks its own flag through an optional.
    @Test func anOptionalItemChecksItsOwnCancellation() throws {
        let source = WorkItemTests.selfCancellingItem
        // Two cores: the timer's block runs while the item sleeps (30 of 30 swiftc runs).
        #expect(try outcomeSet(source, cores: 2) == ["1 2 3 cancelled done"])
        expectDiagnostics("let n = 1\nguard let m = 1️⃣n else { return }", ["1️⃣": "initializer for conditional binding must have Optional type, not 'Int'"])
    }
}

/// `break`, `continue`, `debugPrint`, and helpers that make their own objects called from a block
/// that runs once (issue 22's outside puzzles), measured with swiftc.
@Suite struct OutsidePuzzleIdiomTests {
    @Test func breakAndContinueLeaveTheInnermostLoop() throws {
        #expect(try outcomeSet(explore("""
            for i in 1...5 {
                if i == 2 { continue }
                if i == 4 { break }
                print(i)
            }
            DispatchQueue.global().async {
                for j in 0..<3 {
                    guard j < 2 else { print("stop"); break }
                    print(j)
                }
            }
            """)) == ["1 3 0 1 stop"])
        expectDiagnostics("print(1)\n1️⃣break", ["1️⃣": "'break' is supported in a 'for' loop over a range, a 'while' or a 'repeat' loop"])
        expectDiagnostics("for i in 1...2 {\n    serialQueue.async { 1️⃣break }\n}", ["1️⃣": "'break' is supported in a 'for' loop over a range, a 'while' or a 'repeat' loop"])
    }

    @Test func debugPrintQuotesStrings() throws {
        #expect(try outcomeSet(explore("let i = 1\ndebugPrint(\"item \\(i)\", i, true)\ndebugPrint(\"say \\\"hi\\\"\")")) == [
            "\"item 1\" 1 true \"say \\\"hi\\\"\"",
        ])
    }

    @Test func aHelperThatMakesASemaphoreMayBeCalledInABlockThatRunsOnce() throws {
        let exploration = try explore("""
            func waitForTask(_ id: Int) {
                let semaphore = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    print("start \\(id)")
                    semaphore.signal()
                }
                semaphore.wait()
                print("done \\(id)")
            }
            DispatchQueue.global().async {
                waitForTask(1)
            }
            """)
        #expect(outcomeSet(exploration) == ["start 1 done 1"])
        // In a loop, or a block that may run many times, each run would need objects of its own.
        expectDiagnostics("""
            func make() { let g = DispatchGroup(); g.enter(); g.leave() }
            DispatchQueue.concurrentPerform(iterations: 2) { _ in 1️⃣make() }
            """, ["1️⃣": "'make' makes its own queues, groups or operations: call it where each call makes them once"])
    }
}
