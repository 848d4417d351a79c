import SwiftSyntax

/// Target queues and queue-specific values: `DispatchQueue(label:…, target: t)`,
/// `q.setTarget(queue: t)`, `DispatchSpecificKey<Int>()`, `q.setSpecific(key:value:)` and
/// `DispatchQueue.getSpecific(key:)` in the forms that give a value (Semantics+TargetQueues).
extension Lowering {
    /// The queue a `target:` names: a custom serial queue, the main queue or a global queue. A
    /// custom concurrent target (libdispatch's redirecting mode: a width shared by its subtree)
    /// is outside the subset.
    mutating func lowerTarget(_ expr: ExprSyntax) -> QueueID? {
        guard let target = resolveQueue(expr) else { return nil }
        switch queues[target.index].kind {
        case .serial, .main, .global:
            return target
        case .concurrent:
            report("a custom concurrent queue as a target is outside the supported subset: target a serial queue, .main or a global queue", Syntax(expr))
            return nil
        case .cooperative, .actor:
            report("'\(expr.sourceText)' cannot be a target queue", Syntax(expr))
            return nil
        }
    }

    /// `q.setTarget(queue: t)`. On a queue made `.initiallyInactive` it must stand at the top
    /// level, once, before anything activates the queue: the target then is the queue's from the
    /// start (nothing of it runs before), and the model keeps one target per queue. On an active
    /// queue the statement is kept as it is: libdispatch traps there.
    mutating func lowerSetTarget(_ queue: QueueID, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "queue" else {
            report("write q.setTarget(queue: target)", Syntax(call))
            return nil
        }
        guard let target = lowerTarget(argument.expression) else { return nil }
        let decl = queues[queue.index]
        guard decl.kind == .serial || decl.kind == .concurrent, decl.span != nil else {
            report("setTarget(queue:) on '\(decl.name)' is outside the supported subset: set the target of a queue the snippet makes", Syntax(call))
            return nil
        }
        if decl.initiallyInactive {
            guard isTopLevel, scopes.count == 1 else {
                report("call setTarget(queue:) on an inactive queue at the top level of the snippet, before activate()", Syntax(call))
                return nil
            }
            guard !activated.contains(queue) else {
                report("setTarget(queue:) after '\(decl.name).activate()': libdispatch traps on an active queue; set the target before activating it", Syntax(call))
                return nil
            }
            guard decl.target == nil else {
                report("'\(decl.name)' has a target already: the supported subset sets it once", Syntax(call))
                return nil
            }
            guard !program(queue, isTargetOf: target) else {
                report("'\(queues[target.index].name)' targets '\(decl.name)': a target cycle", Syntax(argument.expression))
                return nil
            }
            queues[queue.index].target = target
        }
        return Statement(.queueSetting(queue, .target(target)), at: span)
    }

    /// Whether `queue` is `target` or one of the queues `target` drains through.
    private func program(_ queue: QueueID, isTargetOf target: QueueID) -> Bool {
        var next: QueueID? = target
        var seen = 0
        while let current = next, seen < queues.count {
            if current == queue { return true }
            next = queues[current.index].target
            seen += 1
        }
        return false
    }

    /// `let key = DispatchSpecificKey<Int>()` (or `<String>`): a hidden variable that stands for
    /// the key; reading it is `getSpecific`.
    mutating func declareSpecificKey(_ name: String, _ call: FunctionCallExprSyntax, span: SourceSpan) -> [Statement] {
        guard mayDeclareObjects, isTopLevel else {
            report("declare a DispatchSpecificKey at the top level of the snippet", Syntax(call))
            return []
        }
        guard call.arguments.isEmpty, call.trailingClosure == nil,
            let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
            generic.genericArgumentClause.arguments.count == 1, let argument = generic.genericArgumentClause.arguments.first
        else {
            report("write DispatchSpecificKey<Int>() or DispatchSpecificKey<String>()", Syntax(call))
            return []
        }
        let typeName = argument.argument.sourceText
        let type: StaticType
        switch typeName {
        case "Int": type = .int
        case "String": type = .string
        default:
            report("a DispatchSpecificKey<\(typeName)> is outside the supported subset: use Int or String values", Syntax(argument))
            return []
        }
        let id = newVariable(name, isGlobal: true, span: span, type: type, constant: true, synchronized: true, reflects: .specificKey)
        bind(name, .variable(id))
        return []
    }

