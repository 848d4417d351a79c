import SwiftIDEUtils
import SwiftParser
import SwiftSyntax

/// Colours Swift code for the terminal with swift-syntax's own classification (keywords, types,
/// literals, comments), so the snippet reads as it would in an editor.
enum CodeHighlighter {
    static func highlight(_ code: String, style: TerminalStyle) -> String {
        guard style.enabled else { return code }
        let tree = Parser.parse(source: code)
        let bytes = Array(code.utf8)
        var result = ""
        var offset = 0
        for range in tree.classifications {
            let start = range.range.lowerBound.utf8Offset
            let end = range.range.upperBound.utf8Offset
            guard start >= offset, end <= bytes.count else { continue }
            result += String(decoding: bytes[offset..<start], as: UTF8.self)
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            result += colour(text, range.kind, style: style)
            offset = end
        }
        result += String(decoding: bytes[offset...], as: UTF8.self)
        return result
    }

    private static func colour(_ text: String, _ kind: SyntaxClassification, style: TerminalStyle) -> String {
        switch kind {
        case .keyword: style.magenta(text)
        case .type: style.cyan(text)
        case .stringLiteral: style.red(text)
        case .integerLiteral, .floatLiteral: style.blue(text)
        case .lineComment, .blockComment, .docLineComment, .docBlockComment: style.dim(text)
        case .argumentLabel: style.yellow(text)
        default: text
        }
    }
}
