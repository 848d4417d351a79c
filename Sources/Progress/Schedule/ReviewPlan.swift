import Foundation
import Quiz

/// The plan over the bank's questions, as the drill, `review` and `interview` use it.
public typealias ReviewPlan = ReviewSchedule<Question>

/// What to ask now: the questions due, most overdue first, then new ones up to the day's limit;
/// and the questions missed the last time they were answered. Over whole questions (a session
/// asks them) or over the bank index's entries (the report only counts them).
public struct ReviewSchedule<Item: ScheduledQuestion>: Sendable {
    /// Due now: first the ones still being learned (missed lately: their short steps are over),
    /// earliest first; then the rest, lowest retrievability first (the ones most likely forgotten).
    public var due: [Item]
    /// Never answered (those skipped first, then the easiest first, in bank order within a level), up to what is left of the day's new questions.
    public var new: [Item]
    /// Whose latest answer was not right (wrong, partial, incomplete, out of time), most recent first.
    public var missed: [Item]
    /// Generated puzzles (not in the bank) due now, with the code kept in the log.
    public var dueGenerated: [GeneratedCard]
    /// New questions the day's limit still allows (the limit less the cards first seen today).
    public var newLeftToday: Int

    /// `due` then `new`: a review session's questions.
    public var session: [Item] { due + new }

    public struct GeneratedCard: Sendable, Equatable {
        public var card: CardKey
        public var code: String
        public var topics: [String]
    }

    /// The plan for `questions` (the bank, perhaps filtered) at `now`. A question's card is its id
    /// and its current content: reviews of an earlier wording do not make an edited question due.
    public init(questions: [Item], history: ProgressHistory, now: Date = Date(), newPerDay: Int = 10,
                calendar: Calendar = .current) {
        var dueCards: [(question: Item, learning: Bool, retrievability: Double, due: Date)] = []
        var unseen: [(question: Item, key: CardKey)] = []
        var missed: [(question: Item, at: Date)] = []
        for question in questions {
            // A question's card costs a hash of its content: once each.
            let key = question.card
            guard let state = history.state(of: key), !state.isNew else {
                unseen.append((question, key))
                if let state = history.state(of: key), let grade = state.lastGrade, let at = state.lastAnsweredAt,
                    grade != .skipped, !grade.isRight
                {
                    missed.append((question, at))
                }
                continue
            }
            if state.schedule.due <= now {
                dueCards.append((question, state.schedule.phase != .review, history.scheduler.retrievability(state.schedule, at: now),
                                 state.schedule.due))
            }
            if let grade = state.lastGrade, let at = state.lastAnsweredAt, grade != .skipped, !grade.isRight {
                missed.append((question, at))
            }
        }
        due = dueCards.sorted { first, second in
            if first.learning != second.learning { return first.learning }
            if first.learning { return (first.due, first.question.id) < (second.due, second.question.id) }
            return (first.retrievability, first.due, first.question.id) < (second.retrievability, second.due, second.question.id)
        }.map(\.question)
        let startOfDay = calendar.startOfDay(for: now)
        let firstSeenToday = history.cards.values.filter { ($0.firstReviewed ?? .distantPast) >= startOfDay }.count
        newLeftToday = max(newPerDay - firstSeenToday, 0)
        // A question skipped before it was ever answered comes back first among the new ones.
        let skipped = unseen.filter { history.state(of: $0.key)?.lastGrade == .skipped }.map(\.question)
        let skippedIDs = Set(skipped.map(\.id))
        // Then the easiest first, in bank order within a level.
        let rest = unseen.map(\.question).filter { !skippedIDs.contains($0.id) }.enumerated()
            .sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
        new = Array((skipped + rest).prefix(newLeftToday))
        self.missed = missed.sorted { ($0.at, $0.question.id) > ($1.at, $1.question.id) }.map(\.question)

        let bankIDs = Set(questions.map(\.id))
        var generated: [(GeneratedCard, Double)] = []
        for (key, state) in history.cards where !bankIDs.contains(key.questionID) {
            guard let code = state.code, !state.isNew, state.schedule.due <= now else { continue }
            generated.append((GeneratedCard(card: key, code: code, topics: state.topics), history.scheduler.retrievability(state.schedule, at: now)))
        }
        dueGenerated = generated.sorted { ($0.1, $0.0.card.questionID) < ($1.1, $1.0.card.questionID) }.map(\.0)
    }
}
