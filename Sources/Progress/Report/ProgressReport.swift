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
        /// Mean retrievability now of the questions seen: how likely each is recalled today. A
        /// question whose latest answer was wrong counts 0 until it is answered right: FSRS
        /// measures recall from the moment of answering, which read as "you know this" for a
        /// topic just missed.
        public var retrievability: Double?
        /// The share of the whole topic likely recalled today (unseen questions count 0).
        public var strength: Double
        public var due: Int
        /// The command that practises this topic.
        public var command: String

        /// Whether any question of the topic was answered: a topic not studied yet is not weak,
        /// it is new, and the report keeps the two apart.
        public var studied: Bool { seen > 0 }
    }

    /// What to do next, one line: what is due, else the weakest topic studied, else one not
    /// studied yet.
    public struct NextStep: Sendable, Codable, Equatable {
        public var command: String
        public var why: String
    }

    /// A question whose latest answer was wrong, partly right or out of time.
    public struct MissedQuestion: Sendable, Codable, Equatable {
        public var id: String
        /// `yyyy-MM-dd`.
        public var date: String
        public var grade: Grade
    }

    /// One mock interview: its questions counted as the interview's report counts them.
    public struct Interview: Sendable, Codable, Equatable {
        /// `yyyy-MM-dd`, of its first answer.
        public var date: String
        public var questions: Int
        public var right: Int
        public var partial: Int
        public var wrong: Int
        public var noAnswer: Int
        /// Right 1, partly right ½, over the questions.
        public var score: Double
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
    /// Of the questions due now, those missed last time (counted in both `dueNow` and `missed`).
    public var missedDue: Int
    public var newLeftToday: Int
    public var accuracy30Days: Double?
    /// Days in a row, up to today, with at least one answer.
    public var streakDays: Int
    /// The topics studied, weakest first (least likely recalled now, or least often right lately), then those not studied yet.
    public var topics: [TopicLine]
    /// Every day of the last `weeksShown` calendar weeks (Monday first) up to today, oldest first.
    public var activity: [Day]
    /// The same weeks, oldest first: accuracy and activity span the same days.
    public var weeks: [Week]
    public var next: NextStep
    /// Latest first.
    public var missedQuestions: [MissedQuestion]
    /// The mock interviews of the report's weeks, latest first.
    public var interviews: [Interview]

    public static let weeksShown = 8
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
        let dueSet = Set(plan.due.map(\.id))
        missedDue = plan.missed.filter { dueSet.contains($0.id) }.count
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
            let recalls = seen.map { question -> Double in
                let key = keys[question.id]!
                if let grade = history.state(of: key)?.lastGrade, grade != .skipped, !grade.isRight { return 0 }
                return history.retrievability(of: key, at: now)
            }
            let topicRecent = recent.filter { $0.topics.contains(topic.name) }
            lines.append(TopicLine(
                topic: topic.name, covers: topic.covers, seen: seen.count, total: members.count,
                answered30Days: topicRecent.count, accuracy30Days: Self.accuracy(topicRecent),
                retrievability: recalls.isEmpty ? nil : recalls.reduce(0, +) / Double(recalls.count),
                strength: members.isEmpty ? 0 : recalls.reduce(0, +) / Double(members.count),
                due: members.filter { dueIDs.contains($0.id) }.count,
                command: "gcdquiz drill --tag \(topic.name)"))
        }
        let present = lines.filter { $0.total > 0 }
        // Weakest: what is least likely recalled now, or was least often right lately.
        func weakness(_ line: TopicLine) -> Double {
            let recall = line.retrievability ?? 0
            return min(recall, line.accuracy30Days ?? recall)
        }
        topics = present.filter(\.studied).sorted {
            (weakness($0), $0.retrievability ?? 0, $0.topic) < (weakness($1), $1.retrievability ?? 0, $1.topic)
        } + present.filter { !$0.studied }

        if dueNow > 0 {
            next = NextStep(command: "gcdquiz review", why: "\(dueNow) question\(dueNow == 1 ? " is" : "s are") due now")
        } else if let weakest = topics.first(where: \.studied) {
            next = NextStep(command: weakest.command, why: "\(weakest.topic) is your weakest topic studied")
        } else if let first = topics.first {
            next = NextStep(command: first.command, why: "\(first.topic) is not studied yet")
        } else {
            next = NextStep(command: "gcdquiz", why: "the drill asks every kind of question")
        }
        missedQuestions = plan.missed.compactMap { question in
            guard let state = history.state(of: keys[question.id]!), let grade = state.lastGrade, let at = state.lastAnsweredAt else { return nil }
            return MissedQuestion(id: question.id, date: Self.dayString(at, calendar: calendar), grade: grade)
        }
        interviews = Self.interviews(in: history.reviews, calendar: calendar)

        let today = calendar.startOfDay(for: now)
        // The first day shown: the Monday `weeksShown - 1` weeks before this week's.
        let mondayOffset = (calendar.component(.weekday, from: today) + 5) % 7
        let firstDay = calendar.date(byAdding: .day, value: -mondayOffset - 7 * (Self.weeksShown - 1), to: today)!
        let shownDays = calendar.dateComponents([.day], from: firstDay, to: today).day! + 1
        var byDay: [Date: (Int, Int)] = [:]
        for (review, day) in zip(rated, Self.days(of: rated.map(\.answeredAt), calendar: calendar)) {
            let (count, right) = byDay[day, default: (0, 0)]
            byDay[day] = (count + 1, right + (review.grade.isRight ? 1 : 0))
        }
        activity = (0..<shownDays).reversed().map { back in
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
        for week in 0..<Self.weeksShown {
            let start = calendar.date(byAdding: .day, value: 7 * week, to: firstDay)!
            let end = calendar.date(byAdding: .day, value: 7, to: start)!
            let inWeek = rated.filter { $0.answeredAt >= start && $0.answeredAt < end }
            weekly.append(Week(start: Self.dayString(start, calendar: calendar), answered: inWeek.count, accuracy: Self.accuracy(inWeek)))
        }
        weeks = weekly
    }

    /// The mock interviews among `reviews`: answers of mode `interview` (practice left out),
    /// one interview per seed, latest first.
    static func interviews(in reviews: [Review], calendar: Calendar) -> [Interview] {
        var sessions: [(key: String, answers: [Review])] = []
        for review in reviews where review.mode == .interview && !review.isPractice {
            let key = review.seed.map(String.init) ?? dayString(review.answeredAt, calendar: calendar)
            if let index = sessions.firstIndex(where: { $0.key == key }) {
                sessions[index].answers.append(review)
            } else {
                sessions.append((key, [review]))
            }
        }
        return sessions.map { session in
            let grades = session.answers.map(\.grade)
            return Interview(
                date: dayString(session.answers.map(\.answeredAt).min()!, calendar: calendar), questions: grades.count,
                right: grades.filter(\.isRight).count, partial: grades.filter { $0 == .partial || $0 == .incomplete }.count,
                wrong: grades.filter { $0 == .wrong }.count, noAnswer: grades.filter { $0 == .unanswered || $0 == .skipped }.count,
                score: grades.map { $0.points ?? 0 }.reduce(0, +) / Double(max(grades.count, 1)))
        }.sorted { $0.date > $1.date }
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
