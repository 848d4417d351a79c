import Foundation
import Quiz
import Testing

/// The fuzz campaign (`make fuzz-campaign`): thousands of the bank's snippets, mutated as the suite's
/// fuzz test mutates them, each given to `solve --json` as a user would, with 10 seconds and 2 GB
/// each. Every run must end by itself within the limits, by an exit (no signal), never with exit
/// 2 (which means a bug), and with exit 1 only for diagnostics that say where. It runs only when
/// `GCDQUIZ_FUZZ_CAMPAIGN` gives the number of mutants (the suite stays fast), against the binary
/// `GCDQUIZ_BINARY` names (a release build); it prints its counts and keeps failing inputs in
/// `$TMPDIR/gcdquiz-fuzz-failures/`.
@Suite(.enabled(if: fuzzCampaignMutants != nil, "set GCDQUIZ_FUZZ_CAMPAIGN=N to run the campaign"))
struct FuzzCampaignTests {
    static let mutantCount = fuzzCampaignMutants
    static let seed = ProcessInfo.processInfo.environment["GCDQUIZ_FUZZ_SEED"].flatMap { UInt64($0) } ?? 21
    static let timeLimit = 10.0
    static let memoryLimitKilobytes = 2 << 20
    static let workers = 2

    /// What one run did.
    struct Run: Sendable {
        var name: String
        var recipe: [String]
        var ending: SpawnedProcess.Ending?
        var seconds: Double
        var peakKilobytes: Int
        var unplaced: [String]
        var stderr: String
    }

    @Test func everyMutantEndsWithinItsLimits() throws {
        let count = try #require(Self.mutantCount)
        let bank = BankLoader.load(paths: [Binary.packageRoot.appendingPathComponent("Questions").path], compilation: .onDemand)
        let seeds = bank.questions.compactMap { question in question.code.map { (name: question.id, code: $0) } }
        var mutator = SnippetMutator(seeds: seeds, seed: Self.seed)
        let mutants = mutator.mutants(count)
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let results = RunList(count: mutants.count)
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            for index in stride(from: worker, to: mutants.count, by: Self.workers) {
                results.set(index, Self.run(mutants[index], in: folder))
            }
        }
        let runs = results.all
        let report = Self.report(runs)
        print(report)
        try? FileManager.default.createDirectory(at: FuzzEndToEndTests.failures, withIntermediateDirectories: true)
        try? report.write(to: FuzzEndToEndTests.failures.appendingPathComponent("campaign-report.txt"), atomically: true, encoding: .utf8)

        for run in runs where !Self.isSound(run) {
            let kept = FuzzEndToEndTests.failures.appendingPathComponent("\(run.name).swift")
            try? FileManager.default.removeItem(at: kept)
            try? FileManager.default.copyItem(at: folder.appendingPathComponent("\(run.name).swift"), to: kept)
            Issue.record("\(run.name): \(run.ending.map(\.description) ?? "killed after \(Int(Self.timeLimit)) s"), \(run.peakKilobytes >> 10) MB, \(String(format: "%.1f", run.seconds)) s; kept as \(kept.path) (\(run.recipe.joined(separator: "; ")))\n\(run.stderr.prefix(600))")
        }
    }

    static func run(_ mutant: SnippetMutator.Mutant, in folder: URL) -> Run {
        let file = folder.appendingPathComponent("\(mutant.name).swift")
        let start = Date()
        var run = Run(name: mutant.name, recipe: mutant.recipe, ending: nil, seconds: 0, peakKilobytes: 0, unplaced: [], stderr: "")
        do {
            try Data(mutant.bytes).write(to: file)
            let process = try SpawnedProcess(["solve", file.path, "--json"])
            run.ending = process.finish(timeout: timeLimit)
            run.peakKilobytes = process.peakKilobytes ?? 0
            run.stderr = process.stderr
            if run.ending == .exited(1) { run.unplaced = FuzzEndToEndTests.unplacedDiagnosticLines(process.stderr) }
        } catch {
            run.stderr = "could not start: \(error)"
        }
        run.seconds = Date().timeIntervalSince(start)
        return run
    }

    static func isSound(_ run: Run) -> Bool {
        guard let ending = run.ending, case .exited(let code) = ending, code == 0 || code == 1 else { return false }
        guard run.peakKilobytes < memoryLimitKilobytes else { return false }
        return code == 0 || (run.unplaced.isEmpty && run.stderr.contains(": error: "))
    }

    static func report(_ runs: [Run]) -> String {
        var exits: [Int32: Int] = [:]
        var signals = 0
        var killed = 0
        for run in runs {
            switch run.ending {
            case .exited(let code)?: exits[code, default: 0] += 1
            case .signalled?: signals += 1
            case nil: killed += 1
            }
        }
        let unplaced = runs.filter { $0.ending == .exited(1) && !$0.unplaced.isEmpty }.count
        let peak = runs.map(\.peakKilobytes).max() ?? 0
        let slowest = runs.sorted { $0.seconds > $1.seconds }.prefix(3)
        let seconds = runs.map(\.seconds).reduce(0, +)
        var text = "fuzz campaign: \(runs.count) mutants (seed \(seed)) through solve --json, \(Int(timeLimit)) s and \(memoryLimitKilobytes >> 20) GB each\n"
        text += "  exit 0: \(exits[0] ?? 0), exit 1: \(exits[1] ?? 0), exit 2: \(exits[2] ?? 0), other exits: \(exits.filter { ![0, 1, 2].contains($0.key) }.values.reduce(0, +))\n"
        text += "  signals: \(signals), past \(Int(timeLimit)) s: \(killed), exit 1 without file:line:col: \(unplaced)\n"
        text += "  peak memory: \(peak >> 10) MB; time: \(String(format: "%.0f", seconds)) s in all, slowest "
            + slowest.map { "\($0.name) \(String(format: "%.2f", $0.seconds)) s" }.joined(separator: ", ") + "\n"
        return text
    }
}

/// How many mutants the campaign runs (`GCDQUIZ_FUZZ_CAMPAIGN`), or nil to skip it.
let fuzzCampaignMutants = ProcessInfo.processInfo.environment["GCDQUIZ_FUZZ_CAMPAIGN"].flatMap { Int($0) }

/// Results filled in by the campaign's workers.
private final class RunList: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [FuzzCampaignTests.Run?]

    init(count: Int) { runs = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ run: FuzzCampaignTests.Run) { lock.withLock { runs[index] = run } }

    var all: [FuzzCampaignTests.Run] { lock.withLock { runs.compactMap { $0 } } }
}
