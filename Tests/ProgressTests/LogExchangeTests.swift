import ConcurrencyModel
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
        let row = badGrade.components(separatedBy: "\r\n")[1]
        let column = row.distance(from: row.startIndex, to: row.range(of: ",meh,")!.lowerBound) + 2
        #expect(problems(badGrade, .csv, "x.csv") == ["x.csv:2:\(column): error: bad grade 'meh': must be one of exact, incomplete, right, partial, wrong, skipped, unanswered, reached, gave-up"])
        #expect(problems("a,b\n1,2\n", .csv, "x.csv").first?.hasPrefix("x.csv:1:1: error: not a gcdquiz progress export: missing column(s) id, question_id") == true)
        #expect(problems("{\"format\": \"other\", \"version\": 1, \"reviews\": []}", .json, "x.json") == ["x.json:1:12: error: format is 'other', not 'gcdquiz-progress'"])
        #expect(problems("id,answer\n1,\"unclosed\n", .csv, "x.csv") == ["x.csv:2:3: error: a quoted field is never closed"])
    }

    /// NaN, infinities and numbers beyond a Double (which SQLite would store as NULL, or as
    /// infinity) are refused at their place, in every row at once, and nothing is read.
    @Test func secondsThatAreNoTimeAreRefusedAtTheirPlace() throws {
        let header = LogExchange.columns.joined(separator: ",")
        let text = header + "\r\n" + ["nan", "inf", "1e400", "-2", "12.5"].enumerated().map { number, seconds in
            "r\(number),a,h,trace,2026-03-02T09:00:00.000Z,exact,,1,\(seconds),0,0,0,drill,,serial-queues,,0"
        }.joined(separator: "\r\n")
        #expect(problems(text, .csv, "log.csv") == [2, 3, 4, 5].map { line in
            let seconds = ["nan", "inf", "1e400", "-2"][line - 2]
            return "log.csv:\(line):48: error: bad seconds '\(seconds)': the seconds taken must be a finite number, 0 or more"
        })
        let json = String(decoding: LogExchange.export(log, as: .json), as: UTF8.self).replacingOccurrences(of: "\"seconds\" : 12.5", with: "\"seconds\" : 1e400")
        let found = problems(json, .json, "log.json")
        #expect(found.count == 3)
        #expect(found.allSatisfy { $0.contains(": error: bad seconds '1e400'") }, "\(found)")
    }

    /// JSON that is not JSON, or not shaped as an export, and text that is not UTF-8: each at its
    /// line and column.
    @Test func jsonAndEncodingProblemsHaveAPlace() throws {
        #expect(problems("{\"format\": \"gcdquiz-progress\",\n \"version\": 1,\n \"reviews\": [{\"id\": \"a\" \"x\": 1}]}", .json, "x.json")
            == ["x.json:3:25: error: not valid JSON: '\"' where ',' or '}' should be"])
        #expect(problems("{\"format\": \"gcdquiz-progress\", \"version\": 1, \"reviews\": [NaN]}", .json, "x.json")
            == ["x.json:1:58: error: not valid JSON: 'N' where a value should be"])
        #expect(problems("{\"format\": \"gcdquiz-progress\", \"version\": 1, \"reviews\": [{\"id\": 7}]}", .json, "x.json").contains(
            "x.json:1:65: error: \"id\" is a number, not a string"))
        #expect(problems("{\"format\": \"gcdquiz-progress\", \"version\": 1, \"reviews\": [{}]}", .json, "x.json").first
            == "x.json:1:58: error: review 1 has no \"id\"")
        let latin1 = Data("id,answer\n1,caf".utf8) + Data([0xE9]) + Data("\n".utf8)
        #expect(throws: ProblemList.self) { try LogExchange.read(latin1, as: .csv, name: "x.csv") }
        do {
            _ = try LogExchange.read(latin1, as: .csv, name: "x.csv")
        } catch let list as ProblemList {
            #expect(list.problems.map(\.description) == ["x.csv:2:6: error: the file is not UTF-8 text: byte 0xE9 here starts no UTF-8 character (save the file as UTF-8)"])
        }
    }

    /// A review the log cannot hold undoes the whole merge: none of the file's answers is added,
    /// where INSERT OR IGNORE would have dropped it and counted it as already there.
    @Test func aMergeIsAllOrNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        var broken = review(puzzle("z"), .exact, at: day(4))
        broken.seconds = .nan
        #expect(throws: (any Error).self) { try store.merge(log + [broken]) }
        #expect(try store.count() == 0)
        #expect(try store.merge(log) == 3)
    }

    /// The problems reading `text` as `format` finds, as `file:line:col: error: message`.
    func problems(_ text: String, _ format: LogExchange.Format, _ name: String) -> [String] {
        do {
            _ = try LogExchange.read(Data(text.utf8), as: format, name: name)
            return []
        } catch let list as ProblemList {
            return list.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
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
