import Foundation
import Testing
import Quiz
@testable import Progress

@Suite struct ProgressReportTests {
    let serial = [puzzle("s1"), puzzle("s2"), puzzle("s3")]
    let deadlocks = [puzzle("d1", tags: ["deadlocks"]), puzzle("d2", tags: ["deadlocks"])]

    var report: ProgressReport {
        let history = ProgressHistory(reviews: [
            review(serial[0], .exact, at: day(-1)),
            review(serial[1], .exact, at: day(-1, hour: 1)),
            review(deadlocks[0], .wrong, at: day(0)),
            review(deadlocks[0], .exact, at: day(0, hour: 0.5)),
            review(serial[0], .incomplete, at: day(-40)),
        ])
        return ProgressReport(questions: serial + deadlocks, history: history, now: day(0, hour: 1), calendar: utc)
    }

    @Test func perTopicFiguresWeakestFirst() throws {
        let report = self.report
        #expect(report.answered == 5)
        #expect(report.questionsSeen == 3)
        #expect(report.questionsTotal == 5)
        #expect(report.topics.map(\.topic) == ["deadlocks", "serial-queues"])
        let deadlock = report.topics[0]
        #expect(deadlock.seen == 1 && deadlock.total == 2)
        #expect(deadlock.answered30Days == 2)
        #expect(deadlock.accuracy30Days == 0.5)
        #expect(deadlock.command == "gcdquiz drill --tag deadlocks")
        let serialLine = report.topics[1]
        #expect(serialLine.seen == 2 && serialLine.total == 3)
        // The answer 40 days ago is outside the last 30 days.
        #expect(serialLine.answered30Days == 2)
        #expect(serialLine.accuracy30Days == 1)
        #expect(try #require(serialLine.retrievability) > 0.9)
        #expect(try serialLine.strength < #require(serialLine.retrievability))
        #expect(report.streakDays == 2)
        // Eight calendar weeks from a Monday to today (2026-03-02 is a Monday), and the weeks of
        // accuracy over the same days.
        #expect(report.activity.count == 7 * (ProgressReport.weeksShown - 1) + 1)
        #expect(report.activity.first?.date == "2026-01-12")
        #expect(report.activity.last == ProgressReport.Day(date: "2026-03-02", answered: 2, right: 1))
        #expect(report.weeks.count == ProgressReport.weeksShown)
        #expect(report.weeks.map(\.start).first == report.activity.first?.date)
        #expect(report.weeks.last?.start == "2026-03-02")
    }

    /// Recall is measured from the moment of answering: a question just answered wrong would read
    /// as known. It counts as not recalled until answered right; topics not studied yet come
    /// after the weakest studied; what to do next is what is due, once.
    @Test func aTopicJustMissedIsWeakAndWhatIsDueComesNext() throws {
        let history = ProgressHistory(reviews: [
            review(serial[0], .exact, at: day(-1)),
            review(deadlocks[0], .wrong, at: day(0)),
        ])
        let questions = serial + deadlocks + [puzzle("g1", tags: ["groups"])]
        let missedNow = ProgressReport(questions: questions, history: history, now: day(0, hour: 0.01), calendar: utc)
        let deadlock = try #require(missedNow.topics.first)
        #expect(deadlock.topic == "deadlocks")
        #expect(deadlock.retrievability == 0)
        #expect(missedNow.topics.map(\.topic) == ["deadlocks", "serial-queues", "groups"])
        #expect(missedNow.topics.map(\.studied) == [true, true, false])
        #expect(missedNow.missedQuestions.map(\.id) == ["d1"])
        #expect(missedNow.next.command == "gcdquiz drill --tag deadlocks")
        // An hour later the missed question is due: counted once, and reviewing is what to do.
        let later = ProgressReport(questions: questions, history: history, now: day(0, hour: 1), calendar: utc)
        #expect(later.dueNow == 1 && later.missed == 1 && later.missedDue == 1)
        #expect(later.next.command == "gcdquiz review")
        let text = TerminalReport.render(later, style: .init(unicode: true, bold: false))
        #expect(text.contains("1 due now (missed last time)"))
        #expect(!text.contains("more missed"))
        #expect(text.contains("Not studied yet: groups"))
        #expect(text.contains("Next: gcdquiz review — 1 question is due now."))
    }

