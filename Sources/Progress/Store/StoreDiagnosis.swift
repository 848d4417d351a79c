import Foundation
import GRDB

/// What a look at an existing progress file, or an error in opening it, says to do. Only a file
/// known to be bad is set aside: an error this process cannot write past (a full disk, a
/// read-only folder, a lock, an error it does not know) says nothing about the file, whose
/// answers are then read as they are.
enum StoreDiagnosis {
    /// The outcome of one try at opening the file for recording.
    enum Attempt {
        case opened(ProgressStore)
        /// Not SQLite, damaged or another program's: set it aside; `salvage` when answers may
        /// still be read from it.
        case setAside(String, salvage: Bool)
        /// From a newer gcdquiz: leave it alone.
        case refused(String)
        /// Cannot be written now: read it.
        case unavailable(String)
        /// Another connection holds a lock SQLite would not wait for (two sessions creating the
        /// file or switching it to WAL at once): try again shortly.
        case busy(String)
    }

    /// Why an existing file cannot be used as it is.
    enum Problem: Equatable, Error {
        case damaged(String)
        case notSQLite
        case foreign
        /// Written by a newer gcdquiz: the reason.
        case newer(String)
        /// It could not even be read: SQLite's words.
        case unreadable(String)

        var words: String {
            switch self {
            case .damaged(let detail): "is damaged (\(detail))"
            case .notSQLite: "is not an SQLite database"
            case .foreign: "belongs to another program (it has no gcdquiz review log)"
            case .newer(let why): "was written by a newer gcdquiz (\(why))"
            case .unreadable(let why): "cannot be read (\(why))"
            }
        }

        var attempt: Attempt {
            switch self {
            case .damaged: .setAside(words, salvage: true)
            case .notSQLite, .foreign: .setAside(words, salvage: false)
            case .newer: .refused(words)
            case .unreadable(let why): .unavailable(why)
            }
        }
    }

    /// Why `db` cannot be used as it is, or nil when it can; `everyPage` reads the whole file
    /// for damage first.
    static func inspect(_ db: Database, everyPage: Bool = true) throws -> Problem? {
        if everyPage {
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "ok"
            if check != "ok" {
                // "*** in database main ***\nPage 7: btreeInitPage() returns error code 11": one line.
                let lines = check.split(separator: "\n").filter { !$0.hasPrefix("***") }
                return .damaged(lines.isEmpty ? check : lines.joined(separator: "; "))
            }
        }
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        // A file another session is creating right now has GRDB's bookkeeping table before the
        // first migration commits: that is a fresh file, not someone else's.
        let fresh = tables.allSatisfy { $0 == "grdb_migrations" }
        if application != ProgressStore.applicationID && (application != 0 || !fresh) {
            return .foreign
        }
        let format = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if format > ProgressStore.fileFormat {
            return .newer("file format \(format); this one reads format \(ProgressStore.fileFormat)")
        }
        if !fresh {
            let migrator = ProgressStore.migrator
            let known = Set(migrator.migrations)
            let unknown = try migrator.appliedIdentifiers(db).subtracting(known).sorted()
            if !unknown.isEmpty {
                return .newer("its schema has " + unknown.map { "'\($0)'" }.joined(separator: ", ") + ", which this one does not know")
            }
        }
        return nil
    }

    /// What an error in opening or reading the file at `path` says about it.
    static func classify(_ error: Error, path: String) -> Attempt {
        guard let error = error as? DatabaseError else { return .unavailable("\(error)") }
        if [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode.primaryResultCode) { return .busy(words(for: error, path: path)) }
        return problem(for: error)?.attempt ?? .unavailable(words(for: error, path: path))
    }

    /// What an SQLite error says about the file itself: nil when it says nothing about it.
    static func problem(for error: DatabaseError) -> Problem? {
        switch error.resultCode.primaryResultCode {
        case .SQLITE_NOTADB: .notSQLite
        case .SQLITE_CORRUPT: .damaged(error.message ?? "malformed")
        default: nil
        }
    }

