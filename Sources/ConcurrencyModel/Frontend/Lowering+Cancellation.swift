import SwiftSyntax

/// Cancellation: `t.cancel()`, `Task.isCancelled`, `try Task.checkCancellation()` (a group's
/// `cancelAll()` is in `Lowering+TaskGroups`).
extension Lowering {
    /// `Task.isCancelled`: read just before the statement that uses it (false outside a task).
    mutating func lowerIsCancelled(_ member: MemberAccessExprSyntax) -> Expression {
        cooperativeQueue()
        let span = self.span(of: Syntax(member))
        let read = newVariable("Task.isCancelled", isGlobal: false, span: span, type: .bool)
        hoisted.append(Statement(.cancellation(.read(into: read)), at: span))
        return .variable(read)
    }

    /// `t.cancel()` of a kept task; nil when `call` is not that.
    mutating func lowerTaskCancel(_ call: FunctionCallExprSyntax) -> Statement? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "cancel",
            call.arguments.isEmpty, call.trailingClosure == nil, let handle = member.base.flatMap(awaitedTask)
        else { return nil }
        return Statement(.cancellation(.cancelTask(handle)), at: span(of: Syntax(call)))
    }

    /// `try Task.checkCancellation()`, in the body of a `Task { }` (where the error it throws ends
    /// the task); nil when `expr` is not that call.
    mutating func lowerCheckCancellation(_ expr: ExprSyntax) -> [Statement]? {
        let attempt = expr.as(TryExprSyntax.self)
        guard let call = (attempt?.expression ?? expr).as(FunctionCallExprSyntax.self),
            call.calledExpression.trimmedDescription == "Task.checkCancellation"
        else { return nil }
        guard let attempt else {
            report("call can throw but is not marked with 'try'", Syntax(call))
            return []
        }
        guard attempt.questionOrExclamationMark == nil, call.arguments.isEmpty,
            case .closure(let closure) = enclosingBody(of: Syntax(expr)),
            let creation = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
            isTaskCreation(creation)
        else {
            report("try Task.checkCancellation() is modelled directly in a Task { } body, where its error ends the task", Syntax(expr))
            return []
        }
        return [Statement(.cancellation(.check), at: span(of: Syntax(expr)))]
    }
}
