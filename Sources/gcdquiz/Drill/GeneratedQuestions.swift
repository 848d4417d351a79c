import Foundation
import Generator
import Progress
import Quiz

/// Fresh trace puzzles for the drill and `review`: variants and new puzzles on the topics the
/// learner is weakest in, and generated puzzles answered before, back for review from the code
/// their answers kept.
enum GeneratedQuestions {
    /// `count` puzzles, one topic after another among the (at most three) weakest topics that
    /// have trace puzzles, weakest first; none a copy of the bank or of another.
    static func forWeakestTopics(bank: Bank, history: ProgressHistory, count: Int, seed: UInt64) -> [Question] {
        let generator = PuzzleGenerator(bank: bank)
        let traceTopics = Set(generator.variantSources.flatMap(\.tags))
        let report = ProgressReport(questions: bank.questions, history: history)
        let topics = Array(report.topics.map(\.topic).filter(traceTopics.contains).prefix(3))
        guard !topics.isEmpty else { return [] }
        var avoiding = Fingerprints()
        var puzzles: [Question] = []
        var attempt: UInt64 = 0
        // Each topic in turn; a topic with nothing left to give is passed over.
        while puzzles.count < count && attempt < UInt64(count * 2) {
            let topic = topics[Int(attempt) % topics.count]
            attempt += 1
            guard let puzzle = generator.puzzle(topic: topic, seed: seed &+ attempt &* 7919, avoiding: avoiding) else { continue }
            avoiding.insert(puzzle)
            puzzles.append(puzzle.question)
        }
        return puzzles
    }

    /// Variants of the bank's trace puzzles the learner has mastered (answered right, not
    /// expected to be forgotten for three weeks), so that a review asks something fresh rather
    /// than an answer remembered: up to `count`, of the weakest topics first.
    static func variantsOfMastered(bank: Bank, history: ProgressHistory, count: Int, seed: UInt64) -> [Question] {
        guard count > 0 else { return [] }
        let mastered = bank.questions.filter { question in
            guard question.kind == .trace, let state = history.state(of: CardKey(question)), let memory = state.schedule.memory else { return false }
            return state.lastGrade?.isRight == true && memory.stability >= 21
        }
        guard !mastered.isEmpty else { return [] }
        let strength = Dictionary(ProgressReport(questions: bank.questions, history: history).topics.map { ($0.topic, $0.strength) }) { first, _ in first }
        let weakestFirst = mastered.sorted { first, second in
            let a = first.tags.compactMap { strength[$0] }.min() ?? 1, b = second.tags.compactMap { strength[$0] }.min() ?? 1
            return (a, first.id) < (b, second.id)
        }
        let generator = PuzzleGenerator(bank: bank)
        var variants: [Question] = []
        for (index, question) in weakestFirst.enumerated() where variants.count < count {
            if let puzzle = generator.variant(of: question, seed: seed &+ UInt64(index) &* 104_729) { variants.append(puzzle.question) }
        }
        return variants
    }

    /// A generated puzzle answered before, asked again from the code its answers kept.
    static func question(_ card: ReviewPlan.GeneratedCard) -> Question {
        var question = Question(
            id: card.card.questionID, kind: .trace, title: "A generated puzzle you answered before", level: 2, tags: card.topics,
            source: "generated; its code kept in the progress database",
            explanation: "A generated puzzle: every outcome above is the model's, found by exploring every schedule.",
            code: card.code, file: card.card.questionID + ".yaml")
        question.isGenerated = true
        return question
    }
}
