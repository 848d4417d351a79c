import SwiftSyntax

/// Task-local values (`IR/TaskLocals.swift`): `@TaskLocal static var id = 0` in a type,
/// `Ctx.$id.withValue(v) { … }` (its body runs in place, between a binding and its end) and
/// `Ctx.id` (`Self.id` in the type's static functions), read just before the statement that uses it.
extension Lowering {
    /// Whether a static member is a `@TaskLocal` variable.
    static func isTaskLocal(_ decl: DeclSyntax) -> Bool {
        decl.as(VariableDeclSyntax.self)?.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.sourceText == "TaskLocal" } == true
    }

    /// `@TaskLocal static var id = 0` (or `: Int?`, with or without `= nil`) of `type`: its
    /// default must be a literal (or nil), as the read takes it when nothing is bound.
    mutating func declareTaskLocal(_ decl: DeclSyntax, of type: String) {
        guard let variable = decl.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, binding.accessorBlock == nil
        else {
            report("a task-local is written '@TaskLocal static var name = value'", Syntax(decl))
            return
        }
        let annotated = binding.typeAnnotation.flatMap { staticType($0.type) }
        if binding.typeAnnotation != nil && annotated == nil { return }
        let initial: Value
        let valueType: StaticType
        if let value = binding.initializer?.value {
            guard case .literal(let literal)? = lowerExpression(value) else {
                report("a task-local's default value is a literal in the supported subset", Syntax(value))
                return
            }
            initial = literal
            guard let type = annotated ?? Self.literalType(literal) else {
                report("'\(name)' needs a type", Syntax(binding))
                return
            }
            valueType = type
        } else if case .optional? = annotated {
            initial = .nilValue
            valueType = annotated!
        } else {
            report("'\(name)' needs a default value", Syntax(binding))
            return
        }
        cooperativeQueue()
        taskLocalIDs["\(type).\(name)"] = (TaskLocalID(index: taskLocals.count), valueType)
        taskLocals.append(TaskLocalDecl(name: "\(type).\(name)", initial: initial, span: span(of: Syntax(variable))))
    }

    private static func literalType(_ value: Value) -> StaticType? {
        switch value {
        case .int: .int
        case .string: .string
        case .bool: .bool
        case .double: .double
        case .enumCase(let value): .enumeration(value.type)
        case .list, .error, .nilValue, .continuation: nil
        }
    }

    /// The task-local `base.name` names (`Ctx.id`, `Self.id` in the type, `Ctx.$id` with the `$`).
    private func taskLocal(base: ExprSyntax?, name: String, at node: Syntax) -> (id: TaskLocalID, type: StaticType)? {
        guard let base else { return nil }
        let typeName: String
        if base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.Self) || base.sourceText == "Self" {
            guard let group = Self.enclosingType(of: node), let named = Self.typeName(of: group) else { return nil }
            typeName = named
        } else if let reference = base.as(DeclReferenceExprSyntax.self) {
            typeName = reference.baseName.text
        } else {
            return nil
        }
        return taskLocalIDs["\(typeName).\(name)"]
    }

    private static func typeName(of group: some DeclGroupSyntax) -> String? {
        if let type = group.as(ClassDeclSyntax.self) { return type.name.text }
        if let type = group.as(StructDeclSyntax.self) { return type.name.text }
        if let type = group.as(EnumDeclSyntax.self) { return type.name.text }
        return nil
    }

    /// `Ctx.id`: a read hoisted before the statement; nil when `member` is no task-local.
    mutating func lowerTaskLocalRead(_ member: MemberAccessExprSyntax) -> Expression? {
        guard let (id, type) = taskLocal(base: member.base, name: member.declName.baseName.text, at: Syntax(member)) else { return nil }
        let span = self.span(of: Syntax(member))
        let read = newVariable(taskLocals[id.index].name, isGlobal: false, span: span, type: type)
        hoisted.append(Statement(.taskLocal(.read(id, into: read)), at: span))
        return .variable(read)
    }

    /// `Ctx.$id.withValue(v) { … }`, under `await` or not: the binding, the body in place, the
    /// binding's end. Nil when `expr` is no such call.
    mutating func lowerWithValue(_ expr: ExprSyntax) -> [Statement]? {
        let unwrapped = expr.as(AwaitExprSyntax.self)?.expression ?? expr
        guard let call = unwrapped.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "withValue", let projected = member.base?.as(MemberAccessExprSyntax.self),
            projected.declName.baseName.text.hasPrefix("$")
        else { return nil }
        guard let (id, type) = taskLocal(base: projected.base, name: String(projected.declName.baseName.text.dropFirst()), at: Syntax(projected)) else {
            return nil
        }
        let closure: ClosureExprSyntax?
        var arguments = Array(call.arguments)
        if let trailing = call.trailingClosure {
            closure = trailing
        } else if arguments.count == 2, arguments[1].label?.text == "operation" {
            closure = arguments[1].expression.as(ClosureExprSyntax.self)
            arguments.removeLast()
        } else {
            closure = nil
        }
        guard let closure, arguments.count == 1, arguments[0].label == nil, call.additionalTrailingClosures.isEmpty, closure.signature == nil else {
            report("withValue is written '\(taskLocals[id.index].name.split(separator: ".").first!).$…withValue(value) { … }'", Syntax(call))
            return []
        }
        if let exit = Self.firstEscape(in: Syntax(closure.statements)) {
            report("'\(exit.sourceText.split(separator: " ").first!)' in a withValue body is outside the supported subset", exit)
            return []
        }
        guard let value = lowerExpression(arguments[0].expression) else { return [] }
        if case .optional = type {} else if case .literal(.nilValue) = value {
            report("'nil' is not compatible with '\(type)'", Syntax(arguments[0]))
            return []
        }
        let span = self.span(of: Syntax(call))
        // An awaited withValue's body runs where the call is, in the calling task (Swift 6:
        // `isolation: #isolation`); a synchronous one is a plain closure called in place.
        let body: BlockID
        if expr.is(AwaitExprSyntax.self) {
            closureContexts[closure.id] = context(of: Syntax(call))
            let outer = asyncContext
            asyncContext = nil
            body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
            asyncContext = outer
        } else {
            // A synchronous body keeps the caller's isolation (a non-Sendable closure called in
            // place): a `Task { }` made in it on the main actor is a main-actor task (swiftc 6.3,
            // 2,000 runs: `body after "task 1"` only, the task asserting main-actor isolation).
            let outerContext = closureContexts[closure.id]
            closureContexts[closure.id] = (context(of: Syntax(call)).isolation, false)
            body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
            closureContexts[closure.id] = outerContext
        }
        return [Statement(.taskLocal(.bind(id, value)), at: span),
                Statement(.branch(condition: .literal(.bool(true)), then: body, otherwise: nil), at: span),
                Statement(.taskLocal(.unbind(id)), at: self.span(of: Syntax(closure.rightBrace)))]
    }

    /// A `return`, or a `try` that may throw out, in a withValue body (or a cancellation handler's operation) (not in a closure inside
    /// it): it would leave the body without ending the binding, which the model does not follow.
    static func firstEscape(in node: Syntax) -> Syntax? {
        if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return nil }
        if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self) { return node }
        if let attempt = node.as(TryExprSyntax.self), attempt.questionOrExclamationMark == nil { return node }
        // A `do` whose catch-all clause takes every error: only its clauses can throw out.
        if let handled = node.as(DoStmtSyntax.self), handled.catchClauses.contains(where: { $0.catchItems.isEmpty }) {
            return handled.catchClauses.lazy.compactMap { firstEscape(in: Syntax($0)) }.first
        }
        for child in node.children(viewMode: .sourceAccurate) {
            if let found = firstEscape(in: child) { return found }
        }
        return nil
    }
}
