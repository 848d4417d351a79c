import Foundation
import GRDB

/// The learner's progress: one SQLite file holding the append-only review log. Everything else
/// (schedules, reports) is derived from the log. WAL and a busy timeout let two sessions record at
/// once; each answer is its own committed transaction, so a killed session loses nothing before it.
public final class ProgressStore: Sendable {
    public let path: String
    /// False when the file could only be opened for reading: recording then fails.
    public let isWritable: Bool
    let database: DatabaseQueue

    /// Identifies a gcdquiz progress file (`PRAGMA application_id`): "GCDQ".
    static let applicationID: Int32 = 0x4743_4451

    init(path: String, database: DatabaseQueue, isWritable: Bool) {
        self.path = path
        self.database = database
        self.isWritable = isWritable
    }

    /// The schema, one migration per version. Never edit a registered migration: add one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: review log") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.create(table: Review.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("question_id", .text).notNull()
                table.column("content_hash", .text).notNull()
                table.column("kind", .text).notNull()
                table.column("answered_at", .integer).notNull()  // milliseconds since 1970, UTC
                table.column("grade", .text).notNull()
                table.column("overruled_from", .text)
                table.column("answer", .text).notNull()
                table.column("seconds", .double).notNull()
                table.column("hints", .integer).notNull().defaults(to: 0)
                table.column("explains", .integer).notNull().defaults(to: 0)
                table.column("runs", .integer).notNull().defaults(to: 0)
                table.column("mode", .text).notNull()
                table.column("seed", .text)
                table.column("topics", .text).notNull()
                table.column("code", .text)
                table.column("practice", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "review_by_card", on: Review.databaseTableName, columns: ["question_id", "content_hash", "answered_at"])
            try db.create(index: "review_by_time", on: Review.databaseTableName, columns: ["answered_at"])
        }
        registerCardStates(&migrator)
        return migrator
    }

    /// Appends one answer to the log, committed before it returns.
    public func record(_ review: Review) throws {
        try database.write { db in
            try review.insert(db)
            try Self.advanceCardStates(db, with: review)
        }
    }

    /// Replaces the grade of a review just recorded: the learner overruled the grader (`:right`,
    /// `:wrong`) right after the verdict. The answer stays one review; the grader's is kept.
    public func regrade(_ review: Review) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE review SET grade = ?, overruled_from = ? WHERE id = ?",
                arguments: [review.grade.rawValue, review.overruledFrom?.rawValue, review.id])
            try Self.rederive(review.card, db)
        }
    }

    /// Every review, oldest first.
    public func reviews() throws -> [Review] {
        try database.read { db in
            try Review.fetchAll(db, sql: Review.selection + " ORDER BY answered_at, id")
        }
    }

    public func count() throws -> Int {
        try database.read { db in try Review.fetchCount(db) }
    }

    /// Adds the reviews the log does not have yet (by id), in one transaction: all of them or,
    /// when one cannot be stored, none. Returns how many were new: importing the same file twice
    /// adds nothing the second time.
    @discardableResult
    public func merge(_ reviews: [Review]) throws -> Int {
        try database.write { db in
            var added = 0
            for review in reviews {
                // Only an answer already there is skipped: any other failure (a value the log
                // cannot hold) undoes the whole merge, where INSERT OR IGNORE would drop the row.
                guard try !Review.exists(db, key: review.id) else { continue }
                try review.insert(db)
                added += 1
            }
            // Answers from elsewhere fall anywhere in time: the card states are derived again.
            if added > 0 { try Self.invalidateCardStates(db) }
            return added
        }
    }
}
