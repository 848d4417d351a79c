import Foundation
import GRDB

/// The card-state table: every card's state as the log gives it, kept up to date as each review
/// is recorded, so that a session reads a few hundred rows instead of replaying the whole log.
/// The log stays the truth: the table names the scheduler it was derived with and how many
/// reviews it has applied, and is rebuilt from the log whenever that does not match (another
/// retention, a new version of the derivation, an import, a review recorded out of order).
extension ProgressStore {
    /// Bumped whenever what a card state holds, or how it is derived, changes.
    static let cardStateVersion = 1

    static func registerCardStates(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2: card states") { db in
            try db.create(table: "card_state") { table in
                table.column("question_id", .text).notNull()
                table.column("content_hash", .text).notNull()
                table.primaryKey(["question_id", "content_hash"])
                table.column("phase", .text).notNull()
                table.column("step", .integer)
                table.column("stability", .double)
                table.column("difficulty", .double)
                table.column("last_review", .integer)
                table.column("due", .integer).notNull()
                table.column("reviews", .integer).notNull()
                table.column("lapses", .integer).notNull()
                table.column("last_grade", .text)
                table.column("last_answered_at", .integer)
                table.column("first_reviewed", .integer)
                table.column("code", .text)
                table.column("topics", .text).notNull()
            }
            // One row, when the table agrees with the log: what it was derived with and up to where.
            try db.create(table: "card_state_basis") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("derivation", .text).notNull()
                table.column("retention", .double).notNull()
                table.column("reviews", .integer).notNull()
                table.column("latest_at", .integer).notNull()
                table.column("latest_id", .text).notNull()
            }
        }
    }

    /// What a table derived with `scheduler` says it was derived with.
    static func derivation(_ scheduler: CardScheduler) -> String {
        "v\(cardStateVersion) w=\(scheduler.fsrs.weights.map { "\($0)" }.joined(separator: ",")) r=\(scheduler.desiredRetention)"
            + " l=\(scheduler.learningSteps) rl=\(scheduler.relearningSteps) max=\(scheduler.maximumIntervalDays)"
    }

    struct Basis {
        var derivation: String
        var retention: Double
        var reviews: Int
        var latestAt: Int64
        var latestID: String
    }

    static func basis(_ db: Database) throws -> Basis? {
        try Row.fetchOne(db, sql: "SELECT derivation, retention, reviews, latest_at, latest_id FROM card_state_basis WHERE id = 1").map {
            Basis(derivation: $0[0], retention: $0[1], reviews: $0[2], latestAt: $0[3], latestID: $0[4])
        }
    }

    /// After `review` was inserted: applies it to its card when the table was up to date and the
    /// review is the latest; otherwise marks the table for a rebuild from the log.
    static func advanceCardStates(_ db: Database, with review: Review) throws {
        guard let basis = try basis(db) else { return }
        let scheduler = CardScheduler(desiredRetention: basis.retention)
        let count = try Review.fetchCount(db)
        guard derivation(scheduler) == basis.derivation, basis.reviews + 1 == count,
            (review.milliseconds, review.id) > (basis.latestAt, basis.latestID)
        else {
            try invalidateCardStates(db)
            return
        }
        let before = try cardState(db, review.card)
        try save(ProgressHistory.apply(review, to: before, scheduler: scheduler), db)
        try db.execute(
            sql: "UPDATE card_state_basis SET reviews = ?, latest_at = ?, latest_id = ? WHERE id = 1",
            arguments: [count, review.milliseconds, review.id])
    }

    /// Re-derives one card from its reviews in the log (after a grade was changed).
    static func rederive(_ card: CardKey, _ db: Database) throws {
        guard let basis = try basis(db) else { return }
        let scheduler = CardScheduler(desiredRetention: basis.retention)
        let reviews = try Review.fetchAll(
            db, sql: Review.selection + " WHERE question_id = ? AND content_hash = ? ORDER BY answered_at, id",
            arguments: [card.questionID, card.contentHash])
        var state: CardState?
        for review in reviews { state = ProgressHistory.apply(review, to: state, scheduler: scheduler) }
        if let state { try save(state, db) }
    }

    static func invalidateCardStates(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM card_state_basis")
    }

    /// The history for `scheduler`: from the table when it agrees with the log (with, for a
    /// report, the reviews since `reviewsSince` and the dates of every rated review; a session
    /// needs neither), else replayed from the whole log, and the table rebuilt
    /// from that replay when the file can be written.
    public func history(scheduler: CardScheduler = CardScheduler(), reviewsSince: Date? = nil) throws -> ProgressHistory {
        let wanted = Self.derivation(scheduler)
        if let fromTable = try currentHistory(scheduler: scheduler, reviewsSince: reviewsSince) { return fromTable }
        guard isWritable else { return ProgressHistory(reviews: try reviews(), scheduler: scheduler) }
        do {
            return try database.write { db in
                let reviews = try Review.fetchAll(db, sql: Review.selection + " ORDER BY answered_at, id")
                let history = ProgressHistory(reviews: reviews, scheduler: scheduler)
                try db.execute(sql: "DELETE FROM card_state")
                for state in history.cards.values { try Self.save(state, db) }
                try db.execute(
                    sql: "INSERT OR REPLACE INTO card_state_basis (id, derivation, retention, reviews, latest_at, latest_id) VALUES (1, ?, ?, ?, ?, ?)",
                    arguments: [wanted, scheduler.desiredRetention, reviews.count, reviews.last?.milliseconds ?? 0, reviews.last?.id ?? ""])
                return history
            }
        } catch {
            // The table cannot be written now (a full disk): the log is still there to read, and
            // replayed in memory it gives the same history.
            return ProgressHistory(reviews: try reviews(), scheduler: scheduler)
        }
    }

    /// The history from the card-state table when it agrees with the log; nil when it must be
    /// derived again (which `history` does), as after an import.
    public func currentHistory(scheduler: CardScheduler = CardScheduler(), reviewsSince: Date? = nil) throws -> ProgressHistory? {
        let wanted = Self.derivation(scheduler)
        return try database.read { db in
            // A file opened for reading only may predate the table (it cannot be migrated then).
            guard try db.tableExists("card_state_basis"), let basis = try Self.basis(db), basis.derivation == wanted else { return nil }
            let count = try Review.fetchCount(db)
            guard basis.reviews == count else { return nil }
            return try Self.tableHistory(db, scheduler: scheduler, count: count, reviewsSince: reviewsSince)
        }
    }

    static func tableHistory(_ db: Database, scheduler: CardScheduler, count: Int, reviewsSince: Date?) throws -> ProgressHistory {
        var cards: [CardKey: CardState] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT " + stateColumns + " FROM card_state")
        while let row = try rows.next() {
            let state = try cardState(row)
            cards[state.key] = state
        }
        guard let reviewsSince else {
            return ProgressHistory(cards: cards, reviews: [], ratedDates: [], reviewCount: count, scheduler: scheduler)
        }
        let reviews = try Review.fetchAll(db, sql: Review.selection + " WHERE answered_at >= ? ORDER BY answered_at, id",
                                          arguments: [Int64((reviewsSince.timeIntervalSince1970 * 1000).rounded())])
        let rated = try Int64.fetchAll(db, sql: "SELECT answered_at FROM review WHERE practice = 0 AND grade != 'skipped' ORDER BY answered_at, id")
        return ProgressHistory(cards: cards, reviews: reviews, ratedDates: rated.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                               reviewCount: count, scheduler: scheduler)
    }

    // MARK: Rows

    static let stateColumns = "question_id, content_hash, phase, step, stability, difficulty, last_review, due, reviews, lapses, "
        + "last_grade, last_answered_at, first_reviewed, code, topics"

    static func cardState(_ db: Database, _ key: CardKey) throws -> CardState? {
        try Row.fetchOne(db, sql: "SELECT " + stateColumns + " FROM card_state WHERE question_id = ? AND content_hash = ?",
                         arguments: [key.questionID, key.contentHash]).map(cardState)
    }

    static func cardState(_ row: Row) throws -> CardState {
        func date(_ index: Int) -> Date? { (row[index] as Int64?).map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        var schedule = CardSchedule(due: date(7)!)
        guard let phase = CardSchedule.Phase(rawValue: row[2]) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "card state: unknown phase '\(row[2] as String)'")
        }
        schedule.phase = phase
        schedule.step = row[3]
        if let stability = row[4] as Double?, let difficulty = row[5] as Double? {
            schedule.memory = MemoryState(stability: stability, difficulty: difficulty)
        }
        schedule.lastReview = date(6)
        var state = CardState(key: CardKey(questionID: row[0], contentHash: row[1]), schedule: schedule)
        state.reviews = row[8]
        state.lapses = row[9]
        state.lastGrade = (row[10] as String?).flatMap(Grade.init(rawValue:))
        state.lastAnsweredAt = date(11)
        state.firstReviewed = date(12)
        state.code = row[13]
        let topics: String = row[14]
        state.topics = topics.isEmpty ? [] : topics.split(separator: ",").map(String.init)
        return state
    }

    static func save(_ state: CardState, _ db: Database) throws {
        func milliseconds(_ date: Date?) -> Int64? { date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } }
        try db.execute(
            sql: "INSERT OR REPLACE INTO card_state (" + stateColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                state.key.questionID, state.key.contentHash, state.schedule.phase.rawValue, state.schedule.step,
                state.schedule.memory?.stability, state.schedule.memory?.difficulty, milliseconds(state.schedule.lastReview),
                milliseconds(state.schedule.due), state.reviews, state.lapses, state.lastGrade?.rawValue,
                milliseconds(state.lastAnsweredAt), milliseconds(state.firstReviewed), state.code, state.topics.joined(separator: ","),
            ])
    }
}
