import ArgumentParser
import Foundation
import Quiz
import Sheets

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export questions with computed answers to Moodle XML, GIFT, Anki, JSON or QTI 1.2.",
        discussion: """
            moodle: Moodle XML (choice and trace questions as multichoice, a trace puzzle asking \
            to select every outcome that can happen among near misses the model rules out; short \
            questions as essays with the model answer for the grader). gift: the same in Moodle's \
            GIFT text format. anki: Anki's text import, one note per question, with a GUID so \
            that importing again updates the notes. json: the questions with their computed answers. \
            qti: QTI 1.2 in an IMS content package (a ZIP), for Canvas and Blackboard. Every trace \
            question states the prelude and the host's rules.
            """)

    @OptionGroup var bank: BankOptions

    @Option(name: .long, help: ArgumentHelp("The file's format.", valueName: "format"))
    var format: ExportFormat

    @OptionGroup var filter: FilterOptions

    @OptionGroup var selection: SelectionOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seed for --count's choice, the near misses offered and Anki's order of options (the drill's for the same seed).", valueName: "s"))
    var seed: UInt64 = 1

    @OptionGroup var twins: GeneratedTwinsOption

    @Option(name: .long, help: ArgumentHelp("The file to write (default: standard output).", valueName: "file"))
    var output: String?

    func run() throws {
        let bank = try self.bank.load()
        try CommandFailure.reporting { () throws(SheetError) in
            let file = output.map { URL(fileURLWithPath: $0) }
            if let file { try AtomicFile.check(file) }
            if file == nil, format == .qti, isatty(STDOUT_FILENO) == 1 {
                throw .badInput("a QTI package is a ZIP file, not text for a terminal: give --output FILE.zip")
            }
            let questions = try selection.filter(with: filter).select(from: bank, seed: seed)
            let answers = AnswerBook(bank: bank)
            let twins = self.twins.provider(bank: bank, variants: 1, seed: seed, answers: answers, asking: questions)
            let data = try Exporter.export(questions, as: format, answers: answers, seed: seed, provider: twins.provider)
            twins.reportShortfall()
            if let file {
                try AtomicFile.write(data, to: file)
            } else {
                Output.write(data)
            }
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
