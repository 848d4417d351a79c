/// The model's rules for a thread's own control flow: printing, loops, branches, function calls.
extension Semantics {
    func printStep(_ items: [Expression], at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        // The second step of a print that read a racing variable: the line it read comes out.
        if case .string(let read)? = site.thread.pendingWrite {
            state.threads[site.index].pendingWrite = nil
            return .moves(.printed(read), advancesPC: true)
        }
        let text = try printText(items, for: site.thread, in: state)
        if let racing = racyPrintRead(items) {
            state.threads[site.index].pendingWrite = .string(text)
            return .moves(.readsForPrint(variable: racing, text: text), advancesPC: false)
        }
        return .moves(.printed(text), advancesPC: true)
    }

    /// The line print makes of its items, as this thread sees their values now.
    func printText(_ items: [Expression], for thread: ThreadState, in state: MachineState) throws(EvaluationError) -> String {
        // One item, the common case, needs no array of texts to join.
        items.count == 1
            ? try evaluate(items[0], for: thread, in: state).description
            : try items.map { item throws(EvaluationError) in try evaluate(item, for: thread, in: state).description }.joined(separator: " ")
    }

    /// What a print statement prints if the thread runs it now: the line it has read already (a
    /// racing variable's print, `Program.racyPrintVariables`), else its items' values now; nil
    /// for another statement, or values the model cannot tell yet.
    func printedText(of statement: Statement, by thread: ThreadState, in state: MachineState) -> String? {
        guard case .print(let items) = statement.action else { return nil }
        if case .string(let read)? = thread.pendingWrite { return read }
        return try? printText(items, for: thread, in: state)
    }

    /// The first variable these print items read whose read is a step of its own
    /// (`Program.racyPrintVariables`), if any.
    func racyPrintRead(_ items: [Expression]) -> VariableID? {
        guard !program.racyPrintVariables.isEmpty else { return nil }
        for item in items {
            if let variable = item.variablesRead.first(where: program.racyPrintVariables.contains) { return variable }
        }
        return nil
    }

    /// A loop's body runs as a frame, iteration after iteration; an empty body is no step at all
    /// (`swiftc -O` removes the loop). A body to run more often than gcdquiz explores ends the
    /// search with the loop's place (its bounds were not known before running).
    func loopStep(_ loop: Loop, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        state.threads[site.index].frames[site.frameIndex].pc += 1
        if let values = try loop.values(from: evaluate(loop.from, for: site.thread, in: state), to: evaluate(loop.to, for: site.thread, in: state)),
            !program[loop.body].statements.isEmpty {
            let count = Loop.iterations(from: values.lowerBound, to: values.upperBound, inclusive: true) ?? 0
            if count > Loop.maximumIterations {
                return .ends(.beyondLimits(.loop(site.statement.span, iterations: count)))
            }
            var body = Frame(block: loop.body, role: .loop(variable: loop.variable, current: values.lowerBound, last: values.upperBound))
            if let variable = loop.variable { body.locals[variable] = .int(values.lowerBound) }
            state.threads[site.index].frames.append(body)
        }
        return .moves(.loops, advancesPC: false)
    }

    /// `while`'s test: the body runs (and the thread comes back here when it ends) while the
    /// condition holds; then the thread moves past. `repeat`'s entry runs the body once untested
    /// and leaves the thread at the test, the next statement. An iteration that would change
    /// nothing but print comes back to this very state: the loop prints for ever, which no
    /// outcome can list (one that changes nothing at all is a wait: `spinning`).
    func whileStep(_ loop: WhileLoop, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        if loop.entersUntested {
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.threads[site.index].frames.append(Frame(block: loop.body, role: .whileBody))
            return .moves(.loops, advancesPC: false)
        }
        let holds = try evaluate(loop.condition, for: site.thread, in: state) == .bool(true)
        if holds {
            if spinning(site.thread, in: state) == .printing { return .ends(.beyondLimits(.endlessOutput(site.statement.span))) }
            state.threads[site.index].frames.append(Frame(block: loop.body, role: .whileBody))
        } else {
            state.threads[site.index].frames[site.frameIndex].pc += 1
        }
        return .moves(.testsWhile(holds), advancesPC: false)
    }

