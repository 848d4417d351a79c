import ConcurrencyModel
import Foundation
import Quiz
import Testing
@testable import Sheets

@Suite struct VariantTests {
    @Test(arguments: [SheetRenderer.TextFormat.html, .md])
    func theSameSeedWritesTheSameFilesByteForByte(_ format: SheetRenderer.TextFormat) throws {
        let renderer = SheetRenderer(format: format, paper: .a4)
        let first = renderer.render(try Fixtures.sheet(form: .select))
        let second = renderer.render(try Fixtures.sheet(form: .select))
        #expect(first == second)
        #expect(first.map(\.name) == ["sheet-1", "key-1", "sheet-2", "key-2", "sheet-3", "key-3", "sheets", "keys", "notes"].map { $0 + "." + format.rawValue })
        let other = renderer.render(try Fixtures.sheet(seed: 43, form: .select))
        #expect(other != first)
    }

    @Test func everyVariantAsksEveryQuestionOnceInItsOwnOrder() throws {
        let sheet = try Fixtures.sheet(variants: 8)
        for variant in sheet.variants {
            #expect(variant.items.map(\.question.id).sorted() == Fixtures.mixedIDs.sorted())
            #expect(variant.items.map(\.number) == Array(1...Fixtures.mixedIDs.count))
        }
        #expect(Set(sheet.variants.map { $0.items.map(\.question.id) }).count > 1, "every variant has the same order")
        let html = Fixtures.text(SheetRenderer(format: .html, paper: .a4).render(sheet)[0])
        for question in try Fixtures.questions(Fixtures.mixedIDs) {
            #expect(html.contains(question.title.replacingOccurrences(of: "'", with: "&#39;")), "\(question.id)")
        }
    }

    @Test func oneVariantKeepsTheOrderAskedFor() throws {
        let ids = ["semaphore-basics", "serial-sync-in-async", "barrier-purpose"]
        #expect(try Fixtures.sheet(ids, variants: 1).variants[0].items.map(\.question.id) == ids)
    }

    /// The key's letters name, in each variant, the options that variant shows in those places.
    @Test func choiceLettersInEachKeyMatchThatVariantsOptions() throws {
        let sheet = try Fixtures.sheet(variants: 10)
        var orders: Set<[Int]> = []
        for variant in sheet.variants {
            for item in variant.items where item.question.kind == .choice {
                orders.insert(item.optionOrder)
                let key = KeyQuestionView(item)
                let shown = SheetQuestionView(item)
                #expect(KeyAnswerView(item, note: 1, parts: PreparedParts(item)).correctLetters == key.correctLetters)
                #expect(shown.choices.map(\.letter) == key.choiceKeys.map(\.letter))
                for letter in key.correctLetters.split(separator: ", ") {
                    let position = Int(letter.unicodeScalars.first!.value) - 97
                    let text = shown.choices[position].runs.map(\.text).joined()
                    let option = try #require(item.question.options.first { Prose.runs($0.text).map(\.text).joined() == text })
                    #expect(option.isCorrect, "variant \(variant.id): \(letter) is not a correct option")
                }
                let correctCount = item.question.options.filter(\.isCorrect).count
                #expect(key.correctLetters.split(separator: ", ").count == correctCount)
                #expect(item.scoring.rule.contains(key.correctLetters))
            }
        }
        #expect(orders.count > 1, "options are not shuffled across variants")
    }

    @Test func everyTracePuzzlesKeyOutcomesAreTheModels() throws {
        let sheet = try Fixtures.sheet(Array(Fixtures.tracePuzzles.prefix(20)), variants: 2)
        for item in sheet.variants.flatMap(\.items) {
            guard case .trace(let trace) = item.answer else { continue }
            let solved = Explorer().explore(try item.question.program().get())
            #expect(trace.outcomes == solved.outcomes, "\(item.question.id)")
            #expect(QuestionPartsView(item).outcomes.map(\.printed.text) == solved.outcomes.map { AnswerNotation.render(Outcome(lines: $0.lines, end: .finished)) })
        }
    }

    @Test func aProviderCanReplaceATracePuzzlePerVariant() throws {
        let sheet = try SheetPlanner(title: "t", seed: 1, variantCount: 3, traceForm: .write)
            .plan(try Fixtures.questions(["serial-async-async", "barrier-purpose"]), answers: AnswerBook(bank: Fixtures.bank), provider: Fixtures.printingTwins)
        for variant in sheet.variants {
            let trace = try #require(variant.items.first { $0.question.kind == .trace })
            guard case .trace(let answer) = trace.answer else { continue }
            #expect(answer.outcomes == [Outcome(lines: [String(variant.number)], end: .finished)])
        }
    }

    @Test func filtersSayWhatIsWrong() throws {
        #expect(throws: SheetError.self) { try QuestionFilter(tags: ["no-such-tag"]).select(from: Fixtures.bank, seed: 1) }
        do {
            _ = try QuestionFilter(tags: ["serial-queues"], count: 500).select(from: Fixtures.bank, seed: 1)
            Issue.record("--count above the matches was accepted")
        } catch {
            #expect(error.cause == .badInput)
            #expect(error.message.contains("--count 500"))
        }
        let chosen = try QuestionFilter(count: 5).select(from: Fixtures.bank, seed: 9)
        #expect(chosen.count == 5)
        #expect(try QuestionFilter(count: 5).select(from: Fixtures.bank, seed: 9).map(\.id) == chosen.map(\.id))
    }

    /// Schedule questions are played, not written: never chosen, and refused when asked for.
    @Test func scheduleQuestionsStayOffSheets() throws {
        #expect(try QuestionFilter(tags: ["serial-queues"]).select(from: Fixtures.bank, seed: 1).allSatisfy { $0.kind != .schedule })
        for filter in [QuestionFilter(kind: .schedule), QuestionFilter(ids: ["serial-async-async", "schedule-serial-async-async-2143"])] {
            do {
                _ = try filter.select(from: Fixtures.bank, seed: 1)
                Issue.record("a schedule question was accepted on a sheet")
            } catch {
                #expect(error.cause == .badInput)
                #expect(error.message.contains("played at a terminal"))
            }
        }
    }
}
