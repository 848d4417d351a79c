import SwiftSyntax

/// A range of Int kept in a constant (`let range = 0..<quantity`) and looped over later
/// (`for i in range`): its bounds are read once, where the `let` is, into two hidden
/// constants, as Swift stores a `Range` value. Making a range whose lower bound is above its
/// upper bound traps there ("Range requires lowerBound <= upperBound"), before any loop.
extension Lowering {
    /// `a...b` or `a..<b` (in parentheses too): its bound expressions and whether it is closed.
    func rangeSyntax(_ expr: ExprSyntax) -> (lower: ExprSyntax, upper: ExprSyntax, inclusive: Bool)? {
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return rangeSyntax(only.expression)
        }
        guard let infix = expr.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "..." || op == "..<"
        else { return nil }
        return (infix.leftOperand, infix.rightOperand, op == "...")
    }

    /// The bounds of a range written in place, checked as Int (the subset's ranges).
    mutating func lowerRangeBounds(_ range: (lower: ExprSyntax, upper: ExprSyntax, inclusive: Bool), at node: Syntax) -> (from: Expression, to: Expression)? {
        guard let from = lowerExpression(range.lower), let to = lowerExpression(range.upper),
            checkOperands(.less, from, to, at: node)
        else { return nil }
        guard type(of: from) == .int else {
            report("ranges here are of Int: 'for i in 1...3', 'let range = 0..<n'", node)
            return nil
        }
        return (from, to)
    }

    /// `let range = a..<b`: nil when the value is not a range.
    mutating func declareRange(_ name: String, _ value: ExprSyntax, declaration: VariableDeclSyntax, span: SourceSpan) -> [Statement]? {
        guard let range = rangeSyntax(value) else { return nil }
        guard declaration.bindingSpecifier.tokenKind == .keyword(.let), declaration.bindings.first?.typeAnnotation == nil else {
            report("a range is kept in a 'let' without a type here (let range = 0..<n); a 'var' or annotated range is outside the supported subset", Syntax(declaration))
            declareBounds(name, inclusive: range.inclusive, span: span)  // so that its uses raise no second error
            return []
        }
        let bounds = lowerRangeBounds(range, at: Syntax(value))
        let (lower, upper) = declareBounds(name, inclusive: range.inclusive, span: span)
        guard let (from, to) = bounds else { return [] }
        var statements = [
            Statement(.assign(Assignment(target: lower, operation: .set, value: from)), at: span),
            Statement(.assign(Assignment(target: upper, operation: .set, value: to)), at: span),
        ]
        // The check Swift makes where the range is made: a loop over it with nothing in its
        // body, which traps on such bounds and is no step otherwise (left out when the bounds
        // are known and fine).
        if case .int(let first)? = from.constantValue, case .int(let last)? = to.constantValue, first <= last {
            return statements
        }
        let check = lowerBlock(CodeBlockItemListSyntax([]), span: span) { _ in }
        statements.append(Statement(.loop(Loop(variable: nil, from: .variable(lower), to: .variable(upper), inclusive: range.inclusive, body: check)), at: span))
        return statements
    }

    @discardableResult
    private mutating func declareBounds(_ name: String, inclusive: Bool, span: SourceSpan) -> (lower: VariableID, upper: VariableID) {
        let shared = isTopLevel || isMemberScope
        let lower = newVariable(memberName(name) + ".lowerBound", isGlobal: shared, span: span, type: .int, constant: true)
        let upper = newVariable(memberName(name) + ".upperBound", isGlobal: shared, span: span, type: .int, constant: true)
        bind(name, .range(lower: lower, upper: upper, inclusive: inclusive))
        return (lower, upper)
    }

    /// `for i in range` of a range kept in a `let`: its bounds and whether it is closed.
    func keptRange(_ sequence: ExprSyntax) -> (from: Expression, to: Expression, inclusive: Bool)? {
        guard let reference = sequence.as(DeclReferenceExprSyntax.self),
            case .range(let lower, let upper, let inclusive)? = lookup(reference.baseName.text)
        else { return nil }
        return (.variable(lower), .variable(upper), inclusive)
    }
}
