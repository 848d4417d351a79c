/// The model's rules for OperationQueue, following swift-corelibs-foundation (Operation.swift):
/// an operation queue hands a ready operation to its backing dispatch queue as soon as a slot is
/// free, on the thread whose step made that possible (adding it, finishing a dependency,
/// cancelling it, resuming the queue, raising the limit). So the choice of *which* operation
/// starts is made there, deterministically: highest `queuePriority` first, then the order added.
/// What stays open is when the backing queue gives the operation a thread.
extension Semantics {
    /// Foundation kills the process (`fatalError`) for misuse such as adding an operation twice.
    struct OperationCrash: Error {
        var misuse: FoundationMisuse

        func result(_ state: MachineState, thread: ThreadState, queue: QueueID?, span: SourceSpan) -> Result {
            let reason = DeadlockReason.foundationCrash(thread: thread.threadID, misuse: misuse, at: span)
            return .trapped(state, ScheduleStep(thread: thread.threadID, queue: queue, event: .crashes(reason), span: span), reason)
        }
    }

    /// The instance a declared operation's statements act on (named operations are created once).
    private func instance(_ operation: OperationID) -> Int { operation.index }

    func operationStep(_ operation: OperationID, _ action: OperationAction, thread: ThreadState,
                       in state: inout MachineState) -> Swift.Result<ScheduleStep.Event, OperationCrash> {
        let index = instance(operation)
        switch action {
        case .create:
            for flag in [program[operation].cancelled, program[operation].finished, program[operation].executing].compactMap({ $0 }) {
                state.globals[flag.index] = .bool(false)
            }
            state.operations[index].blocks = program[operation].blocks.map { CapturedBlock(body: $0, captures: visibleLocals(of: thread)) }
            return .success(.operationCreated(operation: operation))
        case .addBlock(let body):
            // Foundation refuses only once the operation executes or has finished: handed to the
            // backing queue but not started, it still takes the block (and runs it).
            let phase = state.operations[index].phase
            guard phase != .executing && phase != .finished else {
                return .failure(OperationCrash(misuse: .blockAddedAfterStart))
            }
            state.operations[index].blocks.append(CapturedBlock(body: body, captures: visibleLocals(of: thread)))
            return .success(.operationBlockAdded(operation: operation))
        case .addDependency(let other):
            if !state.operations[index].dependencies.contains(instance(other)) {
                state.operations[index].dependencies.append(instance(other))
            }
            return .success(.dependencyAdded(operation: operation, on: other))
        case .setCompletion(let body):
            state.operations[index].completion = CapturedBlock(body: body, captures: visibleLocals(of: thread))
            return .success(.completionSet(operation: operation))
        case .setPriority(let priority):
            if state.operations[index].priority != priority {
                state.operations[index].priority = priority
                // Foundation moves it to the end of its new priority's list.
                if let queue = state.operations[index].queue, let position = state.operationQueues[queue].waiting.firstIndex(of: index) {
                    state.operationQueues[queue].waiting.remove(at: position)
                    state.operationQueues[queue].waiting.append(index)
                }
                scheduleOperations(in: &state)
            }
            return .success(.priorityChanged(operation: operation, priority: priority))
        case .cancel:
            cancel(index, in: &state)
            return .success(.operationCancel(operation: operation))
        case .waitUntilFinished:
            return .success(.operationWaitReturns(operation: operation))
        case .start:
            // `startStep` takes the statement; the step never comes here.
            return .success(.operationStartReturns(operation: operation))
        }
    }

    /// `op.start()`, as swift-corelibs-foundation's `Operation.start()` does it (and Apple's): a
    /// finished operation does nothing; one in a queue or executing, or whose dependencies have
    /// not finished, is Foundation's fatal error; a cancelled one finishes without running. Else
    /// it runs here: its blocks one after another (swift-corelibs-foundation's
    /// `BlockOperation.main()`), or the first here and the others on a global queue side by side
    /// (Apple's), and `start()` returns once every block has ended. Measured with swiftc on Linux.
    func startStep(_ operation: OperationID, globalQueue: QueueID, at site: StepSite, in state: inout MachineState) -> Result {
        let index = instance(operation)
        let t = site.index, f = site.frameIndex
        let event: ScheduleStep.Event
        if site.frame.startedOperation == index {
            // Back from the blocks: the operation has finished (the wait saw to it).
            state.threads[t].frames[f].startedOperation = nil
            state.threads[t].frames[f].pc += 1
            event = .operationStartReturns(operation: operation)
        } else {
            let current = state.operations[index]
            switch current.phase {
            case .finished:
                state.threads[t].frames[f].pc += 1
                event = .operationStartReturns(operation: operation)
            case .enqueued, .dispatched, .executing:
                return OperationCrash(misuse: .startedTwice).result(state, thread: site.thread, queue: site.queue, span: site.statement.span)
            case .idle:
                if !current.cancelled && !isReady(index, in: state) {
                    return OperationCrash(misuse: .startedNotReady).result(state, thread: site.thread, queue: site.queue, span: site.statement.span)
                }
                state.operations[index].completionQueue = globalQueue
                if current.cancelled || current.blocks.isEmpty {
                    state.operations[index].skipped = current.cancelled
                    finishOperation(index, in: &state)
                    state.threads[t].frames[f].pc += 1
                    event = current.cancelled ? .operationSkipped(operation: operation) : .operationFinishes(operation: operation)
                } else {
                    state.operations[index].phase = .executing
                    setFlags(of: index, executing: true, in: &state)
                    state.operations[index].running = current.blocks.count
                    state.threads[t].frames[f].startedOperation = index
                    let blocks: [CapturedBlock]
                    switch machine.platform {
                    case .apple:
                        blocks = [current.blocks[0]]
                        for block in current.blocks.dropFirst() {
                            state.enqueue(on: globalQueue, .async(block.body, captures: block.captures, barrier: false, group: nil, task: .operationBlock(index)))
                        }
                    case .linux:
                        blocks = current.blocks
                    }
                    // The first runs first: it goes on top.
                    for block in blocks.reversed() {
                        state.threads[t].frames.append(Frame(block: block.body, role: .call, locals: block.captures, task: .operationBlock(index)))
                    }
                    event = .operationStartedHere(operation: operation)
                }
            }
        }
        unwind(site.threadID, in: &state)
        return .next(state, ScheduleStep(thread: site.thread.threadID, queue: site.queue, event: event, span: site.statement.span))
    }

