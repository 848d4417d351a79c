/// The model's rules for dispatch semaphores and locks (semaphores whose count stays 0 or 1; an
/// `NSRecursiveLock` and a `Mutex` also know their holder: `LockKind`).
extension Semantics {
    /// `wait` returns once the count is above 0 (see `wait(of:in:)`) and takes one; `signal` adds
    /// one. A lock's holder meeting its own lock, and an unlock of a lock not held, are the lock
    /// kind's to decide (`lockStep`).
    func semaphoreStep(_ semaphore: SemaphoreID, _ action: SemaphoreAction, at site: StepSite, in state: inout MachineState) -> StepEffect {
        if let kind = program.semaphores[semaphore.index].lock {
            return lockStep(semaphore, kind, action, at: site, in: &state)
        }
        if action == .wait {
            state.semaphores[semaphore.index] -= 1
            return .moves(.semaphoreWaitReturns(semaphore: semaphore), advancesPC: true)
        }
        guard state.semaphores[semaphore.index] < Int.max else {
            // libdispatch's counter wraps to LONG_MIN: "Unbalanced call to dispatch_semaphore_signal()".
            let reason = DeadlockReason.unbalancedSignal(thread: site.thread.threadID, semaphore: semaphore, at: site.statement.span)
            return .ends(site.trapped(state, .traps(reason), reason))
        }
        state.semaphores[semaphore.index] += 1
        return .moves(.semaphoreSignal(semaphore: semaphore), advancesPC: true)
    }

    /// `lock()` (or the start of `withLock`) and `unlock()` (or its end). The count is 1 when
    /// free, 0 when held; `wait(of:in:)` lets a thread lock a free lock, or one it holds.
    private func lockStep(_ lock: SemaphoreID, _ kind: LockKind, _ action: SemaphoreAction, at site: StepSite, in state: inout MachineState) -> StepEffect {
        let holder = state.lockHolders[lock.index]
        let holds = holder?.thread == site.threadID
        switch (action, kind) {
        case (.wait, .plain):
            state.semaphores[lock.index] = 0
            return .moves(.semaphoreWaitReturns(semaphore: lock), advancesPC: true)
        case (.wait, .recursive) where holds:
            let depth = (holder?.depth ?? 0) + 1
            state.lockHolders[lock.index]?.depth = depth
            return .moves(.lockTakenAgain(semaphore: lock, depth: depth), advancesPC: true)
        case (.wait, .mutex) where holds:
            let reason = DeadlockReason.recursiveMutexLock(thread: site.thread.threadID, semaphore: lock, at: site.statement.span)
            return .ends(site.trapped(state, .traps(reason), reason))
        case (.wait, .recursive) where holder != nil:
            // Its holder's block ended with the lock held, and the pool thread went back: whether
            // this block runs on that thread (and so holds the lock already) is libdispatch's choice.
            let why = "\(program.semaphores[lock.index].name), an NSRecursiveLock, is still held by a thread whose block ended; whether this block runs on that same pool thread (and so may take it again) is libdispatch's choice, which the model does not follow: unlock it before the block ends"
            let reason = DeadlockReason.modelError(thread: site.thread.threadID, message: why, at: site.statement.span)
            return .ends(site.trapped(state, .crashes(reason), reason))
        case (.wait, .recursive), (.wait, .mutex):
            state.semaphores[lock.index] = 0
            state.lockHolders[lock.index] = LockHolder(thread: site.threadID, depth: 1)
            return .moves(.semaphoreWaitReturns(semaphore: lock), advancesPC: true)
        case (.signal, .plain), (.signal, .mutex):
            // NSLock: whoever unlocks frees it, and a free one stays free. Mutex: only its own
            // withLock gives it back.
            state.semaphores[lock.index] = 1
            state.lockHolders[lock.index] = nil
            return .moves(.semaphoreSignal(semaphore: lock), advancesPC: true)
        case (.signal, .recursive):
            guard holds, let depth = holder?.depth else { return .moves(.unlockIgnored(semaphore: lock), advancesPC: true) }
            if depth > 1 {
                state.lockHolders[lock.index]?.depth = depth - 1
                return .moves(.lockStillHeld(semaphore: lock, depth: depth - 1), advancesPC: true)
            }
            state.semaphores[lock.index] = 1
            state.lockHolders[lock.index] = nil
            return .moves(.semaphoreSignal(semaphore: lock), advancesPC: true)
        }
    }
}
