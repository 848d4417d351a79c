import Foundation
import Quiz

/// The self-assessment report as data: per topic, how much has been seen, how accurate recent
/// answers were, how much would be recalled now and what is due; plus activity over time. The
/// renderers (terminal, JSON, HTML) only lay it out.
public struct ProgressReport: Sendable, Codable, Equatable {
    public struct TopicLine: Sendable, Codable, Equatable {
        public var topic: String
        public var covers: String
        /// Questions of the topic answered at least once (in their current wording).
        public var seen: Int
        public var total: Int
        /// Answers in the last 30 days: how many, and their score (right 1, partial ½) over that.
        public var answered30Days: Int
        public var accuracy30Days: Double?
        /// Mean retrievability now of the questions seen: how likely each is recalled today.
        public var retrievability: Double?
        /// The share of the whole topic likely recalled today (unseen questions count 0): the
        /// order of the report, weakest first.
        public var strength: Double
        public var due: Int
        /// The command that practises this topic.
        public var command: String
    }

    public struct Day: Sendable, Codable, Equatable {
        /// `yyyy-MM-dd`, in the learner's time zone.
        public var date: String
        public var answered: Int
        public var right: Int

        /// How busy the day was, 0 to 4: no answer, 1–2, 3–5, 6–9, 10 or more (the calendar's shades).
        public var intensity: Int {
            switch answered {
            case 0: 0
            case 1...2: 1
            case 3...5: 2
            case 6...9: 3
            default: 4
            }
        }
    }

    public struct Week: Sendable, Codable, Equatable {
        /// The week's first day, `yyyy-MM-dd`.
        public var start: String
        public var answered: Int
        public var accuracy: Double?
    }

    /// ISO 8601, UTC.
    public var generatedAt: String
    /// Rated answers in the whole log (skips and practice tries left out).
    public var answered: Int
    public var questionsSeen: Int
    public var questionsTotal: Int
    public var dueNow: Int
    public var missed: Int
    public var newLeftToday: Int
    public var accuracy30Days: Double?
    /// Days in a row, up to today, with at least one answer.
    public var streakDays: Int
    /// Weakest first.
    public var topics: [TopicLine]
    /// The last `activityDays` days, oldest first.
    public var activity: [Day]
    /// The last `weeks` weeks, oldest first.
    public var weeks: [Week]

    public static let activityDays = 56
    public static let weeksShown = 12
    /// How far back the report reads whole reviews: its weeks, with a day to spare.
    public static let reviewWindowDays = 7 * weeksShown + 1

    /// The report over the bank's questions, whole or as the bank index has them.
    public init<Item: ScheduledQuestion>(questions: [Item], history: ProgressHistory, now: Date = Date(), newPerDay: Int = 10,
                                         calendar: Calendar = .current) {
        generatedAt = Timestamp.iso8601(now)
        let plan = ReviewSchedule(questions: questions, history: history, now: now, newPerDay: newPerDay, calendar: calendar)
        let rated = history.reviews.filter { $0.rating != nil }
        let recent = rated.filter { now.timeIntervalSince($0.answeredAt) <= 30 * 86_400 }
        answered = history.ratedDates.count
        dueNow = plan.due.count
        missed = plan.missed.count
        newLeftToday = plan.newLeftToday
        accuracy30Days = Self.accuracy(recent)
        questionsTotal = questions.count

        let keys = Dictionary(questions.map { ($0.id, $0.card) }, uniquingKeysWith: { first, _ in first })
        let dueIDs = Set(plan.due.map(\.id))
        let seenIDs = Set(questions.filter { history.state(of: keys[$0.id]!).map { !$0.isNew } ?? false }.map(\.id))
        questionsSeen = seenIDs.count

        var lines: [TopicLine] = []
        for topic in Topic.all {
            let members = questions.filter { $0.tags.contains(topic.name) }
            let seen = members.filter { seenIDs.contains($0.id) }
            let recalls = seen.map { history.retrievability(of: keys[$0.id]!, at: now) }
            let topicRecent = recent.filter { $0.topics.contains(topic.name) }
            lines.append(TopicLine(
                topic: topic.name, covers: topic.covers, seen: seen.count, total: members.count,
                answered30Days: topicRecent.count, accuracy30Days: Self.accuracy(topicRecent),
                retrievability: recalls.isEmpty ? nil : recalls.reduce(0, +) / Double(recalls.count),
                strength: members.isEmpty ? 0 : recalls.reduce(0, +) / Double(members.count),
                due: members.filter { dueIDs.contains($0.id) }.count,
                command: "gcdquiz drill --tag \(topic.name)"))
        }
        topics = lines.filter { $0.total > 0 }.sorted { ($0.strength, $0.topic) < ($1.strength, $1.topic) }

        let today = calendar.startOfDay(for: now)
        var byDay: [Date: (Int, Int)] = [:]
        for (review, day) in zip(rated, Self.days(of: rated.map(\.answeredAt), calendar: calendar)) {
            let (count, right) = byDay[day, default: (0, 0)]
            byDay[day] = (count + 1, right + (review.grade.isRight ? 1 : 0))
        }
        activity = (0..<Self.activityDays).reversed().map { back in
            let day = calendar.date(byAdding: .day, value: -back, to: today)!
            let (count, right) = byDay[day, default: (0, 0)]
            return Day(date: Self.dayString(day, calendar: calendar), answered: count, right: right)
        }
        // The streak from the whole log's dates: it may reach back before the reviews at hand.
        let answeredDays = Set(Self.days(of: history.ratedDates, calendar: calendar))
        var streak = 0
        var day = today
        // Today without answers yet does not break a streak that ended yesterday.
        if !answeredDays.contains(day) { day = calendar.date(byAdding: .day, value: -1, to: day)! }
        while answeredDays.contains(day) {
            streak += 1
            day = calendar.date(byAdding: .day, value: -1, to: day)!
        }
        streakDays = streak

        var weekly: [Week] = []
        for back in (0..<Self.weeksShown).reversed() {
            let start = calendar.date(byAdding: .day, value: -7 * back - 6, to: today)!
            let end = calendar.date(byAdding: .day, value: 1, to: calendar.date(byAdding: .day, value: -7 * back, to: today)!)!
            let inWeek = rated.filter { $0.answeredAt >= start && $0.answeredAt < end }
            weekly.append(Week(start: Self.dayString(start, calendar: calendar), answered: inWeek.count, accuracy: Self.accuracy(inWeek)))
        }
        weeks = weekly
    }

    /// Each date's day (its first instant), asking the calendar once per run of dates on one day
    /// rather than once per date: a calendar computation takes microseconds, and a keen learner's
    /// log has thousands of answers on a few hundred days (this was a quarter of the report).
    static func days(of dates: [Date], calendar: Calendar) -> [Date] {
        var current: DateInterval?
        return dates.map { date in
            if let current, current.start <= date, date < current.end { return current.start }
            guard let interval = calendar.dateInterval(of: .day, for: date) else { return calendar.startOfDay(for: date) }
            current = interval
            return interval.start
        }
    }

    static func accuracy(_ reviews: [Review]) -> Double? {
        let points = reviews.compactMap(\.grade.points)
        return points.isEmpty ? nil : points.reduce(0, +) / Double(points.count)
    }

    /// 0.634 → "63%", as every renderer shows a share.
    public static func percent(_ value: Double) -> String {
        "\(Int((value * 100).rounded()))%"
    }

    static func dayString(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
