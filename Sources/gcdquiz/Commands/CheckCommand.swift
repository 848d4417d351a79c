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

    func run() throws {
        let puzzle = try PuzzleResolver.resolve(target, in: bank.loadIfPresent())
        let exploration = Explorer().explore(puzzle.program)
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
