import Foundation
import Testing

/// The explorer's budgets as a user meets them: a stop that says which budget ran out and what
/// was found, and outcome sets too large to print summarised.
@Suite struct ExplorationBudgetEndToEndTests {
    func snippet(_ code: String) throws -> (URL, URL) {
        let folder = try Binary.temporaryFolder()
        let file = folder.appendingPathComponent("big.swift")
        try code.write(to: file, atomically: true, encoding: .utf8)
        return (folder, file)
    }

    @Test func aStateBudgetStopsTheSearchAndSaysSo() throws {
        let (folder, file) = try snippet("for i in 1...3 {\n    concurrentQueue.async {\n        print(i)\n    }\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Binary.run(["solve", file.path, "--max-states", "10"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("found before the budget ran out"))
        #expect(result.stderr.contains("incomplete: the explorer stopped at its budget of 10 states (--max-seconds, --max-states, --max-memory)"))
        // Grading needs every outcome: refused at the snippet, exit 1.
        let check = try Binary.run(["check", file.path, "1 2 3", "--max-states", "10"])
        #expect(check.status == 1)
        #expect(check.stderr.contains("\(file.path):1:1: error: the explorer stopped at its budget of 10 states"))
        #expect(check.stderr.contains("cannot grade against outcomes not all known"))
        let refused = try Binary.run(["solve", file.path, "--max-memory", "0"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--max-memory is in megabytes"))
    }

    @Test func aMemoryBudgetStopsALongSearch() throws {
        // 300 blocks on a concurrent queue: far more schedules than fit in 4 MB.
        let (folder, file) = try snippet("for i in 1...300 {\n    concurrentQueue.async {\n        print(i)\n    }\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The state budget is a safety net: if the memory meter ever read nothing, the test ends in seconds, not an hour.
        let result = try Binary.run(["solve", file.path, "--max-memory", "4", "--max-states", "300000", "--max-seconds", "120"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("incomplete: the explorer stopped at its memory budget of 4 MB"))
    }

    @Test func hugeOutcomeSetsAreSummarised() throws {
        // 4 blocks × 2 prints side by side: 8! / 2⁴ = 2,520 orders.
        let (folder, file) = try snippet("""
            for i in 1...4 {
                concurrentQueue.async {
                    print(i)
                    print(i * 10)
                }
            }

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Binary.run(["solve", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("2,520 possible outcomes with enough cores (4 or more, so that no block waits for a thread)"))
        #expect(result.stdout.contains("… and 2500 more (solve --json lists every one). The rules that order them:"))
        #expect(result.stdout.split(separator: "\n").count < 40)
        let json = try Binary.run(["solve", file.path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["outcomes"] as? [Any])?.count == 2520)
    }
}
