import ConcurrencyModel
import Foundation
import Synchronization

/// The real lock behind each lock of the snippet, of its kind: an `NSLock`, an `NSRecursiveLock`
/// (Foundation's own, so the holder's second `lock()` and a stranger's `unlock()` do what they
/// do on this platform), or a `Mutex` of the Synchronization module, taken and given back
/// around `withLock`'s closure, which the IR spells as a wait and a signal: `_unsafeLock()`
/// and `_unsafeUnlock()` are the very calls `withLock` makes, so a nested one traps as the
/// compiled snippet's would ("Recursive call to lock Mutex").
enum LiveLock: @unchecked Sendable {
    case foundation(any NSLocking)
    case mutex(RealMutex)

    init(_ kind: LockKind) {
        switch kind {
        case .plain: self = .foundation(NSLock())
        case .recursive: self = .foundation(NSRecursiveLock())
        case .mutex: self = .mutex(RealMutex())
        }
    }

    func lock() {
        switch self {
        case .foundation(let lock): lock.lock()
        case .mutex(let mutex): mutex.lock()
        }
    }

    func unlock() {
        switch self {
        case .foundation(let lock): lock.unlock()
        case .mutex(let mutex): mutex.unlock()
        }
    }
}

/// A `Mutex<Void>` kept in a class, so that the interpreter's threads share the one lock.
final class RealMutex: Sendable {
    private let mutex = Mutex(())

    func lock() { mutex._unsafeLock() }
    func unlock() { mutex._unsafeUnlock() }
}
