/// The model's rules (DESIGN.md): what each step of the abstract machine does. The search in
/// `Explorer` decides which steps to take; this file decides what a step means.
struct Semantics {
    let program: Program
    /// The printed output of every state of this search.
    let outputs = OutputLog()

    /// A choice the scheduler can make in a state.
    enum Move: Hashable {
        /// The thread executes its next statement (or the next half of an assignment).
        case step(thread: Int)
        /// The queue hands its first pending item to a thread.
        case start(QueueID)
        /// A due `asyncAfter` timer submits its block.
        case fire(timer: Int)
        /// Nothing can run before this time: the clock jumps to it.
        case advance(to: Int)
        /// A worker of the pool joins a `concurrentPerform` call and takes its next iteration.
        /// Never necessary: libdispatch lends at most as many helpers as the pool has threads
        /// (one per core), and on one core none at all.
        case help(perform: Int)
    }

    enum Result {
        case next(MachineState, ScheduleStep)
        case trapped(MachineState, ScheduleStep, DeadlockReason)
    }

    /// The state before the first step: the main thread about to run the top-level code.
    func initialState() -> MachineState {
        var state = MachineState(program: program)
        unwind(MachineState.mainThreadID, in: &state)
        return state
    }

    func moves(in state: MachineState) -> [Move] {
        var moves: [Move] = []
        for thread in state.threads where isRunnable(thread, in: state) {
            // Partial-order reduction: a step that touches only the thread's own locals commutes
            // with every other step, so taking it first loses no outcome.
            if isLocal(thread, in: state) { return [.step(thread: thread.id)] }
            moves.append(.step(thread: thread.id))
        }
        for (index, queue) in state.queues.enumerated() where !queue.pending.isEmpty {
            let id = QueueID(index: index)
            if canStart(id, in: state) {
                moves.append(.start(id))
            }
        }
        // Timers due now fire in the order they were set, per queue: each was set a little
        // later than the one before, so its deadline is a little later too.
        var firing: Set<QueueID> = []
        for (index, timer) in state.timers.enumerated() where timer.due <= state.now && firing.insert(timer.queue).inserted {
            moves.append(.fire(timer: index))
        }
        for (index, perform) in state.performs.enumerated() where perform.hasIterationsLeft {
            moves.append(.help(perform: index))
        }
        // Time moves on when nothing else can happen, or when all that can is a block waiting for
        // a worker of an exhausted pool: libdispatch adds a thread only about once a second.
        if moves.allSatisfy({ waitsForWorker($0, in: state) || isOptional($0) }), let next = nextEventTime(in: state) {
            moves.append(.advance(to: next))
        }
        return moves
    }

    /// A queue's next item needs a worker of its limited pool (libdispatch's non-overcommit root
    /// queue of its QoS: as many threads as the CPU has cores, then one more about every second),
    /// and a thread of that pool is busy with an item: on a machine with one core that is the whole
    /// pool, so the item may wait while time goes by.
    func waitsForWorker(_ move: Move, in state: MachineState) -> Bool {
        guard case .start(let queue) = move, let pool = program[queue].workerPool,
            let item = state.queues[queue.index].pending.first
        else { return false }
        switch item {
        case .async, .operation: break
        case .sync: return false  // runs on the calling thread
        }
        return occupiesPool(pool, in: state)
    }

    /// A move the run may never make: a helper joining `concurrentPerform`. When only such moves
    /// remain, the run may also stop there, stuck.
    func isOptional(_ move: Move) -> Bool {
        if case .help = move { return true }
        return false
    }

    /// Whether some worker runs an item of a queue served by `pool`.
    func occupiesPool(_ pool: QoSClass, in state: MachineState) -> Bool {
        state.threads.contains { thread in
            guard thread.id != MachineState.mainThreadID, case .item(let queue, _, _)? = thread.frames.first?.role else { return false }
            return program[queue].workerPool == pool
        }
    }

    /// The earliest future time at which something happens: a timer, a wake-up, a timeout.
    func nextEventTime(in state: MachineState) -> Int? {
        var times = state.timers.map(\.due)
        for thread in state.threads {
            if let until = thread.sleepUntil { times.append(until) }
            if let deadline = thread.waitDeadline { times.append(deadline) }
        }
        return times.filter { $0 > state.now }.min()
    }

    /// The statement a thread runs next, if it has one.
    func nextStatement(of thread: ThreadState) -> Statement? {
        guard let frame = thread.frames.last else { return nil }
        let statements = program[frame.block].statements
        return frame.pc < statements.count ? statements[frame.pc] : nil
    }

