import ConcurrencyModel
import Synchronization

/// Answers a command has printed, kept until the process ends rather than freed: freeing an
/// exploration's thousands of states one by one was a twentieth of a `solve` (measured with perf
/// on a Swift-concurrency puzzle of 4,166 states), spent just before the process exits and the
/// system takes back its memory at once.
enum KeptUntilExit {
    private static let kept = Mutex<[Exploration]>([])

    static func keep(_ exploration: Exploration) {
        kept.withLock { $0.append(exploration) }
    }
}
