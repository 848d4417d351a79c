import Foundation
import Testing

@Suite struct BankEndToEndTests {
    @Test func listFiltersByTagAndLevel() throws {
        let all = try Binary.run(["list"])
        #expect(all.status == 0)
        #expect(all.stdout.contains("serial-async-async"))
        let serial = try Binary.run(["list", "--tag", "serial-queues", "--level", "2"])
        #expect(serial.status == 0)
        let ids = serial.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(ids.contains("serial-sync-in-async"))
        #expect(!ids.contains("serial-async-async"))
        #expect(!ids.contains("concurrent-sync-in-async"))
    }

    @Test func listJSONHasDesignShape() throws {
        let result = try Binary.run(["list", "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let questions = try #require(object?["questions"] as? [[String: Any]])
        #expect(questions.count >= 8)
        for question in questions {
            for key in ["id", "kind", "title", "level", "tags"] {
                #expect(question[key] != nil, "\(key)")
            }
            #expect(["trace", "choice", "short", "schedule", "line"].contains(question["kind"] as? String ?? ""))
        }
    }

    @Test func showPrintsTheCodeWithLineNumbersAndNoAnswer() throws {
        let result = try Binary.run(["show", "concurrent-sync-in-async"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("sync inside async on the same concurrent queue\n"))
        #expect(result.stdout.contains("1 │ concurrentQueue.async {"))
        #expect(result.stdout.contains("8 │ print(4)"))
        #expect(!result.stdout.contains("finished"))
    }

    @Test func bareCommandStartsTheDrill() throws {
        let result = try Binary.run(["--live-runs", "0"], input: ":quit\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("answer> :quit"))
        #expect(result.stdout.contains("Session over."))
        let help = try Binary.run(["--help"])
        #expect(help.stdout.contains("solve"))
        #expect(help.stdout.contains("drill"))
    }

    @Test func validatePassesOnTheBank() throws {
        let result = try Binary.run(["validate"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("0 error(s)"))
    }

    @Test func validateReportsEveryProblemAndTheRestStillWorks() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try String(contentsOf: Binary.packageRoot.appendingPathComponent("Questions/serial-queue/serial-sync-sync.yaml"), encoding: .utf8)
        try good.write(to: folder.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        try good.write(to: folder.appendingPathComponent("twin.yaml"), atomically: true, encoding: .utf8)
        try "id: broken\ntitle: [\n".write(to: folder.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        try good.replacingOccurrences(of: "id: serial-sync-sync", with: "id: other\ncolour: blue")
            .write(to: folder.appendingPathComponent("extra.yaml"), atomically: true, encoding: .utf8)

        let result = try Binary.run(["validate", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(folder.path)/broken.yaml:3:1: error: YAML:"))
        #expect(result.stderr.contains("\(folder.path)/extra.yaml:2:1: error: unknown field 'colour'"))
        #expect(result.stderr.contains("\(folder.path)/twin.yaml:1:1: error: duplicate id 'serial-sync-sync'"))
        #expect(result.stdout.contains("4 file(s): 1 question(s) load, 3 error(s) in 3 file(s)"))

        let solved = try Binary.run(["solve", "serial-sync-sync", "--bank", folder.path])
        #expect(solved.status == 0)
        #expect(solved.stdout.contains("1 possible outcome"))
    }
}

@Suite struct TopicEndToEndTests {
    @Test func tagsListsEveryTopicWithItsCount() throws {
        let result = try Binary.run(["tags", "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let topics = try #require(object?["topics"] as? [[String: Any]])
        #expect((15...30).contains(topics.count))
        #expect(topics.allSatisfy { ($0["count"] as? Int ?? 0) > 0 && !($0["covers"] as? String ?? "").isEmpty })
        let plain = try Binary.run(["tags"])
        #expect(plain.stdout.contains("deadlocks"))
    }

    /// Each topic the 2026 interview added lists its questions with `--tag`, all tagged with it.
    @Test(arguments: ["tasks", "structured-concurrency", "actors", "main-actor", "isolation", "sendable", "cancellation",
                      "continuations", "async-sequences", "locks", "target-queues", "dispatch-sources"])
    func aNewTopicListsItsQuestions(_ topic: String) throws {
        let result = try Binary.run(["list", "--tag", topic, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let questions = try #require(object?["questions"] as? [[String: Any]])
        #expect(!questions.isEmpty)
        #expect(questions.allSatisfy { ($0["tags"] as? [String] ?? []).contains(topic) })
    }

    /// An unknown topic names the nearest one, for every command that filters by topic.
    @Test func anUnknownTagSuggestsTheNearestTopic() throws {
        for arguments in [["list", "--tag", "deadlock"], ["--tag", "deadlock"], ["drill", "--tag", "deadlock"]] {
            let result = try Binary.run(arguments)
            #expect(result.status == 1)
            #expect(result.stderr.contains("no topic 'deadlock'; did you mean 'deadlocks'?"), "\(result.stderr)")
        }
    }

    @Test func validateRejectsAnUnknownTag() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("q.yaml")
        try "id: q\ntitle: Q\nlevel: 1\ntags: [race]\nsource: s\ncode: print(1)\nexplanation: x\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Binary.run(["validate", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("q.yaml:4:8: error: unknown tag 'race' (did you mean 'data-races'?); known topics: serial-queues"))
    }
}
