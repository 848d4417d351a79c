import Foundation
import Testing
@testable import Progress

@Suite struct LogExchangeTests {
    /// Awkward values: quotes, commas, line breaks, a seed beyond Int64, generated code, an overrule.
    let log: [Review] = {
        var first = review(puzzle("a", tags: ["deadlocks", "serial-queues"]), .wrong, at: day(0), hints: 1, answer: "1, \"2\"\n3 | 4 deadlock")
        first.seed = UInt64.max
        first.overruledFrom = .right
        first.code = "serialQueue.sync {\n    print(\"a,b\")\n}\n"
        first.explains = 2
        first.runs = 1
        first.mode = .review
        var second = review(puzzle("b"), .partial, at: day(0.5), answer: "")
        second.seed = nil
        second.isPractice = true
        second.topics = []
        return [first, second, review(puzzle("c"), .exact, at: day(1, hour: 0.000_3))]
    }()

    @Test(arguments: [LogExchange.Format.csv, .json])
    func exportThenImportLosesNothing(format: LogExchange.Format) throws {
        let data = LogExchange.export(log, as: format)
        #expect(try LogExchange.read(data, as: format, name: "log") == log)
    }

    /// Importing into a store that already has some of the answers adds only the others, and a
    /// second import adds nothing.
    @Test func importMergesWithoutDuplicating() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        try store.record(log[0])
        let mine = review(puzzle("mine"), .exact, at: day(3))
        try store.record(mine)
        let file = try LogExchange.read(LogExchange.export(log, as: .csv), as: .csv, name: "log.csv")
        #expect(try store.merge(file) == 2)
        #expect(try store.merge(file) == 0)
        #expect(try store.reviews() == (log + [mine]).sorted { $0.answeredAt < $1.answeredAt })
    }

    @Test func csvHasAHeaderAndQuotesWhatNeedsIt() throws {
        let text = String(decoding: LogExchange.export(log, as: .csv), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,question_id,content_hash,kind,answered_at,grade,overruled_from,answer,seconds,hints,explains,runs,mode,seed,topics,code,practice")
        #expect(text.contains("\"1, \"\"2\"\"\n3 | 4 deadlock\""))
        #expect(text.contains(",2026-03-02T09:00:00.000Z,wrong,right,"))
    }

    @Test func badFilesAreRefusedWithThePlace() throws {
        let good = String(decoding: LogExchange.export(log, as: .csv), as: UTF8.self)
        let badGrade = good.replacingOccurrences(of: ",wrong,right,", with: ",meh,right,")
        #expect(throws: LogExchange.Failure.self) { try LogExchange.read(Data(badGrade.utf8), as: .csv, name: "x.csv") }
        do {
            _ = try LogExchange.read(Data(badGrade.utf8), as: .csv, name: "x.csv")
        } catch let failure as LogExchange.Failure {
            #expect(failure.description == "x.csv:2: bad grade 'meh'")
        }
        #expect(throws: LogExchange.Failure.self) { try LogExchange.read(Data("a,b\n1,2\n".utf8), as: .csv, name: "x.csv") }
        #expect(throws: LogExchange.Failure.self) { try LogExchange.read(Data("{\"format\": \"other\", \"version\": 1, \"reviews\": []}".utf8), as: .json, name: "x.json") }
        #expect(throws: LogExchange.Failure.self) { try LogExchange.read(Data("\"unclosed".utf8), as: .csv, name: "x.csv") }
    }

    @Test func timestampsRoundTrip() {
        for date in [day(0), day(0.123_456), Date(timeIntervalSince1970: 0.001), Date(timeIntervalSince1970: 4_102_444_799.999)] {
            let whole = Review.wholeMilliseconds(date)
            #expect(Timestamp.parse(Timestamp.iso8601(whole)) == whole)
        }
        #expect(Timestamp.iso8601(day(0)) == "2026-03-02T09:00:00.000Z")
        #expect(Timestamp.parse("2026-03-02T09:00:00Z") == day(0))
        #expect(Timestamp.parse("yesterday") == nil)
    }
}
