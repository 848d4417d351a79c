/// The search shortcut: partial-order reduction (see `moves(in:)`).
extension Semantics {
    /// The thread's next step reads and writes nothing another thread can see, and cannot trap
    /// (a trap ends every thread's run, so it does not commute with their steps).
    func isLocal(_ thread: ThreadState, in state: MachineState) -> Bool {
        if thread.switching { return false }
        guard let statement = nextStatement(of: thread) else { return false }
        func local(_ expression: Expression) -> Bool {
            !expression.variablesRead.contains { program[$0].isGlobal }
                && (try? evaluate(expression, for: thread, in: state)) != nil
        }
        /// A delay that reads no shared variable and does not trap.
        func local(_ delay: Delay) -> Bool {
            !delay.variablesRead.contains { program[$0].isGlobal } && (try? microseconds(delay, for: thread, in: state)) != nil
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
        case .call(let call): return call.arguments.allSatisfy { local($0.value) }
        case .returns(let value): return value.map(local) ?? true
        case .sleep(let delay): return thread.sleepUntil == nil && local(delay)
        case .timedWait(_, let delay, _): return thread.waitDeadline == nil && local(delay)
        case .print, .dispatch, .group, .semaphore, .dispatchAfter, .activate, .precondition, .workItem,
            .concurrentPerform, .operation, .operationQueue, .spawn, .suspend, .hop:
            return false
        }
    }
}
