/// Why a statement cannot run next in a given state: the thread that must first do something
/// else, the queue that holds the block back, or the statement that has not submitted it yet.
struct BlockerAnalysis {
    let program: Program
    let semantics: Semantics
    /// For each block, the dispatch statement that submits it (nil for the top-level code).
    private let parents: [BlockID: Location]

    typealias Location = StatementLocation

    init(program: Program, semantics: Semantics) {
        self.program = program
        self.semantics = semantics
        var parents: [BlockID: Location] = [:]
        program.walk { statement, here in
            switch statement.action {
            case .workItem(_, .submit), .workItem(_, .submitAfter), .workItem(_, .perform):
                // A work item's body belongs to its declaration, not to the calls that run it.
                return
            case .call(let call):
                // A function's body is reached from its first call.
                if parents[call.body] == nil { parents[call.body] = here }
            case .print, .dispatch, .assign, .loop, .whileLoop, .branch, .group, .semaphore, .dispatchAfter, .sleep, .timedWait,
                .activate, .queueSetting, .precondition, .workItem, .concurrentPerform, .operation, .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream, .timer, .throwing, .handles:
                for body in program.bodies(of: statement.action) { parents[body] = here }
            }
        }
        self.parents = parents
    }

    /// Every thread has gone as far as it can without printing: each possible move prints.
    func isSaturated(_ state: MachineState, moves: [Semantics.Move]) -> Bool {
        moves.allSatisfy { move in
            guard case .step(let id) = move, let thread = state.threads.first(where: { $0.id == id }),
                let statement = semantics.nextStatement(of: thread)
            else { return false }
            if case .print = statement.action { return true }
            return false
        }
    }

    func whyNot(_ wanted: NextEvent, in state: MachineState, prefix: [String], isTerminal: Bool) -> [Blocker] {
        switch wanted {
        case .end(let end):
            return whyNotEnd(end, in: state, isTerminal: isTerminal)
        case .line(let text):
            return whyNotLine(text, in: state, prefix: prefix, isTerminal: isTerminal)
        }
    }

    private func whyNotEnd(_ end: End, in state: MachineState, isTerminal: Bool) -> [Blocker] {
        if isTerminal {
            if semantics.isFinished(state) {
                return [Blocker(rule: .allWorkDone, reason: .everythingRan, span: nil)]
            }
            return [Blocker(rule: .workRemains, reason: .stuck(semantics.stuckFacts(state)), span: nil)]
        }
        return [Blocker(rule: end == .finished ? .workRemains : .allWorkDone, reason: .stillRunning(nextPrints: nextPrints(in: state)), span: nil)]
    }

    private func whyNotLine(_ text: String, in state: MachineState, prefix: [String], isTerminal: Bool) -> [Blocker] {
        let locations = printLocations(of: text)
        guard !locations.isEmpty else {
            return [Blocker(rule: .neverPrinted, reason: .neverPrinted(text), span: nil)]
        }
        if prefix.filter({ $0 == text }).count >= locations.count {
            return [Blocker(rule: .alreadyPrinted, reason: .alreadyPrinted(text, lines: locations.map { span($0).line }), span: span(locations[0]))]
        }
        if isTerminal && !semantics.isFinished(state) {
            return [Blocker(rule: .workRemains, reason: .stuckBefore(text, semantics.stuckFacts(state)), span: nil)]
        }
        // A print of these very words is the reason to look at first; a print of a variable
        // (which might print them at another moment) only when no such print explains it.
        let (literal, variable) = (locations.filter(printsConstant), locations.filter { !printsConstant($0) })
        for candidates in [literal, variable] {
            let blockers = candidates.compactMap { location -> Blocker? in
                guard case .blocked(let blocker) = classify(location, in: state, wanted: text) else { return nil }
                return blocker
            }
            // A print that prints something else at this moment is the weakest reason: last.
            if !blockers.isEmpty { return blockers.filter { $0.rule != .printShowsCurrentValues } + blockers.filter { $0.rule == .printShowsCurrentValues } }
        }
        return []
    }

    /// The statement whose body the frame above `frame` runs: the one before its pc, or, for a
    /// `for await` loop (which runs again after each body), the one at it.
    private func enclosingStatement(of frame: Frame) -> Statement {
        program[enclosingLocation(of: frame)]
    }

