import Foundation

/// The questions of a mock interview: `count` of them across as many topics as the bank allows,
/// rising in level as a real interview does (easy first, hardest last), preferring questions not
/// seen lately (one answered in the drill minutes ago tests memory, not understanding).
/// Follow-ups are not chosen: they come after their parent is answered, as an interviewer's next
/// question. Nor are schedule questions: a game of moves at a terminal is no interview answer.
public enum InterviewPlan {
    /// - Parameter lastSeen: when each question was last answered (or passed), by id.
    public static func questions(from bank: Bank, count: Int, seed: UInt64, lastSeen: [String: Date] = [:], now: Date = Date()) -> [Question] {
        var generator = SeededGenerator(seed: seed)
        var pool = bank.questions.filter { $0.kind != .schedule && !FollowUps.isFollowUp($0, in: bank) }.shuffled(using: &generator)
        guard count > 0, !pool.isEmpty else { return [] }
        var chosen: [Question] = []
        var topicUses: [String: Int] = [:]
        let staleness = { (question: Question) in recency(lastSeen[question.id], now: now) }
        for slot in 0..<min(count, pool.count) {
            // Slots rise from level 1 to the top level in equal parts (the nearest level when the
            // bank has none of a level).
            let level = Question.levels.lowerBound + (slot * Question.levels.count) / max(count, 1)
            // The question of the nearest level seen least lately whose topics were asked least so far.
            let best = pool.indices.min { first, second in
                rank(pool[first], level: level, recency: staleness(pool[first]), uses: topicUses)
                    < rank(pool[second], level: level, recency: staleness(pool[second]), uses: topicUses)
            }!
            let question = pool.remove(at: best)
            for tag in question.tags { topicUses[tag, default: 0] += 1 }
            chosen.append(question)
        }
        // A stable sort: the level rises, and within a level the choice order stays.
        return chosen.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
    }

    /// 0 for a question not answered in the last week, 1 within the week, 2 within the day.
    static func recency(_ seen: Date?, now: Date) -> Int {
        guard let seen else { return 0 }
        let age = now.timeIntervalSince(seen)
        return age < 86_400 ? 2 : age < 7 * 86_400 ? 1 : 0
    }

    /// Smaller is better: the level's distance first, then how lately the question was seen,
    /// then how often its topics were asked.
    private static func rank(_ question: Question, level: Int, recency: Int, uses: [String: Int]) -> (Int, Int, Int) {
        (abs(question.level - level), recency, question.tags.map { uses[$0] ?? 0 }.min() ?? 0)
    }
}
