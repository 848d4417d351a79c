/// The model's rules (DESIGN.md): what each step of the abstract machine does. The search in
/// `Explorer` decides which steps to take; `Semantics` decides what a step means. This file holds
/// the moves, the waits and `step`, which hands each statement to the rule of its concern in
/// `Semantics+Dispatch`, `+Groups`, `+Semaphores`, `+Time`, `+WorkItems`, `+Variables`,
/// `+Control` or `+Operations`; `+Races` and `+Reduction` say what a step touches.
final class Semantics: Sendable {
    let program: Program
    /// The machine whose schedules these are: the width of the worker pools and the platform.
    let machine: Machine
    /// Some shared variable has no synchronization of its own: only then can a step race
    /// (`races(in:)`, which the search asks at every new state).
    let hasRacyVariables: Bool
    /// What each statement's step reads and writes of those variables (`Semantics+Races`).
    let accessTable: [[[Access]]]
    /// Whether the global executor's next job starts before any other move (`jobStartFirst`)
    /// whatever the state.
    let jobStartsCommute: Bool
    /// The actors' queues, which take places of the executor's width as its jobs do.
    let actorQueues: [QueueID]
    /// `Program.workerPool(of:)` of each queue, which walks its targets: the rules ask it of
    /// every busy thread in every state.
    let queueWorkerPools: [QoSClass?]

    init(program: Program, machine: Machine = .interview) {
        self.program = program
        self.machine = machine
        hasRacyVariables = program.variables.contains { $0.isGlobal && !$0.isSynchronized }
        accessTable = hasRacyVariables ? Self.accessTable(program) : []
        actorQueues = program.queues.indices.filter { program.queues[$0].kind == .actor }.map { QueueID(index: $0) }
        jobStartsCommute = machine.cores == nil || actorQueues.isEmpty
        queueWorkerPools = program.queues.indices.map { program.workerPool(of: QueueID(index: $0)) }
    }

    /// A choice the scheduler can make in a state.
    enum Move: Hashable {
        /// The thread executes its next statement (or the next half of an assignment).
        case step(thread: Int)
        /// The main queue lets a worker's `sync` in ahead of the main actor's jobs queued before
        /// it (`syncOvertakingJobs`).
        case overtake(QueueID)
        /// The queue hands its first pending item to a thread.
        case start(QueueID)
        /// A due `asyncAfter` timer submits its block.
        case fire(timer: Int)
        /// A timer source's timer is due (an index into `MachineState.timerSources`).
        case fireSource(Int)
        /// Nothing can run before this time: the clock jumps to it.
        case advance(to: Int)
        /// A due `Task.sleep` timer continues its task.
        case wake(taskTimer: Int)
        /// The monitor's first tick adds a thread to a full pool with nothing waiting (an index
        /// into `Semantics.pools`): it stays, idle, for work that comes later (`spareThreadPools`).
        case spareThread(pool: Int)
        /// Two threads race on an array's buffer (`memoryCorruptions`): the process may crash.
        case corrupt(DataRace)

        var isSpareThread: Bool { if case .spareThread = self { true } else { false } }
    }

    enum Result {
        case next(MachineState, ScheduleStep)
        case trapped(MachineState, ScheduleStep, DeadlockReason)
        /// The step would take the run beyond what gcdquiz explores: the search stops there.
        case beyondLimits(Exploration.Limit)
    }

