import ArgumentParser
import Foundation
import Quiz

struct DrillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill",
        abstract: "The interactive drill (what 'gcdquiz' alone starts).",
        discussion: "On a terminal, answers are line-edited (history in $XDG_STATE_HOME/gcdquiz/history). Otherwise answers are read line by line from standard input.")

    @OptionGroup var bank: BankOptions

    @OptionGroup var filter: FilterOptions

    @Option(name: .long, help: ArgumentHelp("Only questions of this kind (default: every kind, mixed).", valueName: "kind"))
    var kind: Question.Kind?

    @Option(name: .long, help: ArgumentHelp("At most this many questions (follow-ups of answered ones come on top).", valueName: "n"))
    var count: Int?

    @Option(name: .long, help: ArgumentHelp("Seed for the order of questions, of choice options, and the live runs' jitter.", valueName: "s"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Live runs per puzzle, started while you type (0: none).", valueName: "n"))
    var liveRuns = 300

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if !(0...100_000).contains(liveRuns) { throw ValidationError("--live-runs must be between 0 and 100000") }
    }

    func run() throws {
        let bank = try self.bank.load(compilation: .onDemand)
        if !bank.problems.isEmpty {
            Output.write("gcdquiz: \(bank.problems.count) problem(s) in the bank were skipped; 'gcdquiz validate' lists them\n", to: .standardError)
        }
        let session = DrillSession(bank: bank, options: DrillOptions(tags: filter.tag, level: filter.level, kind: kind, count: count, seed: seed))
        guard !session.questions.isEmpty else {
            throw CommandFailure.badInput("no question matches those filters; 'gcdquiz list' shows the bank")
        }
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var input: LineInput = PlainLineInput()
        if interactive, let editor = EditLineInput(historyPath: Self.historyPath()) {
            input = editor
        }
        let repl = DrillREPL(session: session, input: input, style: .current(for: .standardOutput), liveRuns: liveRuns)
        repl.run()
    }

    /// `$XDG_STATE_HOME/gcdquiz/history`, or `~/.local/state/gcdquiz/history`.
    static func historyPath() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            return state + "/gcdquiz/history"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/gcdquiz/history"
    }
}
