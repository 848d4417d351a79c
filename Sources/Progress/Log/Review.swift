import Foundation
import GRDB
import Quiz

/// One answer, as the append-only review log keeps it: everything needed to rebuild the schedule,
/// the report, and (for a generated puzzle) the question itself.
public struct Review: Sendable, Equatable {
    /// Unique across machines, so that importing a log into another store never duplicates it.
    public var id: String
    public var questionID: String
    /// `ContentHash.of(question)` when answered: with the id, names the card.
    public var contentHash: String
    public var kind: Question.Kind
    /// When the answer was graded, in whole milliseconds (UTC in the file and in exports).
    public var answeredAt: Date
    /// What counts: the grader's verdict, or the learner's when they overruled it.
    public var grade: Grade
    /// The grader's verdict when the learner overruled it (`:right`, `:wrong`); nil otherwise.
    public var overruledFrom: Grade?
    /// The answer as typed.
    public var answer: String
    public var seconds: Double
    /// Help taken before answering: hints, `:explain`, `:run`.
    public var hints: Int
    public var explains: Int
    public var runs: Int
    public var mode: Mode
    /// The session's seed, to replay the session.
    public var seed: UInt64?
    /// The question's topics when answered.
    public var topics: [String]
    /// A generated puzzle's code, so that the card can come back; nil for bank questions.
    public var code: String?
    /// A later try at a question already answered this session: logged, but not a review.
    public var isPractice: Bool

    public init(id: String = UUID().uuidString.lowercased(), questionID: String, contentHash: String,
                kind: Question.Kind, answeredAt: Date = Date(), grade: Grade, overruledFrom: Grade? = nil,
                answer: String, seconds: Double, hints: Int = 0, explains: Int = 0, runs: Int = 0,
                mode: Mode, seed: UInt64? = nil, topics: [String], code: String? = nil, isPractice: Bool = false) {
        self.id = id
        self.questionID = questionID
        self.contentHash = contentHash
        self.kind = kind
        self.answeredAt = Review.wholeMilliseconds(answeredAt)
        self.grade = grade
        self.overruledFrom = overruledFrom
        self.answer = answer
        self.seconds = seconds
        self.hints = hints
        self.explains = explains
        self.runs = runs
        self.mode = mode
        self.seed = seed
        self.topics = topics
        self.code = code
        self.isPractice = isPractice
    }

    /// A review of `question` from the bank.
    public init(of question: Question, grade: Grade, answer: String, seconds: Double, mode: Mode,
                at date: Date = Date(), seed: UInt64? = nil) {
        self.init(questionID: question.id, contentHash: ContentHash.of(question), kind: question.kind, answeredAt: date,
                  grade: grade, answer: answer, seconds: seconds, mode: mode, seed: seed, topics: question.tags)
    }

    public var card: CardKey { CardKey(questionID: questionID, contentHash: contentHash) }

    /// Help came before the answer: a right answer then is Hard, not Good.
    public var wasHelped: Bool { hints + explains + runs > 0 }

    /// The FSRS rating this answer gives its card; nil when it is no review (skipped, practice).
    public var rating: Rating? {
        isPractice ? nil : grade.rating(helped: wasHelped)
    }

    static func wholeMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    var milliseconds: Int64 { Int64((answeredAt.timeIntervalSince1970 * 1000).rounded()) }
}

/// A card: a question as it was worded. Editing the question makes a new card.
public struct CardKey: Hashable, Sendable, Codable {
    public var questionID: String
    public var contentHash: String

    public init(questionID: String, contentHash: String) {
        self.questionID = questionID
        self.contentHash = contentHash
    }

    public init(_ question: Question) {
        self.init(questionID: question.id, contentHash: ContentHash.of(question))
    }
}

extension Review: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "review"

    /// The columns, in the table's and the exports' order.
    enum Column: String, CaseIterable {
        case id, questionID = "question_id", contentHash = "content_hash", kind, answeredAt = "answered_at", grade
        case overruledFrom = "overruled_from", answer, seconds, hints, explains, runs, mode, seed, topics, code
        case isPractice = "practice"

        private static let order = allCases

        /// The column's position in `selection`.
        var index: Int { Self.order.firstIndex(of: self)! }
    }

    /// Every column, in `Column` order: rows are read by position, which is several times faster
    /// than by name over a whole log.
    static let selection = "SELECT " + Column.allCases.map(\.rawValue).joined(separator: ", ") + " FROM review"

    /// Reads a row of `selection`.
    public init(row: Row) throws {
        func decoded<T: RawRepresentable>(_ column: Column, as type: T.Type) throws -> T where T.RawValue == String {
            let raw: String = row[column.index]
            guard let value = T(rawValue: raw) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "review \(row[0] as String? ?? "?"): unknown \(column.rawValue) '\(raw)'")
            }
            return value
        }
        id = row[Column.id.index]
        questionID = row[Column.questionID.index]
        contentHash = row[Column.contentHash.index]
        kind = try decoded(.kind, as: Question.Kind.self)
        answeredAt = Date(timeIntervalSince1970: Double(row[Column.answeredAt.index] as Int64) / 1000)
        grade = try decoded(.grade, as: Grade.self)
        overruledFrom = (row[Column.overruledFrom.index] as String?) == nil ? nil : try decoded(.overruledFrom, as: Grade.self)
        answer = row[Column.answer.index]
        seconds = row[Column.seconds.index]
        hints = row[Column.hints.index]
        explains = row[Column.explains.index]
        runs = row[Column.runs.index]
        mode = try decoded(.mode, as: Mode.self)
        seed = (row[Column.seed.index] as String?).flatMap { UInt64($0) }
        let topicList: String = row[Column.topics.index]
        topics = topicList.isEmpty ? [] : topicList.split(separator: ",").map(String.init)
        code = row[Column.code.index]
        isPractice = row[Column.isPractice.index]
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Column.id.rawValue] = id
        container[Column.questionID.rawValue] = questionID
        container[Column.contentHash.rawValue] = contentHash
        container[Column.kind.rawValue] = kind.rawValue
        container[Column.answeredAt.rawValue] = milliseconds
        container[Column.grade.rawValue] = grade.rawValue
        container[Column.overruledFrom.rawValue] = overruledFrom?.rawValue
        container[Column.answer.rawValue] = answer
        container[Column.seconds.rawValue] = seconds
        container[Column.hints.rawValue] = hints
        container[Column.explains.rawValue] = explains
        container[Column.runs.rawValue] = runs
        container[Column.mode.rawValue] = mode.rawValue
        // Text: a seed is a UInt64, and SQLite's integers are signed.
        container[Column.seed.rawValue] = seed.map(String.init)
        container[Column.topics.rawValue] = topics.joined(separator: ",")
        container[Column.code.rawValue] = code
        container[Column.isPractice.rawValue] = isPractice
    }
}
