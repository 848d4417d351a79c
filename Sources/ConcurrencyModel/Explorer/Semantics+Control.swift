/// The model's rules for a thread's own control flow: printing, loops, branches, function calls.
extension Semantics {
    func printStep(_ items: [Expression], at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let text = try items.map { item throws(EvaluationError) in try evaluate(item, for: site.thread, in: state).description }.joined(separator: " ")
        return .moves(.printed(text), advancesPC: true)
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
}
