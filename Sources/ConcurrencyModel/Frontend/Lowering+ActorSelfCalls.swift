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
    /// nil: not an actor's property; `.some(nil)`: one read without `await` (reported).
    mutating func lowerActorPropertyRead(_ expr: ExprSyntax) -> Expression?? {
        guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            base.baseName.text != "self", case .actor(let instance)? = lookup(base.baseName.text),
            let property = instance.properties[member.declName.baseName.text]
        else { return nil }
        if constants.contains(property) { return .variable(property) }
        guard awaitingExpression else {
            reportActorAccess(.read, member)
            return .some(nil)
        }
        guard let type = variableTypes[property] else { return nil }
        let span = self.span(of: Syntax(expr))
        let here = context(of: Syntax(expr)).isolation
        let read = newVariable("the value of \(member.sourceText)", isGlobal: false, span: span, type: type)
        hoisted += [Statement(.hop(.actor(instance.queue)), at: span),
                    Statement(.assign(Assignment(target: read, operation: .set, value: .variable(property))), at: span),
                    Statement(.hop(here), at: span)]
        return .variable(read)
    }

    enum ActorAccess {
        case read, write, call
    }

    /// An actor's property or method used from outside it without `await` (or written at all):
    /// swiftc's error, worded as swiftc words it from where the code runs (measured with swiftc
    /// 6.3 from top-level code, a `Task`, a detached task and a nonisolated function).
    mutating func reportActorAccess(_ access: ActorAccess, _ member: MemberAccessExprSyntax) {
        let name = member.declName.baseName.text
        let (isolation, isAsync) = context(of: Syntax(member))
        // Top-level code that awaits nothing is synchronous.
        let async = isAsync && (Self.nearestClosureOrFunction(of: Syntax(member)) != nil || topLevelAwaits)
        let from = isolation == .mainActor ? "the main actor" : "a nonisolated context"
        let message: String
        switch access {
        case .read where async: message = "actor-isolated property '\(name)' cannot be accessed from outside of the actor"
        case .read: message = "actor-isolated property '\(name)' can not be referenced from \(from)"
        case .write: message = "actor-isolated property '\(name)' can not be mutated from \(from)"
        case .call where async: message = "actor-isolated instance method '\(name)()' cannot be called from outside of the actor"
        case .call:
            message = "call to actor-isolated instance method '\(name)()' in a synchronous \(isolation == .mainActor ? "main actor-isolated" : "nonisolated") context"
        }
        report(message, Syntax(member.declName))
    }

    /// `c.n` or `c.bump()` of an actor instance the snippet made (not `self`).
    func actorMember(_ expr: ExprSyntax) -> MemberAccessExprSyntax? {
        guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            base.baseName.text != "self", case .actor? = lookup(base.baseName.text)
        else { return nil }
        return member
    }
}
