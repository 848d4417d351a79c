import ArgumentParser
import ConcurrencyModel
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

    @OptionGroup var machine: MachineOptions

    @OptionGroup var languageMode: ModeOptions

    @OptionGroup var budgets: ExplorationOptions

    func run() throws {
        let puzzle = try PuzzleResolver.resolve(target, bank: bank.source(), mode: languageMode.mode)
        let clock = ContinuousClock()
        let start = clock.now
        let exploration = budgets.explorer.explore(puzzle.program, for: machine.machine)
        let elapsed = clock.now - start
        try ExplorationStops.refuseLimits(exploration, puzzle: puzzle)
        let alternative = puzzle.nonsendingAlternative(to: exploration, explorer: budgets.explorer, machine: machine.machine)

        if json {
            // Witnesses are searched while the time budget lasts; past it they are left out
            // (null), so that a large answer still ends within the budget, not minutes later.
            try SolveJSON.print(puzzle: puzzle, exploration: exploration, elapsed: elapsed, alternative: alternative,
                                witnessDeadline: start + .milliseconds(Int(budgets.maxSeconds * 1000)))
        } else {
            let style = TerminalStyle.current(for: .standardOutput)
            print(OutcomeListRenderer.render(exploration, name: puzzle.name, elapsed: elapsed, witnesses: witness, style: style), terminator: "")
            if let alternative { print(OutcomeListRenderer.otherMode(alternative, style: style), terminator: "") }
        }
        if let note = ExplorationStops.budgetNote(exploration) {
            Output.write("gcdquiz: \(note)\n", to: .standardError)
        }
        KeptUntilExit.keep(exploration)
        if let alternative { KeptUntilExit.keep(alternative.exploration) }
    }
}

/// The text form of `solve`: the count and the machine it is for, then one outcome a line with how
/// it ends and, where not every machine shows it, the core counts it needs; then the outcomes
/// only other machines show. Outcomes too many to list are answered by their count, the rules
/// that order the lines and a sample.
enum OutcomeListRenderer {
    /// More outcomes than this are summarised by a sample of `summarySample`.
    static let summaryThreshold = 200
    static let summarySample = 20

    /// The answer NonisolatedNonsendingByDefault would give, after the answer: a project with
    /// Xcode 26's Approachable Concurrency turns it on.
    static func otherMode(_ alternative: ModeAlternative, style: TerminalStyle) -> String {
        let count = alternative.exploration.outcomeCount
        var text = style.wrappedLines(style.bold("With \(LanguageMode.nonisolatedNonsendingByDefault)")
            + " (Xcode 26's Approachable Concurrency; --mode '\(alternative.mode.swiftVersion) + \(LanguageMode.nonisolatedNonsendingByDefault)'),"
            + " plain async functions run on their caller's actor: \(Self.grouped(count)) \(count == 1 ? "outcome" : "outcomes"):") + "\n"
        text += rows(Array(alternative.exploration.reports.prefix(summarySample)), exploration: alternative.exploration, witnesses: false, style: style)
        if alternative.exploration.reports.count > summarySample {
            text += "  " + style.dim("… and \(alternative.exploration.reports.count - summarySample) more (--mode to list them).") + "\n"
        }
        return text
    }

    static func render(_ exploration: Exploration, name: String, elapsed: Duration, witnesses: Bool, style: TerminalStyle) -> String {
        let narrator = exploration.narrator
        let count = exploration.outcomeCount
        let noun = count == 1 ? "outcome" : "outcomes"
        var text = style.wrappedLines("\(style.bold(name)): \(Self.grouped(count)) possible \(noun) \(narrator.machinePhrase(exploration))"
            + (exploration.isComplete ? "" : ", found before the budget ran out")) + "\n"
        if exploration.isListed {
            // Hundreds of outcomes are summarised: a sample, and the rules that order them.
            let shown = exploration.reports.count > summaryThreshold ? Array(exploration.reports.prefix(summarySample)) : exploration.reports
            text += rows(shown, exploration: exploration, witnesses: witnesses, style: style)
            if shown.count < exploration.reports.count {
                text += style.wrappedLines("  " + style.dim("… and \(exploration.reports.count - shown.count) more (solve --json lists every one). The rules that order them:")) + "\n"
                for rule in exploration.program.rulesAtWork {
                    text += style.wrappedLines("  " + style.dim("- \(rule.statement)"), hanging: 2) + "\n"
                }
            }
        } else {
            text += unlisted(exploration, style: style)
        }
        if !exploration.elsewhere.isEmpty {
            text += style.bold("Only on other machines:") + "\n"
            text += rows(exploration.elsewhere, exploration: exploration, witnesses: witnesses, style: style)
        }
        if let other = otherMachines(exploration) {
            text += style.wrappedLines(style.dim(other)) + "\n"
        }
        if exploration.reports.contains(where: { if case .trap = $0.deadlock { true } else { false } }) {
            text += style.wrappedLines(style.dim("a trap is libdispatch's \"dispatch_sync called on queue already owned by current thread\": the process dies at once"), hanging: 0) + "\n"
        }
        for race in exploration.races {
            text += style.wrappedLines(Self.race(race, narrator: narrator, style: style)) + "\n"
        }
        text += style.dim("explored \(exploration.statesExplored) states in \(Self.milliseconds(elapsed))") + "\n"
        return text
    }

