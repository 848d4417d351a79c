import ArgumentParser
import DispatchModel
import Foundation
import Quiz

/// Times the model on the bank: how long one `solve` takes (compile + explore) per puzzle.
/// Meant for release builds (`make bench`); tests never assert timings.
struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Time the model on every trace puzzle of the bank (use a release build: make bench).")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("Question ids or files (default: every trace puzzle).", valueName: "id|file"))
    var targets: [String] = []

    @Option(name: .long, help: "Measure each puzzle for about this many milliseconds.")
    var milliseconds = 200

    func run() throws {
        let bank = try self.bank.load()
        let puzzles = try targets.isEmpty
            ? bank.questions(kind: .trace).map(PuzzleResolver.puzzle(from:))
            : targets.map { try PuzzleResolver.resolve($0, in: bank) }
        #if DEBUG
        print("note: this is a debug build; figures for the record come from 'make bench' (release)")
        #endif
        let clock = ContinuousClock()
        let width = max(puzzles.map(\.name.count).max() ?? 0, 6)
        print("puzzle".padding(toLength: width, withPad: " ", startingAt: 0) + "   median      min   states  outcomes  runs")
        var medians: [Double] = []
        for puzzle in puzzles {
            var samples: [Double] = []
            var exploration: Exploration?
            let budget = Duration.milliseconds(milliseconds)
            let started = clock.now
            repeat {
                let start = clock.now
                let program = try SnippetCompiler.compile(puzzle.code).get()
                exploration = Explorer().explore(program)
                samples.append(Self.microseconds(clock.now - start))
            } while clock.now - started < budget && samples.count < 100_000
            samples.sort()
            let median = samples[samples.count / 2]
            medians.append(median)
            let found = exploration!
            print(puzzle.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: " %7.1f µs %6.1f µs %8d %9d %5d", median, samples[0], found.statesExplored, found.reports.count, samples.count))
        }
        if let slowest = medians.max() {
            print(String(format: "%d puzzles; slowest median %.1f µs (%.3f ms)", medians.count, slowest, slowest / 1000))
        }
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
