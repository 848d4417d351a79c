/// The search shortcut: partial-order reduction (see `moves(in:)`).
extension Semantics {
    /// The thread's next step reads and writes nothing another thread can see, and cannot trap
    /// (a trap ends every thread's run, so it does not commute with their steps).
    func isLocal(_ thread: ThreadState, in state: MachineState) -> Bool {
        if thread.switching || thread.returning { return false }
        guard let statement = nextStatement(of: thread) else { return false }
        func local(_ expression: Expression) -> Bool {
            !expression.variablesRead.contains { program[$0].isGlobal }
                && (try? evaluate(expression, for: thread, in: state)) != nil
        }
        /// A delay that reads no shared variable and does not trap.
        func local(_ delay: Delay) -> Bool {
            !delay.variablesRead.contains { program[$0].isGlobal } && (try? microseconds(delay, for: thread, in: state)) != nil
        }
        // Ending a task is seen by others: its group takes the values of children in the order
        // they finish, a task awaiting it resumes.
        if thread.task != nil {
            if case .returns = statement.action {
                guard let boundary = thread.frames.lastIndex(where: \.isBody) else { return false }
                if case .task = thread.frames[boundary].role { return false }
                if endsTask(thread.frames[..<boundary], afterTop: false) { return false }
            } else if endsTask(thread.frames[...], afterTop: true) {
                return false
            }
        }
        switch statement.action {
        case .assign(let assignment):
            return !program[assignment.target].isGlobal && local(assignment.value) && (assignment.index.map(local) ?? true)
                && (try? assignedValue(assignment, for: thread, in: state)) != nil
        case .loop(let loop):
            guard local(loop.from), local(loop.to),
                let from = try? evaluate(loop.from, for: thread, in: state), let to = try? evaluate(loop.to, for: thread, in: state)
            else { return false }
            do {
                _ = try loop.values(from: from, to: to)
                return true
            } catch {
                return false
            }
        case .branch(let condition, _, _): return local(condition)
        case .whileLoop(let loop): return loop.entersUntested || local(loop.condition)
        case .call(let call): return call.arguments.allSatisfy { local($0.value) }
        case .returns(let value): return value.map(local) ?? true
        case .sleep(let delay): return thread.sleepUntil == nil && local(delay)
        // Entering a `do` body, or a point where no error is thrown on: nothing another thread sees.
        case .handles: return true
        case .throwing(.pending): return thread.frames.last?.pendingError == nil
        case .throwing(.sleepCancelled): return !(thread.task.map { state.tasks[$0].sleepCancelled } ?? false)
        case .throwing(.value): return false
        // The running task's (or thread's) own bindings, which only it reads until it makes a task.
        case .taskLocal(.bind(_, let value)): return local(value)
        case .taskLocal(.unbind), .taskLocal(.read): return true
        case .timedWait(_, let delay, _): return thread.waitDeadline == nil && local(delay)
        case .print, .dispatch, .group, .semaphore, .dispatchAfter, .activate, .queueSetting, .precondition, .workItem, .exitLoop,
            .concurrentPerform, .operation, .operationQueue, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .continuation, .stream,
            .timer:
            return false
        }
    }

    /// The global executor's next job, started before anything else happens where no other
    /// start wants its thread: on a machine with enough cores, where no actor runs jobs, or
    /// where its priority's queue has room for it and for every actor besides (an actor's job
    /// takes a place of its priority's width as a global executor's job does). The executor's
    /// jobs of one priority start in the order they came, those of another on a pool of their
    /// own (`firstStartableJob` picks the first one with room, whichever start comes first), and
    /// a start prints nothing and changes nothing another thread reads (the job's first
    /// statement is a step of its own, and an ending others see waits for its own step,
    /// `isSeenEnding`). So the start commutes with every other move and no move disables it:
    /// taking it first loses no outcome, and the states where the job still waits are never made
    /// (the counter puzzle's widest search: 1,458 states, 853 with this).
    func jobStartFirst(in state: MachineState) -> Move? {
        guard let executor = program.cooperativeQueue, !state.queues[executor.index].pending.isEmpty,
            canStart(executor, in: state), jobStartsCommute || roomOutlastsActors(on: executor, in: state)
        else { return nil }
        return .start(executor)
    }

    /// On a machine of a given width with actors: whether the executor's next job has room
    /// beside one place for each actor not running a job now. Only actors' starts take places
    /// before it does (a task that hops keeps its thread), each actor's one at most, as it runs
    /// one job at a time; so neither that start nor any actor's can keep the other waiting.
    private func roomOutlastsActors(on executor: QueueID, in state: MachineState) -> Bool {
        guard let width = executorWidth, !state.pools.isEmpty else { return true }
        guard let place = firstStartableJob(on: executor, in: state),
            case .job(let task) = state.queues[executor.index].pending[place]
        else { return false }
        let room = width - executorThreads(ofPriority: state.tasks[task].priority, in: state)
        return room > actorQueues.count { state.queues[$0.index].active == 0 }
    }

    /// Whether nothing is left to run in these frames (a task's, outermost first) once the top one
    /// has run its next statement (`afterTop`) or as they stand.
    private func endsTask(_ frames: ArraySlice<Frame>, afterTop: Bool) -> Bool {
        guard let top = frames.indices.last else { return true }
        for index in frames.indices.reversed() {
            let frame = frames[index]
            let done = afterTop && index == top ? 1 : 0
            if program[frame.block].statements.count - frame.pc - done > 0 { return false }
            if case .loop(_, let current, let last) = frame.role, current < last { return false }
        }
        return true
    }
}
