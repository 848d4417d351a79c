import ConcurrencyModel
import Testing

/// The constructs beyond sync and async: variables, loops, if, groups, semaphores, barriers,
/// and the data races the model reports.
@Suite struct ConstructTests {
    @Test func variablesLoopsAndIf() throws {
        let exploration = try explore("""
            var total = 0
            var names: [String] = []
            for i in 1...3 {
                total += i
                if i % 2 == 1 {
                    names.append("odd \\(i)")
                } else {
                    names.append("even")
                }
            }
            print(total, names.count)
            print(names)
            """)
        #expect(outcomeSet(exploration) == [#"6 3 ["odd 1", "even", "odd 3"]"#])
        #expect(exploration.races.isEmpty)
    }

    @Test func functionsRunOnTheCallingThreadWithTheirArgumentsByValue() throws {
        let exploration = try explore("""
            var total = 0
            func add(_ amount: Int, label: String) {
                total += amount
                print(label, total)
            }
            func work(id: Int) {
                serialQueue.async {
                    add(id, label: "item \\(id)")
                }
            }
            for i in 1...2 {
                work(id: i)
            }
            serialQueue.sync {
                print("done", total)
            }
            """)
        #expect(outcomeSet(exploration) == ["item 1 1 item 2 3 done 3"])
    }

    @Test func functionsOutsideTheSubsetAreNamed() {
        #expect(problems("""
            func again(_ n: Int) {
                again(n)
            }
            """).first?.message == "recursion is outside the supported subset")
        #expect(problems("""
            func one<T>(_ t: T) -> Int { 1 }
            """).first?.message.hasPrefix("generic functions are outside") == true)
        #expect(problems("""
            func one() rethrows -> Int { 1 }
            """).first?.message.hasPrefix("typed throws and 'rethrows' are outside") == true)
        #expect(problems("""
            func greet(name: String) { print(name) }
            greet("x")
            """).first?.message.contains("greet(name:)") == true)
    }

    @Test func closuresCaptureTheLoopVariablePerIteration() throws {
        let exploration = try explore("""
            for i in 0..<2 {
                serialQueue.async { print(i) }
            }
            """)
        #expect(outcomeSet(exploration) == ["0 1"])
    }

    /// `num += 1` on a worker and on main, with nothing between them.
    static let lostUpdate = """
        var num = 0
        let group = DispatchGroup()
        concurrentQueue.async(group: group) {
            num += 1
        }
        num += 1
        group.wait()
        print(num)
        """

    @Test func lostUpdatesAreOutcomesAndTheRaceIsReported() throws {
        let exploration = try explore(Self.lostUpdate)
        #expect(outcomeSet(exploration) == ["1", "2"])
        let race = try #require(exploration.races.first)
        #expect(exploration.narrator.name(race.variable) == "num")
        #expect(Set([race.first.span.line, race.second.span.line]) == [4, 6])
        #expect(race.first.isWrite || race.second.isWrite)
        #expect(Set([race.first.thread, race.second.thread]) == [.main, .worker(1)])
    }

    @Test func theNarratorWordsARaceFromItsFacts() throws {
        let exploration = try explore(Self.lostUpdate)
        let race = try #require(exploration.races.first)
        let narrator = exploration.narrator
        #expect(narrator.words(for: race) == "data race on num: write at line 6 (main) and read at line 4 (worker 1) can happen at the same time")
        #expect(narrator.accesses(of: race, articles: true) == "a write at line 6 (main) and a read at line 4 (worker 1) can happen at the same time")
    }

    @Test func aSerialQueueRemovesTheRace() throws {
        let exploration = try explore("""
            var num = 0
            let group = DispatchGroup()
            concurrentQueue.async(group: group) {
                serialQueue.sync { num += 1 }
            }
            serialQueue.sync { num += 1 }
            group.wait()
            print(num)
            """)
        #expect(outcomeSet(exploration) == ["2"])
        #expect(exploration.races.isEmpty)
    }

    @Test func groupNotifyRunsWhenTheGroupEmpties() throws {
        let exploration = try explore("""
            let group = DispatchGroup()
            concurrentQueue.async(group: group) { print("a") }
            concurrentQueue.async(group: group) { print("b") }
            group.notify(queue: serialQueue) { print("done") }
            """)
        #expect(outcomeSet(exploration) == ["a b done", "b a done"])
    }

    @Test func enterWithoutLeaveNeverNotifies() throws {
        let exploration = try explore("""
            let group = DispatchGroup()
            group.enter()
            group.notify(queue: serialQueue) { print("never") }
            print("end")
            """)
        #expect(outcomeSet(exploration) == ["end deadlock"])
        guard case .stuck(let facts)? = exploration.reports.first?.deadlock else {
            Issue.record("expected a stuck run")
            return
        }
        let waits = facts.compactMap(exploration.narrator.words(for:))
        #expect(waits.contains { $0.contains("notify never runs") })
    }

    @Test func leavingMoreThanEnteringCrashes() throws {
        let exploration = try explore("""
            let group = DispatchGroup()
            print(1)
            group.leave()
            print(2)
            """)
        #expect(outcomeSet(exploration) == ["1 deadlock"])
    }

    @Test func aSemaphoreAtZeroIsASignal() throws {
        let exploration = try explore("""
            let done = DispatchSemaphore(value: 0)
            concurrentQueue.async {
                print("work")
                done.signal()
            }
            done.wait()
            print("after")
            """)
        #expect(outcomeSet(exploration) == ["work after"])
    }

    @Test func aSemaphoreNobodySignalsIsADeadlock() throws {
        let exploration = try explore("""
            let s = DispatchSemaphore(value: 0)
            print("before")
            s.wait()
            print("after")
            """)
        #expect(outcomeSet(exploration) == ["before deadlock"])
    }

    @Test func aSemaphoreAtOneIsALock() throws {
        let exploration = try explore("""
            let lock = DispatchSemaphore(value: 1)
            let group = DispatchGroup()
            for name in 1...2 {
                concurrentQueue.async(group: group) {
                    lock.wait()
                    print(name)
                    print(name)
                    lock.signal()
                }
            }
            group.wait()
            """)
        #expect(outcomeSet(exploration) == ["1 1 2 2", "2 2 1 1"])
    }

    @Test func aBarrierRunsAloneOnACustomConcurrentQueue() throws {
        let exploration = try explore("""
            concurrentQueue.async { print("r1") }
            concurrentQueue.async(flags: .barrier) { print("w") }
            concurrentQueue.async { print("r2") }
            """)
        #expect(outcomeSet(exploration) == ["r1 w r2"])
    }

    @Test func aBarrierIsAPlainItemOnAGlobalQueue() throws {
        let exploration = try explore("""
            DispatchQueue.global().async { print("r1") }
            DispatchQueue.global().async(flags: .barrier) { print("w") }
            """)
        #expect(outcomeSet(exploration) == ["r1 w", "w r1"])
    }

    @Test func bigPuzzlesStayFast() throws {
        // Three increments on each of two threads: the model still explores every schedule.
        let exploration = try explore("""
            var num = 0
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                for _ in 1...3 { num += 1 }
            }
            for _ in 1...3 { num += 1 }
            group.wait()
            print(num)
            """)
        #expect(outcomeSet(exploration) == ["2", "3", "4", "5", "6"])
        #expect(exploration.isComplete)
    }
}