    /// Swift concurrency's topics are lines of the report as GCD's are: studied ones ranked by
    /// recall, the rest listed as not studied yet, each with the drill command that practises it.
    @Test func swiftConcurrencyTopicsAreReportedLikeGCDOnes() throws {
        let actors = puzzle("a1", tags: ["actors", "isolation"])
        let sendable = puzzle("p1", tags: ["sendable"])
        let history = ProgressHistory(reviews: [review(actors, .wrong, at: day(0)), review(serial[0], .exact, at: day(-1))])
        let report = ProgressReport(questions: serial + [actors, sendable], history: history, now: day(0, hour: 0.01), calendar: utc)
        #expect(report.topics.map(\.topic) == ["actors", "isolation", "serial-queues", "sendable"])
        #expect(report.topics.map(\.studied) == [true, true, true, false])
        let actorLine = try #require(report.topics.first)
        #expect(actorLine.covers == "actors: isolated state, reentrancy at each await")
        #expect(actorLine.command == "gcdquiz drill --tag actors")
        let text = TerminalReport.render(report, style: .init(unicode: true, bold: false))
        #expect(text.contains("Not studied yet: sendable"))
    }

    @Test func mockInterviewsAreCountedLikeTheirReport() {
        var answers = [review(serial[0], .exact, at: day(-2)), review(serial[1], .incomplete, at: day(-2, hour: 0.1)),
                       review(serial[2], .unanswered, at: day(-2, hour: 0.2)), review(deadlocks[0], .wrong, at: day(0))]
        for index in answers.indices {
            answers[index].mode = .interview
            answers[index].seed = index < 3 ? 7 : 8
        }
        let report = ProgressReport(questions: serial + deadlocks, history: ProgressHistory(reviews: answers), now: day(0, hour: 1), calendar: utc)
        #expect(report.interviews == [
            ProgressReport.Interview(date: "2026-03-02", questions: 1, right: 0, partial: 0, wrong: 1, noAnswer: 0, score: 0),
            ProgressReport.Interview(date: "2026-02-28", questions: 3, right: 1, partial: 1, wrong: 0, noAnswer: 1, score: 0.5),
        ])
        let html = HTMLReport.render(report)
        #expect(html.contains("<h2>Mock interviews</h2>"))
        #expect(html.contains("<td>2026-02-28</td>"))
    }

    @Test func terminalReportFitsEightyColumnsInUnicodeAndASCII() {
        for unicode in [true, false] {
            let text = TerminalReport.render(report, style: .init(unicode: unicode, bold: false))
            #expect(text.contains("deadlocks"))
            #expect(text.contains("gcdquiz drill --tag deadlocks"))
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "\(line)")
                if !unicode { #expect(line.allSatisfy { $0.isASCII }, "\(line)") }
            }
        }
    }

    @Test func htmlReportIsOneSelfContainedPage() {
        let html = HTMLReport.render(report)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 3)
        #expect(html.contains("gcdquiz drill --tag deadlocks"))
        #expect(html.contains("Do this next:"))
        #expect(html.contains("2-day</b>streak"))
        #expect(html.contains(">Mon</text>") && html.contains(">Fri</text>"))
        #expect(html.contains("Accuracy by week, last 8 weeks") && html.contains("Activity, last 8 weeks"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    /// The days of the answers, found once per run of one day, are what the calendar gives
    /// date by date: across a change to summer time, at midnight, and out of order.
    @Test func daysOfManyDatesAgreeWithTheCalendarDateByDate() throws {
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let start = Date(timeIntervalSince1970: 1_774_652_400)  // 2026-03-28 00:00 in Berlin; summer time begins the next night
        var dates = (0..<400).map { start.addingTimeInterval(Double($0) * 997) }
        dates += [start, start.addingTimeInterval(-1), start.addingTimeInterval(86_400), start.addingTimeInterval(3 * 86_400 - 3600), start]
        for calendar in [berlin, utc] {
            #expect(ProgressReport.days(of: dates, calendar: calendar) == dates.map(calendar.startOfDay))
        }
    }

    @Test func anEmptyLogSaysWhereToStart() {
        let empty = ProgressReport(questions: serial, history: ProgressHistory(reviews: []), now: day(0), calendar: utc)
        #expect(empty.topics.map(\.seen) == [0])
        #expect(TerminalReport.render(empty, style: .init(unicode: true, bold: false)).hasPrefix("No answers recorded yet"))
    }
}
