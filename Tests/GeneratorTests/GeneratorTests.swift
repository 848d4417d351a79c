import ConcurrencyModel
import Foundation
@testable import Generator
import Quiz
import Testing

/// Generated puzzles as the issue asks for them: deterministic, valid question files, explorable
/// within budget, in the outcome range, not copies, and different from their source.
@Suite struct GeneratorTests {
    static let generator = Fixtures.generator

    /// 200 puzzles: fresh ones of each level and variants of every bank puzzle in turn, each
    /// from its own seed (no cross-checks between them: a batch's dedup is tested apart).
    static let sample: [GeneratedPuzzle] = {
        // Fewer attempts than a user gets: a bank puzzle with few variants gives up sooner. The
        // race puzzles (hundreds of states) are left to the batch tests: their variants take
        // seconds each to explore in a debug build.
        var generator = Self.generator
        generator.options.attempts = 25
        let sources = generator.variantSources.filter { question in
            (try? question.program().get()).map { Explorer().explore($0).statesExplored < 300 } ?? false
        }
        var puzzles: [GeneratedPuzzle] = []
        var index = 0
        while puzzles.count < 200 && index < 400 {
            let seed = SeededRandom.derive(2026, index)
            let puzzle = index % 2 == 0
                ? generator.fresh(level: 1 + (index / 2) % 3, seed: seed)
                : generator.variant(of: sources[(index / 2) % sources.count], seed: seed)
            if let puzzle { puzzles.append(puzzle) }
            index += 1
        }
        return puzzles
    }()

    @Test func theSameSeedGivesTheSameFilesAndAnotherSeedOthers() throws {
        let request = GenerationRequest(count: 4, seed: 21)
        let first = try Self.generator.generate(request).puzzles.map(\.yaml)
        let again = try PuzzleGenerator(bank: Fixtures.bank).generate(request).puzzles.map(\.yaml)
        let other = try Self.generator.generate(GenerationRequest(count: 4, seed: 22)).puzzles.map(\.yaml)
        #expect(first.count == 4)
        #expect(first == again)
        #expect(first != other)
    }

    @Test func theSeedAPuzzleRecordsMakesItAgain() throws {
        let question = try #require(Fixtures.bank.question(id: "serial-async-async"))
        let puzzle = try #require(Self.generator.variant(of: question, seed: 99))
        let again = try #require(Self.generator.variant(of: question, seed: puzzle.seed))
        #expect(again.question.code == puzzle.question.code)
        #expect(puzzle.question.source.contains("seed \(puzzle.seed)"))
        let fresh = try #require(Self.generator.fresh(level: 2, seed: 7))
        #expect(Self.generator.fresh(level: 2, seed: fresh.seed)?.question.code == fresh.question.code)
    }

