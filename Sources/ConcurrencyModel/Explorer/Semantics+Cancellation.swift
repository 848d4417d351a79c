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
            return .moves(.cancels(tasks: cancelTask(target, by: site.index, in: &state)), advancesPC: true)
        case .cancelGroup(let group):
            state.taskGroups[group.index].cancelled = true
            var cancelled: [Int] = []
            for child in state.taskGroups[group.index].running { cancelled += cancelTask(child, by: site.index, in: &state) }
            return .moves(.cancels(tasks: cancelled), advancesPC: true)
        case .read(let variable):
            let cancelled = site.thread.task.map { state.tasks[$0].cancelled } ?? false
            assign(variable, .bool(cancelled), thread: site.index, in: &state)
            return .moves(.readsCancelled(cancelled), advancesPC: true)
        case .check:
            guard let task = site.thread.task, state.tasks[task].cancelled else { return .moves(.readsCancelled(false), advancesPC: true) }
            state.threads[site.index].frames[site.frameIndex].pc += 1
            return try raise(.cancellation, thread: site.index, in: &state)
        case .addHandler(let block):
            guard let task = site.thread.task else { throw .undefined("withTaskCancellationHandler outside a task") }
            let handler = CancellationHandler(block: block, locals: visibleLocals(of: site.thread))
            state.tasks[task].cancellationHandlers.append(handler)
            if state.tasks[task].cancelled {
                // Already cancelled: the handler runs at once, before the operation.
                state.threads[site.index].frames[site.frameIndex].pc += 1
                state.threads[site.index].frames.append(Frame(block: block, role: .call, locals: handler.locals))
                return .moves(.runsCancellationHandlers(tasks: [task]), advancesPC: false)
            }
            return .moves(.registersCancellationHandler, advancesPC: true)
        case .removeHandler:
            guard let task = site.thread.task, !state.tasks[task].cancellationHandlers.isEmpty else {
                throw .undefined("a cancellation handler removed that was not registered")
            }
            state.tasks[task].cancellationHandlers.removeLast()
            return .moves(.removesCancellationHandler, advancesPC: true)
        }
    }

    /// Marks the task and its unfinished children cancelled; a `Task.sleep` of theirs ends now
    /// (its job goes to the global executor); its cancellation handlers run on the cancelling
    /// thread `thread`, innermost first, as `swift_task_cancel` calls them, concurrently with the
    /// task itself. The tasks newly cancelled.
    func cancelTask(_ task: Int, by thread: Int, in state: inout MachineState) -> [Int] {
        guard !state.tasks[task].cancelled, !state.tasks[task].finished else { return [] }
        state.tasks[task].cancelled = true
        // Pushed last first: the innermost handler's frame on top runs first.
        for handler in state.tasks[task].cancellationHandlers {
            var frame = Frame(block: handler.block, role: .call, locals: handler.locals)
            frame.cancellationHandlerOf = task
            state.threads[thread].frames.append(frame)
        }
        var cancelled = [task]
        cancelStreamNext(of: task, in: &state)
        if let timer = state.taskTimers.firstIndex(where: { $0.task == task }) {
            state.taskTimers.remove(at: timer)
            state.tasks[task].sleepCancelled = true
            enqueueJob(task, on: queue(for: .generic), in: &state)
        }
        for child in state.tasks.indices where state.tasks[child].parent == task { cancelled += cancelTask(child, by: thread, in: &state) }
        return cancelled
    }
}

extension Semantics {
    /// The thread that holds `task`'s status-record lock, running its onCancel handlers, if one
    /// does and it is not `thread`. The task waits for it where it removes a cancellation record:
    /// at the end of `withTaskCancellationHandler`'s operation (`removeStatusRecord`), and where a
    /// cancelled `Task.sleep` returns (the sleep's own handler record); so a handler cannot run
    /// after its operation has returned, and a sleeper the cancel woke goes on only after every
    /// handler has run (the bank helper's stop-37 finding, read in TaskStatus.cpp and
    /// TaskSleep.swift; `StatusRecordLockTests`).
    func statusRecordHolder(of task: Int, besides thread: ThreadState, in state: MachineState) -> Int? {
        state.threads.first { other in
            other.id != thread.id && other.frames.contains { $0.cancellationHandlerOf == task }
        }?.id
    }
}

/// A registered onCancel block and the locals it captured when registered.
struct CancellationHandler: Hashable {
    var block: BlockID
    var locals: [VariableID: Value]
}
