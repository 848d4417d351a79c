import ConcurrencyModel
import Foundation
import Generator
import Quiz
import Testing
@testable import Sheets

/// `sheet --generated`: every variant asks its own generated twin of each trace puzzle.
@Suite struct GeneratedSheetTests {
    static let ids = ["group-misses-nested-async", "barrier-purpose", "concurrent-sync-in-async", "semaphore-basics"]

    static func sheet(_ ids: [String] = ids, variants: Int = 3, seed: UInt64 = 5, form: TraceForm = .write) throws -> (Sheet, GeneratedTwins) {
        let answers = AnswerBook(bank: Fixtures.bank)
        let twins = GeneratedTwins(bank: Fixtures.bank, variantCount: variants, seed: seed, answers: answers)
        let sheet = try SheetPlanner(title: "Generated", seed: seed, variantCount: variants, traceForm: form)
            .plan(Fixtures.questions(ids), answers: answers, provider: twins)
        return (sheet, twins)
    }

    @Test func theSameSeedWritesTheSameFilesByteForByte() throws {
        let renderer = SheetRenderer(format: .html, paper: .a4)
        let first = renderer.render(try Self.sheet(form: .select).0)
        #expect(first == renderer.render(try Self.sheet(form: .select).0))
        #expect(first != renderer.render(try Self.sheet(seed: 6, form: .select).0))
    }

    /// Each trace puzzle is a different generated twin in every variant, none the bank's own;
    /// other kinds are asked as they are.
    @Test func eachVariantAsksItsOwnTwinOfEveryTracePuzzle() throws {
        let (sheet, twins) = try Self.sheet(variants: 4)
        #expect(twins.shortfalls.isEmpty)
        for id in Self.ids {
            let bankQuestion = try #require(Fixtures.bank.question(id: id))
            let asked = sheet.variants.map { variant in variant.items.first { $0.bankQuestionID == id }?.question }
            #expect(asked.allSatisfy { $0 != nil }, "\(id) is missing from a variant")
            let questions = asked.compactMap { $0 }
            guard bankQuestion.kind == .trace else {
                #expect(questions.allSatisfy { $0 == bankQuestion })
                continue
            }
            #expect(Set(questions.map(\.code)).count == sheet.variants.count, "\(id): two variants ask the same code")
            #expect(questions.allSatisfy { $0.isGenerated && $0.code != bankQuestion.code && $0.id != id }, "\(id)")
            #expect(questions.allSatisfy { $0.title == "Variation on “\(bankQuestion.title)”" })
        }
    }

    /// The key is exact for whatever code a variant asks: its outcomes are the model's for that code.
    @Test func everyKeysOutcomesAreTheModelsForThatVariantsCode() throws {
        let (sheet, _) = try Self.sheet(form: .select)
        for item in sheet.variants.flatMap(\.items) {
            guard case .trace(let trace) = item.answer else { continue }
            let solved = Explorer().explore(try item.question.program().get())
            #expect(trace.outcomes == solved.outcomes, "\(item.question.id)")
            let grader = TraceGrader(exploration: solved)
            for option in item.traceOptions {
                #expect((grader.grade([option.outcome]).verdict.name == "wrong") == !option.canHappen, "\(item.question.id)")
            }
        }
    }

    /// Every twin is in its puzzle's difficulty band: about as many outcomes, the same level,
    /// a deadlock as the original has one, its constructs and at most one more.
    @Test func everyTwinStaysInItsPuzzlesBand() throws {
        let (sheet, _) = try Self.sheet(variants: 4)
        for item in sheet.variants.flatMap(\.items) where item.question.isGenerated {
            let original = try #require(Fixtures.bank.question(id: item.bankQuestionID))
            let band = DifficultyBand(Self.features(original))
            let twin = Self.features(item.question)
            #expect(band.contains(twin), "\(item.question.id): \(twin) is outside \(band)")
        }
    }

    static func features(_ question: Question) -> PuzzleFeatures {
        let program = try! question.program().get()
        return PuzzleFeatures(program: program, exploration: Explorer().explore(program))
    }

    /// Variants left without a twin ask other bank puzzles of the band, not the sheet's own
    /// questions, and the note names them.
    @Test func variantsWithoutATwinAskAnotherPuzzleOfTheBand() throws {
        let answers = AnswerBook(bank: Fixtures.bank)
        let asked = try Fixtures.questions(["concurrent-async-async", "serial-sync-in-async"])
        let twins = GeneratedTwins(bank: Fixtures.bank, variantCount: 4, seed: 4, answers: answers, asking: asked)
        let sheet = try SheetPlanner(title: "t", seed: 4, variantCount: 4, traceForm: .write).plan(asked, answers: answers, provider: twins)
        let shortfall = try #require(twins.shortfalls.first { $0.questionID == "concurrent-async-async" })
        #expect(!shortfall.substitutes.isEmpty && !shortfall.substitutes.contains("serial-sync-in-async"))
        let band = DifficultyBand(Self.features(asked[0]))
        for variant in sheet.variants {
            let item = try #require(variant.items.first { $0.bankQuestionID == "concurrent-async-async" })
            #expect(item.question.id != "concurrent-async-async", "variant \(variant.id) asks the bank's puzzle")
            #expect(band.contains(Self.features(item.question)), "\(item.question.id)")
        }
        #expect(twins.shortfallNote?.contains("other bank puzzles of its difficulty in turn: " + shortfall.substitutes.joined(separator: ", ")) == true)
    }

    /// A puzzle the generator has nothing to change in has no twin: each variant asks another
    /// bank puzzle of its band in turn, and the shortfall is said in one line.
    @Test func tooFewTwinsFallBackToOtherPuzzlesOfTheBandAndSaySo() throws {
        var fixed = Question(id: "nothing-to-change", kind: .trace, title: "Nothing to change", level: 1, tags: ["serial-queues"],
                             source: "tests", explanation: "No dispatch, no print.", code: "var total = 0\ntotal += 1\n", file: "fixed.yaml")
        fixed.prompt = nil
        let answers = AnswerBook(bank: Fixtures.bank)
        let twins = GeneratedTwins(bank: Fixtures.bank, variantCount: 2, seed: 1, answers: answers)
        let sheet = try SheetPlanner(title: "t", seed: 1, variantCount: 2, traceForm: .write).plan([fixed], answers: answers, provider: twins)
        let shortfall = try #require(twins.shortfalls.first)
        #expect(shortfall.questionID == "nothing-to-change" && shortfall.made == 0 && shortfall.wanted == 2)
        #expect(sheet.variants.map { $0.items[0].question.id } == Array(shortfall.substitutes.prefix(2)))
        #expect(twins.shortfallNote?.hasPrefix("too few generated twins for one puzzle: nothing-to-change has none (variants 1–2 ask other bank puzzles of its difficulty in turn: ") == true)
    }

    /// `export --generated`: one twin per trace puzzle, with its own Anki GUID.
    @Test func anExportAsksATwin() throws {
        let answers = AnswerBook(bank: Fixtures.bank)
        let twins = GeneratedTwins(bank: Fixtures.bank, variantCount: 1, seed: 3, answers: answers)
        let data = try Exporter.export(Fixtures.questions(["group-misses-nested-async"]), as: .anki, answers: answers, seed: 3, provider: twins)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("gcdquiz-group-misses-nested-async-v"))
        #expect(!text.contains("gcdquiz-group-misses-nested-async\t"))
    }
}
