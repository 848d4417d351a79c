import ConcurrencyModel
import Foundation
import Quiz

/// The whole review log as a file, to move to another machine or to read elsewhere: CSV (one row
/// per answer, a header row) or JSON (`{"format": "gcdquiz-progress", "version": 1, "reviews": [...]}`).
/// Both keep every field, so exporting and importing back loses nothing.
public enum LogExchange {
    public enum Format: String, Sendable {
        case csv, json

        /// From the file's extension: `.csv` or `.json`.
        public init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "csv": self = .csv
            case "json": self = .json
            default: return nil
            }
        }
    }

    public static let formatName = "gcdquiz-progress"
    public static let version = 1

    /// The fields, in the order of the CSV's columns; the JSON objects use the same names.
    static let columns = Review.Column.allCases.map(\.rawValue)

    public static func export(_ reviews: [Review], as format: Format) -> Data {
        switch format {
        case .csv:
            var text = CSV.line(columns)
            for review in reviews { text += CSV.line(fields(of: review)) }
            return Data(text.utf8)
        case .json:
            let document = Document(format: formatName, version: version, reviews: reviews.map(Entry.init))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(document)) ?? Data()
        }
    }

    /// Reads a log written by `export`, whole or not at all: every problem in it (a row the log
    /// cannot hold, a value out of range, text that is not UTF-8 or not JSON) is thrown together,
    /// each at its line and column in the file, `name`.
    public static func read(_ data: Data, as format: Format, name: String) throws -> [Review] {
        let text: String
        switch SourceText.decode(data, file: name) {
        case .success(let decoded): text = decoded
        case .failure(let problem): throw ProblemList([problem])
        }
        let places = TextPlaces(text, file: name)
        switch format {
        case .csv: return try readCSV(places)
        case .json: return try readJSON(places)
        }
    }

    static func readCSV(_ places: TextPlaces) throws -> [Review] {
        let rows = try CSV.rows(places)
        guard let header = rows.first else { throw ProblemList([places.problem("empty: not a gcdquiz progress export", at: 0)]) }
        let missing = columns.filter { !header.fields.contains($0) }
        guard missing.isEmpty else {
            throw ProblemList([places.problem("not a gcdquiz progress export: missing column(s) \(missing.joined(separator: ", "))", at: 0)])
        }
        let index = Dictionary(header.fields.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var reviews: [Review] = []
        var problems: [Problem] = []
        for row in rows.dropFirst() {
            guard row.fields.count == header.fields.count else {
                problems.append(places.problem("\(row.fields.count) fields, the header has \(header.fields.count)", at: row.offsets[0]))
                continue
            }
            let field = { (column: String) in Field(text: row.fields[index[column]!], offset: row.offsets[index[column]!]) }
            switch review(from: field, places: places) {
            case .success(let review): reviews.append(review)
            case .failure(let list): problems += list.problems
            }
        }
        guard problems.isEmpty else { throw ProblemList(problems) }
        return reviews
    }

    static func readJSON(_ places: TextPlaces) throws -> [Review] {
        let root: PlacedJSON
        do {
            root = try PlacedJSON.parse(places.bytes)
        } catch {
            throw ProblemList([places.problem("not valid JSON: \(error.message)", at: error.offset)])
        }
        let shape = "a gcdquiz progress export is an object {\"format\": \"\(formatName)\", \"version\": \(version), \"reviews\": […]}"
        guard case .object(let members) = root.value else { throw ProblemList([places.problem(shape, at: root.offset)]) }
        let document = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let format = document["format"], case .string(let name) = format.value else {
            throw ProblemList([places.problem(shape + ": no \"format\"", at: document["format"]?.offset ?? root.offset)])
        }
        guard name == formatName else { throw ProblemList([places.problem("format is '\(name)', not '\(formatName)'", at: format.offset)]) }
        guard let versionValue = document["version"], case .number(let number) = versionValue.value, let found = Int(number) else {
            throw ProblemList([places.problem(shape + ": \"version\" is a whole number", at: document["version"]?.offset ?? root.offset)])
        }
        guard found <= version else {
            throw ProblemList([places.problem("written by a newer gcdquiz (version \(found); this one reads up to \(version))", at: versionValue.offset)])
        }
        guard let list = document["reviews"], case .array(let entries) = list.value else {
            throw ProblemList([places.problem(shape + ": \"reviews\" is a list", at: document["reviews"]?.offset ?? root.offset)])
        }
        var reviews: [Review] = []
        var problems: [Problem] = []
        for (number, entry) in entries.enumerated() {
            switch review(from: entry, number: number + 1, places: places) {
            case .success(let review): reviews.append(review)
            case .failure(let list): problems += list.problems
            }
        }
        guard problems.isEmpty else { throw ProblemList(problems) }
        return reviews
    }

    /// One review of a JSON export: its values as the CSV's text, each at its place, for the
    /// checks both formats share.
    static func review(from entry: PlacedJSON, number: Int, places: TextPlaces) -> Result<Review, ProblemList> {
        guard case .object(let members) = entry.value else {
            return .failure(ProblemList([places.problem("review \(number) is \(entry.kindName), not an object of fields", at: entry.offset)]))
        }
        let values = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var problems: [Problem] = []
        var fields: [String: Field] = [:]
        for column in Review.Column.allCases {
            let name = column.rawValue
            let expected = jsonKind(of: column)
            guard let value = values[name] else {
                if expected.mayBeAbsent {
                    fields[name] = Field(text: "", offset: entry.offset)
                } else {
                    problems.append(places.problem("review \(number) has no \"\(name)\"", at: entry.offset))
                }
                continue
            }
            switch (expected, value.value) {
            case (.string, .string(let text)), (.optionalString, .string(let text)), (.number, .number(let text)):
                fields[name] = Field(text: text, offset: value.offset)
            case (.optionalString, .null):
                fields[name] = Field(text: "", offset: value.offset)
            case (.bool, .bool(let flag)):
                fields[name] = Field(text: flag ? "1" : "0", offset: value.offset)
            case (.strings, .array(let items)):
                var topics: [String] = []
                for item in items {
                    guard case .string(let topic) = item.value else {
                        problems.append(places.problem("\"\(name)\" holds \(item.kindName), not a string", at: item.offset))
                        continue
                    }
                    topics.append(topic)
                }
                fields[name] = Field(text: topics.joined(separator: ","), offset: value.offset)
            default:
                problems.append(places.problem("\"\(name)\" is \(value.kindName), not \(expected.words)", at: value.offset))
            }
        }
        guard problems.isEmpty else { return .failure(ProblemList(problems)) }
        return review(from: { fields[$0]! }, places: places)
    }

    /// What a JSON export holds in a column.
    enum JSONKind {
        case string, optionalString, number, bool, strings

        var mayBeAbsent: Bool { self == .optionalString }

        var words: String {
            switch self {
            case .string: "a string"
            case .optionalString: "a string or null"
            case .number: "a number"
            case .bool: "true or false"
            case .strings: "a list of strings"
            }
        }
    }

    static func jsonKind(of column: Review.Column) -> JSONKind {
        switch column {
        case .id, .questionID, .contentHash, .kind, .answeredAt, .grade, .answer, .mode: .string
        case .overruledFrom, .seed, .code: .optionalString
        case .seconds, .hints, .explains, .runs: .number
        case .topics: .strings
        case .isPractice: .bool
        }
    }

    static func fields(of review: Review) -> [String] {
        Review.Column.allCases.map { column in
            switch column {
            case .id: review.id
            case .questionID: review.questionID
            case .contentHash: review.contentHash
            case .kind: review.kind.rawValue
            case .answeredAt: Timestamp.iso8601(review.answeredAt)
            case .grade: review.grade.rawValue
            case .overruledFrom: review.overruledFrom?.rawValue ?? ""
            case .answer: review.answer
            case .seconds: String(review.seconds)
            case .hints: String(review.hints)
            case .explains: String(review.explains)
            case .runs: String(review.runs)
            case .mode: review.mode.rawValue
            case .seed: review.seed.map(String.init) ?? ""
            case .topics: review.topics.joined(separator: ",")
            // Empty for bank questions, which carry no code.
            case .code: review.code ?? ""
            case .isPractice: review.isPractice ? "1" : "0"
            }
        }
    }

    /// A field's text as the file writes it, and where it starts.
    struct Field {
        var text: String
        var offset: Int
    }

    /// The review the fields make, or every field that is not what the log holds, at its place.
    static func review(from field: (String) -> Field, places: TextPlaces) -> Result<Review, ProblemList> {
        var problems: [Problem] = []
        func parsed<T>(_ column: String, _ rule: String, _ parse: (String) -> T?) -> T? {
            let value = field(column)
            guard let parsed = parse(value.text) else {
                problems.append(places.problem("bad \(column) '\(value.text.prefix(40))': \(rule)", at: value.offset))
                return nil
            }
            return parsed
        }
        func optional<T>(_ column: String, _ rule: String, _ parse: (String) -> T?) -> T?? {
            field(column).text.isEmpty ? .some(nil) : parsed(column, rule, parse).map { .some($0) }
        }
        let grades = Grade.allCases.map(\.rawValue).joined(separator: ", ")
        let count = "must be a whole number, 0 or more"
        let id = parsed("id", "must not be empty: every answer has an id") { $0.isEmpty ? nil : $0 }
        let questionID = parsed("question_id", "must not be empty: every answer names its question") { $0.isEmpty ? nil : $0 }
        let kind = parsed("kind", "must be one of " + Question.Kind.allCases.map(\.rawValue).joined(separator: ", "), Question.Kind.init(rawValue:))
        let answeredAt = parsed("answered_at", "must be a UTC time such as 2026-03-02T09:00:00.000Z", Timestamp.parse)
        let grade = parsed("grade", "must be one of " + grades, Grade.init(rawValue:))
        let overruled = optional("overruled_from", "must be empty, or one of " + grades, Grade.init(rawValue:))
        // NaN, infinities and numbers past Double's range (1e400) are no time taken; SQLite would
        // store NaN as NULL, which the log refuses.
        let seconds = parsed("seconds", "the seconds taken must be a finite number, 0 or more") { Double($0).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        let hints = parsed("hints", count) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        let explains = parsed("explains", count) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        let runs = parsed("runs", count) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        let mode = parsed("mode", "must be one of " + Mode.allCases.map(\.rawValue).joined(separator: ", "), Mode.init(rawValue:))
        let seed = optional("seed", "must be empty, or a whole number from 0 to \(UInt64.max)") { UInt64($0) }
        let practice = parsed("practice", "must be 1 or 0 (true or false)") { ["1": true, "0": false, "true": true, "false": false][$0] }
        guard problems.isEmpty, let id, let questionID, let kind, let answeredAt, let grade, let overruled, let seconds, let hints,
            let explains, let runs, let mode, let seed, let practice
        else { return .failure(ProblemList(problems)) }
        let code = field("code").text
        let topics = field("topics").text
        return .success(Review(
            id: id, questionID: questionID, contentHash: field("content_hash").text, kind: kind, answeredAt: answeredAt,
            grade: grade, overruledFrom: overruled, answer: field("answer").text, seconds: seconds, hints: hints,
            explains: explains, runs: runs, mode: mode, seed: seed,
            topics: topics.isEmpty ? [] : topics.split(separator: ",").map(String.init),
            code: code.isEmpty ? nil : code, isPractice: practice))
    }

    struct Document: Encodable {
        var format: String
        var version: Int
        var reviews: [Entry]
    }

    /// One review in JSON: the CSV's fields, with numbers as numbers and topics as a list.
    struct Entry: Encodable {
        var id: String
        var question_id: String
        var content_hash: String
        var kind: String
        var answered_at: String
        var grade: String
        var overruled_from: String?
        var answer: String
        var seconds: Double
        var hints: Int
        var explains: Int
        var runs: Int
        var mode: String
        /// A string: a UInt64 does not fit a JSON number every reader keeps exactly.
        var seed: String?
        var topics: [String]
        var code: String?
        var practice: Bool

        init(_ review: Review) {
            id = review.id
            question_id = review.questionID
            content_hash = review.contentHash
            kind = review.kind.rawValue
            answered_at = Timestamp.iso8601(review.answeredAt)
            grade = review.grade.rawValue
            overruled_from = review.overruledFrom?.rawValue
            answer = review.answer
            seconds = review.seconds
            hints = review.hints
            explains = review.explains
            runs = review.runs
            mode = review.mode.rawValue
            seed = review.seed.map(String.init)
            topics = review.topics
            code = review.code
            practice = review.isPractice
        }
    }
}
