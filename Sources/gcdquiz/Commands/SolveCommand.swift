import ArgumentParser
import DispatchModel
import Foundation
import Quiz

struct SolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Print every output a snippet can possibly produce, from the model.",
        discussion: "FILE is a .swift snippet written against the prelude (serialQueue, concurrentQueue) or a question .yaml file.")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a .swift / .yaml file.", valueName: "id|file"))
    var target: String

    @Flag(name: .long, help: "Print JSON: {\"outcomes\": [{\"lines\", \"end\", …}], \"count\", \"complete\", …}.")
    var json = false

    @Flag(name: .long, help: "Also print a schedule that produces each outcome.")
    var witness = false

    @OptionGroup var budgets: ExplorationOptions

    func run() throws {
        let puzzle = try PuzzleResolver.resolve(target, bank: bank.source())
        let clock = ContinuousClock()
        let start = clock.now
        let exploration = budgets.explorer.explore(puzzle.program)
        let elapsed = clock.now - start

        if json {
            try SolveJSON.print(puzzle: puzzle, exploration: exploration, elapsed: elapsed)
        } else {
            let style = TerminalStyle.current(for: .standardOutput)
            print(OutcomeListRenderer.render(exploration, name: puzzle.name, elapsed: elapsed, witnesses: witness, style: style), terminator: "")
        }
        if let stop = exploration.stop {
            throw CommandFailure.unexpected("\(stop) (--max-states, --max-memory): the outcomes above are possible, but there may be more")
        }
    }
}

/// The text form of `solve`: the count, then one outcome a line with how it ends.
enum OutcomeListRenderer {
    /// More outcomes than this are summarised by a sample of `summarySample`.
    static let summaryThreshold = 200
    static let summarySample = 20

    static func render(_ exploration: Exploration, name: String, elapsed: Duration, witnesses: Bool, style: TerminalStyle) -> String {
        let count = exploration.reports.count
        let noun = count == 1 ? "outcome" : "outcomes"
        var text = "\(style.bold(name)): \(count) possible \(noun)\(exploration.isComplete ? "" : " found before the budget ran out")\n"
        // Hundreds of thousands of outcomes are summarised: a sample, and the rules that order them.
        let shown = count > summaryThreshold ? Array(exploration.reports.prefix(summarySample)) : exploration.reports
        let notations = shown.map { AnswerNotation.render(Outcome(lines: $0.outcome.lines, end: .finished)) }
        let width = notations.map(TerminalColumns.width).max() ?? 0
        for (report, notation) in zip(shown, notations) {
            let padded = TerminalColumns.padded(notation, to: width)
            switch report.outcome.end {
            case .finished:
                text += "  \(padded)   \(style.green("finished"))\n"
            case .deadlock:
                let reason = report.deadlock.map(exploration.narrator.words(for:)) ?? ""
                text += style.wrappedRow("  \(padded)   \(style.red("deadlock"))  \(style.dim(reason))", proseColumn: width + 15) + "\n"
            }
            if witnesses {
                for step in report.witness {
                    text += style.wrappedLines("      " + style.dim(exploration.narrator.words(for: step))) + "\n"
                }
            }
        }
        if shown.count < count {
            text += style.wrappedLines("  " + style.dim("… and \(count - shown.count) more (solve --json lists every one). The rules that order them:")) + "\n"
            for rule in exploration.program.rulesAtWork {
                text += style.wrappedLines("  " + style.dim("- \(rule.statement)"), hanging: 2) + "\n"
            }
        }
        if exploration.reports.contains(where: { if case .trap = $0.deadlock { true } else { false } }) {
            text += style.wrappedLines(style.dim("a trap is libdispatch's \"dispatch_sync called on queue already owned by current thread\": the process dies at once"), hanging: 0) + "\n"
        }
        for race in exploration.races {
            text += style.wrappedLines(Self.race(race, narrator: exploration.narrator, style: style)) + "\n"
        }
        text += style.dim("explored \(exploration.statesExplored) states in \(Self.milliseconds(elapsed))") + "\n"
        return text
    }

    /// A data race as the terminal says it, its subject highlighted.
    static func race(_ race: DataRace, narrator: Narrator, style: TerminalStyle) -> String {
        style.yellow(narrator.subject(of: race) + ":") + " " + narrator.accesses(of: race, articles: true)
    }

    static func milliseconds(_ duration: Duration) -> String {
        // Not String(format:): its first use costs a solve as much as exploring a slide puzzle.
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        guard ms < 10 else { return "\(Int(ms.rounded())) ms" }
        let hundredths = Int((ms * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) ms"
    }
}
