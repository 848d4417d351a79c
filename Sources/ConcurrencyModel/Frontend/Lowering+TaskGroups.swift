import SwiftSyntax

/// Task groups: `withTaskGroup(of:)` / `withThrowingTaskGroup(of:)`, `group.addTask { }`,
/// `for await v in group`, `if let v = await group.next()`, `while let`, `waitForAll()`,
/// `cancelAll()`. The body runs in place in the calling task; each child is a task started on the
/// global executor at `addTask` (SE-0304; swiftc runs pinned in `SwiftConcurrencyTests`).
extension Lowering {
    static let taskGroupFunctions: Set<String> = ["withTaskGroup", "withThrowingTaskGroup", "withDiscardingTaskGroup", "withThrowingDiscardingTaskGroup"]

    /// `await withTaskGroup(of: Int.self) { group in … }`, as a statement or a value; also
    /// `await withDiscardingTaskGroup { group in … }` (Swift 5.9, SE-0381), whose children give
    /// nothing anyone can take.
    mutating func lowerTaskGroup(_ call: FunctionCallExprSyntax, named name: String, keepsValue: Bool)
        -> (statements: [Statement], value: VariableID?)?
    {
        let discarding = name.contains("Discarding")
        let usage = discarding ? "write \(name) { group in … }" : "write \(name)(of: Int.self) { group in … }"
        // A throwing group's call rethrows its body's error: swiftc refuses it unmarked when the
        // body can throw, and accepts it when nothing can leave the body (swiftc 6.3). The
        // throwing discarding group's call throws (a child's error), so it always needs `try`.
        if name.hasPrefix("withThrowing") && !Self.isMarkedTry(call)
            && (discarding || (call.trailingClosure.map { Self.mayThrowOut(of: $0.statements) } ?? true)) {
            report("call can throw but is not marked with 'try': write try await \(name)(…) (or try?)", Syntax(call))
            return nil
        }
        var child: StaticType?? = discarding ? .some(nil) : nil
        var closure = call.trailingClosure
        for argument in call.arguments {
            switch argument.label?.text {
            case "of" where !discarding:
                guard let member = argument.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                    let baseExpression = member.base, let base = member.base?.sourceText
                else {
                    report(usage, Syntax(argument.expression))
                    return nil
                }
                if base == "Void" || base == "()" {
                    child = .some(nil)
                } else if let tuple = baseExpression.as(TupleExprSyntax.self), tuple.elements.count >= 2 {
                    // `(Int, Int).self`: each element a type name.
                    var parts: [StaticType] = []
                    for element in tuple.elements {
                        guard element.label == nil, let part = staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(element.expression.sourceText))),
                                                                       at: Syntax(element.expression)) else { return nil }
                        parts.append(part)
                    }
                    child = .some(.tuple(parts))
                } else if let optional = baseExpression.as(OptionalChainingExprSyntax.self) {
                    // `String?.self`: children that may give nil (`if Task.isCancelled { return nil }`).
                    let wrapped = TypeSyntax(IdentifierTypeSyntax(name: .identifier(optional.expression.sourceText)))
                    guard let type = staticType(TypeSyntax(OptionalTypeSyntax(wrappedType: wrapped)), at: Syntax(baseExpression)) else { return nil }
                    child = .some(type)
                } else {
                    guard let type = staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(base))), at: Syntax(baseExpression)) else { return nil }
                    child = .some(type)
                }
            case "returning":
                break  // the body's returns say it
            case "body" where argument.expression.is(ClosureExprSyntax.self):
                closure = argument.expression.as(ClosureExprSyntax.self)
            default:
                report(usage, Syntax(argument))
                return nil
            }
        }
        guard case .some(let childType) = child else {
            report("\(usage): the children's type is needed", Syntax(call))
            return nil
        }
        // `{ group in … }`, or `{ group -> [Int] in … }` with the body's type written out.
        guard let closure, let parameters = closure.signature?.parameterClause,
            let parameter = Self.closureParameterNames(parameters), parameter.count == 1
        else {
            report("\(usage): the body names its group", closure.map { Syntax($0) } ?? Syntax(call))
            return nil
        }
        let groupName = parameter[0]
        let span = self.span(of: Syntax(call))
        taskGroups.append(TaskGroupDecl(name: groupName, span: span, throwing: name.hasPrefix("withThrowing"), discarding: discarding))
        let id = TaskGroupID(index: taskGroups.count - 1)
        // The body runs where the call is, in the calling task (Swift 6: `isolation: #isolation`).
        closureContexts[closure.id] = context(of: Syntax(call))
        valueClosures[closure.id] = .some(nil)
        let outer = asyncContext
        asyncContext = nil
        let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure))) { lowering in
            lowering.bind(groupName, .taskGroup(id, child: childType))
        }
        asyncContext = outer
        let returned: StaticType? = if case let type?? = valueClosures[closure.id] { type } else { nil }
        valueClosures[closure.id] = nil
        var result: VariableID?
        if keepsValue, let returned { result = newVariable("the value of \(name)", isGlobal: false, span: span, type: returned) }
        return ([Statement(.withTaskGroup(TaskGroupRun(group: id, body: body, result: result)), at: span),
                 Statement(.suspend(.groupWaitAll(id)), at: span)], result)
    }

    /// `{ group in`, `{ (group) in`: the parameters' names.
    static func closureParameterNames(_ clause: ClosureSignatureSyntax.ParameterClause) -> [String]? {
        switch clause {
        case .simpleInput(let names): names.map(\.name.text)
        case .parameterClause(let list): list.parameters.allSatisfy({ $0.type == nil }) ? list.parameters.map(\.firstName.text) : nil
        }
    }

    /// The group a name stands for, with the type its children give.
    func taskGroup(named expression: ExprSyntax?) -> (id: TaskGroupID, child: StaticType?)? {
        guard let reference = expression?.as(DeclReferenceExprSyntax.self), case .taskGroup(let id, let child)? = lookup(reference.baseName.text)
        else { return nil }
        return (id, child)
    }

    /// `group.addTask { … }`, `group.cancelAll()` (no await); nil when `call` is not on a group,
    /// `.some(nil)` when it is and was refused.
    /// Whether a `try` (or `try?`, `try!`) covers the call: an ancestor within its expression.
    static func isMarkedTry(_ call: FunctionCallExprSyntax) -> Bool {
        var node = call.parent
        while let here = node {
            if here.is(TryExprSyntax.self) { return true }
            if here.is(CodeBlockItemSyntax.self) || here.is(ClosureExprSyntax.self) || here.is(MemberBlockItemSyntax.self) { return false }
            node = here.parent
        }
        return false
    }

    mutating func lowerTaskGroupCall(_ call: FunctionCallExprSyntax, added: VariableID? = nil) -> Statement?? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let found = taskGroup(named: member.base) else { return nil }
        let (id, child) = found
        let span = self.span(of: Syntax(call))
        switch member.declName.baseName.text {
        case "addTask", "addTaskUnlessCancelled":
            // `addTaskUnlessCancelled` gives whether it added (discardable): into `added`, or a
            // hidden variable nobody reads.
            let unlessCancelled = member.declName.baseName.text == "addTask" ? nil
                : added ?? newVariable("added", isGlobal: false, span: span, type: .bool)
            var closure = call.trailingClosure
            var priority: TaskPriority?
            for argument in call.arguments {
                switch argument.label?.text {
                case "priority":
                    guard let named = argument.expression.as(MemberAccessExprSyntax.self).flatMap({ TaskPriority(rawValue: $0.declName.baseName.text) }) else {
                        report("a priority here is .high, .medium, .low, .background, .userInitiated or .utility", Syntax(argument.expression))
                        return .some(nil)
                    }
                    priority = named
                case "operation" where argument.expression.is(ClosureExprSyntax.self):
                    closure = argument.expression.as(ClosureExprSyntax.self)
                default:
                    report("write group.addTask { … } or group.addTask(priority: .high) { … }", Syntax(argument))
                    return .some(nil)
                }
            }
            guard let closure, closure.signature == nil else {
                report("a child task's closure takes no parameters: group.addTask { … }", closure.map { Syntax($0) } ?? Syntax(call))
                return .some(nil)
            }
            cooperativeQueue()
            // A child is nonisolated: it starts on the global executor.
            closureContexts[closure.id] = (.generic, true)
            // An optional child type is known from the start, so that `return nil` and
            // `return value` both fit it, in either order.
            if let child { valueClosures[closure.id] = .some(child.isOptional ? child : nil) }
            let outer = asyncContext
            asyncContext = nil
            let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
            asyncContext = outer
            let given: StaticType?? = valueClosures[closure.id]
            valueClosures[closure.id] = nil
            // `{ throw E.bad }`: a child that only throws gives no value, and needs none.
            if let child, !(given == .some(nil) && Self.alwaysReturns(closure.statements)) {
                guard case let type?? = given else {
                    report("the group's children give '\(child)': the closure must return one", Syntax(closure))
                    return .some(nil)
                }
                guard type.fits(child) else {
                    report("cannot convert value of type '\(type)' to closure result type '\(child)'", Syntax(closure))
                    return .some(nil)
                }
            }
            return Statement(.spawn(TaskSpawn(kind: .groupChild, body: body, isolation: .generic, priority: priority, group: id,
                                              unlessCancelled: unlessCancelled)), at: span)
        case "cancelAll":
            return Statement(.cancellation(.cancelGroup(id)), at: span)
        case "next", "waitForAll":
            report("'\(member.declName.baseName.text)' is async: write await \(call.sourceText)", Syntax(call))
            return .some(nil)
        default:
            report("'\(member.declName.baseName.text)' of a task group is outside the supported subset (addTask, addTaskUnlessCancelled, cancelAll, await next(), await waitForAll(), for await)",
                   Syntax(member.declName))
            return .some(nil)
        }
    }

    /// `let added = group.addTaskUnlessCancelled { … }`: the child (or none), then `added` is
    /// whether it was made; nil when `value` is not that call.
    mutating func declareGroupAddition(_ name: String, _ value: ExprSyntax, span: SourceSpan) -> [Statement]? {
        guard let call = value.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "addTaskUnlessCancelled", taskGroup(named: member.base) != nil
        else { return nil }
        let added = newVariable(name, isGlobal: isTopLevel, span: span, type: .bool)
        guard case let statement?? = lowerTaskGroupCall(call, added: added) else { return [] }
        bind(name, .variable(added))
        return [statement]
    }

    /// `await group.waitForAll()`, `await group.next()` as a statement.
    mutating func lowerAwaitedGroupCall(_ call: FunctionCallExprSyntax, keepsValue: Bool) -> (statements: [Statement], value: VariableID?)?? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let id = taskGroup(named: member.base)?.id else { return nil }
        let span = self.span(of: Syntax(call))
        if taskGroups[id.index].discarding, ["next", "waitForAll"].contains(member.declName.baseName.text) {
            reportDiscarding(id, Syntax(call))
            return .some(nil)
        }
        switch member.declName.baseName.text {
        case "waitForAll" where call.arguments.isEmpty:
            return ([Statement(.suspend(.groupWaitAll(id)), at: span)], nil)
        case "next" where call.arguments.isEmpty && !keepsValue:
            return ([Statement(.suspend(.groupNext(GroupNext(group: id, result: nil, body: nil, loops: false))), at: span)], nil)
        case "next" where call.arguments.isEmpty:
            report("group.next() gives an optional: write if let v = await group.next() { … }, while let, or for await v in group", Syntax(call))
            return .some(nil)
        default:
            report("'\(call.sourceText)' is outside the supported subset (await group.next(), await group.waitForAll())", Syntax(call))
            return .some(nil)
        }
    }

    /// `for await v in group { … }` (`for try await` on a throwing group).
    mutating func lowerGroupLoop(_ loop: ForStmtSyntax) -> Statement? {
        guard loop.whereClause == nil, loop.caseKeyword == nil, let (id, child) = taskGroup(named: loop.sequence).map({ ($0.id, $0.child) }) else {
            report("'for await' goes over a task group here: for await v in group { … }", Syntax(loop.sequence))
            return nil
        }
        if taskGroups[id.index].discarding {
            reportDiscarding(id, Syntax(loop.sequence))
            return nil
        }
        if taskGroups[id.index].throwing && loop.tryKeyword == nil {
            report("call can throw but is not marked with 'try': write for try await", Syntax(loop.awaitKeyword!))
            return nil
        }
        return lowerGroupNext(id, child: child, pattern: loop.pattern, body: loop.body, loops: true, at: Syntax(loop))
    }

    /// `if let v = await group.next() { … }` (no else) and `while let v = await group.next() { … }`;
    /// nil when the conditions are not that.
    mutating func lowerGroupNextBinding(_ conditions: ConditionElementListSyntax, body: CodeBlockSyntax, loops: Bool, at node: Syntax) -> Statement?? {
        guard conditions.count == 1, case .optionalBinding(let binding)? = conditions.first?.condition,
            let value = binding.initializer?.value, let awaited = Self.awaited(value),
            let call = awaited.expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "next",
            let found = taskGroup(named: member.base)
        else { return nil }
        let (id, child) = found
        if taskGroups[id.index].discarding {
            reportDiscarding(id, Syntax(call))
            return .some(nil)
        }
        return .some(lowerGroupNext(id, child: child, pattern: binding.pattern, body: body, loops: loops, at: node))
    }

    /// `while let v = await group.next() { … }`: a loop over a group's children, whose body
    /// `break` and `continue` may leave, as a `for await` over the group's.
    func isGroupNextLoop(_ loop: WhileStmtSyntax) -> Bool {
        guard loop.conditions.count == 1, case .optionalBinding(let binding)? = loop.conditions.first?.condition,
            let value = binding.initializer?.value, let awaited = Self.awaited(value),
            let call = awaited.expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "next"
        else { return false }
        return taskGroup(named: member.base) != nil
    }

    /// A discarding group's children give nothing to take: no `next()`, `for await` or
    /// `waitForAll()` (the group waits for them where it ends).
    private mutating func reportDiscarding(_ id: TaskGroupID, _ node: Syntax) {
        let function = taskGroups[id.index].functionName
        report("a discarding task group has no next(), for await or waitForAll(): its children's results are dropped, and \(function) waits for them where it ends", node)
    }

    private mutating func lowerGroupNext(_ id: TaskGroupID, child: StaticType?, pattern: PatternSyntax, body: CodeBlockSyntax, loops: Bool,
                                         at node: Syntax) -> Statement? {
        guard context(of: node).isAsync else {
            report("'async' call in a function that does not support concurrency", node)
            return nil
        }
        let span = self.span(of: node)
        var name: String?
        // `(index, value)`: the tuple into a hidden variable, its parts into the names.
        var parts: [String?] = []
        if let tuple = pattern.as(TuplePatternSyntax.self) {
            guard case .tuple(let types)? = child, types.count == tuple.elements.count,
                tuple.elements.allSatisfy({ $0.label == nil && ($0.pattern.is(IdentifierPatternSyntax.self) || $0.pattern.is(WildcardPatternSyntax.self)) })
            else {
                report("a tuple pattern here names each part of the group's tuple value: (a, b)", Syntax(pattern))
                return nil
            }
            parts = tuple.elements.map { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
            name = "(" + parts.map { $0 ?? "_" }.joined(separator: ", ") + ")"
        } else if let identifier = pattern.as(IdentifierPatternSyntax.self) {
            name = identifier.identifier.text
            guard child != nil else {
                report("the group's children give no value (Void): write _ here", Syntax(pattern))
                return nil
            }
        } else if !pattern.is(WildcardPatternSyntax.self) {
            report("the value is a name or '_'", Syntax(pattern))
            return nil
        }
        var result: VariableID?
        var unpacking: [Statement] = []
        let block = lowerBlock(body.statements, span: self.span(of: Syntax(body))) { lowering in
            if let name, let child {
                let variable = lowering.newVariable(name, isGlobal: false, span: span, type: child)
                if parts.isEmpty { lowering.bind(name, .variable(variable)) }
                result = variable
                if case .tuple(let types) = child {
                    for (index, part) in parts.enumerated() {
                        guard let part else { continue }
                        let named = lowering.newVariable(part, isGlobal: false, span: span, type: types[index])
                        lowering.bind(part, .variable(named))
                        unpacking.append(Statement(.assign(Assignment(target: named, operation: .set,
                                                                      value: .element(.variable(variable), index: .literal(.int(index))))), at: span))
                    }
                }
            }
        }
        blocks[block.index].statements.insert(contentsOf: unpacking, at: 0)
        return Statement(.suspend(.groupNext(GroupNext(group: id, result: result, body: block, loops: loops))), at: span)
    }
}