    func operationQueueStep(_ queue: OperationQueueID, _ action: OperationQueueAction, thread: ThreadState,
                            in state: inout MachineState) -> Swift.Result<ScheduleStep.Event, OperationCrash> {
        switch action {
        case .add(let operations):
            if operations.contains(where: { state.operations[instance($0)].phase != .idle }) || Set(operations).count < operations.count {
                return .failure(OperationCrash(misuse: .operationEnqueuedTwice))
            }
            for operation in operations { enqueue(instance(operation), on: queue, in: &state) }
            scheduleOperations(in: &state)
            return .success(.operationsAdded(queue: queue, operations: operations))
        case .addBlock(let operation):
            var fresh = OperationState(decl: operation)
            fresh.blocks = program[operation].blocks.map { CapturedBlock(body: $0, captures: visibleLocals(of: thread)) }
            state.operations.append(fresh)
            enqueue(state.operations.count - 1, on: queue, in: &state)
            scheduleOperations(in: &state)
            return .success(.operationsAdded(queue: queue, operations: [operation]))
        case .setMaxConcurrent(let limit):
            state.operationQueues[queue.index].limit = limit
            scheduleOperations(in: &state)
            return .success(.operationLimit(queue: queue, limit: limit))
        case .setSuspended(let suspended):
            state.operationQueues[queue.index].suspended = suspended
            scheduleOperations(in: &state)
            return .success(.operationQueueSuspended(queue: queue, suspended))
        case .cancelAll:
            for index in state.operations.indices where state.operations[index].queue == queue.index {
                cancel(index, in: &state)
            }
            return .success(.operationCancelAll(queue: queue))
        case .waitUntilAllFinished:
            return .success(.operationWaitAllReturns(queue: queue))
        case .waitFor(let operations):
            return .success(.operationsWaitReturns(queue: queue, operations: operations))
        }
    }

    private func enqueue(_ index: Int, on queue: OperationQueueID, in state: inout MachineState) {
        state.operations[index].phase = .enqueued
        state.operations[index].queue = queue.index
        state.operationQueues[queue.index].waiting.append(index)
        state.operationQueues[queue.index].unfinished += 1
    }

    /// A cancelled operation no longer waits for its dependencies: it is ready at once, and
    /// finishes without running its blocks when its turn comes. One that runs already goes on.
    private func cancel(_ index: Int, in state: inout MachineState) {
        guard state.operations[index].phase != .finished else { return }
        state.operations[index].cancelled = true
        if let variable = program[state.operations[index].decl].cancelled {
            state.globals[variable.index] = .bool(true)
        }
        scheduleOperations(in: &state)
    }

    /// Ready: cancelled, or every dependency has finished.
    func isReady(_ index: Int, in state: MachineState) -> Bool {
        state.operations[index].cancelled || state.operations[index].dependencies.allSatisfy { state.operations[$0].phase == .finished }
    }

    /// The operations `index` still waits for, or nil when none: for facts about a stuck
    /// state, not for the search.
    func unfinishedDependencies(of index: Int, in state: MachineState) -> [OperationID]? {
        let unfinished = state.operations[index].dependencies.filter { state.operations[$0].phase != .finished }
        return unfinished.isEmpty ? nil : unfinished.map { state.operations[$0].decl }
    }

