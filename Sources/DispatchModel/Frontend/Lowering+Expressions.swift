import SwiftSyntax

/// Expressions: literals, variables, arithmetic, comparisons, interpolation, `list.count`.
extension Lowering {
    mutating func lowerExpression(_ expr: ExprSyntax) -> Expression? {
        if expr.is(AwaitExprSyntax.self) {
            report(Self.swiftConcurrency, Syntax(expr))
            return nil
        }
        if let integer = expr.as(IntegerLiteralExprSyntax.self) {
            guard let value = integerValue(integer.literal.text) else {
                report("integer literal out of range", Syntax(expr))
                return nil
            }
            return .literal(.int(value))
        }
        if let boolean = expr.as(BooleanLiteralExprSyntax.self) {
            return .literal(.bool(boolean.literal.tokenKind == .keyword(.true)))
        }
        if let string = expr.as(StringLiteralExprSyntax.self) {
            return lowerString(string)
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self) {
            // `-9223372036854775808` is one literal in Swift, not a negation of one that overflows.
            if prefix.operator.text == "-", let integer = prefix.expression.as(IntegerLiteralExprSyntax.self) {
                guard let value = integerValue("-" + integer.literal.text) else {
                    report("integer literal '-\(integer.literal.text)' overflows when stored into 'Int'", Syntax(expr))
                    return nil
                }
                return .literal(.int(value))
            }
            guard let inner = lowerExpression(prefix.expression) else { return nil }
            switch prefix.operator.text {
            case "-":
                guard expect(.int, inner, at: Syntax(expr), { "unary operator '-' cannot be applied to an operand of type '\($0)'" }) else { return nil }
                return constantChecked(.binary(.subtract, .literal(.int(0)), inner), written: expr, at: Syntax(expr))
            case "!":
                guard expect(.bool, inner, at: Syntax(expr), { "unary operator '!' cannot be applied to an operand of type '\($0)'" }) else { return nil }
                return .not(inner)
            default:
                unsupported(Syntax(expr))
                return nil
            }
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            base.baseName.text == "Int", ["max", "min"].contains(member.declName.baseName.text)
        {
            return .literal(.int(member.declName.baseName.text == "max" ? .max : .min))
        }
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            switch lookup(name) {
            case .variable(let id)?: return .variable(id)
            case nil:
                report("cannot find '\(name)' in scope", Syntax(expr))
            default:
                report("'\(name)' cannot be used as a value here", Syntax(expr))
            }
            return nil
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isMainThread",
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Thread"
        {
            return .isMainThread
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isCancelled",
            let base = member.base?.as(DeclReferenceExprSyntax.self), case .workItem(let item)? = lookup(base.baseName.text)
        {
            return .variable(workItems[item.index].cancelled)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isCancelled",
            let base = member.base?.as(DeclReferenceExprSyntax.self), case .operation(let operation)? = lookup(base.baseName.text),
            let flag = operations[operation.index].cancelled
        {
            return .variable(flag)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, member.declName.baseName.text == "count" {
            guard let inner = lowerExpression(base), let type = type(of: inner) else { return nil }
            guard case .list = type, type != .string else {
                if type == .string { return .count(inner) }
                report("value of type '\(type)' has no member 'count'", Syntax(member.declName))
                return nil
            }
            return .count(inner)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self).flatMap({ BinaryOperator(rawValue: $0.operator.text) })
        {
            guard let lhs = lowerExpression(infix.leftOperand), let rhs = lowerExpression(infix.rightOperand),
                checkOperands(op, lhs, rhs, at: Syntax(infix.operator))
            else { return nil }
            return constantChecked(.binary(op, lhs, rhs), written: infix, at: Syntax(infix.operator))
        }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return lowerExpression(only.expression)
        }
        if let array = expr.as(ArrayExprSyntax.self) {
            var items: [Value] = []
            for element in array.elements {
                guard case .literal(let value)? = lowerExpression(element.expression) else {
                    report("array literals may hold literal values only", Syntax(element))
                    return nil
                }
                if let first = items.first, !StaticType.of(value).fits(.of(first)) {
                    report("heterogeneous collection literal: '\(StaticType.of(value))' among '\(StaticType.of(first))' elements (Swift would need '[Any]', outside the supported subset)", Syntax(element))
                    return nil
                }
                items.append(value)
            }
            return .literal(.list(items))
        }
        report("'\(short(expr))' is outside the supported subset: use literals, variables, + - * / %, comparisons, && || !, interpolation and .count", Syntax(expr))
        return nil
    }

    /// An expression of literals only is worked out by swiftc when it compiles: one that
    /// overflows or divides by zero does not compile ("arithmetic operation … results in an
    /// overflow", "division by zero"). Others are left to run (and trap at run time).
    private mutating func constantChecked(_ expression: Expression, written: some SyntaxProtocol, at node: Syntax) -> Expression? {
        guard expression.variablesRead.isEmpty, !expression.readsThread else { return expression }
        do {
            _ = try expression.evaluate({ _ in nil }, isMainThread: false)
            return expression
        } catch .runtime(.divisionByZero) {
            report("division by zero", node)
        } catch .runtime {
            report("arithmetic operation '\(written.trimmedDescription)' (on type 'Int') results in an overflow", node)
        } catch {
            return expression
        }
        return nil
    }

    private mutating func lowerString(_ literal: StringLiteralExprSyntax) -> Expression? {
        guard literal.openingPounds == nil else {
            report("raw strings are outside the supported subset", Syntax(literal))
            return nil
        }
        var parts: [Expression] = []
        var text = ""
        for segment in literal.segments {
            switch segment {
            case .stringSegment(let piece):
                guard let unescaped = Self.unescape(piece.content.text) else {
                    report("this escape sequence is outside the supported subset", Syntax(piece))
                    return nil
                }
                text += unescaped
            case .expressionSegment(let interpolation):
                guard interpolation.expressions.count == 1, let inner = interpolation.expressions.first, inner.label == nil else {
                    report("an interpolation holds one value: \\(x)", Syntax(interpolation))
                    return nil
                }
                guard let value = lowerExpression(inner.expression) else { return nil }
                if !text.isEmpty { parts.append(.literal(.string(text))) }
                text = ""
                parts.append(value)
            }
        }
        if literal.openingQuote.tokenKind == .multilineStringQuote, text.hasSuffix("\n") {
            text.removeLast()
        }
        if !text.isEmpty || parts.isEmpty { parts.append(.literal(.string(text))) }
        if parts.count == 1, case .literal(.string) = parts[0] { return parts[0] }
        return .interpolation(parts)
    }

    /// A non-negative integer literal, for counts the front end needs to know.
    func integerLiteral(_ expr: ExprSyntax) -> Int? {
        expr.as(IntegerLiteralExprSyntax.self).flatMap { integerValue($0.literal.text) }
    }

    /// A string literal without interpolation, for labels.
    func stringLiteral(_ expr: ExprSyntax) -> String? {
        guard let literal = expr.as(StringLiteralExprSyntax.self), literal.openingPounds == nil,
            literal.segments.count == 1, case .stringSegment(let piece)? = literal.segments.first
        else { return nil }
        return Self.unescape(piece.content.text)
    }

    func integerValue(_ text: String) -> Int? {
        let digits = String(text.filter { $0 != "_" })
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            return Int(digits.dropFirst(2), radix: radix)
        }
        return Int(digits)
    }

    static func unescape(_ raw: String) -> String? {
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "\"": result.append("\"")
            case "'": result.append("'")
            default: return nil
            }
        }
        return result
    }

    private func short(_ expr: ExprSyntax) -> String {
        let text = expr.trimmedDescription
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
