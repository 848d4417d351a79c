import ArgumentParser
import ConcurrencyModel
import Foundation
import Progress
import Quiz

struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "The self-assessment report: per topic, questions seen, accuracy, recall now, what is due; or export and import the review log.",
        discussion: """
            Without options it prints the report for a terminal, topics weakest first: questions seen of the \
            topic's total, the share right in the last 30 days, recall (the chance each question seen is \
            answered right today, FSRS-6), the number due, and strength (the share of the whole topic \
            recalled today, unseen questions counting as unknown). Exports keep every recorded field; \
            importing merges without duplicating answers already there.
            """)

    @OptionGroup var bank: BankOptions

    @OptionGroup var store: ProgressOptions

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Write the report as one HTML page (with charts; prints on one page).", valueName: "file"))
    var html: String?

    @Option(name: .customLong("export"), help: ArgumentHelp("Write the whole review log to FILE.csv or FILE.json.", valueName: "file"))
    var exportFile: String?

    @Option(name: .customLong("import"), help: ArgumentHelp("Add the answers of a log written by --export (.csv or .json) that the database does not have yet.", valueName: "file"))
    var importFile: String?

    @Option(name: .long, help: ArgumentHelp("New questions a day the 'new left today' figure allows.", valueName: "n"))
    var new = 10

    func validate() throws {
        let chosen = [json, html != nil, exportFile != nil, importFile != nil].filter { $0 }.count
        if chosen > 1 { throw ValidationError("choose one of --json, --html, --export and --import") }
        for file in [exportFile, importFile].compactMap({ $0 }) where LogExchange.Format(path: file) == nil {
            throw ValidationError("'\(file)': --export and --import take a .csv or .json file")
        }
        if new < 0 { throw ValidationError("--new must be 0 or more") }
    }

    func run() throws {
        if let importFile { return try importLog(importFile) }
        if let exportFile { return try exportLog(exportFile) }
        // The report needs each question's card, level and topics, not its text: the bank index,
        // which parses only the files changed since it was cached.
        let questions = BankIndex.load(root: try bank.requiredSource().root, cacheFolder: BankIndex.cacheFolder()).entries
        let history = try store.history(days: ProgressReport.reviewWindowDays)
        let report = ProgressReport(questions: questions, history: history, newPerDay: new)
        if json {
            try JSONOutput.print(report)
        } else if let html {
            try write(Data(HTMLReport.render(report).utf8), to: html)
            print("wrote \(html): the report as one page (open it in a browser, or print it)")
        } else {
            let environment = ProcessInfo.processInfo.environment
            let plain = environment["TERM"] == "dumb" || !(environment["NO_COLOR"] ?? "").isEmpty
            let style = TerminalReport.Style(unicode: !plain, bold: TerminalStyle.current(for: .standardOutput).enabled)
            print(TerminalReport.render(report, style: style), terminator: "")
        }
    }

    func exportLog(_ file: String) throws {
        let reviews = try store.reviews()
        try write(LogExchange.export(reviews, as: LogExchange.Format(path: file)!), to: file)
        print("exported \(reviews.count) answer(s) to \(file)")
    }

    func importLog(_ file: String) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure.badInput("cannot read \(file)")
        }
        let reviews: [Review]
        do {
            reviews = try LogExchange.read(data, as: LogExchange.Format(path: file)!, name: file)
        } catch let problems as ProblemList {
            // A file is imported whole or not at all: every problem, then what that means.
            let shown = 20
            Output.write(ProblemRenderer.render(Array(problems.problems.prefix(shown)), style: .current(for: .standardError)), to: .standardError)
            let count = problems.problems.count
            throw CommandFailure.badInput("nothing imported: \(count) problem\(count == 1 ? "" : "s") in \(file)"
                + (count > shown ? " (the first \(shown) above)" : "") + ", and a log is imported whole or not at all")
        }
        let opening = try store.open()
        guard let target = opening.store, target.isWritable else {
            throw CommandFailure.badInput("nothing imported: the progress database cannot be written")
        }
        let added: Int
        do {
            added = try target.merge(reviews)
        } catch {
            throw CommandFailure.unexpected("cannot write the progress database \(target.path): \(error)")
        }
        print("imported \(added) new answer(s) of \(reviews.count) into \(target.path)" + (added < reviews.count ? " (\(reviews.count - added) were already there)" : ""))
    }

    /// Writes `file` whole, or says what is wrong with which path (a folder given for a file, a
    /// folder that does not exist, no permission) instead of Foundation's "error 512".
    func write(_ data: Data, to file: String) throws {
        if let problem = OutputPath.problem(writing: file) { throw CommandFailure.badInput(problem) }
        do {
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw CommandFailure.badInput("cannot write \(file): \(OutputPath.reason(error))")
        }
    }
}
