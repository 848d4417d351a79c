import ArgumentParser
import ConcurrencyModel
import Foundation
import Quiz
import Sheets

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

    @Option(name: .long, help: ArgumentHelp("Choice questions: read the letters in the order 'show --seed S' (or a drill with --seed S) printed them; with --variant, the seed printed on the sheet.", valueName: "s"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Grade the answer as printed on variant N of a sheet made with --seed S: its letters for a choice question, and with --trace-as select the letters of the outcomes it offered.", valueName: "n"))
    var variant: Int?

    @Option(name: .customLong("trace-as"), help: ArgumentHelp("With --variant: how the sheet asked trace puzzles (select: answer with the letters of the outcomes offered).", valueName: "form"))
    var traceAs: TraceForm = .write

    @Flag(name: .long, help: "Print JSON: {\"verdict\": \"exact\"|\"incomplete\"|\"wrong\", …}.")
    var json = false

    @OptionGroup var machine: MachineOptions

    @OptionGroup var languageMode: ModeOptions

    @OptionGroup var budgets: ExplorationOptions

    func validate() throws {
        if let variant {
            guard variant >= 1 else { throw ValidationError("--variant must be at least 1") }
            guard seed != nil else { throw ValidationError("--variant needs the sheet's --seed (printed beside the variant's number)") }
        }
    }

    func run() throws {
        if let variant, let seed {
            return try checkOnSheet(variant: variant, seed: seed)
        }
        if !target.hasSuffix(".swift") {
            let question = try PuzzleResolver.question(target, bank: bank.source())
            if question.kind == .schedule {
                return try checkSchedule(question)
            }
            if question.kind != .trace {
                return try checkInterview(question)
            }
        }
        let puzzle = try PuzzleResolver.resolve(target, bank: bank.source(), mode: languageMode.mode)
        let exploration = budgets.explorer.explore(puzzle.program, for: machine.machine)
        try ExplorationStops.refusePartial(exploration, puzzle: puzzle, doing: "grade")
        let grade: TraceGrade
        do {
            grade = try TraceGrader(exploration: exploration).grade(answer)
        } catch {
            throw CommandFailure.badInput("unreadable answer \(AnswerError.excerpt(answer)): \(error)")
        }
        if json {
            try JSONOutput.print(CheckJSON(puzzle: puzzle.name, grade: grade, exploration: exploration))
        } else {
            print(GradeRenderer.render(grade, exploration: exploration, style: .current(for: .standardOutput)), terminator: "")
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
            if question.kind == .line {
                let culprits = try CulpritLines.find(in: question.code ?? "", fileName: question.file).get()
                let grade = try culprits.grade(answer)
                entry.verdict = grade.isRight ? "right" : "wrong"
                entry.line = grade.line
                entry.reason = grade.reason
                entry.fixes = culprits.fixes.map(\.line)
                text = "\(entry.verdict): \(grade.reason).\nLines that would do: \(culprits.fixList).\n"
            } else if question.kind == .choice {
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
        } catch let error as AnswerError {
            throw CommandFailure.badInput("unreadable answer \(AnswerError.excerpt(answer)): \(error.message)")
        } catch let problems as ProblemList {
            throw CommandFailure.badInput("'\(question.id)' cannot be checked: " + problems.problems.map(\.message).joined(separator: "; "))
        }
        if json {
            try JSONOutput.print(entry)
        } else {
            print(text, terminator: "")
        }
    }
}

extension CheckCommand {
    /// A schedule question's moves, replayed: right when they settle the goal (reach it, or show
    /// that no schedule does), wrong otherwise.
    func checkSchedule(_ question: Question) throws {
        let puzzle = try PuzzleResolver.puzzle(from: question)
        let exploration = budgets.explorer.explore(puzzle.program, for: machine.machine)
        try ExplorationStops.refusePartial(exploration, puzzle: puzzle, doing: "grade")
        let goal: PlayGoal
        let play: Playthrough
        do {
            goal = try ScheduleGoal.read(question.goal ?? "", printable: PrintableLines(exploration: exploration))
        } catch {
            throw CommandFailure.badInput("'\(question.id)' has an unreadable goal: \(error.message) ('gcdquiz validate' says where)")
        }
        do {
            play = try ScheduleAnswer.replay(answer, exploration: exploration, goal: goal)
        } catch {
            throw CommandFailure.badInput("unreadable answer \(AnswerError.excerpt(answer)): \(error.message)")
        }
        let verdict = play.status.isSettled ? "right" : "wrong"
        let status = play.narrator.words(for: play.status)
        if json {
            try JSONOutput.print(ScheduleCheckJSON(puzzle: question.id, verdict: verdict, goal: ScheduleGoal.text(goal), moves: play.choices,
                                                   status: status, output: play.output))
        } else {
            let style = TerminalStyle.current(for: .standardOutput)
            let head = verdict == "right" ? style.green(style.bold("right")) : style.red(style.bold("wrong"))
            var text = style.wrappedLines(head + ": " + play.narrator.words(for: goal) + " — " + status) + "\n"
            for reason in play.narrator.reasons(for: play.status) {
                text += style.wrappedLines("  because " + reason.reason + " " + style.dim("(" + reason.rule.statement + ")"), hanging: 4) + "\n"
            }
            print(text, terminator: "")
        }
    }

    /// The answer as printed on variant N of a sheet with seed S (`SheetPlanner.asked`), graded as
    /// `gcdquiz grade` grades it, with the key's points.
    func checkOnSheet(variant: Int, seed: UInt64) throws {
        // A line question is on sheets as the choice question it becomes.
        let question = try CulpritLines.choiceQuestion(from: try PuzzleResolver.question(target, bank: bank.source())).get()
        let item: SheetItem
        do {
            item = try SheetPlanner(title: "", seed: seed, variantCount: variant, traceForm: traceAs)
                .asked(question, inVariant: variant, answers: AnswerBook(bank: nil))
        } catch {
            throw CommandFailure(error)
        }
        let grade = ItemGrade(answer, for: item)
        if grade.verdict == .unreadable {
            throw CommandFailure.badInput("unreadable answer \(AnswerError.excerpt(answer)): " + grade.feedback.joined(separator: " "))
        }
        if json {
            try JSONOutput.print(SheetCheckJSON(grade: grade, variant: variant, seed: seed))
        } else {
            var text = "\(grade.verdict.rawValue): \(TickScoring.number(grade.points)) of \(grade.maxPoints) points (variant \(variant), seed \(seed))\n"
            for line in grade.feedback { text += "  " + line + "\n" }
            print(text, terminator: "")
        }
    }
}

/// `check SCHEDULE-ID MOVES --json`.
struct ScheduleCheckJSON: Encodable {
    var schema = jsonSchemaVersion
    var puzzle: String
    var kind = "schedule"
    var verdict: String
    var goal: String
    var moves: [Int]
    var status: String
    var output: [String]
}

/// `check --variant N --seed S --json`.
struct SheetCheckJSON: Encodable {
    var schema = jsonSchemaVersion
    var puzzle: String
    var variant: Int
    var seed: UInt64
    var verdict: String
    var points: Double
    var outOf: Int
    var feedback: [String]

    init(grade: ItemGrade, variant: Int, seed: UInt64) {
        puzzle = grade.item.question.id
        self.variant = variant
        self.seed = seed
        verdict = grade.verdict.rawValue
        points = grade.points
        outOf = grade.maxPoints
        feedback = grade.feedback
    }
}
