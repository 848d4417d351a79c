import DispatchModel
import Testing

/// One test per rule of the model (DESIGN.md, "The model's rules").
@Suite struct ModelRuleTests {
    @Test func serialQueueRunsItemsOneAtATimeInFIFOOrder() throws {
        let exploration = try explore("""
            serialQueue.async { print("a1"); print("a2") }
            serialQueue.async { print("b1"); print("b2") }
            """)
        #expect(outcomeSet(exploration) == ["a1 a2 b1 b2"])
    }

    @Test func concurrentQueueStartsInOrderButRunsSideBySide() throws {
        let exploration = try explore("""
            concurrentQueue.async { print(1) }
            concurrentQueue.async { print(2) }
            """)
        #expect(outcomeSet(exploration) == ["1 2", "2 1"])
    }

    @Test func syncRunsOnTheCallerAndReturnsAfterTheBlock() throws {
        let exploration = try explore("""
            serialQueue.async { print(1) }
            serialQueue.sync { print(2) }
            print(3)
            """)
        // The sync waits its turn behind the earlier item, and returns only after its block.
        #expect(outcomeSet(exploration) == ["1 2 3"])
    }

    @Test func syncOnConcurrentQueueWaitsOnlyForEarlierItemsToStart() throws {
        let exploration = try explore("""
            concurrentQueue.async { print(1) }
            concurrentQueue.sync { print(2) }
            """)
        #expect(outcomeSet(exploration) == ["1 2", "2 1"])
    }

    @Test func mainQueueRunsOnlyAfterTheTopLevelCodeEnds() throws {
        let exploration = try explore("""
            DispatchQueue.main.async { print("main") }
            print("top 1")
            print("top 2")
            """)
        #expect(outcomeSet(exploration) == ["top 1 top 2 main"])
    }

    @Test func mainQueueIsSerial() throws {
        let exploration = try explore("""
            DispatchQueue.main.async { print(1); print(2) }
            DispatchQueue.main.async { print(3) }
            """)
        #expect(outcomeSet(exploration) == ["1 2 3"])
    }

    @Test func mainSyncOnTheMainThreadTraps() throws {
        let exploration = try explore("""
            print(1)
            DispatchQueue.main.sync { print(2) }
            print(3)
            """)
        #expect(outcomeSet(exploration) == ["1 deadlock"])
        guard case .trap(let thread, _, let span)? = exploration.reports.first?.deadlock else {
            Issue.record("expected a trap")
            return
        }
        #expect(thread == "main")
        #expect(span == SourceSpan(line: 2, column: 1))
    }

    @Test func mainSyncFromAWorkerWaitsForTheMainThreadToBeIdle() throws {
        let exploration = try explore("""
            concurrentQueue.async {
                DispatchQueue.main.sync { print("on main") }
                print("after")
            }
            print("top")
            """)
        #expect(outcomeSet(exploration) == ["top on main after"])
    }

    @Test func nestedSyncBackOntoAnOwnedSerialQueueTraps() throws {
        let exploration = try explore("""
            let other = DispatchQueue(label: "other")
            serialQueue.sync {
                other.sync {
                    print(1)
                    serialQueue.sync { print(2) }
                }
            }
            """)
        #expect(outcomeSet(exploration) == ["1 deadlock"])
    }

    @Test func syncOntoAConcurrentQueueFromItsOwnItemDoesNotTrap() throws {
        let exploration = try explore("""
            concurrentQueue.sync {
                concurrentQueue.sync { print(1) }
            }
            """)
        #expect(outcomeSet(exploration) == ["1"])
    }

    @Test func trapKillsEveryThreadAtOnce() throws {
        let exploration = try explore("""
            concurrentQueue.async { print("other") }
            serialQueue.async { serialQueue.sync { } }
            """)
        // "other" may or may not have printed when the trap happens; nothing prints after it.
        #expect(outcomeSet(exploration) == ["deadlock", "other deadlock"])
    }

    @Test func twoSerialQueuesSyncingOntoEachOtherCanDeadlock() throws {
        let exploration = try explore("""
            let a = DispatchQueue(label: "a")
            let b = DispatchQueue(label: "b")
            a.async { b.sync { print("x") } }
            b.async { a.sync { print("y") } }
            """)
        // The item on a always runs before y's a.sync, so "y x" cannot happen.
        #expect(outcomeSet(exploration) == ["x y", "deadlock"])
        let stuck = exploration.reports.first { $0.outcome.end == .deadlock }
        guard case .stuck(let waits)? = stuck?.deadlock else {
            Issue.record("expected a cycle of waits")
            return
        }
        #expect(waits.contains { $0.contains("waits in b.sync") })
        #expect(waits.contains { $0.contains("waits in a.sync") })
    }

    @Test func mainThreadBlockedInSyncStarvesTheMainQueue() throws {
        let exploration = try explore("""
            serialQueue.async {
                DispatchQueue.main.sync { print("never") }
            }
            serialQueue.sync { print("main waits") }
            """)
        // The sync waits behind the item, whose main.sync waits for the blocked main thread.
        #expect(outcomeSet(exploration) == ["deadlock"])
    }

    @Test func globalQueuesAreConcurrentAndOnePerQoS() throws {
        let exploration = try explore("""
            DispatchQueue.global().async { print(1) }
            DispatchQueue.global(qos: .utility).async { print(2) }
            DispatchQueue.global().async { print(3) }
            """)
        #expect(outcomeSet(exploration).count == 6)
        #expect(exploration.program.queues.filter { $0.kind == .global }.count == 2)
    }

    @Test func declaredQueuesFollowTheirAttributes() throws {
        let serial = try explore("""
            let q = DispatchQueue(label: "q", qos: .userInitiated)
            q.async { print(1) }
            q.async { print(2) }
            """)
        #expect(outcomeSet(serial) == ["1 2"])
        let concurrent = try explore("""
            let q = DispatchQueue(label: "q", attributes: [.concurrent])
            q.async(execute: { print(1) })
            q.async { print(2) }
            """)
        #expect(outcomeSet(concurrent) == ["1 2", "2 1"])
    }

    @Test func anEmptySnippetFinishesWithNoOutput() throws {
        let exploration = try explore("// nothing\n")
        #expect(outcomeSet(exploration) == [""])
        #expect(exploration.outcomes.first?.end == .finished)
    }

    @Test func printShowsLiteralsAsSwiftWould() throws {
        let exploration = try explore(#"print(1, "two", -3, true, "n=\(4)", 0x10)"#)
        #expect(exploration.outcomes.first?.lines == [#"1 two -3 true n=4 16"#])
    }

    @Test func theSearchStopsAtItsBudgetAndSaysSo() throws {
        let source = (1...6).map { "concurrentQueue.async { print(\($0)) }" }.joined(separator: "\n")
        let program = try SnippetCompiler.compile(source).get()
        let limited = Explorer(stateBudget: 50).explore(program)
        #expect(!limited.isComplete)
        #expect(limited.statesExplored <= 51)
        let full = Explorer().explore(program)
        #expect(full.isComplete)
        #expect(full.outcomes.count == 720)
    }

    @Test func explorationIsDeterministic() throws {
        let code = "concurrentQueue.async { print(1) }\nprint(2)\nconcurrentQueue.async { print(3) }\nprint(4)"
        let first = try explore(code)
        let second = try explore(code)
        #expect(first.reports == second.reports)
        #expect(first.statesExplored == second.statesExplored)
    }
}
