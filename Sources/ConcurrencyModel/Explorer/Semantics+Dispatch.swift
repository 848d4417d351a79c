/// The model's rules for dispatch queues: submitting with `async` and `sync`, starting items on
/// threads, activating queues, `dispatchPrecondition`, and `concurrentPerform`.
extension Semantics {
    /// Serial queues run one item at a time; the main queue only when the main thread is idle;
    /// concurrent queues start items as soon as they reach the head, except that a barrier waits
    /// for the queue to be empty and runs alone; global queues ignore barriers.
    func canStart(_ queue: QueueID, in state: MachineState) -> Bool {
        admits(queue, in: state) && workerAvailability(for: queue, in: state) != .waits
    }

    /// The place of a worker's `sync` on the main queue that only main-actor jobs are ahead of:
    /// libdispatch may let it in first (measured with swiftc: a task resumed from a serial
    /// queue's block, which then calls DispatchQueue.main.sync, printed the sync's line before
    /// the task's in 90 of 200 runs, after it in 110).
    func syncOvertakingJobs(on queue: QueueID, in state: MachineState) -> Int? {
        guard program[queue].kind == .main else { return nil }
        let pending = state.queues[queue.index].pending
        guard case .job? = pending.first, let place = pending.firstIndex(where: { if case .sync = $0 { true } else { false } }) else { return nil }
        return pending[..<place].allSatisfy { if case .job = $0 { true } else { false } } ? place : nil
    }

    /// The `sync` goes ahead of the jobs, and starts.
    func overtake(_ queue: QueueID, in state: MachineState) -> Result {
        guard let place = syncOvertakingJobs(on: queue, in: state) else { return start(queue, in: state) }
        var state = state
        state.queues[queue.index].moveToFront(place)
        return start(queue, in: state)
    }

    /// Whether the queue's own rules let its first item start now (threads aside).
    func admits(_ queue: QueueID, in state: MachineState) -> Bool {
        let queueState = state.queues[queue.index]
        if state.inactive[queue.index] { return false }
        if state.drainTargets[queue.index] != nil { return admitsDrained(queue, in: state) }
        switch program[queue].kind {
        case .main: return queueState.active == 0 && state.mainThread.frames.isEmpty
        case .serial, .actor: return queueState.active == 0
        case .global, .cooperative: return true
        case .concurrent:
            if queueState.barrierActive { return false }
            return queueState.pending.first?.isBarrier == true ? queueState.active == 0 : true
        }
    }

    /// `async` enqueues the block; `sync` enqueues it and blocks the thread inside the statement
    /// until the queue runs it, or traps when the thread already owns the queue.
    func dispatchStep(_ queue: QueueID, _ mode: DispatchMode, _ body: BlockID, _ options: DispatchOptions, at site: StepSite,
                      in state: inout MachineState) -> StepEffect {
        let thread = site.thread
        switch mode {
        case .async:
            state.enqueue(on: queue, .async(body, captures: visibleLocals(of: thread), barrier: options.barrier, group: options.group, task: nil))
            if let group = options.group { state.groups[group.index].count += 1 }
            return .moves(.enqueued(queue: queue), advancesPC: true)
        case .sync:
            if ownsForSync(thread, queue) || (usesTargets && syncTrapsThroughTargets(thread, queue)) {
                let reason = DeadlockReason.trap(thread: thread.threadID, queue: queue, at: site.statement.span)
                return .ends(site.trapped(state, .traps(reason), reason))
            }
            state.threads[site.index].frames[site.frameIndex].pc += 1
            if options.asyncAndWait && entersAtOnce(queue, in: state) {
                // dispatch_async_and_wait's fast path: the queue is free, so the caller takes it
                // and runs the block itself, as sync does.
                state.queues[queue.index].active += 1
                state.threads[site.index].frames.append(Frame(block: body, role: .syncBody(queue, waiter: nil, barrier: false)))
                return .moves(.asyncAndWaitRunsHere(queue: queue), advancesPC: false)
            }
            state.enqueue(on: queue, .sync(thread: site.threadID, body: body, barrier: options.barrier, captures: visibleLocals(of: thread)))
            state.threads[site.index].waitingOn = queue
            let event: ScheduleStep.Event = options.asyncAndWait ? .asyncAndWaitWaits(queue: queue) : .waits(queue: queue)
            return .ends(.next(state, ScheduleStep(thread: thread.threadID, queue: site.queue, event: event, span: site.statement.span)))
        }
    }

