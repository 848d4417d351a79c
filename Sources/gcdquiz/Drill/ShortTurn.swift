import Foundation
import Quiz

/// A short question in the drill: a free answer graded by its key ideas, then the model answer.
/// Matching phrasings can misjudge a good answer, so the learner may overrule the grade.
final class ShortTurn: DrillTurn {
    let question: Question
    let shownAt = Date()
    private let style: TerminalStyle
    private(set) var hintsGiven = 0

    init(question: Question, style: TerminalStyle) {
        self.question = question
        self.style = style
    }

    func printStatement() {
        print(QuestionRenderer.statement(question, order: [], style: style), terminator: "")
        print("")
        print(style.wrappedLines(style.bold("Your answer?") + " " + style.dim("a sentence or two, on one line")))
    }

    let emptyAnswerMessage = "Answer in a sentence or two, or :skip, :hint, :help."

    /// The grade of `answer`, or nil after saying why it cannot be read.
    private func read(_ answer: String) -> ShortAnswerGrader.Grade? {
        do {
            return try ShortAnswerGrader.grade(answer, question: question)
        } catch {
            print(style.wrappedLines(style.yellow("I can't read that: \(error.message).")))
            return nil
        }
    }

    func grade(_ answer: String, note: String?) -> DrillResult? {
        guard let grade = read(answer) else { return nil }
        printVerdict(InterviewRenderer.shortVerdict(grade, question: question, style: style), note: note, style: style)
        return DrillResult(grade.verdict)
    }

    func assess(_ answer: String) -> DrillResult? {
        read(answer).map { DrillResult($0.verdict) }
    }

    func debrief(_ answer: String?) -> String {
        let grade = answer.flatMap { try? ShortAnswerGrader.grade($0, question: question) }
        let key = grade.map { InterviewRenderer.shortVerdict($0, question: question, style: style) }
            ?? InterviewRenderer.shortKey(question, style: style)
        return "\n" + style.wrappedLines(key) + "\n" + style.bold("Why") + "\n" + QuestionRenderer.prose(question.explanation, style: style) + "\n"
    }

    /// How many key ideas a full answer has: the size of the answer expected, not its content.
    func hint() {
        guard hintsGiven == 0 else {
            print(style.wrappedLines(style.dim("No more hints for a short question: say it in your own words; the model answer comes after the grade (or :skip).")))
            return
        }
        hintsGiven += 1
        let count = question.keyIdeas.count
        print(style.wrappedLines(style.yellow("Hint: ") + (count == 1 ? "a full answer makes one key idea." : "a full answer makes \(count) key ideas.")))
    }

    let afterVerdict = "Enter: next question · :right or :wrong overrules the grade · :again · :score"

    /// The verdict shows everything already; the explanation again, for a second read.
    func more() {
        printExplanation(style: style)
    }

    func cancel() {}
}
