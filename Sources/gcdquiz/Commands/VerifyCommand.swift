import ArgumentParser
import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

/// The model against the real compiler: each puzzle, prelude in front, compiled by swiftc into a
/// program of its own and run a few dozen times; any output outside the model's set fails.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Compile each bank puzzle with swiftc (prelude in front), run it, and check every output against the model.",
        discussion: """
            A compiled program serves the main queue for a grace period long enough for its sleeps and \
            timers, then exits; a run that exits this way is accepted when its lines end a possible \
            outcome, finished or stuck. A run that exits having printed only the start of a possible \
            outcome is repeated with one, then five seconds more (a loaded machine may not have run \
            the workers yet) before it counts. A trap the snippet causes is a deadlock, as in `run`; a program \
            still running two seconds after its grace period is killed (a timeout, accepted where the \
            model has a deadlock). Slow: one swiftc per puzzle.
            """)

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("Question ids or files (default: every trace puzzle).", valueName: "id|file"))
    var targets: [String] = []

    @Option(name: .long, help: "Runs of each compiled program.")
    var runs = 30

    func validate() throws {
        if !(1...1_000_000).contains(runs) { throw ValidationError("--runs must be between 1 and 1000000") }
    }

    func run() throws {
        let bank = try self.bank.load()
        let style = TerminalStyle.current(for: .standardOutput)
        // A Swift-concurrency snippet the model refuses may be one its language mode rejects:
        // swiftc says so at its line before the model's refusal is reported.
        for target in targets where bank.question(id: target) == nil {
            let live = try PuzzleResolver.liveTarget(target, bank: BankSource(root: bank.root))
            guard case .failure(let problems) = live.program else { continue }
            let mode = LanguageMode.mode(live.mode, for: live.code)
            let (compiles, output) = try CompiledSnippet.typeCheck(live.code, mode: mode, fileName: live.question?.file ?? live.name)
            if !compiles { printRejection(live.name, mode: mode, output: output, style: style) }
            throw problems
        }
        let puzzles = try targets.isEmpty
            ? bank.questions(kind: .trace).map { try PuzzleResolver.puzzle(from: $0, in: bank) }
            : targets.map { try PuzzleResolver.resolve($0, in: bank) }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-verify-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        var failures = 0
        var rejected = 0
        var unanswered = 0
        // The programs run here: their outcomes are compared with the answer for this machine
        // (under `taskset -c 0`, a one-core machine).
        let machine = Machine.live
        for (index, puzzle) in puzzles.enumerated() {
            let exploration = Explorer().explore(puzzle.program, for: machine)
            if LiveRoute.route(for: puzzle.code) == .compiled {
                switch try verifyCompiled(puzzle, exploration: exploration, style: style) {
                case .agrees: break
                case .rejected: rejected += 1
                case .disagrees: failures += 1
                case .incomplete: unanswered += 1
                }
                continue
            }
            let start = Date()
            let compiled = try CompiledSnippet.build(
                code: puzzle.code, graceMilliseconds: CompiledSnippet.grace(for: puzzle.program),
                in: root.appendingPathComponent("\(index)"))
            let compileSeconds = Date().timeIntervalSince(start)
            var seen: Set<Outcome> = []
            var bad: [(outcome: LiveOutcome, reason: String)] = []
            for _ in 0..<runs {
                let (outcome, reason, allowed) = try compiled.check(against: exploration)
                if let allowed {
                    seen.insert(allowed)
                } else if !bad.contains(where: { $0.outcome == outcome }) {
                    bad.append((outcome, reason))
                }
            }
            let summary = "\(puzzle.name): \(seen.count) of \(exploration.outcomeCount) outcomes on \(Narrator.count(machine.cores ?? 1)) in \(runs) runs (swiftc \(String(format: "%.1f", compileSeconds)) s)"
            if bad.isEmpty {
                print(style.green("ok  ") + summary)
            } else if let stop = exploration.stop {
                unanswered += 1
                printIncomplete(summary, stop: stop, unseen: bad.count, style: style)
            } else {
                failures += 1
                print(style.red("FAIL ") + summary)
                for (outcome, reason) in bad {
                    let elsewhere = outcome.modelOutcome.flatMap(exploration.label(of:)).flatMap(exploration.narrator.words(for:))
                    print("     " + style.red("not allowed by the model on this machine: ") + AnswerNotation.render(Outcome(lines: outcome.lines, end: .finished))
                        + " (\(outcome.end.rawValue)\(reason.isEmpty ? "" : ": " + reason))" + (elsewhere.map { "; it \($0)" } ?? ""))
                }
            }
        }
        if failures > 0 {
            throw CommandFailure.unexpected("\(failures) puzzle(s) printed something the model says cannot happen")
        }
        if unanswered > 0 {
            throw CommandFailure.unexpected("\(unanswered) puzzle(s) could not be checked: the model's answer is incomplete")
        }
        if rejected > 0 {
            throw CommandFailure.badInput("\(rejected) puzzle(s) do not compile in their language mode")
        }
    }

    /// What a compiled check of a Swift-concurrency puzzle found.
    private enum CompiledVerdict {
        /// Every run printed an outcome the model allows.
        case agrees
        /// swiftc refuses the snippet in its language mode: the snippet is wrong, not the model.
        case rejected
        /// A run printed an outcome the model forbids.
        case disagrees
        /// A run printed an outcome the model's search, stopped at a budget, had not reached:
        /// neither agreement nor disagreement.
        case incomplete
    }

    /// Outcomes outside an answer the explorer gave up on: the answer is partial, not wrong.
    private func printIncomplete(_ summary: String, stop: Exploration.Stop, unseen: Int, style: TerminalStyle) {
        print(style.yellow("INCOMPLETE ") + summary)
        print("     \(unseen) outcome(s) printed are not among those the model found before \(stop); it cannot say whether they are possible")
    }

    private func printRejection(_ name: String, mode: LanguageMode, output: String, style: TerminalStyle) {
        print(style.red("FAIL ") + "\(name): swiftc (\(mode)) rejects it:")
        for line in output.split(separator: "\n").filter({ $0.contains(": error:") && !$0.hasPrefix(" ") }).prefix(10) { print("     " + line) }
    }

    /// A Swift-concurrency puzzle: type-checked by swiftc in its language mode (Swift 6 unless it
    /// says otherwise), where a mode error is a failure at the snippet's line; then compiled into
    /// the live harness (cached) and run without jitter, each run ending when nothing is left as
    /// the host's rule says, every outcome looked up in the model's.
    private func verifyCompiled(_ puzzle: Puzzle, exploration: Exploration, style: TerminalStyle) throws -> CompiledVerdict {
        let mode = LanguageMode.mode(puzzle.program.mode, for: puzzle.code)
        let start = Date()
        let (compiles, output) = try CompiledSnippet.typeCheck(puzzle.code, mode: mode, fileName: puzzle.question?.file ?? puzzle.name)
        guard compiles else {
            printRejection(puzzle.name, mode: mode, output: output, style: style)
            return .rejected
        }
        _ = try CompiledHarness.prepare(code: puzzle.code, mode: mode)
        let compileSeconds = Date().timeIntervalSince(start)
        let histogram = try LiveRunner.selfHosted.run(code: puzzle.code, program: puzzle.program,
                                                      options: LiveRunner.Options(runs: runs, seed: 1, jitter: false))
        let comparison = LiveComparison(histogram: histogram, exploration: exploration)
        let summary = "\(puzzle.name): \(comparison.seenCount) of \(exploration.outcomeCount) outcomes on \(Narrator.count(Machine.live.cores ?? 1)) "
            + "in \(histogram.runs) runs (swiftc \(mode), \(String(format: "%.1f", compileSeconds)) s)"
        // An outcome seen only in runs the machine made late says nothing about the model.
        let bad = comparison.rows.filter { !$0.isExpected && !$0.isLateOnly }
        if bad.isEmpty {
            print(style.green("ok  ") + summary)
            return .agrees
        }
        if let stop = exploration.stop {
            printIncomplete(summary, stop: stop, unseen: bad.count, style: style)
            return .incomplete
        }
        print(style.red("FAIL ") + summary)
        for row in bad {
            let reason = row.entry.reason.map { ": " + $0 } ?? ""
            print("     " + style.red("not allowed by the model on this machine: ") + AnswerNotation.render(Outcome(lines: row.entry.outcome.lines, end: .finished))
                + " (\(row.entry.outcome.end.rawValue)\(reason))")
        }
        return .disagrees
    }
}
