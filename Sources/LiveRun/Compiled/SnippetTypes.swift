import SwiftSyntax

/// The snippet's own types, for the fork server to ask the runtime about before it forks
/// (`gq_ready_print`): printing a value of such a type (`print("failed: \(error)")` of an error
/// enum) had the runtime look for its conformances to `TextOutputStreamable`,
/// `CustomStringConvertible`, `CustomDebugStringConvertible` and `CustomReflectable`, and a
/// conformance a type lacks is known only after a search of every library's records, in each
/// child. Asked once in the server, the answers are in the runtime's conformance cache that
/// every child inherits (measured on a failed task's error printed: 1,089 runs/s with the
/// `Mirror` warmed alone, 1,187 with the types asked too). Only what `main.swift` can name:
/// the non-generic structs, enums, classes and actors of the top level and the types nested in
/// them, none `~Copyable` (no `Any.Type` holds one) and none under `@available`.
enum SnippetTypes {
    /// The declaration the harness's `main.swift` gets: `_gqSnippetTypes()`, which names them.
    static func declaration(for tree: SourceFileSyntax) -> String {
        let found = tree.statements.flatMap { item -> [String] in
            guard case .decl(let decl) = item.item else { return [] }
            return names(in: decl, prefix: "")
        }
        return "func _gqSnippetTypes() -> [Any.Type] { [\(found.map { "\($0).self" }.joined(separator: ", "))] }\n"
    }

    private static func names(in decl: DeclSyntax, prefix: String) -> [String] {
        guard [.structDecl, .enumDecl, .classDecl, .actorDecl].contains(decl.kind), let type = decl.asProtocol(DeclGroupSyntax.self),
            let name = decl.asProtocol(NamedDeclSyntax.self)?.name.text,
            decl.asProtocol(WithGenericParametersSyntax.self)?.genericParameterClause == nil,
            !(type.inheritanceClause?.inheritedTypes.contains { $0.type.is(SuppressedTypeSyntax.self) } ?? false),
            !isLimitedByAvailability(type)
        else { return [] }
        let qualified = prefix + name
        return [qualified] + type.memberBlock.members.flatMap { names(in: $0.decl, prefix: qualified + ".") }
    }

    /// `@available` may make the type unavailable where the harness names it: left out.
    private static func isLimitedByAvailability(_ type: some DeclGroupSyntax) -> Bool {
        type.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "available" }
    }
}