    /// The state before the first step: the main thread about to run the top-level code.
    func initialState() -> MachineState {
        var state = MachineState(program: program)
        if machine.cores != nil { state.pools = Array(repeating: PoolState(), count: Self.pools.count) }
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
        // And so does the global executor's next job starting where no other start wants its thread.
        if let start = jobStartFirst(in: state) { return [start] }
        for (index, queue) in state.queues.enumerated() where !queue.pending.isEmpty {
            let id = QueueID(index: index)
            if canStart(id, in: state) {
                moves.append(.start(id))
                if syncOvertakingJobs(on: id, in: state) != nil { moves.append(.overtake(id)) }
            }
        }
        // Timers due now fire in the order they were set, per queue: each was set a little
        // later than the one before, so its deadline is a little later too.
        var firing: Set<QueueID> = []
        for (index, timer) in state.timers.enumerated() where timer.due <= state.now && firing.insert(timer.queue).inserted {
            moves.append(.fire(timer: index))
        }
        for index in state.timerSources.indices where isArmed(index, in: state) && state.timerSources[index].due! <= state.now {
            moves.append(.fireSource(index))
        }
        // A short Task.sleep may end while the only work that could run is the idle main
        // thread's next job (the main thread may wake late).
        let mainThreadLags = !state.taskTimers.isEmpty && !moves.isEmpty
            && moves.allSatisfy { $0 == .start(Program.mainQueueID(in: program.queues)) || $0 == .overtake(Program.mainQueueID(in: program.queues)) }
        for (index, timer) in state.taskTimers.enumerated() where timer.due <= state.now || (timer.isShort && mainThreadLags) {
            moves.append(.wake(taskTimer: index))
        }
        for pool in spareThreadPools(in: state) {
            moves.append(.spareThread(pool: pool))
        }
        for race in memoryCorruptions(in: state) {
            moves.append(.corrupt(race))
        }
        // Time moves on when nothing else can happen, or when all that can is a block starting on
        // a thread the pool's monitor adds at this tick: the monitor may find the pool otherwise
        // and add it at a later tick, after a timer, a sleep or a timeout due first. (Passing
        // ticks with nothing else due would only repeat the same choice later.) A spare thread the
        // first tick may add is a choice of the same kind: time may pass without it.
        if moves.isEmpty || (moves.allSatisfy { waitsForWorker($0, in: state) || $0.isSpareThread } && hasTimedEventAhead(in: state)),
            let next = nextEventTime(in: state) {
            moves.append(.advance(to: next))
        }
        return moves
    }

    /// The statement a thread runs next, if it has one.
    func nextStatement(of thread: ThreadState) -> Statement? {
        guard let frame = thread.frames.last else { return nil }
        let statements = program[frame.block].statements
        return frame.pc < statements.count ? statements[frame.pc] : nil
    }

    /// Has a next step and nothing to wait for before taking it.
    func isRunnable(_ thread: ThreadState, in state: MachineState) -> Bool {
        if thread.switching || thread.returning { return true }
        return nextStatement(of: thread) != nil && wait(of: thread, in: state) == nil
    }

