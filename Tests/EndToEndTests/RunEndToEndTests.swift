import DispatchModel
import Foundation
import LiveRun
import Testing

/// Soundness: every trace puzzle of the bank, run live a few hundred times, shows only outcomes
/// the model allows. Coverage (seen / possible) is printed per puzzle.
@Suite(.serialized) struct RunEndToEndTests {
    static let ids: [String] = {
        guard let result = try? Binary.run(["list", "--kind", "trace", "--json"]),
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let questions = object["questions"] as? [[String: Any]]
        else { return [] }
        return questions.compactMap { $0["id"] as? String }
    }()

    @Test func theBankHasPuzzles() {
        #expect(Self.ids.count >= 8)
    }

    /// Runs that hang cost the 100 ms hang threshold each, and runs that sleep take real time,
    /// so those puzzles get fewer runs.
    static func runs(for id: String) throws -> Int {
        let solved = try Binary.run(["solve", id, "--json"])
        let shown = try Binary.run(["show", id])
        let timed = ["sleep(", "asyncAfter", "timeout:"].contains { shown.stdout.contains($0) }
        return solved.stdout.contains("nothing can run any more") || timed ? 30 : 300
    }

    @Test(arguments: ids)
    func liveOutcomesAreAllowedByTheModel(_ id: String) throws {
        let runs = try Self.runs(for: id)
        let result = try Binary.run(["run", id, "--runs", String(runs), "--json"])
        #expect(result.status == 0, "\(id): \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["unexpected"] as? Int == 0, "\(id): \(result.stdout)")
        let outcomes = try #require(object["outcomes"] as? [[String: Any]])
        #expect(outcomes.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) } == runs)
        for outcome in outcomes {
            #expect(outcome["lines"] is [String])
            #expect(["finished", "deadlock", "crash", "timeout"].contains(outcome["end"] as? String ?? ""))
            #expect(outcome["notation"] is String, "\(id): run --json outcomes carry OutcomeJSON's fields")
        }
        print("coverage \(id): \(object["seen"] ?? "?") of \(object["possible"] ?? "?") outcomes in \(runs) runs")
    }

    @Test func runPrintsAHistogramWithCoverage() throws {
        let result = try Binary.run(["run", "serial-async-async", "--runs", "200"])
        #expect(result.status == 0)
        let machine = Machine.live
        #expect(result.stdout.contains("200 live runs on libdispatch (\(Narrator.count(machine.cores!)), \(machine.platform.name); jitter on, seed 1)"))
        #expect(result.stdout.contains("coverage:"))
        #expect(!result.stdout.contains("UNEXPECTED"))
        let deadlock = try Binary.run(["run", "serial-sync-in-async", "--runs", "30", "--no-jitter"])
        #expect(deadlock.stdout.contains("30 live runs on libdispatch (\(Narrator.count(machine.cores!)), \(machine.platform.name); no jitter)"))
        #expect(deadlock.stdout.contains("dispatch_sync called on queue already owned by current thread"))
    }
}

/// The model against the real compiler, on a sample (the whole bank takes minutes: `gcdquiz verify`).
@Suite struct VerifyEndToEndTests {
    @Test func compiledPuzzlesPrintOnlyWhatTheModelAllows() throws {
        let result = try Binary.run(["verify", "serial-async-async", "serial-sync-in-async", "race-global-and-main-group", "--runs", "5"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "ok  ").count == 4)
        #expect(!result.stdout.contains("FAIL"))
    }
}