    private func enclosingLocation(of frame: Frame) -> StatementLocation {
        let statements = program[frame.block].statements
        if statements.indices.contains(frame.pc) {
            switch statements[frame.pc].action {
            case .suspend(.streamNext): return StatementLocation(block: frame.block, index: frame.pc)
            case .suspend(.groupNext(let next)) where next.loops: return StatementLocation(block: frame.block, index: frame.pc)
            default: break
            }
        }
        return StatementLocation(block: frame.block, index: max(frame.pc - 1, 0))
    }

    /// Whether the print at `location` prints the same words every time.
    private func printsConstant(_ location: Location) -> Bool {
        guard case .print(let items) = program[location.block].statements[location.index].action else { return false }
        return items.allSatisfy { $0.constantValue != nil }
    }

    private enum Status {
        case blocked(Blocker)
        case alreadyRan
    }

    /// Why the statement at `location` is not the next thing to happen.
    /// `wanted` is the line the learner expects the statement (a print) to produce.
    private func classify(_ location: Location, in state: MachineState, wanted: String? = nil, depth: Int = 0) -> Status {
        let line = span(location).line
        // A thread is inside the block.
        for thread in state.threads {
            for (index, frame) in thread.frames.enumerated() where frame.block == location.block {
                guard frame.pc <= location.index else { continue }
                let isTop = index == thread.frames.count - 1
                if isTop, let queue = thread.waitingOn {
                    let sync = program[frame.block].statements[frame.pc - 1]
                    let hold = queueBlocker(queue, waiter: .thread(thread.id), in: state)
                    return .blocked(Blocker(
                        rule: hold.rule,
                        reason: .afterSync(thread.threadID, queue: queue, syncLine: sync.span.line, line: line, because: hold),
                        span: sync.span))
                }
                if isTop, let next = semantics.nextStatement(of: thread), let wait = semantics.wait(of: thread, in: state) {
                    return .blocked(waitBlocker(thread, next, wait, before: line))
                }
                if isTop {
                    let next = program[frame.block].statements[frame.pc]
                    let printed = semantics.printedText(of: next, by: thread, in: state)
                    if frame.pc == location.index, let printed, let wanted, printed != wanted {
                        // The thread is at this very print, and it prints something else here.
                        return .blocked(Blocker(
                            rule: .printShowsCurrentValues,
                            reason: .printsOtherValue(thread.threadID, line: line, printed: printed, wanted: wanted,
                                                      values: valuesRead(by: next, of: thread, in: state)),
                            span: next.span))
                    }
                    return .blocked(Blocker(
                        rule: .programOrder,
                        reason: .mustFirstRun(thread.threadID, statement: StatementLocation(block: frame.block, index: frame.pc), printed: printed, before: line),
                        span: next.span))
                }
                let inner = thread.frames[index + 1]
                if frame.performing != nil {
                    // concurrentPerform keeps its caller's frame at the call until every iteration is done.
                    let perform = program[frame.block].statements[frame.pc]
                    return .blocked(Blocker(
                        rule: .concurrentPerformWaitsForIterations,
                        reason: .insidePerform(thread.threadID, performLine: perform.span.line, running: currentLine(of: inner), before: line),
                        span: perform.span))
                }
                let call = enclosingStatement(of: frame)
                if case .dispatch = call.action {
                    return .blocked(Blocker(
                        rule: .syncWaitsForItsBlock,
                        reason: .insideSync(thread.threadID, syncLine: call.span.line, running: currentLine(of: inner), before: line),
                        span: call.span))
                }
                return .blocked(Blocker(
                    rule: .programOrder,
                    reason: .mustFirstFinish(thread.threadID, statement: enclosingLocation(of: frame),
                                             at: semantics.nextStatement(of: thread)?.span.line, before: line),
                    span: call.span))
            }
        }
        // The block waits in a queue.
        for (queueIndex, queue) in state.queues.enumerated() {
            for item in queue.pending {
                let body: BlockID
                let waiter: Waiter
                switch item {
                case .async(let block, _, _, _, _): waiter = .item(block); body = block
                case .sync(let thread, let block, _, _): waiter = .thread(thread); body = block
                case .operation(let instance):
                    guard let first = state.operations[instance].blocks.first?.body else { continue }
                    waiter = .operation(instance); body = first
                case .helper(let instance):
                    waiter = .helper(instance); body = state.performs[instance].perform.body
                case .job, .drain:
                    // A task's job is explained by the task's own sentences, not as a block; a
                    // queue waiting in its target by its blocks.
                    continue
                }
                guard body == location.block else { continue }
                let hold = queueBlocker(QueueID(index: queueIndex), waiter: waiter, in: state)
                return .blocked(Blocker(rule: hold.rule, reason: .waitsInQueue(QueueID(index: queueIndex), blockLine: program[body].span?.line, because: hold),
                                        span: program[body].span))
            }
        }
        if let blocker = operationBlocker(location, in: state) { return .blocked(blocker) }
        if let blocker = heldBackBlocker(location, in: state) { return .blocked(blocker) }
        // Not submitted yet, or already run.
        guard let parent = parents[location.block], depth < 16 else { return .alreadyRan }
        switch classify(parent, in: state, depth: depth + 1) {
        case .alreadyRan:
            return .alreadyRan
        case .blocked(let inner):
            return .blocked(Blocker(rule: inner.rule, reason: .notReached(line: line, parent: parent, because: inner.reason), span: inner.span))
        }
    }

