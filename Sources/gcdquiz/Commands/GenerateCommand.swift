import ArgumentParser
import Foundation
import Generator
import LiveRun
import Quiz

/// New trace puzzles whose answers are computed: variants of bank puzzles and fresh ones, each
/// kept only once the model and live runs agree it is a sound, interesting, new puzzle.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write new trace puzzles (variants of bank puzzles, or fresh ones) as question files.",
        discussion: """
            Each candidate must compile, explore within budget, have between A and B outcomes \
            (--outcomes, default 2...16), differ from every bank puzzle and every other generated one \
            (by code with labels renamed and by outcome set up to renaming), and run live \
            (--live-runs) with no outcome outside the model. Dropped candidates are counted in a \
            one-line summary on standard error. The same seed and bank give the same puzzles.
            """)

    @OptionGroup var bank: BankOptions
    @OptionGroup var filter: FilterOptions

    @Option(name: .long, help: ArgumentHelp("Make variants of this bank puzzle (repeat for several).", valueName: "id"))
    var like: [String] = []

    @Option(name: .long, help: "How many puzzles to write.")
    var count = 10

    @Option(name: .long, help: "Seed: the same seed and bank give the same puzzles, byte for byte.")
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Write one <id>.yaml per puzzle into this folder (default: print them).", valueName: "dir"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Keep puzzles with this many outcomes (default 2...16).", valueName: "A...B"))
    var outcomes: OutcomeRange = OutcomeRange(range: 2...16)

    @Option(name: .long, help: "Live runs per puzzle on libdispatch (0: none; puzzles that sleep or hang get at most 30).")
    var liveRuns = 200

    @Flag(name: .long, help: "Also compile each puzzle with swiftc (prelude in front) and run it: slow, a few seconds a puzzle.")
    var verify = false

    func validate() throws {
        if !(1...10_000).contains(count) { throw ValidationError("--count must be between 1 and 10000") }
        if liveRuns < 0 { throw ValidationError("--live-runs must be 0 or more") }
    }

    func run() throws {
        let bank = try self.bank.load()
        let like = try self.like.map { id -> Question in
            let question = try PuzzleResolver.question(id, in: bank)
            _ = try PuzzleResolver.puzzle(from: question, in: bank)  // a trace puzzle that compiles
            guard let tree = question.code.flatMap(SnippetTreeReader.read), !tree.labels.isEmpty || !tree.dispatches.isEmpty else {
                throw CommandFailure.badInput("cannot make variants of '\(question.id)': it has no dispatch to change and no label (print(1), print(\"a\")) to wrap in one")
            }
            return question
        }
        let generator = PuzzleGenerator(bank: bank, options: .init(outcomes: outcomes.range))
        let request = GenerationRequest(like: like, tags: filter.tag, level: filter.level, count: count, seed: seed)
        var reality: [any RealityCheck] = []
        if liveRuns > 0 { reality.append(LiveCheck(runner: .selfHosted, runs: liveRuns, seed: seed)) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-generate-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        if verify { reality.append(CompilerCheck(directory: scratch)) }

        let report: GenerationReport
        do {
            report = try generator.generate(request, reality: reality)
        } catch {
            throw CommandFailure.unexpected("checking puzzles against reality failed: \(error)")
        }
        try write(report.puzzles)
        Output.write("generate: \(report.summary)\n", to: .standardError)
        for (puzzle, detail) in report.disagreements {
            let code = (puzzle.question.code ?? "").split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
            Output.write("generate: dropped \(puzzle.question.id): \(detail), a bug in the model or the runner:\n\(code)\n", to: .standardError)
        }
        if report.puzzles.count < count {
            throw CommandFailure.badInput("only \(report.puzzles.count) of \(count) puzzles found in \(report.attempts) candidates: widen --outcomes, or ask for fewer tags, another level or other --like puzzles")
        }
    }

    private func write(_ puzzles: [GeneratedPuzzle]) throws {
        guard let output else {
            print(puzzles.map(\.yaml).joined(separator: "---\n"), terminator: "")
            return
        }
        let folder = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for puzzle in puzzles {
                try puzzle.yaml.write(to: folder.appendingPathComponent("\(puzzle.question.id).yaml"), atomically: true, encoding: .utf8)
            }
        } catch {
            throw CommandFailure.badInput("cannot write to '\(output)': \(error.localizedDescription)")
        }
    }
}

/// `--outcomes 2...16`: how many outcomes make a puzzle worth keeping.
struct OutcomeRange: ExpressibleByArgument {
    var range: ClosedRange<Int>

    init(range: ClosedRange<Int>) {
        self.range = range
    }

    init?(argument: String) {
        let parts = argument.components(separatedBy: "...")
        guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), 1 <= low, low <= high else { return nil }
        range = low...high
    }

    var defaultValueDescription: String { "\(range.lowerBound)...\(range.upperBound)" }
}
