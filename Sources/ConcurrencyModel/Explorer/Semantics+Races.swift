/// What a step reads and writes, for data race detection.
extension Semantics {
    struct Access: Hashable {
        var variable: VariableID
        var isWrite: Bool
        var span: SourceSpan
    }

    /// The shared variables the thread's next step reads or writes: looked up in
    /// `accessTable`, which `accesses(of:writing:startingDelay:in:)` filled for every statement.
    func nextAccesses(of thread: ThreadState) -> [Access] {
        if thread.switching || thread.returning { return [] }
        guard let frame = thread.frames.last, frame.pc < program[frame.block].statements.count else { return [] }
        let variant = Self.accessVariant(writing: thread.pendingWrite != nil, startingDelay: thread.sleepUntil == nil && thread.waitDeadline == nil)
        return accessTable[frame.block.index][frame.pc * 4 + variant]
    }

    /// Where a thread's accesses at a statement sit among the statement's four in `accessTable`.
    static func accessVariant(writing: Bool, startingDelay: Bool) -> Int {
        (writing ? 1 : 0) | (startingDelay ? 2 : 0)
    }

    /// Per block, per statement, the accesses of the four kinds of threads that can stand before
    /// it (`accessVariant`): the search asks at every new state, for every runnable thread, and
    /// walking the expressions each time was most of the race check.
    static func accessTable(_ program: Program) -> [[[Access]]] {
        program.blocks.map { block in
            block.statements.flatMap { statement in
                (0..<4).map { variant in
                    accesses(of: statement, writing: variant & 1 != 0, startingDelay: variant & 2 != 0, in: program)
                }
            }
        }
    }

    /// The shared variables a step at `statement` reads or writes: `writing` when the thread holds
    /// the value an assignment read (`ThreadState.pendingWrite`), `startingDelay` when it is in
    /// no sleep or timed wait yet.
    private static func accesses(of statement: Statement, writing: Bool, startingDelay: Bool, in program: Program) -> [Access] {
        func reads(_ expressions: [Expression]) -> [Access] {
            expressions.flatMap(\.variablesRead).filter { program[$0].isGlobal && !program[$0].isSynchronized }
                .map { Access(variable: $0, isWrite: false, span: statement.span) }
        }
        switch statement.action {
        // A print that has read its values (`racyPrintVariables`) reads nothing as it outputs.
        case .print(let items): return writing ? [] : reads(items)
        case .branch(let condition, _, _): return reads([condition])
        case .loop(let loop): return reads([loop.from, loop.to])
        case .whileLoop(let loop): return loop.entersUntested ? [] : reads([loop.condition])
        case .call(let call): return reads(call.arguments.map(\.value))
        case .returns(let value): return reads(value.map { [$0] } ?? [])
        case .exitLoop: return []
        case .assign(let assignment):
            let target = assignment.target
            if isTwoPhase(assignment, in: program) {
                if !writing {
                    var accesses = reads([assignment.value] + (assignment.index.map { [$0] } ?? []))
                    if assignment.readsTarget && !accesses.contains(where: { $0.variable == target }) {
                        accesses.append(Access(variable: target, isWrite: false, span: statement.span))
                    }
                    return accesses
                }
                return [Access(variable: target, isWrite: true, span: statement.span)]
            }
            var accesses = reads([assignment.value] + (assignment.index.map { [$0] } ?? []))
            if program[target].isGlobal && !program[target].isSynchronized { accesses.append(Access(variable: target, isWrite: true, span: statement.span)) }
            return accesses
        case .dispatchAfter(_, let delay, _), .sleep(let delay), .timedWait(_, let delay, _):
            // A computed delay reads its variables as the call starts (not as it returns).
            guard startingDelay else { return [] }
            return delay.variablesRead.filter { program[$0].isGlobal && !program[$0].isSynchronized }
                .map { Access(variable: $0, isWrite: false, span: statement.span) }
        case .timer(_, .schedule(let deadline, let repeating?)):
            return (deadline.variablesRead + repeating.variablesRead).filter { program[$0].isGlobal && !program[$0].isSynchronized }
                .map { Access(variable: $0, isWrite: false, span: statement.span) }
        case .queueSetting(_, .specific(_, let value)), .stream(_, .yield(let value)), .stream(_, .fail(let value)):
            return reads([value])
        case .suspend(.sleep(let delay)), .timer(_, .schedule(let delay, nil)):
            return delay.variablesRead.filter { program[$0].isGlobal && !program[$0].isSynchronized }
                .map { Access(variable: $0, isWrite: false, span: statement.span) }
        case .throwing(.value(let error)):
            return reads([error])
        case .taskLocal(.bind(_, let value)):
            return reads([value])
        case .taskLocal(.unbind), .taskLocal(.read):
            // The running task's own bindings: nobody else's variable.
            return []
        case .throwing(.pending), .throwing(.sleepCancelled), .handles:
            return []
        case .dispatch, .group, .semaphore, .activate, .queueSetting(_, .target), .precondition, .workItem,
            .concurrentPerform, .operation, .operationQueue, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .continuation,
            .stream(_, .start), .stream(_, .finish), .timer(_, .setEventHandler), .timer(_, .setCancelHandler), .timer(_, .activate),
            .timer(_, .cancel):
            // Library calls: their own synchronization, no variable of the snippet read.
            return []
        }
    }
}
