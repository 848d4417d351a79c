import SwiftSyntax

/// `max(a, b)`, `min(a, b, c)` (also spelled `Swift.max`): the standard library's free
/// functions over Int, the other integer types, Double and String, lowered to the comparison
/// the library makes (stdlib/public/core/Algorithm.swift: `max` is `y >= x ? y : x`, `min` is
/// `y < x ? y : x`, so equal values give `max` the right one and `min` the left one; more
/// arguments fold from the left). The operands are evaluated once each, before the statement
/// (calls hoisted as anywhere else).
extension Lowering {
    /// Whether `call` names the library's `max` or `min` rather than the snippet's own function.
    func isMinMaxCall(_ call: FunctionCallExprSyntax) -> Bool {
        let called = call.calledExpression
        if let member = called.as(MemberAccessExprSyntax.self) {
            return member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Swift"
                && ["max", "min"].contains(member.declName.baseName.text)
        }
        guard let name = called.as(DeclReferenceExprSyntax.self)?.baseName.text, ["max", "min"].contains(name) else { return false }
        return lookup(name) == nil
    }

    mutating func lowerMinMax(_ call: FunctionCallExprSyntax) -> Expression? {
        let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? "max"
        guard call.trailingClosure == nil, call.arguments.count >= 2, call.arguments.allSatisfy({ $0.label == nil }) else {
            report("write \(name)(a, b) (or more values), each without a label", Syntax(call))
            return nil
        }
        var operands: [Expression] = []
        for argument in call.arguments {
            guard let operand = lowerExpression(argument.expression) else { return nil }
            operands.append(operand)
        }
        // The operands' one type: a literal takes the type of a typed operand, as in Swift.
        guard let typed = operands.first(where: { !$0.isIntegerLiteral }) ?? operands.first, let type = type(of: typed) else { return nil }
        guard type.isInteger || type == .double || type == .string else {
            report("\(name)(…) of '\(type)' values is outside the supported subset: compare Int, Double or String values", Syntax(call.arguments.first!.expression))
            return nil
        }
        for (index, operand) in operands.enumerated() {
            let adjusted: Expression = switch (operand.isIntegerLiteral, type) {
            case (true, .double): coercedLiteral(operand, to: .double)
            case (true, .integer(let integer)): .typed(operand, integer, conversion: false)
            default: operand
            }
            let argument = Array(call.arguments)[index].expression
            guard let operandType = self.type(of: adjusted), operandType == type else {
                report("conflicting arguments to generic parameter 'T' ('\(type)' vs. '\(self.type(of: adjusted).map { "\($0)" } ?? "?")')", Syntax(argument))
                return nil
            }
            operands[index] = adjusted
        }
        // The comparison and the chosen value are one step, so they see the same values: one
        // read of each operand, as the library's parameters are.
        let values = operands
        return values.dropFirst().reduce(values[0]) { x, y in
            name == "max"
                ? .conditional(.binary(.greaterOrEqual, y, x), then: y, otherwise: x)
                : .conditional(.binary(.less, y, x), then: y, otherwise: x)
        }
    }
}
