import Foundation
import Quiz

/// A choice question in the drill: options lettered in the session's shuffled order, the
/// learner's letters read in that order.
final class ChoiceTurn: DrillTurn {
    let question: Question
    /// The options' indices as shown: letter `a` is `order[0]`.
    let order: [Int]
    let shownAt = Date()
    private let style: TerminalStyle
    private(set) var hintsGiven = 0

    init(question: Question, order: [Int], style: TerminalStyle) {
        self.question = question
        self.order = order
        self.style = style
    }

    private var lastLetter: String { OptionLetter.letter(max(order.count - 1, 0)) }

    func printStatement() {
        print(QuestionRenderer.statement(question, order: order, style: style), terminator: "")
        print("")
        print(style.wrappedLines(style.bold("Which options are right?") + " " + style.dim("their letters, e.g. a or a, c")))
    }

    var emptyAnswerMessage: String {
        "Choose with the letters a to \(lastLetter) (e.g. a or a, c), or :skip, :hint, :help."
    }

    /// The grade of `answer`, or nil after saying why it cannot be read.
    private func read(_ answer: String) -> ChoiceGrader.Grade? {
        do {
            return try ChoiceGrader.grade(answer, options: question.options, order: order)
        } catch {
            print(style.wrappedLines(style.yellow("I can't read that: \(error.message).")))
            return nil
        }
    }

    func grade(_ answer: String, note: String?) -> DrillResult? {
        guard let grade = read(answer) else { return nil }
        printVerdict(InterviewRenderer.choiceVerdict(grade, question: question, order: order, style: style), note: note, style: style)
        return DrillResult(grade.verdict)
    }

    func assess(_ answer: String) -> DrillResult? {
        read(answer).map { DrillResult($0.verdict) }
    }

    func debrief(_ answer: String?) -> String {
        let grade = answer.flatMap { try? ChoiceGrader.grade($0, options: question.options, order: order) }
        // The grade is on the answer's line above; the marks say the rest.
        var text = "\n"
        text += InterviewRenderer.choiceKey(question, order: order, chosen: grade?.chosen ?? [], style: style) + "\n"
        return text + style.bold("Why") + "\n" + QuestionRenderer.prose(question.explanation, style: style) + "\n"
    }

    /// How many options are right: it tells "choose all that apply" from "choose one" without
    /// saying which.
    func hint() {
        guard hintsGiven == 0 else {
            print(style.wrappedLines(style.dim("No more hints for a choice question: weigh each option on its own, or :skip.")))
            return
        }
        hintsGiven += 1
        let right = question.options.filter(\.isCorrect).count
        let statement = right == 1 ? "exactly one of the \(order.count) options is right" : "\(right) of the \(order.count) options are right"
        print(style.wrappedLines(style.yellow("Hint: ") + statement + "."))
    }

    let afterVerdict = "Enter: next question · :again · :score"

    /// The verdict shows everything already; the explanation again, for a second read.
    func more() {
        printExplanation(style: style)
    }

    func cancel() {}
}