    /// What the thread waits for before its next step, or nil if it can take it now (or has
    /// none). The one place that decides it: the search, deadlock reasons and why-not
    /// sentences all ask here.
    func wait(of thread: ThreadState, in state: MachineState) -> ThreadWait? {
        if let queue = thread.waitingOn { return .syncTurn(queue) }
        if thread.switching || thread.returning { return nil }
        guard let statement = nextStatement(of: thread) else { return nil }
        // A task the cancel woke from its sleep goes on once the sleep has removed its own
        // cancellation record: after the canceller's onCancel handlers (`statusRecordHolder`).
        if let task = thread.task, state.tasks[task].sleepCancelled, let holder = statusRecordHolder(of: task, besides: thread, in: state) {
            return .statusRecordLock(task: task, holder: holder)
        }
        switch statement.action {
        case .group(let group, .wait):
            let remaining = state.groups[group.index].count
            return remaining == 0 ? nil : .group(group, remaining: remaining)
        case .semaphore(let semaphore, .wait):
            // A holder that locks again does not wait: an NSRecursiveLock counts, a Mutex traps.
            if state.semaphores[semaphore.index] > 0 || state.lockHolders[semaphore.index]?.thread == thread.id { return nil }
            // Held by a pool thread whose block has ended: this worker may be that very thread,
            // which the model does not follow (`lockStep` says so rather than guess).
            if let holder = state.lockHolders[semaphore.index], state.threadIndex(holder.thread) == nil,
                thread.id != MachineState.mainThreadID { return nil }
            return .semaphore(semaphore)
        case .sleep:
            guard let until = thread.sleepUntil, state.now < until else { return nil }
            return .sleep(until: until)
        case .workItem(let item, .wait):
            // Blocked only once the wait has begun (its first step checks for misuse).
            return thread.waitsForWorkItem && !state.workItems[item.index].executed ? .workItem(item) : nil
        case .concurrentPerform:
            // Inside the call with nothing left to take, the caller waits for the helpers.
            guard let frame = thread.frames.last, let instance = frame.performing, !frame.isHelper else { return nil }
            return state.performs[instance].hasIterationsLeft || state.performs[instance].running == 0 ? nil : .iterations
        case .operation(let operation, .waitUntilFinished):
            return state.operations[operation.index].phase == .finished ? nil : .operation(operation)
        case .operation(let operation, .start):
            // Back from its own blocks, `start()` waits for the others (Apple's side-by-side ones).
            guard thread.frames.last?.startedOperation == operation.index else { return nil }
            return state.operations[operation.index].phase == .finished ? nil : .operationStart(operation)
        case .operationQueue(let queue, .waitUntilAllFinished):
            return state.operationQueues[queue.index].unfinished == 0 ? nil : .allOperations(queue)
        case .operationQueue(let queue, .waitFor(let operations)):
            return operations.allSatisfy { state.operations[$0.index].phase == .finished } ? nil : .addedOperations(queue)
        case .timedWait(let waitable, _, _):
            guard let deadline = thread.waitDeadline, !isAvailable(waitable, in: state), state.now < deadline else { return nil }
            return .timeout(waitable, deadline: deadline)
        case .whileLoop(let loop) where !loop.entersUntested:
            return spinning(thread, in: state) == .quietly ? .spins : nil
        case .cancellation(.removeHandler):
            guard let task = thread.task, let holder = statusRecordHolder(of: task, besides: thread, in: state) else { return nil }
            return .statusRecordLock(task: task, holder: holder)
        case .print, .dispatch, .assign, .loop, .whileLoop, .branch, .group, .semaphore, .dispatchAfter, .activate, .queueSetting, .precondition,
            .workItem, .call, .operation, .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream,
            .timer, .throwing, .handles:
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

    func apply(_ move: Move, to state: MachineState) -> Result {
        switch move {
        case .step(let thread): step(thread, in: state)
        case .start(let queue): start(queue, in: state)
        case .overtake(let queue):
            overtake(queue, in: state)
        case .fire(let index):
            fire(index, in: state)
        case .fireSource(let index):
            fireSource(index, in: state)
        case .advance(let time):
            advance(to: time, in: state)
        case .wake(let index):
            wakeTask(index, in: state)
        case .spareThread(let pool):
            addSpareThread(to: pool, in: state)
        case .corrupt(let race):
            corrupt(race, in: state)
        }
    }

    // MARK: Steps

    /// One statement of a thread. Code that traps in Swift (an overflow, a division by zero)
    /// ends the run there, as the process dies.
    func step(_ threadID: Int, in state: MachineState) -> Result {
        if state.threads[state.threadIndex(threadID)!].switching { return switchStep(threadID, in: state) }
        if state.threads[state.threadIndex(threadID)!].returning { return blockReturnStep(threadID, in: state) }
        do {
            return try evaluatingStep(threadID, in: state)
        } catch {
            let thread = state.threads[state.threadIndex(threadID)!]
            let statement = nextStatement(of: thread)!
            let reason: DeadlockReason
            switch error {
            case .runtime(let runtimeError):
                reason = .runtimeError(thread: thread.threadID, error: runtimeError, at: statement.span)
            case .undefined(let why):
                reason = .modelError(thread: thread.threadID, message: why, at: statement.span)
            }
            let step = ScheduleStep(thread: thread.threadID, queue: thread.currentQueue, event: .crashes(reason), span: statement.span)
            return .trapped(state, step, reason)
        }
    }

    /// Where a step happens: what every rule needs to know about the thread taking it.
    struct StepSite {
        let threadID: Int
        /// The thread's index in `state.threads`.
        let index: Int
        /// The thread as it was before the step.
        let thread: ThreadState
        let frameIndex: Int
        let frame: Frame
        let statement: Statement
        /// The queue the thread runs for, if any.
        let queue: QueueID?

        /// The process dies at this statement.
        func trapped(_ state: MachineState, _ event: ScheduleStep.Event, _ reason: DeadlockReason) -> Result {
            .trapped(state, ScheduleStep(thread: thread.threadID, queue: queue, event: event, span: statement.span), reason)
        }
    }

    /// What a rule did: an event, and whether the thread moves past the statement (a rule that
    /// enters a body, or takes the statement in two steps, moves it itself or not at all); or a
    /// result that ends the step there (a trap, or a thread that blocks inside the statement).
    enum StepEffect {
        case moves(ScheduleStep.Event, advancesPC: Bool)
        case ends(Result)
    }

    /// Hands the statement to the rule of its concern, then moves the thread on.
    private func evaluatingStep(_ threadID: Int, in state: MachineState) throws(EvaluationError) -> Result {
        var state = state
        let t = state.threadIndex(threadID)!
        let thread = state.threads[t]
        let frameIndex = thread.frames.count - 1
        let frame = thread.frames[frameIndex]
        let statement = program[frame.block].statements[frame.pc]
        let site = StepSite(threadID: threadID, index: t, thread: thread, frameIndex: frameIndex, frame: frame,
                            statement: statement, queue: thread.currentQueue)

        if frame.pendingError != nil { try checkPendingErrorKept(statement) }
        let effect: StepEffect
        switch statement.action {
        case .print(let items): effect = try printStep(items, at: site, in: &state)
        case .dispatch(let queue, let mode, let body, let options): effect = dispatchStep(queue, mode, body, options, at: site, in: &state)
        case .assign(let assignment): effect = try assignStep(assignment, at: site, in: &state)
        case .loop(let loop): effect = try loopStep(loop, at: site, in: &state)
        case .whileLoop(let loop): effect = try whileStep(loop, at: site, in: &state)
        case .branch(let condition, let then, let otherwise): effect = try branchStep(condition, then, otherwise, at: site, in: &state)
        case .group(let group, let action): effect = groupStep(group, action, at: site, in: &state)
        case .dispatchAfter(let queue, let delay, let body): effect = try dispatchAfterStep(queue, delay, body, at: site, in: &state)
        case .sleep(let delay): effect = try sleepStep(delay, at: site, in: &state)
        case .timedWait(let waitable, let delay, let result): effect = try timedWaitStep(waitable, delay, result, at: site, in: &state)
        case .concurrentPerform(let perform): effect = concurrentPerformStep(perform, at: site, in: &state)
        case .workItem(let item, let action): effect = try workItemStep(item, action, at: site, in: &state)
        case .activate(let queue): effect = activateStep(queue, in: &state)
        case .queueSetting(let queue, .target): effect = setTargetStep(queue, at: site, in: state)
        case .queueSetting(let queue, .specific(let key, let value)): effect = try setSpecificStep(queue, key: key, value: value, at: site, in: &state)
        case .precondition(let kind, let queue): effect = preconditionStep(kind, queue, at: site, in: state)
        case .call(let call): effect = try callStep(call, at: site, in: &state)
        case .returns(let value): effect = try returnStep(value, at: site, in: &state)
        case .exitLoop(let exit): effect = try exitLoopStep(exit, at: site, in: &state)
        case .operation(let operation, .start(let global)):
            return startStep(operation, globalQueue: global, at: site, in: &state)
        case .operation(let operation, let action):
            switch operationStep(operation, action, thread: thread, in: &state) {
            case .success(let done): effect = .moves(done, advancesPC: true)
            case .failure(let crash): return crash.result(state, thread: thread, queue: site.queue, span: statement.span)
            }
        case .operationQueue(let queue, let action):
            switch operationQueueStep(queue, action, thread: thread, in: &state) {
            case .success(let done): effect = .moves(done, advancesPC: true)
            case .failure(let crash): return crash.result(state, thread: thread, queue: site.queue, span: statement.span)
            }
        case .semaphore(let semaphore, let action): effect = semaphoreStep(semaphore, action, at: site, in: &state)
        case .spawn(let spawn): effect = spawnStep(spawn, at: site, in: &state)
        case .suspend(let suspension): effect = try suspendStep(suspension, at: site, in: &state)
        case .hop(let isolation): effect = try hopStep(isolation, at: site, in: &state)
        case .withTaskGroup(let run): effect = withTaskGroupStep(run, at: site, in: &state)
        case .cancellation(let action): effect = try cancellationStep(action, at: site, in: &state)
        case .taskLocal(let action): effect = try taskLocalStep(action, at: site, in: &state)
        case .continuation(let id, let action): effect = try continuationStep(id, action, at: site, in: &state)
        case .stream(let id, let action): effect = try streamStep(id, action, at: site, in: &state)
        case .timer(let source, let action): effect = try timerStep(source, action, at: site, in: &state)
        case .throwing(let action): effect = try throwingStep(action, at: site, in: &state)
        case .handles(let handler): effect = handlerStep(handler, at: site, in: &state)
        }
        switch effect {
        case .ends(let result):
            return result
        case .moves(let event, let advancesPC):
            if advancesPC {
                state.threads[t].frames[frameIndex].pc += 1
            }
            unwind(threadID, in: &state)
            return .next(state, ScheduleStep(thread: thread.threadID, queue: site.queue, event: event, span: statement.span))
        }
    }

    /// The block's return, taken as a step of its own (`ThreadState.returning`).
    func blockReturnStep(_ threadID: Int, in state: MachineState) -> Result {
        var state = state
        let index = state.threadIndex(threadID)!
        let thread = state.threads[index]
        state.threads[index].returning = false
        unwind(threadID, in: &state, deferringSeenEnds: false)
        return .next(state, ScheduleStep(thread: thread.threadID, queue: thread.currentQueue, event: .blockReturns, span: nil))
    }

    /// Pops the frames a thread has finished, releasing their queues at once (a release only
    /// enables other steps, so doing it eagerly loses no schedule), and starts a loop's next
    /// iteration. A worker with nothing left goes back to the pool.
    ///
    /// An ending that others see, not only enables (a group left, which submits its notify
    /// blocks and lets a `wait` return; a work item or an operation done; a task finished,
    /// whose waiters and group go on), is left for a step of its own (`blockReturnStep`): a thread
    /// the last statement woke (a `signal()`, a shared write) may register a notify or submit a
    /// block before it, as real threads do (a group's notify registered after the signal of its
    /// last block and before that block returned runs after a main-queue block submitted next:
    /// 9 of 200 swiftc runs).
    func unwind(_ threadID: Int, in state: inout MachineState, deferringSeenEnds: Bool = true) {
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
            case .loop, .whileBody, .topLevel, .branch, .call, .item, .syncBody, .task, .inlineBody:
                break
            }
            if deferringSeenEnds && isSeenEnding(frame, of: state.threads[t], in: state) {
                state.threads[t].returning = true
                return
            }
            state.threads[t].frames.removeLast()
            switch frame.task {
            case .workItem(let item)?:
                let fromQueue = if case .item = frame.role { true } else { false }
                executed(item, fromQueue: fromQueue, in: &state)
            case .operationBlock(let instance)?: operationBlockEnded(instance, in: &state)
            case .iteration(let instance)?: state.performs[instance].running -= 1
            case .timerEvent?: break
            case nil: break
            }
            switch frame.role {
            case .topLevel, .branch, .loop, .whileBody, .call, .task, .inlineBody:
                break
            case .item(let queue, let barrier, let group):
                state.queues[queue.index].active -= 1
                if barrier { state.queues[queue.index].barrierActive = false }
                endDrainIfEmpty(queue, in: &state)
                if let group {
                    // The enter made at submission balances this leave: it cannot go negative.
                    _ = leaveGroup(group, in: &state)
                }
            case .syncBody(let queue, let waiter, let barrier):
                state.queues[queue.index].active -= 1
                if barrier { state.queues[queue.index].barrierActive = false }
                endDrainAfterSync(queue, in: &state)
                if let waiter, let w = state.threadIndex(waiter) {
                    state.threads[w].waitingOn = nil
                    unwind(waiter, in: &state)
                    t = state.threadIndex(threadID)!
                }
            }
        }
        if state.threads[t].frames.isEmpty, let task = state.threads[t].task {
            finishTask(task, thread: t, in: &state)
        }
        if state.threads[t].frames.isEmpty && threadID != MachineState.mainThreadID {
            state.threads.remove(at: t)
        }
    }