    /// Has a next step and nothing to wait for before taking it.
    func isRunnable(_ thread: ThreadState, in state: MachineState) -> Bool {
        nextStatement(of: thread) != nil && wait(of: thread, in: state) == nil
    }

    /// What the thread waits for before its next step, or nil if it can take it now (or has
    /// none). The one place that decides it: the search, deadlock reasons and why-not
    /// sentences all ask here.
    func wait(of thread: ThreadState, in state: MachineState) -> ThreadWait? {
        if let queue = thread.waitingOn { return .syncTurn(queue) }
        guard let statement = nextStatement(of: thread) else { return nil }
        switch statement.action {
        case .group(let group, .wait):
            let remaining = state.groups[group.index].count
            return remaining == 0 ? nil : .group(group, remaining: remaining)
        case .semaphore(let semaphore, .wait):
            return state.semaphores[semaphore.index] > 0 ? nil : .semaphore(semaphore)
        case .sleep:
            guard let until = thread.sleepUntil, state.now < until else { return nil }
            return .sleep(until: until)
        case .workItem(let item, .wait):
            return state.workItems[item.index].executed ? nil : .workItem(item)
        case .concurrentPerform:
            // Inside the call with nothing left to take, the caller waits for the helpers.
            guard let instance = thread.frames.last?.performing else { return nil }
            return state.performs[instance].hasIterationsLeft || state.performs[instance].running == 0 ? nil : .iterations
        case .operation(let operation, .waitUntilFinished):
            return state.operations[operation.index].phase == .finished ? nil : .operation(operation)
        case .operationQueue(let queue, .waitUntilAllFinished):
            return state.operationQueues[queue.index].unfinished == 0 ? nil : .allOperations(queue)
        case .operationQueue(let queue, .waitFor(let operations)):
            return operations.allSatisfy { state.operations[$0.index].phase == .finished } ? nil : .addedOperations(queue)
        case .timedWait(let waitable, _, _):
            guard let deadline = thread.waitDeadline, !isAvailable(waitable, in: state), state.now < deadline else { return nil }
            return .timeout(waitable, deadline: deadline)
        case .print, .dispatch, .assign, .loop, .branch, .group, .semaphore, .dispatchAfter, .activate, .precondition,
            .workItem, .call, .operation, .operationQueue:
            return nil
        }
    }

    /// A group is empty, or a semaphore's count is above 0.
    func isAvailable(_ waitable: Waitable, in state: MachineState) -> Bool {
        switch waitable {
        case .group(let group): state.groups[group.index].count == 0
        case .semaphore(let semaphore): state.semaphores[semaphore.index] > 0
        }
    }

    /// Serial queues run one item at a time; the main queue only when the main thread is idle;
    /// concurrent queues start items as soon as they reach the head, except that a barrier waits
    /// for the queue to be empty and runs alone; global queues ignore barriers.
    func canStart(_ queue: QueueID, in state: MachineState) -> Bool {
        let queueState = state.queues[queue.index]
        if state.inactive[queue.index] { return false }
        switch program[queue].kind {
        case .main: return queueState.active == 0 && state.mainThread.frames.isEmpty
        case .serial: return queueState.active == 0
        case .global: return true
        case .concurrent:
            if queueState.barrierActive { return false }
            return queueState.pending.first?.isBarrier == true ? queueState.active == 0 : true
        }
    }

    func apply(_ move: Move, to state: MachineState) -> Result {
        switch move {
        case .step(let thread): step(thread, in: state)
        case .start(let queue): start(queue, in: state)
        case .fire(let index):
            fire(index, in: state)
        case .advance(let time):
            advance(to: time, in: state)
        case .help(let instance):
            help(instance, in: state)
        }
    }

    private func fire(_ index: Int, in state: MachineState) -> Result {
        var state = state
        let timer = state.timers.remove(at: index)
        state.queues[timer.queue.index].pending.append(.async(timer.body, captures: timer.captures, barrier: false, group: nil, task: nil))
        return .next(state, ScheduleStep(thread: "timer", queue: nil, event: .timerFires(queue: program[timer.queue].name), span: program[timer.body].span))
    }

    /// A worker of the pool takes the next iteration of a `concurrentPerform` call.
    private func help(_ instance: Int, in state: MachineState) -> Result {
        var state = state
        let queue = state.performs[instance].perform.queue
        let frame = state.performs[instance].takeIteration(role: .item(queue, barrier: false, group: nil), instance: instance)
        state.queues[queue.index].active += 1
        let runner = startThread(with: frame, for: queue, in: &state)
        let name = state.threads[state.threadIndex(runner)!].name
        unwind(runner, in: &state)
        return .next(state, ScheduleStep(thread: name, queue: program[queue].name, event: .helpsPerform(iteration: state.performs[instance].next - 1), span: program[frame.block].span))
    }

