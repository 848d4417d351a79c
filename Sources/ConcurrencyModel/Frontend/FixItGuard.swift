import SwiftSyntax

/// Input on which swift-syntax's diagnostics generator traps instead of reporting, found by
/// fuzzing: checked on the tree before the generator sees it, and reported by us.
enum FixItGuard {
    /// An `=` the lexer finds spaced unequally (an unexpected character such as U+FFFD sits between
    /// it and a space: `x \u{FFFD}= 1`) while both its sides hold a space: the generator's fix-it
    /// would insert none and traps ("A Fix-It must have at least one change", swift-syntax 603).
    /// The place of the stray character, and the message for it.
    static func unfixableEqualSign(in tree: some SyntaxProtocol) -> (String, AbsolutePosition)? {
        for token in tree.tokens(viewMode: .all) where token.tokenDiagnostic?.kind == .equalMustHaveConsistentWhitespaceOnBothSides {
            let previous = token.previousToken(viewMode: .all)
            let spaceBefore = previous?.trailingTrivia.contains { $0.isSpaceOrTab } ?? false
            let spaceAfter = token.trailingTrivia.contains { $0.isSpaceOrTab }
            guard spaceBefore, spaceAfter else { continue }
            // The first piece between the previous token and '=' that is not a space or a tab.
            var position = previous?.endPositionBeforeTrailingTrivia ?? token.position
            for piece in Array(previous?.trailingTrivia ?? []) + Array(token.leadingTrivia) {
                if !piece.isSpaceOrTab { break }
                position += piece.sourceLength
            }
            return ("a character that is not Swift code stands before '=' here: delete it", position)
        }
        return nil
    }
}
