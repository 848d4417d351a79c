/// The model's rules for Swift concurrency's tasks and executors (the README's
/// Swift-concurrency rules, from swiftlang/swift `stdlib/public/Concurrency` and swiftc runs): a task runs as jobs; a job
/// is an item of the queue of an executor — the main queue for the main actor, an actor's own
/// serial queue (priority-ordered), the cooperative queue for the global executor. A task that
/// suspends saves its frames and gives its thread back; it resumes through a job on the global
/// executor (`completeFuture`, `Task.yield`, `Task.sleep`), which then moves it to the executor
/// its code needs (`swift_task_switch`).
extension Semantics {
    /// The queue that serves an isolation's jobs.
    func queue(for isolation: Isolation) -> QueueID {
        switch isolation {
        case .generic: program.cooperativeQueue!
        case .mainActor: Program.mainQueueID(in: program.queues)
        case .actor(let queue): queue
        }
    }

    /// Nobody runs the actor and no job waits for it: a thread may take it at once.
    func isIdle(actor queue: QueueID, in state: MachineState) -> Bool {
        state.queues[queue.index].active == 0 && state.queues[queue.index].pending.isEmpty
    }

    /// Puts a job of the task on an executor's queue: at the end (main queue, global executor),
    /// or on an actor before the jobs of lower priority.
    func enqueueJob(_ task: Int, on queue: QueueID, in state: inout MachineState) {
        guard program[queue].kind == .actor else {
            state.enqueue(on: queue, .job(task: task))
            return
        }
        let rank = state.tasks[task].priority
        let pending = state.queues[queue.index].pending
        let position = pending.firstIndex { item in
            if case .job(let other) = item { return state.tasks[other].priority < rank }
            return false
        } ?? pending.count
        state.queues[queue.index].insert(.job(task: task), arrival: state.nextArrival, at: position)
        state.nextArrival += 1
    }

    /// Sets a variable the thread can see (a top-level one, or a local of its closure).
    func assign(_ variable: VariableID, _ value: Value, thread index: Int, in state: inout MachineState) {
        if program[variable].isGlobal {
            state.globals[variable.index] = value
        } else {
            setLocal(variable, value, thread: index, in: &state)
        }
    }

    // MARK: Steps

    /// `Task { }`, `Task.detached { }`, `async let`: the task's first job goes to its executor;
    /// its body captures the creator's locals by value.
    func spawnStep(_ spawn: TaskSpawn, at site: StepSite, in state: inout MachineState) -> StepEffect {
        // `addTaskUnlessCancelled`: the group's own flag, or its task's (the runtime's group status
        // is cancelled with its task), as `_taskGroupAddPendingTask` reads it when it adds.
        if let added = spawn.unlessCancelled, let group = spawn.group {
            let cancelled = state.taskGroups[group.index].cancelled || site.thread.task.map { state.tasks[$0].cancelled } ?? false
            assign(added, .bool(!cancelled), thread: site.index, in: &state)
            if cancelled { return .moves(.addsNoChild, advancesPC: true) }
        }
        let index = state.tasks.count
        let inherited = site.thread.task.map { state.tasks[$0].priority } ?? TaskPriority.medium.rank
        let priority = spawn.priority?.rank ?? (spawn.kind == .detached ? TaskPriority.medium.rank : inherited)
        var task = TaskState(isolation: spawn.isolation, priority: priority)
        task.frames = [Frame(block: spawn.body, role: .task(index), locals: visibleLocals(of: site.thread))]
        // Task-local bindings: copied now (`swift_task_localsCopyTo`), a child's seen through its
        // parent (which cannot end them while it runs); none for a detached task.
        if spawn.kind != .detached { task.taskLocals = taskLocalBindings(of: site.thread, in: state) }
        // Children (an async let's, a group's) share their parent's cancellation.
        if spawn.kind == .asyncLet || spawn.kind == .groupChild, let parent = site.thread.task {
            task.parent = parent
            task.cancelled = state.tasks[parent].cancelled
        }
        if let group = spawn.group {
            task.group = group.index
            task.cancelled = task.cancelled || state.taskGroups[group.index].cancelled
            state.taskGroups[group.index].running.append(index)
        }
        task.awaitable = spawn.handle != nil || spawn.group != nil || spawn.kind == .asyncLet || spawn.kind == .groupChild
        task.named = spawn.handle != nil || spawn.kind == .asyncLet
        task.body = spawn.body
        state.tasks.append(task)
        if let handle = spawn.handle { assign(handle, .int(index), thread: site.index, in: &state) }
        enqueueJob(index, on: queue(for: spawn.isolation), in: &state)
        return .moves(.spawnsTask(task: index, kind: spawn.kind, isolation: spawn.isolation), advancesPC: true)
    }

