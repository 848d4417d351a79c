import Foundation
import GRDB

/// The outcome of opening the progress file: a store (perhaps a fresh one, perhaps read-only) or
/// none, and what the learner must be told. Opening never fails and never deletes anything.
public struct StoreOpening: Sendable {
    public var store: ProgressStore?
    /// Sentences for the learner: a file set aside, a read-only file, nothing recorded.
    public var notices: [String]

    /// Whether answers can be recorded.
    public var isRecording: Bool { store?.isWritable == true }
}

extension ProgressStore {
    /// Opens (or creates) the progress file at `path` and brings its schema up to date. A file that
    /// is not SQLite, is damaged, belongs to another program, or comes from a newer gcdquiz is
    /// renamed aside with a timestamp and a fresh one started; a location that cannot be written
    /// gives a read-only store or none, with a notice saying so.
    public static func open(at path: String, now: Date = Date()) -> StoreOpening {
        var notices: [String] = []
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                return StoreOpening(store: nil, notices: ["cannot create \(directory) for the progress file (\(reason(error))): this session records nothing"])
            }
        }
        // Two tries: the second after setting a bad file aside.
        for _ in 0..<2 {
            switch attempt(path) {
            case .opened(let store):
                return StoreOpening(store: store, notices: notices)
            case .unusable(let why):
                guard let aside = setAside(path, now: now) else {
                    return StoreOpening(store: nil, notices: notices + ["the progress file \(path) \(why), and it cannot be moved aside: this session records nothing"])
                }
                notices.append("the progress file \(path) \(why); it was moved to \(aside) (nothing was deleted) and a fresh one started")
            case .notWritable(let why):
                if FileManager.default.fileExists(atPath: path), let store = try? openReadOnly(path) {
                    return StoreOpening(store: store, notices: notices + ["the progress file \(path) cannot be written (\(why)): this session records nothing"])
                }
                return StoreOpening(store: nil, notices: notices + ["the progress file \(path) cannot be written (\(why)): this session records nothing"])
            }
        }
        return StoreOpening(store: nil, notices: notices + ["the progress file \(path) cannot be opened: this session records nothing"])
    }

    enum Attempt {
        case opened(ProgressStore)
        /// Not SQLite, damaged, foreign or newer: set it aside.
        case unusable(String)
        /// A read-only file or folder.
        case notWritable(String)
    }

    static func attempt(_ path: String) -> Attempt {
        // Not read with anything but SQLite: closing any other descriptor of the file would drop
        // the locks this process's open connections hold on it (sqlite.org/howtocorrupt.html,
        // 2.2), and another process could then checkpoint and delete the WAL under them. SQLite
        // itself says when a file is not a database.
        if let stamp = FileStamp(of: path), stamp.size > 0 {
            // Look before touching: opening for use turns on WAL, which would change a file that
            // turns out to be someone else's, or one to set aside as it is.
            do {
                let inspection = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
                let problem = try inspection.read { db in try inspect(db) }
                try inspection.close()
                if let problem { return .unusable(problem) }
            } catch {
                return classify(error)
            }
        }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration(readonly: false))
        } catch {
            return classify(error)
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
            return classify(error)
        }
    }

    /// Opens an existing progress file for reading only, for a command that only reports: no
    /// page-by-page check (it reads every page, a tenth of `gcdquiz progress`), since SQLite
    /// reports a damaged page it meets while reading. Nil when the file is not a current gcdquiz
    /// database as it is (foreign, newer, to migrate) or cannot be opened: then `open(at:)`, which
    /// checks every page and sets a bad file aside, is the way; so it is when reading fails.
    static func openForReading(at path: String) -> ProgressStore? {
        guard let stamp = FileStamp(of: path), stamp.size > 0,
            let database = try? DatabaseQueue(path: path, configuration: configuration(readonly: true)),
            (try? database.read({ db in try inspect(db, everyPage: false) == nil ? try migrator.hasCompletedMigrations(db) : false })) == true
        else { return nil }
        return ProgressStore(path: path, database: database, isWritable: false)
    }

    /// The history from an existing file opened for reading only (`openForReading`), when its
    /// card states agree with its log; nil otherwise, or when reading meets any error: the caller
    /// then opens the file with `open(at:)`, which checks it whole and sets a bad one aside. The
    /// connection is closed when this returns.
    public static func currentHistory(at path: String, scheduler: CardScheduler, reviewsSince: Date?) -> ProgressHistory? {
        guard let store = openForReading(at: path) else { return nil }
        defer { try? store.database.close() }
        return try? store.currentHistory(scheduler: scheduler, reviewsSince: reviewsSince)
    }

    /// Why an existing file cannot be used as it is, or nil when it can; `everyPage` reads the
    /// whole file for damage first.
    static func inspect(_ db: Database, everyPage: Bool = true) throws -> String? {
        if everyPage {
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "ok"
            if check != "ok" { return "is damaged (\(check))" }
        }
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        // A file another session is creating right now has GRDB's bookkeeping table before the
        // first migration commits: that is a fresh file, not someone else's.
        let fresh = tables.allSatisfy { $0 == "grdb_migrations" }
        if application != applicationID && (application != 0 || !fresh) {
            return "belongs to another program (it has no gcdquiz review log)"
        }
        if !fresh, try migrator.hasBeenSuperseded(db) {
            return "was written by a newer version of gcdquiz"
        }
        return nil
    }

    static func classify(_ error: Error) -> Attempt {
        guard let error = error as? DatabaseError else { return .unusable("cannot be read (\(error))") }
        switch error.resultCode.primaryResultCode {
        case .SQLITE_NOTADB: return .unusable("is not an SQLite database")
        case .SQLITE_CORRUPT: return .unusable("is damaged (\(error.message ?? "corrupt"))")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_IOERR:
            return .notWritable(error.message ?? "\(error.resultCode)")
        default: return .unusable("cannot be read (\(error.message ?? "\(error.resultCode)"))")
        }
    }

    static func openReadOnly(_ path: String) throws -> ProgressStore? {
        let database = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
        guard try database.read({ db in try inspect(db) }) == nil,
            try database.read({ db in try migrator.hasCompletedMigrations(db) })
        else { return nil }
        return ProgressStore(path: path, database: database, isWritable: false)
    }

    static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.journalMode = .wal
        // Another session may be committing: wait for it rather than fail.
        configuration.busyMode = .timeout(10)
        configuration.label = "progress"
        return configuration
    }

    /// Renames the file and its WAL companions to `path.set-aside-YYYYMMDDTHHMMSSZ`. Returns the
    /// new name, or nil when the file cannot be moved.
    static func setAside(_ path: String, now: Date) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var aside = path + ".set-aside-" + formatter.string(from: now)
        var counter = 1
        while FileManager.default.fileExists(atPath: aside) {
            counter += 1
            aside = path + ".set-aside-" + formatter.string(from: now) + "-\(counter)"
        }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: aside)
        } catch {
            return nil
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        return aside
    }

    static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
