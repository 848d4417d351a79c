import SwiftSyntax

/// An actor's method calling another method of the same instance: `g()`, `self.g()`,
/// `await self.g()`, `let v = await h()`. The callee is lowered for the instance on its first
/// call (as a call from outside lowers it); an isolated callee runs on the executor the caller
/// already holds (a hop there stays), a nonisolated async one leaves for the global executor.
/// Without `await` the callee must be synchronous, and the caller isolated to the instance, as
/// swiftc checks: "expression is 'async' but is not marked with 'await'", "call to
/// actor-isolated instance method 'g()' in a synchronous nonisolated context".
extension Lowering {
    /// The method of the actor whose body is being lowered that `callee` names (`g`, `self.g`),
    /// nil if it names something else (a top-level function, a local).
    mutating func ownActorMethod(_ callee: ExprSyntax) -> FunctionDecl? {
        guard let instance = currentActor else { return nil }
        let name: String
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            // A top-level function of that name is shadowed by the method, as in Swift; a
            // parameter or local is not a method call at all.
            if case .variable? = lookup(reference.baseName.text) { return nil }
            name = reference.baseName.text
        } else if let member = callee.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self",
            case .actor(let bound)? = lookup("self"), bound.queue == instance.queue
        {
            name = member.declName.baseName.text
        } else {
            return nil
        }
        guard let declaration = actorMethodSyntax(instance, name) else { return nil }
        return actorMethod(instance, name, at: Syntax(declaration.name))
    }

    /// Whether `callee` names a method of the actor whose body is being lowered (`g`, `self.g`),
    /// as `ownActorMethod` finds it, without lowering it.
    func namesOwnActorMethod(_ callee: ExprSyntax) -> Bool {
        guard let instance = currentActor else { return false }
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            if case .variable? = lookup(reference.baseName.text) { return false }
            return actorMethodSyntax(instance, reference.baseName.text) != nil
        }
        guard let member = callee.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self",
            case .actor(let bound)? = lookup("self"), bound.queue == instance.queue
        else { return false }
        return actorMethodSyntax(instance, member.declName.baseName.text) != nil
    }

    /// A synchronous call of the instance's own method, from code isolated to the instance.
    mutating func lowerOwnActorCall(_ function: FunctionDecl, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        guard let instance = currentActor, let name = function.name.split(separator: ".").last.map(String.init) else { return nil }
        if actorMethodSyntax(instance, name)?.signature.effectSpecifiers?.asyncSpecifier != nil {
            report("expression is 'async' but is not marked with 'await'", Syntax(call))
            return nil
        }
        if function.isolation != nil, context(of: Syntax(call)).isolation != .actor(instance.queue) {
            let at = call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call)
            report("call to actor-isolated instance method '\(name)()' in a synchronous nonisolated context", at)
            return nil
        }
        return lowerFunctionCall(function, call, span: span)
    }

    /// `self.count` in the instance's own method: its stored property, where the method sees it
    /// (a nonisolated method sees only the `let`s, as swiftc allows).
    func ownActorProperty(_ expr: ExprSyntax) -> VariableID? {
        guard let instance = currentActor, let member = expr.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self", case .actor(let bound)? = lookup("self"),
            bound.queue == instance.queue, scopes.count > 1, case .variable(let id)? = scopes[1][member.declName.baseName.text]
        else { return nil }
        return id
    }

    /// The declaration of the instance's method `name`, if its actor has one.
    func actorMethodSyntax(_ instance: ActorInstance, _ name: String) -> FunctionDeclSyntax? {
        actorSyntax[instance.typeName]?.memberBlock.members.lazy.compactMap { $0.decl.as(FunctionDeclSyntax.self) }.first { $0.name.text == name }
    }

    /// `await c.n` (also `print(await c.n)`, `await print(c.n)`): a read of another instance's
    /// stored property is an async access, a hop to its executor and back, as a call of a
    /// synchronous method is; a `let` property is read where the code runs, without `await`
    /// (SE-0306: immutable state is nonisolated within the module). Nil for anything else.
    mutating func lowerActorPropertyRead(_ expr: ExprSyntax) -> Expression? {
        guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            base.baseName.text != "self", case .actor(let instance)? = lookup(base.baseName.text),
            let property = instance.properties[member.declName.baseName.text]
        else { return nil }
        if constants.contains(property) { return .variable(property) }
        guard awaitingExpression, let type = variableTypes[property] else { return nil }
        let span = self.span(of: Syntax(expr))
        let here = context(of: Syntax(expr)).isolation
        let read = newVariable("the value of \(member.trimmedDescription)", isGlobal: false, span: span, type: type)
        hoisted += [Statement(.hop(.actor(instance.queue)), at: span),
                    Statement(.assign(Assignment(target: read, operation: .set, value: .variable(property))), at: span),
                    Statement(.hop(here), at: span)]
        return .variable(read)
    }
}