    func activateStep(_ queue: QueueID, in state: inout MachineState) -> StepEffect {
        state.inactive[queue.index] = false
        state.wakeTarget(of: queue)
        return .moves(.activates(queue: queue), advancesPC: true)
    }

    func preconditionStep(_ kind: PreconditionKind, _ queue: QueueID, at site: StepSite, in state: MachineState) -> StepEffect {
        if !preconditionHolds(kind, queue, site.thread) {
            let reason = DeadlockReason.preconditionFailed(thread: site.thread.threadID, kind: kind, queue: queue, at: site.statement.span)
            return .ends(site.trapped(state, .traps(reason), reason))
        }
        return .moves(.preconditionHolds(kind), advancesPC: true)
    }

    /// The caller runs iterations itself, one after another, until none is left to take; then it
    /// waits for the helpers' and returns. The statement is stepped each time. Helpers may take
    /// iterations from the start: any index may run on any thread.
    func concurrentPerformStep(_ perform: ConcurrentPerform, at site: StepSite, in state: inout MachineState) -> StepEffect {
        let t = site.index, frameIndex = site.frameIndex
        if let instance = site.frame.performing, state.performs[instance].hasIterationsLeft {
            let iteration = state.performs[instance].next
            state.threads[t].frames.append(state.performs[instance].takeIteration(role: .call, instance: instance))
            dropIdleHelpers(of: instance, in: &state)
            return .moves(.takesIteration(iteration), advancesPC: false)
        } else if site.frame.performing == nil {
            let instance = state.performs.count
            state.threads[t].frames[frameIndex].performing = instance
            state.performs.append(PerformState(perform: perform, callBlock: site.frame.block, callIndex: site.frame.pc,
                                               captures: visibleLocals(of: site.thread)))
            // libdispatch asks its pool for one helper fewer than the threads it will use.
            let width = performWidth(iterations: perform.iterations, calledBy: site.thread, in: state)
            for _ in 1..<width { state.enqueue(on: perform.queue, .helper(perform: instance)) }
            return .moves(.performs(iterations: perform.iterations), advancesPC: false)
        } else if site.frame.isHelper {
            // Nothing left to take: the helper goes back to the pool.
            state.threads[t].frames[frameIndex].performing = nil
            state.threads[t].frames[frameIndex].pc = program[site.frame.block].statements.count
            return .moves(.leavesPerform, advancesPC: false)
        } else {
            state.threads[t].frames[frameIndex].performing = nil
            state.threads[t].frames[frameIndex].pc += 1
            return .moves(.performReturns, advancesPC: false)
        }
    }

