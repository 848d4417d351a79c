import SwiftSyntax

/// `[String]()`, `[Int]()`: an empty array whose element type the call spells, as a
/// declaration's value (a top-level or local `var`, an actor's property: outside2/sc2-03's
/// `var logs = [String]()`) or anywhere a value goes (`logs = [String]()`).
extension Lowering {
    /// The element type when `value` is such a call: nil when it is not one, `.some(nil)` when
    /// it is one of a type outside the subset (reported).
    mutating func emptyArrayCall(_ value: ExprSyntax) -> StaticType?? {
        guard let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
            let arrayType = call.calledExpression.as(ArrayExprSyntax.self), arrayType.elements.count == 1,
            let element = arrayType.elements.first, element.expression.is(DeclReferenceExprSyntax.self)
        else { return nil }
        return .some(staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(element.expression.sourceText))), at: Syntax(element.expression)))
    }
}
