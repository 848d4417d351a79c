import SwiftSyntax

extension Lowering {
    /// `list.first`, `list.last` (an optional: nil for an empty list) and `isEmpty` (of a list, a
    /// string or a dictionary), written with the IR's count, element and condition: an element is
    /// read only when there is one.
    mutating func lowerEnds(of base: ExprSyntax, _ name: String, at node: Syntax) -> Expression? {
        guard let inner = lowerExpression(base), let type = type(of: inner) else { return nil }
        let isEmpty = Expression.binary(.equal, .count(inner), .literal(.int(0)))
        switch (name, type) {
        case ("isEmpty", .list), ("isEmpty", .string), ("isEmpty", .dictionary):
            return isEmpty
        case ("first", .list) where type != .string:
            return .conditional(isEmpty, then: .literal(.nilValue), otherwise: .element(inner, index: .literal(.int(0))))
        case ("last", .list) where type != .string:
            let last = Expression.binary(.subtract, .count(inner), .literal(.int(1)))
            return .conditional(isEmpty, then: .literal(.nilValue), otherwise: .element(inner, index: last))
        default:
            report("value of type '\(type)' has no member '\(name)' here", node)
            return nil
        }
    }
}
