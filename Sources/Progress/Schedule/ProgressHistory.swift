import Foundation

/// What one card's reviews add up to.
public struct CardState: Sendable, Equatable {
    public var key: CardKey
    public var schedule: CardSchedule
    /// Rated reviews (skips and practice tries are not reviews).
    public var reviews = 0
    /// Reviews rated Again.
    public var lapses = 0
    /// The latest grade given (skips included, practice tries not) and when.
    public var lastGrade: Grade?
    public var lastAnsweredAt: Date?
    /// When the card was first rated, to count the new cards of a day.
    public var firstReviewed: Date?

    public var isNew: Bool { reviews == 0 }
}

/// The log replayed: every card's state. Always rebuilt from the reviews, so it cannot disagree
/// with them.
public struct ProgressHistory: Sendable {
    public let reviews: [Review]
    public let cards: [CardKey: CardState]
    public let scheduler: CardScheduler

    /// `reviews` in any order; they are replayed oldest first.
    public init(reviews: [Review], scheduler: CardScheduler = CardScheduler()) {
        let ordered = reviews.sorted { ($0.answeredAt, $0.id) < ($1.answeredAt, $1.id) }
        var cards: [CardKey: CardState] = [:]
        for review in ordered {
            let key = review.card
            var state = cards[key] ?? CardState(key: key, schedule: CardSchedule(due: review.answeredAt))
            if !review.isPractice {
                state.lastGrade = review.grade
                state.lastAnsweredAt = review.answeredAt
            }
            if let rating = review.rating {
                state.schedule = scheduler.review(state.schedule, rating, at: review.answeredAt)
                state.reviews += 1
                if rating == .again { state.lapses += 1 }
                if state.firstReviewed == nil { state.firstReviewed = review.answeredAt }
            }
            cards[key] = state
        }
        self.reviews = ordered
        self.cards = cards
        self.scheduler = scheduler
    }

    public func state(of card: CardKey) -> CardState? { cards[card] }

    /// The card's retrievability at `date`: 0 for a card never rated.
    public func retrievability(of card: CardKey, at date: Date) -> Double {
        cards[card].map { scheduler.retrievability($0.schedule, at: date) } ?? 0
    }
}
