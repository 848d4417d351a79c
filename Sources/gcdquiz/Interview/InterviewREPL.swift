import Foundation
import Progress
import Quiz

/// A mock interview: each question against a time limit counted down in the prompt, no hints and
/// no `:run`, follow-ups after their question as an interviewer asks them, and the verdicts kept
/// for the readiness report at the end.
final class InterviewREPL {
    private let session: DrillSession
    private let input: TimedLineInput
    private let style: TerminalStyle
    /// Seconds allowed for each question.
    private let limit: Double
    private let memory: SessionMemory
    private var answers: [Readiness.Answer] = []

    init(session: DrillSession, input: TimedLineInput, style: TerminalStyle, limit: Double, memory: SessionMemory) {
        self.session = session
        self.input = input
        self.style = style
        self.limit = limit
        self.memory = memory
    }

    func run() {
        print(style.wrappedLines(style.bold("Mock interview") + ": \(session.questions.count) questions, rising in level, \(Self.clock(limit)) for each (follow-ups come on top).", hanging: 0))
        print(style.wrappedLines(style.dim("No hints, no :explain and no :run until the end; running out of time counts as no answer. :skip passes, :quit ends."), hanging: 0))
        var asked = 0
        while let question = session.current {
            asked += 1
            guard let turn = session.turn(for: question, liveRuns: 0, asked: asked, style: style) else {
                session.advance()
                continue
            }
            print("")
            let rule = String(repeating: "─", count: 4)
            print(style.wrappedLines(style.dim("\(rule) question \(asked) \(rule)") + " " + style.bold(question.title), hanging: 0))
            let follow = question.follows != nil && session.records.last?.questionID == question.follows ? " · a follow-up" : ""
            print(style.wrappedLines(style.dim("level \(question.level) · \(question.tags.joined(separator: ", ")) · \(Self.clock(limit)) to answer\(follow)"), hanging: 0))
            print("")
            turn.printStatement()
            guard ask(turn) else { break }
        }
        report()
    }

    /// Asks the question on screen until it is answered, passed or out of time. Returns false when
    /// the interview ends (`:quit`, end of input).
    private func ask(_ turn: DrillTurn) -> Bool {
        let question = turn.question
        let deadline = Date().addingTimeInterval(limit)
        while true {
            let prompt = { (seconds: Int) in
                let text = "[\(Self.clock(Double(seconds)))] answer> "
                return self.style.enabled ? self.style.bold(self.style.blue(text)) : text
            }
            switch input.readLine(deadline: deadline, prompt: prompt) {
            case .timeout:
                print(style.wrappedLines(style.yellow("Time is up") + ": counted as no answer."))
                memory.recordUnanswered(question, seconds: limit)
                keep(question, .unanswered, seconds: limit)
                session.advance()
                return true
            case .end:
                return false
            case .interrupted:
                print(style.wrappedLines(style.dim("(line dropped; the clock runs on)")))
            case .line(let text):
                let answer = text.trimmingCharacters(in: .whitespaces)
                let seconds = min(Date().timeIntervalSince(turn.shownAt), limit)
                if answer.isEmpty {
                    print(style.wrappedLines(style.dim(turn.emptyAnswerMessage.replacingOccurrences(of: ", :hint", with: ""))))
                } else if answer.hasPrefix(":") {
                    switch command(answer) {
                    case .stay: continue
                    case .quit: return false
                    case .pass:
                        let skip = session.record(question, .skipped, seconds: seconds)
                        memory.record(skip, of: question)
                        keep(question, .skipped, seconds: seconds)
                        session.advance()
                        return true
                    }
                } else if let result = turn.assess(answer) {
                    let record = session.record(question, result, seconds: seconds, answer: answer)
                    memory.record(record, of: question)
                    keep(question, Grade(result, kind: question.kind), seconds: seconds)
                    print(style.wrappedLines(style.dim("Noted (\(Self.clock(seconds)) of \(Self.clock(limit))).")))
                    session.advance()
                    return true
                }
            }
        }
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
            print(style.wrappedLines(style.yellow("Not during the interview: :\(parsed.name.rawValue) comes after it") + " ('gcdquiz drill --missed' goes over what you missed, with hints and :run)."))
        case .help, .show, .list, .goto, .score, .again, .right, .wrong:
            print(style.wrappedLines(style.yellow("In an interview: :skip passes the question, :quit ends the interview.")))
        }
        return .stay
    }

    private func keep(_ question: Question, _ grade: Grade, seconds: Double) {
        answers.append(Readiness.Answer(questionID: question.id, title: question.title, topics: question.tags, grade: grade, seconds: seconds))
    }

    // MARK: The readiness report

    private func report() {
        let readiness = Readiness(answers: answers, limit: limit)
        print("")
        print(style.bold("Readiness report"))
        guard !answers.isEmpty else {
            print(style.wrappedLines("No question was answered, so there is nothing to report."))
            return
        }
        let width = max(readiness.topics.map(\.topic.count).max() ?? 0, 5)
        print("  " + "topic".padding(toLength: width, withPad: " ", startingAt: 0) + "  right  partial  wrong")
        for line in readiness.topics {
            let counts = [(line.right, 5), (line.partial, 7), (line.wrong, 5)].map { value, column in
                String(repeating: " ", count: max(column - String(value).count, 0)) + String(value)
            }
            print("  " + line.topic.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + counts.joined(separator: "  "))
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
    }

    private static func spoken(_ grade: Grade) -> String {
        switch grade {
        case .exact, .right: "right"
        case .incomplete: "incomplete"
        case .partial: "partly right"
        case .wrong: "wrong"
        case .skipped: "passed"
        case .unanswered: "out of time"
        case .reached: "reached"
        case .gaveUp: "gave up"
        }
    }

    /// "2:30"
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
    }
}