    private enum Waiter {
        case thread(Int)
        case item(BlockID)
        case operation(Int)
        case helper(Int)
    }

    /// The block belongs to an operation still in its OperationQueue: why it has not started.
    private func operationBlocker(_ location: Location, in state: MachineState) -> Blocker? {
        for operation in state.operations where operation.skipped {
            guard operation.blocks.contains(where: { $0.body == location.block }) else { continue }
            return Blocker(rule: .cancelledOperationSkipsItsBlocks, reason: .operationCancelled(operation.decl), span: program[location.block].span)
        }
        for (index, operation) in state.operations.enumerated() where operation.phase == .enqueued {
            guard operation.blocks.contains(where: { $0.body == location.block }), let queue = operation.queue else { continue }
            let queueID = OperationQueueID(index: queue)
            if !operation.cancelled, let unfinished = semantics.unfinishedDependencies(of: index, in: state) {
                return Blocker(rule: .operationWaitsForDependencies,
                               reason: .operationWaitsForDependencies(operation.decl, queue: queueID, unfinished: unfinished),
                               span: program[location.block].span)
            }
            if state.operationQueues[queue].suspended {
                return Blocker(rule: .operationQueueLimit, reason: .operationQueueSuspended(queueID), span: program[location.block].span)
            }
            return Blocker(rule: .operationQueueLimit,
                           reason: .operationQueueFull(operation.decl, queue: queueID, running: state.operationQueues[queue].executing),
                           span: program[location.block].span)
        }
        return nil
    }

