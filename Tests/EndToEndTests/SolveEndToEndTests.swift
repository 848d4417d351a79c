import Foundation
import Testing

@Suite struct SolveEndToEndTests {
    /// `solve` is parsed by its own command for speed; help and errors still read as the root's
    /// (`gcdquiz solve`), and the options shared with other commands still work.
    @Test func solveParsedAloneKeepsTheRootsHelpAndErrors() throws {
        let help = try Binary.run(["solve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: gcdquiz solve"))
        let unknown = try Binary.run(["solve", "--bogus", "serial-async-async"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("Error: Unknown option '--bogus'"))
        #expect(unknown.stderr.contains("Usage: gcdquiz solve"))
        let missing = try Binary.run(["solve"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Missing expected argument '<id|file>'"))
        // A budget is not a failure: the partial answer, marked incomplete, and exit 0.
        let budgets = try Binary.run(["solve", "--max-states", "3", "serial-async-async"])
        #expect(budgets.status == 0, "a budget of 3 states stops the search: \(budgets.stdout)")
        #expect(budgets.stderr.contains("incomplete: the explorer stopped at its budget of 3 states"))
        let seconds = try Binary.run(["solve", "--max-seconds", "0", "serial-async-async"])
        #expect(seconds.status == 1)
        #expect(seconds.stderr.contains("--max-seconds takes seconds, more than 0 and at most 86400"))
    }

    @Test func solvePrintsEveryOutcomeWithItsEnding() throws {
        let result = try Binary.run(["solve", "serial-async-async"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("serial-async-async: 5 possible outcomes on any machine\n"))
        for outcome in ["1 2 3 4", "1 2 4 3", "2 1 3 4", "2 1 4 3", "2 4 1 3"] {
            #expect(result.stdout.contains("  \(outcome)   finished\n"), "\(outcome)")
        }
    }

    @Test func solveShowsDeadlocksAndWhy() throws {
        let result = try Binary.run(["solve", "serial-sync-in-async"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("3 possible outcomes"))
        #expect(result.stdout.contains("  1 4   deadlock  trap at line 3: worker 1 calls serialQueue.sync on a queue it already owns"))
    }

    @Test func solveJSONHasDesignShape() throws {
        let result = try Binary.run(["solve", "serial-sync-in-async", "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let outcomes = try #require(object?["outcomes"] as? [[String: Any]])
        #expect(outcomes.count == 3)
        let pairs = Set(outcomes.map { (($0["lines"] as? [String]) ?? []).joined(separator: " ") + "/" + (($0["end"] as? String) ?? "") })
        #expect(pairs == ["1/deadlock", "1 4/deadlock", "4 1/deadlock"])
        #expect(object?["count"] as? Int == 3)
        #expect(object?["complete"] as? Bool == true)
        let witness = try #require(outcomes.first?["witness"] as? [[String: Any]])
        #expect(witness.first?["thread"] as? String == "main")
    }

    @Test func solveTakesASwiftFile() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("mine.swift")
        try "DispatchQueue.main.async { print(\"b\") }\nprint(\"a\")\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Binary.run(["solve", file.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("1 possible outcome on any machine\n"))
        #expect(result.stdout.contains("  a b   finished"))
    }

    @Test func unsupportedSwiftIsADiagnosticWithACaret() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.swift")
        try "for _ in 1...2 {\n    let g = DispatchGroup()\n}\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Binary.run(["solve", file.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("\(file.path):2:5: error: "))
        #expect(lines[1] == "    let g = DispatchGroup()")
        #expect(lines[2] == "    ^")
    }

    @Test func aSyntaxErrorIsADiagnostic() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("syntax.swift")
        try "serialQueue.async {\n    print(1\n}\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Binary.run(["solve", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(file.path):2:12: error: expected ')'"))
    }

    @Test func unknownIdAndMissingFileAreClearErrors() throws {
        let unknown = try Binary.run(["solve", "serial-async"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no question with id 'serial-async'; did you mean"))
        let missing = try Binary.run(["solve", "/nonexistent/x.swift"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read '/nonexistent/x.swift'"))
        let badOption = try Binary.run(["solve", "--nope"])
        #expect(badOption.status == 1)
    }
}