    private func advance(to time: Int, in state: MachineState) -> Result {
        let waiting = state.queues.indices.map { QueueID(index: $0) }.filter { waitsForWorker(.start($0), in: state) }
        var state = state
        state.now = time
        let event: ScheduleStep.Event = waiting.isEmpty
            ? .clock(microseconds: time)
            : .clockWhileWaitingForWorker(microseconds: time, queues: waiting.map { program[$0].name })
        return .next(state, ScheduleStep(thread: "clock", queue: nil, event: event, span: nil))
    }

    // MARK: Variables

    /// A variable's value as the thread sees it: its closure's locals, or the shared globals.
    func value(of variable: VariableID, for thread: ThreadState, in state: MachineState) -> Value? {
        if program[variable].isGlobal { return state.globals[variable.index] }
        for frame in thread.frames.reversed() {
            if let value = frame.locals[variable] { return value }
            if frame.role.isClosureRoot { break }
        }
        return nil
    }

    /// Every local the thread can see, innermost first: what a closure submitted now captures.
    func visibleLocals(of thread: ThreadState) -> [VariableID: Value] {
        var locals: [VariableID: Value] = [:]
        for frame in thread.frames.reversed() {
            for (key, value) in frame.locals where locals[key] == nil { locals[key] = value }
            if frame.role.isClosureRoot { break }
        }
        return locals
    }

    private func setLocal(_ variable: VariableID, _ value: Value, thread t: Int, in state: inout MachineState) {
        var index = state.threads[t].frames.count - 1
        while index >= 0 {
            if state.threads[t].frames[index].locals[variable] != nil { break }
            if state.threads[t].frames[index].role.isClosureRoot { index = -1; break }
            index -= 1
        }
        let target = index >= 0 ? index : state.threads[t].frames.count - 1
        state.threads[t].frames[target].locals[variable] = value
    }

    func evaluate(_ expression: Expression, for thread: ThreadState, in state: MachineState) throws(EvaluationError) -> Value {
        try expression.evaluate({ value(of: $0, for: thread, in: state) }, isMainThread: thread.id == MachineState.mainThreadID)
    }

    /// The value an assignment writes, computed from what it reads.
    private func assignedValue(_ assignment: Assignment, for thread: ThreadState, in state: MachineState) throws(EvaluationError) -> Value {
        try assignment.result(
            current: value(of: assignment.target, for: thread, in: state),
            operand: evaluate(assignment.value, for: thread, in: state))
    }

    /// Whether an assignment is a read step and then a separate write step: it writes a shared
    /// variable from something it reads (`x += 1`, `x = y`), so other threads can come between.
    func isTwoPhase(_ assignment: Assignment) -> Bool {
        program[assignment.target].isGlobal
            && (assignment.readsTarget || assignment.value.variablesRead.contains { program[$0].isGlobal })
    }

    // MARK: Steps

    /// One statement of a thread. Code that traps in Swift (an overflow, a division by zero)
    /// ends the run there, as the process dies.
    private func step(_ threadID: Int, in state: MachineState) -> Result {
        do {
            return try evaluatingStep(threadID, in: state)
        } catch {
            let thread = state.threads[state.threadIndex(threadID)!]
            let statement = nextStatement(of: thread)!
            let context = thread.currentQueue.map { program[$0].name }
            let reason: DeadlockReason
            switch error {
            case .runtime(let runtimeError):
                reason = .runtimeError(thread: thread.name, error: runtimeError, at: statement.span)
            case .undefined(let why):
                reason = .modelError(thread: thread.name, message: why, at: statement.span)
            }
            let step = ScheduleStep(thread: thread.name, queue: context, event: .crashes(reason.summary), span: statement.span)
            return .trapped(state, step, reason)
        }
    }

