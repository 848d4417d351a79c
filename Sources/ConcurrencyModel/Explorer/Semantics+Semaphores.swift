/// The model's rules for dispatch semaphores and NSLock (a semaphore whose count stays 0 or 1).
extension Semantics {
    /// `wait` returns once the count is above 0 (see `wait(of:in:)`) and takes one; `signal` adds
    /// one (an unlock of a lock that is free leaves it free).
    func semaphoreStep(_ semaphore: SemaphoreID, _ action: SemaphoreAction, at site: StepSite, in state: inout MachineState) -> StepEffect {
        if action == .wait {
            state.semaphores[semaphore.index] -= 1
            return .moves(.semaphoreWaitReturns(semaphore: semaphore), advancesPC: true)
        }
        if program.semaphores[semaphore.index].isLock {
            state.semaphores[semaphore.index] = 1
            return .moves(.semaphoreSignal(semaphore: semaphore), advancesPC: true)
        }
        guard state.semaphores[semaphore.index] < Int.max else {
            // libdispatch's counter wraps to LONG_MIN: "Unbalanced call to dispatch_semaphore_signal()".
            let reason = DeadlockReason.unbalancedSignal(thread: site.thread.threadID, semaphore: semaphore, at: site.statement.span)
            return .ends(site.trapped(state, .traps(reason), reason))
        }
        state.semaphores[semaphore.index] += 1
        return .moves(.semaphoreSignal(semaphore: semaphore), advancesPC: true)
    }
}
