import ArgumentParser
import DispatchModel
import Foundation
import Quiz

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Grade a prediction without the drill.",
        discussion: """
            ANSWER is written as in the drill: \(AnswerNotation.reminder), e.g. '\(AnswerNotation.example)'. \
            For a choice question, the letters of the options as 'gcdquiz show' prints them (with the same --seed). \
            An answer that cannot be read (a word no print of the snippet produces) is not graded: exit code 1.
            """)

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a .swift / .yaml file.", valueName: "id|file"))
    var target: String

    @Argument(help: ArgumentHelp("The prediction.", valueName: "answer"))
    var answer: String

    @Option(name: .long, help: ArgumentHelp("Choice questions: read the letters in the order 'show --seed S' (or a drill with --seed S) printed them.", valueName: "s"))
    var seed: UInt64?

    @Flag(name: .long, help: "Print JSON: {\"verdict\": \"exact\"|\"incomplete\"|\"wrong\", …}.")
    var json = false

    @OptionGroup var budgets: ExplorationOptions

    func run() throws {
        if !target.hasSuffix(".swift") {
            let question = try PuzzleResolver.question(target, bank: bank.source())
            if question.kind != .trace {
                return try checkInterview(question)
            }
        }
        let puzzle = try PuzzleResolver.resolve(target, bank: bank.source())
        let exploration = budgets.explorer.explore(puzzle.program)
        if let stop = exploration.stop {
            throw CommandFailure.unexpected("\(stop) (--max-states, --max-memory): cannot grade against outcomes not all known")
        }
        let grade: TraceGrade
        do {
            grade = try TraceGrader(exploration: exploration).grade(answer)
        } catch {
            throw CommandFailure.badInput("unreadable answer \(AnswerError.excerpt(answer)): \(error)")
        }
        if json {
            try JSONOutput.print(CheckJSON(puzzle: puzzle.name, grade: grade))
        } else {
            print(GradeRenderer.render(grade, style: .current(for: .standardOutput)), terminator: "")
        }
    }
}

extension CheckCommand {
    /// Choice letters (as `show` letters the options) or a free answer, graded right, partial or wrong.
    func checkInterview(_ question: Question) throws {
        let style = TerminalStyle.current(for: .standardOutput)
        var entry = InterviewCheckJSON(puzzle: question.id, kind: question.kind.rawValue, verdict: "")
        var text = ""
        do {
            if question.kind == .choice {
                let order = OptionOrder.shuffled(question, seed: seed ?? OptionOrder.defaultSeed)
                let grade = try ChoiceGrader.grade(answer, options: question.options, order: order)
                let letters = { (indices: [Int]) in indices.compactMap(order.firstIndex).sorted().map(OptionLetter.letter) }
                entry.verdict = grade.verdict.rawValue
                entry.correct = letters(grade.correct)
                entry.chosen = letters(grade.chosen)
                text = InterviewRenderer.choiceVerdict(grade, question: question, order: order, style: style)
            } else {
                let grade = try ShortAnswerGrader.grade(answer, question: question)
                entry.verdict = grade.verdict.rawValue
                entry.found = grade.found.map(\.idea)
                entry.missing = grade.missing.map(\.idea)
                text = InterviewRenderer.shortVerdict(grade, question: question, style: style)
            }
        } catch {
            throw CommandFailure.badInput("unreadable answer \(AnswerError.excerpt(answer)): \(error.message)")
        }
        if json {
            try JSONOutput.print(entry)
        } else {
            print(text, terminator: "")
        }
    }
}
