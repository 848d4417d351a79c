import CProcessSupport

/// The live worker's lock for what the snippet's threads share (the books, the output, the
/// variables): a waiter yields the CPU but stays runnable. An `NSLock` waiter sleeps in a futex,
/// and libdispatch's pool monitor, which adds a worker when it finds the pool's threads blocked,
/// would then give the snippet threads it never gets when compiled (measured: a third global
/// block started before the first two printed on two cores, 7 runs in 1000).
final class RunnableLock: @unchecked Sendable {
    private let flag: UnsafeMutablePointer<Int32>

    init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit {
        flag.deallocate()
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        gcdquiz_spin_lock(flag)
        defer { gcdquiz_spin_unlock(flag) }
        return try body()
    }
}
