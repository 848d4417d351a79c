import Foundation
import Quiz

/// A "which line?" question in the drill: the numbered code of a snippet that deadlocks or
/// races, and the learner names the line to change. The model grades it, by trying the change.
final class LineTurn: DrillTurn {
    let question: Question
    let shownAt = Date()
    private let culprits: CulpritLines?
    private let style: TerminalStyle
    private(set) var hintsGiven = 0

    init(question: Question, style: TerminalStyle) {
        self.question = question
        self.style = style
        self.culprits = question.code.flatMap { try? CulpritLines.find(in: $0, fileName: question.file).get() }
    }

    func printStatement() {
        if let code = question.code { print(QuestionRenderer.numbered(code, style: style)) }
        print(QuestionRenderer.prose(question.prompt ?? culprits?.defaultPrompt ?? "Which line would you change?", style: style))
        print(style.wrappedLines(style.bold("Which line?") + " " + style.dim("its number, e.g. 5")))
    }

    let emptyAnswerMessage = "Answer with a line number, or :skip, :hint, :help."

    /// The grade of `answer`, or nil after saying why it cannot be read.
    private func read(_ answer: String) -> LineGrade? {
        guard let culprits else {
            print(style.wrappedLines(style.yellow("The model cannot check this snippet; :skip to go on.")))
            return nil
        }
        do {
            return try culprits.grade(answer)
        } catch {
            print(style.wrappedLines(style.yellow("I can't read that: \(error.message).")))
            return nil
        }
    }

    private func verdict(_ grade: LineGrade) -> String {
        let word = grade.isRight ? style.green("right") : style.red("wrong")
        let lines = culprits.map { $0.fixes.count == 1 ? "The line to change: \($0.fixList)." : "Lines that would do: \($0.fixList)." } ?? ""
        return "\(word): \(grade.reason).\n\(lines)\n"
    }

    func grade(_ answer: String, note: String?) -> DrillResult? {
        guard let grade = read(answer) else { return nil }
        printVerdict(verdict(grade), note: note, style: style)
        return grade.isRight ? .right : .wrong
    }

    func assess(_ answer: String) -> DrillResult? {
        read(answer).map { $0.isRight ? .right : .wrong }
    }

    func debrief(_ answer: String?) -> String {
        let grade = answer.flatMap { try? culprits?.grade($0) }
        let key = grade.map(verdict) ?? (culprits.map { "Lines that would do: \($0.fixList).\n" } ?? "")
        return "\n" + style.wrappedLines(key) + "\n" + style.bold("Why") + "\n" + QuestionRenderer.prose(question.explanation, style: style) + "\n"
    }

    /// What goes wrong, in the model's words; then nothing more: the line is the answer.
    func hint() {
        guard hintsGiven == 0, let culprits else {
            print(style.wrappedLines(style.dim("No more hints: try a line; a wrong one is explained.")))
            return
        }
        hintsGiven += 1
        print(style.wrappedLines(style.yellow("Hint: ") + "the snippet \(culprits.failureDescription); look for the line that waits, or that waits on itself."))
    }

    let afterVerdict = "Enter: next question · :again · :score"

    func more() {
        printExplanation(style: style)
    }

    func cancel() {}
}