    /// An `await` that suspends: the task keeps its frames and gives up its thread and executor.
    func suspendStep(_ suspension: Suspension, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        guard let task = site.thread.task else { throw .undefined("an await outside a task") }
        let event: ScheduleStep.Event
        switch suspension {
        case .yield:
            state.threads[site.index].frames[site.frameIndex].pc += 1
            suspend(task, thread: site.index, in: &state)
            enqueueJob(task, on: queue(for: .generic), in: &state)
            event = .yields
        case .sleep where state.tasks[task].cancelled:
            // A cancelled task's sleep throws CancellationError (`try?` drops it): it ends at once.
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.tasks[task].sleepCancelled = true
            suspend(task, thread: site.index, in: &state)
            enqueueJob(task, on: queue(for: .generic), in: &state)
            event = .sleepsTask(microseconds: 0)
        case .sleep(let delay):
            let microseconds = try microseconds(delay, for: site.thread, in: state)
            state.threads[site.index].frames[site.frameIndex].pc += 1
            suspend(task, thread: site.index, in: &state)
            state.taskTimers.append(TaskTimer(due: state.later(by: microseconds), task: task, isShort: microseconds < Self.shortSleep))
            event = .sleepsTask(microseconds: microseconds)
        case .value(let handle, let result):
            guard case .int(let target)? = value(of: handle, for: site.thread, in: state), state.tasks.indices.contains(target) else {
                throw .undefined("an await of a task that was not made")
            }
            if state.tasks[target].finished {
                // A task that ended with an error: `try await t.value` throws it on.
                if case .error(let error)? = state.tasks[target].result {
                    state.threads[site.index].frames[site.frameIndex].pc += 1
                    return try raise(error, thread: site.index, in: &state)
                }
                if let result, let value = state.tasks[target].result { assign(result, value, thread: site.index, in: &state) }
                return .moves(.getsValue(task: target), advancesPC: true)
            }
            // The statement runs again when the task resumes, and then finds the value.
            state.tasks[target].waiters.append(task)
            suspend(task, thread: site.index, in: &state)
            event = .awaitsTask(task: target)
        case .groupNext(let next):
            return try groupNextStep(next, at: site, in: &state)
        case .groupWaitAll(let group):
            return try groupWaitAllStep(group, at: site, in: &state)
        case .streamNext(let next):
            return try streamNextStep(next, at: site, in: &state)
        case .continuation(let id, let result):
            if state.continuations[id.index].resumed {
                // Resumed with `resume(throwing:)`: the error is thrown here.
                if case .error(let error)? = state.continuations[id.index].value {
                    state.threads[site.index].frames[site.frameIndex].pc += 1
                    return try raise(error, thread: site.index, in: &state)
                }
                if let result, let value = state.continuations[id.index].value { assign(result, value, thread: site.index, in: &state) }
                return .moves(.continuationReturns(id), advancesPC: true)
            }
            // The statement runs again once resumed, and then finds the value.
            state.continuations[id.index].waiting = true
            suspend(task, thread: site.index, in: &state)
            event = .awaitsContinuation(id)
        }
        return .ends(.next(state, ScheduleStep(thread: site.thread.threadID, queue: site.queue, event: event, span: site.statement.span)))
    }

    /// `swift_task_switch`: the same thread goes on when the executor it has can be given up
    /// (not the main actor) and the new one taken at once (the global executor, an idle actor);
    /// otherwise the task's job is queued on the new executor and the thread leaves it.
    func hopStep(_ target: Isolation, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        guard let task = site.thread.task else { throw .undefined("an await outside a task") }
        let current = state.tasks[task].isolation
        if current == target { return .moves(.staysOn(target), advancesPC: true) }
        let canGiveUp = current != .mainActor
        let canTake = switch target {
        case .generic: true
        case .mainActor: false
        case .actor(let queue): isIdle(actor: queue, in: state)
        }
        if canGiveUp && canTake {
            releaseExecutor(of: task, in: &state)
            state.tasks[task].isolation = target
            if case .actor(let queue) = target { state.queues[queue.index].active = 1 }
            return .moves(.switchesTo(target), advancesPC: true)
        }
        state.threads[site.index].frames[site.frameIndex].pc += 1
        suspend(task, thread: site.index, in: &state)
        state.tasks[task].isolation = target
        enqueueJob(task, on: queue(for: target), in: &state)
        return .ends(.next(state, ScheduleStep(thread: site.thread.threadID, queue: site.queue, event: .hopsTo(target), span: site.statement.span)))
    }

    // MARK: Jobs

