import ConcurrencyModel
import Quiz
import Testing
@testable import Sheets

@Suite struct NearMissTests {
    /// Every near miss a sheet offers, in any variant, is rejected by the grader: the model
    /// proves it impossible, and the key carries the explainer's reason.
    @Test(arguments: Fixtures.tracePuzzles)
    func everyDistractorIsRejectedByTheGrader(_ id: String) throws {
        let sheet = try Fixtures.sheet([id], variants: 4, seed: 7, form: .select)
        let question = try #require(Fixtures.bank.question(id: id))
        let grader = TraceGrader(exploration: Explorer().explore(try Fixtures.bank.program(of: question).get()))
        for variant in sheet.variants {
            let item = variant.items[0]
            #expect(!item.distractors.isEmpty, "\(id) has no near miss")
            for option in item.traceOptions {
                let grade = grader.grade([option.outcome])
                if let distractor = option.distractor {
                    guard case .wrong(let why) = grade.verdict else {
                        Issue.record("\(id): distractor \(AnswerNotation.render(option.outcome)) is not rejected")
                        continue
                    }
                    #expect(why == distractor.why)
                } else {
                    #expect(grade.verdict.name != "wrong", "\(id): a real outcome is rejected")
                }
            }
        }
    }

    /// Its near misses once crashed the explainer (a thread inside concurrentPerform): its sheet
    /// and key are made, the key lists the model's outcomes and gives the rule that rules the
    /// near misses out.
    @Test func aConcurrentPerformPuzzlesKeyExplainsItsNearMisses() throws {
        let id = "concurrent-perform-three-prints"
        let sheet = try Fixtures.sheet([id], variants: 3, seed: 7, form: .select)
        let question = try #require(Fixtures.bank.question(id: id))
        let solved = Explorer().explore(try Fixtures.bank.program(of: question).get())
        let files = SheetRenderer(format: .md, paper: .a4).render(sheet)
        for variant in sheet.variants {
            guard case .trace(let trace) = variant.items[0].answer else {
                Issue.record("\(id) is not a trace puzzle")
                continue
            }
            #expect(trace.outcomes == solved.outcomes)
            #expect(variant.items[0].traceOptions.contains { !$0.canHappen })
            let key = Fixtures.text(try #require(files.first { $0.name == "key-\(variant.id).md" }))
            #expect(key.contains("cannot happen: "), "the key names the impossible letters")
        }
        let notes = Fixtures.text(try #require(files.first { $0.name == "notes.md" }))
        #expect(notes.contains("cannot happen"))
        #expect(notes.contains("concurrentPerform returns only after every iteration has run"))
    }

    @Test func aLineAfterASyncIsMovedBeforeItsBlock() throws {
        let program = try SnippetCompiler.compile("print(1)\nserialQueue.sync {\n    print(2)\n}\nprint(3)\n").get()
        let exploration = Explorer().explore(program)
        #expect(exploration.outcomes.map(AnswerNotation.render) == ["1 2 3"])
        let moved = NearMissFinder.candidates(for: exploration).filter { $0.kind == .movedAcrossSync }.map { AnswerNotation.render($0.outcome) }
        #expect(Set(moved) == ["1 3 2", "2 1 3"])
    }

    @Test func deadlocksAreAddedAndRemoved() throws {
        let program = try SnippetCompiler.compile("serialQueue.sync {\n    serialQueue.sync {\n        print(1)\n    }\n}\n").get()
        let exploration = Explorer().explore(program)
        let candidates = NearMissFinder.candidates(for: exploration)
        #expect(candidates.contains { $0.kind == .missingDeadlock && $0.outcome == Outcome(lines: [], end: .finished) })
        let finished = Explorer().explore(try SnippetCompiler.compile("print(1)\n").get())
        #expect(NearMissFinder.candidates(for: finished).contains { $0.kind == .addedDeadlock && $0.outcome == Outcome(lines: ["1"], end: .deadlock) })
    }

    @Test func theSameSeedPicksTheSameNearMisses() throws {
        let first = try Fixtures.sheet(["concurrent-async-async"], variants: 5, seed: 3, form: .select)
        let second = try Fixtures.sheet(["concurrent-async-async"], variants: 5, seed: 3, form: .select)
        #expect(first.variants.map { $0.items[0].traceOptions.map(\.outcome) } == second.variants.map { $0.items[0].traceOptions.map(\.outcome) })
        let kinds = Set(first.variants.flatMap { $0.items[0].distractors.map(\.kind) })
        #expect(kinds.count >= 2, "near misses of one kind only: \(kinds)")
    }
}
