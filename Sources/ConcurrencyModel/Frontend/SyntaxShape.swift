import SwiftSyntax

/// Bounds on the shape of a parsed snippet, checked before operator folding and lowering, which
/// recurse over the tree: an expression of thousands of operators (`1 + 1 + … + 1`) folds into a
/// tree thousands of levels deep and would overflow the stack. Walks without recursion.
enum SyntaxShape {
    /// Operators in one expression.
    static let maximumOperators = 100
    /// Levels of the syntax tree (a closure nested ten deep is about 80).
    static let maximumDepth = 300

    /// The first node that breaks a bound, with the message to report at it.
    static func tooDeep(_ tree: some SyntaxProtocol) -> (String, Syntax)? {
        var stack: [(Syntax, Int)] = [(Syntax(tree), 1)]
        while let (node, depth) = stack.popLast() {
            if depth > maximumDepth {
                return ("the code is nested too deeply here for gcdquiz to read", node)
            }
            if let sequence = node.as(SequenceExprSyntax.self), sequence.elements.count > 2 * maximumOperators + 1 {
                return ("this expression has more than \(maximumOperators) operators: split it up", node)
            }
            for child in node.children(viewMode: .sourceAccurate).reversed() {
                stack.append((child, depth + 1))
            }
        }
        return nil
    }
}
