import Foundation
import Testing

/// The language mode an answer is for, as a learner and an instructor meet it: `--mode`, a
/// question's `mode:`, the other answer `solve` shows where NonisolatedNonsendingByDefault would
/// change it, and live runs compiled in the same mode.
@Suite struct LanguageModeEndToEndTests {
    static let snippet = """
        func work(_ tag: String) async { print(tag) }
        Task { print("other") }
        await work("w")
        print("end")

        """

    @Test func solveShowsTheAnswerTheUpcomingFeatureWouldGive() throws {
        let (folder, path) = try Binary.file(Self.snippet, named: "work.swift")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try Binary.run(["solve", path])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("2 possible outcomes"))
        #expect(plain.stdout.contains("With NonisolatedNonsendingByDefault"))
        #expect(plain.stdout.contains("  w end other"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Binary.run(["solve", path, "--json"]).stdout.utf8)) as? [String: Any])
        #expect(json["mode"] as? String == "Swift 6")
        let other = try #require(json["otherMode"] as? [String: Any])
        #expect(other["mode"] as? String == "Swift 6 + NonisolatedNonsendingByDefault")
        #expect((other["outcomes"] as? [[String: Any]])?.map { $0["notation"] as? String } == ["w end other"])

        let featured = try Binary.run(["solve", path, "--mode", "6 + NonisolatedNonsendingByDefault"])
        #expect(featured.status == 0)
        #expect(featured.stdout.contains("1 possible outcome"))
        #expect(!featured.stdout.contains("With NonisolatedNonsendingByDefault"))

        let bad = try Binary.run(["solve", path, "--mode", "7"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("5, 6 or 6 + NonisolatedNonsendingByDefault"))
    }

    @Test func aQuestionStatesItsModeAndAnUnknownOneIsPlaced() throws {
        let code = Self.snippet.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let question = """
            id: work-in-mode
            title: A plain async function with the upcoming feature
            kind: trace
            level: 3
            tags: [isolation]
            source: SE-0461 Run nonisolated async functions on the caller's actor by default
            mode: 6 + NonisolatedNonsendingByDefault
            code: |
            \(code)
            explanation: |
              With the feature, work runs on the main actor.

            """
        let (folder, path) = try Binary.file(question, named: "work-in-mode.yaml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let solved = try Binary.run(["solve", path])
        #expect(solved.status == 0, "\(solved.stderr)")
        #expect(solved.stdout.contains("1 possible outcome"))
        #expect(solved.stdout.contains("w end other"))
        #expect(try Binary.run(["solve", path, "--mode", "6"]).stdout.contains("2 possible outcomes"), "--mode overrides mode:")

        try question.replacingOccurrences(of: "mode: 6 + NonisolatedNonsendingByDefault", with: "mode: 6 + StrictMemorySafety")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let validated = try Binary.run(["validate", folder.path])
        #expect(validated.status == 1)
        #expect(validated.stderr.contains("work-in-mode.yaml:7:7: error: unknown mode '6 + StrictMemorySafety'"), "\(validated.stderr)")
    }
}
