import Quiz
import Yams

/// A generated puzzle as a question file, in the bank's format: the same fields in the same
/// order, code and explanation as literal blocks, so that `gcdquiz validate`, `show`, `solve`
/// and the drill read it like any other question.
public enum QuestionWriter {
    public static func yaml(_ question: Question) -> String {
        func plain(_ text: String) -> Node { Node(text) }
        func block(_ text: String) -> Node {
            Node(text.hasSuffix("\n") ? text : text + "\n", Tag(.str), .literal)
        }
        var fields: [(Node, Node)] = [
            (plain("id"), plain(question.id)),
            (plain("title"), plain(question.title)),
            (plain("kind"), plain(question.kind.rawValue)),
            (plain("level"), plain(String(question.level))),
            (plain("tags"), Node(question.tags.map(plain), Tag(.seq), .flow)),
            (plain("source"), plain(question.source)),
            (plain("generated"), plain(question.isGenerated ? "true" : "false")),
        ]
        if let code = question.code { fields.append((plain("code"), block(code))) }
        fields.append((plain("explanation"), block(wrapped(question.explanation, width: 92))))
        let node = Node.mapping(Node.Mapping(fields))
        // Serialising a mapping of plain strings cannot fail; an empty file would fail validation.
        return (try? Yams.serialize(node: node, width: -1, allowUnicode: true)) ?? ""
    }

    /// Paragraphs broken into lines of at most `width` characters, as the bank's files are
    /// written (the drill reflows them to the terminal anyway); a list item's continuation lines
    /// are indented under its text, which is how the renderer tells them from a new paragraph.
    static func wrapped(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph -> String in
            let indent = paragraph.hasPrefix("- ") ? "  " : ""
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = indent
                }
                line += (line.isEmpty || line == indent ? "" : " ") + word
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
