import ConcurrencyModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Quiz
import Testing
@testable import Sheets

/// What issue 27 asked of exports and sheets for a class: the host's rules in every export,
/// Anki's options in the drill's order, one scoring rule for tick questions, space sized to the
/// answer, QTI 1.2, and sheets and answers that carry what grading needs.
@Suite struct ClassExportTests {
    static func export(_ format: ExportFormat, _ ids: [String], seed: UInt64 = 5) throws -> String {
        String(decoding: try Exporter.export(Fixtures.questions(ids), as: format, answers: AnswerBook(bank: Fixtures.bank), seed: seed), as: UTF8.self)
    }

    /// A student who knows that a plain program never runs the main queue is told it does here:
    /// every exported trace question says so, with the prelude.
    @Test(arguments: [ExportFormat.moodle, .gift, .anki, .qti])
    func everyTraceQuestionStatesThePreludeAndTheRules(_ format: ExportFormat) throws {
        let ids = ["group-notify-on-main-after-top-level", "serial-async-async", "barrier-purpose"]
        var text: String
        if format == .qti {
            let items = try Exporter.plan(Fixtures.questions(ids), answers: AnswerBook(bank: Fixtures.bank), seed: 5, traceForm: .select).variants[0].items
            text = QTIPackage.assessment(items)
        } else {
            text = try Self.export(format, ids)
        }
        text = text.replacingOccurrences(of: "\\", with: "")
        let rules = HostRules.paragraph.prefix(60)
        #expect(text.components(separatedBy: String(rules)).count - 1 == 2, "\(format): not once per trace question")
        #expect(text.components(separatedBy: "let concurrentQueue = DispatchQueue(label: ").count - 1 == 2, "\(format)")
        #expect(HostRules.paragraph.contains("the main thread serves the main queue") && HostRules.paragraph.contains("deadlock where it stops"))
    }

