import Testing
@testable import ConcurrencyModel

/// Outcome sets for the library constructs that had no unit test of their own: work items,
/// `dispatchPrecondition`, inactive queues and `wait(timeout:)` (issue 15).
@Suite struct LibraryConstructTests {
    @Test func performRunsTheItemOnTheCallingThread() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            item.perform()
            print("after")
            """
        #expect(try outcomeSet(explore(source)) == ["work after"])
    }

    @Test func anItemCancelledBeforeItStartsIsSkipped() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            item.cancel()
            serialQueue.async(execute: item)
            serialQueue.sync { print("synced") }
            print(item.isCancelled)
            """
        #expect(try outcomeSet(explore(source)) == ["synced true"])
    }

    @Test func anItemCancelledWhileRunningGoesOn() throws {
        let source = """
            let item = DispatchWorkItem {
                print("start")
                print("finish")
            }
            concurrentQueue.async(execute: item)
            item.cancel()
            item.wait()
            print("joined")
            """
        #expect(try outcomeSet(explore(source)) == ["joined", "start finish joined"])
    }

    @Test func waitAndNotifyFollowTheItem() throws {
        let source = """
            let item = DispatchWorkItem { print("work") }
            item.notify(queue: serialQueue) { print("notified") }
            concurrentQueue.async(execute: item)
            item.wait()
            print("after")
            """
        #expect(try outcomeSet(explore(source)) == ["work notified after", "work after notified"])
    }

    @Test func preconditionsHoldOrKillTheProcess() throws {
        let holds = """
            serialQueue.sync {
                dispatchPrecondition(condition: .onQueue(serialQueue))
                print("on")
            }
            dispatchPrecondition(condition: .notOnQueue(serialQueue))
            print("off")
            """
        #expect(try outcomeSet(explore(holds)) == ["on off"])
        let fails = try explore("""
            dispatchPrecondition(condition: .onQueue(serialQueue))
            print("x")
            """)
        #expect(outcomeSet(fails) == ["deadlock"])
        guard case .preconditionFailed? = fails.reports.first?.deadlock else {
            Issue.record("\(String(describing: fails.reports.first?.deadlock))")
            return
        }
        let barrier = """
            concurrentQueue.async(flags: .barrier) {
                dispatchPrecondition(condition: .onQueueAsBarrier(concurrentQueue))
                print("barrier")
            }
            concurrentQueue.async {
                dispatchPrecondition(condition: .onQueueAsBarrier(concurrentQueue))
                print("plain")
            }
            """
        #expect(try outcomeSet(explore(barrier)) == ["barrier deadlock"])
    }

    @Test func anInactiveQueueStartsNothingUntilActivated() throws {
        let activated = """
            let q = DispatchQueue(label: "q", attributes: .initiallyInactive)
            q.async { print("ran") }
            print("before")
            q.activate()
            """
        #expect(try outcomeSet(explore(activated)) == ["before ran"])
        let never = """
            let q = DispatchQueue(label: "q", attributes: .initiallyInactive)
            q.async { print("ran") }
            print("before")
            """
        #expect(try outcomeSet(explore(never)) == ["before deadlock"])
    }

    @Test func timedWaitsOnGroupsAndSemaphoresGiveBothResults() throws {
        let group = """
            let g = DispatchGroup()
            g.enter()
            if g.wait(timeout: .now() + 0.1) == .timedOut { print("timedOut") } else { print("success") }
            g.leave()
            if g.wait(timeout: .now() + 0.1) == .timedOut { print("timedOut") } else { print("success") }
            """
        #expect(try outcomeSet(explore(group)) == ["timedOut success"])
        let semaphore = """
            let s = DispatchSemaphore(value: 0)
            if s.wait(timeout: .now() + 0.1) == .timedOut { print("timedOut") } else { print("success") }
            s.signal()
            if s.wait(timeout: .now() + 0.1) == .timedOut { print("timedOut") } else { print("success") }
            """
        #expect(try outcomeSet(explore(semaphore)) == ["timedOut success"])
    }

    /// NSLock is a semaphore of one that knows it is a lock: measured with swiftc, a second
    /// lock() on the same thread deadlocks, and an unlock() of a free lock leaves it free.
    @Test func anNSLockSerialisesItsHoldersAndDeadlocksWhenTakenTwice() throws {
        let counter = """
            let lock = NSLock()
            var counter = 0
            let group = DispatchGroup()
            for i in 1...2 {
                concurrentQueue.async(group: group) {
                    lock.lock()
                    let v = counter
                    counter = v + 1
                    print("\\(i):\\(v)")
                    lock.unlock()
                }
            }
            group.wait()
            print(counter)
            """
        #expect(try outcomeSet(explore(counter)) == ["1:0 2:1 2", "2:0 1:1 2"])
        let twice = try explore("""
            let lock = NSLock()
            lock.lock()
            print("A")
            lock.lock()
            print("B")
            """)
        #expect(outcomeSet(twice) == ["A deadlock"])
        guard case .stuck(let facts)? = twice.reports.first?.deadlock else {
            Issue.record("expected a stuck run")
            return
        }
        let waits = facts.compactMap(twice.narrator.words(for:))
        #expect(waits.contains { $0.contains("lock.lock()") && $0.contains("nobody unlocks it") })
        let unbalanced = """
            let lock = NSLock()
            lock.unlock()
            lock.lock()
            print("in")
            lock.lock()
            print("never")
            """
        #expect(try outcomeSet(explore(unbalanced)) == ["in deadlock"])
    }
}
