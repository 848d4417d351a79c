import ArgumentParser
import Foundation
import Progress
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

    @Flag(name: .long, help: "Only the questions answered wrongly (or partly) the last time they were answered.")
    var missed = false

    @Flag(name: .long, help: "Fresh trace puzzles, generated and checked by the model, on the topics you are weakest in (--count of them, default 5).")
    var generated = false

    @OptionGroup var recording: RecordingOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if !(0...100_000).contains(liveRuns) { throw ValidationError("--live-runs must be between 0 and 100000") }
        if missed && generated { throw ValidationError("choose one of --missed and --generated") }
    }

    func run() throws {
        let bank = try self.bank.load(compilation: .onDemand)
        if !bank.problems.isEmpty {
            Output.write("gcdquiz: \(bank.problems.count) problem(s) in the bank were skipped; 'gcdquiz validate' lists them\n", to: .standardError)
        }
        var session = DrillSession(bank: bank, options: DrillOptions(tags: filter.tag, level: filter.level, kind: kind, count: count, seed: seed))
        let memory = recording.begin(mode: .drill, seed: session.seed)
        var greeting: String?
        if missed {
            let plan = SessionPlan(bank: bank, history: memory.history, newPerDay: 0)
            let chosen = Set(session.questions.map(\.id))
            let wanted = plan.plan.missed.filter { chosen.contains($0.id) }
            guard !wanted.isEmpty else {
                print(memory.isReturning ? "Nothing to go over: no question\(filtered ? " of those filters" : "") was answered wrongly the last time it was answered." :
                    "Nothing to go over yet: no answer is recorded (in \((try? recording.store.path()) ?? "the progress database")).")
                return
            }
            session = DrillSession(bank: bank, questions: Array(wanted.prefix(count ?? wanted.count)), seed: session.seed, kind: kind)
        } else if generated {
            let puzzles = GeneratedQuestions.forWeakestTopics(bank: bank, history: memory.history, count: count ?? 5, seed: session.seed)
            guard !puzzles.isEmpty else {
                throw CommandFailure.unexpected("no puzzle could be generated from this bank's trace puzzles")
            }
            session = DrillSession(bank: bank, questions: puzzles, seed: session.seed)
        } else if memory.isReturning && !filtered {
            // A returning learner starts where the memory says: what is due, then what was missed.
            let plan = SessionPlan(bank: bank, history: memory.history, newPerDay: 10)
            session.putFirst(plan.first)
            greeting = plan.greeting
        }
        guard !session.questions.isEmpty else {
            throw CommandFailure.badInput("no question matches those filters; 'gcdquiz list' shows the bank")
        }
        let repl = Self.repl(session: session, liveRuns: liveRuns, memory: memory, greeting: greeting)
        repl.run()
    }

    /// The drill's REPL for `session`: line-edited at a terminal, plain lines from a pipe.
    static func repl(session: DrillSession, liveRuns: Int, memory: SessionMemory?, greeting: String?) -> DrillREPL {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var input: LineInput = PlainLineInput()
        if interactive, let editor = EditLineInput(historyPath: Self.historyPath()) {
            input = editor
        }
        return DrillREPL(session: session, input: input, style: .current(for: .standardOutput), liveRuns: liveRuns,
                         memory: memory, greeting: greeting)
    }

    /// Whether the learner chose which questions (then the memory does not reorder them).
    var filtered: Bool { !filter.tag.isEmpty || filter.level != nil || kind != nil }

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
