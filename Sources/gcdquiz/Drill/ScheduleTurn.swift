import ConcurrencyModel
import Foundation
import Quiz

/// A schedule question in the drill: the learner takes the scheduler's seat (Enter or
/// `:schedule`) and picks moves until the goal is reached, or shown out of reach of every
/// schedule, or leaves. Reached (or shown) counts as right, with the hints used noted (FSRS
/// Hard); leaving without it as wrong ("gave up"). Piped, the moves can be typed as an answer.
final class ScheduleTurn: DrillTurn {
    let question: Question
    let exploration: Exploration
    let goal: PlayGoal
    let shownAt = Date()
    private let style: TerminalStyle
    private(set) var hintsGiven = 0
    /// The moves of the last try, as the log keeps the answer.
    private(set) var lastMoves = ""

    /// Nil when the snippet does not compile, cannot be explored within the drill's budget, or
    /// its goal cannot be read (`validate` names such questions).
    init?(question: Question, program: Program?, style: TerminalStyle) {
        guard let program, let text = question.goal else { return nil }
        let exploration = Explorer(timeBudget: TraceTurn.explorationSeconds).explore(program)
        guard exploration.isComplete, let goal = try? ScheduleGoal.read(text, printable: PrintableLines(exploration: exploration)) else {
            return nil
        }
        self.question = question
        self.exploration = exploration
        self.goal = goal
        self.style = style
    }

    func printStatement() {
        print(QuestionRenderer.statement(question, order: [], style: style), terminator: "")
        print(style.wrappedLines(style.bold("Goal: ") + exploration.narrator.words(for: goal) + "."))
        print(style.wrappedLines(style.dim("Enter takes the scheduler's seat: pick each move until the goal is reached, or you see why no schedule reaches it (then q). Or type the moves' numbers.")))
    }

    let emptyAnswerMessage = "Enter takes the scheduler's seat (:schedule does too)."

    /// Plays in the scheduler's seat; the result once the learner leaves.
    func play(note: String?) -> DrillResult {
        let seat = ScheduleSeat(title: question.id, code: question.code ?? "", play: Playthrough(exploration: exploration, goal: goal),
                                goalIsFixed: true, style: style)
        if !seat.runAtTerminal() { seat.runReadingLines() }
        hintsGiven += seat.hintsUsed
        lastMoves = seat.play.choices.map(String.init).joined(separator: " ")
        showVerdict(seat.settledAs, summary: seat.summary, note: note)
        return seat.settled ? .right : .wrong
    }

    /// Moves typed as an answer (`1 1 2 1`), replayed from the start.
    func grade(_ answer: String, note: String?) -> DrillResult? {
        guard let play = replay(answer) else { return nil }
        lastMoves = play.choices.map(String.init).joined(separator: " ")
        let summary = "moves " + lastMoves + ": " + exploration.narrator.words(for: play.status)
        showVerdict(play.status.isSettled ? play.status : nil, summary: summary, note: note)
        return play.status.isSettled ? .right : .wrong
    }

    func assess(_ answer: String) -> DrillResult? {
        replay(answer).map { $0.status.isSettled ? .right : .wrong }
    }

    private func replay(_ answer: String) -> Playthrough? {
        do {
            return try ScheduleAnswer.replay(answer, exploration: exploration, goal: goal)
        } catch {
            print(style.wrappedLines(style.yellow("I can't read that: \(error.message).") + " Or press Enter to take the scheduler's seat."))
            return nil
        }
    }

    private func showVerdict(_ settled: GoalStatus?, summary: String, note: String?) {
        let verdict: String
        switch settled {
        case .reached?: verdict = style.green(style.bold("Reached.")) + " " + summary
        case .some: verdict = style.green(style.bold("Shown: no schedule does it.")) + " " + summary
        case nil: verdict = style.red(style.bold("Gave up.")) + " " + summary
        }
        printVerdict(verdict, note: note, style: style)
    }

    /// A rule at work in the snippet, as for a trace puzzle; the seat's own `h` names moves.
    func hint() {
        let rules = exploration.program.rulesAtWork
        guard hintsGiven < rules.count else {
            print(style.wrappedLines(style.dim("No more hints here: in the scheduler's seat, h names the move that keeps the goal reachable.")))
            return
        }
        hintsGiven += 1
        print(style.wrappedLines(style.yellow("Hint \(hintsGiven)/\(rules.count): ") + rules[hintsGiven - 1].statement + "."))
    }

    /// A schedule that reaches the goal (for an outcome), then the explanation again.
    func more() {
        if case .outcome(let outcome) = goal, let report = exploration.report(for: outcome) {
            print(style.bold("A schedule that does it"))
            print(ScheduleRenderer.render(report.witness, narrator: exploration.narrator, style: style), terminator: "")
        }
        printExplanation(style: style)
    }

    let afterVerdict = "Enter: next question · :more a schedule that does it · :again · :score"

    func cancel() {}

    /// Schedule questions are left out of mock interviews; should one be debriefed, it says what
    /// the moves given (if any) came to, and the explanation.
    func debrief(_ answer: String?) -> String {
        let verdict: String
        if let answer, let play = try? ScheduleAnswer.replay(answer, exploration: exploration, goal: goal) {
            verdict = "moves " + answer + ": " + exploration.narrator.words(for: play.status)
        } else {
            verdict = "Goal: " + exploration.narrator.words(for: goal) + "."
        }
        return "\n" + style.wrappedLines(verdict) + "\n" + style.bold("Why") + "\n" + QuestionRenderer.prose(question.explanation, style: style) + "\n"
    }
}
