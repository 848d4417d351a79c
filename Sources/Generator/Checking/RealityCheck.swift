import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

/// A check of generated puzzles against reality, run on several puzzles side by side.
public protocol RealityCheck: Sendable {
    /// What a failed puzzle counts as in the summary.
    var dropReason: DropReason { get }
    /// Nil when reality stayed within the model for one puzzle; otherwise what reality did that
    /// the model does not allow. Throws when the check itself cannot run (no worker, no swiftc):
    /// that is a failure of the tool, not of the puzzle.
    func disagreement(_ puzzle: GeneratedPuzzle, index: Int) throws -> String?
}

extension RealityCheck {
    /// Checks every puzzle, `parallel` at a time (each live run or compiled program is a child
    /// process, so two keep both cores busy); the disagreements in the puzzles' order.
    public func disagreements(_ puzzles: [GeneratedPuzzle], parallel: Int = 2) throws -> [String?] {
        let state = SharedVerdicts(count: puzzles.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(parallel, puzzles.count))) { _ in
            while let index = state.nextIndex() {
                do {
                    state.record(index, try disagreement(puzzles[index], index: index))
                } catch {
                    state.fail(error)
                }
            }
        }
        return try state.result()
    }
}

/// Runs each puzzle live (`LiveRunner`): on libdispatch through the interpreter, or, for a
/// Swift-concurrency puzzle, compiled by swiftc in Swift 6 mode and run on the real runtime. Any
/// outcome the model does not allow, a crash or a timeout included, fails it.
public struct LiveCheck: RealityCheck {
    public var runner: LiveRunner
    /// Runs per puzzle; puzzles that sleep or hang get at most `LiveRunBudget.slowPuzzleRuns`.
    public var runs: Int
    public var seed: UInt64
    public var dropReason: DropReason { .unexpectedLive }

    public init(runner: LiveRunner, runs: Int = 200, seed: UInt64 = 1) {
        self.runner = runner
        self.runs = runs
        self.seed = seed
    }

    public func disagreement(_ puzzle: GeneratedPuzzle, index: Int) throws -> String? {
        let runs = LiveRunBudget.runs(runs, for: puzzle.program, exploration: puzzle.exploration)
        let runSeed = SeededRandom.derive(seed, index)
        // Tasks and actors run compiled (the route decides by the code, as `gcdquiz run` does).
        let histogram = try runner.run(code: puzzle.question.code ?? "", program: puzzle.program,
                                       options: .init(runs: runs, seed: runSeed, jitter: true))
        let unexpected = LiveComparison(histogram: histogram, exploration: puzzle.exploration).unexpected
        guard !unexpected.isEmpty else { return nil }
        let seen = unexpected.map { row in
            "'\(AnswerNotation.render(Outcome(lines: row.entry.outcome.lines, end: .finished)))' (\(row.entry.outcome.end.rawValue), \(row.entry.count) of \(runs) runs)"
        }
        return "live runs (seed \(runSeed)) printed " + seen.joined(separator: ", ") + ", which the model does not allow"
    }
}

/// Compiles each puzzle with `swiftc` (prelude in front) and runs the program a few times: it
/// must compile, and every run must show an outcome the model allows.
public struct CompilerCheck: RealityCheck {
    public var runs: Int
    public var directory: URL
    public var dropReason: DropReason { .compilerDisagrees }

    public init(runs: Int = 5, directory: URL) {
        self.runs = runs
        self.directory = directory
    }

    public func disagreement(_ puzzle: GeneratedPuzzle, index: Int) throws -> String? {
        // `CompiledSnippet` compiles in Swift 5 mode and ends on the run loop, which is not how
        // the model ends a Swift-concurrency snippet (Swift 6 mode, top-level awaits): such a
        // puzzle is compiled and run by `LiveCheck`, through the live harness, instead.
        guard !puzzle.program.usesSwiftConcurrency else { return nil }
        let folder = directory.appendingPathComponent("\(puzzle.question.id)-\(index)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled: CompiledSnippet
        do {
            compiled = try CompiledSnippet.build(
                code: puzzle.question.code ?? "", graceMilliseconds: CompiledSnippet.grace(for: puzzle.program), in: folder)
        } catch let problems as ProblemList {
            return "swiftc rejects the code the model accepts: \(problems.problems.first?.message.prefix(300) ?? "")"
        }
        // The program runs on this machine: compare with the model's answer for it.
        let live = puzzle.exploration.retargeted(to: .live) ?? Explorer().explore(puzzle.program, for: .live)
        for _ in 0..<runs {
            let (run, reason, allowed) = try compiled.check(against: live)
            if allowed == nil {
                return "the compiled program printed '\(run.lines.joined(separator: " "))' (\(run.end.rawValue)\(reason.isEmpty ? "" : ": " + reason)), which the model does not allow"
            }
        }
        return nil
    }
}

/// The verdicts of a parallel check, filled in by whichever thread checked each puzzle.
private final class SharedVerdicts: @unchecked Sendable {
    private let lock = NSLock()
    private var verdicts: [String??]
    private var next = 0
    private var error: Error?

    init(count: Int) {
        verdicts = Array(repeating: nil, count: count)
    }

    func nextIndex() -> Int? {
        lock.withLock {
            guard error == nil, next < verdicts.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func record(_ index: Int, _ verdict: String?) {
        lock.withLock { verdicts[index] = verdict }
    }

    func fail(_ error: Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    func result() throws -> [String?] {
        try lock.withLock {
            if let error { throw error }
            return verdicts.map { $0 ?? "not checked" }
        }
    }
}
