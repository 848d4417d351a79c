import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Quiz
import Testing
@testable import Sheets

@Suite struct ExportTests {
    static func export(_ format: ExportFormat, _ questions: [Question]) throws -> String {
        String(decoding: try Exporter.export(questions, as: format, answers: AnswerBook(bank: Fixtures.bank), seed: 5), as: UTF8.self)
    }

    static func mixed() throws -> [Question] {
        try Fixtures.questions(Fixtures.mixedIDs) + [Fixtures.specialCharacters]
    }

    /// A line question is exported as the choice over its lines it becomes: in the code's order,
    /// unshuffled in Moodle, the line the model finds to mend it right.
    @Test func aLineQuestionIsExportedAsAChoiceOverItsLines() throws {
        let questions = try Fixtures.questions(["line-serial-sync-in-async"])
        #expect(questions.first?.kind == .choice)
        let xml = try Self.export(.moodle, questions)
        #expect(xml.contains("<shuffleanswers>false</shuffleanswers>"))
        let document = try XMLDocument(data: Data(xml.utf8))
        let answers = try document.nodes(forXPath: "/quiz/question[@type='multichoice']/answer").compactMap { $0 as? XMLElement }
        let texts = answers.map { $0.elements(forName: "text").first?.stringValue ?? "" }
        #expect(texts.first?.hasPrefix("Line 1:") == true)
        let right = answers.filter { Double($0.attribute(forName: "fraction")?.stringValue ?? "") == 100 }
        #expect(right.count == 1)
        #expect(right.first?.elements(forName: "text").first?.stringValue?.contains("Line 3:") == true)
        let gift = try Self.export(.gift, questions)
        #expect(gift.contains("=Line 3\\: <code>serialQueue.sync \\{</code>"))
    }

