import SwiftSyntax

/// Task handles as values: `tasks.append(Task { … })`, `let t = Task { … }; tasks.append(t)`,
/// `[Task { … }, Task { … }]`, `(0..<3).map { i in Task { … } }`, then
/// `for t in tasks { await t.value }` (interview snippets wait for their tasks so). A handle is
/// the task's index, as the hidden variable of `let t = Task { … }` holds it, so an array of
/// tasks is an array of indices and the loop's `t` is a handle that `await t.value` reads.
extension Lowering {
    /// `Task { … }` where a value goes: the task is made just before the statement, under a
    /// hidden name, and the value is its handle.
    mutating func lowerTaskValue(_ call: FunctionCallExprSyntax) -> Expression? {
        let span = self.span(of: Syntax(call))
        let handle = newVariable("the task at line \(span.line)", isGlobal: false, span: span, type: .task(nil))
        guard let spawn = lowerTask(call, handle: handle) else { return nil }
        variableTypes[handle] = .task(taskResultTypes[handle])
        hoisted.append(spawn)
        return .variable(handle)
    }

    /// Whether the hidden variable is an unstructured task's handle, which may be passed on as a
    /// value (an async let's may not: Swift only awaits it).
    func isTaskHandle(_ handle: VariableID) -> Bool {
        if case .task? = variableTypes[handle] { true } else { false }
    }

    /// A loop's or a closure's name for an element of an array of tasks: a handle `await t.value`
    /// reads, giving the tasks' value type.
    mutating func bindElement(_ name: String, _ id: VariableID, of type: StaticType) {
        if case .task(let result) = type {
            bind(name, .task(id))
            taskResultTypes[id] = result
        } else {
            bind(name, .variable(id))
        }
    }

    /// A task's handle has no text the model can tell (`Task<(), Never>` prints its address):
    /// printing or interpolating one, or an array of them, is refused.
    mutating func refusesTaskText(_ type: StaticType?, at node: Syntax) -> Bool {
        switch type {
        case .task?, .list(.task?)?:
            report("printing a task is outside the supported subset: print what it gives (await t.value)", node)
            return true
        default:
            return refusesQualifiedEnumText(type, at: node)
        }
    }
}

extension Lowering {
    /// `tasks[i].value` (and `tasks[i]` under an `await` of a value): the element is read into a
    /// hidden handle, then awaited. nil, with nothing reported, when the base is not an array of
    /// tasks: the caller goes on and says what it is.
    mutating func taskElement(_ expression: ExprSyntax) -> (read: Statement, handle: VariableID)? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "value",
            let element = member.base, element.is(SubscriptCallExprSyntax.self)
        else { return nil }
        let saved = (problems.count, hoisted.count)
        guard let read = lowerExpression(element), case .task(let result)? = type(of: read) else {
            problems.removeSubrange(saved.0...)
            hoisted.removeSubrange(saved.1...)
            return nil
        }
        let span = self.span(of: Syntax(element))
        let handle = newVariable("the task \(element.sourceText)", isGlobal: false, span: span, type: .task(result))
        taskResultTypes[handle] = result
        return (Statement(.assign(Assignment(target: handle, operation: .set, value: read)), at: span), handle)
    }
}

extension Lowering {
    /// `t.value` or `tasks[i].value` inside an expression one `await` covers
    /// (`await tasks[0].value + 1`): the wait runs just before the statement, its value in a
    /// hidden variable. nil, with nothing reported, when the expression is not such a value.
    mutating func awaitedTaskValue(_ expr: ExprSyntax) -> Expression?? {
        guard awaitingExpression, expr.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "value" else { return nil }
        var handle = awaitedTask(expr)
        if handle == nil, let (read, element) = taskElement(expr) {
            hoisted.append(read)
            handle = element
        }
        guard let handle else { return nil }
        guard let type = taskResultTypes[handle] else {
            report("'\(expr.sourceText)' gives no value here (its task returns none)", Syntax(expr))
            return .some(nil)
        }
        let span = self.span(of: Syntax(expr))
        let result = newVariable("the value of \(expr.sourceText)", isGlobal: false, span: span, type: type)
        hoisted.append(Statement(.suspend(.value(of: handle, result: result)), at: span))
        return .some(.variable(result))
    }
}
