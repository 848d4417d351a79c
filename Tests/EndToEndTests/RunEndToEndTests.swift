import ConcurrencyModel
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
        // Swift-concurrency puzzles run compiled, not in the live interpreter, and that route
        // (issue 24's live side) is not on this branch yet: `run` shows their tasks trapping.
        // They were checked with swiftc (Swift 6 mode) when written; they join these runs when
        // the compiled route lands.
        return questions.filter { question in
            !((question["tags"] as? [String]) ?? []).contains { swiftConcurrencyTopics.contains($0) }
        }.compactMap { $0["id"] as? String }
    }()

    static let swiftConcurrencyTopics: Set<String> = [
        "tasks", "structured-concurrency", "actors", "main-actor", "isolation", "sendable", "cancellation",
        "continuations", "async-sequences",
    ]

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

/// `run` on snippets that once made it cry wolf: long output, and a model stopped at its budget.
@Suite struct RunLimitsEndToEndTests {
    /// 10,000 lines an outcome: each is summarised (its ends, count and hash) in the text and in
    /// JSON, so the output stays short, and no run is a false timeout.
    @Test func aLongOutcomeIsSummarisedAndNoRunIsUnexpected() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.swift").path
        try "for i in 1...10000 {\n    print(i)\n}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let text = try Binary.run(["run", file, "--runs", "6"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("1 2 3 4 5 6 7 8 9 10 [… 9,980 more lines: 10,000 in all, hash "), "\(text.stdout)")
        #expect(text.stdout.contains("9999 10000\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("UNEXPECTED"))
        #expect(text.stdout.utf8.count < 1000, "\(text.stdout.utf8.count) bytes")
        let json = try Binary.run(["run", file, "--runs", "4", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.utf8.count < 3000, "\(json.stdout.utf8.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let outcome = try #require((object["outcomes"] as? [[String: Any]])?.first)
        #expect(outcome["omitted"] as? Int == 9980)
        #expect(outcome["lineCount"] as? Int == 10000)
        #expect((outcome["hash"] as? String)?.count == 16)
        #expect((outcome["lines"] as? [String])?.count == 20)
        #expect(outcome["expected"] as? Bool == true)
        #expect(object["unexpected"] as? Int == 0)
    }

    /// Twelve async prints on a concurrent queue, the model stopped at a small budget: outcomes
    /// it did not find are listed as not judged, never as UNEXPECTED, and the exit code is 0.
    @Test func aModelStoppedAtItsBudgetJudgesOnlyWhatItFound() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("twelve.swift").path
        try (1...12).map { "concurrentQueue.async {\n    print(\($0))\n}\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let text = try Binary.run(["run", file, "--runs", "200", "--max-states", "2000"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("UNEXPECTED"), "\(text.stdout)")
        #expect(text.stdout.contains("(--max-states, --max-memory): it found "), "\(text.stdout)")
        #expect(text.stdout.contains("and may have missed some, so outcomes seen live that it did not find are not judged"))
        #expect(text.stdout.contains("not among the outcomes the model found before it stopped"), "\(text.stdout)")
        #expect(text.stdout.contains("possible outcomes seen") && text.stdout.contains(" of at least "))
        let json = try Binary.run(["run", file, "--runs", "200", "--max-states", "2000", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["unexpected"] as? Int == 0)
        #expect(object["modelComplete"] as? Bool == false)
        #expect((object["unjudged"] as? Int ?? 0) > 0)
        let outcomes = try #require(object["outcomes"] as? [[String: Any]])
        #expect(outcomes.allSatisfy { ($0["judged"] as? Bool == false) == ($0["expected"] as? Bool == false) })
    }
}

/// The model against the real compiler, on a sample (the whole bank takes minutes: `gcdquiz verify`).
@Suite struct VerifyEndToEndTests {
    @Test func compiledPuzzlesPrintOnlyWhatTheModelAllows() throws {
        let result = try Binary.run(["verify", "serial-async-async", "serial-sync-in-async", "race-global-and-main-group",
                                     "target-serial-siblings", "specific-key-reentrant-sync", "--runs", "5"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "ok  ").count == 6)
        #expect(!result.stdout.contains("FAIL"))
    }

    /// No runs would verify nothing: refused at the argument, before any swiftc, never "ok".
    @Test func zeroRunsAreRefusedAtTheArgument() throws {
        let result = try Binary.run(["verify", "serial-async-async", "--runs", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--runs must be between 1 and 1000000"), "\(result.stderr)")
        #expect(!result.stdout.contains("ok"), "\(result.stdout)")
    }
}
