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
            HTML, Markdown or PDF (made from the HTML with WeasyPrint). Variants ask the same \
            questions in their own order with their own order of options; with --generated, each \
            variant also asks its own generated twin of every trace puzzle (its key and note \
            computed like any other; the note ends that variant's key). The same --seed and bank \
            give the same files, byte for byte.
            """)

    @OptionGroup var bank: BankOptions

    @OptionGroup var filter: FilterOptions

    @OptionGroup var selection: SelectionOptions

    @Option(name: .long, help: ArgumentHelp("How many variants (1–500).", valueName: "n"))
    var variants = 1

    @Option(name: .long, help: ArgumentHelp("Seed for the choice of questions, their order and options (default: random, and printed).", valueName: "s"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("The title on every page.", valueName: "text"))
    var title = "GCD and OperationQueue quiz"

    @Option(name: .long, help: ArgumentHelp("The files' format (pdf is made from the HTML with WeasyPrint).", valueName: "format"))
    var format: SheetFormat = .html

    @Option(name: .long, help: ArgumentHelp("The paper size the HTML and PDF are laid out for.", valueName: "paper"))
    var paper: Paper = .a4

    @Option(name: .customLong("trace-as"), help: ArgumentHelp("How trace puzzles are asked: write every outcome on ruled lines, or select the outcomes that can happen among near misses the model rules out.", valueName: "form"))
    var traceAs: TraceForm = .write

    @OptionGroup var twins: GeneratedTwinsOption

    @Flag(name: .long, help: "Run each trace puzzle live on libdispatch and add what the runs showed to the notes.")
    var live = false

    @Option(name: .long, help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var output = "sheets"

    func validate() throws {
        if !(1...500).contains(variants) { throw ValidationError("--variants must be between 1 and 500") }
    }

    func run() throws {
        let bank = try self.bank.load()
        let seed = self.seed ?? UInt64.random(in: 1...999_999)
        try CommandFailure.reporting { () throws(SheetError) in
            let folder = URL(fileURLWithPath: output)
            try StagedOutput.check(folder)
            let questions = try selection.filter(with: filter).select(from: bank, seed: seed)
            let runner: LiveRunning? = live ? KeyLiveRuns(runner: .selfHosted, seed: seed) : nil
            let answers = AnswerBook(bank: bank, live: runner)
            let twins = self.twins.provider(bank: bank, variants: variants, seed: seed, answers: answers)
            let sheet = try SheetPlanner(title: title, seed: seed, variantCount: variants, traceForm: traceAs)
                .plan(questions, answers: answers, provider: twins.provider)
            twins.reportShortfall()
            let written = try SheetWriter.write(sheet, format: format, paper: paper, to: folder,
                                                pdfMaker: format == .pdf ? PDFMaker.find() : nil)
            if written.pdfUnavailable {
                Output.write("gcdquiz: no PDF: WeasyPrint is not installed, so the HTML was written instead; \(PDFMaker.installHint)\n", to: .standardError)
            }
            let noun = variants == 1 ? "variant" : "variants"
            print("\(variants) \(noun) of \(questions.count) questions, seed \(seed) (--seed \(seed) writes the same files again):")
            for file in written.files {
                print("  " + file.path)
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
