/// What a step reads and writes, for data race detection.
extension Semantics {
    struct Access: Hashable {
        var variable: VariableID
        var isWrite: Bool
        var span: SourceSpan
    }

    /// The shared variables the thread's next step reads or writes.
    func nextAccesses(of thread: ThreadState) -> [Access] {
        if thread.switching || thread.returning { return [] }
        guard let statement = nextStatement(of: thread) else { return [] }
        func reads(_ expressions: [Expression]) -> [Access] {
            expressions.flatMap(\.variablesRead).filter { program[$0].isGlobal && !program[$0].isSynchronized }
                .map { Access(variable: $0, isWrite: false, span: statement.span) }
        }
        switch statement.action {
        case .print(let items): return reads(items)
        case .branch(let condition, _, _): return reads([condition])
        case .loop(let loop): return reads([loop.from, loop.to])
        case .whileLoop(let loop): return loop.entersUntested ? [] : reads([loop.condition])
        case .call(let call): return reads(call.arguments.map(\.value))
        case .returns(let value): return reads(value.map { [$0] } ?? [])
        case .exitLoop: return []
        case .assign(let assignment):
            let target = assignment.target
            if isTwoPhase(assignment) {
                if thread.pendingWrite == nil {
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
            guard thread.sleepUntil == nil && thread.waitDeadline == nil else { return [] }
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
