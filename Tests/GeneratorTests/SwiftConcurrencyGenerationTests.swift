import ConcurrencyModel
import Foundation
@testable import Generator
import Quiz
import Testing

/// `generate --tag actors` (and tasks, main-actor) as the issue asks: distinct, valid puzzles
/// of Swift concurrency with at least two outcomes, each saying that no real run checked it.
@Suite struct SwiftConcurrencyGenerationTests {
    static let generator = Fixtures.generator

    @Test(arguments: ["actors", "tasks", "main-actor"])
    func aSwiftConcurrencyTagGivesDistinctValidPuzzlesOfThatTopic(_ topic: String) throws {
        let report = try Self.generator.generate(GenerationRequest(tags: [topic], count: 20, seed: 1))
        #expect(report.puzzles.count == 20, "\(report.summary)")
        #expect(Set(report.puzzles.map(\.tree.canonicalSource)).count == 20)
        #expect(Set(report.puzzles.map(\.question.id)).count == 20)
        for puzzle in report.puzzles {
            let (parsed, problems) = QuestionParser.parse(puzzle.yaml, file: "\(puzzle.question.id).yaml")
            #expect(problems.isEmpty, "\(problems)\n\(puzzle.yaml)")
            let question = try #require(parsed)
            #expect(question.tags.contains(topic), "\(question.id): \(question.tags)")
            let program = try question.program().get()
            #expect(program.usesSwiftConcurrency, "\(question.id)")
            let exploration = Explorer().explore(program)
            #expect(exploration.isComplete)
            #expect(exploration.outcomes.count >= 2, "\(question.id): \(exploration.outcomes.count) outcomes")
            #expect((1...4).contains(question.level))
            #expect(question.title.count <= PuzzleGenerator.titleLength, "\(question.title)")
            #expect(question.explanation.contains(PuzzleGenerator.realityNote.prefix(40)), "\(question.id)")
            for tag in question.tags { #expect(Topic.named(tag) != nil, "\(question.id): \(tag)") }
        }
        // Both ways of making one: the grammar, and variants of the bank's puzzles on the topic.
        #expect(report.puzzles.contains { $0.sourceID == nil })
        #expect(report.puzzles.contains { $0.sourceID != nil })
    }

    @Test func anActorPuzzleOfTheGrammarDeclaresAnActorCalledFromTwoTasks() throws {
        var random = SeededRandom(seed: 3)
        for _ in 0..<50 {
            let tree = TaskGrammar(level: 2, focus: .actors).tree(random: &random)
            let source = tree.source
            #expect(source.hasPrefix("actor "), "\(source)")
            let calls = tree.statements.filter { statement in
                guard case .compound(let clauses, _) = statement, clauses[0].header.hasPrefix("Task") else { return false }
                return clauses[0].body.contains { if case .line(let text) = $0 { text.hasPrefix("await ") && !text.hasPrefix("await Task.") } else { false } }
            }
            #expect(calls.count >= 2, "\(source)")
            #expect(TaskGrammar.title(tree).count <= PuzzleGenerator.titleLength)
        }
    }

    /// The compiled check would build in a folder nobody can write: it must not try.
    @Test func theCompiledCheckLeavesSwiftConcurrencyPuzzlesUnchecked() throws {
        let report = try Self.generator.generate(GenerationRequest(tags: ["actors"], count: 2, seed: 9))
        let puzzle = try #require(report.puzzles.first)
        let nowhere = URL(fileURLWithPath: "/proc/gcdquiz-cannot-write-here")
        #expect(try CompilerCheck(runs: 1, directory: nowhere).disagreement(puzzle, index: 0) == nil)
    }
}
