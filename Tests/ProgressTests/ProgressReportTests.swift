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
        #expect(report.activity.count == ProgressReport.activityDays)
        #expect(report.activity.last == ProgressReport.Day(date: "2026-03-02", answered: 2, right: 1))
        #expect(report.weeks.count == ProgressReport.weeksShown)
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