    /// Whether popping `frame` does something other threads see rather than only enabling
    /// them (see `unwind`).
    func isSeenEnding(_ frame: Frame, of thread: ThreadState, in state: MachineState) -> Bool {
        switch frame.task {
        case .workItem?, .operationBlock?: return true
        case .iteration?, .timerEvent?, nil: break
        }
        if case .item(_, _, .some) = frame.role { return true }
        // The task's last frame: finishing it resumes its waiters and tells its group. A task
        // nobody can await (an unkept `Task { }`) ends unseen.
        guard let task = thread.task, thread.frames.count == 1 else { return false }
        return state.tasks[task].awaitable || !state.tasks[task].waiters.isEmpty
    }

    /// A run is over when nothing can move. It finished if no work is left anywhere.
    func isFinished(_ state: MachineState) -> Bool {
        state.threads.count == 1 && state.mainThread.frames.isEmpty
            && state.queues.allSatisfy { $0.pending.isEmpty && $0.active == 0 }
            && state.groups.allSatisfy { $0.notify.isEmpty } && state.timers.isEmpty
            && state.workItems.allSatisfy { $0.notify.isEmpty }
            && state.operationQueues.allSatisfy { $0.unfinished == 0 }
            && state.tasks.allSatisfy(\.finished) && state.taskTimers.isEmpty
            && !state.timerSources.indices.contains { isArmed($0, in: state) }
    }

