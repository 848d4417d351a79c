import Foundation
import Quiz

/// The bank as a table: id, kind, level, title, tags.
enum QuestionTable {
    static func render(_ questions: [Question], style: TerminalStyle) -> String {
        guard !questions.isEmpty else { return "  (no questions)\n" }
        let idWidth = questions.map(\.id.count).max()!
        let titleWidth = min(questions.map(\.title.count).max()!, 48)
        var text = ""
        for question in questions {
            let id = question.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
            let title = String(question.title.prefix(titleWidth)).padding(toLength: titleWidth, withPad: " ", startingAt: 0)
            text += "  \(style.bold(id))  \(question.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) L\(question.level)  \(title)  \(style.dim(question.tags.joined(separator: ", ")))\n"
        }
        return text
    }
}
