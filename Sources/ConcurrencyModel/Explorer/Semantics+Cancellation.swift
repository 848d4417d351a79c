/// The model's rules for cancellation (SE-0304, swiftlang/swift `TaskCancellation.swift`, and
/// swiftc runs pinned in `SwiftConcurrencyTests`): cancelling marks a task and its children; a cancelled
/// task's `Task.sleep` ends at once (`try await` throws CancellationError); `Task.checkCancellation()`
/// in a cancelled task throws CancellationError (`Semantics+Errors`).
extension Semantics {
    func cancellationStep(_ action: CancellationAction, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        switch action {
        case .cancelTask(let handle):
            guard case .int(let target)? = value(of: handle, for: site.thread, in: state), state.tasks.indices.contains(target) else {
                throw .undefined("a cancel of a task that was not made")
            }
            return .moves(.cancels(tasks: cancelTask(target, in: &state)), advancesPC: true)
        case .cancelGroup(let group):
            state.taskGroups[group.index].cancelled = true
            var cancelled: [Int] = []
            for child in state.taskGroups[group.index].running { cancelled += cancelTask(child, in: &state) }
            return .moves(.cancels(tasks: cancelled), advancesPC: true)
        case .read(let variable):
            let cancelled = site.thread.task.map { state.tasks[$0].cancelled } ?? false
            assign(variable, .bool(cancelled), thread: site.index, in: &state)
            return .moves(.readsCancelled(cancelled), advancesPC: true)
        case .check:
            guard let task = site.thread.task, state.tasks[task].cancelled else { return .moves(.readsCancelled(false), advancesPC: true) }
            state.threads[site.index].frames[site.frameIndex].pc += 1
            return try raise(.cancellation, thread: site.index, in: &state)
        }
    }

    /// Marks the task and its unfinished children cancelled; a `Task.sleep` of theirs ends now
    /// (its job goes to the global executor). The tasks newly cancelled.
    func cancelTask(_ task: Int, in state: inout MachineState) -> [Int] {
        guard !state.tasks[task].cancelled, !state.tasks[task].finished else { return [] }
        state.tasks[task].cancelled = true
        var cancelled = [task]
        if let timer = state.taskTimers.firstIndex(where: { $0.task == task }) {
            state.taskTimers.remove(at: timer)
            state.tasks[task].sleepCancelled = true
            enqueueJob(task, on: queue(for: .generic), in: &state)
        }
        for child in state.tasks.indices where state.tasks[child].parent == task { cancelled += cancelTask(child, in: &state) }
        return cancelled
    }
}
