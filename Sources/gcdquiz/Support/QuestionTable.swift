import Foundation
import Quiz

/// The bank as a table: id, kind, level, title, tags.
enum QuestionTable {
    static func render(_ questions: [Question], style: TerminalStyle) -> String {
        guard !questions.isEmpty else { return "  (no questions)\n" }
        let idWidth = questions.map { TerminalColumns.width($0.id) }.max()!
        let titleWidth = min(questions.map { TerminalColumns.width($0.title) }.max()!, 48)
        let rows = questions.map { question in
            let title = TerminalColumns.padded(TerminalColumns.truncated(question.title, to: titleWidth), to: titleWidth)
            return "  \(style.bold(TerminalColumns.padded(question.id, to: idWidth)))  \(question.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) L\(question.level)  \(title)  \(style.dim(question.tags.joined(separator: ", ")))"
        }
        if let width = style.width, rows.contains(where: { TerminalColumns.width($0) > width }) {
            return questions.map { stacked($0, style: style) }.joined()
        }
        return rows.map { $0 + "\n" }.joined()
    }

    /// One question in two lines, for a terminal too narrow for the table's rows: the id, kind,
    /// level and topics, then the title under them, each wrapped at the terminal's width.
    private static func stacked(_ question: Question, style: TerminalStyle) -> String {
        let heading = "  " + style.bold(question.id) + "  " + style.dim("\(question.kind.rawValue) L\(question.level) · " + question.tags.joined(separator: ", "))
        return style.wrapped(heading, firstLineWidth: 0, indent: 6) + "\n" + style.wrapped("    " + question.title, firstLineWidth: 0, indent: 4) + "\n"
    }
}
