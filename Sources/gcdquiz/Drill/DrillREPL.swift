import DispatchModel
import Foundation
import LiveRun
import Quiz

/// The interactive drill: shows a question, reads the answer, grades it (a trace against the
/// model, with reality beside it; a choice against its key; a short answer by its key ideas),
/// and moves on. All terminal I/O of the drill lives in this folder.
final class DrillREPL {
    private let session: DrillSession
    private let input: LineInput
    private let style: TerminalStyle
    private let liveRuns: Int
    private var active: DrillTurn?
    private var reviewing = false
    private var asked = 0

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
                print(style.dim("(line dropped: the up arrow brings it back; Ctrl-D or :quit ends the session)"))
            case .line(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    if reviewing { moveOn() } else if let active { print(style.dim(active.emptyAnswerMessage)) }
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
        active?.cancel()
        active = nil
        reviewing = false
        let turn: DrillTurn
        switch question.kind {
        case .trace:
            guard let trace = TraceTurn(question: question, program: try? session.bank.program(of: question).get(), liveRuns: liveRuns, seed: session.seed, asked: asked, style: style) else {
                print(style.red("\(question.id) cannot be loaded; skipping it."))
                session.advance()
                return
            }
            turn = trace
        case .choice:
            turn = ChoiceTurn(question: question, order: session.optionOrder(for: question), style: style)
        case .short:
            turn = ShortTurn(question: question, style: style)
        }
        active = turn
        printQuestion(turn)
    }

    private func printQuestion(_ turn: DrillTurn) {
        let question = turn.question
        let number = (session.questions.firstIndex { $0.id == question.id } ?? session.position) + 1
        let rule = String(repeating: "─", count: 4)
        print(style.dim("\(rule) \(number)/\(session.questions.count) \(rule)") + " " + style.bold(question.title))
        print(style.dim("\(question.id) · \(question.kind.rawValue) · level \(question.level) · \(question.tags.joined(separator: ", "))"))
        if let follows = question.follows, session.records.last?.questionID == follows {
            print(style.dim("(a follow-up to the question you just answered)"))
        }
        print("")
        turn.printStatement()
    }

    // MARK: Grading

    private func grade(_ answer: String) {
        guard let active, let result = active.grade(answer) else { return }
        session.record(active.question, result, seconds: Date().timeIntervalSince(active.shownAt))
        reviewing = true
        print("")
        print(style.dim(active.afterVerdict))
    }

    /// `:right` or `:wrong` right after a verdict: the learner's judgement replaces the grader's.
    private func overrule(to result: DrillResult) {
        guard reviewing, active != nil else {
            print(style.yellow("Nothing to overrule yet: :\(result.rawValue) changes the grade of a short answer just graded (at the next> prompt)."))
            return
        }
        switch session.overrule(to: result) {
        case .success(let record):
            let counted = style.bold("Counted as \(Self.spoken(record.result))")
            if let graded = record.overruledFrom {
                print(counted + style.dim(" (the grader said \(Self.spoken(graded)); the summary shows it as overruled)."))
            } else {
                print(counted + style.dim(", as the grader said."))
            }
        case .failure(.exactlyGraded(.trace)):
            print(style.yellow("A trace answer is graded exactly against every schedule, so there is nothing to overrule.") + " :explain OUTCOME shows a schedule for an outcome, or why none exists.")
        case .failure(.exactlyGraded(let kind)):
            print(style.yellow("A \(kind.rawValue) answer is graded against the answer key, so there is nothing to overrule;") + " :right and :wrong are for short answers, whose grade is a judgement.")
        case .failure(.nothingGraded), .failure(.notAVerdict):
            print(style.yellow("Nothing to overrule: this question was skipped."))
        }
    }

    private func moveOn() {
        active?.cancel()
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
            print(style.dim("  answers: a trace puzzle's \(AnswerNotation.reminder), e.g. \(AnswerNotation.example)"))
            print(style.dim("           a choice question's letters, e.g. a, c; a short question's few words"))
        case .hint:
            active?.hint()
        case .skip:
            if let active, !reviewing {
                session.record(active.question, .skipped, seconds: Date().timeIntervalSince(active.shownAt))
                print(style.dim("Skipped \(active.question.id)."))
            }
            moveOn()
        case .again:
            guard let question = active?.question else { break }
            active?.cancel()
            active = nil
            // Once answered, the question is still the current one: asking it again is showing it
            // again. Before, it is put back as the next one.
            if !reviewing {
                session.advance()
                session.again(question)
            }
            reviewing = false
        case .explain, .run:
            guard let trace = active as? TraceTurn else {
                let kind = active?.question.kind.rawValue ?? "no"
                print(style.yellow(":\(parsed.name.rawValue) works on trace puzzles, and this is a \(kind) question.") + " :hint helps without giving the answer.")
                break
            }
            if parsed.name == .explain { trace.explain(parsed.argument, answered: reviewing) } else { trace.runLive(parsed.argument) }
        case .right:
            overrule(to: .right)
        case .wrong:
            overrule(to: .wrong)
        case .show:
            if let active { printQuestion(active) }
        case .list:
            listSession()
        case .goto:
            guard !parsed.argument.isEmpty else {
                print(style.yellow("Which question? :goto ID (Tab completes ids)"))
                break
            }
            guard session.bank.question(id: parsed.argument) != nil else {
                print(style.yellow("No question '\(parsed.argument)'; :list shows this session's, 'gcdquiz list' the whole bank."))
                break
            }
            // An answered question is done, as after Enter: the jump must not put it back in
            // line behind the question jumped to.
            if reviewing { session.advance() }
            session.jump(to: parsed.argument)
            active?.cancel()
            active = nil
            reviewing = false
        case .score:
            print(summaryText(final: false), terminator: "")
        case .quit:
            return false
        }
        return true
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

    private static func spoken(_ result: DrillResult) -> String {
        result == .partial ? "partly right" : result.rawValue
    }

    // MARK: The end

    private func finish() {
        active?.cancel()
        print(summaryText(final: true), terminator: "")
    }

    private func summaryText(final: Bool) -> String {
        let summary = session.summary
        let minutes = Int(summary.elapsed) / 60
        let seconds = Int(summary.elapsed) % 60
        var text = style.bold(final ? "Session over." : "Score so far.") + " \(summary.answered) answered in \(minutes)m \(seconds)s: "
        text += "\(summary.count(.right)) right, \(summary.count(.partial)) partly right, \(summary.count(.wrong)) wrong, \(summary.count(.skipped)) skipped"
        text += summary.overruled > 0 ? " (\(summary.overruled) grade(s) overruled by you).\n" : ".\n"
        if summary.answered > 0 {
            text += String(format: "Score %.1f / %d (%.0f%%).", summary.score, summary.answered, summary.accuracy * 100) + "\n"
            let kinds = summary.byKind
            if kinds.count > 1 {
                text += "By kind: " + kinds.map { String(format: "%@ %.0f%% (%d)", $0.kind.rawValue, $0.score / Double($0.answered) * 100, $0.answered) }.joined(separator: ", ") + "\n"
            }
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
