import ArgumentParser
import Foundation
import LiveRun
import Quiz
import Sheets

struct SheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Write printable question sheets with answer keys, in variants, every answer computed.",
        discussion: """
            Writes, per variant, sheet-ID and key-ID (what to accept, in that variant's order and \
            letters), plus notes (why each answer is right, once for every variant), sheets \
            (every variant's sheet, to print at once) and keys (every key, then the notes), as \
            HTML, Markdown or PDF (made from the HTML with WeasyPrint), and sheet-plan.json (what \
            each variant asks, for 'gcdquiz grade'). Variants ask the same questions in their own \
            order with their own order of options; with --generated, each variant also asks its \
            own generated twin of every trace puzzle (its key and note computed like any other; \
            the note ends that variant's key). With --roster, one variant per student, their name \
            and id on every page, and roster-map.csv saying who has which. The same --seed, \
            roster and bank give the same files, byte for byte.
            """)

    @OptionGroup var bank: BankOptions

    @OptionGroup var filter: FilterOptions

    @OptionGroup var selection: SelectionOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("How many variants (1–500; with --roster, one per student).", valueName: "n"))
    var variants: Int?

    @Option(name: .long, help: ArgumentHelp("A class: one student a line, 'name, id' and optionally a seed (CSV). Each student gets a variant with their name and id on every page.", valueName: "file"))
    var roster: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seed for the choice of questions, their order and options (default: random, and printed).", valueName: "s"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("The title on every page (default: 'GCD and OperationQueue quiz', 'Swift concurrency quiz' or 'Concurrency quiz', after the questions' topics).", valueName: "text"))
    var title: String?

    @Option(name: .long, help: ArgumentHelp("The files' format (pdf is made from the HTML with WeasyPrint).", valueName: "format"))
    var format: SheetFormat = .html

    @Option(name: .long, help: ArgumentHelp("The paper size the HTML and PDF are laid out for.", valueName: "paper"))
    var paper: Paper = .a4

    @Flag(inversion: .prefixedNo, help: "Pad each variant to an even number of pages in the files of every variant, for printing on both sides.")
    var duplex = true

    @Option(name: .customLong("trace-as"), help: ArgumentHelp("How trace puzzles are asked: write every outcome on ruled lines, or select the outcomes that can happen among near misses the model rules out.", valueName: "form"))
    var traceAs: TraceForm = .write

    @OptionGroup var twins: GeneratedTwinsOption

    @Flag(name: .long, help: "Run each trace puzzle live on libdispatch and add what the runs showed to the notes.")
    var live = false

    @Option(name: .long, help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var output = "sheets"

    @Flag(name: .long, help: "Remove sheets, keys and a roster map of an earlier run in the folder that this run would not replace (without it, such files stop the run).")
    var force = false

    func validate() throws {
        if let variants, !(1...500).contains(variants) { throw ValidationError("--variants must be between 1 and 500") }
    }

    func run() throws {
        let bank = try self.bank.load()
        let seed = self.seed ?? UInt64.random(in: 1...999_999)
        try CommandFailure.reporting { () throws(SheetError) in
            let folder = URL(fileURLWithPath: output)
            try StagedOutput.check(folder)
            let pdfMaker = format == .pdf ? PDFMaker.find() : nil
            if format == .pdf && pdfMaker == nil {
                throw .badInput("no PDF: WeasyPrint is not installed; \(PDFMaker.installHint), or choose --format html")
            }
            var students: [Student] = []
            if let roster { students = try Roster.read(URL(fileURLWithPath: roster)) }
            if let variants, !students.isEmpty, variants != students.count {
                throw .badInput("--variants \(variants) with a roster of \(students.count) students: leave --variants out, each student gets a variant")
            }
            let count = students.isEmpty ? variants ?? 1 : students.count
            let questions = try selection.filter(with: filter).select(from: bank, seed: seed)
            let runner: LiveRunning? = live ? KeyLiveRuns(runner: .selfHosted, seed: seed) : nil
            let answers = AnswerBook(bank: bank, live: runner)
            let twins = self.twins.provider(bank: bank, variants: count, seed: seed, answers: answers, asking: questions)
            let sheet = try SheetPlanner(title: title ?? SheetTitle.default(for: questions), seed: seed, variantCount: count, traceForm: traceAs)
                .plan(questions, answers: answers, provider: twins.provider, students: students)
            twins.reportShortfall()
            InterruptCleanup.install()
            let written = try SheetWriter.write(sheet, options: .init(format: format, paper: paper, duplex: duplex, removeEarlierFiles: force),
                                                to: folder, pdfMaker: pdfMaker)
            let noun = count == 1 ? "variant" : "variants"
            let whose = students.isEmpty ? "" : " (one per student of \(roster ?? ""))"
            print("\(count) \(noun)\(whose) of \(questions.count) questions, seed \(seed) (--seed \(seed) writes the same files again):")
            for file in written.files {
                print("  " + file.path)
            }
            if !written.removed.isEmpty {
                Output.write("gcdquiz: removed \(written.removed.count) file(s) of an earlier run (--force): \(written.removed.joined(separator: ", "))\n", to: .standardError)
            }
            if !bank.problems.isEmpty {
                Output.write("gcdquiz: note: \(bank.problems.count) problem(s) in the bank left some questions out: run 'gcdquiz validate'\n", to: .standardError)
            }
        }
    }
}

extension SheetFormat: ExpressibleByArgument {}
extension Paper: ExpressibleByArgument {}
extension TraceForm: ExpressibleByArgument {}
