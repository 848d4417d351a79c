import SwiftSyntax

/// Time and the calls that wait: asyncAfter, sleep, usleep, Thread.sleep, wait(timeout:).
extension Lowering {
    /// `.now() + 0.1`, `DispatchTime.now() + .milliseconds(100)`, … in microseconds.
    mutating func deadline(_ expr: ExprSyntax) -> Int? {
        guard let infix = expr.as(InfixOperatorExprSyntax.self),
            infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "+",
            let now = infix.leftOperand.as(FunctionCallExprSyntax.self),
            let member = now.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "now",
            member.base == nil || ["DispatchTime", "DispatchWallTime"].contains(member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text ?? "")
        else {
            report("write a deadline as '.now() + 0.5' or '.now() + .milliseconds(500)'", Syntax(expr))
            return nil
        }
        return interval(infix.rightOperand)
    }

    /// The longest delay the model's clock takes (about 317 years: `sleep(UInt32.max)` fits),
    /// far from overflowing its microseconds.
    static let maximumDelaySeconds = 10_000_000_000

    /// `0.5` (seconds), `.seconds(1)`, `.milliseconds(100)`, `.microseconds(10)`, `.nanoseconds(n)`.
    mutating func interval(_ expr: ExprSyntax) -> Int? {
        if let seconds = secondsLiteral(expr) {
            return delay(seconds * 1_000_000, at: expr)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base == nil, call.arguments.count == 1, let argument = call.arguments.first,
            let amount = integerLiteral(argument.expression)
        {
            switch member.declName.baseName.text {
            case "seconds": return delay(Double(amount) * 1_000_000, at: expr)
            case "milliseconds": return delay(Double(amount) * 1_000, at: expr)
            case "microseconds": return delay(Double(amount), at: expr)
            case "nanoseconds": return delay(max(Double(amount) / 1_000, 1), at: expr)
            default: break
            }
        }
        report("write a time interval as seconds (0.5) or .seconds(1), .milliseconds(100), .microseconds(10)", Syntax(expr))
        return nil
    }

    /// A delay in whole microseconds, or a problem when the model's clock cannot hold it.
    mutating func delay(_ microseconds: Double, at expr: some SyntaxProtocol) -> Int? {
        guard microseconds.isFinite, microseconds >= 0, microseconds <= Double(Self.maximumDelaySeconds) * 1_000_000 else {
            report("a delay of more than \(Self.maximumDelaySeconds) seconds is outside the supported subset", Syntax(expr))
            return nil
        }
        return Int(microseconds.rounded())
    }

    /// An integer or floating-point literal, in seconds.
    func secondsLiteral(_ expr: ExprSyntax) -> Double? {
        if let integer = integerLiteral(expr) { return Double(integer) }
        if let float = expr.as(FloatLiteralExprSyntax.self) {
            return Double(float.literal.text.filter { $0 != "_" })
        }
        return nil
    }

    /// `sleep(1)`, `usleep(1000)`, `Thread.sleep(forTimeInterval: 0.1)`; nil when not a sleep.
    mutating func lowerSleep(_ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement?? {
        let callee = call.calledExpression
        let argument = call.arguments.first
        if let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, name == "sleep" || name == "usleep" {
            guard call.arguments.count == 1, let argument, argument.label == nil, let amount = integerLiteral(argument.expression) else {
                report("\(name) takes a whole number: \(name)(1)", Syntax(call))
                return .some(nil)
            }
            guard amount <= Int(UInt32.max) else {
                report("integer literal '\(argument.expression.trimmedDescription)' overflows when stored into 'UInt32' (\(name) takes a UInt32)", Syntax(argument.expression))
                return .some(nil)
            }
            guard let microseconds = delay(Double(amount) * (name == "sleep" ? 1_000_000 : 1), at: argument.expression) else { return .some(nil) }
            return Statement(.sleep(microseconds: microseconds), at: span)
        }
        if let member = callee.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Thread",
            member.declName.baseName.text == "sleep"
        {
            guard call.arguments.count == 1, let argument, argument.label?.text == "forTimeInterval",
                let seconds = secondsLiteral(argument.expression)
            else {
                report("write Thread.sleep(forTimeInterval: 0.1)", Syntax(call))
                return .some(nil)
            }
            guard let microseconds = delay(seconds * 1_000_000, at: argument.expression) else { return .some(nil) }
            return Statement(.sleep(microseconds: microseconds), at: span)
        }
        return nil
    }

    /// `g.wait(timeout: …)` or `s.wait(timeout: …)`: what it waits on and for how long.
    mutating func timedWait(_ expr: ExprSyntax) -> (Waitable, Int)? {
        guard let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "wait", let base = member.base?.as(DeclReferenceExprSyntax.self),
            call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "timeout"
        else { return nil }
        let waitable: Waitable
        switch lookup(base.baseName.text) {
        case .group(let group)?: waitable = .group(group)
        case .semaphore(let semaphore)?: waitable = .semaphore(semaphore)
        default: return nil
        }
        guard let microseconds = deadline(argument.expression) else { return nil }
        return (waitable, microseconds)
    }

    /// `if g.wait(timeout: …) == .timedOut { } else { }`: the wait, then a branch on its result.
    mutating func lowerTimedWaitIf(_ condition: ExprSyntax, _ branch: IfExprSyntax) -> [Statement]? {
        guard let infix = condition.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "==" || op == "!=",
            let result = infix.rightOperand.as(MemberAccessExprSyntax.self), result.base == nil,
            ["timedOut", "success"].contains(result.declName.baseName.text)
        else { return nil }
        guard let (waitable, microseconds) = timedWait(infix.leftOperand) else { return nil }
        let span = self.span(of: Syntax(branch))
        let variable = newVariable("wait result", isGlobal: false, span: span, type: .string)
        let test = Expression.binary(op == "==" ? .equal : .notEqual, .variable(variable), .literal(.string(result.declName.baseName.text)))
        let then = lowerBlock(branch.body.statements, span: self.span(of: Syntax(branch.body)))
        var otherwise: BlockID?
        if case .codeBlock(let block)? = branch.elseBody {
            otherwise = lowerBlock(block.statements, span: self.span(of: Syntax(block)))
        } else if let nested = branch.elseBody {
            report("'else if' after a timed wait is outside the supported subset", Syntax(nested))
            return []
        }
        return [
            Statement(.timedWait(waitable, microseconds: microseconds, result: variable), at: span),
            Statement(.branch(condition: test, then: then, otherwise: otherwise), at: span),
        ]
    }
}