    /// Whether `call` makes a `DispatchSpecificKey`.
    func isSpecificKeyCreation(_ call: FunctionCallExprSyntax) -> Bool {
        call.calledExpression.as(GenericSpecializationExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchSpecificKey"
            || call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchSpecificKey"
    }

    /// `q.setSpecific(key: k, value: v)` on a queue the snippet makes or on the main queue.
    mutating func lowerSetSpecific(_ queue: QueueID, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        let arguments = Array(call.arguments)
        guard arguments.count == 2, arguments[0].label?.text == "key", arguments[1].label?.text == "value" else {
            report("write q.setSpecific(key: key, value: v)", Syntax(call))
            return nil
        }
        guard let key = specificKey(arguments[0].expression) else { return nil }
        guard queues[queue.index].kind != .global else {
            report("setSpecific on a global queue is outside the supported subset (libdispatch keeps no values on its root queues)", Syntax(call))
            return nil
        }
        guard let value = lowerExpression(arguments[1].expression) else { return nil }
        guard let keyType = variableTypes[key], expect(keyType, value, at: Syntax(arguments[1].expression), {
            "cannot convert value of type '\($0)' to expected argument type '\(keyType)'"
        }) else { return nil }
        return Statement(.queueSetting(queue, .specific(key: key, value: value)), at: span)
    }

    /// The hidden variable of the key an expression names.
    private mutating func specificKey(_ expr: ExprSyntax) -> VariableID? {
        if let reference = expr.as(DeclReferenceExprSyntax.self), case .variable(let id)? = lookup(reference.baseName.text),
            variables[id.index].reflects == .specificKey {
            return id
        }
        report("'\(expr.sourceText)' is not a DispatchSpecificKey the snippet declares", Syntax(expr))
        return nil
    }

    /// `DispatchQueue.getSpecific(key: k)`: the key's hidden variable, or nil when `expr` is
    /// not that call.
    mutating func getSpecificCall(_ expr: ExprSyntax) -> VariableID?? {
        guard let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "getSpecific", let base = member.base, isDispatchQueueType(base)
        else { return nil }
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "key" else {
            report("write DispatchQueue.getSpecific(key: key)", Syntax(call))
            return .some(nil)
        }
        return .some(specificKey(argument.expression))
    }

    /// The forms of `getSpecific` that make a value: `?? fallback`, `== nil`, `!= nil`, `== v`,
    /// `!= v`. Nil when `infix` is none of them (nothing reported); `.some(nil)` when it is one
    /// and failed (reported).
    mutating func lowerSpecificUse(_ infix: InfixOperatorExprSyntax) -> Expression?? {
        guard let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, ["??", "==", "!="].contains(op) else { return nil }
        var readSide = infix.leftOperand, otherSide = infix.rightOperand
        if getSpecificCall(readSide) == nil, op != "??" {
            swap(&readSide, &otherSide)
        }
        guard let found = getSpecificCall(readSide) else { return nil }
        guard let key = found else { return .some(nil) }
        if otherSide.is(NilLiteralExprSyntax.self) {
            guard op != "??" else {
                report("'?? nil' leaves the value optional: give a fallback value", Syntax(otherSide))
                return .some(nil)
            }
            return .some(.specific(key, .isNil(op == "==")))
        }
        guard let other = lowerExpression(otherSide) else { return .some(nil) }
        guard let keyType = variableTypes[key], expect(keyType, other, at: Syntax(otherSide), {
            "cannot convert value of type '\($0)' to expected argument type '\(keyType)'"
        }) else { return .some(nil) }
        switch op {
        case "??": return .some(.specific(key, .orElse(other)))
        default: return .some(.specific(key, .equals(other, negated: op == "!=")))
        }
    }
}