    /// Every queue hands its ready operations to its backing queue while it has free slots:
    /// Foundation's `_schedule`, highest priority first, then first added.
    func scheduleOperations(in state: inout MachineState) {
        for queue in state.operationQueues.indices where !state.operationQueues[queue].suspended {
            while state.operationQueues[queue].executing < (state.operationQueues[queue].limit ?? Int.max) {
                let ready = state.operationQueues[queue].waiting.enumerated().filter { isReady($0.element, in: state) }
                guard let best = ready.max(by: { a, b in
                    let (pa, pb) = (state.operations[a.element].priority, state.operations[b.element].priority)
                    return pa != pb ? pa < pb : a.offset > b.offset
                }) else { break }
                state.operationQueues[queue].waiting.remove(at: best.offset)
                state.operationQueues[queue].executing += 1
                state.operations[best.element].phase = .dispatched
                let backing = program.operationQueues[queue].backing
                state.enqueue(on: backing, .operation(best.element))
            }
        }
    }

    /// The backing queue gives the operation a thread. Its first block runs there. Further
    /// execution blocks of a BlockOperation run as Foundation runs them: on Apple's platforms each
    /// goes to a global queue, side by side with the first; swift-corelibs-foundation's `main()`
    /// runs them one after another on the same thread.
    func startOperation(_ index: Int, from queue: QueueID, in state: MachineState, onAddedThread: Bool) -> Result {
        var state = state
        let operation = state.operations[index]
        if operation.cancelled || operation.blocks.isEmpty {
            state.queues[queue.index].active -= 1
            state.operations[index].skipped = operation.cancelled
            finishOperation(index, in: &state)
            let event: ScheduleStep.Event = operation.cancelled ? .operationSkipped(operation: operation.decl) : .operationFinishes(operation: operation.decl)
            return .next(state, ScheduleStep(thread: .foundation, queue: queue, event: event, span: program[operation.decl].span))
        }
        state.operations[index].phase = .executing
        setFlags(of: index, executing: true, in: &state)
        state.operations[index].running = operation.blocks.count
        let first = operation.blocks[0]
        let runner: Int
        switch machine.platform {
        case .apple:
            let frame = Frame(block: first.body, role: .item(queue, barrier: false, group: nil), locals: first.captures, task: .operationBlock(index))
            runner = startThread(with: frame, for: queue, in: &state)
            if let operationQueue = operation.queue {
                let global = program.operationQueues[operationQueue].globalQueue
                for block in operation.blocks.dropFirst() {
                    state.enqueue(on: global, .async(block.body, captures: block.captures, barrier: false, group: nil, task: .operationBlock(index)))
                }
            }
        case .linux:
            // The last block's frame holds the queue's slot; the first runs first, on top.
            let last = operation.blocks[operation.blocks.count - 1]
            var frame = Frame(block: last.body, role: .item(queue, barrier: false, group: nil), locals: last.captures, task: .operationBlock(index))
            runner = startThread(with: frame, for: queue, in: &state)
            let t = state.threadIndex(runner)!
            for block in operation.blocks.dropLast().reversed() {
                frame = Frame(block: block.body, role: .call, locals: block.captures, task: .operationBlock(index))
                state.threads[t].frames.append(frame)
            }
        }
        unwind(runner, in: &state)
        let event: ScheduleStep.Event = .startsOperation(operation: operation.decl, onAddedThread: onAddedThread)
        return .next(state, ScheduleStep(thread: ThreadID(runner), queue: queue, event: event, span: program[first.body].span))
    }

    /// One execution block ended; the operation finishes with its last.
    func operationBlockEnded(_ index: Int, in state: inout MachineState) {
        state.operations[index].running -= 1
        if state.operations[index].running == 0 { finishOperation(index, in: &state) }
    }

    /// Finishing frees the operation's slot, makes its dependents ready, releases
    /// `waitUntilFinished`, and sends its completion block to a global queue.
    func finishOperation(_ index: Int, in state: inout MachineState) {
        state.operations[index].phase = .finished
        setFlags(of: index, executing: false, in: &state)
        var global = state.operations[index].completionQueue
        if let queue = state.operations[index].queue {
            state.operationQueues[queue].executing -= 1
            state.operationQueues[queue].unfinished -= 1
            global = program.operationQueues[queue].globalQueue
        }
        if let completion = state.operations[index].completion, let global {
            state.enqueue(on: global, .async(completion.body, captures: completion.captures, barrier: false, group: nil, task: nil))
        }
        scheduleOperations(in: &state)
    }

    /// `op.isExecuting` and `op.isFinished` of a named operation, as the snippet reads them.
    private func setFlags(of index: Int, executing: Bool, in state: inout MachineState) {
        let decl = program[state.operations[index].decl]
        if let flag = decl.executing { state.globals[flag.index] = .bool(executing) }
        if let flag = decl.finished, !executing { state.globals[flag.index] = .bool(true) }
    }

    /// Who waits on operations in a state where nothing can move.
    func operationWaits(in state: MachineState) -> [StuckFact] {
        var facts: [StuckFact] = []
        for (index, operation) in state.operations.enumerated() where operation.phase == .enqueued {
            if let queue = operation.queue, state.operationQueues[queue].suspended {
                facts.append(.operationInSuspendedQueue(operation.decl, queue: OperationQueueID(index: queue)))
            } else if let unfinished = unfinishedDependencies(of: index, in: state) {
                facts.append(.operationDependsOnUnfinished(operation.decl, unfinished: unfinished))
            }
        }
        return facts
    }
}
