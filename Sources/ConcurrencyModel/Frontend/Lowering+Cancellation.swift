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

    /// `try Task.checkCancellation()`: throws CancellationError in a cancelled task (nothing
    /// outside a task); nil when `expr` is not that call (`try?`/`try!` wrap it as any call).
    mutating func lowerCheckCancellation(_ expr: ExprSyntax) -> [Statement]? {
        let attempt = expr.as(TryExprSyntax.self)
        if attempt?.questionOrExclamationMark != nil { return nil }
        guard let call = (attempt?.expression ?? expr).as(FunctionCallExprSyntax.self),
            call.calledExpression.sourceText == "Task.checkCancellation"
        else { return nil }
        guard Self.isMarkedTry(call) else {
            report("call can throw but is not marked with 'try'", Syntax(call))
            return []
        }
        guard call.arguments.isEmpty, call.trailingClosure == nil else {
            report("Task.checkCancellation() takes no arguments", Syntax(call))
            return []
        }
        if let attempt, !checkHandled(Syntax(attempt)) { return [] }
        cooperativeQueue()
        return [Statement(.cancellation(.check), at: span(of: Syntax(expr)))]
    }

    /// `Task.sleep(…)` (or a clock's `sleep`, `ContinuousClock().sleep(for:)`) under its `await`.
    static func isTaskSleep(_ expr: ExprSyntax) -> Bool {
        guard let call = expr.as(AwaitExprSyntax.self)?.expression.as(FunctionCallExprSyntax.self) else { return false }
        return ["Task.sleep", "ContinuousClock().sleep", "SuspendingClock().sleep"].contains(call.calledExpression.sourceText)
    }

    /// `await withTaskCancellationHandler(operation: { … }, onCancel: { … })` (or the trailing
    /// `withTaskCancellationHandler { … } onCancel: { … }`) as a statement: the handler is
    /// registered, the operation runs in place in the calling task, the handler is removed.
    /// Nil when `expr` is no such call.
    mutating func lowerCancellationHandler(_ expr: ExprSyntax) -> [Statement]? {
        let attempt = expr.as(TryExprSyntax.self)
        let awaited = (attempt?.expression ?? expr).as(AwaitExprSyntax.self)
        guard let call = (awaited?.expression ?? attempt?.expression ?? expr).as(FunctionCallExprSyntax.self),
            call.calledExpression.sourceText == "withTaskCancellationHandler"
        else { return nil }
        guard awaited != nil else {
            report("'withTaskCancellationHandler' is async: write await withTaskCancellationHandler { … } onCancel: { … }", Syntax(call))
            return []
        }
        var operation: ClosureExprSyntax?
        var onCancel: ClosureExprSyntax?
        var wellFormed = true
        for argument in call.arguments {
            switch argument.label?.text {
            case "operation": operation = argument.expression.as(ClosureExprSyntax.self)
            case "onCancel": onCancel = argument.expression.as(ClosureExprSyntax.self)
            default: wellFormed = false
            }
        }
        if let trailing = call.trailingClosure {
            if operation == nil { operation = trailing } else { wellFormed = false }
        }
        for extra in call.additionalTrailingClosures {
            if extra.label.text == "onCancel", onCancel == nil { onCancel = extra.closure } else { wellFormed = false }
        }
        guard wellFormed, let operation, let onCancel, operation.signature == nil, onCancel.signature == nil else {
            report("withTaskCancellationHandler is written 'await withTaskCancellationHandler { … } onCancel: { … }'", Syntax(call))
            return []
        }
        if let exit = Self.firstEscape(in: Syntax(operation.statements)) {
            report("'\(exit.sourceText.split(separator: " ").first!)' in a withTaskCancellationHandler operation is outside the supported subset", exit)
            return []
        }
        cooperativeQueue()
        let span = self.span(of: Syntax(call))
        let handler = lowerBlock(onCancel.statements, span: self.span(of: Syntax(onCancel)))
        // The operation runs where the call is, in the calling task (`isolation: #isolation`).
        closureContexts[operation.id] = context(of: Syntax(call))
        let outer = asyncContext
        asyncContext = nil
        let body = lowerBlock(operation.statements, span: self.span(of: Syntax(operation)))
        asyncContext = outer
        return [Statement(.cancellation(.addHandler(handler)), at: span),
                Statement(.branch(condition: .literal(.bool(true)), then: body, otherwise: nil), at: span),
                Statement(.cancellation(.removeHandler), at: self.span(of: Syntax(operation.rightBrace)))]
    }
}