    @Test func everyPuzzleOfTheSampleValidatesExploresAndIsInRange() throws {
        #expect(Self.sample.count == 200)
        for puzzle in Self.sample {
            let yaml = puzzle.yaml
            let (parsed, problems) = QuestionParser.parse(yaml, file: "\(puzzle.question.id).yaml")
            #expect(problems.isEmpty, "\(problems)\n\(yaml)")
            let question = try #require(parsed)
            #expect(question.id == puzzle.question.id && question.title == puzzle.question.title, "\(question.id)")
            #expect(question.level == puzzle.question.level && question.tags == puzzle.question.tags, "\(question.id)")
            #expect(question.code == puzzle.question.code && question.source == puzzle.question.source, "\(question.id)")
            #expect(question.isGenerated)
            let program = try question.program().get()
            let exploration = Explorer().explore(program)
            #expect(exploration.isComplete)
            // The generator's budget is per machine explored (statesExplored sums every machine).
            #expect(Explorer(stateBudget: Self.generator.options.stateBudget).explore(program).isComplete, "\(question.id)")
            #expect((2...16).contains(exploration.outcomes.count), "\(question.id): \(exploration.outcomes.count) outcomes")
            #expect((1...3).contains(question.level))
            #expect(!question.tags.isEmpty)
            #expect(!Self.generator.bankFingerprints.contains(
                canonicalSource: puzzle.tree.canonicalSource, shape: OutcomeShape(exploration.outcomes)))
        }
    }

    @Test func theSampleHasEveryLevelAndBothKinds() {
        let levels = Set(Self.sample.map(\.question.level))
        #expect(levels == [1, 2, 3])
        #expect(Self.sample.contains { $0.sourceID == nil })
        #expect(Set(Self.sample.compactMap(\.sourceID)).count >= 30)
    }

    @Test func explanationsNameTheCodesLinesAndLabelsAndNothingElse() throws {
        for puzzle in Self.sample {
            let text = puzzle.question.explanation
            #expect(!text.contains("Optional("), "\(text)")
            #expect(!text.contains("\\("), "\(text)")
            #expect(text.contains("possible outcomes") || text.contains("deadlock"), "\(text)")
            let lines = (puzzle.question.code ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            for match in text.matches(of: /line (\d+)/) {
                let number = Int(match.1)!
                #expect(lines.indices.contains(number - 1), "\(puzzle.question.id): line \(number) is not in the code")
            }
        }
    }

    @Test func aBatchHoldsNoCopies() throws {
        let report = try Self.generator.generate(GenerationRequest(count: 12, seed: 5))
        #expect(report.puzzles.count == 12)
        #expect(Set(report.puzzles.map(\.tree.canonicalSource)).count == 12)
        #expect(Set(report.puzzles.map { OutcomeShape($0.exploration.outcomes) }).count == 12)
        #expect(Set(report.puzzles.map(\.question.id)).count == 12)
        #expect(report.drops.values.reduce(0, +) + report.puzzles.count == report.attempts)
        #expect(report.summary.hasPrefix("kept 12 of \(report.attempts) candidates"))
    }

    @Test func aClassGetsDifferentVariantsOfOnePuzzle() throws {
        let question = try #require(Fixtures.bank.question(id: "serial-sync-in-async"))
        let variants = Self.generator.variants(of: question, count: 5, seed: 3)
        #expect(variants.count == 5)
        #expect(variants.allSatisfy { $0.sourceID == question.id })
        #expect(Set(variants.map(\.tree.canonicalSource)).count == 5)
        #expect(!variants.contains { Self.generator.bankFingerprints.contains(canonicalSource: $0.tree.canonicalSource) })
        #expect(Self.generator.variants(of: question, count: 5, seed: 3).map(\.yaml) == variants.map(\.yaml))
    }

    @Test(arguments: ["semaphores", "barriers", "main-queue", "operations", "data-races"])
    func aTopicGivesAPuzzleWithThatTag(_ topic: String) throws {
        let puzzle = try #require(Self.generator.puzzle(topic: topic, seed: 4), "nothing on \(topic)")
        #expect(puzzle.question.tags.contains(topic))
    }

    @Test func tagsAreTopicsOfTheTaxonomy() {
        for puzzle in Self.sample {
            for tag in puzzle.question.tags { #expect(Topic.named(tag) != nil, "\(puzzle.question.id): \(tag)") }
        }
    }

    @Test func levelTagAndOutcomeFiltersHold() throws {
        let generator = PuzzleGenerator(bank: Fixtures.bank, options: .init(outcomes: 3...6))
        let report = try generator.generate(GenerationRequest(tags: ["main-queue"], level: 2, count: 3, seed: 8))
        #expect(report.puzzles.count == 3)
        for puzzle in report.puzzles {
            #expect(puzzle.question.level == 2)
            #expect(puzzle.question.tags.contains("main-queue"))
            #expect((3...6).contains(puzzle.exploration.outcomes.count))
        }
    }

    @Test(arguments: ["serial-sync-sync", "serial-async-async", "serial-sync-in-async", "serial-async-in-sync",
                      "concurrent-sync-sync", "concurrent-async-async", "concurrent-sync-in-async", "concurrent-async-in-sync"])
    func variantsOfTheSlidePuzzlesDifferFromTheirSource(_ id: String) throws {
        let source = try #require(Fixtures.bank.question(id: id))
        let sourceOutcomes = Explorer().explore(try source.program().get()).outcomes
        for seed in 1...3 as ClosedRange<UInt64> {
            let variant = try #require(Self.generator.variant(of: source, seed: seed), "no variant of \(id)")
            #expect(variant.sourceID == id)
            #expect(variant.question.code != source.code)
            #expect(variant.tree.canonicalSource != Fingerprints.canonicalSource(of: source.code ?? ""))
            #expect(OutcomeShape(variant.exploration.outcomes) != OutcomeShape(sourceOutcomes))
            #expect(variant.question.title.hasPrefix(source.title))
        }
    }

    /// The computed level against the level the bank's instructors wrote. The weights were
    /// calibrated on the GCD and Operation puzzles, and the floors hold for them; the Swift-
    /// concurrency puzzles (levels 1–4, features the weights never saw) are counted apart.
    @Test func levelCalibration() throws {
        var tallies: [Bool: (agree: Int, withinOne: Int, total: Int)] = [:]
        var confusion: [String: Int] = [:]
        for question in Fixtures.bank.questions where question.kind == .trace {
            let program = try Fixtures.bank.program(of: question).get()
            let features = PuzzleFeatures(program: program, exploration: Explorer().explore(program))
            let level = LevelEstimator.calibrated.level(features)
            let swift = program.usesSwiftConcurrency
            var tally = tallies[swift, default: (0, 0, 0)]
            tally.total += 1
            if level == question.level { tally.agree += 1 }
            if abs(level - question.level) <= 1 { tally.withinOne += 1 }
            tallies[swift] = tally
            confusion["\(swift ? "swift concurrency" : "gcd"): written \(question.level) → computed \(level)", default: 0] += 1
        }
        for swift in [false, true] {
            guard let tally = tallies[swift] else { continue }
            print("level calibration, \(swift ? "Swift-concurrency" : "GCD") puzzles: \(tally.agree) of \(tally.total) agree "
                + "(\(Int((Double(tally.agree) / Double(tally.total) * 100).rounded()))%), \(tally.withinOne) within one level")
        }
        for (cell, count) in confusion.sorted(by: { $0.key < $1.key }) { print("  \(cell): \(count)") }
        // Measured 42 of 60 (70%) when calibrated, 58 of 60 within one level; 48 of 74 (65%)
        // with the lock and target-queue puzzles, whose constructs the weights never saw. The
        // floors leave room for new bank puzzles.
        let gcd = try #require(tallies[false])
        #expect(Double(gcd.agree) / Double(gcd.total) >= 0.62)
        #expect(Double(gcd.withinOne) / Double(gcd.total) >= 0.9)
    }
}
