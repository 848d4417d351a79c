import DispatchModel
import Foundation
import LiveRun
import Quiz

/// The interactive drill: shows a puzzle, reads the prediction, grades it against the model,
/// shows reality beside it, and moves on. All terminal I/O of the drill lives here.
final class DrillREPL {
    private let session: DrillSession
    private let input: LineInput
    private let style: TerminalStyle
    private let liveRuns: Int
    private var active: ActiveQuestion?
    private var reviewing = false
    private var asked = 0

    /// The question on screen, with what the trainer computed for it.
    private final class ActiveQuestion {
        let question: Question
        let exploration: Exploration
        let grader: TraceGrader
        var live: BackgroundLiveRun?
        let shownAt = Date()
        var hintsGiven = 0

        init(question: Question, exploration: Exploration, live: BackgroundLiveRun?) {
            self.question = question
            self.exploration = exploration
            self.grader = TraceGrader(exploration: exploration)
            self.live = live
        }
    }

    init(session: DrillSession, input: LineInput, style: TerminalStyle, liveRuns: Int) {
        self.session = session
        self.input = input
        self.style = style
        self.liveRuns = liveRuns
        input.completer = { [session] before in Self.completions(before, session: session) }
    }

    func run() {
        welcome()
        while true {
            if active == nil {
                guard let question = session.current else {
                    print(style.bold("That was the last question."))
                    finish()
                    return
                }
                present(question)
            }
            let prompt = reviewing ? "next> " : "answer> "
            switch input.readLine(prompt: style.enabled ? style.bold(style.blue(prompt)) : prompt) {
            case .end:
                if input.isInteractive { print("") }
                finish()
                return
            case .interrupted:
                print(style.dim("(line dropped; Ctrl-D or :quit ends the session)"))
            case .line(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    if reviewing { moveOn() } else { print(style.dim("Type your prediction (\(AnswerNotation.example)), or :skip, :hint, :help.")) }
                    continue
                }
                input.remember(trimmed)
                if trimmed.hasPrefix(":") {
                    if !command(trimmed) { finish(); return }
                } else if reviewing {
                    print(style.dim("Press Enter for the next question, or :again to answer this one again."))
                } else {
                    grade(trimmed)
                }
            }
        }
    }

    // MARK: Showing a question

    private func welcome() {
        print(style.bold("gcdquiz") + " — predict every output a snippet can print; see the model's answer and libdispatch's.")
        print(style.dim("\(session.questions.count) question(s) · :help for commands · Ctrl-D ends the session"))
        print("")
    }

    private func present(_ question: Question) {
        asked += 1
        active?.live?.cancel()
        guard let program = try? question.program().get() else {
            print(style.red("\(question.id) cannot be loaded; skipping it."))
            session.advance()
            return
        }
        let exploration = Explorer().explore(program)
        // Runs that sleep take real time: fewer of them, so the histogram is still ready in time.
        let runs = program.usesTime ? min(liveRuns, 30) : liveRuns
        let live = runs > 0 ? BackgroundLiveRun(program: program, runs: runs, seed: session.seed &+ UInt64(asked)) : nil
        active = ActiveQuestion(question: question, exploration: exploration, live: live)
        reviewing = false
        printQuestion(question)
    }

    private func printQuestion(_ question: Question) {
        let number = (session.questions.firstIndex { $0.id == question.id } ?? session.position) + 1
        let rule = String(repeating: "─", count: 4)
        print(style.dim("\(rule) \(number)/\(session.questions.count) \(rule)") + " " + style.bold(question.title))
        print(style.dim("\(question.id) · level \(question.level) · \(question.tags.joined(separator: ", "))"))
        print("")
        if let code = question.code {
            print(QuestionRenderer.numbered(code, style: style), terminator: "")
        }
        print("")
        print(style.bold("What can it print?") + " " + style.dim(AnswerNotation.reminder))
        print(style.dim("  e.g. \(AnswerNotation.example)"))
    }

