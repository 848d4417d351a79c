import ConcurrencyModel
import Foundation
import LiveRun

/// A live run started while the learner is still typing, so the histogram is ready when the
/// verdict is. Cancelled (its worker killed) when the learner moves on before it ends.
final class BackgroundLiveRun: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<LiveHistogram, Error>?
    private var cancelled = false

    /// `code` decides how it runs (`LiveRoute`): a Swift-concurrency snippet is compiled (once,
    /// cached) and run on the real runtime.
    init(code: String, program: Program, runs: Int, seed: UInt64) {
        let thread = Thread { [self] in
            let outcome = Result {
                try LiveRunner.selfHosted.run(
                    code: code, program: program, options: .init(runs: runs, seed: seed, jitter: true),
                    shouldStop: { [self] in condition.withLock { cancelled } })
            }
            condition.withLock {
                result = outcome
                condition.broadcast()
            }
        }
        // Ctrl-C is for the line editor on the main thread: a SIGINT delivered to this thread
        // would not interrupt the main thread's read. The thread inherits the mask it is
        // created with, so block SIGINT around its creation.
        var interrupt = sigset_t()
        var previous = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_BLOCK, &interrupt, &previous)
        thread.start()
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    var isReady: Bool { condition.withLock { result != nil } }

    /// Waits for the histogram, checking `shouldStop` every 50 ms: nil once it says to stop
    /// (Ctrl-C), the runs going on until cancelled.
    func wait(stoppingWhen shouldStop: () -> Bool) -> Result<LiveHistogram, Error>? {
        condition.withLock {
            while result == nil {
                if shouldStop() { return nil }
                _ = condition.wait(until: Date().addingTimeInterval(0.05))
            }
            return result!
        }
    }

    func cancel() {
        condition.withLock { cancelled = true }
    }
}
