import SwiftSyntax

/// A `nonisolated` method of an actor that names one of the actor's `var`s: swiftc's error
/// ("actor-isolated property 'logs' can not be referenced from a nonisolated context"), rather
/// than the lowering's plain "cannot find", since the property is in scope in Swift.
extension Lowering {
    /// Whether `reference` names a stored `var` of the actor whose nonisolated method holds it
    /// (reported, as swiftc does).
    mutating func reportsNonisolatedPropertyRead(_ reference: DeclReferenceExprSyntax) -> Bool {
        let name = reference.baseName.text
        var current = Syntax(reference).parent
        var method: FunctionDeclSyntax?
        while let here = current {
            if method == nil, let function = here.as(FunctionDeclSyntax.self) { method = function }
            if let actor = here.as(ActorDeclSyntax.self) {
                guard let method, Self.isNonisolated(method) else { return false }
                let isVar = actor.memberBlock.members.contains { member in
                    guard let variable = member.decl.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var) else { return false }
                    return variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
                }
                guard isVar else { return false }
                report("actor-isolated property '\(name)' can not be referenced from a nonisolated context", Syntax(reference))
                return true
            }
            current = here.parent
        }
        return false
    }
}
