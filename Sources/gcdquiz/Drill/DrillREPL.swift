import ConcurrencyModel
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
    /// `:explain` or `:run` used on the question on screen before it was answered.
    private var explainedBeforeAnswering = false
    private var ranBeforeAnswering = false
    /// Where answers are recorded as they are graded; nil records nothing.
    private let memory: SessionMemory?
    /// One line for a returning learner (what is due, missed, new), said first.
    private let greeting: String?
    /// The live runs of a puzzle asked again (`:again`): its next turn shows them rather than
    /// starting as many again.
    private var keptLive: (questionID: String, run: BackgroundLiveRun)?
    /// The number each question got when first shown (`──── 3/12 ────`): a question shown again
    /// keeps its number, a new one takes the next.
    private var numbers: [String: Int] = [:]

    init(session: DrillSession, input: LineInput, style: TerminalStyle, liveRuns: Int, memory: SessionMemory? = nil,
         greeting: String? = nil) {
        self.session = session
        self.input = input
        self.style = style
        self.liveRuns = liveRuns
        self.memory = memory
        self.greeting = greeting
        input.completer = { [session] before in Self.completions(before, session: session) }
    }

    func run() {
        welcome()
        while true {
            if active == nil {
                guard let question = session.current else {
                    print(style.wrappedLines(style.bold("That was the last question.")))
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
                print(style.wrappedLines(style.dim("(line dropped: the up arrow brings it back; Ctrl-D or :quit ends the session)")))
            case .line(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    if reviewing {
                        moveOn()
                    } else if let schedule = active as? ScheduleTurn {
                        play(schedule)
                    } else if let active {
                        print(style.wrappedLines(style.dim(active.emptyAnswerMessage)))
                    }
                    continue
                }
                input.remember(trimmed)
                if trimmed.hasPrefix(":") {
                    if !command(trimmed) { finish(); return }
                } else if reviewing {
                    print(style.wrappedLines(style.dim("Press Enter for the next question, or :again to answer this one again.")))
                } else {
                    grade(trimmed)
                }
            }
        }
    }

    // MARK: Showing a question

    private func welcome() {
        print(style.wrappedLines(style.bold("gcdquiz") + " — predict every output a snippet can print; see the model's answer and libdispatch's.", hanging: 0))
        if let greeting { print(style.wrappedLines(greeting, hanging: 0)) }
        // Follow-ups are not counted: they come after the question they follow, once answered.
        let followUps = Set(session.questions.flatMap { FollowUps.of($0, in: session.bank, kind: session.kind) }.map(\.id))
            .subtracting(session.questions.map(\.id)).count
        let count = session.questions.count == 1 ? "1 question" : "\(session.questions.count) questions"
        let extra = followUps == 0 ? "" : " (+ \(followUps) follow-up\(followUps == 1 ? "" : "s") after \(followUps == 1 ? "its question" : "their questions"))"
        print(style.wrappedLines(style.dim("\(count)\(extra) · :help for commands · Ctrl-D ends the session"), hanging: 0))
        if session.questions.contains(where: { $0.kind == .trace }) {
            print(PreludeRenderer.introduction(style: style), terminator: "")
        }
        print("")
    }

    private func present(_ question: Question) {
        asked += 1
        active?.cancel()
        active = nil
        reviewing = false
        explainedBeforeAnswering = false
        ranBeforeAnswering = false
        let kept = keptLive?.questionID == question.id ? keptLive?.run : nil
        if kept == nil { keptLive?.run.cancel() }
        keptLive = nil
        guard let turn = session.turn(for: question, liveRuns: liveRuns, asked: asked, style: style, live: kept) else {
            print(style.wrappedLines(style.red("\(question.id) cannot be asked: its code does not compile, or it has more schedules than the model explores in \(Int(TraceTurn.explorationSeconds)) seconds ('gcdquiz validate' says which); skipping it.")))
            session.advance()
            return
        }
        active = turn
        printQuestion(turn)
    }

    private func printQuestion(_ turn: DrillTurn) {
        let question = turn.question
        let number = numbers[question.id] ?? (numbers.values.max() ?? 0) + 1
        numbers[question.id] = number
        let total = max(session.questions.count, number)
        let rule = String(repeating: "─", count: 4)
        let heading = style.wrappedLines(style.dim("\(rule) \(number)/\(total) \(rule)") + " " + style.bold(question.title), hanging: 0)
        print(heading)
        print(style.wrappedLines(style.dim("\(question.id) · \(question.kind.rawValue) · level \(question.level) · \(question.tags.joined(separator: ", "))"), hanging: 0))
        if let follows = question.follows, session.records.last?.questionID == follows {
            print(style.wrappedLines(style.dim("(a follow-up to the question you just answered)")))
        }
        if let previous = session.scoredRecord(for: question.id) {
            print(style.wrappedLines(style.dim("(answered already: \(Self.spoken(previous.result)); a new answer is practice and does not count)")))
        } else if session.skippedOnce.contains(question.id), session.records.contains(where: { $0.questionID == question.id }) {
            print(style.wrappedLines(style.dim("(back: you skipped it earlier)")))
        }
        print("")
        turn.printStatement()
        // A snippet taller than the screen pushes the title off its top: it is said again above
        // the prompt.
        if let height = style.height {
            let statement = QuestionRenderer.statement(question, order: [], style: style)
            if style.screenLines(heading) + 3 + style.screenLines(statement) + 3 > height {
                print(style.wrappedLines(style.dim("(\(number)/\(total): ") + style.bold(question.title) + style.dim(")"), hanging: 1))
            }
        }
    }

    // MARK: Grading

    /// Grades an answer: the first one to a question counts, later ones are practice; help used
    /// before answering is said under the verdict and kept with the answer.
    private func grade(_ answer: String) {
        guard let active else { return }
        score(active) { note in active.grade(answer, note: note).map { ($0, answer) } }
    }

    /// A schedule question answered in the scheduler's seat: the moves made are the answer, and
    /// the hints taken there count with those taken before.
    private func play(_ turn: ScheduleTurn) {
        score(turn) { note in (turn.play(note: note), turn.lastMoves) }
    }

    /// Records what `answering` graded (given the note to show under the verdict): nil when the
    /// answer could not be read.
    private func score(_ active: DrillTurn, _ answering: (String?) -> (DrillResult, String)?) {
        let helpBefore = DrillHelp(hints: active.hintsGiven, explained: explainedBeforeAnswering, ran: ranBeforeAnswering)
        var note: String?
        if let scored = session.scoredRecord(for: active.question.id) {
            note = "Practice: this answer does not count; your scored answer was \(Self.spoken(scored.result))."
        } else if !helpBefore.isEmpty {
            note = "Counted, with the help you used before answering noted beside it (\(helpBefore.summary))."
        }
        guard let (result, answer) = answering(note) else { return }
        let help = DrillHelp(hints: active.hintsGiven, explained: explainedBeforeAnswering, ran: ranBeforeAnswering)
        let record = session.record(active.question, result, seconds: Date().timeIntervalSince(active.shownAt), answer: answer, help: help)
        memory?.record(record, of: active.question)
        reviewing = true
        // A trace result ends with what to do next, fitted to the screen; the others say it here.
        if !(active is TraceTurn) {
            print("")
            print(style.wrappedLines(style.dim(active.afterVerdict)))
        }
    }

    /// `:right` or `:wrong` right after a verdict: the learner's judgement replaces the grader's.
    private func overrule(to result: DrillResult) {
        guard let active, session.scoredRecord(for: active.question.id) != nil else {
            print(style.wrappedLines(style.yellow("Nothing to overrule yet: :\(result.rawValue) changes the grade of a short answer once it is graded, until the next question.")))
            return
        }
        switch session.overrule(to: result) {
        case .success(let record):
            memory?.regrade(record)
            let which = session.wasPractised(record.questionID) ? "Your scored answer counts as" : "Counted as"
            let counted = style.bold("\(which) \(Self.spoken(record.result))")
            if let graded = record.overruledFrom {
                print(style.wrappedLines(counted + style.dim(" (the grader said \(Self.spoken(graded)); the summary shows it as overruled).")))
            } else {
                print(style.wrappedLines(counted + style.dim(", as the grader said.")))
            }
        case .failure(.exactlyGraded(.trace)):
            print(style.wrappedLines(style.yellow("A trace answer is graded exactly against every schedule, so there is nothing to overrule.") + " :explain OUTCOME shows a schedule for an outcome, or why none exists."))
        case .failure(.exactlyGraded(let kind)):
            print(style.wrappedLines(style.yellow("A \(kind.rawValue) answer is graded against the answer key, so there is nothing to overrule;") + " :right and :wrong are for short answers, whose grade is a judgement."))
        case .failure(.nothingGraded), .failure(.notAVerdict):
            print(style.wrappedLines(style.yellow("Nothing to overrule: this question was skipped.")))
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
            print(style.wrappedLines(style.yellow(error.message)))
            return true
        }
        switch parsed.name {
        case .help:
            for command in DrillCommandName.allCases {
                print(style.wrapped("  " + command.usage, firstLineWidth: 0, indent: 21))
            }
            print(style.wrappedLines("  " + style.dim("answers: a trace puzzle's \(AnswerNotation.reminder), e.g. \(AnswerNotation.example)"), hanging: 9))
            print(style.wrappedLines("           " + style.dim("a choice question's letters, e.g. a, c; a short question's few words"), hanging: 0))
            print(style.wrappedLines("  " + style.dim("the first answer to a question counts; :explain and :run before it are noted beside it"), hanging: 0))
            print(PreludeRenderer.introduction(style: style), terminator: "")
        case .hint:
            active?.hint()
        case .skip:
            guard let active, !reviewing else {
                moveOn()
                break
            }
            let answered = session.scoredRecord(for: active.question.id) != nil
            let recorded = session.records.count
            let comesBack = session.skip(seconds: Date().timeIntervalSince(active.shownAt))
            if session.records.count > recorded, let skip = session.records.last { memory?.record(skip, of: active.question) }
            if answered {
                print(style.wrappedLines(style.dim("Skipped \(active.question.id) (answered already).")))
            } else if comesBack {
                let later = memory?.recorder?.isRecording == true ? ", and in a later session if not answered by then" : ""
                print(style.wrappedLines(style.dim("Skipped \(active.question.id): it comes back at the end of the session\(later).")))
            } else {
                print(style.wrappedLines(style.dim("Skipped \(active.question.id) again: it will not come back this session.")))
            }
            active.cancel()
            self.active = nil
        case .again:
            guard let question = active?.question else { break }
            // The same puzzle again: its live runs are kept for the next turn.
            if let trace = active as? TraceTurn, let live = trace.live {
                keptLive = (question.id, live)
            } else {
                active?.cancel()
            }
            active = nil
            // Once answered, the question is still the current one: asking it again is showing it
            // again. Before, it is put back as the next one.
            if !reviewing {
                session.advance()
                session.again(question)
            }
            reviewing = false
        case .more:
            guard reviewing, let active else {
                print(style.wrappedLines(style.yellow(":more shows what a verdict left out: answer first.") + " :hint helps without giving the answer."))
                break
            }
            active.more()
        case .explain, .run:
            guard let trace = active as? TraceTurn else {
                let kind = active?.question.kind.rawValue ?? "no"
                print(style.wrappedLines(style.yellow(":\(parsed.name.rawValue) works on trace puzzles, and this is a \(kind) question.") + " :hint helps without giving the answer."))
                break
            }
            let before = !reviewing && session.scoredRecord(for: trace.question.id) == nil
            let shown = parsed.name == .explain ? trace.explain(parsed.argument, answered: reviewing) : trace.runLive(parsed.argument)
            if before && shown {
                if parsed.name == .explain { explainedBeforeAnswering = true } else { ranBeforeAnswering = true }
                print(style.wrappedLines(style.dim("(:\(parsed.name.rawValue) before answering is noted beside your answer.)")))
            }
        case .schedule:
            schedule(parsed.argument)
        case .right:
            overrule(to: .right)
        case .wrong:
            overrule(to: .wrong)
        case .show:
            if let active { printQuestion(active) }
        case .list:
            listSession(page: parsed.argument)
        case .goto:
            guard !parsed.argument.isEmpty else {
                print(style.wrappedLines(style.yellow("Which question? :goto ID (Tab completes ids)")))
                break
            }
            guard session.bank.question(id: parsed.argument) != nil else {
                print(style.wrappedLines(style.yellow("No question '\(parsed.argument)'; :list shows this session's, 'gcdquiz list' the whole bank.")))
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

    /// `:schedule [GOAL]`: a schedule question's seat (its own goal); on a trace puzzle, the seat
    /// with GOAL or none, which shows schedules as `:explain` does (noted before an answer).
    private func schedule(_ goal: String) {
        if let turn = active as? ScheduleTurn {
            if reviewing {
                print(style.wrappedLines(style.dim("Practice: this try does not count.")))
                _ = turn.play(note: nil)
            } else {
                play(turn)
            }
            return
        }
        guard let trace = active as? TraceTurn else {
            let kind = active?.question.kind.rawValue ?? "no"
            print(style.wrappedLines(style.yellow(":schedule works on trace and schedule puzzles, and this is a \(kind) question.") + " :hint helps without giving the answer."))
            return
        }
        guard trace.schedule(goal) else { return }
        if !reviewing && session.scoredRecord(for: trace.question.id) == nil {
            explainedBeforeAnswering = true
            print(style.wrappedLines(style.dim("(:schedule before answering is noted beside your answer, as :explain is.)")))
        }
    }

    /// Each question of the session with its scored result (what the score counts), and
    /// whether it was practised since. At a terminal, one screen at a time: `:list` shows the
    /// page with the question on screen, `:list N` page N, each question on one line.
    private func listSession(page argument: String) {
        let rows = session.questions.enumerated().map { index, question in
            (mark: listMark(index: index, question: question), question: question)
        }
        guard let height = style.height, let width = style.width else {
            for row in rows {
                let practised = session.wasPractised(row.question.id) ? " " + style.dim("(practised)") : ""
                print("  \(row.mark) \(row.question.id)\(practised)  \(style.dim("L\(row.question.level) \(row.question.title)"))")
            }
            return
        }
        let size = max(height - 3, 5)
        let pages = max((rows.count + size - 1) / size, 1)
        let current = min(session.position, max(rows.count - 1, 0)) / size + 1
        guard let page = argument.isEmpty ? current : Int(argument), (1...pages).contains(page) else {
            print(style.wrappedLines(style.yellow("Which page? :list shows the one with this question; :list 1 to :list \(pages) any other.")))
            return
        }
        for row in rows[((page - 1) * size)..<min(page * size, rows.count)] {
            let practised = session.wasPractised(row.question.id) ? " (practised)" : ""
            let head = "  \(row.mark) \(row.question.id)"
            let used = 4 + TerminalColumns.width(row.question.id)
            let rest = TerminalColumns.truncated("\(practised)  L\(row.question.level) \(row.question.title)", to: max(width - used - 1, 0))
            print(head + style.dim(rest))
        }
        if pages > 1 {
            let next = page < pages ? " · :list \(page + 1) for the next" : " · :list 1 for the first"
            print(style.dim("  page \(page) of \(pages), \(rows.count) questions\(next)"))
        }
    }

    /// ▶ the question on screen, then its scored result: ✓, ~, ✗, – for skipped.
    private func listMark(index: Int, question: Question) -> String {
        if index == session.position { return style.bold("▶") }
        let scored = session.scoredRecord(for: question.id)?.result ?? session.records.last { $0.questionID == question.id }?.result
        switch scored {
        case .right: return style.green("✓")
        case .partial: return style.yellow("~")
        case .wrong: return style.red("✗")
        case .skipped: return style.dim("–")
        case nil: return " "
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
        if summary.practice > 0 || summary.helped > 0 {
            var notes: [String] = []
            if summary.practice > 0 { notes.append("\(summary.practice) practice answer(s), not counted") }
            if summary.helped > 0 { notes.append("\(summary.helped) answered after help (:hint, :explain, :run)") }
            text += notes.joined(separator: "; ").prefix(1).uppercased() + notes.joined(separator: "; ").dropFirst() + ".\n"
        }
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
        return style.wrappedLines(text)
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
