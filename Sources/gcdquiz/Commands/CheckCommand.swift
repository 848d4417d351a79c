import ArgumentParser
import DispatchModel
import Foundation
import Quiz

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Grade a prediction without the drill.",
        discussion: "ANSWER is written as in the drill: \(AnswerNotation.reminder), e.g. '\(AnswerNotation.example)'.")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a .swift / .yaml file.", valueName: "id|file"))
    var target: String

    @Argument(help: ArgumentHelp("The prediction.", valueName: "answer"))
    var answer: String

    @Flag(name: .long, help: "Print JSON: {\"verdict\": \"exact\"|\"incomplete\"|\"wrong\", …}.")
    var json = false

    @OptionGroup var budgets: ExplorationOptions

    func run() throws {
        let bank = self.bank.loadIfPresent()
        if !target.hasSuffix(".swift") {
            let question = try PuzzleResolver.question(target, in: bank)
            if question.kind != .trace {
                return try checkInterview(question)
            }
        }
        let puzzle = try PuzzleResolver.resolve(target, in: bank)
        let exploration = budgets.explorer.explore(puzzle.program)
        if let stop = exploration.stop {
            throw CommandFailure.unexpected("\(stop) (--max-states, --max-memory): cannot grade against outcomes not all known")
        }
        let grade: TraceGrade
        do {
            grade = try TraceGrader(exploration: exploration).grade(answer)
        } catch {
            throw CommandFailure.badInput("unreadable answer '\(answer)': \(error)")
        }
        if json {
            try JSONOutput.print(CheckJSON(puzzle: puzzle.name, grade: grade))
        } else {
            print(GradeRenderer.render(grade, style: .current(for: .standardOutput)), terminator: "")
        }
    }
}

extension CheckCommand {
    /// Choice letters or a free answer, graded right, partial or wrong.
    func checkInterview(_ question: Question) throws {
        let style = TerminalStyle.current(for: .standardOutput)
        var entry = InterviewCheckJSON(puzzle: question.id, kind: question.kind.rawValue, verdict: "", found: [], missing: [], correct: [])
        var text = ""
        do {
            if question.kind == .choice {
                let grade = try ChoiceGrader.grade(answer, options: question.options)
                entry.verdict = grade.verdict.rawValue
                entry.correct = grade.correct.map { String(UnicodeScalar(UInt8(97 + $0))) }
                text = InterviewRenderer.choiceVerdict(grade, question: question, order: Array(question.options.indices), style: style)
            } else {
                let grade = try ShortAnswerGrader.grade(answer, ideas: question.keyIdeas)
                entry.verdict = grade.verdict.rawValue
                entry.found = grade.found.map(\.idea)
                entry.missing = grade.missing.map(\.idea)
                text = InterviewRenderer.shortVerdict(grade, question: question, style: style)
            }
        } catch {
            throw CommandFailure.badInput("unreadable answer '\(answer)': \(error.message)")
        }
        if json {
            try JSONOutput.print(entry)
        } else {
            print(text, terminator: "")
        }
    }
}

/// `check --json` for choice and short questions.
struct InterviewCheckJSON: Encodable {
    var puzzle: String
    var kind: String
    var verdict: String
    var found: [String]
    var missing: [String]
    var correct: [String]
}

/// `check --json`.
struct CheckJSON: Encodable {
    struct OutcomeEntry: Encodable {
        var lines: [String]
        var end: String
        var notation: String

        init(_ outcome: Outcome) {
            lines = outcome.lines
            end = outcome.end.rawValue
            notation = AnswerNotation.render(outcome)
        }
    }

    struct Reason: Encodable {
        var rule: String
        var statement: String
        var detail: String
        var line: Int?
    }

    struct Impossible: Encodable {
        var outcome: OutcomeEntry
        var prefix: [String]
        var wanted: String
        var next: [String]
        var reasons: [Reason]
    }

    var puzzle: String
    var verdict: String
    var predicted: [OutcomeEntry]
    var right: [OutcomeEntry]
    var missing: [OutcomeEntry]
    var possible: Int
    var impossible: Impossible?

    init(puzzle: String, grade: TraceGrade) {
        self.puzzle = puzzle
        verdict = grade.verdict.name
        predicted = grade.predicted.map(OutcomeEntry.init)
        right = grade.right.map(OutcomeEntry.init)
        missing = grade.missing.map(OutcomeEntry.init)
        possible = grade.possible.count
        if case .wrong(let why) = grade.verdict {
            impossible = Impossible(
                outcome: OutcomeEntry(why.outcome), prefix: why.longestPrefix, wanted: why.wanted.description,
                next: why.couldComeNext.map(\.description),
                reasons: why.blockers.map { Reason(rule: $0.rule.rawValue, statement: $0.rule.statement, detail: $0.detail, line: $0.span?.line) })
        }
    }
}
