import Testing
@testable import ConcurrencyModel

/// `withTaskCancellationHandler`, the answers computed by the model and checked against swiftc
/// with `gcdquiz verify <file> --runs 100` (Swift 6, 2 cores; every run an outcome of the set).
/// The runtime's rule (swiftlang/swift TaskCancellation.swift): the handler is registered before
/// the operation runs in place, runs at once if the task is already cancelled, else inside
/// `cancel()` on the cancelling thread, concurrently with the operation; it is removed when the
/// operation ends.
@Suite struct CancellationHandlerTests {
    /// ch-basic.swift: a main-actor task sleeping in its operation; `cancel()` from main runs
    /// onCancel there, and the sleep ends at once.
    @Test func cancelRunsOnCancelAndWakesTheOperation() throws {
        #expect(try outcomeSet(explore("""
            let task = Task {
                await withTaskCancellationHandler {
                    print("operation start")
                    try? await Task.sleep(nanoseconds: 1_000_000_000)
                    print("operation end \\(Task.isCancelled)")
                } onCancel: {
                    print("onCancel")
                }
            }
            try? await Task.sleep(nanoseconds: 100_000_000)
            print("cancelling")
            task.cancel()
            await task.value
            print("done")
            """)) == ["operation start cancelling onCancel operation end true done"])
    }

    /// ch-pre.swift: a task cancelled before it runs: onCancel runs first, then the operation.
    @Test func anAlreadyCancelledTaskRunsOnCancelAtOnce() throws {
        #expect(try outcomeSet(explore("""
            let task = Task {
                await withTaskCancellationHandler(operation: {
                    print("operation")
                }, onCancel: {
                    print("onCancel")
                })
                print("after")
            }
            task.cancel()
            print("main")
            await task.value
            print("done")
            """)) == ["main onCancel operation after done"])
    }

    /// ch-race.swift: a detached task: onCancel (on the main thread) races the operation, and
    /// does not run at all once the operation is over before the cancel; nor after the operation
    /// has ended (`after` before `cancelled`): the main thread holds the task's status-record lock
    /// while it runs onCancel, and the operation's end waits for it to remove the handler
    /// (`StatusRecordLockTests`).
    @Test func onCancelRunsBesideTheOperation() throws {
        #expect(try outcomeSet(explore("""
            let task = Task.detached {
                await withTaskCancellationHandler {
                    print("op 1")
                    print("op 2")
                } onCancel: {
                    print("cancelled")
                }
                print("after")
            }
            task.cancel()
            await task.value
            print("done")
            """)) == [
                "cancelled op 1 op 2 after done",
                "op 1 cancelled op 2 after done",
                "op 1 op 2 after done",
                "op 1 op 2 cancelled after done",
            ])
    }

    @Test func misuseIsPlacedAtItsLine() {
        expectDiagnostics("""
            Task {
                await withTaskCancellationHandler {
                    1️⃣try await Task.sleep(nanoseconds: 1_000)
                } onCancel: {
                    print("x")
                }
            }
            """, ["1️⃣": "'try' in a withTaskCancellationHandler operation is outside the supported subset"])
    }
}
