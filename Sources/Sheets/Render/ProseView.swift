import Foundation

/// What the templates see of prose and code. Every conditional is a Bool and every optional
/// part an empty array, never nil: Mustache looks a missing name up in the enclosing objects, so
/// a nil here would pick up a namesake from further out.
struct BlockView {
    var isParagraph = false
    var isBullets = false
    var isNumbered = false
    var isCode = false
    var runs: [RunView] = []
    var items: [ItemView] = []
    var codeLines: [CodeLineView] = []

    static func blocks(_ text: String) -> [BlockView] {
        Prose(text).blocks.map { block in
            switch block {
            case .paragraph(let runs): BlockView(isParagraph: true, runs: runs.map(RunView.init))
            case .bulletList(let items): BlockView(isBullets: true, items: items.map(ItemView.init))
            case .numberedList(let items): BlockView(isNumbered: true, items: items.map(ItemView.init))
            case .code(let lines): BlockView(isCode: true, codeLines: CodeLineView.lines(lines, numbered: false))
            }
        }
    }
}

struct ItemView {
    var runs: [RunView]

    init(_ runs: [Prose.Run]) {
        self.runs = runs.map(RunView.init)
    }
}

/// A stretch of prose: text, or a code span.
struct RunView {
    var text: String
    var isCode: Bool
    var span: CodeSpan

    init(_ run: Prose.Run) {
        text = run.text
        isCode = run.isCode
        span = CodeSpan(run.text)
    }
}

/// Text shown as code. Markdown needs its fence: one backtick more than the longest run of
/// backticks inside, and a space inside the fence when the code starts or ends with a backtick
/// (CommonMark's rule); HTML needs only `text`.
struct CodeSpan {
    var text: String
    var fence: String
    var pad: String

    init(_ text: String) {
        self.text = text
        var longest = 0
        var current = 0
        for character in text {
            current = character == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        fence = String(repeating: "`", count: longest + 1)
        pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
    }
}

/// One line of code with its number, right-aligned to the widest number.
struct CodeLineView {
    var lineNumber: String
    var source: String
    /// Lines are joined by newlines written before every line but the first.
    var isFirst: Bool

    static func lines(_ lines: [String], numbered: Bool) -> [CodeLineView] {
        let width = String(lines.count).count
        return lines.enumerated().map { index, line in
            let number = String(index + 1)
            return CodeLineView(
                lineNumber: numbered ? String(repeating: " ", count: width - number.count) + number : "",
                source: line, isFirst: index == 0)
        }
    }

    /// A snippet's lines, numbered, without the blank lines a YAML block leaves at its end.
    static func snippet(_ code: String) -> [CodeLineView] {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return CodeLineView.lines(lines, numbered: true)
    }
}