    private func evaluatingStep(_ threadID: Int, in state: MachineState) throws(EvaluationError) -> Result {
        var state = state
        let t = state.threadIndex(threadID)!
        let thread = state.threads[t]
        let frameIndex = thread.frames.count - 1
        let frame = thread.frames[frameIndex]
        let statement = program[frame.block].statements[frame.pc]
        let context = thread.currentQueue.map { program[$0].name }
        var event: ScheduleStep.Event
        var advance = true

        switch statement.action {
        case .print(let items):
            let text = try items.map { item throws(EvaluationError) in try evaluate(item, for: thread, in: state).description }.joined(separator: " ")
            state.output = outputs.appending(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), to: state.output)
            event = .printed(text)

        case .dispatch(let queue, .async, let body, let options):
            state.queues[queue.index].pending.append(.async(body, captures: visibleLocals(of: thread), barrier: options.barrier, group: options.group, task: nil))
            if let group = options.group { state.groups[group.index].count += 1 }
            event = .enqueued(queue: program[queue].name)

        case .dispatch(let queue, .sync, let body, let options):
            if ownsForSync(thread, queue) {
                let step = ScheduleStep(thread: thread.name, queue: context, event: .traps(queue: program[queue].name), span: statement.span)
                return .trapped(state, step, .trap(thread: thread.name, queue: program[queue].name, at: statement.span))
            }
            state.threads[t].frames[frameIndex].pc += 1
            state.queues[queue.index].pending.append(.sync(thread: threadID, body: body, barrier: options.barrier, captures: visibleLocals(of: thread)))
            state.threads[t].waitingOn = queue
            return .next(state, ScheduleStep(thread: thread.name, queue: context, event: .waits(queue: program[queue].name), span: statement.span))

        case .assign(let assignment):
            let name = program[assignment.target].name
            if isTwoPhase(assignment) && thread.pendingWrite == nil {
                state.threads[t].pendingWrite = try assignedValue(assignment, for: thread, in: state)
                advance = false
                event = .reads(variable: name)
            } else {
                let value: Value
                if let pending = thread.pendingWrite {
                    value = pending
                } else {
                    value = try assignedValue(assignment, for: thread, in: state)
                }
                state.threads[t].pendingWrite = nil
                if program[assignment.target].isGlobal {
                    state.globals[assignment.target.index] = value
                } else {
                    setLocal(assignment.target, value, thread: t, in: &state)
                }
                event = .writes(variable: name, value: value.description)
            }

        case .loop(let loop):
            state.threads[t].frames[frameIndex].pc += 1
            advance = false
            if let values = try loop.values(from: evaluate(loop.from, for: thread, in: state), to: evaluate(loop.to, for: thread, in: state)) {
                var body = Frame(block: loop.body, role: .loop(variable: loop.variable, current: values.lowerBound, last: values.upperBound))
                if let variable = loop.variable { body.locals[variable] = .int(values.lowerBound) }
                state.threads[t].frames.append(body)
            }
            event = .loops

        case .branch(let condition, let then, let otherwise):
            state.threads[t].frames[frameIndex].pc += 1
            advance = false
            let taken = try evaluate(condition, for: thread, in: state) == .bool(true)
            if let block = taken ? then : otherwise {
                state.threads[t].frames.append(Frame(block: block, role: .branch))
            }
            event = .branches(taken)

        case .group(let group, let action):
            let name = program.groups[group.index].name
            switch action {
            case .enter:
                state.groups[group.index].count += 1
                event = .groupEnter(group: name)
            case .leave:
                if let trap = leave(group, in: &state, thread: thread, span: statement.span) { return trap }
                event = .groupLeave(group: name)
            case .wait:
                event = .groupWaitReturns(group: name)
            case .notify(let queue, let body):
                let entry = NotifyEntry(queue: queue, body: body, captures: visibleLocals(of: thread))
                if state.groups[group.index].count == 0 {
                    submit([entry], in: &state)
                } else {
                    state.groups[group.index].notify.append(entry)
                }
                event = .groupNotify(group: name, queue: program[queue].name)
            }

        case .dispatchAfter(let queue, let microseconds, let body):
            state.timers.append(TimerEntry(due: state.later(by: microseconds), queue: queue, body: body, captures: visibleLocals(of: thread)))
            event = .schedules(queue: program[queue].name, microseconds: microseconds)

        case .sleep(let microseconds):
            if thread.sleepUntil == nil {
                state.threads[t].sleepUntil = state.later(by: microseconds)
                advance = false
                event = .sleeps(microseconds: microseconds)
            } else {
                state.threads[t].sleepUntil = nil
                event = .wakes
            }

        case .timedWait(let waitable, let microseconds, let result):
            if thread.waitDeadline == nil {
                state.threads[t].waitDeadline = state.later(by: microseconds)
                advance = false
                event = .waitsWithTimeout(microseconds: microseconds)
            } else {
                state.threads[t].waitDeadline = nil
                let success = isAvailable(waitable, in: state)
                if success, case .semaphore(let semaphore) = waitable { state.semaphores[semaphore.index] -= 1 }
                if let result { setLocal(result, Waitable.result(timedOut: !success), thread: t, in: &state) }
                event = .waitEnds(timedOut: !success)
            }

        case .concurrentPerform(let perform):
            // The caller runs iterations itself, one after another, until none is left to take;
            // then it waits for the helpers' and returns. The statement is stepped each time.
            // Helpers may take iterations from the start: any index may run on any thread.
            advance = false
            if let instance = frame.performing, state.performs[instance].hasIterationsLeft {
                let iteration = state.performs[instance].next
                state.threads[t].frames.append(state.performs[instance].takeIteration(role: .call, instance: instance))
                event = .takesIteration(iteration)
            } else if frame.performing == nil {
                state.threads[t].frames[frameIndex].performing = state.performs.count
                state.performs.append(PerformState(perform: perform, captures: visibleLocals(of: thread)))
                event = .performs(iterations: perform.iterations)
            } else {
                state.threads[t].frames[frameIndex].performing = nil
                state.threads[t].frames[frameIndex].pc += 1
                event = .performReturns
            }

        case .workItem(let item, let action):
            let decl = program.workItems[item.index]
            switch action {
            case .submit(let queue, let group):
                state.queues[queue.index].pending.append(.async(decl.body, captures: [:], barrier: decl.barrier, group: group, task: .workItem(item)))
                if let group { state.groups[group.index].count += 1 }
                event = .enqueued(queue: program[queue].name)
            case .cancel:
                state.globals[decl.cancelled.index] = .bool(true)
                event = .workItemCancel(item: decl.name)
            case .wait:
                event = .workItemWaitReturns(item: decl.name)
            case .notify(let queue, let body):
                let entry = NotifyEntry(queue: queue, body: body, captures: visibleLocals(of: thread))
                if state.workItems[item.index].executed {
                    submit([entry], in: &state)
                } else {
                    state.workItems[item.index].notify.append(entry)
                }
                event = .workItemNotify(item: decl.name, queue: program[queue].name)
            case .perform:
                if state.globals[decl.cancelled.index] == .bool(true) {
                    executed(item, in: &state)
                } else {
                    state.threads[t].frames[frameIndex].pc += 1
                    state.threads[t].frames.append(Frame(block: decl.body, role: .branch, task: .workItem(item)))
                    advance = false
                }
                event = .workItemPerform(item: decl.name)
            }

        case .activate(let queue):
            state.inactive[queue.index] = false
            event = .activates(queue: program[queue].name)

        case .precondition(let kind, let queue):
            if !preconditionHolds(kind, queue, thread) {
                let step = ScheduleStep(thread: thread.name, queue: context, event: .traps(queue: program[queue].name), span: statement.span)
                return .trapped(state, step, .preconditionFailed(thread: thread.name, condition: "\(kind.rawValue)(\(program[queue].name))", at: statement.span))
            }
            event = .preconditionHolds

        case .call(let call):
            state.threads[t].frames[frameIndex].pc += 1
            advance = false
            var parameters: [VariableID: Value] = [:]
            for argument in call.arguments {
                parameters[argument.parameter] = try evaluate(argument.value, for: thread, in: state)
            }
            state.threads[t].frames.append(Frame(block: call.body, role: .call, locals: parameters))
            event = .calls(function: call.name)

        case .operation(let operation, let action):
            switch operationStep(operation, action, thread: thread, in: &state) {
            case .success(let done): event = done
            case .failure(let crash): return crash.result(state, thread: thread, queue: context, span: statement.span)
            }

        case .operationQueue(let queue, let action):
            switch operationQueueStep(queue, action, thread: thread, in: &state) {
            case .success(let done): event = done
            case .failure(let crash): return crash.result(state, thread: thread, queue: context, span: statement.span)
            }

        case .semaphore(let semaphore, let action):
            let name = program.semaphores[semaphore.index].name
            if action == .wait {
                state.semaphores[semaphore.index] -= 1
                event = .semaphoreWaitReturns(semaphore: name)
            } else {
                guard state.semaphores[semaphore.index] < Int.max else {
                    // libdispatch's counter wraps to LONG_MIN: "Unbalanced call to dispatch_semaphore_signal()".
                    let step = ScheduleStep(thread: thread.name, queue: context, event: .traps(queue: name), span: statement.span)
                    return .trapped(state, step, .unbalancedSignal(thread: thread.name, semaphore: name, at: statement.span))
                }
                state.semaphores[semaphore.index] += 1
                event = .semaphoreSignal(semaphore: name)
            }
        }
        if advance {
            state.threads[t].frames[frameIndex].pc += 1
        }
        unwind(threadID, in: &state)
        return .next(state, ScheduleStep(thread: thread.name, queue: context, event: event, span: statement.span))
    }

    /// A work item has run (or been skipped, cancelled): its notify blocks are submitted.
    func executed(_ item: WorkItemID, in state: inout MachineState) {
        state.workItems[item.index].executed = true
        submit(state.workItems[item.index].notify, in: &state)
        state.workItems[item.index].notify.removeAll()
    }

    /// A block leaves a group; when it empties, its notify blocks are submitted, in order.
    /// Leaving a group more often than it was entered crashes libdispatch.
    private func leave(_ group: GroupID, in state: inout MachineState, thread: ThreadState, span: SourceSpan) -> Result? {
        guard leaveGroup(group, in: &state) else {
            let name = program.groups[group.index].name
            let step = ScheduleStep(thread: thread.name, queue: thread.currentQueue.map { program[$0].name }, event: .traps(queue: name), span: span)
            return .trapped(state, step, .unbalancedLeave(thread: thread.name, group: name, at: span))
        }
        return nil
    }

    /// One block leaves the group; if it empties, its notify blocks are submitted. Returns false
    /// when the group had nobody in it (libdispatch crashes).
    private func leaveGroup(_ group: GroupID, in state: inout MachineState) -> Bool {
        state.groups[group.index].count -= 1
        if state.groups[group.index].count < 0 { return false }
        if state.groups[group.index].count == 0 {
            submit(state.groups[group.index].notify, in: &state)
            state.groups[group.index].notify.removeAll()
        }
        return true
    }

    /// Submits notify blocks to their queues, in the order they were registered.
    func submit(_ entries: [NotifyEntry], in state: inout MachineState) {
        for entry in entries {
            state.queues[entry.queue.index].pending.append(.async(entry.body, captures: entry.captures, barrier: false, group: nil, task: nil))
        }
    }

    /// Whether the thread runs on the queue: the main thread for the main queue; otherwise an
    /// item or sync body of the queue (as a barrier, for `.onQueueAsBarrier`).
    private func preconditionHolds(_ kind: PreconditionKind, _ queue: QueueID, _ thread: ThreadState) -> Bool {
        let isMain = program[queue].kind == .main
        let onQueue = isMain ? thread.id == MachineState.mainThreadID : thread.holds(queue)
        switch kind {
        case .onQueue: return onQueue
        case .notOnQueue: return !onQueue
        case .onQueueAsBarrier:
            guard onQueue else { return false }
            if program[queue].kind.isSerial { return true }
            return thread.frames.contains { frame in
                switch frame.role {
                case .item(queue, true, _), .syncBody(queue, _, true): true
                default: false
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
        case .global: false
        }
    }

    private func start(_ queue: QueueID, in state: MachineState) -> Result {
        var state = state
        let item = state.queues[queue.index].pending.removeFirst()
        let kind = program[queue].kind
        let barrier = item.isBarrier && kind == .concurrent
        state.queues[queue.index].active += 1
        if barrier { state.queues[queue.index].barrierActive = true }
        let isMain = kind == .main
        let name = program[queue].name
        let runner: Int
        let event: ScheduleStep.Event

        switch item {
        case .operation(let instance):
            return startOperation(instance, from: queue, in: state)
        case .async(_, _, _, _, .workItem(let workItem)?) where state.globals[program.workItems[workItem.index].cancelled.index] == .bool(true):
            // A cancelled work item is taken from the queue and skipped.
            state.queues[queue.index].active -= 1
            if barrier { state.queues[queue.index].barrierActive = false }
            executed(workItem, in: &state)
            return .next(state, ScheduleStep(thread: "libdispatch", queue: name, event: .workItemSkipped(item: program.workItems[workItem.index].name), span: nil))
        case .async(let body, let captures, _, let group, let task):
            let frame = Frame(block: body, role: .item(queue, barrier: barrier, group: group), locals: captures, task: task)
            runner = startThread(with: frame, for: queue, in: &state)
            event = .startsItem(queue: name)
        case .sync(let waiter, let body, _, let captures):
            if isMain && waiter != MachineState.mainThreadID {
                runner = MachineState.mainThreadID
                state.threads[0].frames.append(Frame(block: body, role: .syncBody(queue, waiter: waiter, barrier: barrier), locals: captures))
            } else {
                runner = waiter
                let w = state.threadIndex(waiter)!
                state.threads[w].waitingOn = nil
                state.threads[w].frames.append(Frame(block: body, role: .syncBody(queue, waiter: nil, barrier: barrier)))
            }
            event = .entersSync(queue: name)
        }
        let thread = state.threads[state.threadIndex(runner)!]
        unwind(runner, in: &state)
        return .next(state, ScheduleStep(thread: thread.name, queue: name, event: event, span: item.body.flatMap { program[$0].span }))
    }

    /// Gives an item's frame to a thread: the main thread serves the main queue, and every other
    /// item gets a fresh worker (the pool has as many as needed). Returns the thread's id.
    func startThread(with frame: Frame, for queue: QueueID, in state: inout MachineState) -> Int {
        if program[queue].kind == .main {
            state.threads[0].frames.append(frame)
            return MachineState.mainThreadID
        }
        let worker = state.nextWorker
        state.nextWorker += 1
        state.threads.append(ThreadState(id: worker, frames: [frame]))
        return worker
    }

    /// Pops the frames a thread has finished, releasing their queues at once (a release only
    /// enables other steps, so doing it eagerly loses no schedule), and starts a loop's next
    /// iteration. A worker with nothing left goes back to the pool.
    func unwind(_ threadID: Int, in state: inout MachineState) {
        // A thread blocked in `sync` is still inside the statement: its frames stay until the
        // sync returns, so it keeps owning the queues it holds.
        guard var t = state.threadIndex(threadID), state.threads[t].waitingOn == nil else { return }
        while let frame = state.threads[t].frames.last, frame.pc >= program[frame.block].statements.count {
            let last = state.threads[t].frames.count - 1
            switch frame.role {
            case .loop(let variable, let current, let end) where current < end:
                state.threads[t].frames[last].pc = 0
                state.threads[t].frames[last].role = .loop(variable: variable, current: current + 1, last: end)
                state.threads[t].frames[last].locals = variable.map { [$0: .int(current + 1)] } ?? [:]
                continue
            default:
                break
            }
            state.threads[t].frames.removeLast()
            switch frame.task {
            case .workItem(let item)?: executed(item, in: &state)
            case .operationBlock(let instance)?: operationBlockEnded(instance, in: &state)
            case .iteration(let instance)?: state.performs[instance].running -= 1
            case nil: break
            }
            switch frame.role {
            case .topLevel, .branch, .loop, .call:
                break
            case .item(let queue, let barrier, let group):
                state.queues[queue.index].active -= 1
                if barrier { state.queues[queue.index].barrierActive = false }
                if let group {
                    // The enter made at submission balances this leave: it cannot go negative.
                    _ = leaveGroup(group, in: &state)
                }
            case .syncBody(let queue, let waiter, let barrier):
                state.queues[queue.index].active -= 1
                if barrier { state.queues[queue.index].barrierActive = false }
                if let waiter, let w = state.threadIndex(waiter) {
                    state.threads[w].waitingOn = nil
                    unwind(waiter, in: &state)
                    t = state.threadIndex(threadID)!
                }
            }
        }
        if state.threads[t].frames.isEmpty && threadID != MachineState.mainThreadID {
            state.threads.remove(at: t)
        }
    }

    /// A run is over when nothing can move. It finished if no work is left anywhere.
    func isFinished(_ state: MachineState) -> Bool {
        state.threads.count == 1 && state.mainThread.frames.isEmpty
            && state.queues.allSatisfy { $0.pending.isEmpty && $0.active == 0 }
            && state.groups.allSatisfy { $0.notify.isEmpty } && state.timers.isEmpty
            && state.workItems.allSatisfy { $0.notify.isEmpty }
            && state.operationQueues.allSatisfy { $0.unfinished == 0 }
    }

    /// Who waits on what in a state where nothing can move, in words.
    func stuckDescription(_ state: MachineState) -> [String] {
        let narrator = Narrator(program: program)
        var waits: [String] = []
        var syncedQueues: Set<QueueID> = []
        for thread in state.threads {
            guard let wait = wait(of: thread, in: state) else { continue }
            // The wait's own line; a thread in `sync` is past it, and its sentence names none.
            let line = nextStatement(of: thread)?.span.line ?? 0
            if case .syncTurn(let queue) = wait { syncedQueues.insert(queue) }
            let holders: [String] = switch wait {
            case .syncTurn(let queue): state.threads.filter { $0.holds(queue) }.map(\.name)
            case .group, .semaphore, .sleep, .timeout, .workItem, .iterations, .operation, .allOperations, .addedOperations: []
            }
            if let words = narrator.stuck(wait, thread: thread.name, line: line, heldBy: holders) { waits.append(words) }
        }
        waits += operationWaits(in: state)
        for (instance, perform) in state.performs.enumerated() where perform.hasIterationsLeft {
            let caller = state.threads.first { $0.frames.contains { $0.performing == instance } }
            let line = caller.flatMap { thread in nextStatementOfPerformingFrame(thread, instance) }.map { " at line \($0.span.line)" } ?? ""
            let left = perform.perform.iterations - perform.next
            waits.append("concurrentPerform\(line) has \(left) iteration(s) that no thread takes: those running are blocked, and libdispatch lends it no more threads than the pool has (one per CPU core, none beyond the caller on one core)")
        }
        for (index, item) in state.workItems.enumerated() where !item.notify.isEmpty {
            waits.append("\(program.workItems[index].name).notify never runs: the work item never runs")
        }
        for (index, group) in state.groups.enumerated() where !group.notify.isEmpty {
            waits.append("\(program.groups[index].name).notify never runs: \(group.count) block(s) never leave the group")
        }
        for (index, queue) in state.queues.enumerated() where !queue.pending.isEmpty {
            let decl = program.queues[index]
            if decl.kind == .main && !state.mainThread.frames.isEmpty {
                waits.append("\(decl.name) has \(queue.pending.count) item(s) but the main thread is blocked")
            } else if !syncedQueues.contains(QueueID(index: index)) {
                waits.append("\(decl.name) has \(queue.pending.count) item(s) waiting")
            }
        }
        return waits
    }

    /// The `concurrentPerform` statement a thread's frame is inside.
    private func nextStatementOfPerformingFrame(_ thread: ThreadState, _ instance: Int) -> Statement? {
        guard let frame = thread.frames.first(where: { $0.performing == instance }) else { return nil }
        let statements = program[frame.block].statements
        return statements.indices.contains(frame.pc) ? statements[frame.pc] : nil
    }

    /// The thread's next step reads and writes nothing another thread can see, and cannot trap
    /// (a trap ends every thread's run, so it does not commute with their steps).
    func isLocal(_ thread: ThreadState, in state: MachineState) -> Bool {
        guard let statement = nextStatement(of: thread) else { return false }
        func local(_ expression: Expression) -> Bool {
            !expression.variablesRead.contains { program[$0].isGlobal }
                && (try? evaluate(expression, for: thread, in: state)) != nil
        }
        switch statement.action {
        case .assign(let assignment):
            return !program[assignment.target].isGlobal && local(assignment.value)
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
        case .call(let call): return call.arguments.allSatisfy { local($0.value) }
        case .sleep: return thread.sleepUntil == nil
        case .timedWait: return thread.waitDeadline == nil
        case .print, .dispatch, .group, .semaphore, .dispatchAfter, .activate, .precondition, .workItem,
            .concurrentPerform, .operation, .operationQueue:
            return false
        }
    }

    // MARK: Accesses, for data races

    struct Access: Hashable {
        var variable: VariableID
        var isWrite: Bool
        var span: SourceSpan
    }

    /// The shared variables the thread's next step reads or writes.
    func nextAccesses(of thread: ThreadState) -> [Access] {
        guard let statement = nextStatement(of: thread) else { return [] }
        func reads(_ expressions: [Expression]) -> [Access] {
            expressions.flatMap(\.variablesRead).filter { program[$0].isGlobal && !program[$0].isSynchronized }
                .map { Access(variable: $0, isWrite: false, span: statement.span) }
        }
        switch statement.action {
        case .print(let items): return reads(items)
        case .branch(let condition, _, _): return reads([condition])
        case .loop(let loop): return reads([loop.from, loop.to])
        case .call(let call): return reads(call.arguments.map(\.value))
        case .assign(let assignment):
            let target = assignment.target
            if isTwoPhase(assignment) {
                if thread.pendingWrite == nil {
                    var accesses = reads([assignment.value])
                    if assignment.readsTarget && !accesses.contains(where: { $0.variable == target }) {
                        accesses.append(Access(variable: target, isWrite: false, span: statement.span))
                    }
                    return accesses
                }
                return [Access(variable: target, isWrite: true, span: statement.span)]
            }
            var accesses = reads([assignment.value])
            if program[target].isGlobal && !program[target].isSynchronized { accesses.append(Access(variable: target, isWrite: true, span: statement.span)) }
            return accesses
        case .dispatch, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .precondition, .workItem,
            .concurrentPerform, .operation, .operationQueue:
            // Library calls: their own synchronization, no variable of the snippet read.
            return []
        }
    }
}
