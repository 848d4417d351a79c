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
            // Ctrl-C is for the line editor on the main thread: a signal delivered to this
            // thread would not interrupt the main thread's read.
            var interrupt = sigset_t()
            sigemptyset(&interrupt)
            sigaddset(&interrupt, SIGINT)
            pthread_sigmask(SIG_BLOCK, &interrupt, nil)
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
