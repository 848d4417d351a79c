/// The model's rules for Swift errors (The Swift Programming Language, "Error Handling"; swiftc
/// runs pinned in `ErrorTests`): a thrown error leaves frame after frame of its thread until a
/// `do` whose clause matches (or a `try?`, which drops it, or a `try!`, which traps); out of a
/// function, the caller throws it on once back on its executor; out of a task group's body, the
/// children are cancelled and awaited first; out of a task's body, the task ends with it (its
/// value rethrows it, nothing prints it); out of the top-level code, the process dies ("Fatal
/// error: Error raised at top level").
extension Semantics {
    func throwingStep(_ action: ThrowAction, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        switch action {
        case .value(let expression):
            guard case .error(let error) = try evaluate(expression, for: site.thread, in: state) else {
                throw .undefined("a throw of a value that is not an error")
            }
            return try raise(error, thread: site.index, in: &state)
        case .pending:
            guard let error = state.threads[site.index].frames[site.frameIndex].pendingError else { return .moves(.throwsNothing, advancesPC: true) }
            state.threads[site.index].frames[site.frameIndex].pendingError = nil
            state.threads[site.index].frames[site.frameIndex].pc += 1
            return try raise(error, thread: site.index, in: &state)
        case .sleepCancelled:
            guard let task = site.thread.task, state.tasks[task].sleepCancelled else { return .moves(.throwsNothing, advancesPC: true) }
            state.tasks[task].sleepCancelled = false
            state.threads[site.index].frames[site.frameIndex].pc += 1
            return try raise(.cancellation, thread: site.index, in: &state)
        }
    }

    /// A frame holding a callee's error runs only the hop back (or a group's wait) before the
    /// `pending` that throws it on; anything else means the lowering lost the error.
    func checkPendingErrorKept(_ statement: Statement) throws(EvaluationError) {
        switch statement.action {
        case .hop, .suspend(.groupWaitAll), .throwing(.pending): return
        default: throw .undefined("an error a callee raised has no place to be thrown on")
        }
    }

    /// `do {`, `try? f()`, `try! f()`: the body runs as a frame (the statement is behind it, so a
    /// thrown error finds its clauses there).
    func handlerStep(_ handler: ErrorHandler, at site: StepSite, in state: inout MachineState) -> StepEffect {
        state.threads[site.index].frames[site.frameIndex].pc += 1
        state.threads[site.index].frames.append(Frame(block: handler.body, role: .branch))
        return .moves(.entersDo(handler.kind), advancesPC: false)
    }

    /// Throws `error` on the thread at `index` (its pc past the throwing statement, or not: the
    /// frames it leaves are dropped or ended).
    func raise(_ error: ThrownError, thread index: Int, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let frames = state.threads[index].frames
        var k = frames.count - 1
        while k >= 0 {
            let frame = frames[k]
            if k > 0, case .branch = frame.role, let handler = handler(around: frame, in: frames[k - 1]) {
                switch handler.kind {
                case .catches, .endsAsyncLet:
                    if let clause = handler.clauses.first(where: { $0.pattern.matches(error) }) {
                        state.threads[index].frames.removeSubrange(k...)
                        var body = Frame(block: clause.body, role: .branch)
                        if let binding = clause.binding { body.locals[binding] = .error(error) }
                        state.threads[index].frames.append(body)
                        return .moves(.throwsError(error, handler.kind == .endsAsyncLet ? .leavesAsyncLetScope : .caught), advancesPC: false)
                    }
                case .optional:
                    state.threads[index].frames.removeSubrange(k...)
                    return .moves(.throwsError(error, .dropped), advancesPC: false)
                case .forced:
                    throw .runtime(.forcedTryThrew(error.written))
                }
            }
            switch frame.role {
            case .branch, .loop, .whileBody:
                k -= 1
            case .call:
                guard k > 0 else { throw .undefined("a function's frame without its caller") }
                state.threads[index].frames.removeSubrange(k...)
                state.threads[index].frames[k - 1].pendingError = error
                return .moves(.throwsError(error, .leavesFunction), advancesPC: false)
            case .inlineBody:
                // A task group's body: its children are cancelled, the caller's next statements
                // wait for them all (`groupWaitAll`) and then throw the error on (`pending`).
                guard k > 0, let group = groupRun(behind: frames[k - 1]) else { throw .undefined("an error out of a closure run in place") }
                state.threads[index].frames.removeSubrange(k...)
                state.threads[index].frames[k - 1].pendingError = error
                state.taskGroups[group.index].cancelled = true
                for child in state.taskGroups[group.index].running { _ = cancelTask(child, by: index, in: &state) }
                return .moves(.throwsError(error, .leavesTaskGroup), advancesPC: false)
            case .task(let task):
                // The task's body is over: every frame of it ends.
                for f in k..<frames.count {
                    state.threads[index].frames[f].pc = program[frames[f].block].statements.count
                    if case .loop(let variable, _, let last) = frames[f].role {
                        state.threads[index].frames[f].role = .loop(variable: variable, current: last, last: last)
                    }
                }
                state.tasks[task].result = .error(error)
                return .moves(.throwsError(error, .endsTask(task: task)), advancesPC: false)
            case .topLevel:
                throw .runtime(.errorAtTopLevel(error.written))
            case .item, .syncBody:
                throw .undefined("an error thrown out of a dispatched block")
            }
        }
        throw .undefined("an error thrown with no frame to leave")
    }

    /// The handler whose body `frame` runs: the statement `caller` ran last, when it is a
    /// `do`/`try?`/`try!` with that body.
    private func handler(around frame: Frame, in caller: Frame) -> ErrorHandler? {
        guard caller.pc > 0, case .handles(let handler) = program[caller.block].statements[caller.pc - 1].action, handler.body == frame.block
        else { return nil }
        return handler
    }

    /// The group whose body the frame above `caller` runs.
    private func groupRun(behind caller: Frame) -> TaskGroupID? {
        guard caller.pc > 0, case .withTaskGroup(let run) = program[caller.block].statements[caller.pc - 1].action else { return nil }
        return run.group
    }
}
