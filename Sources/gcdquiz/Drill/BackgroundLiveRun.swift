import DispatchModel
import Foundation
import LiveRun

/// A live run started while the learner is still typing, so the histogram is ready when the
/// verdict is. Cancelled (its worker killed) when the learner moves on before it ends.
final class BackgroundLiveRun: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<LiveHistogram, Error>?
    private var cancelled = false

    init(program: Program, runs: Int, seed: UInt64) {
        let thread = Thread { [self] in
            let outcome = Result {
                try LiveRunner.selfHosted.run(
                    program, options: .init(runs: runs, seed: seed, jitter: true),
                    shouldStop: { [self] in condition.withLock { cancelled } })
            }
            condition.withLock {
                result = outcome
                condition.broadcast()
            }
        }
        thread.start()
    }

    var isReady: Bool { condition.withLock { result != nil } }

    /// Waits for the histogram.
    func wait() -> Result<LiveHistogram, Error> {
        condition.withLock {
            while result == nil { condition.wait() }
            return result!
        }
    }

    func cancel() {
        condition.withLock { cancelled = true }
    }
}
