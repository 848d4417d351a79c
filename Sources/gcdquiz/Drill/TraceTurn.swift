import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

/// A trace puzzle in the drill: the model's outcomes, the grader, and live runs on libdispatch
/// started while the learner types. Only here do `:explain` and `:run` make sense.
final class TraceTurn: DrillTurn {
    let question: Question
    let exploration: Exploration
    let grader: TraceGrader
    let shownAt = Date()
    /// The live runs started for the puzzle (or kept from its last turn).
    private(set) var live: BackgroundLiveRun?
    private let style: TerminalStyle
    /// Seeds `:run`, so a session run with `--seed` repeats.
    private let runSeed: UInt64
    private(set) var hintsGiven = 0

    /// The longest the drill waits for the model before it skips a question.
    static let explorationSeconds = 5.0

    /// Nil when the snippet does not compile, or the model cannot explore it within its budget
    /// (the bank normally leaves such puzzles out; `validate` names them): the drill skips it
    /// rather than stall or grade against outcomes not all known.
    init?(question: Question, program: Program?, liveRuns: Int, seed: UInt64, asked: Int, style: TerminalStyle, live kept: BackgroundLiveRun? = nil) {
        guard let program else { return nil }
        let exploration = Explorer(timeBudget: Self.explorationSeconds).explore(program)
        guard exploration.isComplete else { return nil }
        self.question = question
        self.style = style
        self.exploration = exploration
        grader = TraceGrader(exploration: exploration)
        runSeed = seed &+ UInt64(asked) &* 31
        let runs = LiveRunBudget.runs(liveRuns, for: program, exploration: exploration)
        live = kept ?? (runs > 0 ? BackgroundLiveRun(code: question.code ?? "", program: program, runs: runs, seed: seed &+ UInt64(asked)) : nil)
    }

    func printStatement() {
        print(QuestionRenderer.statement(question, order: [], style: style), terminator: "")
        print(PreludeRenderer.barrierNote(code: question.code ?? "", style: style), terminator: "")
        print(style.wrappedLines(style.bold("What can it print?") + " " + style.dim(AnswerNotation.reminder)))
        print(style.wrappedLines(style.dim("  e.g. \(AnswerNotation.example)")))
    }

    var emptyAnswerMessage: String { "Type your prediction (\(AnswerNotation.example)), or :skip, :hint, :help." }

    let afterVerdict = "Enter: next · :more the rest · :explain OUTCOME · :again · :score"

    func cancel() { live?.cancel() }

    // MARK: Grading

    /// The last result shown, for `:more`.
    private var result: TraceResult?

    /// The grade of `answer`, or nil after saying why it cannot be read.
    private func read(_ answer: String) -> TraceGrade? {
        do {
            return try grader.grade(answer)
        } catch {
            print(style.wrappedLines(style.yellow("I can't read that: \(error.message).") + " Write \(AnswerNotation.reminder):"))
            print("  e.g. " + style.bold(AnswerNotation.example))
            return nil
        }
    }

    func grade(_ answer: String, note: String?) -> DrillResult? {
        guard let grade = read(answer) else { return nil }
        let result = TraceResult(
            grade: grade, exploration: exploration, histogram: liveHistogram(), explanation: question.explanation,
            note: note, style: style)
        self.result = result
        print(result.screen(footer: afterVerdict), terminator: "")
        return Self.result(grade.verdict)
    }

    func assess(_ answer: String) -> DrillResult? {
        read(answer).map { Self.result($0.verdict) }
    }

    private static func result(_ verdict: TraceVerdict) -> DrillResult {
        switch verdict {
        case .exact: .right
        case .incomplete: .partial
        case .wrong: .wrong
        }
    }

    func debrief(_ answer: String?) -> String {
        let graded = answer.flatMap { try? grader.grade($0) }
        var result = TraceResult(grade: graded ?? grader.grade([]), exploration: exploration, histogram: nil,
                                 explanation: question.explanation, note: nil, style: style)
        result.answered = graded != nil
        return result.whole()
    }

    func more() {
        guard let result else { return }
        print(result.more(), terminator: "")
    }

