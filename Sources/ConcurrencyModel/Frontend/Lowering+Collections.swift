import SwiftSyntax

extension Lowering {
    /// `isEmpty` of a list, a string or a dictionary: its count is 0 (`first` and `last` are
    /// `Lowering+ArrayEnds`).
    mutating func lowerIsEmpty(of base: ExprSyntax, at node: Syntax) -> Expression? {
        guard let inner = lowerExpression(base), let type = type(of: inner) else { return nil }
        switch type {
        case .list, .string, .dictionary:
            return .binary(.equal, .count(inner), .literal(.int(0)))
        default:
            report("value of type '\(type)' has no member 'isEmpty'", node)
            return nil
        }
    }
}
