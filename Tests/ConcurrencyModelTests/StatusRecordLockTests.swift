import ConcurrencyModel
import Testing

/// `cancel()` runs a task's onCancel handlers holding the task's status-record lock
/// (swiftlang/swift `TaskStatus.cpp`: `swift_task_cancel` runs the records under it), and the task
/// needs that lock to remove a cancellation record: where `withTaskCancellationHandler`'s
/// operation ends, and where a `Task.sleep` the cancel woke returns (the sleep's own record,
/// `TaskSleep.swift`). The model once let both go on past the lock (extra outcomes the runtime never
/// shows, found by the bank helper at stop 37). Checked with `gcdquiz verify --runs 300` (swiftc
/// -swift-version 6, 2 cores; `probe8/c2.swift`, `c3.swift`): ok.
@Suite struct StatusRecordLockTests {
    /// A detached task asleep inside withTaskCancellationHandler, cancelled by the main thread.
    static let wokenSleeper = """
        let t = Task.detached {
            await withTaskCancellationHandler {
                try? await Task.sleep(nanoseconds: 50_000_000)
                print("woke")
            } onCancel: {
                print("onCancel")
            }
        }
        try? await Task.sleep(nanoseconds: 10_000_000)
        t.cancel()
        await t.value
        print("done")
        """

    /// The sleeper the cancel wakes prints only after the canceller's onCancel has run.
    @Test func aWokenSleeperGoesOnAfterTheHandlers() throws {
        #expect(try outcomeSet(explore(Self.wokenSleeper)) == ["onCancel woke done"])
    }

    /// The handler never runs after its operation has returned.
    @Test func theOperationEndsOnlyAfterARunningHandler() throws {
        #expect(try outcomeSet(explore("""
            let t = Task.detached {
                await withTaskCancellationHandler {
                    print("operation")
                } onCancel: {
                    print("onCancel")
                }
                print("after")
            }
            t.cancel()
            await t.value
            print("done")
            """)) == ["onCancel operation after done", "operation after done", "operation onCancel after done"])
    }

    /// Why not "woke" first: the narrator names the lock the woken task waits for.
    @Test func theWhyNotNamesTheLock() throws {
        let exploration = try explore(Self.wokenSleeper)
        guard case .impossible(let why) = Explainer(exploration: exploration).explain(Outcome(lines: ["woke", "onCancel", "done"], end: .finished)) else {
            Issue.record("the outcome should be impossible")
            return
        }
        let said = why.blockers.map { Said($0, why) }
        #expect(said.map(\.detail) == [
            "worker 1 (task 1) waits at line 4 to remove its cancellation record: main holds the task's status-record lock while it runs the task's onCancel handlers"
        ])
        #expect(said.map(\.rule) == [.cancellationHandlersHoldTheTask])
    }
}