    /// The live runs' histogram, once they are done. At a terminal a status line says what is
    /// being waited for, and is erased once the runs are in; Ctrl-C skips the wait (the verdict
    /// comes without them).
    private func liveHistogram() -> LiveHistogram? {
        guard let live else { return nil }
        // Cleared before saying Ctrl-C skips them, so that a Ctrl-C right after it counts.
        InterruptHandler.clear()
        let waiting = !live.isReady && style.height != nil
        if waiting { print(style.dim("(finishing the live runs on libdispatch… Ctrl-C skips them)"), terminator: "") ; fflush(nil) }
        let outcome = live.wait(stoppingWhen: { InterruptHandler.wasInterrupted })
        if waiting { print("\r\u{1B}[2K", terminator: "") }
        // Ctrl-C reaches the runs' workers too: should they end first, the runs still count as
        // skipped.
        guard let outcome, !InterruptHandler.wasInterrupted else {
            live.cancel()
            self.live = nil
            InterruptHandler.clear()
            print(style.wrappedLines(style.dim("(live runs skipped: Ctrl-C; :run runs the snippet again)")))
            return nil
        }
        if case .success(let histogram) = outcome { return histogram }
        return nil
    }

    // MARK: Help

    /// The hints, the rule that decides the puzzle first: worked out at the first `:hint`.
    private lazy var rules = DecidingRules.ordered(exploration)

    func hint() {
        guard hintsGiven < rules.count else {
            print(style.wrappedLines(style.dim("No more hints. :explain OUTCOME tells whether an outcome can happen, and how.")))
            return
        }
        let rule = rules[hintsGiven]
        hintsGiven += 1
        print(style.wrappedLines(style.yellow("Hint \(hintsGiven)/\(rules.count): ") + rule.statement + "."))
    }

    /// `:explain [OUTCOME]`: a schedule for an outcome, or why none exists; every outcome's once
    /// the learner has answered. Returns whether something about the outcomes was shown.
    @discardableResult
    func explain(_ argument: String, answered: Bool) -> Bool {
        if argument.isEmpty {
            if !answered {
                print(style.wrappedLines(style.yellow("Give an outcome to explain, e.g. :explain 1 2 3 4 — or answer first.")))
                return false
            }
            print(ExplanationRenderer.render(exploration.outcomes, exploration: exploration, style: style), terminator: "")
            return true
        }
        do {
            let outcomes = try grader.read(argument)
            print(ExplanationRenderer.render(outcomes, exploration: exploration, style: style), terminator: "")
            return true
        } catch {
            print(style.wrappedLines(style.yellow("I can't read that outcome: \(error.message).")))
            return false
        }
    }

    /// `:schedule [GOAL]`: the scheduler's seat on this puzzle, with GOAL (or none). Returns
    /// whether it was shown (a goal that cannot be read is said instead).
    func schedule(_ goal: String) -> Bool {
        var target: PlayGoal?
        if !goal.isEmpty {
            do {
                target = try ScheduleGoal.read(goal, printable: grader.printable)
            } catch {
                print(style.wrappedLines(style.yellow("I can't read that goal: \(error.message).") + " Write an outcome (2 1 4 3, 1 deadlock), deadlock, crash or race."))
                return false
            }
        }
        let seat = ScheduleSeat(title: question.id, code: question.code ?? "", play: Playthrough(exploration: exploration, goal: target), style: style)
        if !seat.runAtTerminal() { seat.runReadingLines() }
        print(style.wrappedLines(style.dim("Scheduler's seat: " + seat.summary + ".")))
        return true
    }

    /// `:run [N]`: N live runs now, in the foreground; Ctrl-C stops them. Returns whether a
    /// histogram was shown.
    @discardableResult
    func runLive(_ argument: String) -> Bool {
        let runs = Int(argument) ?? 1000
        guard (1...1_000_000).contains(runs) else {
            print(style.wrappedLines(style.yellow("Give a number of runs from 1 to 1000000, e.g. :run 500")))
            return false
        }
        InterruptHandler.clear()
        // Runs that take more than a second say how far along they are, on standard error, as
        // `gcdquiz run` does; Ctrl-C stops them and the histogram says so.
        let progress = LiveProgressLine(total: runs)
        do {
            let histogram = try LiveRunner.selfHosted.run(
                code: question.code ?? "", program: exploration.program, options: .init(runs: runs, seed: runSeed),
                compiling: { print(style.dim("compiling with swiftc (once, cached)…")) }, onRun: progress.record,
                shouldStop: {
                    progress.tick()
                    return InterruptHandler.wasInterrupted
                })
            progress.clear()
            InterruptHandler.clear()
            let comparison = LiveComparison(histogram: histogram, exploration: exploration)
            print(HistogramRenderer.render(comparison, name: question.id, style: style, requested: runs), terminator: "")
            return true
        } catch {
            progress.clear()
            print(style.wrappedLines(style.red("The live run failed: \(error)")))
            return false
        }
    }
}
