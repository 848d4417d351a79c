import SwiftSyntax

/// `list.first` and `list.last`: an optional of the element, nil when the array is empty
/// (`logs.last ?? "No logs"`, `if let x = list.first`), read in one step with the count.
extension Lowering {
    func isArrayEnd(_ expr: ExprSyntax) -> Bool {
        guard let member = expr.as(MemberAccessExprSyntax.self), member.base != nil else { return false }
        return ["first", "last"].contains(member.declName.baseName.text)
    }

    /// nil (and nothing reported) when the base is not an array: the caller goes on.
    mutating func lowerArrayEnd(_ expr: ExprSyntax) -> Expression?? {
        guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base else { return .none }
        let saved = (problems.count, hoisted.count)
        guard let list = lowerExpression(base), case .list(let element?)? = type(of: list), element.wrapped == nil || !element.isOptional else {
            // Not an array (a member of something else): undo and let the general path say so,
            // unless the base was refused for a reason of its own (swiftc's isolation error).
            if problems[saved.0...].contains(where: { $0.message.contains("nonisolated context") }) { return .some(nil) }
            problems.removeSubrange(saved.0...)
            hoisted.removeSubrange(saved.1...)
            return .none
        }
        let index: Expression = member.declName.baseName.text == "first"
            ? .literal(.int(0))
            : .binary(.subtract, .count(list), .literal(.int(1)))
        return .some(.conditional(.binary(.equal, .count(list), .literal(.int(0))), then: .literal(.nilValue), otherwise: .element(list, index: index)))
    }
}
