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
    /// A generated puzzle's code and topics (nil for a bank question): it comes back from them.
    public var code: String?
    public var topics: [String] = []

    public var isNew: Bool { reviews == 0 }
}

/// Every card's state, and the reviews a report needs. Replayed from the log, or read from the
/// card-state table the store keeps up to date as each review is recorded (rebuilt from the log
/// whenever it might disagree with it), so that a session does not replay thousands of reviews
/// before its first prompt.
public struct ProgressHistory: Sendable {
    /// The reviews at hand, oldest first: every review when replayed; when the states came from
    /// the table, those since the date asked for (none unless asked).
    public let reviews: [Review]
    public let cards: [CardKey: CardState]
    public let scheduler: CardScheduler
    /// When each rated review of the whole log was given, oldest first (the report's totals and
    /// streak); empty when the states came from the table for a session, which needs none.
    public let ratedDates: [Date]
    /// Reviews in the whole log (rated or not).
    public let reviewCount: Int

    /// `reviews` in any order; they are replayed oldest first.
    public init(reviews: [Review], scheduler: CardScheduler = CardScheduler()) {
        let ordered = reviews.sorted { ($0.answeredAt, $0.id) < ($1.answeredAt, $1.id) }
        var cards: [CardKey: CardState] = [:]
        for review in ordered {
            cards[review.card] = Self.apply(review, to: cards[review.card], scheduler: scheduler)
        }
        self.init(cards: cards, reviews: ordered, ratedDates: ordered.filter { $0.rating != nil }.map(\.answeredAt),
                  reviewCount: ordered.count, scheduler: scheduler)
    }

    /// States already derived (the store's card-state table).
    public init(cards: [CardKey: CardState], reviews: [Review], ratedDates: [Date], reviewCount: Int, scheduler: CardScheduler) {
        self.reviews = reviews
        self.cards = cards
        self.scheduler = scheduler
        self.ratedDates = ratedDates
        self.reviewCount = reviewCount
    }

    /// The card's state after `review`, from its state before (nil: never answered).
    public static func apply(_ review: Review, to before: CardState?, scheduler: CardScheduler) -> CardState {
        var state = before ?? CardState(key: review.card, schedule: CardSchedule(due: review.answeredAt))
        if !review.isPractice {
            state.lastGrade = review.grade
            state.lastAnsweredAt = review.answeredAt
        }
        if let code = review.code {
            state.code = code
            state.topics = review.topics
        }
        if let rating = review.rating {
            state.schedule = scheduler.review(state.schedule, rating, at: review.answeredAt)
            state.reviews += 1
            if rating == .again { state.lapses += 1 }
            if state.firstReviewed == nil { state.firstReviewed = review.answeredAt }
        }
        return state
    }

    public func state(of card: CardKey) -> CardState? { cards[card] }

    /// The card's retrievability at `date`: 0 for a card never rated.
    public func retrievability(of card: CardKey, at date: Date) -> Double {
        cards[card].map { scheduler.retrievability($0.schedule, at: date) } ?? 0
    }
}
