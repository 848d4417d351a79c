import Foundation
import Testing

/// "Which line?" questions from the command line: `check` grades a line number by the model,
/// `list --kind line` finds them, a sheet asks them.
@Suite struct LineQuestionEndToEndTests {
    @Test func checkGradesALineNumberByTheModel() throws {
        let right = try Binary.run(["check", "line-serial-sync-in-async", "line 3", "--json"])
        #expect(right.status == 0, "\(right.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(right.stdout.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "line")
        #expect(object["verdict"] as? String == "right")
        #expect(object["fixes"] as? [Int] == [3])
        let wrong = try Binary.run(["check", "line-serial-sync-in-async", "2"])
        #expect(wrong.status == 0)
        #expect(wrong.stdout.hasPrefix("wrong: line 2 makes no thread wait"))
        #expect(wrong.stdout.contains("Lines that would do: 3 (async instead of sync)."))
        let unreadable = try Binary.run(["check", "line-serial-sync-in-async", "the sync"])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("not a line number"))
    }

    /// A sync onto a sibling queue with the same serial root traps (measured with swiftc, 100 of
    /// 100 runs): the sync's line is the one to change.
    @Test func aSyncThroughASharedTargetIsTheLineToChange() throws {
        let right = try Binary.run(["check", "line-reentrant-sync-through-target", "6", "--json"])
        #expect(right.status == 0, "\(right.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(right.stdout.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "right")
        #expect(object["fixes"] as? [Int] == [6])
        let solved = try Binary.run(["solve", "line-reentrant-sync-through-target"])
        #expect(solved.stdout.contains("log.sync on a queue it already owns, directly or through its targets (log → db)"))
    }

    @Test func lineQuestionsAreListedAndAskedOnASheet() throws {
        let list = try Binary.run(["list", "--kind", "line"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("line-serial-sync-in-async"))
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("sheets")
        let sheet = try Binary.run(["sheet", "--kind", "line", "--format", "md", "--seed", "3", "--output", output.path])
        #expect(sheet.status == 0, "\(sheet.stderr)")
        let key = try String(contentsOf: output.appendingPathComponent("key-1.md"), encoding: .utf8)
        #expect(key.contains("line-serial-sync-in-async"))
        let asked = try String(contentsOf: output.appendingPathComponent("sheet-1.md"), encoding: .utf8)
        #expect(asked.contains("Line 3: `serialQueue.sync {`"))
    }
}
