import SwiftSyntax

/// Time and the calls that wait: asyncAfter, sleep, usleep, Thread.sleep, wait(timeout:).
extension Lowering {
    /// `.now() + 0.1`, `DispatchTime.now() + .milliseconds(100)`, `.now() + TimeInterval(i) / 10`.
    mutating func deadline(_ expr: ExprSyntax) -> Delay? {
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

    /// The longest delay the model's clock takes (`Delay.longestSeconds`).
    static var maximumDelaySeconds: Int { Delay.longestSeconds }

    /// Seconds as a `Double` (`0.5`, `TimeInterval(i) / 10`), or a `DispatchTimeInterval`:
    /// `.seconds(n)`, `.milliseconds(n)`, `.microseconds(n)`, `.nanoseconds(n)`, whose amount
    /// may be any Int expression.
    mutating func interval(_ expr: ExprSyntax) -> Delay? {
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base == nil || member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchTimeInterval",
            call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil
        {
            let units = ["seconds": 1_000_000, "milliseconds": 1_000, "microseconds": 1, "nanoseconds": 0]
            if let unit = units[member.declName.baseName.text] {
                // Nanoseconds: a thousandth of a microsecond, at least one.
                if unit == 0 {
                    guard let amount = scaled(argument.expression, unit: 1, wholeNumbers: true) else { return nil }
                    return Delay(microseconds: .binary(.divide, amount, .literal(.int(1000))))
                }
                return scaled(argument.expression, unit: unit, wholeNumbers: true).map { Delay(microseconds: $0) }
            }
        }
        guard let microseconds = scaled(expr, unit: 1_000_000, wholeNumbers: false) else { return nil }
        return Delay(microseconds: microseconds)
    }

    /// `expr` in whole microseconds, where 1 of it is `unit` microseconds: numbers, `Double(n)`
    /// and `TimeInterval(n)` of an Int expression (or, where the call takes a whole number, the
    /// Int expression itself), their sums and differences, and their products and quotients by
    /// numbers. Swift computes these in Doubles; the model in Int microseconds, exactly for
    /// delays a snippet writes (a microsecond is far below the 0.1 s between deadlines that
    /// matter to the order).
    mutating func scaled(_ expr: ExprSyntax, unit: Int, wholeNumbers: Bool) -> Expression? {
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first, inner.label == nil {
            return scaled(inner.expression, unit: unit, wholeNumbers: wholeNumbers)
        }
        if let number = numberLiteral(expr) {
            guard let microseconds = delay(number.value * Double(unit), at: expr) else { return nil }
            return .literal(.int(microseconds))
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            guard let inner = scaled(prefix.expression, unit: unit, wholeNumbers: wholeNumbers) else { return nil }
            return .binary(.subtract, .literal(.int(0)), inner)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            ["Double", "TimeInterval", "Float", "CGFloat"].contains(type), call.arguments.count == 1,
            let argument = call.arguments.first, argument.label == nil
        {
            if numberLiteral(argument.expression) != nil || argument.expression.is(InfixOperatorExprSyntax.self) && !isWholeNumber(argument.expression) {
                return scaled(argument.expression, unit: unit, wholeNumbers: false)
            }
            return wholeNumber(argument.expression, times: unit)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text {
            switch op {
            case "+", "-":
                guard let left = scaled(infix.leftOperand, unit: unit, wholeNumbers: wholeNumbers),
                    let right = scaled(infix.rightOperand, unit: unit, wholeNumbers: wholeNumbers)
                else { return nil }
                return .binary(op == "+" ? .add : .subtract, left, right)
            case "*":
                if let factor = numberLiteral(infix.rightOperand), !(wholeNumbers && isWholeNumber(infix.leftOperand)) {
                    return scaled(infix.leftOperand, unit: unit, wholeNumbers: wholeNumbers).map { times($0, factor.value) }
                }
                if let factor = numberLiteral(infix.leftOperand), !(wholeNumbers && isWholeNumber(infix.rightOperand)) {
                    return scaled(infix.rightOperand, unit: unit, wholeNumbers: wholeNumbers).map { times($0, factor.value) }
                }
            case "/":
                if let divisor = numberLiteral(infix.rightOperand), !(wholeNumbers && isWholeNumber(infix.leftOperand)) {
                    guard divisor.value != 0 else {
                        report("a delay divided by zero is outside the supported subset", Syntax(infix.rightOperand))
                        return nil
                    }
                    return scaled(infix.leftOperand, unit: unit, wholeNumbers: wholeNumbers).map { times($0, 1 / divisor.value) }
                }
            default:
                break
            }
        }
        if wholeNumbers {
            return wholeNumber(expr, times: unit)
        }
        report("write a time in seconds as a number (0.5), or computed from Int values: TimeInterval(i) / 10, Double(n) * 0.1", Syntax(expr))
        return nil
    }

    /// An Int expression of the subset, times `unit`.
    private mutating func wholeNumber(_ expr: ExprSyntax, times unit: Int) -> Expression? {
        guard let value = lowerExpression(expr) else { return nil }
        guard type(of: value) == .int else {
            report("a time is a number here: '\(expr.sourceText)' is not an Int", Syntax(expr))
            return nil
        }
        return unit == 1 ? value : .binary(.multiply, value, .literal(.int(unit)))
    }

    /// Whether the expression is an Int computation (a variable or arithmetic on them), not seconds.
    private func isWholeNumber(_ expr: ExprSyntax) -> Bool {
        !(expr.is(FloatLiteralExprSyntax.self) || expr.as(FunctionCallExprSyntax.self).map { call in
            ["Double", "TimeInterval", "Float", "CGFloat"].contains(call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? "")
        } == true)
    }

    /// `value × factor` in Int arithmetic: a whole factor multiplies, a fraction multiplies and
    /// divides (to a millionth).
    private func times(_ value: Expression, _ factor: Double) -> Expression {
        if factor == factor.rounded(), abs(factor) < 1e12 {
            return factor == 1 ? value : .binary(.multiply, value, .literal(.int(Int(factor))))
        }
        let numerator = Int((factor * 1_000_000).rounded())
        return .binary(.divide, .binary(.multiply, value, .literal(.int(numerator))), .literal(.int(1_000_000)))
    }

    /// An integer or floating-point literal, with its value.
    func numberLiteral(_ expr: ExprSyntax) -> (value: Double, isInteger: Bool)? {
        if let integer = integerLiteral(expr) { return (Double(integer), true) }
        if let float = expr.as(FloatLiteralExprSyntax.self), let value = Double(float.literal.text.filter { $0 != "_" }) {
            return (value, false)
        }
        return nil
    }

    /// A delay in whole microseconds, or a problem when the model's clock cannot hold it.
    mutating func delay(_ microseconds: Double, at expr: some SyntaxProtocol) -> Int? {
        guard microseconds.isFinite, abs(microseconds) <= Double(Delay.longest) else {
            report("a delay of more than \(Self.maximumDelaySeconds) seconds is outside the supported subset", Syntax(expr))
            return nil
        }
        return Int(microseconds.rounded())
    }

    /// An integer or floating-point literal, in seconds.
    func secondsLiteral(_ expr: ExprSyntax) -> Double? {
        numberLiteral(expr)?.value
    }

    /// `sleep(1)`, `usleep(1000)`, `sleep(UInt32(n))`, `Thread.sleep(forTimeInterval: 0.1)`;
    /// nil when not a sleep.
    mutating func lowerSleep(_ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement?? {
        let callee = call.calledExpression
        let argument = call.arguments.first
        if let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, name == "sleep" || name == "usleep" {
            let unit = name == "sleep" ? 1_000_000 : 1
            guard call.arguments.count == 1, let argument, argument.label == nil else {
                report("\(name) takes a whole number: \(name)(1), or \(name)(UInt32(n))", Syntax(call))
                return .some(nil)
            }
            if let amount = integerLiteral(argument.expression) {
                guard amount <= Int(UInt32.max) else {
                    report("integer literal '\(argument.expression.sourceText)' overflows when stored into 'UInt32' (\(name) takes a UInt32)", Syntax(argument.expression))
                    return .some(nil)
                }
                guard let microseconds = delay(Double(amount) * Double(unit), at: argument.expression) else { return .some(nil) }
                return Statement(.sleep(.constant(microseconds)), at: span)
            }
            // `sleep(UInt32(n))`: Swift converts, and traps on a value that does not fit.
            guard let conversion = argument.expression.as(FunctionCallExprSyntax.self),
                conversion.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "UInt32",
                conversion.arguments.count == 1, let inner = conversion.arguments.first, inner.label == nil
            else {
                report("\(name) takes a UInt32: \(name)(1), or \(name)(UInt32(n)) for an Int n", Syntax(argument.expression))
                return .some(nil)
            }
            guard let amount = wholeNumber(inner.expression, times: 1) else { return .some(nil) }
            let microseconds: Expression = unit == 1 ? amount : .binary(.multiply, amount, .literal(.int(unit)))
            return Statement(.sleep(Delay(microseconds: microseconds, convertedToUInt32: amount)), at: span)
        }
        if let member = callee.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Thread",
            member.declName.baseName.text == "sleep"
        {
            guard call.arguments.count == 1, let argument, argument.label?.text == "forTimeInterval" else {
                report("write Thread.sleep(forTimeInterval: 0.1)", Syntax(call))
                return .some(nil)
            }
            if refusesFromAsync("class method 'sleep' is unavailable from asynchronous contexts", at: Syntax(member.declName)) { return .some(nil) }
            guard let microseconds = scaled(argument.expression, unit: 1_000_000, wholeNumbers: false) else { return .some(nil) }
            return Statement(.sleep(Delay(microseconds: microseconds)), at: span)
        }
        return nil
    }

    /// `g.wait(timeout: …)` or `s.wait(timeout: …)`: what it waits on and for how long.
    mutating func timedWait(_ expr: ExprSyntax) -> (Waitable, Delay)? {
        guard let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "wait", let base = member.base,
            call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "timeout"
        else { return nil }
        let waitable: Waitable
        switch binding(of: base) {
        case .group(let group)?: waitable = .group(group)
        case .semaphore(let semaphore)?: waitable = .semaphore(semaphore)
        default: return nil
        }
        guard let delay = deadline(argument.expression) else { return nil }
        return (waitable, delay)
    }

    /// `if g.wait(timeout: …) == .timedOut { } else { }`: the wait, then a branch on its result.
    mutating func lowerTimedWaitIf(_ condition: ExprSyntax, _ branch: IfExprSyntax) -> [Statement]? {
        guard let infix = condition.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "==" || op == "!=",
            let result = infix.rightOperand.as(MemberAccessExprSyntax.self), result.base == nil,
            ["timedOut", "success"].contains(result.declName.baseName.text)
        else { return nil }
        guard let (waitable, delay) = timedWait(infix.leftOperand) else { return nil }
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
            Statement(.timedWait(waitable, delay: delay, result: variable), at: span),
            Statement(.branch(condition: test, then: then, otherwise: otherwise), at: span),
        ]
    }
}