    func branchStep(_ condition: Expression, _ then: BlockID, _ otherwise: BlockID?, at site: StepSite,
                    in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        state.threads[site.index].frames[site.frameIndex].pc += 1
        let taken = try evaluate(condition, for: site.thread, in: state) == .bool(true)
        if let block = taken ? then : otherwise {
            state.threads[site.index].frames.append(Frame(block: block, role: .branch))
        }
        return .moves(.branches(taken), advancesPC: false)
    }

    func callStep(_ call: FunctionCall, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        state.threads[site.index].frames[site.frameIndex].pc += 1
        var parameters: [VariableID: Value] = [:]
        for argument in call.arguments {
            parameters[argument.parameter] = try evaluate(argument.value, for: site.thread, in: state)
        }
        state.threads[site.index].frames.append(Frame(block: call.body, role: .call, locals: parameters))
        return .moves(.calls(function: call.name), advancesPC: false)
    }

    /// `return` ends every frame up to the body it stands in (a function's, a closure's: loops and
    /// branches inside it end with it), and hands its value to the statement that called it. The
    /// frames are then popped by `unwind`, as when a body runs to its end, releasing what they hold.
    func returnStep(_ value: Expression?, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let result = try value.map { expression throws(EvaluationError) in try evaluate(expression, for: site.thread, in: state) }
        let frames = state.threads[site.index].frames
        guard let boundary = frames.lastIndex(where: \.isBody) else { throw .undefined("a return outside a function or closure") }
        endFrames(from: boundary, of: site.index, in: &state)
        if let result { deliver(result, from: frames[boundary], below: boundary, thread: site.index, in: &state) }
        return .moves(.returns(result), advancesPC: false)
    }

    /// `break` or `continue`: the frames inside the innermost loop end here; `break` ends the loop
    /// too (its last value taken), `continue` lets it go on with the next value.
    func exitLoopStep(_ exit: LoopExit, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let frames = state.threads[site.index].frames
        guard let loop = frames.lastIndex(where: \.isLoop),
            !frames[loop...].contains(where: \.isBody)
        else { throw .undefined("\(exit.rawValue) outside a loop") }
        endFrames(from: loop, of: site.index, goingOn: exit == .continues ? loop : nil, in: &state)
        return .moves(.exitsLoop(exit), advancesPC: false)
    }

    /// Ends the thread's frames from `first` up, each at its end and each loop at its last value
    /// (but the loop at `goingOn`, which `continue` lets take its next one); `unwind` pops them.
    /// A `while` body ended by `break` (the first frame) moves its caller past the loop's test.
    private func endFrames(from first: Int, of t: Int, goingOn: Int? = nil, in state: inout MachineState) {
        for index in first..<state.threads[t].frames.count {
            let frame = state.threads[t].frames[index]
            state.threads[t].frames[index].pc = program[frame.block].statements.count
            if index != goingOn, case .loop(let variable, _, let last) = frame.role {
                state.threads[t].frames[index].role = .loop(variable: variable, current: last, last: last)
            }
            if index == first, index != goingOn, index > 0, case .whileBody = frame.role {
                state.threads[t].frames[index - 1].pc += 1
            }
        }
    }

    /// A returned value goes to the variable the caller reads it from: the statement before the
    /// caller's next one is the call (or the `sync`) that started the body.
    private func deliver(_ value: Value, from body: Frame, below boundary: Int, thread t: Int, in state: inout MachineState) {
        var caller = (thread: t, frame: boundary - 1)
        switch body.role {
        case .syncBody(_, let waiter?, _):
            guard let w = state.threadIndex(waiter) else { return }
            caller = (w, state.threads[w].frames.count - 1)
        case .syncBody, .call, .inlineBody:
            break
        case .task(let task):
            state.tasks[task].result = value
            return
        case .item, .topLevel, .branch, .loop, .whileBody:
            return
        }
        guard body.task == nil, caller.frame >= 0 else { return }
        let frame = state.threads[caller.thread].frames[caller.frame]
        guard frame.pc > 0 else { return }
        let target: VariableID? = switch program[frame.block].statements[frame.pc - 1].action {
        case .call(let call): call.result
        case .dispatch(_, .sync, _, let options): options.result
        case .withTaskGroup(let run): run.result
        default: nil
        }
        if let target { state.threads[caller.thread].frames[caller.frame].locals[target] = value }
    }
}