    /// One outcome a line: its notation, how it ends, where it happens (when not everywhere).
    private static func rows(_ reports: [OutcomeReport], exploration: Exploration, witnesses: Bool, style: TerminalStyle) -> String {
        let narrator = exploration.narrator
        let notations = reports.map { AnswerNotation.render(Outcome(lines: $0.outcome.lines, end: .finished)) }
        let width = notations.map(TerminalColumns.width).max() ?? 0
        var text = ""
        for (report, notation) in zip(reports, notations) {
            let padded = TerminalColumns.padded(notation, to: width)
            let label = narrator.words(for: report.machines).map { "  " + style.cyan($0) } ?? ""
            switch report.outcome.end {
            case .finished:
                text += "  \(padded)   \(style.green("finished"))\(label)\n"
            case .deadlock:
                let reason = report.deadlock.map(narrator.words(for:)) ?? ""
                text += style.wrappedRow("  \(padded)   \(style.red("deadlock"))\(label)  \(style.dim(reason))", proseColumn: width + 15) + "\n"
            }
            if witnesses {
                for step in report.witness {
                    text += style.wrappedLines("      " + style.dim(narrator.words(for: step))) + "\n"
                }
            }
        }
        return text
    }

    /// Too many outcomes to list: the rules every one of them keeps, and a sample.
    private static func unlisted(_ exploration: Exploration, style: TerminalStyle) -> String {
        var text = style.dim("  too many to list; check ID ANSWER grades any prediction, explain --outcome finds a schedule for any outcome") + "\n"
        if let rules = exploration.orderingRules {
            text += rules.isEmpty ? "  No two lines keep one order in every outcome.\n" : "  In every outcome that prints both:\n"
            for rule in rules {
                text += style.wrappedLines("    \(rule.first) before \(rule.then)") + "\n"
            }
        }
        text += "  A sample:\n"
        for outcome in exploration.sample(10, seed: 1) {
            text += style.wrappedLines("    " + AnswerNotation.render(outcome)) + "\n"
        }
        return text
    }

    /// How many outcomes each other machine has where they are not this machine's: "Outcomes on
    /// other machines — 1 core: 5; 3 cores: 6, not the same ones (--cores N)." A machine with
    /// exactly this machine's outcomes is left out (nothing when every one is); a count equal to
    /// this machine's says that the outcomes differ, or, too many to compare, that it may be so.
    static func otherMachines(_ exploration: Exploration) -> String? {
        let counts = exploration.countsByMachine
        let here = counts.first { $0.machine == exploration.machine }?.count
        // Sets of different sizes differ: only equal counts are compared, once each.
        let others = counts.filter { $0.machine != exploration.machine }
            .map { entry in (entry, same: entry.count == here ? exploration.sameOutcomes(on: entry.machine) : false) }
            .filter { $0.same != true }
        guard !others.isEmpty else { return nil }
        let parts = others.map { entry, same in
            let cores = entry.machine.cores.map { Narrator.count($0) } ?? "\(Narrator.count(exploration.enoughCores)) or more"
            let platform = exploration.platforms.count > 1 ? ", \(entry.machine.platform.name)" : ""
            let qualifier = entry.count != here ? "" : same == false ? ", not the same ones" : ", maybe not the same ones"
            return "\(cores)\(platform): \(grouped(entry.count))\(qualifier)"
        }
        var sentence = "Outcomes on other machines — " + parts.joined(separator: "; ") + " (--cores N)."
        if !exploration.unexplored.isEmpty {
            sentence += " Not computed within the budget: " + exploration.unexplored.map { $0.cores.map { Narrator.count($0) } ?? "enough cores" }.joined(separator: ", ") + "."
        }
        return sentence
    }

    /// 81729648000 as "81,729,648,000".
    static func grouped(_ count: UInt64) -> String {
        let digits = String(count)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
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
