import ArgumentParser
import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

/// Times the model and the live runner on the bank. Meant for release builds (`make bench`);
/// tests never assert timings.
struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Time the model (and with --live, the live runner) on the bank's trace puzzles; use a release build: make bench.",
        discussion: "With --process, times whole processes instead: --help, solve of each slide puzzle's .swift file, solve by id, the drill to its first prompt, and swiftc for comparison.")

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("Question ids or files (default: every trace puzzle).", valueName: "id|file"))
    var targets: [String] = []

    @Option(name: .long, help: "Measure the model on each puzzle for about this many milliseconds.")
    var milliseconds = 200

    @Flag(name: .long, help: "Also measure the live runner: runs/s, and runs and time until every possible outcome was seen.")
    var live = false

    @Flag(name: .long, help: "With --live: also compile each snippet with swiftc and run it in a loop, as a user would, for comparison.")
    var baseline = false

    @Option(name: .long, help: "With --baseline: at most this many runs of the compiled program per puzzle.")
    var baselineRuns = 200

    @Flag(name: .long, help: "Time whole gcdquiz processes (solve FILE.swift, solve ID, the drill's first prompt) beside swiftc.")
    var process = false

    @Flag(name: .long, help: "Time the scheduler's seat: each move with its goal judged, a hint and the screen (puzzles: every trace and schedule puzzle).")
    var schedule = false

    @Option(name: .long, help: "With --schedule: at most this many moves timed per puzzle.")
    var scheduleMoves = 2000

    @Option(name: .long, help: "With --process: runs of each command.")
    var processRuns = 30

    func run() throws {
        let bank = try self.bank.load()
        if process {
            return try benchmarkProcesses(bank: bank)
        }
        let puzzles = try targets.isEmpty
            ? bank.questions.filter { schedule ? $0.kind.hasCode : $0.kind == .trace }.map { try PuzzleResolver.puzzle(from: $0, in: bank) }
            : targets.map { try PuzzleResolver.resolve($0, in: bank) }
        #if DEBUG
        print("note: this is a debug build; figures for the record come from 'make bench' (release)")
        #endif
        if schedule {
            return benchmarkSchedule(puzzles)
        }
        benchmarkModel(puzzles)
        if live {
            print("")
            try benchmarkLive(puzzles)
        }
    }

    private func benchmarkModel(_ puzzles: [Puzzle]) {
        let clock = ContinuousClock()
        let width = max(puzzles.map(\.name.count).max() ?? 0, 6)
        print("model: one solve = compile the snippet + explore every schedule")
        print("puzzle".padding(toLength: width, withPad: " ", startingAt: 0) + "     median        min    states  outcomes   solves")
        var slowest = 0.0
        for puzzle in puzzles {
            var samples: [Double] = []
            var exploration: Exploration?
            let started = clock.now
            repeat {
                let start = clock.now
                guard let program = try? SnippetCompiler.compile(puzzle.code).get() else { break }
                exploration = Explorer().explore(program)
                samples.append(Self.microseconds(clock.now - start))
            } while clock.now - started < .milliseconds(milliseconds) && samples.count < 100_000
            guard let found = exploration else { continue }
            samples.sort()
            let median = samples[samples.count / 2]
            slowest = max(slowest, median)
            print(puzzle.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: " %8.1f µs %7.1f µs %9d %9d %8d", median, samples[0], found.statesExplored, found.reports.count, samples.count)
                + (found.isComplete ? "" : "  (budget exhausted)"))
        }
        print(String(format: "slowest median: %.3f ms", slowest / 1000))
    }

    private func benchmarkLive(_ puzzles: [Puzzle]) throws {
        let runner = LiveRunner.selfHosted
        let width = max(puzzles.map(\.name.count).max() ?? 0, 6)
        print("live: runs/s over 2000 runs (1000 for puzzles that trap or hang); runs and time until every possible outcome was seen (jitter on, at most 1000 runs)")
        var header = "puzzle".padding(toLength: width, withPad: " ", startingAt: 0) + "  runs/s jitter  runs/s raw  coverage  runs  time to all"
        if baseline { header += "  |  swiftc loop: ms/run  coverage  time to all   ratio" }
        print(header)
        for puzzle in puzzles {
            let exploration = Explorer().explore(puzzle.program)
            let possible = Set(exploration.outcomes)
            let endsAbnormally = exploration.outcomes.contains { $0.end != .finished }
            let throughputRuns = endsAbnormally ? 1000 : 2000
            let jittered = try runner.run(puzzle.program, options: .init(runs: throughputRuns, seed: 1, jitter: true))
            let raw = try runner.run(puzzle.program, options: .init(runs: throughputRuns, seed: 1, jitter: false))

            var seen: Set<Outcome> = []
            var runsToAll: Int?
            let start = Date()
            _ = try runner.run(puzzle.program, options: .init(runs: 1000, seed: 2, jitter: true), onRun: { done, outcome in
                if let model = outcome.modelOutcome, possible.contains(model) { seen.insert(model) }
                if runsToAll == nil && seen.count == possible.count { runsToAll = done }
            }, shouldStop: { runsToAll != nil })
            let liveTime = Date().timeIntervalSince(start)
            var line = puzzle.name.padding(toLength: width, withPad: " ", startingAt: 0)
            line += String(format: " %8.0f %11.0f %5d/%-3d %5@ %10@", jittered.runsPerSecond, raw.runsPerSecond, seen.count, possible.count,
                           runsToAll.map(String.init) ?? ">1000", runsToAll == nil ? "—" : String(format: "%.3f s", liveTime))
            if baseline {
                line += try baselineColumns(puzzle, possible: possible, liveTime: runsToAll == nil ? nil : liveTime)
            }
            print(line)
        }
    }

    /// What a user would do instead: compile with swiftc, run the binary in a loop.
    private func baselineColumns(_ puzzle: Puzzle, possible: Set<Outcome>, liveTime: Double?) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-baseline-\(getpid())-\(puzzle.name.hashValue)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let compiled = try CompiledSnippet.build(code: puzzle.code, in: directory)
        var seen: Set<Outcome> = []
        var timeToAll: Double?
        var runs = 0
        let start = Date()
        while runs < baselineRuns {
            let (outcome, _) = try compiled.run()
            runs += 1
            if let model = outcome.modelOutcome, possible.contains(model) { seen.insert(model) }
            if timeToAll == nil && seen.count == possible.count {
                timeToAll = Date().timeIntervalSince(start)
            }
        }
        let perRun = Date().timeIntervalSince(start) / Double(runs) * 1000
        let ratio: String
        switch (timeToAll, liveTime) {
        case (let base?, let mine?): ratio = String(format: "%.0f×", base / max(mine, 1e-6))
        case (nil, let mine?): ratio = String(format: ">%.0f×", Date().timeIntervalSince(start) / max(mine, 1e-6))
        default: ratio = "—"
        }
        return String(format: "  |  %14.1f %5d/%-3d %11@ %7@", perRun, seen.count, possible.count,
                      timeToAll.map { String(format: "%.2f s", $0) } ?? "never", ratio)
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
