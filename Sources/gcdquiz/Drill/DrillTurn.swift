import Foundation
import Quiz

/// The question on screen and what the drill needs to ask it and grade its answer. One
/// conformer per kind of question, so the REPL itself never asks which kind it has.
protocol DrillTurn: AnyObject {
    var question: Question { get }
    var shownAt: Date { get }
    /// Prints what is asked (code, question, options) and what to answer.
    func printStatement()
    /// Said when the learner presses Enter without an answer.
    var emptyAnswerMessage: String { get }
    /// Grades `answer` and prints the verdict (with `note` under it) and what explains it.
    /// Returns nil, after saying why, when the answer cannot be read: the question is then asked
    /// again, and nothing is counted.
    func grade(_ answer: String, note: String?) -> DrillResult?
    /// Grades `answer` without showing the verdict (a mock interview shows them all at the end);
    /// nil, after saying why, when the answer cannot be read.
    func assess(_ answer: String) -> DrillResult?
    /// Prints the next hint, or that there is none left.
    func hint()
    /// How many hints were given so far.
    var hintsGiven: Int { get }
    /// Prints what the verdict left out for lack of room (`:more`), after an answer.
    func more()
    /// What the learner can do once the verdict is shown.
    var afterVerdict: String { get }
    /// Stops work started for the question (live runs) when the learner moves on.
    func cancel()
    /// After a mock interview: the verdict on `answer` (nil: none was given) and the right
    /// answer, with the explanation, all of it (the debrief fits it to the screen).
    func debrief(_ answer: String?) -> String
}

extension DrillTurn {
    /// The verdict of a choice or short answer, the note under it, then the question's
    /// explanation.
    func printVerdict(_ verdict: String, note: String?, style: TerminalStyle) {
        print("")
        print(style.wrappedLines(verdict), terminator: "")
        if let note { print(style.wrappedLines(style.dim(note))) }
        print("")
        printExplanation(style: style)
    }

    func printExplanation(style: TerminalStyle) {
        print(style.bold("Why") + "\n" + QuestionRenderer.prose(question.explanation, style: style))
    }
}

extension DrillResult {
    /// A choice or short verdict as the drill records it.
    init(_ verdict: ChoiceGrader.Verdict) {
        switch verdict {
        case .right: self = .right
        case .partial: self = .partial
        case .wrong: self = .wrong
        }
    }
}

extension DrillSession {
    /// The turn that asks `question` (the `asked`-th question shown): nil when a trace or
    /// schedule puzzle's code does not compile. `live`: the live runs of an earlier turn of the
    /// same puzzle (`:again`), reused rather than started again.
    func turn(for question: Question, liveRuns: Int, asked: Int, style: TerminalStyle, live: BackgroundLiveRun? = nil) -> DrillTurn? {
        switch question.kind {
        case .trace:
            TraceTurn(question: question, program: try? bank.program(of: question).get(), liveRuns: liveRuns, seed: seed, asked: asked,
                      style: style, live: live)
        case .choice:
            ChoiceTurn(question: question, order: optionOrder(for: question), style: style)
        case .short:
            ShortTurn(question: question, style: style)
        case .schedule:
            ScheduleTurn(question: question, program: try? bank.program(of: question).get(), style: style)
        case .line:
            LineTurn(question: question, style: style)
        }
    }
}