    func start(_ queue: QueueID, in state: MachineState) -> Result {
        if case .job? = state.queues[queue.index].pending.first { return startJob(queue, in: state) }
        if case .drain(let child)? = state.queues[queue.index].pending.first { return startDrain(of: child, on: queue, in: state) }
        if case .async(_, _, _, _, .timerEvent(let source)?)? = state.queues[queue.index].pending.first, state.timerSources[source].cancelled {
            return skipCancelledHandler(of: source, on: queue, in: state)
        }
        var state = state
        let onAddedThread = workerAvailability(for: queue, in: state) == .afterPoolGrows
        if onAddedThread { addThread(forQueue: queue, in: &state) }
        if state.queues[queue.index].pending.first?.needsThread == true { noteWorkerStart(forQueue: queue, in: &state) }
        let item = state.queues[queue.index].removeFirst()
        let kind = program[queue].kind
        let barrier = item.isBarrier && kind == .concurrent
        state.queues[queue.index].active += 1
        if barrier { state.queues[queue.index].barrierActive = true }
        // A sync onto the main queue, or onto a queue that drains through it, runs its body on
        // the main thread (measured with swiftc: `ui.sync` from a worker, ui targeting .main,
        // saw Thread.isMainThread true in 50 of 50 runs).
        let isMain = program.runsOnMainThread(queue)
        let runner: Int
        let event: ScheduleStep.Event
        var span = item.body.flatMap { program[$0].span }

        switch item {
        case .operation(let instance):
            return startOperation(instance, from: queue, in: state, onAddedThread: onAddedThread)
        case .job:
            preconditionFailure("jobs start in startJob")
        case .drain:
            preconditionFailure("drains start in startDrain")
        case .helper(let instance):
            // The worker parks at the call and takes iterations from there, one move each.
            let perform = state.performs[instance]
            var frame = Frame(block: perform.callBlock, pc: perform.callIndex, role: .item(queue, barrier: false, group: nil))
            frame.performing = instance
            frame.isHelper = true
            runner = startThread(with: frame, for: queue, in: &state)
            event = .helpsPerform(onAddedThread: onAddedThread)
            span = program[perform.perform.body].span
        case .async(_, _, _, _, .workItem(let workItem)?) where state.workItems[workItem.index].waitReturned:
            // A run after a wait returned: libdispatch checks before it looks at cancellation.
            let reason = DeadlockReason.workItemMisuse(thread: .libdispatch, item: workItem, misuse: .ranAgainAfterWait,
                                                       at: program[program.workItems[workItem.index].body].span ?? program.workItems[workItem.index].span)
            return .trapped(state, ScheduleStep(thread: .libdispatch, queue: queue, event: .crashes(reason), span: nil), reason)
        case .async(_, _, _, _, .workItem(let workItem)?) where state.globals[program.workItems[workItem.index].cancelled.index] == .bool(true):
            // A cancelled work item is taken from the queue and skipped.
            state.queues[queue.index].active -= 1
            if barrier { state.queues[queue.index].barrierActive = false }
            executed(workItem, fromQueue: true, in: &state)
            return .next(state, ScheduleStep(thread: .libdispatch, queue: queue, event: .workItemSkipped(item: workItem), span: nil))
        case .async(let body, let captures, _, let group, let task):
            let frame = Frame(block: body, role: .item(queue, barrier: barrier, group: group), locals: captures, task: task)
            runner = startThread(with: frame, for: queue, in: &state)
            event = onAddedThread ? .startsItemOnAddedThread(queue: queue) : .startsItem(queue: queue)
        case .sync(let waiter, let body, _, let captures):
            if isMain && waiter != MachineState.mainThreadID {
                runner = MachineState.mainThreadID
                state.threads[0].frames.append(Frame(block: body, role: .syncBody(queue, waiter: waiter, barrier: barrier), locals: captures))
            } else if isAsyncAndWait(waiter, in: state) {
                // The block waited for its turn: the thread that drains the queue runs it
                // (`_dispatch_async_and_wait_invoke`), while the caller waits.
                let frame = Frame(block: body, role: .syncBody(queue, waiter: waiter, barrier: barrier), locals: captures)
                runner = startThread(with: frame, for: queue, in: &state)
                let thread = state.threads[state.threadIndex(runner)!]
                unwind(runner, in: &state)
                return .next(state, ScheduleStep(thread: thread.threadID, queue: queue, event: .runsAsyncAndWait(queue: queue), span: span))
            } else {
                runner = waiter
                let w = state.threadIndex(waiter)!
                state.threads[w].waitingOn = nil
                state.threads[w].frames.append(Frame(block: body, role: .syncBody(queue, waiter: nil, barrier: barrier)))
            }
            event = .entersSync(queue: queue)
        }
        let thread = state.threads[state.threadIndex(runner)!]
        unwind(runner, in: &state)
        return .next(state, ScheduleStep(thread: thread.threadID, queue: queue, event: event, span: span))
    }