    /// Who waits on what in a state where nothing can move, as facts.
    func stuckFacts(_ state: MachineState) -> [StuckFact] {
        var facts: [StuckFact] = []
        var syncedQueues: Set<QueueID> = []
        for thread in state.threads {
            guard let wait = wait(of: thread, in: state) else { continue }
            // The wait's own line; a thread in `sync` is past it, and its sentence names none.
            let line = nextStatement(of: thread)?.span.line ?? 0
            if case .syncTurn(let queue) = wait { syncedQueues.insert(queue) }
            let holders: [ThreadID] = switch wait {
            case .syncTurn(let queue): state.threads.filter { $0.holds(queue) }.map(\.threadID)
            case .statusRecordLock(_, let holder): [ThreadID(holder)]
            case .group, .semaphore, .sleep, .timeout, .workItem, .iterations, .operation, .allOperations, .addedOperations, .operationStart, .spins: []
            }
            facts.append(.waits(thread.threadID, wait, line: line, heldBy: holders))
        }
        facts += operationWaits(in: state)
        for (instance, perform) in state.performs.enumerated() where perform.hasIterationsLeft {
            let caller = state.threads.first { $0.frames.contains { $0.performing == instance } }
            let line = caller.flatMap { thread in nextStatementOfPerformingFrame(thread, instance) }?.span.line
            facts.append(.iterationsNobodyTakes(line: line, left: perform.perform.iterations - perform.next))
        }
        for (index, item) in state.workItems.enumerated() where !item.notify.isEmpty {
            facts.append(.workItemNotifyNeverRuns(WorkItemID(index: index)))
        }
        for (index, group) in state.groups.enumerated() where !group.notify.isEmpty {
            facts.append(.groupNotifyNeverRuns(GroupID(index: index), remaining: group.count))
        }
        for (index, queue) in state.queues.enumerated() where !queue.pending.isEmpty {
            let id = QueueID(index: index)
            if program[id].kind == .main && !state.mainThread.frames.isEmpty {
                facts.append(.mainQueueBlocked(id, pending: queue.pending.count))
            } else if !syncedQueues.contains(id) {
                facts.append(.itemsWaiting(id, pending: queue.pending.count))
            }
        }
        facts += suspendedTasks(in: state)
        return facts
    }

    /// The `concurrentPerform` statement a thread's frame is inside.
    private func nextStatementOfPerformingFrame(_ thread: ThreadState, _ instance: Int) -> Statement? {
        guard let frame = thread.frames.first(where: { $0.performing == instance }) else { return nil }
        let statements = program[frame.block].statements
        return statements.indices.contains(frame.pc) ? statements[frame.pc] : nil
    }
}
