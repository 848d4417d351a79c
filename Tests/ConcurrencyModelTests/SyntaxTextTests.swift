@testable import ConcurrencyModel
import SwiftParser
import SwiftSyntax
import Testing

/// Lowering reads names and callees as `sourceText`, not swift-syntax's `trimmedDescription`
/// (which copies the subtree first): the two must agree on every node.
@Suite struct SyntaxTextTests {
    /// Every node of the tree, the tree included.
    static func nodes(of tree: some SyntaxProtocol) -> [Syntax] {
        var found: [Syntax] = [Syntax(tree)]
        var index = 0
        while index < found.count {
            found += found[index].children(viewMode: .sourceAccurate)
            index += 1
        }
        return found
    }

    @Test(arguments: [
        WidthProbeTests.counter,
        """
        // a comment before
        let queue = DispatchQueue(label: "q")   /* trailing */
        queue.async {
            print("é \\(1 + 2)")  // after
        }

        """,
        "   \n\t",
        "",
    ])
    func agreesWithTrimmedDescription(_ source: String) {
        let tree = Parser.parse(source: source)
        for node in Self.nodes(of: tree) {
            #expect(node.sourceText == node.trimmedDescription, "\(node.kind)")
        }
    }
}