    /// Why a queue does not let this waiter in now.
    private func queueBlocker(_ queue: QueueID, waiter: Waiter, in state: MachineState) -> QueueHold {
        let decl = program[queue]
        let pending = state.queues[queue.index].pending
        let position = pending.firstIndex { item in
            switch (item, waiter) {
            case (.async(let a, _, _, _, _), .item(let b)): a == b
            case (.sync(let a, _, _, _), .thread(let b)): a == b
            case (.operation(let a), .operation(let b)): a == b
            case (.helper(let a), .helper(let b)): a == b
            case (.async, _), (.sync, _), (.operation, _), (.helper, _), (.job, _), (.drain, _): false
            }
        } ?? 0
        if decl.kind == .main && !state.mainThread.frames.isEmpty {
            return .mainThreadBusy(line: line(of: state.mainThread))
        }
        if let target = state.drainTargets[queue.index], !state.queues[queue.index].draining {
            guard state.queues[target.index].active > 0 else { return .targetBusy(queue, target: target, running: nil) }
            let running = state.queues.indices.first { state.drainTargets[$0] == target && state.queues[$0].draining }
            return .targetBusy(queue, target: target, running: running.map { QueueID(index: $0) } ?? target)
        }
        if let target = state.drainTargets[queue.index], position == 0, state.queues[queue.index].active > 0 {
            // Drained by a serial target: one block at a time, whatever the queue's own kind.
            return .targetBusy(queue, target: target, running: queue)
        }
        // Items held back only because the pool has no thread for the queue's first: say so.
        if let pool = semantics.program.workerPool(of: queue), let cores = semantics.machine.cores, semantics.admits(queue, in: state),
            semantics.workerAvailability(for: queue, in: state) != .free {
            let busy = semantics.busyThreads(of: pool, in: state)
            return .poolBusy(queue, cores: cores, added: state.pools[semantics.poolIndex(pool)].added,
                             blocked: busy.filter { semantics.wait(of: $0, in: state) != nil }.count, ahead: position)
        }
        if position > 0 {
            let ahead: QueuedItem = switch pending[position - 1] {
            case .async(let block, _, _, _, _): .block(line: program[block].span?.line)
            case .sync(let thread, let block, _, _): .sync(line: program[block].span?.line, ThreadID(thread))
            case .operation(let instance): .operation(state.operations[instance].decl)
            case .helper(let instance): .block(line: program[state.performs[instance].perform.body].span?.line)
            case .job(let task): .block(line: state.tasks[task].frames.first.flatMap { program[$0.block].span?.line })
            case .drain(let other): .queue(other)
            }
            return .earlierItems(queue, count: position, last: ahead)
        }
        if decl.kind == .concurrent && (state.queues[queue.index].barrierActive || pending[position].isBarrier) {
            return state.queues[queue.index].barrierActive ? .barrierRunning(queue) : .barrierWaits(queue, running: state.queues[queue.index].active)
        }
        if decl.kind.isSerial && state.queues[queue.index].active > 0 {
            let holder = state.threads.first { $0.holds(queue) }
            return .busy(queue, holder: holder.map { ThreadAt(thread: $0.threadID, line: line(of: $0)) })
        }
        return .notStartedYet(queue)
    }

    private func nextPrints(in state: MachineState) -> [NextPrint] {
        state.threads.compactMap { thread -> NextPrint? in
            guard semantics.isRunnable(thread, in: state), let statement = semantics.nextStatement(of: thread),
                case .print(let items) = statement.action
            else { return nil }
            return NextPrint(values: items.map { try? semantics.evaluate($0, for: thread, in: state) }, thread: thread.threadID)
        }
    }

    /// Why a thread at a `wait` cannot go on.
    private func waitBlocker(_ thread: ThreadState, _ statement: Statement, _ wait: ThreadWait, before line: Int) -> Blocker {
        let rule: Rule
        switch wait {
        case .syncTurn: rule = .syncWaitsForItsBlock
        case .group: rule = .groupWaitsForItsBlocks
        case .semaphore: rule = .semaphoreBlocksAtZero
        case .sleep, .timeout: rule = .timeIsLogical
        case .workItem: rule = .workItemWaitReturnsAfterItRuns
        case .iterations: rule = .concurrentPerformWaitsForIterations
        case .operation, .allOperations, .addedOperations, .operationStart: rule = .operationWaitsForDependencies
        case .spins: rule = .spinningKeepsItsThread
        case .statusRecordLock: rule = .cancellationHandlersHoldTheTask
        }
        return Blocker(rule: rule, reason: .waits(thread.threadID, wait, line: statement.span.line, before: line), span: statement.span)
    }

    /// A block not in any queue yet, held back by the library until something happens: a timer
    /// that is not due, a group that is not empty, a work item or operation that has not finished.
    private func heldBackBlocker(_ location: Location, in state: MachineState) -> Blocker? {
        let block = location.block
        let line = span(location).line
        let blockSpan = program[block].span
        if let timer = state.timers.first(where: { $0.body == block }) {
            return Blocker(rule: .timeIsLogical, reason: .timerNotDue(line: line, queue: timer.queue, due: timer.due, now: state.now), span: blockSpan)
        }
        for (index, timer) in state.timerSources.enumerated() where timer.handler?.body == block {
            let hold: TimerSourceHold
            if timer.cancelled {
                hold = .cancelled
            } else if state.inactive[program.timerSources[index].queue.index] {
                hold = .notResumed
            } else if let due = timer.due {
                hold = .notDue(due: due, now: state.now)
            } else {
                hold = .notScheduled
            }
            let rule: Rule = if case .notDue = hold { .timeIsLogical } else { .notSubmittedYet }
            return Blocker(rule: rule, reason: .timerSourceHeldBack(line: line, TimerSourceID(index: index), hold), span: blockSpan)
        }
        for (index, group) in state.groups.enumerated() where group.notify.contains(where: { $0.body == block }) {
            return Blocker(rule: .groupNotifiesWhenEmpty, reason: .groupNotifyHeldBack(line: line, GroupID(index: index), remaining: group.count), span: blockSpan)
        }
        for (index, item) in state.workItems.enumerated() where item.notify.contains(where: { $0.body == block }) {
            return Blocker(rule: .notSubmittedYet, reason: .workItemNotifyHeldBack(line: line, WorkItemID(index: index)), span: blockSpan)
        }
        for operation in state.operations where operation.completion?.body == block && operation.phase != .finished {
            return Blocker(rule: .completionBlockRunsAfter, reason: .completionHeldBack(line: line, operation.decl), span: blockSpan)
        }
        return nil
    }

