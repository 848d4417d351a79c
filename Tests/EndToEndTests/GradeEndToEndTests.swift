import Foundation
import Testing

/// `gcdquiz sheet --roster` and `gcdquiz grade` as an instructor uses them: a class of 30, each
/// student answering their own variant with known mistakes, graded back to the expected scores.
@Suite struct GradeEndToEndTests {
    /// Thirty students with the same kinds of mistakes in different places: per question, the
    /// whole answer, part of it, a wrong one, or nothing. Every expected score is worked out here
    /// from the key's rules, not by the grader; the grade command must reproduce each exactly.
    @Test func aClassOfThirtyIsGradedToTheExpectedScores() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let roster = folder.appendingPathComponent("class.csv")
        var rosterText = "name,id,seed\n"
        for index in 1...30 { rosterText += "\"Student, \(index)\",s\(100 + index),\(index == 7 ? "4242" : "")\n" }
        try rosterText.write(to: roster, atomically: true, encoding: .utf8)
        let sheets = folder.appendingPathComponent("sheets")
        let made = try Binary.run(["sheet", "--roster", roster.path, "--count", "12", "--seed", "7", "--output", sheets.path])
        #expect(made.status == 0, "\(made.stderr)")
        let map = try String(contentsOf: sheets.appendingPathComponent("roster-map.csv"), encoding: .utf8)
        #expect(map.hasPrefix("name,id,variant,seed\r\n\"Student, 1\",s101,1,7\r\n"))
        #expect(map.contains("\"Student, 7\",s107,7,4242\r\n"), "a student's own seed")
        for variant in ["01", "07", "30"] {
            let sheet = try String(contentsOf: sheets.appendingPathComponent("sheet-\(variant).html"), encoding: .utf8)
            let index = Int(variant)!
            #expect(sheet.contains("Student, \(index)") && sheet.contains("s\(100 + index)"))
            let key = try String(contentsOf: sheets.appendingPathComponent("key-\(variant).html"), encoding: .utf8)
            #expect(key.contains("s\(100 + index)"))
        }

        let plan = try JSONSerialization.jsonObject(with: Data(contentsOf: sheets.appendingPathComponent("sheet-plan.json"))) as? [String: Any]
        let variants = try #require(plan?["variants"] as? [[String: Any]])
        let ids = try #require(plan?["questions"] as? [String])
        let exported = try Binary.run(["export", "--format", "json", "--ids", ids.joined(separator: ",")])
        let entries = try #require((try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])?["questions"] as? [[String: Any]])
        let questions = Dictionary(uniqueKeysWithValues: entries.map { ($0["id"] as? String ?? "", $0) })

        var answers = "student,question,answer\n"
        var expected: [String: Double] = [:]
        for (offset, variant) in variants.enumerated() {
            let student = "s\(101 + offset)"
            var total = 0.0
            for item in variant["items"] as? [[String: Any]] ?? [] {
                let number = item["number"] as? Int ?? 0
                let question = try #require(questions[item["question"] as? String ?? ""])
                let (answer, points) = Self.answer(question, order: item["options"] as? [Int], mistake: (offset + number) % 4)
                // Each item's points as its key prints them, to the hundredth (two thirds: 0.67).
                total += (points * 100).rounded() / 100
                if let answer { answers += "\(student),\(number),\"\(answer.replacingOccurrences(of: "\"", with: "\"\""))\"\n" }
            }
            expected[student] = total
        }
        let answersFile = folder.appendingPathComponent("answers.csv")
        try answers.write(to: answersFile, atomically: true, encoding: .utf8)
        let grades = folder.appendingPathComponent("grades")
        let graded = try Binary.run(["grade", answersFile.path, "--sheets", sheets.path, "--output", grades.path])
        #expect(graded.status == 0, "\(graded.stderr)")
        #expect(graded.stdout.contains("30 students"))
        let scores = try String(contentsOf: grades.appendingPathComponent("scores.csv"), encoding: .utf8)
        let rows = scores.split(separator: "\r\n").dropFirst().map { Self.fields(String($0)) }
        #expect(rows.count == 30)
        for row in rows {
            let student = row[1]
            let total = try #require(Double(row[row.count - 3]))
            #expect(String(format: "%.2f", total) == String(format: "%.2f", expected[student] ?? -1), "\(student): \(row)")
        }
        for name in ["report.txt", "report.csv", "report.json", "report.html", "feedback.csv", "feedback-s101.txt", "feedback-s130.txt"] {
            #expect(FileManager.default.fileExists(atPath: grades.appendingPathComponent(name).path), "\(name)")
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: grades.appendingPathComponent("report.json"))) as? [String: Any]
        #expect((report?["questions"] as? [Any])?.count == 12)
        #expect((report?["histogram"] as? [Int])?.reduce(0, +) == 30)
    }

    /// The answer a student with `mistake` gives (0 whole, 1 part, 2 wrong, 3 nothing) and the
    /// points the key's rules give it.
    static func answer(_ question: [String: Any], order: [Int]?, mistake: Int) -> (String?, Double) {
        if mistake == 3 { return (nil, 0) }
        switch question["kind"] as? String {
        case "trace":
            let outcomes = (question["outcomes"] as? [[String: Any]] ?? []).compactMap { $0["notation"] as? String }
            let impossible = (question["distractors"] as? [[String: Any]] ?? []).compactMap { ($0["outcome"] as? [String: Any])?["notation"] as? String }
            switch mistake {
            case 0: return (outcomes.joined(separator: " | "), 4)
            case 1 where outcomes.count > 1: return (outcomes[0], 2)
            case 1: return (outcomes.joined(separator: " | "), 4)
            default:
                guard let wrong = impossible.first else { return (nil, 0) }
                return ((outcomes.prefix(1) + [wrong]).joined(separator: " | "), 0)
            }
        case "choice":
            let options = question["options"] as? [[String: Any]] ?? []
            let order = order ?? Array(options.indices)
            let letter = { (index: Int) in String(UnicodeScalar(UInt8(97 + order.firstIndex(of: index)!))) }
            let right = options.indices.filter { options[$0]["correct"] as? Bool == true }
            let wrong = options.indices.filter { options[$0]["correct"] as? Bool != true }
            switch mistake {
            case 0: return (right.map(letter).sorted().joined(separator: ", "), 2)
            case 1 where right.count > 1: return (letter(right[0]), 2.0 / Double(right.count))
            case 1: return (letter(right[0]), 2)
            default: return (letter(wrong[0]), 0)
            }
        default:
            // A phrase each key idea accepts as it is (not a regular expression), "a + b" as "a b".
            let ideas = (question["keyIdeas"] as? [[String: Any]] ?? []).compactMap { idea in
                (idea["accept"] as? [String])?.first { !$0.hasPrefix("/") }?.replacingOccurrences(of: " + ", with: " ")
            }
            guard !ideas.isEmpty, ideas.count == (question["keyIdeas"] as? [Any])?.count else { return ("I am not sure.", 0) }
            let points = Double(ideas.count == 1 ? 2 : ideas.count)
            switch mistake {
            case 0: return (ideas.joined(separator: "; and "), points)
            case 1 where ideas.count > 1: return (ideas[0], ideas.count == 1 ? 2 : 1)
            case 1: return (ideas[0], points)
            default: return ("Something else entirely.", 0)
            }
        }
    }

    /// A CSV line's fields (quotes as RFC 4180).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else { field.append(character) }
            } else if character == "\"" { quoted = true } else if character == "," { fields.append(field); field = "" } else { field.append(character) }
        }
        fields.append(field)
        return fields
    }
}
