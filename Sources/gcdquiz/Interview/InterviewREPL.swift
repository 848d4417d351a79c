import Foundation
import Progress
import Quiz

/// A mock interview: each question against a time limit counted down in the prompt, warnings
/// before the end, no hints and no `:run`, follow-ups after their question as an interviewer asks
/// them; then the readiness report, and a debrief that goes through every question with the
/// learner's answer, the right one and why.
final class InterviewREPL {
    private let session: DrillSession
    private let input: TimedLineInput
    private let style: TerminalStyle
    /// Seconds allowed for each question.
    private let limit: Double
    private let memory: SessionMemory
    /// Every question asked, in order, with what became of it.
    private var asked: [Asked] = []

    /// A question of the interview and its answer, kept for the report and the debrief.
    struct Asked {
        let turn: DrillTurn
        /// What was graded: typed and sent, or on the line when time ran out; nil for none.
        let answer: String?
        let grade: Grade
        let seconds: Double
        let ending: Ending
    }

    enum Ending {
        case answered
        /// The time ran out; what was on the line was graded (or there was nothing readable).
        case timeUp
        case passed
    }

    /// Seconds left at which the learner is warned.
    static let warnings = [30, 10]

    init(session: DrillSession, input: TimedLineInput, style: TerminalStyle, limit: Double, memory: SessionMemory) {
        self.session = session
        self.input = input
        self.style = style
        self.limit = limit
        self.memory = memory
    }

    func run() {
        print(style.wrappedLines(style.bold("Mock interview") + ": \(session.questions.count) questions, rising in level, \(Self.clock(limit)) for each (follow-ups come on top).", hanging: 0))
        print(style.wrappedLines(style.dim("No hints, no :explain and no :run until the end; a warning comes 30 and 10 seconds before the time is up, and what is typed by then is graded. :skip passes, :quit ends."), hanging: 0))
        var number = 0
        var ended = false
        while !ended, let question = session.current {
            number += 1
            guard let turn = session.turn(for: question, liveRuns: 0, asked: number, style: style) else {
                session.advance()
                continue
            }
            print("")
            let rule = String(repeating: "─", count: 4)
            print(style.wrappedLines(style.dim("\(rule) question \(number) \(rule)") + " " + style.bold(question.title), hanging: 0))
            let follow = question.follows != nil && session.records.last?.questionID == question.follows ? " · a follow-up" : ""
            print(style.wrappedLines(style.dim("level \(question.level) · \(question.tags.joined(separator: ", ")) · \(Self.clock(limit)) to answer\(follow)"), hanging: 0))
            print("")
            turn.printStatement()
            ended = !ask(turn)
        }
        let answered = report()
        if answered && !ended { debrief() }
    }

    /// Asks the question on screen until it is answered, passed or out of time. Returns false when
    /// the interview ends (`:quit`, end of input).
    private func ask(_ turn: DrillTurn) -> Bool {
        let question = turn.question
        let deadline = Date().addingTimeInterval(limit)
        while true {
            let read = input.readLine(deadline: deadline, prompt: prompt, warnings: Self.warnings.filter { Double($0) < limit }) { seconds in
                print(self.style.wrappedLines(self.warning(seconds)))
            }
            switch read {
            case .timeout(let typed):
                timeUp(turn, typed: typed.trimmingCharacters(in: .whitespaces))
                session.advance()
                return true
            case .end:
                return false
            case .interrupted:
                print(style.wrappedLines(style.dim("(line dropped: the up arrow brings it back; the clock runs on)")))
            case .line(let text):
                let answer = text.trimmingCharacters(in: .whitespaces)
                let seconds = min(Date().timeIntervalSince(turn.shownAt), limit)
                if answer.isEmpty {
                    print(style.wrappedLines(style.dim(turn.emptyAnswerMessage.replacingOccurrences(of: ", :hint", with: ""))))
                    continue
                }
                input.remember(answer)
                if answer.hasPrefix(":") {
                    switch command(answer) {
                    case .stay: continue
                    case .quit: return false
                    case .pass:
                        let skip = session.record(question, .skipped, seconds: seconds)
                        memory.record(skip, of: question)
                        keep(turn, answer: nil, grade: .skipped, seconds: seconds, ending: .passed)
                        session.advance()
                        return true
                    }
                } else if let result = turn.assess(answer) {
                    let record = session.record(question, result, seconds: seconds, answer: answer)
                    memory.record(record, of: question)
                    keep(turn, answer: answer, grade: Grade(result, kind: question.kind), seconds: seconds, ending: .answered)
                    print(style.wrappedLines(style.dim("Noted (\(Self.clock(seconds)) of \(Self.clock(limit))).")))
                    session.advance()
                    return true
                }
            }
        }
    }

