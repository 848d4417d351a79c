/// The model's rules for task groups (SE-0304, swiftlang/swift `TaskGroup.cpp`, and swiftc runs
/// pinned in `SwiftConcurrencyTests`): a group's body runs in place in its task; `addTask` starts a child on the global executor
/// at once; finished children give their values in the order they finished; a task waiting in
/// the group resumes through a job on the global executor when a child finishes; the group waits
/// for every child before `withTaskGroup` returns, cancelling none of them unless an error leaves
/// the body (`TaskGroup.swift`: the body's return is followed by `awaitAllRemainingTasks()`; only
/// `withThrowingTaskGroup`'s catch calls `cancelAll()` first), so a loop left by `break` leaves
/// the rest to run on. Discarding groups (`DiscardingTaskGroup.swift`) drop children's values.
extension Semantics {
    func withTaskGroupStep(_ run: TaskGroupRun, at site: StepSite, in state: inout MachineState) -> StepEffect {
        state.taskGroups[run.group.index] = TaskGroupState()
        state.threads[site.index].frames[site.frameIndex].pc += 1
        state.threads[site.index].frames.append(Frame(block: run.body, role: .inlineBody))
        return .moves(.startsTaskGroup(group: run.group), advancesPC: false)
    }

    /// `for await v in group`, `next()`: a finished child's value (and the loop's body), the end
    /// when no child is left, or a suspension until one finishes (the statement then runs again).
    func groupNextStep(_ next: GroupNext, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let g = next.group.index
        if !state.taskGroups[g].finished.isEmpty {
            let child = state.taskGroups[g].finished.removeFirst()
            // A child that ended with an error: `for try await`, `try await group.next()` throw it on.
            if case .error(let error)? = state.tasks[child].result {
                state.threads[site.index].frames[site.frameIndex].pc += 1
                return try raise(error, thread: site.index, in: &state)
            }
            if let result = next.result, let value = state.tasks[child].result { assign(result, value, thread: site.index, in: &state) }
            // A loop's statement runs again once its body has run.
            if !next.loops { state.threads[site.index].frames[site.frameIndex].pc += 1 }
            // A loop's body (`whileBody`): `break` leaves the loop, `continue` waits for the next child.
            if let body = next.body { state.threads[site.index].frames.append(Frame(block: body, role: next.loops ? .whileBody : .branch)) }
            return .moves(.takesChild(group: next.group, task: child), advancesPC: false)
        }
        if state.taskGroups[g].running.isEmpty {
            return .moves(.groupDrained(group: next.group), advancesPC: true)
        }
        return try awaitGroup(next.group, at: site, in: &state)
    }

    /// `waitForAll()` and the end of `withTaskGroup`: values nobody took are dropped. At the end
    /// of `withThrowingDiscardingTaskGroup`, a child's first error is thrown on (the statement
    /// after, `ThrowAction.pending`) unless the body threw its own, which wins.
    func groupWaitAllStep(_ group: TaskGroupID, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        guard state.taskGroups[group.index].running.isEmpty else { return try awaitGroup(group, at: site, in: &state) }
        state.taskGroups[group.index].finished = []
        if let error = state.taskGroups[group.index].firstError {
            state.taskGroups[group.index].firstError = nil
            if state.threads[site.index].frames[site.frameIndex].pendingError == nil {
                state.threads[site.index].frames[site.frameIndex].pendingError = error
            }
        }
        return .moves(.groupDrained(group: group), advancesPC: true)
    }

    private func awaitGroup(_ group: TaskGroupID, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        guard let task = site.thread.task else { throw .undefined("an await outside a task") }
        state.taskGroups[group.index].waiter = task
        suspend(task, thread: site.index, in: &state)
        return .ends(.next(state, ScheduleStep(thread: site.thread.threadID, queue: site.queue, event: .awaitsGroup(group: group),
                                               span: site.statement.span)))
    }

    /// A child of a group finished: its value waits to be taken, and a task waiting in the group
    /// resumes through the global executor. A discarding group drops the value at once; in a
    /// throwing one a child's error cancels the group (every child still running), and the
    /// first is kept for the group's end (`DiscardingTaskGroup.swift`; `TaskGroup.cpp`).
    func childFinished(_ task: Int, group g: Int, thread index: Int, in state: inout MachineState) {
        state.taskGroups[g].running.removeAll { $0 == task }
        if program.taskGroups[g].discarding {
            if case .error(let error)? = state.tasks[task].result, program.taskGroups[g].throwing {
                if state.taskGroups[g].firstError == nil { state.taskGroups[g].firstError = error }
                state.taskGroups[g].cancelled = true
                for child in state.taskGroups[g].running { _ = cancelTask(child, by: index, in: &state) }
            }
        } else {
            state.taskGroups[g].finished.append(task)
        }
        if let waiter = state.taskGroups[g].waiter {
            state.taskGroups[g].waiter = nil
            enqueueJob(waiter, on: queue(for: .generic), in: &state)
        }
    }
}