    /// An SQLite error in a learner's words: a full disk or a read-only folder said as such
    /// (SQLite reports a full disk as an I/O error when the WAL's index cannot grow, and a
    /// read-only folder as a file it cannot open).
    static func words(for error: DatabaseError, path: String?) -> String {
        let message = error.message ?? "\(error.resultCode)"
        let folder = path.map(ProgressFile.folder(of:))
        switch error.resultCode.primaryResultCode {
        case .SQLITE_FULL:
            return "the disk is full"
        case .SQLITE_IOERR:
            if let folder, ProgressFile.isFull(folder: folder) { return "the disk is full" }
            return "a disk error: \(message)"
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            guard let path, let folder else { return message }
            if ProgressFile.isReadOnlyFileSystem(folder: folder) { return "its file system is read-only" }
            if access(folder.isEmpty ? "." : folder, W_OK) != 0 { return "its folder cannot be written" }
            if FileManager.default.fileExists(atPath: path), access(path, W_OK) != 0 { return "the file is read-only" }
            if ProgressFile.isFull(folder: folder) { return "the disk is full" }
            return message
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "another program keeps it locked: \(message)"
        default:
            return message
        }
    }
}

extension ProgressStore {
    /// The format this gcdquiz writes, as `PRAGMA user_version`: a gcdquiz that changes the file
    /// so that older ones must not read it raises it, and older ones then leave the file alone.
    static let fileFormat: Int32 = 0

    /// One try at opening the file at `path` for recording, schema brought up to date.
    static func attempt(_ path: String) -> StoreDiagnosis.Attempt {
        // Not read with anything but SQLite: closing any other descriptor of the file would drop
        // the locks this process's open connections hold on it (sqlite.org/howtocorrupt.html,
        // 2.2), and another process could then checkpoint and delete the WAL under them. SQLite
        // itself says when a file is not a database.
        if case .file(let size) = ProgressFile.kind(of: path), size > 0 {
            // Look before touching: opening for use turns on WAL, which would change a file that
            // turns out to be someone else's, or one to set aside as it is.
            do {
                let inspection = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
                let problem = try inspection.read { db in try StoreDiagnosis.inspect(db) }
                try inspection.close()
                if let problem { return problem.attempt }
            } catch {
                return StoreDiagnosis.classify(error, path: path)
            }
        }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration(readonly: false))
        } catch {
            return StoreDiagnosis.classify(error, path: path)
        }
        do {
            do {
                try migrator.migrate(database)
            } catch {
                // Two sessions creating the file at once both see it unmigrated; the second's
                // migration fails (and rolls back) because the first's is there: that is fine.
                guard try database.read(migrator.hasCompletedMigrations) else { throw error }
            }
            return .opened(ProgressStore(path: path, database: database, isWritable: true))
        } catch {
            try? database.close()
            return StoreDiagnosis.classify(error, path: path)
        }
    }

    /// Opens the file for reading only, after it could not be opened for writing: as usual, with
    /// the WAL's index beside it, or as an immutable file, which needs no companion file, provided
    /// its WAL holds nothing the file itself lacks. Immutable first where no companion can be
    /// made (a read-only folder, a full disk: trying would leave a stub of one behind), and
    /// nobody can be writing the file.
    static func openReadOnly(_ path: String) -> Result<ProgressStore, StoreDiagnosis.Problem> {
        var failure = StoreDiagnosis.Problem.unreadable("it cannot be opened")
        let walHoldsAnswers = (ProgressFile.walSize(path) ?? 0) > 0
        let noCompanions = ProgressFile.cannotHoldCompanions(folder: ProgressFile.folder(of: path))
        let ways = walHoldsAnswers ? [false] : noCompanions ? [true] : [false, true]
        for immutable in ways {
            do {
                let database = try DatabaseQueue(path: immutable ? ProgressFile.immutableURI(path) : path,
                                                 configuration: configuration(readonly: true))
                if let problem = try database.read({ db in try StoreDiagnosis.inspect(db) }) {
                    try? database.close()
                    return .failure(problem)
                }
                return .success(ProgressStore(path: path, database: database, isWritable: false))
            } catch let error as DatabaseError {
                if let problem = StoreDiagnosis.problem(for: error) { return .failure(problem) }
                failure = .unreadable(StoreDiagnosis.words(for: error, path: path))
            } catch {
                failure = .unreadable("\(error)")
            }
        }
        return .failure(failure)
    }
}
