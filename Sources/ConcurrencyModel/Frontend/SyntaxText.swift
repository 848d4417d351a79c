import SwiftSyntax

extension SyntaxProtocol {
    /// The node's text without the trivia around it: what `trimmedDescription` gives, read off
    /// the node's own text. `trimmedDescription` makes a detached copy of the whole subtree and
    /// rewrites its first and last tokens through key paths first; lowering asks it for most
    /// names and callees, which was a tenth of compiling a snippet.
    var sourceText: String {
        let text = description
        let leading = leadingTriviaLength.utf8Length
        let trailing = trailingTriviaLength.utf8Length
        let utf8 = text.utf8
        guard leading + trailing < utf8.count else { return "" }
        let start = utf8.index(utf8.startIndex, offsetBy: leading)
        let end = utf8.index(utf8.endIndex, offsetBy: -trailing)
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
