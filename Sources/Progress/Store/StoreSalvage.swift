import Foundation
import GRDB
import Quiz

/// The answers that can still be read from a damaged progress file. The review log is the truth
/// and everything else is derived from it, so its rows are what a damaged file must give back:
/// read in rowid order through the table itself (never an index, which may be the damaged part),
/// stepping past pages that cannot be read.
extension ProgressStore {
    /// Copies the answers that can still be read from the file at `path` (set aside as damaged)
    /// into this store; returns how many were added.
    func salvage(from path: String) throws -> Int {
        let reviews = Self.readableReviews(at: path)
        return reviews.isEmpty ? 0 : try merge(reviews)
    }

    /// Every review row of the file at `path` that can be read and makes a whole review.
    static func readableReviews(at path: String) -> [Review] {
        guard let database = try? DatabaseQueue(path: path, configuration: configuration(readonly: true)) else { return [] }
        defer { try? database.close() }
        // Outside a transaction: committing one whose reads met damage fails, and would take
        // every row read with it.
        return (try? database.inDatabase { db in try salvagedRows(db) }) ?? []
    }

    /// A probe that fails this many times in a row, one rowid after another, has stepped over
    /// more rows than a page holds: the steps grow from there.
    static let rowsPerPageAtMost: Int64 = 512

    static func salvagedRows(_ db: Database) throws -> [Review] {
        guard try db.tableExists(Review.databaseTableName) else { return [] }
        // Where to stop stepping: the last rowid if it can be read, else more rows than the
        // file has pages to hold.
        let pages = (try? Int64.fetchOne(db, sql: "PRAGMA page_count")) ?? 0
        let last = (try? Int64.fetchOne(db, sql: "SELECT max(rowid) FROM review")) ?? (pages + 1) * rowsPerPageAtMost
        // `rowid >= ?`: a seek lands on the page holding the rowid it is given, so `rowid > x`
        // would visit the damaged page holding x again.
        let sql = "SELECT rowid, " + Review.Column.allCases.map(\.rawValue).joined(separator: ", ") + " FROM review WHERE rowid >= ? ORDER BY rowid"
        var reviews: [Review] = []
        var from = Int64.min
        var failures: Int64 = 0
        while from <= last {
            do {
                let rows = try Row.fetchCursor(db, sql: sql, arguments: [from])
                while let row = try rows.next() {
                    guard let rowid = Int64.fromDatabaseValue(row[0] as DatabaseValue) else { continue }
                    from = rowid &+ 1
                    failures = 0
                    if let review = Review(salvaging: Array(row.databaseValues.dropFirst())) { reviews.append(review) }
                }
                break
            } catch {
                // The page holding the next rows cannot be read: step past it, one rowid at a
                // time over a page's worth, then in growing strides.
                failures += 1
                let stride = failures <= rowsPerPageAtMost ? 1 : Int64(1) << min(failures - rowsPerPageAtMost, 40)
                from = from == Int64.min ? 1 : from.addingReportingOverflow(stride).partialValue
            }
        }
        return reviews
    }
}

extension Review {
    /// A review from the values of a row of a damaged file (in `Column` order), or nil when any
    /// of them is not what the log holds: damage can leave any value in any column.
    init?(salvaging values: [DatabaseValue]) {
        guard values.count == Column.allCases.count else { return nil }
        func value(_ column: Column) -> DatabaseValue { values[column.index] }
        func text(_ column: Column) -> String? { String.fromDatabaseValue(value(column)) }
        func number(_ column: Column) -> Int? { Int.fromDatabaseValue(value(column)) }
        func optional<T>(_ column: Column, _ read: (DatabaseValue) -> T?) -> T?? {
            value(column).isNull ? .some(nil) : read(value(column)).map { .some($0) }
        }
        guard let id = text(.id), let questionID = text(.questionID), let contentHash = text(.contentHash),
            let kind = text(.kind).flatMap(Question.Kind.init(rawValue:)),
            let milliseconds = Int64.fromDatabaseValue(value(.answeredAt)),
            let grade = text(.grade).flatMap(Grade.init(rawValue:)),
            let overruled = optional(.overruledFrom, { String.fromDatabaseValue($0).flatMap(Grade.init(rawValue:)) }),
            let answer = text(.answer), let seconds = Double.fromDatabaseValue(value(.seconds)), seconds.isFinite,
            let hints = number(.hints), let explains = number(.explains), let runs = number(.runs),
            let mode = text(.mode).flatMap(Mode.init(rawValue:)),
            let seed = optional(.seed, { String.fromDatabaseValue($0).flatMap { UInt64($0) } }),
            let topics = text(.topics),
            let code = optional(.code, { String.fromDatabaseValue($0) }),
            let practice = Bool.fromDatabaseValue(value(.isPractice))
        else { return nil }
        self.init(
            id: id, questionID: questionID, contentHash: contentHash, kind: kind,
            answeredAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000), grade: grade, overruledFrom: overruled,
            answer: answer, seconds: seconds, hints: hints, explains: explains, runs: runs, mode: mode, seed: seed,
            topics: topics.isEmpty ? [] : topics.split(separator: ",").map(String.init), code: code, isPractice: practice)
    }
}
