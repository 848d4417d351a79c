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

    func run() throws {
        let bank = try self.bank.load()
        let puzzles = try targets.isEmpty
            ? bank.questions(kind: .trace).map { try PuzzleResolver.puzzle(from: $0, in: bank) }
            : targets.map { try PuzzleResolver.resolve($0, in: bank) }
        let style = TerminalStyle.current(for: .standardOutput)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-verify-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        var failures = 0
        // The programs run here: their outcomes are compared with the answer for this machine
        // (under `taskset -c 0`, a one-core machine).
        let machine = Machine.live
        for (index, puzzle) in puzzles.enumerated() {
            let exploration = Explorer().explore(puzzle.program, for: machine)
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
    }
}
