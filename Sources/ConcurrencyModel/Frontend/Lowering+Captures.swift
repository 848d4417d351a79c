import SwiftSyntax

/// Local variables that closures capture. A closure sees a local `let` as it was when the closure
/// was made (the model's capture by value is exact for it), but a local `var` by reference: the
/// closure and the code around it share one variable (Swift boxes it). A captured `var` that
/// anything changes after a closure captures it is therefore shared storage, like a top-level
/// variable: its reads and writes are steps, and two threads at it are a race.
extension Lowering {
    /// Whether the local `var` declared by `declaration` must be shared storage; reports (and
    /// answers nil) when it would need one per loop iteration or per run of its closure.
    mutating func needsSharedStorage(_ declaration: VariableDeclSyntax, name: String) -> Bool? {
        guard declaration.bindingSpecifier.tokenKind == .keyword(.var),
            let item = declaration.parent?.as(CodeBlockItemSyntax.self), let items = item.parent?.as(CodeBlockItemListSyntax.self),
            let position = items.firstIndex(where: { $0.id == item.id })
        else { return false }
        let later = items[items.index(after: position)...]
        let scan = CapturedChanges(name: name)
        for sibling in later { scan.walk(sibling) }
        guard scan.isCaptured && scan.isChanged else { return false }
        if let repeated = Self.repeatingAncestor(of: Syntax(declaration)) {
            report("'\(name)' is captured by a closure and changed, and declared inside \(repeated): each run has a variable of its own, outside the supported subset (declare it once, outside)",
                   Syntax(declaration))
            return nil
        }
        return true
    }

    /// A loop or a `concurrentPerform` around a declaration: it runs more than once.
    private static func repeatingAncestor(of node: Syntax) -> String? {
        var current = node.parent
        while let parent = current {
            if parent.is(ForStmtSyntax.self) || parent.is(WhileStmtSyntax.self) || parent.is(RepeatStmtSyntax.self) { return "a loop" }
            if let call = parent.as(FunctionCallExprSyntax.self),
                call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "concurrentPerform" {
                return "concurrentPerform's closure"
            }
            current = parent.parent
        }
        return nil
    }
}

/// Looks, in the code after a declaration, for a closure that reads or writes the name (without
/// a capture list copying it) and for any write of the name.
private final class CapturedChanges: SyntaxVisitor {
    let name: String
    private(set) var isCaptured = false
    private(set) var isChanged = false
    private var closureDepth = 0

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        // `[name]` or `[name = …]` copies it: inside, the name is the copy.
        if node.signature?.capture?.items.contains(where: { $0.name.text == name }) == true { return .skipChildren }
        closureDepth += 1
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) {
        if node.signature?.capture?.items.contains(where: { $0.name.text == name }) != true { closureDepth -= 1 }
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name && closureDepth > 0 { isCaptured = true }
        return .skipChildren
    }

    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        let isAssignment = node.operator.is(AssignmentExprSyntax.self)
            || ["+=", "-=", "*=", "/="].contains(node.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? "")
        if isAssignment, Self.root(of: node.leftOperand) == name { isChanged = true }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), ["append", "removeAll", "removeLast", "insert", "sort", "reverse"].contains(member.declName.baseName.text),
            let base = member.base, Self.root(of: base) == name {
            isChanged = true
        }
        return .visitChildren
    }

    /// The variable an assignment's target names: `x`, `x[i]`.
    private static func root(of target: ExprSyntax) -> String? {
        if let reference = target.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let subscriptCall = target.as(SubscriptCallExprSyntax.self) { return root(of: subscriptCall.calledExpression) }
        return nil
    }
}