    /// The variables a print reads, with their values as this thread sees them.
    private func valuesRead(by statement: Statement, of thread: ThreadState, in state: MachineState) -> [VariableValue] {
        guard case .print(let items) = statement.action else { return [] }
        var seen: Set<VariableID> = []
        return items.flatMap(\.variablesRead).filter { seen.insert($0).inserted }.compactMap { variable in
            semantics.value(of: variable, for: thread, in: state).map { VariableValue(variable: variable, value: $0) }
        }
    }

    /// The reason a run that dies here prints nothing more, with the rule behind it; nil for a
    /// run that is stuck rather than dead.
    func blocker(ending reason: DeadlockReason) -> Blocker? {
        switch reason {
        case .trap(_, _, let span), .unbalancedLeave(_, _, let span), .unbalancedSignal(_, _, let span), .targetOfActiveQueue(_, _, let span),
            .recursiveMutexLock(_, _, let span), .foundationCrash(_, _, let span), .runtimeError(_, _, let span), .modelError(_, _, let span),
            .workItemMisuse(_, _, _, let span):
            Blocker(rule: .trapEndsTheProcess, reason: .processDies(reason), span: span)
        case .memoryCorrupted(let race):
            Blocker(rule: .trapEndsTheProcess, reason: .processDies(reason), span: race.second.span)
        case .preconditionFailed(_, _, _, let span):
            Blocker(rule: .preconditionCrashes, reason: .processDies(reason), span: span)
        case .stuck:
            nil
        }
    }

    /// The prints that can print `text`: those of literals that do, and those of variables.
    private func printLocations(of text: String) -> [Location] {
        var locations: [Location] = []
        program.walk { statement, location in
            guard case .print(let items) = statement.action else { return }
            let literal = items.map { $0.constantValue?.description }
            let matches: Bool
            if literal.allSatisfy({ $0 != nil }) {
                matches = literal.map { $0! }.joined(separator: " ").split(separator: "\n", omittingEmptySubsequences: false)
                    .contains(Substring(text))
            } else {
                matches = true
            }
            if matches { locations.append(location) }
        }
        return locations
    }

    private func span(_ location: Location) -> SourceSpan {
        program[location].span
    }

    private func currentLine(of frame: Frame) -> Int {
        let statements = program[frame.block].statements
        let index = min(max(frame.pc - 1, 0), max(statements.count - 1, 0))
        return statements.isEmpty ? 0 : statements[index].span.line
    }

    /// The line a thread is at: the sync it waits in, or the statement it runs next.
    private func line(of thread: ThreadState) -> Int {
        guard let frame = thread.frames.last else { return 0 }
        let statements = program[frame.block].statements
        let index = thread.waitingOn != nil || frame.pc >= statements.count ? frame.pc - 1 : frame.pc
        return statements.indices.contains(index) ? statements[index].span.line : 0
    }
}

extension QueueHold {
    /// The rule a queue that holds a block back follows.
    var rule: Rule {
        switch self {
        case .mainThreadBusy: .mainQueueNeedsIdleMainThread
        case .earlierItems, .notStartedYet: .fifo
        case .barrierRunning, .barrierWaits: .barrierRunsAlone
        case .busy: .serialOneAtATime
        case .targetBusy: .serialTargetDrainsOneAtATime
        case .poolBusy: .workerPoolIsLimited
        }
    }
}
