import SwiftSyntax

/// Whether the top-level code itself awaits (an `await`, a `for await`, an `async let`), outside
/// every closure and declaration of a function or type.
public enum TopLevelAwait {
    /// Whether `tree`'s top-level code awaits: then it is an async context (swiftc's rule), and a
    /// compiled program's main is async.
    public static func found(in tree: some SyntaxProtocol) -> Bool {
        let finder = TopLevelAwaitFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.found
    }
}

extension VariableDeclSyntax {
    /// `async let x = …`: a child task the declaration starts.
    public var isAsyncLet: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.async) }
    }
}

private final class TopLevelAwaitFinder: SyntaxVisitor {
    var found = false

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.awaitKeyword != nil { found = true }
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.isAsyncLet { found = true }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
