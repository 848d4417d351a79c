import DispatchModel
import Foundation
import LiveRun
import Quiz

/// A check of generated puzzles against reality, run on several puzzles side by side.
public protocol RealityCheck: Sendable {
    /// What a failed puzzle counts as in the summary.
    var dropReason: DropReason { get }
    /// Whether reality stayed within the model for one puzzle. Throws when the check itself
    /// cannot run (no worker, no swiftc): that is a failure of the tool, not of the puzzle.
    func passes(_ puzzle: GeneratedPuzzle, index: Int) throws -> Bool
}

extension RealityCheck {
    /// Checks every puzzle, `parallel` at a time (each live run or compiled program is a child
    /// process, so two keep both cores busy); the verdicts in the puzzles' order.
    public func verdicts(_ puzzles: [GeneratedPuzzle], parallel: Int = 2) throws -> [Bool] {
        let state = SharedVerdicts(count: puzzles.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(parallel, puzzles.count))) { _ in
            while let index = state.nextIndex() {
                do {
                    state.record(index, try passes(puzzles[index], index: index))
                } catch {
                    state.fail(error)
                }
            }
        }
        return try state.result()
    }
}

/// Runs each puzzle live on libdispatch (`LiveRunner`): any outcome the model does not allow,
/// a crash or a timeout included, fails it.
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

    public func passes(_ puzzle: GeneratedPuzzle, index: Int) throws -> Bool {
        let runs = LiveRunBudget.runs(runs, for: puzzle.program, exploration: puzzle.exploration)
        let histogram = try runner.run(puzzle.program, options: .init(runs: runs, seed: SeededRandom.derive(seed, index), jitter: true))
        return LiveComparison(histogram: histogram, exploration: puzzle.exploration).unexpected.isEmpty
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

    public func passes(_ puzzle: GeneratedPuzzle, index: Int) throws -> Bool {
        let folder = directory.appendingPathComponent("\(puzzle.question.id)-\(index)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiled: CompiledSnippet
        do {
            compiled = try CompiledSnippet.build(
                code: puzzle.question.code ?? "", graceMilliseconds: CompiledSnippet.grace(for: puzzle.program), in: folder)
        } catch is ProblemList {
            return false  // swiftc rejected the code the model accepted
        }
        let possible = Set(puzzle.exploration.outcomes)
        for _ in 0..<runs where CompiledSnippet.allowedOutcome(try compiled.run(), possible: possible) == nil {
            return false
        }
        return true
    }
}

/// The verdicts of a parallel check, filled in by whichever thread checked each puzzle.
private final class SharedVerdicts: @unchecked Sendable {
    private let lock = NSLock()
    private var verdicts: [Bool?]
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

    func record(_ index: Int, _ verdict: Bool) {
        lock.withLock { verdicts[index] = verdict }
    }

    func fail(_ error: Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    func result() throws -> [Bool] {
        try lock.withLock {
            if let error { throw error }
            return verdicts.map { $0 ?? false }
        }
    }
}
