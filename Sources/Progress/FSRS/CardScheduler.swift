import Foundation

/// One card's schedule: its memory, where it is in learning, when it was last reviewed and when
/// it is due. A value derived from the card's reviews, never stored as the truth.
public struct CardSchedule: Sendable, Equatable {
    public enum Phase: String, Sendable, Codable {
        /// New or recently missed for the first time: short steps (minutes) before days.
        case learning
        /// Known: intervals of days, from stability and the desired retention.
        case review
        /// Known once, then missed: short steps again before days.
        case relearning
    }

    public var memory: MemoryState?
    public var phase: Phase = .learning
    /// The learning or relearning step the card is at; nil in review.
    public var step: Int? = 0
    public var lastReview: Date?
    public var due: Date

    public init(due: Date) {
        self.due = due
    }
}

/// Turns ratings into due dates, as py-fsrs 6.3.1's `Scheduler.review_card` does (learning and
/// relearning steps of minutes, then whole-day intervals for the desired retention; no fuzz, so
/// that a schedule rebuilt from the log is always the same).
public struct CardScheduler: Sendable {
    public var fsrs: FSRS
    /// The retrievability a card is allowed to fall to before it is due again.
    public var desiredRetention: Double
    public var learningSteps: [TimeInterval]
    public var relearningSteps: [TimeInterval]
    public var maximumIntervalDays: Int

    /// gcdquiz's schedule: a question missed comes back after ten minutes (at the start of the next
    /// session, or later in this one); one answered right goes to whole days at once. A right
    /// answer after help (Hard) at the first step waits 15 minutes.
    public static let defaultLearningSteps: [TimeInterval] = [10 * 60]
    public static let defaultRelearningSteps: [TimeInterval] = [10 * 60]

    public init(fsrs: FSRS = FSRS(), desiredRetention: Double = 0.9,
                learningSteps: [TimeInterval] = CardScheduler.defaultLearningSteps,
                relearningSteps: [TimeInterval] = CardScheduler.defaultRelearningSteps,
                maximumIntervalDays: Int = 36500) {
        self.fsrs = fsrs
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumIntervalDays = maximumIntervalDays
    }

    /// The card's retrievability at `date` (0 for a card never reviewed), from the time since its
    /// last review in fractional days.
    public func retrievability(_ card: CardSchedule, at date: Date) -> Double {
        guard let memory = card.memory, let last = card.lastReview else { return 0 }
        return fsrs.retrievability(elapsedDays: date.timeIntervalSince(last) / 86_400, stability: memory.stability)
    }

    /// The card after a review rated `rating` at `date`.
    public func review(_ card: CardSchedule, _ rating: Rating, at date: Date) -> CardSchedule {
        var card = card
        // Whole days since the last review, as the references count them.
        let elapsed = card.lastReview.map { Int((date.timeIntervalSince($0) / 86_400).rounded(.down)) }
        card.memory = fsrs.next(card.memory, elapsedDays: elapsed ?? 0, rating: rating)
        let interval: TimeInterval
        switch card.phase {
        case .learning, .relearning:
            let steps = card.phase == .learning ? learningSteps : relearningSteps
            let step = card.step ?? 0
            if steps.isEmpty || (step >= steps.count && rating != .again) {
                interval = graduate(&card)
            } else {
                switch rating {
                case .again:
                    card.step = 0
                    interval = steps[0]
                case .hard:
                    if step == 0 && steps.count == 1 {
                        interval = steps[0] * 1.5
                    } else if step == 0 {
                        interval = (steps[0] + steps[1]) / 2
                    } else {
                        interval = steps[step]
                    }
                case .good:
                    if step + 1 == steps.count {
                        interval = graduate(&card)
                    } else {
                        card.step = step + 1
                        interval = steps[step + 1]
                    }
                case .easy:
                    interval = graduate(&card)
                }
            }
        case .review:
            if rating == .again && !relearningSteps.isEmpty {
                card.phase = .relearning
                card.step = 0
                interval = relearningSteps[0]
            } else {
                interval = dayInterval(card.memory!.stability)
            }
        }
        card.lastReview = date
        card.due = date.addingTimeInterval(interval)
        return card
    }

    private func graduate(_ card: inout CardSchedule) -> TimeInterval {
        card.phase = .review
        card.step = nil
        return dayInterval(card.memory!.stability)
    }

    /// Whole days, at least 1 and at most the maximum, rounded half to even as py-fsrs does.
    func dayInterval(_ stability: Double) -> TimeInterval {
        let days = fsrs.interval(stability: stability, desiredRetention: desiredRetention).rounded(.toNearestOrEven)
        return TimeInterval(min(max(Int(days), 1), maximumIntervalDays)) * 86_400
    }
}
