import Foundation
import Progress
import Quiz

/// What a returning learner is asked first, from what was recorded: the questions due today
/// (missed ones first, then the most overdue), then those missed last time that are not due yet.
struct SessionPlan {
    let plan: ReviewPlan
    /// Due before the day ends: a question missed a few minutes ago is due today.
    let dueToday: [Question]

    init(bank: Bank, history: ProgressHistory, newPerDay: Int, now: Date = Date(), calendar: Calendar = .current) {
        let askable = bank.questions.filter { !FollowUps.isFollowUp($0, in: bank) }
        plan = ReviewPlan(questions: askable, history: history, now: now, newPerDay: newPerDay, calendar: calendar)
        let endOfDay = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
        dueToday = ReviewPlan(questions: askable, history: history, now: max(endOfDay, now), newPerDay: newPerDay, calendar: calendar).due
    }

    /// Due today, then missed last time: where a returning learner's drill starts.
    var first: [Question] {
        let due = Set(dueToday.map(\.id))
        return dueToday + plan.missed.filter { !due.contains($0.id) }
    }

    /// The one line (it fits 80 columns) that greets a returning learner; the due and missed
    /// questions then come first. A question missed last time is due again soon: it is counted
    /// once, among the due ones, not a second time as missed.
    var greeting: String {
        let due = Set(dueToday.map(\.id))
        let missedDue = plan.missed.filter { due.contains($0.id) }.count
        let missedLater = plan.missed.count - missedDue
        var text = "Welcome back: \(dueToday.count) due today"
        if missedDue > 0 { text += missedDue == dueToday.count ? " (missed last time)" : " (\(missedDue) of them missed last time)" }
        if missedLater > 0 { text += ", \(missedLater) more missed last time" }
        return text + ", \(plan.newLeftToday) new left today."
    }
}