    // MARK: Grading

    private func grade(_ answer: String) {
        guard let active else { return }
        let grade: TraceGrade
        do {
            grade = try active.grader.grade(answer)
        } catch {
            print(style.yellow("I can't read that: \(error.message).") + " Write \(AnswerNotation.reminder), e.g. " + style.bold(AnswerNotation.example))
            return
        }
        print("")
        print(GradeRenderer.render(grade, style: style, showMissing: false), terminator: "")
        print("")
        print(outcomeTable(grade, active), terminator: "")
        for race in active.exploration.races {
            print(style.yellow("data race on \(race.variable):") + " \(OutcomeListRenderer.access(race.first)) and \(OutcomeListRenderer.access(race.second)) can happen at the same time")
        }
        print("")
        print(style.bold("Why") + "\n" + active.question.explanation.trimmingTrailingNewlines())
        if let missed = grade.missing.first, let report = active.exploration.report(for: missed) {
            print("")
            print(style.bold("A schedule you did not predict: ") + AnswerNotation.render(missed))
            print(ScheduleRenderer.render(report.witness, style: style), terminator: "")
        }
        let result: DrillResult
        switch grade.verdict {
        case .exact: result = .right
        case .incomplete: result = .partial
        case .wrong: result = .wrong
        }
        session.record(active.question, result, seconds: Date().timeIntervalSince(active.shownAt))
        reviewing = true
        print("")
        print(style.dim("Enter: next question · :again · :explain OUTCOME · :run · :score"))
    }

