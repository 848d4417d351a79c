import SwiftSyntax

/// Continuations: `await withCheckedContinuation { cont in … }` (and the throwing one), resumed
/// with `cont.resume(returning:)`, `cont.resume()` or (the throwing one) `cont.resume(throwing:)` from wherever the body hands `cont` (a
/// queue's block, a timer). The body runs at once in the calling task; the task then waits.
extension Lowering {
    static let continuationFunctions: Set<String> = ["withCheckedContinuation", "withCheckedThrowingContinuation"]

    mutating func lowerContinuation(_ call: FunctionCallExprSyntax, named name: String, keepsValue: Bool)
        -> (statements: [Statement], value: VariableID?)?
    {
        let usage = "write \(name) { cont in … }"
        // `-> Void` (or `-> ()`) on the closure says what it returns anyway.
        guard call.arguments.isEmpty, let closure = call.trailingClosure, let signature = closure.signature,
            signature.returnClause.map({ ["Void", "()"].contains($0.type.sourceText) }) ?? true, let clause = signature.parameterClause
        else {
            report(usage, Syntax(call))
            return nil
        }
        let contName: String
        var annotated = false
        switch clause {
        case .simpleInput(let names) where names.count == 1:
            contName = names.first!.name.text
        case .parameterClause(let list) where list.parameters.count == 1:
            contName = list.parameters.first!.firstName.text
            annotated = list.parameters.first!.type != nil
        default:
            report("\(usage): the body takes the continuation", Syntax(clause))
            return nil
        }
        let span = self.span(of: Syntax(call))
        let throwing = name == "withCheckedThrowingContinuation"
        if throwing {
            guard Self.isMarkedTry(call) else {
                report("call can throw but is not marked with 'try'", Syntax(call))
                return nil
            }
            guard checkHandled(Syntax(call)) else { return nil }
        }
        continuations.append(ContinuationDecl(name: contName, span: span))
        let id = ContinuationID(index: continuations.count - 1)
        if throwing { throwingContinuations.insert(id.index) }
        closureContexts[closure.id] = (context(of: Syntax(call)).isolation, false)
        let outer = asyncContext
        asyncContext = nil
        let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure))) { lowering in
            lowering.bind(contName, .continuation(id))
        }
        asyncContext = outer
        if !annotated && continuationTypes[id] == nil && !resumedWithoutValue.contains(id) {
            report("generic parameter 'T' could not be inferred: resume it with a value, or write { (\(contName): CheckedContinuation<Void, Never>) in … }",
                   Syntax(call.calledExpression))
            return nil
        }
        var result: VariableID?
        if keepsValue {
            guard let type = continuationTypes[id] else {
                report("the continuation is resumed with no value here: resume(returning: v) gives one", Syntax(call))
                return nil
            }
            result = newVariable("the value of \(name)", isGlobal: false, span: span, type: type)
        }
        return ([Statement(.continuation(id, .start(body: body)), at: span), Statement(.suspend(.continuation(id, result: result)), at: span)],
                result)
    }

    /// A continuation named where a value goes (`self.continuation = cont`): kept for a later
    /// `resume()`, so it is a `CheckedContinuation<Void, Never>` (its T is Void).
    mutating func keptContinuation(_ id: ContinuationID, at node: Syntax) -> Expression? {
        guard !throwingContinuations.contains(id.index), continuationTypes[id] == nil else {
            report("a continuation kept in a variable is a CheckedContinuation<Void, Never> here (withCheckedContinuation, resumed with resume())", node)
            return nil
        }
        resumedWithoutValue.insert(id)
        lastKeptContinuation = id
        return .literal(.continuation(id.index))
    }

    /// `continuation?.resume()` (or `self.continuation?.resume()`, or `c.resume()` of a
    /// non-optional one) of a continuation kept in a variable; nil when `call` is not one.
    mutating func lowerHeldResume(_ call: FunctionCallExprSyntax) -> Statement?? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        let chained = base.as(OptionalChainingExprSyntax.self)
        let held = chained?.expression ?? base
        guard held.is(DeclReferenceExprSyntax.self) || held.is(MemberAccessExprSyntax.self),
            case .variable(let variable)? = binding(of: held),
            let type = variableTypes[variable], type == .continuation || type == .optional(.continuation)
        else { return nil }
        guard member.declName.baseName.text == "resume", call.arguments.isEmpty, call.trailingClosure == nil else {
            report("a continuation kept here is resumed with \(held.sourceText)\(chained == nil ? "" : "?").resume()", Syntax(call))
            return .some(nil)
        }
        if type.isOptional && chained == nil {
            report("value of optional type 'CheckedContinuation<(), Never>?' must be unwrapped to refer to member 'resume' of wrapped base type 'CheckedContinuation<(), Never>'", Syntax(base))
            return .some(nil)
        }
        if !type.isOptional && chained != nil {
            report("cannot use optional chaining on non-optional value of type 'CheckedContinuation<(), Never>'", Syntax(base))
            return .some(nil)
        }
        guard let named = lastKeptContinuation ?? continuations.indices.last.map({ ContinuationID(index: $0) }) else {
            report("no withCheckedContinuation comes before this resume: keep the continuation first", Syntax(call))
            return .some(nil)
        }
        return Statement(.continuation(named, .resumeHeld(.variable(variable))), at: span(of: Syntax(call)))
    }

    /// `cont.resume(returning: v)`, `cont.resume()`; nil when `call` is not on a continuation.
    mutating func lowerResume(_ call: FunctionCallExprSyntax) -> Statement?? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            let base = member.base?.as(DeclReferenceExprSyntax.self), case .continuation(let id)? = lookup(base.baseName.text)
        else { return nil }
        let span = self.span(of: Syntax(call))
        guard member.declName.baseName.text == "resume", call.trailingClosure == nil else {
            report("a continuation here is resumed: \(base.baseName.text).resume(returning: v) or \(base.baseName.text).resume()", Syntax(call))
            return .some(nil)
        }
        if call.arguments.isEmpty {
            resumedWithoutValue.insert(id)
            return Statement(.continuation(id, .resume(nil)), at: span)
        }
        // `cont.resume(throwing: e)` of a throwing continuation: the error is its value, which
        // the awaiting task throws.
        if call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "throwing" {
            guard throwingContinuations.contains(id.index) else {
                report("resume(throwing:) needs withCheckedThrowingContinuation", Syntax(call))
                return .some(nil)
            }
            guard let error = lowerExpression(argument.expression) else { return .some(nil) }
            guard type(of: error) == .error else {
                report("argument type '\(type(of: error).map { "\($0)" } ?? "?")' does not conform to expected type 'Error'", Syntax(argument.expression))
                return .some(nil)
            }
            return Statement(.continuation(id, .resume(error)), at: span)
        }
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "returning" else {
            report("resume(returning: v), resume(throwing: e) or resume() here", Syntax(call))
            return .some(nil)
        }
        guard let value = lowerExpression(argument.expression), let type = type(of: value) else { return .some(nil) }
        if let known = continuationTypes[id], !type.fits(known) {
            report("cannot convert value of type '\(type)' to expected argument type '\(known)'", Syntax(argument.expression))
            return .some(nil)
        }
        continuationTypes[id] = continuationTypes[id] ?? type
        return Statement(.continuation(id, .resume(value)), at: span)
    }
}
