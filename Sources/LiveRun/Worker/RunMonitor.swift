import Foundation

/// Books kept during one live run, shared by every thread the run touches: how much submitted
/// work is outstanding, how many threads are running snippet code right now (not blocked in a
/// `sync`), and when anything last happened. From these the watchdog tells a hang from a slow run.
final class RunMonitor: @unchecked Sendable {
    private let lock = NSLock()
    private var outstanding = 0
    private var active = 0
    private var lastProgress = DispatchTime.now().uptimeNanoseconds
    private var inProgress = false
    private var timers = 0
    private var generation = 0

    /// Starts a run: the top-level code is one unit of outstanding work, running on the main thread.
    func beginRun() {
        lock.withLock {
            outstanding = 1
            active = 1
            timers = 0
            inProgress = true
            generation += 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
    }

    func endRun() {
        lock.withLock { inProgress = false }
    }

    var isDone: Bool { lock.withLock { outstanding == 0 } }

    /// Something happened: a statement ran, an item started.
    func progress() {
        lock.withLock { lastProgress = DispatchTime.now().uptimeNanoseconds }
    }

    /// `async` submitted a block.
    func submitted() {
        lock.withLock {
            outstanding += 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// An `async` block starts on some thread.
    func itemStarted() {
        lock.withLock {
            active += 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// A unit of work (an `async` block, or the top-level code) completed. Returns true when it
    /// was the last one: the run is over.
    func workCompleted() -> Bool {
        lock.withLock {
            outstanding -= 1
            active -= 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
            return outstanding == 0
        }
    }

    /// A work item's block ends; its work counts as done only when libdispatch says it has
    /// executed (`outstandingCompleted`), since a cancelled item's block never runs.
    func itemEnded() {
        lock.withLock {
            active -= 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// A submitted work item has executed. Returns true when the run is over.
    func outstandingCompleted() -> Bool {
        lock.withLock {
            outstanding -= 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
            return outstanding == 0
        }
    }

    /// The thread blocks in `sync` (it stops counting as runnable) or comes back from waiting.
    func blocking(_ isBlocked: Bool) {
        lock.withLock {
            active += isBlocked ? -1 : 1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// An `asyncAfter` timer was set (or fired): until it fires, waiting is not hanging.
    func timer(scheduled: Bool) {
        lock.withLock {
            timers += scheduled ? 1 : -1
            lastProgress = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// True when work is outstanding, no thread runs snippet code, and nothing has happened for
    /// `threshold` nanoseconds: nothing will ever happen again.
    func hasHung(threshold: UInt64) -> Bool {
        lock.withLock {
            inProgress && outstanding > 0 && active <= 0 && timers == 0
                && DispatchTime.now().uptimeNanoseconds - lastProgress > threshold
        }
    }
}
