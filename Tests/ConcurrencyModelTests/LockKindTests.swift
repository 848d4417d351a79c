import Testing
@testable import ConcurrencyModel

/// NSRecursiveLock and Mutex (issues 24 and 25): semaphores of one that know their holder.
/// Every outcome set here was checked against swiftc 6.3 on Linux (`-O -swift-version 5`, the
/// prelude in front, stdout line-buffered, runs counted with `sort | uniq -c`).
@Suite struct LockKindTests {
    /// swiftc, 100 runs: "twice again worker" 89, "twice worker again" 11. The holder's second
    /// lock() returns at once; the third unlock() (of a free lock) changes nothing, so the
    /// worker and main still take turns.
    @Test func aRecursiveLockCountsItsHoldersLocks() throws {
        let source = """
            let lock = NSRecursiveLock()
            lock.lock()
            lock.lock()
            print("twice")
            lock.unlock()
            lock.unlock()
            lock.unlock()
            concurrentQueue.async {
                lock.lock()
                print("worker")
                lock.unlock()
            }
            lock.lock()
            print("again")
            lock.unlock()
            """
        let exploration = try explore(source)
        #expect(outcomeSet(exploration) == ["twice again worker", "twice worker again"])
        let witness = try #require(exploration.report(for: Outcome(lines: ["twice", "again", "worker"], end: .finished))?.witness)
        let steps = witness.map(exploration.narrator.action)
        #expect(steps.contains { $0.contains("lock.lock() returns at once") && $0.contains("holds it twice") })
        #expect(steps.contains { $0.contains("still holds it once") })
    }

    /// swiftc, 100 runs: "main holds unlock ignored" 100, "never" never (the process exits at
    /// the end of its sleep with the worker blocked: a Playground would hang). pthread's
    /// recursive mutex refuses an unlock by a thread that does not hold it (EPERM), and
    /// Foundation ignores the error.
    @Test func anUnlockByAnotherThreadChangesNothing() throws {
        let source = """
            let lock = NSRecursiveLock()
            lock.lock()
            print("main holds")
            concurrentQueue.async {
                lock.unlock()
                print("unlock ignored")
                lock.lock()
                print("never")
            }
            """
        let exploration = try explore(source)
        #expect(outcomeSet(exploration) == ["main holds unlock ignored deadlock"])
        guard case .stuck(let facts)? = exploration.reports.first?.deadlock else {
            Issue.record("expected a stuck run")
            return
        }
        #expect(facts.compactMap(exploration.narrator.words(for:)).contains { $0.contains("lock.lock()") && $0.contains("nobody unlocks it") })
    }

    /// The bank's recursive-lock-excludes, swiftc, 200 runs: "A1 A2 B1 B2 done" 192, "B1 B2 A1 A2
    /// done" 8. A holds the lock twice, so its first unlock() does not let B in.
    @Test func aRecursiveLockStillExcludesOtherThreads() throws {
        let source = """
            let lock = NSRecursiveLock()
            let group = DispatchGroup()
            concurrentQueue.async(group: group) {
                lock.lock()
                lock.lock()
                print("A1")
                lock.unlock()
                print("A2")
                lock.unlock()
            }
            concurrentQueue.async(group: group) {
                lock.lock()
                print("B1")
                print("B2")
                lock.unlock()
            }
            group.wait()
            print("done")
            """
        #expect(try outcomeSet(explore(source)) == ["A1 A2 B1 B2 done", "B1 B2 A1 A2 done"])
    }

    /// The bank's mutex-counter-blocks, swiftc, 200 runs: "A1 B2 2" 198, "B1 A2 2" 2. The
    /// closure's read, write and print are atomic with respect to the mutex.
    @Test func aMutexMakesItsClosureAtomic() throws {
        let source = """
            import Synchronization
            let hits = Mutex(0)
            let group = DispatchGroup()
            concurrentQueue.async(group: group) {
                hits.withLock { value in
                    value += 1
                    print("A\\(value)")
                }
            }
            concurrentQueue.async(group: group) {
                hits.withLock { value in
                    value += 1
                    print("B\\(value)")
                }
            }
            group.wait()
            print(hits.withLock { $0 })
            """
        let exploration = try explore(source)
        #expect(outcomeSet(exploration) == ["A1 B2 2", "B1 A2 2"])
        #expect(exploration.races.isEmpty)
    }

    /// The bank's mutex-nested-withlock, swiftc, 50 runs: "checking 100" then SIGILL ("Fatal
    /// error: Recursive call to lock Mutex") in all 50.
    @Test func withLockInsideWithLockTraps() throws {
        let source = """
            import Synchronization
            let balance = Mutex(100)
            func withdraw(_ amount: Int) {
                balance.withLock { $0 -= amount }
            }
            balance.withLock { value in
                print("checking \\(value)")
                withdraw(30)
                print("withdrawn")
            }
            print("done")
            """
        let exploration = try explore(source)
        #expect(outcomeSet(exploration) == ["checking 100 deadlock"])
        guard case .recursiveMutexLock(_, _, let span)? = exploration.reports.first?.deadlock else {
            Issue.record("expected the Mutex's trap")
            return
        }
        #expect(span.line == 4)
        #expect(exploration.narrator.words(for: exploration.reports[0].deadlock!).contains("Recursive call to lock Mutex"))
    }

    /// A class's `let` Mutex, a value of withLock, a String mutex, NSLock's and NSRecursiveLock's
    /// withLock. swiftc type-checks it in both language modes; its one outcome was seen in 50 of
    /// 50 runs (Swift 5 mode).
    @Test func withLockGivesItsValueAndWorksOnEveryLock() throws {
        let source = """
            import Synchronization
            final class Counter: Sendable {
                let count = Mutex(0)
                func increment() {
                    count.withLock { $0 += 1 }
                }
                func read() -> Int {
                    count.withLock { $0 }
                }
            }
            let counter = Counter()
            let group = DispatchGroup()
            for _ in 1...3 {
                concurrentQueue.async(group: group) {
                    counter.increment()
                }
            }
            group.wait()
            let lock = NSLock()
            let r = NSRecursiveLock()
            lock.withLock { print("in lock") }
            r.withLock {
                r.withLock { print("twice") }
            }
            let name = Mutex<String>("a")
            name.withLock { $0 = "b" }
            print(counter.read(), name.withLock { $0 + "c" })
            """
        #expect(try outcomeSet(explore(source)) == ["in lock twice 3 bc"])
    }

    /// swiftc, 100 runs: "A B" 100: the serial queue's second block ran on the pool thread that
    /// still held the lock, so its lock() returned at once. Which pool thread runs a block is
    /// libdispatch's choice, which the model does not follow: it stops there and says so
    /// rather than answer "A deadlock".
    @Test func aLockLeftHeldByAnEndedBlockIsNotGuessed() throws {
        let source = """
            let lock = NSRecursiveLock()
            serialQueue.async {
                lock.lock()
                print("A")
            }
            serialQueue.async {
                lock.lock()
                print("B")
            }
            """
        let exploration = try explore(source)
        #expect(outcomeSet(exploration) == ["A deadlock"])
        guard case .modelError(_, let message, let span)? = exploration.reports.first?.deadlock else {
            Issue.record("expected the model to say it cannot tell")
            return
        }
        #expect(span.line == 7)
        #expect(message.contains("which the model does not follow"))
    }
}