    /// Every possible outcome, with what the learner said and what the live runs showed.
    private func outcomeTable(_ grade: TraceGrade, _ active: ActiveQuestion) -> String {
        var histogram: LiveHistogram?
        if let live = active.live {
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
            for row in LiveComparison(histogram: histogram, exploration: active.exploration).unexpected {
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

    private func moveOn() {
        active?.live?.cancel()
        active = nil
        reviewing = false
        session.advance()
    }

    // MARK: Commands

    /// Runs a `:` command. Returns false when the session should end.
    private func command(_ line: String) -> Bool {
        let parsed: DrillCommandLine
        switch DrillCommandLine.parse(line) {
        case .success(let command): parsed = command
        case .failure(let error):
            print(style.yellow(error.message))
            return true
        }
        switch parsed.name {
        case .help:
            print(DrillCommandName.allCases.map { "  " + $0.usage }.joined(separator: "\n"))
            print(style.dim("  answers: \(AnswerNotation.reminder), e.g. \(AnswerNotation.example)"))
        case .hint:
            hint()
        case .skip:
            if let active, !reviewing {
                session.record(active.question, .skipped, seconds: Date().timeIntervalSince(active.shownAt))
                print(style.dim("Skipped \(active.question.id)."))
            }
            moveOn()
        case .again:
            guard let question = active?.question else { break }
            active?.live?.cancel()
            active = nil
            if !reviewing { session.advance() }
            session.again(question)
            reviewing = false
        case .explain:
            explain(parsed.argument)
        case .run:
            runLive(parsed.argument)
        case .show:
            if let question = active?.question { printQuestion(question) }
        case .list:
            listSession()
        case .goto:
            guard !parsed.argument.isEmpty else {
                print(style.yellow("Which question? :goto ID (Tab completes ids)"))
                break
            }
            if session.jump(to: parsed.argument) {
                active?.live?.cancel()
                active = nil
                reviewing = false
            } else {
                print(style.yellow("No question '\(parsed.argument)'; :list shows this session's, 'gcdquiz list' the whole bank."))
            }
        case .score:
            print(summaryText(final: false), terminator: "")
        case .quit:
            return false
        }
        return true
    }

    private func hint() {
        guard let active else { return }
        let rules = active.exploration.program.rulesAtWork
        guard active.hintsGiven < rules.count else {
            print(style.dim("No more hints. :explain OUTCOME tells whether an outcome can happen, and how."))
            return
        }
        let rule = rules[active.hintsGiven]
        active.hintsGiven += 1
        print(style.yellow("Hint \(active.hintsGiven)/\(rules.count): ") + rule.statement + ".")
    }

    private func explain(_ argument: String) {
        guard let active else { return }
        if argument.isEmpty {
            if !reviewing {
                print(style.yellow("Give an outcome to explain, e.g. :explain 1 2 3 4 — or answer first."))
                return
            }
            print(ExplanationRenderer.render(active.exploration.outcomes, exploration: active.exploration, style: style), terminator: "")
            return
        }
        do {
            let outcomes = try AnswerNotation.parse(argument, compactLines: active.grader.compactLines)
            print(ExplanationRenderer.render(outcomes, exploration: active.exploration, style: style), terminator: "")
        } catch {
            print(style.yellow("I can't read that outcome: \(error.message)."))
        }
    }

    private func runLive(_ argument: String) {
        guard let active else { return }
        let runs = Int(argument) ?? 1000
        guard (1...1_000_000).contains(runs) else {
            print(style.yellow("Give a number of runs from 1 to 1000000, e.g. :run 500"))
            return
        }
        InterruptHandler.clear()
        do {
            let histogram = try LiveRunner.selfHosted.run(
                active.exploration.program, options: .init(runs: runs, seed: session.seed &+ UInt64(asked) &* 31),
                shouldStop: { InterruptHandler.wasInterrupted })
            let comparison = LiveComparison(histogram: histogram, exploration: active.exploration)
            print(HistogramRenderer.render(comparison, name: active.question.id, style: style), terminator: "")
        } catch {
            print(style.red("The live run failed: \(error)"))
        }
    }

    private func listSession() {
        let results = Dictionary(session.records.map { ($0.questionID, $0.result) }, uniquingKeysWith: { $1 })
        for (index, question) in session.questions.enumerated() {
            let mark: String
            if index == session.position {
                mark = style.bold("▶")
            } else {
                switch results[question.id] {
                case .right: mark = style.green("✓")
                case .partial: mark = style.yellow("~")
                case .wrong: mark = style.red("✗")
                case .skipped: mark = style.dim("–")
                case nil: mark = " "
                }
            }
            print("  \(mark) \(question.id)  \(style.dim("L\(question.level) \(question.title)"))")
        }
    }

    // MARK: The end

    private func finish() {
        active?.live?.cancel()
        print(summaryText(final: true), terminator: "")
    }

    private func summaryText(final: Bool) -> String {
        let summary = session.summary
        let minutes = Int(summary.elapsed) / 60
        let seconds = Int(summary.elapsed) % 60
        var text = style.bold(final ? "Session over." : "Score so far.") + " \(summary.answered) answered in \(minutes)m \(seconds)s: "
        text += "\(summary.count(.right)) exact, \(summary.count(.partial)) incomplete, \(summary.count(.wrong)) wrong, \(summary.count(.skipped)) skipped.\n"
        if summary.answered > 0 {
            text += String(format: "Score %.1f / %d (%.0f%%).", summary.score, summary.answered, summary.accuracy * 100) + "\n"
            let tags = summary.byTag.map { entry in
                String(format: "%@ %.0f%% (%d)", entry.tag, entry.score / Double(entry.answered) * 100, entry.answered)
            }
            text += "By tag, weakest first: " + tags.joined(separator: ", ") + "\n"
        }
        return text
    }

    // MARK: Completion

    static func completions(_ before: String, session: DrillSession) -> [String] {
        guard before.hasPrefix(":") else { return [] }
        if !before.contains(" ") {
            return DrillCommandName.allCases.map { ":" + $0.rawValue }
        }
        if before.hasPrefix(":goto ") || before.hasPrefix(":g ") {
            return session.bank.questions.map(\.id)
        }
        return []
    }
}