    /// The time ran out: what is on the line is graded, as an interviewer hears an unfinished
    /// sentence; nothing (or nothing readable, or a command) counts as no answer.
    private func timeUp(_ turn: DrillTurn, typed: String) {
        let question = turn.question
        if !typed.isEmpty && !typed.hasPrefix(":"), let result = turn.assess(typed) {
            print(style.wrappedLines(style.yellow("Time is up") + ": what you had typed is graded, as an interviewer hears an unfinished answer."))
            let record = session.record(question, result, seconds: limit, answer: typed)
            memory.record(record, of: question)
            keep(turn, answer: typed, grade: Grade(result, kind: question.kind), seconds: limit, ending: .timeUp)
            return
        }
        let why = typed.isEmpty ? "" : typed.hasPrefix(":") ? " (a command was on the line, not an answer)" : " (what was typed cannot be read as an answer)"
        print(style.wrappedLines(style.yellow("Time is up") + ": counted as no answer\(why)."))
        memory.recordUnanswered(question, seconds: limit)
        keep(turn, answer: nil, grade: .unanswered, seconds: limit, ending: .timeUp)
    }

    /// "[2:29] answer> ", yellow from 30 seconds left, red from 10.
    private func prompt(_ seconds: Int) -> String {
        let text = "[\(Self.clock(Double(seconds)))] answer> "
        guard style.enabled else { return text }
        let colour = seconds <= 10 ? style.red(text) : seconds <= 30 ? style.yellow(text) : style.blue(text)
        return style.bold(colour)
    }

    private func warning(_ seconds: Int) -> String {
        let text = "\(seconds) seconds left: what is on the line when the time is up is graded."
        return seconds <= 10 ? style.red(style.bold(text)) : style.yellow(text)
    }

    private enum CommandOutcome { case stay, pass, quit }

    private func command(_ line: String) -> CommandOutcome {
        guard case .success(let parsed) = DrillCommandLine.parse(line) else {
            print(style.wrappedLines(style.yellow("In an interview: :skip passes the question, :quit ends the interview.")))
            return .stay
        }
        switch parsed.name {
        case .skip: return .pass
        case .quit: return .quit
        case .hint, .explain, .run, .more, .schedule:
            print(style.wrappedLines(style.yellow("Not during the interview: :\(parsed.name.rawValue) comes after it") + " (the debrief goes through every question; 'gcdquiz drill --missed' over what you missed, with hints and :run)."))
        case .help, .show, .list, .goto, .score, .again, .right, .wrong:
            print(style.wrappedLines(style.yellow("In an interview: :skip passes the question, :quit ends the interview.")))
        }
        return .stay
    }

    private func keep(_ turn: DrillTurn, answer: String?, grade: Grade, seconds: Double, ending: Ending) {
        asked.append(Asked(turn: turn, answer: answer, grade: grade, seconds: seconds, ending: ending))
    }

    // MARK: The readiness report