    @Test func jsonCarriesThePreludeAndTheRulesAsFields() throws {
        let data = try Exporter.export(Fixtures.questions(["serial-async-async", "barrier-purpose"]), as: .json, answers: AnswerBook(bank: Fixtures.bank), seed: 1)
        let entries = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["questions"] as? [[String: Any]])
        #expect(entries[0]["prelude"] as? String == Prelude.source && entries[0]["rules"] as? String == HostRules.paragraph)
        #expect(entries[1]["prelude"] == nil, "a choice question has no prelude")
    }

    /// A Swift-concurrency puzzle's answer also depends on the language mode and on where tasks
    /// and actors run: its export states those rules too, a GCD puzzle's does not.
    @Test func swiftConcurrencyQuestionsAddTheirRules() throws {
        let data = try Exporter.export(Fixtures.questions(["serial-async-async", "detached-inside-main-task"]), as: .json, answers: AnswerBook(bank: Fixtures.bank), seed: 1)
        let entries = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["questions"] as? [[String: Any]])
        let rules = entries.compactMap { $0["rules"] as? String }
        #expect(rules.count == 2)
        #expect(rules.filter { $0.contains("Swift 6 mode") && $0.contains("main actor") }.count == 1)
        #expect(rules.allSatisfy { $0.hasPrefix(HostRules.paragraph) })
        #expect(HostRules.paragraph(swiftConcurrency: false) == HostRules.paragraph)
        #expect(HostRules.paragraph(swiftConcurrency: true).hasSuffix(HostRules.swiftConcurrencyParagraph))
    }

    /// Anki's choice cards show the options in the drill's order for the seed: the right one is
    /// not always `a`, another seed gives another order, and `check --seed` reads the same letters.
    @Test func ankiShufflesChoiceOptionsPerSeedAndLeftAlignsCode() throws {
        let choices = Fixtures.bank.questions.filter { $0.kind == .choice }.prefix(12).map(\.id)
        var backs: [UInt64: [String]] = [:]
        for seed: UInt64 in [1, 2] {
            let text = try Self.export(.anki, Array(choices), seed: seed)
            backs[seed] = text.split(separator: "\n").filter { $0.hasPrefix("gcdquiz-") }.map { line in
                String(line.components(separatedBy: "\t")[2].components(separatedBy: "Correct: ").dropFirst().first?.prefix(while: { $0 != "<" }) ?? "")
            }
        }
        #expect(backs[1]?.count == choices.count)
        #expect(backs[1]?.contains { !$0.hasPrefix("a") } == true, "every right option is a: \(backs[1] ?? [])")
        #expect(backs[1] != backs[2], "the order does not depend on the seed")
        for (index, id) in choices.enumerated() {
            let question = try #require(Fixtures.bank.question(id: id))
            let order = OptionOrder.shuffled(question, seed: 1)
            let letters = question.options.indices.filter { question.options[$0].isCorrect }.compactMap { order.firstIndex(of: $0) }.sorted().map(Letters.letter)
            #expect(backs[1]?[index] == letters.joined(separator: ", "), "\(id)")
        }
        let trace = try Self.export(.anki, ["serial-async-async"])
        #expect(trace.contains("<div style=\"text-align: left\">") && trace.contains("<pre style=\"text-align: left\">"))
    }

    /// The tick rule: nothing for a blank or for every box, nothing on average for guessing, and
    /// the same points Moodle gives with the fractions the export writes (summed, kept in 0…100%).
    @Test func tickQuestionsScoreTheSameOnPaperAndInMoodle() throws {
        let ticks = TickScoring(right: 3, wrong: 3, points: 4)
        #expect(ticks.score(rightTicked: 0, wrongTicked: 0) == 0)
        #expect(ticks.score(rightTicked: 3, wrongTicked: 3) == 0)
        #expect(ticks.score(rightTicked: 3, wrongTicked: 0) == 4)
        var sum = 0.0
        for right in 0...3 { for wrong in 0...3 { sum += ticks.score(rightTicked: right, wrongTicked: wrong) * Double(Self.choose(3, right) * Self.choose(3, wrong)) } }
        #expect(sum / 64 < 1, "guessing earns too much")

        let questions = try Fixtures.questions(["serial-async-async", "concurrent-sync-in-async", "barrier-purpose", "group-misses-nested-async"])
        let items = try Exporter.plan(questions, answers: AnswerBook(bank: Fixtures.bank), seed: 3, traceForm: .select).variants[0].items
        for item in items {
            let view = ExportQuestionView(item)
            let fractions = view.answers.map { Double($0.fraction) ?? 0 }
            guard let rule = item.tickScoring else { continue }
            #expect(view.single == "false", "\(item.question.id): a radio button says there is one answer")
            for mask in 0..<(1 << fractions.count) {
                let chosen = fractions.indices.filter { mask & (1 << $0) != 0 }
                let moodle = min(100, max(0, chosen.map { fractions[$0] }.reduce(0, +))) / 100 * Double(item.scoring.points)
                let isRight = { (index: Int) in item.traceOptions.isEmpty ? item.question.options[item.optionOrder[index]].isCorrect : item.traceOptions[index].canHappen }
                let paper = rule.score(rightTicked: chosen.filter(isRight).count, wrongTicked: chosen.filter { !isRight($0) }.count)
                #expect(abs(moodle - paper) < 0.001, "\(item.question.id) \(chosen): Moodle \(moodle), paper \(paper)")
            }
        }
        let sheet = try Fixtures.sheet(["serial-async-async"], variants: 1, form: .select)
        let html = Fixtures.text(SheetRenderer(format: .html, paper: .a4).render(sheet)[0])
        #expect(html.contains("a blank question, or every box ticked, earns nothing"), "the rule is not printed on the sheet")
    }

    static func choose(_ n: Int, _ k: Int) -> Int { k == 0 || k == n ? 1 : choose(n - 1, k - 1) + choose(n - 1, k) }

    /// Ruled space grows with the answer, in a few sizes: one and two short outcomes get the
    /// same space, twelve get more, and every size is one of the few.
    @Test func writingSpaceIsSizedToTheAnswerWithoutTellingTheCount() throws {
        let line = { (count: Int) in (1...count).map { Outcome(lines: ["\($0)", "x"], end: .finished) } }
        #expect(WritingSpace.lines(for: line(1)) == WritingSpace.lines(for: line(2)))
        #expect(WritingSpace.lines(for: line(12)) > WritingSpace.lines(for: line(2)))
        for count in 1...20 { #expect(WritingSpace.sizes.contains(WritingSpace.lines(for: line(count)))) }
        #expect(WritingSpace.lines(for: line(4)) == WritingSpace.lines(for: line(6)), "8 lines hold 3 to 6 short outcomes")
        let sheet = try Fixtures.sheet(["wait-until-all-finished", "serial-sync-in-async"], variants: 1)
        let spaces = sheet.variants[0].items.map { SheetQuestionView($0).answerLines.count }
        #expect(spaces[0] > spaces[1], "\(spaces)")
    }

    /// QTI 1.2: a content package whose manifest names the assessment, and an assessment whose
    /// items follow the ASI content model as Canvas and Blackboard read it — metadata, then
    /// presentation, then response processing, then feedback; a response label for every
    /// answer the processing names; right answers adding up to 100.
    @Test func qtiFollowsTheASIStructure() throws {
        let ids = ["serial-sync-in-async", "barrier-purpose", "async-operation-super-start", "semaphore-basics", "operation-cycle-deadlock"]
        let items = try Exporter.plan(Fixtures.questions(ids), answers: AnswerBook(bank: Fixtures.bank), seed: 5, traceForm: .select).variants[0].items
        let document = try XMLDocument(data: Data(QTIPackage.assessment(items).utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "questestinterop" && root.uri == "http://www.imsglobal.org/xsd/ims_qtiasiv1p2")
        let elements = try root.nodes(forXPath: "*[local-name()='assessment']/*[local-name()='section']/*[local-name()='item']").compactMap { $0 as? XMLElement }
        #expect(elements.count == ids.count)
        for element in elements {
            let children = (element.children ?? []).compactMap { ($0 as? XMLElement)?.localName }
            let order = ["itemmetadata", "presentation", "resprocessing", "itemfeedback"]
            #expect(children.map { order.firstIndex(of: $0) ?? -1 } == children.map { order.firstIndex(of: $0) ?? -1 }.sorted(), "\(children)")
            let type = try element.nodes(forXPath: ".//*[local-name()='fieldentry']").first?.stringValue ?? ""
            #expect(["multiple_choice_question", "multiple_answers_question", "essay_question"].contains(type))
            let labels = Set(try element.nodes(forXPath: ".//*[local-name()='response_label']/@ident").compactMap(\.stringValue))
            let named = try element.nodes(forXPath: ".//*[local-name()='varequal']").compactMap(\.stringValue)
            #expect(Set(named).isSubset(of: labels))
            let added = try element.nodes(forXPath: ".//*[local-name()='setvar'][@action='Add']").compactMap { Double($0.stringValue ?? "") }.reduce(0, +)
            #expect(type == "essay_question" || abs(added - 100) < 0.01, "\(added)")
            let feedback = Set(try element.nodes(forXPath: ".//*[local-name()='itemfeedback']/@ident").compactMap(\.stringValue))
            let linked = try element.nodes(forXPath: ".//*[local-name()='displayfeedback']/@linkrefid").compactMap(\.stringValue)
            #expect(!linked.isEmpty && Set(linked).isSubset(of: feedback), "\(linked) \(feedback)")
        }
        let zip = QTIPackage.package(items)
        #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(StoredZip.crc32(Data("123456789".utf8)) == 0xCBF4_3926, "the CRC-32 check value")
    }

    /// A roster's mistakes are placed; the map says who has which variant and seed.
    @Test func rosterMistakesArePlacedAndTheMapNamesEveryStudent() throws {
        let bad = ["name,id\nAda,1\nBob,1\n": "file.csv:3: the id '1' is also on line 2",
                   "Ada\n": "file.csv:1: a student is 'name, id'", "Ada,1,x\n": "file.csv:1: the seed 'x'", "\"Ada,1\n": "never closed"]
        for (text, message) in bad {
            do {
                _ = try Roster.parse(CSVTable(text, file: "file.csv"), file: "file.csv")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        let students = try Roster.parse(CSVTable("\u{FEFF}name,id,seed\n\"Lovelace, Ada\",a1,\nTuring,a2,99\n", file: "f"), file: "f")
        #expect(students == [Student(name: "Lovelace, Ada", id: "a1"), Student(name: "Turing", id: "a2", seed: 99)])
        let sheet = try SheetPlanner(title: "t", seed: 5, variantCount: 2, traceForm: .select)
            .plan(Fixtures.questions(["serial-async-async", "barrier-purpose"]), answers: AnswerBook(bank: Fixtures.bank), students: students)
        #expect(Roster.map(sheet) == "name,id,variant,seed\r\n\"Lovelace, Ada\",a1,1,5\r\nTuring,a2,2,99\r\n")
        // Variant 2 with seed 99 is what `check --variant 2 --seed 99` sees.
        let question = try #require(Fixtures.bank.question(id: "barrier-purpose"))
        let asked = try SheetPlanner(title: "", seed: 99, variantCount: 2, traceForm: .select).asked(question, inVariant: 2, answers: AnswerBook(bank: Fixtures.bank))
        #expect(asked.optionOrder == sheet.variants[1].items.first { $0.question.id == "barrier-purpose" }?.optionOrder)
        let html = Fixtures.text(SheetRenderer(format: .html, paper: .a4).render(sheet)[2])
        #expect(html.contains("data-bookmark=\"Variant 2 — Turing (a2)\"") && html.contains("Variant 2 of 2 · seed 99 · Turing · a2"))
    }

    /// The plan written beside the sheets gives back every item as it was asked.
    @Test func thePlanGivesBackTheSheet() throws {
        let sheet = try Fixtures.sheet(Fixtures.mixedIDs, variants: 3, form: .select)
        let data = SheetPlanFile(sheet).encoded()
        let plan = try JSONDecoder().decode(SheetPlanFile.self, from: data)
        let again = try plan.sheet(bank: Fixtures.bank, answers: AnswerBook(bank: Fixtures.bank))
        for (variant, rebuilt) in zip(sheet.variants, again.variants) {
            for (item, back) in zip(variant.items, rebuilt.items) {
                #expect(item.question.id == back.question.id && item.optionOrder == back.optionOrder)
                #expect(item.traceOptions.map(\.outcome) == back.traceOptions.map(\.outcome))
                #expect(item.traceOptions.map(\.canHappen) == back.traceOptions.map(\.canHappen))
                #expect(item.scoring == back.scoring && item.tickScoring == back.tickScoring)
            }
        }
    }

    /// A trace answer is graded by `TraceGrader` as `check` grades it, with the key's points.
    @Test func itemsAreGradedByTheKeysRules() throws {
        let sheet = try Fixtures.sheet(["serial-sync-in-async"], variants: 1)
        let item = sheet.variants[0].items[0]
        guard case .trace(let trace) = item.answer else { return }
        let all = trace.outcomes.map(AnswerNotation.render).joined(separator: " | ")
        #expect(ItemGrade(all, for: item).points == 4)
        #expect(ItemGrade(AnswerNotation.render(trace.outcomes[0]), for: item).points == 2)
        #expect(ItemGrade("", for: item).verdict == .blank)
        #expect(ItemGrade("nonsense words", for: item).verdict == .unreadable)
        let wrong = try #require(item.distractors.first)
        let graded = ItemGrade(all + " | " + AnswerNotation.render(wrong.outcome), for: item)
        #expect(graded.points == 0 && graded.mistakes.count == 1)
        #expect(graded.feedback.first?.contains("cannot happen") == true && graded.mistakes[0].rule == wrong.why.blockers.first?.rule.statement)
    }

    /// Moodle's responses report names the answers chosen by their text; read back as letters in
    /// the export's order, they are graded as the sheet's tick rule grades them, blanks as 0.
    @Test func moodleResponsesAreGradedByTheTickRule() throws {
        let questions = try Fixtures.questions(["serial-sync-in-async", "barrier-purpose", "async-operation-super-start"])
        let sheet = try Exporter.plan(questions, answers: AnswerBook(bank: Fixtures.bank), seed: 1, traceForm: .select)
        let items = sheet.variants[0].items
        let texts = { (item: SheetItem) -> [String] in
            item.traceOptions.isEmpty
                ? item.optionOrder.map { Prose.plain(Prose.runs(item.question.options[$0].text)) }
                : item.traceOptions.map { OutcomeView($0.outcome).printed.text + " " + OutcomeView($0.outcome).ending }
        }
        let right = { (item: SheetItem) -> [Int] in
            item.traceOptions.isEmpty ? item.optionOrder.indices.filter { item.question.options[item.optionOrder[$0]].isCorrect }
                : item.traceOptions.indices.filter { item.traceOptions[$0].canHappen }
        }
        let trace = items[0], choice = items[1]
        let allRight = right(trace).map { texts(trace)[$0] }.joined(separator: "; ")
        let oneWrong = texts(trace).indices.first { !right(trace).contains($0) }.map { texts(trace)[$0] } ?? ""
        var csv = "Last name,First name,ID number,Email address,State,Grade/10.00,Response 1,Response 2,Response 3\n"
        csv += "Lovelace,Ada,a1,ada@example.org,Finished,10,\"\(allRight)\",\"\(right(choice).map { texts(choice)[$0] }.joined(separator: "; "))\",Serial queues run one block at a time.\n"
        csv += "Turing,Alan,,alan@example.org,Finished,0,\"\(oneWrong)\",-,-\n"
        let submissions = try ClassAnswers.readMoodle(CSVTable(csv, file: "responses.csv"), file: "responses.csv", items: items)
        #expect(submissions.map(\.student.id) == ["a1", "alan@example.org"])
        let grades = ClassGrades(submissions, sheet: sheet)
        #expect(grades.students[0].items[0].points == 4 && grades.students[0].items[1].points == 2)
        #expect(grades.students[1].items[0].points == 0 && grades.students[1].items[1].verdict == .blank)
        #expect(grades.students[1].items[0].mistakes.count == 1)
        let bad = "Last name,First name,Response 1\nX,Y,1 2 3 4 5 finished\n"
        #expect(throws: SheetError.self) { try ClassAnswers.readMoodle(CSVTable(bad, file: "r.csv"), file: "r.csv", items: items) }
    }
}