    /// `asyncAndWait` takes the queue at once (and runs on the caller) when nothing of the queue
    /// is pending and the queue would start an item now: libdispatch's
    /// `_dispatch_async_and_wait_recurse_one`. A queue drained by a serial target, or run by the
    /// main thread, takes the slow path.
    func entersAtOnce(_ queue: QueueID, in state: MachineState) -> Bool {
        state.drainTargets[queue.index] == nil && !program.runsOnMainThread(queue) && state.queues[queue.index].pending.isEmpty
            && admits(queue, in: state)
    }

    /// Whether the thread waits in an `asyncAndWait` (the statement before its pc).
    func isAsyncAndWait(_ waiter: Int, in state: MachineState) -> Bool {
        guard let index = state.threadIndex(waiter), let frame = state.threads[index].frames.last, frame.pc > 0 else { return false }
        if case .dispatch(_, .sync, _, let options) = program[frame.block].statements[frame.pc - 1].action { return options.asyncAndWait }
        return false
    }

    /// Gives an item's frame to a thread: the main thread serves the main queue, and every other
    /// item gets a fresh worker (the pool has as many as needed). Returns the thread's id.
    func startThread(with frame: Frame, for queue: QueueID, in state: inout MachineState) -> Int {
        if program.runsOnMainThread(queue) {
            state.threads[0].frames.append(frame)
            return MachineState.mainThreadID
        }
        let worker = state.nextWorker
        state.nextWorker += 1
        state.threads.append(ThreadState(id: worker, frames: [frame]))
        return worker
    }

    /// Submits notify blocks to their queues, in the order they were registered.
    func submit(_ entries: [NotifyEntry], in state: inout MachineState) {
        for entry in entries {
            state.enqueue(on: entry.queue, .async(entry.body, captures: entry.captures, barrier: false, group: nil, task: nil))
        }
    }

    /// Whether the thread runs on the queue: the main thread for the main queue; otherwise an
    /// item or sync body of the queue (as a barrier, for `.onQueueAsBarrier`).
    private func preconditionHolds(_ kind: PreconditionKind, _ queue: QueueID, _ thread: ThreadState) -> Bool {
        let isMain = program[queue].kind == .main
        let onQueue = isMain ? thread.id == MachineState.mainThreadID : thread.holds(queue) || (usesTargets && runsInHierarchy(thread, of: queue))
        switch kind {
        case .onQueue, .assumeIsolated, .assertIsolated, .preconditionIsolated: return onQueue
        case .notOnQueue: return !onQueue
        case .onQueueAsBarrier:
            guard onQueue else { return false }
            if program[queue].kind.isSerial { return true }
            return thread.frames.contains { frame in
                switch frame.role {
                case .item(queue, true, _), .syncBody(queue, _, true): true
                case .item, .syncBody, .topLevel, .branch, .call, .loop, .whileBody, .task, .inlineBody: false
                }
            }
        }
    }

    /// A `sync` traps when the thread already owns the queue: the main thread always owns the
    /// main queue (libdispatch binds it), a thread owns a serial queue while it runs an item or a
    /// sync body of it, however deeply nested, and a custom concurrent queue while it runs a
    /// barrier of it (measured with swiftc: `concurrentQueue.async(flags: .barrier) {
    /// concurrentQueue.sync { } }` dies with SIGILL, "dispatch_sync called on queue already
    /// owned by current thread"; a sync from a plain item of it does not).
    private func ownsForSync(_ thread: ThreadState, _ queue: QueueID) -> Bool {
        switch program[queue].kind {
        case .main: thread.id == MachineState.mainThreadID
        case .serial: thread.holds(queue)
        case .concurrent: thread.holdsBarrier(of: queue)
        case .global, .cooperative, .actor: false
        }
    }
}
