import Foundation

/// A question's text (prompt, explanation, model answer) as blocks: paragraphs, lists and fenced
/// code, with `inline code` marked. The bank's texts use only these; each renderer escapes the
/// text for its format, so nothing in a question can turn into markup (Ink, the Markdown
/// dependency at hand, passes raw HTML through, which a sheet must never do).
public struct Prose: Sendable, Equatable {
    public enum Block: Sendable, Equatable {
        case paragraph([Run])
        case bulletList([[Run]])
        case numberedList([[Run]])
        /// A fenced code block, its lines as written (the fence's indentation removed).
        case code([String])
    }

    /// A stretch of text, or a `code span`.
    public struct Run: Sendable, Equatable {
        public var text: String
        public var isCode: Bool
    }

    public var blocks: [Block]

    public init(_ text: String) {
        var parser = ProseParser(text)
        blocks = parser.parse()
    }

    /// Plain text of one paragraph's runs (for titles and one-line fields).
    public static func plain(_ runs: [Run]) -> String {
        runs.map(\.text).joined()
    }

    /// Splits a line of text at backticks into text and code runs; an unpaired backtick is text.
    public static func runs(_ text: String) -> [Run] {
        var runs: [Run] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "`") else { break }
            if open > rest.startIndex { runs.append(Run(text: String(rest[..<open]), isCode: false)) }
            runs.append(Run(text: String(rest[afterOpen..<close]), isCode: true))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { runs.append(Run(text: String(rest), isCode: false)) }
        return runs
    }
}

/// Reads prose line by line: a blank line ends a paragraph; `- ` or `* ` starts a bullet item and
/// `1. ` a numbered one (their indented continuation lines join them); ``` fences code.
private struct ProseParser {
    let lines: [Substring]
    var blocks: [Prose.Block] = []
    var paragraph: [String] = []
    var items: [String] = []
    var itemsNumbered = false

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    mutating func parse() -> [Prose.Block] {
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                endParagraph()
                endList()
                let indent = line.prefix { $0 == " " }.count
                var code: [String] = []
                index += 1
                while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    let codeLine = lines[index]
                    let removable = min(indent, codeLine.prefix { $0 == " " }.count)
                    code.append(String(codeLine.dropFirst(removable)))
                    index += 1
                }
                blocks.append(.code(code))
                index += 1
                continue
            }
            if trimmed.isEmpty {
                endParagraph()
                endList()
            } else if let item = Self.listItem(trimmed), paragraph.isEmpty || !item.numbered || item.number == 1 {
                // As in CommonMark, only a list starting at 1 may interrupt a paragraph: "…, and 2
                // before\n4. The block…" is one paragraph wrapped, not a list.
                endParagraph()
                if !items.isEmpty && itemsNumbered != item.numbered { endList() }
                itemsNumbered = item.numbered
                items.append(item.text)
            } else if !items.isEmpty && line.first?.isWhitespace == true {
                items[items.count - 1] += " " + trimmed
            } else {
                endList()
                paragraph.append(trimmed)
            }
            index += 1
        }
        endParagraph()
        endList()
        return blocks
    }

    static func listItem(_ line: String) -> (text: String, numbered: Bool, number: Int)? {
        if line.hasPrefix("- ") || line.hasPrefix("* ") {
            return (String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces), false, 0)
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count < 10, line.dropFirst(digits.count).hasPrefix(". ") {
            return (String(line.dropFirst(digits.count + 2)).trimmingCharacters(in: .whitespaces), true, Int(digits) ?? 0)
        }
        return nil
    }

    mutating func endParagraph() {
        guard !paragraph.isEmpty else { return }
        blocks.append(.paragraph(Prose.runs(paragraph.joined(separator: " "))))
        paragraph = []
    }

    mutating func endList() {
        guard !items.isEmpty else { return }
        let runs = items.map(Prose.runs)
        blocks.append(itemsNumbered ? .numberedList(runs) : .bulletList(runs))
        items = []
    }
}