    /// Moodle XML parses, has one question per bank question (plus the category), and each
    /// multichoice question's fractions are grades Moodle accepts that add up: the right answers
    /// to 100%, the wrong ones (if negative) to −100%.
    @Test func moodleXMLRoundTripsWithFractionsThatAddUp() throws {
        let questions = try Self.mixed()
        let xml = try Self.export(.moodle, questions)
        let document = try XMLDocument(data: Data(xml.utf8))
        let elements = try document.nodes(forXPath: "/quiz/question").compactMap { $0 as? XMLElement }
        #expect(elements.first?.attribute(forName: "type")?.stringValue == "category")
        let real = elements.dropFirst()
        #expect(real.count == questions.count)
        let allowed = MoodleFraction.allowed + MoodleFraction.allowed.map { -$0 } + [0]
        for (element, question) in zip(real, questions) {
            let type = element.attribute(forName: "type")?.stringValue
            #expect(try element.nodes(forXPath: "name/text").first?.stringValue == question.title)
            switch question.kind {
            case .short:
                #expect(type == "essay")
                let info = try element.nodes(forXPath: "graderinfo/text").first?.stringValue ?? ""
                #expect(info.contains("is built for synchronous operations"), "the model answer is not the grader's information")
            case .trace, .choice, .line:
                #expect(type == "multichoice")
                let fractions = try element.nodes(forXPath: "answer").compactMap { ($0 as? XMLElement)?.attribute(forName: "fraction")?.stringValue }.compactMap(Double.init)
                #expect(fractions.count >= 2)
                for fraction in fractions { #expect(allowed.contains { abs($0 - fraction) < 0.00001 }, "\(question.id): \(fraction)") }
                #expect(abs(fractions.filter { $0 > 0 }.reduce(0, +) - 100) < 0.001, "\(question.id): \(fractions)")
                let negative = fractions.filter { $0 < 0 }.reduce(0, +)
                #expect(negative == 0 || abs(negative + 100) < 0.001, "\(question.id): \(fractions)")
                // A trace puzzle always takes several answers: one radio button would say there is one outcome.
                let single = try element.nodes(forXPath: "single").first?.stringValue
                #expect((single == "true") == (question.kind == .choice && fractions.filter { $0 > 0 }.count == 1))
            case .schedule:
                Issue.record("\(question.id): a schedule question was exported")
            }
        }
        // The question text is HTML inside the XML: the code is there, escaped once for XML.
        let special = try #require(real.last)
        let text = try special.nodes(forXPath: "questiontext/text").first?.stringValue ?? ""
        #expect(text.contains("print(&quot;#{set}=&quot;, total)"))
    }

    /// GIFT: Moodle's importer finds a question's answers between the first unescaped `{` and
    /// `}`, reads `~ = #` as answer marks, `::` as the name's ends and a blank line as the end
    /// of a question. So in a question whose code is full of them, every one must be escaped.
    @Test func giftEscapesTheCharactersItUsesAndKeepsEachQuestionOneParagraph() throws {
        let questions = try Self.mixed()
        let gift = try Self.export(.gift, questions)
        let paragraphs = gift.components(separatedBy: "\n\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        #expect(paragraphs.first?.contains("$CATEGORY: gcdquiz") == true)
        let bodies = paragraphs.dropFirst()
        #expect(bodies.count == questions.count)
        for (body, question) in zip(bodies, questions) {
            let lines = body.split(separator: "\n").filter { !$0.hasPrefix("//") }
            let text = Self.unescapedGIFT(lines.joined(separator: "\n"))
            #expect(text.hasPrefix("::"), "\(question.id)")
            #expect(text.filter { $0 == "{" }.count == 1, "\(question.id): unescaped braces in \(text)")
            #expect(text.filter { $0 == "}" }.count == 1, "\(question.id)")
            #expect(text.hasSuffix("}"), "\(question.id)")
            #expect(body.contains("::" + GIFTText().escapeText(question.title) + "::"), "\(question.id)")
            let questionText = text[..<text.firstIndex(of: "{")!]
            #expect(!questionText.contains("=") && !questionText.contains("~") && !questionText.contains("#"))
        }
        let special = try #require(bodies.last)
        #expect(special.contains("print(&quot;\\#\\{set\\}\\=&quot;, total)"))
        #expect(special.contains("\\n"), "code lines are kept as \\n")
    }

    /// A GIFT text with its escapes (`\x`) replaced by a placeholder, as Moodle's importer
    /// first does: what is left are the characters GIFT reads as syntax.
    static func unescapedGIFT(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append("·")
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Anki: the file headers, then one note per line with four tab-separated fields (GUID,
    /// front, back, tags), no field holding a tab or a newline, and a GUID that depends only on
    /// the question, so importing again updates the notes.
    @Test func ankiFollowsItsHeadersAndKeepsEachNoteOnOneLine() throws {
        let questions = try Self.mixed()
        let text = try Self.export(.anki, questions)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(7)) == ["#separator:tab", "#html:true", "#notetype:Basic", "#deck:gcdquiz",
                                           "#columns:GUID\tFront\tBack\tTags", "#guid column:1", "#tags column:4"])
        let notes = lines.dropFirst(7).filter { !$0.isEmpty }
        #expect(notes.count == questions.count)
        for (note, question) in zip(notes, questions) {
            let fields = note.components(separatedBy: "\t")
            #expect(fields.count == 4, "\(question.id)")
            #expect(fields[0] == "gcdquiz-" + question.id)
            #expect(!fields[1].hasPrefix("\"") && !fields[2].hasPrefix("\""), "a field starting with a quote would be read as quoted")
            #expect(fields[3].split(separator: " ").contains("gcdquiz::\(question.kind.rawValue)"))
        }
        let special = try #require(notes.last)
        #expect(special.contains("print(&quot;#{set}=&quot;, total)<br>"))
        #expect(try Self.export(.anki, questions) == text)
    }

    @Test func jsonHasEveryComputedAnswer() throws {
        let questions = try Self.mixed()
        let data = try Exporter.export(questions, as: .json, answers: AnswerBook(bank: Fixtures.bank), seed: 5)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require(object["questions"] as? [[String: Any]])
        #expect(entries.count == questions.count)
        let trace = try #require(entries.first { $0["id"] as? String == "serial-sync-in-async" })
        #expect((trace["outcomes"] as? [[String: Any]])?.count == 3)
        #expect(((trace["distractors"] as? [[String: Any]]) ?? []).allSatisfy { ($0["because"] as? [Any])?.isEmpty == false })
        let choice = try #require(entries.first { $0["id"] as? String == "barrier-purpose" })
        #expect(choice["correct"] as? [String] == ["a", "b"])
    }
}