    /// Prints the report; returns whether anything was asked.
    private func report() -> Bool {
        let answers = asked.map {
            Readiness.Answer(questionID: $0.turn.question.id, title: $0.turn.question.title, topics: $0.turn.question.tags,
                             grade: $0.grade, seconds: $0.seconds)
        }
        let readiness = Readiness(answers: answers, limit: limit)
        print("")
        print(style.bold("Readiness report"))
        guard !answers.isEmpty else {
            print(style.wrappedLines("No question was answered, so there is nothing to report."))
            return false
        }
        let width = max(readiness.topics.map { TerminalColumns.width($0.topic) }.max() ?? 0, 5)
        let columns = [("right", 5), ("partly", 6), ("wrong", 5), ("no answer", 9)]
        print("  " + TerminalColumns.padded("topic", to: width) + "  " + columns.map(\.0).joined(separator: "  "))
        for line in readiness.topics {
            let counts = zip([line.right, line.partial, line.wrong, line.noAnswer], columns).map { value, column in
                TerminalColumns.leftPadded(String(value), to: column.1)
            }
            print("  " + TerminalColumns.padded(line.topic, to: width) + "  " + counts.joined(separator: "  "))
        }
        var time = "Time: "
        if let mean = readiness.meanSeconds {
            time += "\(Self.clock(mean)) per answer on average, against \(Self.clock(limit)) allowed"
        } else {
            time += "no answer given in time"
        }
        time += readiness.outOfTime > 0 ? "; \(readiness.outOfTime) ran out of time." : "."
        print(style.wrappedLines(time, hanging: 0))
        let review = readiness.toReview
        if !review.isEmpty {
            print(style.wrappedLines("To review (\(review.count)): " + review.map { "\($0.questionID) (\(Self.spoken($0.grade)))" }.joined(separator: ", ")
                + " — 'gcdquiz drill --missed' goes over them.", hanging: 0))
        }
        print(style.wrappedLines(style.bold("Verdict: ") + readiness.verdict, hanging: 0))
        return true
    }

    /// In an interview a skip is a pass.
    static func spoken(_ grade: Grade) -> String {
        grade == .skipped ? "passed" : grade.spoken
    }

    // MARK: The debrief

    /// Every question again, one at a time at a terminal (Enter for the next, `:more` for what
    /// did not fit the screen), all at once to a pipe: the learner's answer, the right one, and
    /// why.
    private func debrief() {
        print("")
        let keys = input.isInteractive ? " Enter: the next question · :more what did not fit · :quit ends." : ""
        print(style.wrappedLines(style.bold("Debrief") + ": each question with your answer, the right one and why." + style.dim(keys), hanging: 0))
        for (index, item) in asked.enumerated() {
            let page = InterviewDebriefPage(item: item, number: index + 1, of: asked.count, limit: limit, style: style)
            guard input.isInteractive, let height = style.height else {
                print(page.header + page.body, terminator: "")
                continue
            }
            let (shown, rest) = page.fitted(height: height)
            print(shown, terminator: "")
            var moreShown = false
            reading: while true {
                switch input.readPlain(prompt: style.enabled ? style.bold(style.blue("debrief> ")) : "debrief> ") {
                case .end:
                    print("")
                    return
                case .interrupted:
                    continue
                case .line(let text):
                    let line = text.trimmingCharacters(in: .whitespaces)
                    if line.isEmpty { break reading }
                    switch DrillCommandLine.parse(line) {
                    case .success(let parsed) where parsed.name == .more:
                        if rest.isEmpty || moreShown {
                            print(style.wrappedLines(style.dim("Nothing more for this question: Enter for the next.")))
                        } else {
                            print(rest, terminator: "")
                            moreShown = true
                        }
                    case .success(let parsed) where parsed.name == .quit:
                        return
                    case .success, .failure:
                        print(style.wrappedLines(style.dim("In the debrief: Enter for the next question, :more for the rest of this one, :quit to end.")))
                    }
                }
            }
        }
        print(style.wrappedLines(style.dim("That was every question. 'gcdquiz drill --missed' goes over those you missed, with hints and :run.")))
    }

    /// "2:30"
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
    }
}
