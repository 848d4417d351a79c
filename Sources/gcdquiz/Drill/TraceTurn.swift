import DispatchModel
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
    private var live: BackgroundLiveRun?
    private let style: TerminalStyle
    /// Seeds `:run`, so a session run with `--seed` repeats.
    private let runSeed: UInt64
    private var hintsGiven = 0

    /// Nil when the snippet does not compile (the bank normally leaves such puzzles out).
    init?(question: Question, program: Program?, liveRuns: Int, seed: UInt64, asked: Int, style: TerminalStyle) {
        guard let program else { return nil }
        self.question = question
        self.style = style
        exploration = Explorer().explore(program)
        grader = TraceGrader(exploration: exploration)
        runSeed = seed &+ UInt64(asked) &* 31
        let runs = LiveRunBudget.runs(liveRuns, for: program, exploration: exploration)
        live = runs > 0 ? BackgroundLiveRun(program: program, runs: runs, seed: seed &+ UInt64(asked)) : nil
    }

    func printStatement() {
        print(QuestionRenderer.statement(question, order: [], style: style), terminator: "")
        print(style.bold("What can it print?") + " " + style.dim(AnswerNotation.reminder))
        print(style.dim("  e.g. \(AnswerNotation.example)"))
    }

    var emptyAnswerMessage: String { "Type your prediction (\(AnswerNotation.example)), or :skip, :hint, :help." }

    let afterVerdict = "Enter: next question · :again · :explain OUTCOME · :run · :score"

    func cancel() { live?.cancel() }

    // MARK: Grading

    func grade(_ answer: String) -> DrillResult? {
        let grade: TraceGrade
        do {
            grade = try grader.grade(answer)
        } catch {
            print(style.yellow("I can't read that: \(error.message).") + " Write \(AnswerNotation.reminder), e.g. " + style.bold(AnswerNotation.example))
            return nil
        }
        print("")
        print(GradeRenderer.render(grade, style: style, showMissing: false), terminator: "")
        print("")
        print(outcomeTable(grade), terminator: "")
        for race in exploration.races {
            print(style.yellow("data race on \(race.variable):") + " \(OutcomeListRenderer.access(race.first)) and \(OutcomeListRenderer.access(race.second)) can happen at the same time")
        }
        print("")
        printExplanation(style: style)
        if let missed = grade.missing.first, let report = exploration.report(for: missed) {
            print("")
            print(style.bold("A schedule you did not predict: ") + AnswerNotation.render(missed))
            print(ScheduleRenderer.render(report.witness, style: style), terminator: "")
        }
        switch grade.verdict {
        case .exact: return .right
        case .incomplete: return .partial
        case .wrong: return .wrong
        }
    }

    /// Every possible outcome, with what the learner said and what the live runs showed.
    private func outcomeTable(_ grade: TraceGrade) -> String {
        var histogram: LiveHistogram?
        if let live {
            if !live.isReady { print(style.dim("(the live runs are still going…)")) }
            if case .success(let result) = live.wait() { histogram = result }
        }
        let impossible = grade.predicted.filter { !grade.possible.contains($0) }
        var rows: [(notation: String, mark: String, count: Int?)] = []
        for outcome in grade.possible {
            let mark = grade.predicted.contains(outcome) ? style.green("✓ you") : style.yellow("· missed")
            let count = histogram.map { $0.count(of: LiveOutcome(lines: outcome.lines, end: outcome.end == .finished ? .finished : .deadlock)) }
            rows.append((AnswerNotation.render(outcome), mark, count))
        }
        for outcome in impossible {
            rows.append((AnswerNotation.render(outcome), style.red("✗ impossible"), nil))
        }
        let width = max(rows.map(\.notation.count).max() ?? 0, 7)
        var text = style.dim("  " + "outcome".padding(toLength: width, withPad: " ", startingAt: 0) + "   you          "
            + (histogram.map { "live (\($0.runs) runs on libdispatch)" } ?? "")) + "\n"
        let largest = histogram?.entries.map(\.count).max() ?? 1
        for row in rows {
            var line = "  " + row.notation.padding(toLength: width, withPad: " ", startingAt: 0) + "   "
            line += row.mark + String(repeating: " ", count: max(0, 13 - visibleLength(row.mark)))
            if let count = row.count {
                line += String(format: "%5d ", count) + style.cyan(HistogramRenderer.bar(count, of: largest, width: 20))
            }
            text += line + "\n"
        }
        if let histogram {
            for row in LiveComparison(histogram: histogram, exploration: exploration).unexpected {
                let entry = row.entry
                text += "  " + style.red(style.bold("UNEXPECTED live outcome: \(entry.outcome.lines.joined(separator: " ")) \(entry.outcome.end.rawValue) ×\(entry.count)")) + "\n"
            }
        }
        return text
    }

    private func visibleLength(_ text: String) -> Int {
        var count = 0
        var inEscape = false
        for character in text {
            if character == "\u{1B}" { inEscape = true; continue }
            if inEscape { if character == "m" { inEscape = false }; continue }
            count += 1
        }
        return count
    }

    // MARK: Help

    func hint() {
        let rules = exploration.program.rulesAtWork
        guard hintsGiven < rules.count else {
            print(style.dim("No more hints. :explain OUTCOME tells whether an outcome can happen, and how."))
            return
        }
        let rule = rules[hintsGiven]
        hintsGiven += 1
        print(style.yellow("Hint \(hintsGiven)/\(rules.count): ") + rule.statement + ".")
    }

    /// `:explain [OUTCOME]`: a schedule for an outcome, or why none exists; every outcome's once
    /// the learner has answered.
    func explain(_ argument: String, answered: Bool) {
        if argument.isEmpty {
            if !answered {
                print(style.yellow("Give an outcome to explain, e.g. :explain 1 2 3 4 — or answer first."))
                return
            }
            print(ExplanationRenderer.render(exploration.outcomes, exploration: exploration, style: style), terminator: "")
            return
        }
        do {
            let outcomes = try AnswerNotation.parse(argument, compactLines: grader.compactLines)
            print(ExplanationRenderer.render(outcomes, exploration: exploration, style: style), terminator: "")
        } catch {
            print(style.yellow("I can't read that outcome: \(error.message)."))
        }
    }

    /// `:run [N]`: N live runs now, in the foreground; Ctrl-C stops them.
    func runLive(_ argument: String) {
        let runs = Int(argument) ?? 1000
        guard (1...1_000_000).contains(runs) else {
            print(style.yellow("Give a number of runs from 1 to 1000000, e.g. :run 500"))
            return
        }
        InterruptHandler.clear()
        do {
            let histogram = try LiveRunner.selfHosted.run(
                exploration.program, options: .init(runs: runs, seed: runSeed),
                shouldStop: { InterruptHandler.wasInterrupted })
            let comparison = LiveComparison(histogram: histogram, exploration: exploration)
            print(HistogramRenderer.render(comparison, name: question.id, style: style), terminator: "")
        } catch {
            print(style.red("The live run failed: \(error)"))
        }
    }
}
