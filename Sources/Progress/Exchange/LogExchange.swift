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

    /// A file that cannot be read as a log, with the place and the reason.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
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

    /// Reads a log written by `export`. `name` places problems (`file.csv:12: …`).
    public static func read(_ data: Data, as format: Format, name: String) throws -> [Review] {
        guard let text = String(data: data, encoding: .utf8) else { throw Failure(description: "\(name): not UTF-8 text") }
        switch format {
        case .csv:
            let rows = try CSV.rows(text, name: name)
            guard let header = rows.first else { throw Failure(description: "\(name): empty, not a gcdquiz progress export") }
            let missing = columns.filter { !header.fields.contains($0) }
            guard missing.isEmpty else {
                throw Failure(description: "\(name):1: not a gcdquiz progress export: missing column(s) \(missing.joined(separator: ", "))")
            }
            let index = Dictionary(header.fields.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return try rows.dropFirst().map { row in
                guard row.fields.count == header.fields.count else {
                    throw Failure(description: "\(name):\(row.line): \(row.fields.count) fields, the header has \(header.fields.count)")
                }
                let field = { (column: String) in row.fields[index[column]!] }
                return try review(from: field, place: "\(name):\(row.line)")
            }
        case .json:
            let document: Document
            do {
                document = try JSONDecoder().decode(Document.self, from: data)
            } catch {
                throw Failure(description: "\(name): not a gcdquiz progress export (\(error))")
            }
            guard document.format == formatName else { throw Failure(description: "\(name): format is '\(document.format)', not '\(formatName)'") }
            guard document.version <= version else {
                throw Failure(description: "\(name): written by a newer gcdquiz (version \(document.version); this one reads up to \(version))")
            }
            return try document.reviews.enumerated().map { number, entry in
                try entry.review(place: "\(name): review \(number + 1)")
            }
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

    static func review(from field: (String) -> String, place: String) throws -> Review {
        func parsed<T>(_ column: String, _ parse: (String) -> T?) throws -> T {
            guard let value = parse(field(column)) else { throw Failure(description: "\(place): bad \(column) '\(field(column))'") }
            return value
        }
        let overruled = field("overruled_from")
        let seed = field("seed")
        let code = field("code")
        let topics = field("topics")
        return Review(
            id: try parsed("id") { $0.isEmpty ? nil : $0 },
            questionID: try parsed("question_id") { $0.isEmpty ? nil : $0 },
            contentHash: field("content_hash"),
            kind: try parsed("kind", Question.Kind.init(rawValue:)),
            answeredAt: try parsed("answered_at", Timestamp.parse),
            grade: try parsed("grade", Grade.init(rawValue:)),
            overruledFrom: overruled.isEmpty ? nil : try parsed("overruled_from", Grade.init(rawValue:)),
            answer: field("answer"),
            seconds: try parsed("seconds") { Double($0) },
            hints: try parsed("hints") { Int($0) },
            explains: try parsed("explains") { Int($0) },
            runs: try parsed("runs") { Int($0) },
            mode: try parsed("mode", Mode.init(rawValue:)),
            seed: seed.isEmpty ? nil : try parsed("seed") { UInt64($0) },
            topics: topics.isEmpty ? [] : topics.split(separator: ",").map(String.init),
            code: code.isEmpty ? nil : code,
            isPractice: try parsed("practice") { ["1": true, "0": false, "true": true, "false": false][$0] })
    }

    struct Document: Codable {
        var format: String
        var version: Int
        var reviews: [Entry]
    }

    /// One review in JSON: the CSV's fields, with numbers as numbers and topics as a list.
    struct Entry: Codable {
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

        func review(place: String) throws -> Review {
            let text: [String: String] = [
                "id": id, "question_id": question_id, "content_hash": content_hash, "kind": kind, "answered_at": answered_at,
                "grade": grade, "overruled_from": overruled_from ?? "", "answer": answer, "seconds": String(seconds),
                "hints": String(hints), "explains": String(explains), "runs": String(runs), "mode": mode, "seed": seed ?? "",
                "topics": topics.joined(separator: ","), "code": code ?? "", "practice": practice ? "1" : "0",
            ]
            return try LogExchange.review(from: { text[$0] ?? "" }, place: place)
        }
    }
}
