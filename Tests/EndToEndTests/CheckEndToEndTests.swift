import Foundation
import Testing

/// `check` as a script uses it: answers read as meant or refused with exit 1, choice letters
/// as `show` prints them, JSON with its schema; and a bank or file that is not there.
@Suite struct CheckEndToEndTests {
    @Test func unreadableAnswersExitOneWithAShortMessage() throws {
        let huge = String(repeating: "1 2 3 4 ", count: 2000) + "->"
        for answer in ["0 -> 1 -> 2", "[0, 1, 2, 3]", "1 2 3 4 finishd", "before deadlok", "\"\\n\"", huge] {
            let result = try Binary.run(["check", "serial-async-async", answer])
            #expect(result.status == 1, "\(answer.prefix(20))")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("gcdquiz: unreadable answer '"))
            #expect(result.stderr.contains("e.g. 1 2 3 | 2 1 3 | 1 deadlock"))
            #expect(result.stderr.count < 400, "\(result.stderr.prefix(100))")
        }
        let typo = try Binary.run(["check", "serial-sync-in-async", "1 deadlok"])
        #expect(typo.stderr.contains("did you mean 'deadlock'?"))
    }

    @Test func answersWrittenAsPeopleWriteThemAreGraded() throws {
        let right = "1 2 3 4 | 1 2 4 3 | 2 1 3 4 | 2 1 4 3 | 2 4 1 3"
        for answer in [right, "[1,2,3,4] [1,2,4,3] [2,1,3,4] [2,1,4,3] [2,4,1,3]",
                       "1->2->3->4 or 1->2->4->3 or 2->1->3->4 or 2->1->4->3 or 2->4->1->3",
                       right.replacingOccurrences(of: " ", with: "\u{00A0}"), "1 2 3 4 finished | 1243 | 2134 | 2143 | 2413"] {
            let result = try Binary.run(["check", "serial-async-async", answer, "--json"])
            #expect(result.status == 0, "\(answer): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["verdict"] as? String == "exact", "\(answer)")
            #expect(object?["schema"] as? Int == 1)
        }
        // A line the puzzle prints, in an impossible place: graded, wrong.
        let wrong = try Binary.run(["check", "serial-async-async", "3 1 2 4"])
        #expect(wrong.status == 0)
        #expect(wrong.stdout.hasPrefix("wrong: 3 1 2 4 cannot happen."))
    }

    @Test func choiceLettersAreReadAsShowPrintsThem() throws {
        let id = "serial-async-async-guarantees"
        let key = try Binary.run(["check", id, "a", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(key.stdout.utf8)) as? [String: Any])
        #expect(object["schema"] as? Int == 1)
        let correct = try #require(object["correct"] as? [String])
        #expect(object["chosen"] as? [String] == ["a"])
        // In the file the right options are the first three; as shown, they are not a, b, c.
        #expect(correct.count == 3)
        #expect(correct != ["a", "b", "c"])
        let shown = try Binary.run(["show", id])
        let texts = ["1 prints before 3.", "2 prints before 4.", "2 prints before 3."]
        let shownLetters = shown.stdout.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard texts.contains(where: trimmed.hasSuffix), let letter = trimmed.first else { return nil }
            return String(letter)
        }
        #expect(shownLetters.sorted() == correct)
        let graded = try Binary.run(["check", id, correct.joined(separator: ", ")])
        #expect(graded.stdout.hasPrefix("right"))
        // Another seed, another order, read the same way.
        let seeded = try Binary.run(["show", id, "--seed", "7"])
        #expect(seeded.stdout != shown.stdout)
    }

    @Test func aBankOrFileThatIsNotThereIsAnError() throws {
        let list = try Binary.run(["list", "--bank", "/nonexistent"])
        #expect(list.status == 1)
        #expect(list.stderr.contains("no question bank at '/nonexistent'"))
        let environment = try Binary.run(["list"], environment: ["GCDQUIZ_BANK": "/nonexistent"])
        #expect(environment.status == 1)
        #expect(environment.stderr.contains("GCDQUIZ_BANK"))
    }

    @Test func aSnippetNeedsNoBankAndAFileThatIsNotUTF8SaysWhere() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let snippet = folder.appendingPathComponent("p.swift")
        try "serialQueue.async { print(1) }\nprint(2)\n".write(to: snippet, atomically: true, encoding: .utf8)
        // Run from a folder with no bank anywhere above it.
        let solved = try Binary.run(["solve", snippet.path], directory: URL(fileURLWithPath: "/"))
        #expect(solved.status == 0, "\(solved.stderr)")
        #expect(solved.stdout.contains("2 possible outcomes"))
        let latin = folder.appendingPathComponent("latin.swift")
        try Data("print(1)\nprint(\"caf".utf8 + [0xE9] + "\")\n".utf8).write(to: latin)
        let refused = try Binary.run(["solve", latin.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("latin.swift:2:11: error: the file is not UTF-8 text: byte 0xE9"))
    }
}
