/// The model's rules for task groups and cancellation (facts: /work/notes/sc-facts.md rules 5, 8,
/// 9): a group's body runs in place in its task; `addTask` starts a child on the global executor
/// at once; finished children give their values in the order they finished; a task waiting in
/// the group resumes through a job on the global executor when a child finishes; the group waits
/// for every child before `withTaskGroup` returns. Cancelling marks a task and its children; a
/// cancelled task's `Task.sleep` ends at once.
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
            if let result = next.result, let value = state.tasks[child].result { assign(result, value, thread: site.index, in: &state) }
            // A loop's statement runs again once its body has run.
            if !next.loops { state.threads[site.index].frames[site.frameIndex].pc += 1 }
            if let body = next.body { state.threads[site.index].frames.append(Frame(block: body, role: .branch)) }
            return .moves(.takesChild(group: next.group, task: child), advancesPC: false)
        }
        if state.taskGroups[g].running.isEmpty {
            return .moves(.groupDrained(group: next.group), advancesPC: true)
        }
        return try awaitGroup(next.group, at: site, in: &state)
    }

    /// `waitForAll()` and the end of `withTaskGroup`: values nobody took are dropped.
    func groupWaitAllStep(_ group: TaskGroupID, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        guard state.taskGroups[group.index].running.isEmpty else { return try awaitGroup(group, at: site, in: &state) }
        state.taskGroups[group.index].finished = []
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
    /// resumes through the global executor.
    func childFinished(_ task: Int, group g: Int, in state: inout MachineState) {
        state.taskGroups[g].running.removeAll { $0 == task }
        state.taskGroups[g].finished.append(task)
        if let waiter = state.taskGroups[g].waiter {
            state.taskGroups[g].waiter = nil
            enqueueJob(waiter, on: queue(for: .generic), in: &state)
        }
    }

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
            // CancellationError ends the task's body: every frame of it is over.
            for index in state.threads[site.index].frames.indices {
                state.threads[site.index].frames[index].pc = program[state.threads[site.index].frames[index].block].statements.count
                if case .loop(let variable, _, let last) = state.threads[site.index].frames[index].role {
                    state.threads[site.index].frames[index].role = .loop(variable: variable, current: last, last: last)
                }
            }
            return .moves(.throwsCancellation, advancesPC: false)
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
            enqueueJob(task, on: queue(for: .generic), in: &state)
        }
        for child in state.tasks.indices where state.tasks[child].parent == task { cancelled += cancelTask(child, in: &state) }
        return cancelled
    }
}

/// The model's rules for continuations (swiftlang/swift CheckedContinuation.swift, and swiftc runs
/// in /work/notes/sc-experiments/q9_*): the body runs at once in the calling task; the task waits
/// only if nobody resumed the continuation by then; a resume puts the waiting task's job on the
/// executor it suspended on (`ResumeToExecutor`); a second resume traps.
extension Semantics {
    func continuationStep(_ id: ContinuationID, _ action: ContinuationAction, at site: StepSite,
                          in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        switch action {
        case .start(let body):
            state.continuations[id.index] = ContinuationState(task: site.thread.task)
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.threads[site.index].frames.append(Frame(block: body, role: .inlineBody))
            return .moves(.startsContinuation(id), advancesPC: false)
        case .resume(let value):
            guard !state.continuations[id.index].resumed else { throw .runtime(.continuationResumedTwice) }
            state.continuations[id.index].resumed = true
            state.continuations[id.index].value = try value.map { expression throws(EvaluationError) in
                try evaluate(expression, for: site.thread, in: state)
            }
            var woken: Int?
            if state.continuations[id.index].waiting, let task = state.continuations[id.index].task {
                state.continuations[id.index].waiting = false
                enqueueJob(task, on: queue(for: state.tasks[task].isolation), in: &state)
                woken = task
            }
            return .moves(.resumesContinuation(id, wakes: woken), advancesPC: true)
        }
    }
}

extension Semantics {
    /// Tasks suspended for good: no job of theirs waits on an executor and no timer will wake
    /// them, each with what it awaits and where.
    func suspendedTasks(in state: MachineState) -> [StuckFact] {
        var queued: Set<Int> = []
        for queue in state.queues {
            for case .job(let task) in queue.pending { queued.insert(task) }
        }
        var facts: [StuckFact] = []
        for (index, task) in state.tasks.enumerated() where !task.finished && !task.frames.isEmpty && !queued.contains(index) {
            guard !state.taskTimers.contains(where: { $0.task == index }), let frame = task.frames.last else { continue }
            let statements = program[frame.block].statements
            guard statements.indices.contains(frame.pc) else { continue }
            let statement = statements[frame.pc]
            let wait: TaskWait
            switch statement.action {
            case .suspend(.continuation(let id, _)): wait = .continuation(id)
            case .suspend(.groupNext(let next)): wait = .group(next.group)
            case .suspend(.groupWaitAll(let group)): wait = .group(group)
            case .suspend(.value(let handle, _)):
                let holder = ThreadState(id: -1, frames: task.frames)
                guard case .int(let target)? = value(of: handle, for: holder, in: state) else { continue }
                wait = .taskValue(target)
            default: continue
            }
            facts.append(.taskWaits(task: index, wait, line: statement.span.line))
        }
        return facts
    }
}
