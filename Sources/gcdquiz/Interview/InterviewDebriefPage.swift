import Foundation
import Quiz

/// One question of a mock interview's debrief: the question's title, the learner's answer (or
/// that there was none, and why), then the verdict, the right answer and the explanation; fitted
/// to the screen, with what does not fit kept for `:more`.
struct InterviewDebriefPage {
    let item: InterviewREPL.Asked
    let number: Int
    let of: Int
    let limit: Double
    let style: TerminalStyle

    var header: String {
        let question = item.turn.question
        let rule = String(repeating: "─", count: 4)
        var text = "\n" + style.wrappedLines(style.dim("\(rule) \(number)/\(of) \(rule)") + " " + style.bold(question.title), hanging: 0) + "\n"
        text += style.wrappedLines(style.dim("\(question.id) · level \(question.level) · \(question.tags.joined(separator: ", "))"), hanging: 0) + "\n\n"
        // What was asked: the code, or the question (a choice question's options come marked below).
        if let code = question.code { text += QuestionRenderer.numbered(code, style: style) }
        if let prompt = question.prompt { text += QuestionRenderer.prose(prompt, style: style) + "\n" }
        text += "\n"
        let said: String
        switch (item.ending, item.answer) {
        case (.answered, let answer?):
            said = "Your answer (\(InterviewREPL.clock(item.seconds)) of \(InterviewREPL.clock(limit))): " + style.bold(answer)
        case (.timeUp, let answer?):
            said = "Your answer as it stood when the time ran out: " + style.bold(answer)
        case (.timeUp, nil):
            said = "No answer: the time ran out."
        case (.passed, _), (.answered, nil):
            said = "No answer: you passed it."
        }
        let verdict = item.answer == nil ? "" : style.dim(" — \(InterviewREPL.spoken(item.grade))")
        return text + style.wrappedLines(said + verdict) + "\n"
    }

    var body: String { item.turn.debrief(item.answer) }

    /// What fits a screen of `height` lines above the prompt, and the rest for `:more`.
    func fitted(height: Int) -> (shown: String, rest: String) {
        let whole = header + body
        let budget = height - 2
        guard style.screenLines(whole) > budget else { return (whole, "") }
        var lines = whole.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var shown: [String] = []
        var used = 0
        for line in lines {
            let next = style.screenLines(line)
            if used + next > budget - 1 { break }
            shown.append(line)
            used += next
        }
        // A heading or a blank line does not end a page: it goes with what follows it.
        while let last = shown.last, last.trimmingCharacters(in: .whitespaces).isEmpty || last == style.bold("Why") { shown.removeLast() }
        let rest = lines.dropFirst(shown.count).joined(separator: "\n") + "\n"
        return (shown.joined(separator: "\n") + "\n" + style.dim("… :more shows the rest of this question") + "\n", rest)
    }
}
