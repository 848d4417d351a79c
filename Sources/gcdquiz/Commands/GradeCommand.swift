import ArgumentParser
import Foundation
import Quiz
import Sheets

struct GradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade",
        abstract: "Grade a class's answers with the model: per-student scores and feedback, and a class report.",
        discussion: """
            ANSWERS is a CSV with a header row naming the columns student, question and answer: \
            one answer a row, the student's id as on the roster (or a variant's number without \
            one), the question's number on the student's own sheet, and the answer as the sheet \
            asks for it (outcomes in the notation; letters as printed on that student's variant). \
            Every answer is graded against what the student's variant asked, read from \
            sheet-plan.json in --sheets: trace answers by the grader 'check' uses, choice letters \
            in the variant's order, short answers by their key ideas, with the key's points. \
            With --moodle, grades Moodle's responses report (CSV) of a quiz made from 'export \
            --format moodle' with the same filters and --seed, its questions in the export's \
            order. Writes into --output: scores.csv, feedback.csv, feedback-ID.txt per student, \
            and report.txt, report.csv, report.json and report.html for the class.
            """)

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("The class's answers (CSV: student, question, answer).", valueName: "answers.csv"))
    var answers: String?

    @Option(name: .long, help: ArgumentHelp("The folder the sheets were written to (it holds sheet-plan.json and roster-map.csv).", valueName: "dir"))
    var sheets = "sheets"

    @Option(name: .long, help: ArgumentHelp("Moodle's responses report (CSV) instead of ANSWERS; the questions are the export's (same filters and --seed).", valueName: "file"))
    var moodle: String?

    @OptionGroup var filter: FilterOptions

    @OptionGroup var selection: SelectionOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("With --moodle: the export's --seed.", valueName: "s"))
    var seed: UInt64 = 1

    @OptionGroup var twins: GeneratedTwinsOption

    @Option(name: .long, help: ArgumentHelp("The folder to write the grades into (created if missing).", valueName: "dir"))
    var output = "grades"

    func validate() throws {
        if (answers == nil) == (moodle == nil) {
            throw ValidationError("give the class's answers (a CSV file) or --moodle with Moodle's responses report, one of the two")
        }
    }

    func run() throws {
        let bank = try self.bank.load()
        try CommandFailure.reporting { () throws(SheetError) in
            let folder = URL(fileURLWithPath: output)
            try StagedOutput.check(folder)
            let book = AnswerBook(bank: bank)
            let sheet: Sheet
            let submissions: [Submission]
            if let moodle {
                let questions = try selection.filter(with: filter).select(from: bank, seed: seed)
                let twins = self.twins.provider(bank: bank, variants: 1, seed: seed, answers: book, asking: questions)
                sheet = try Exporter.plan(questions, answers: book, seed: seed, traceForm: .select, provider: twins.provider)
                let url = URL(fileURLWithPath: moodle)
                submissions = try ClassAnswers.readMoodle(CSVTable.read(url), file: moodle, items: sheet.variants[0].items)
            } else if let answers {
                let plan = try SheetPlanFile.read(URL(fileURLWithPath: sheets).appendingPathComponent(SheetPlanFile.fileName))
                sheet = try plan.sheet(bank: bank, answers: book)
                submissions = try ClassAnswers.read(CSVTable.read(URL(fileURLWithPath: answers)), file: answers, sheet: sheet)
            } else {
                return
            }
            let grades = ClassGrades(submissions, sheet: sheet)
            let output = try StagedOutput(target: folder)
            let files = GradeFiles.files(grades)
            do throws(SheetError) {
                for file in files { try output.write(file) }
                try output.commit(files.map(\.name))
            } catch {
                output.discard()
                throw error
            }
            print(GradeFiles.text(grades), terminator: "")
            print("\nwritten into \(folder.path): scores.csv, feedback.csv, report.txt, report.csv, report.json, report.html and \(files.count - 6) feedback-ID.txt")
        }
    }
}
