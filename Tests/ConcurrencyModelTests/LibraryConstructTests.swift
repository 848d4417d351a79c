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
}