    /// An executor hands a task's job to a thread: the main thread for the main actor, a pool
    /// thread otherwise. A job on the global executor for a task whose code needs an actor moves
    /// it there (at once if the actor is idle, else behind its jobs) or to the main actor.
    func startJob(_ queue: QueueID, in state: MachineState) -> Result {
        var state = state
        // The global executor's next job is the first one whose priority's queue has room.
        var ahead = false
        if program[queue].kind == .cooperative, let place = firstStartableJob(on: queue, in: state), place > 0 {
            state.queues[queue.index].moveToFront(place)
            ahead = true
        }
        guard case .job(let task) = state.queues[queue.index].removeFirst() else { preconditionFailure("not a job") }
        let isolation = state.tasks[task].isolation
        let runner: Int
        switch program[queue].kind {
        case .main:
            runner = MachineState.mainThreadID
        case .actor:
            state.queues[queue.index].active = 1
            runner = newWorker(in: &state)
        case .cooperative:
            runner = newWorker(in: &state)
            // Code isolated to an actor: the thread switches there as its next step, racing
            // with the other threads that do the same.
            if isolation != .generic { state.threads[state.threadIndex(runner)!].switching = true }
        case .serial, .concurrent, .global:
            preconditionFailure("a task's job on a dispatch queue")
        }
        let r = state.threadIndex(runner)!
        state.threads[r].frames = state.tasks[task].frames
        state.threads[r].task = task
        state.tasks[task].frames = []
        let thread = state.threads[r]
        unwind(runner, in: &state)
        let executor: Isolation = switch program[queue].kind {
        case .main: .mainActor
        case .actor: .actor(queue)
        case .cooperative, .serial, .concurrent, .global: .generic
        }
        let event: ScheduleStep.Event = ahead ? .runsTaskAhead(task: task, priority: state.tasks[task].priority) : .runsTask(task: task, isolation: executor)
        return .next(state, ScheduleStep(thread: thread.threadID, queue: queue, event: event,
                                         span: nil))
    }

    /// A pool thread that took a job of the global executor for code isolated to an actor: the
    /// task runs on there if it is idle; otherwise (or for the main actor) its job is queued there.
    func switchStep(_ threadID: Int, in state: MachineState) -> Result {
        var state = state
        let index = state.threadIndex(threadID)!
        let thread = state.threads[index]
        let task = thread.task!
        let isolation = state.tasks[task].isolation
        state.threads[index].switching = false
        if case .actor(let actor) = isolation, isIdle(actor: actor, in: state) {
            state.queues[actor.index].active = 1
            return .next(state, ScheduleStep(thread: thread.threadID, queue: nil, event: .switchesTo(isolation), span: nil))
        }
        // The task is not running on the actor yet: it holds nothing to give up.
        state.tasks[task].frames = state.threads[index].frames
        state.threads.remove(at: index)
        enqueueJob(task, on: queue(for: isolation), in: &state)
        return .next(state, ScheduleStep(thread: thread.threadID, queue: nil, event: .passesTask(task: task, to: isolation), span: nil))
    }

    /// A fresh pool thread, for a job of the global executor or of an actor.
    private func newWorker(in state: inout MachineState) -> Int {
        let worker = state.nextWorker
        state.nextWorker += 1
        state.threads.append(ThreadState(id: worker, frames: []))
        return worker
    }

    /// The task leaves its thread: its frames are kept, its actor is free again (the actor's
    /// next job needs a pool thread), and a pool thread goes back to the pool. The top-level
    /// code's first suspension on Linux ends the main thread (`MachineState.mainThreadLeft`):
    /// with no CFRunLoop to run there, `swift_task_asyncMainDrainQueue` calls dispatch_main()
    /// (swiftlang/swift, stdlib/public/Concurrency/Task.cpp).
    func suspend(_ task: Int, thread index: Int, in state: inout MachineState) {
        if task == 0, machine.platform == .linux { state.mainThreadLeft = true }
        state.tasks[task].frames = state.threads[index].frames
        state.threads[index].frames = []
        state.threads[index].task = nil
        releaseExecutor(of: task, in: &state)
        if state.threads[index].id != MachineState.mainThreadID { state.threads.remove(at: index) }
    }

    /// The task gives up the actor it runs on, if any.
    func releaseExecutor(of task: Int, in state: inout MachineState) {
        if case .actor(let queue) = state.tasks[task].isolation { state.queues[queue.index].active = 0 }
    }

    /// The task's body has ended: its value is ready, its actor free, and every task awaiting
    /// it resumes through a job on the global executor (`completeFuture`).
    func finishTask(_ task: Int, thread index: Int, in state: inout MachineState) {
        state.tasks[task].finished = true
        state.threads[index].task = nil
        releaseExecutor(of: task, in: &state)
        let waiters = state.tasks[task].waiters
        state.tasks[task].waiters = []
        for waiter in waiters { enqueueJob(waiter, on: queue(for: .generic), in: &state) }
        if let group = state.tasks[task].group { childFinished(task, group: group, thread: index, in: &state) }
    }

    /// A due `Task.sleep` timer: the task's job goes to the global executor.
    func wakeTask(_ index: Int, in state: MachineState) -> Result {
        var state = state
        let timer = state.taskTimers.remove(at: index)
        enqueueJob(timer.task, on: queue(for: .generic), in: &state)
        return .next(state, ScheduleStep(thread: .timer, queue: nil, event: .taskWakes(task: timer.task), span: nil))
    }

    /// A `Task.sleep` shorter than this (10 ms) may end before the idle main thread has taken
    /// the main queue's next job (it is woken, and may be late by more than that): measured with
    /// swiftc, the Counter program (a 1 ms sleep) printed its main-actor tasks' lines
    /// after the sleeper's in 32 of 1,000 runs on 2 cores.
    static let shortSleep = 10_000
}
