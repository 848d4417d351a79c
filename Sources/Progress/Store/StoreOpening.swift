import Foundation
import GRDB

/// The outcome of opening the progress file: a store (perhaps a fresh one, perhaps read-only) or
/// none, and what the learner must be told. Opening never fails and never deletes anything.
public struct StoreOpening: Sendable {
    public var store: ProgressStore?
    /// Sentences for the learner: a file set aside (and how many answers were saved from it), a
    /// file that can only be read, nothing recorded.
    public var notices: [String]

    /// Whether answers can be recorded.
    public var isRecording: Bool { store?.isWritable == true }
}

extension ProgressStore {
    /// Opens (or creates) the progress file at `path` and brings its schema up to date.
    ///
    /// Only a file known to be bad is set aside (renamed with a timestamp, never deleted): one
    /// that is not SQLite, is damaged (the answers that can still be read are copied into the
    /// fresh one), or is another program's. A file this gcdquiz cannot write now (a read-only
    /// folder, a full disk, a lock, a disk error) is read as it is; one from a newer gcdquiz is
    /// left alone; a path that is not a regular file (a FIFO, a folder) is not opened at all.
    public static func open(at path: String, now: Date = Date()) -> StoreOpening {
        var notices: [String] = []
        let folder = ProgressFile.folder(of: path)
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                return StoreOpening(store: nil, notices: ["cannot create \(folder) for the progress file (\(reason(error))): this session records nothing"])
            }
        }
        switch ProgressFile.kind(of: path) {
        case .other(let what):
            return StoreOpening(store: nil, notices: ["the progress path \(path) is \(what), not a file: this session neither reads nor records progress"])
        case .missing:
            if ProgressFile.isFull(folder: folder) {
                return StoreOpening(store: nil, notices: ["cannot start the progress file \(path): the disk is full, so this session records nothing"])
            }
        case .file:
            if ProgressFile.isEmpty(path, at: now) {
                notices.append("the progress file \(path) is empty (0 bytes): it holds no answers, so a new history starts in it")
            }
            if ProgressFile.isFull(folder: folder) {
                return readOnly(path, because: "the disk is full", notices: notices)
            }
        }
        var movedAside: (path: String, why: String, salvage: Bool)?
        // Two tries: the second after setting a bad file aside.
        for _ in 0..<2 {
            switch attemptWaitingForLocks(path) {
            case .opened(let store):
                if let movedAside {
                    notices.append(setAsideNotice(path, movedAside, fresh: store))
                }
                return StoreOpening(store: store, notices: notices)
            case .setAside(let why, let salvage):
                guard let aside = setAside(path, now: now) else {
                    return StoreOpening(store: nil, notices: notices + ["the progress file \(path) \(why), and it cannot be moved aside: this session records nothing"])
                }
                movedAside = (aside, why, salvage)
            case .refused(let why):
                return StoreOpening(store: nil, notices: notices + [
                    "the progress file \(path) \(why): it is left as it is, and this session neither reads nor records progress"])
            case .unavailable(let why), .busy(let why):
                if let movedAside {
                    return StoreOpening(store: nil, notices: notices + [
                        "the progress file \(path) \(movedAside.why); it was moved to \(movedAside.path) (nothing was deleted), but a fresh one cannot be started (\(why)): this session records nothing"])
                }
                return readOnly(path, because: why, notices: notices)
            }
        }
        return StoreOpening(store: nil, notices: notices + ["the progress file \(path) cannot be opened: this session records nothing"])
    }

    /// One try at opening, tried again while another session holds a lock SQLite does not wait
    /// for (SQLite answers "database is locked" at once when two connections would otherwise
    /// deadlock, as two sessions starting together do): up to about 20 s, then read-only.
    static func attemptWaitingForLocks(_ path: String) -> StoreDiagnosis.Attempt {
        var pause: UInt32 = 20_000
        var waited: UInt32 = 0
        while true {
            let attempt = attempt(path)
            guard case .busy = attempt, waited < 20_000_000 else { return attempt }
            usleep(pause)
            waited += pause
            pause = min(pause * 2, 1_000_000)
        }
    }

    /// What the learner is told about a file set aside, once the fresh one is open: for a
    /// damaged file, the answers that could still be read are copied into the fresh one first.
    static func setAsideNotice(_ path: String, _ aside: (path: String, why: String, salvage: Bool), fresh: ProgressStore) -> String {
        let moved = "the progress file \(path) \(aside.why); it was moved to \(aside.path) (nothing was deleted) and a fresh one started"
        guard aside.salvage else { return moved }
        do {
            let copied = try fresh.salvage(from: aside.path)
            return moved + (copied == 0 ? ": no answer could be read from it"
                : " with the \(copied) answer\(copied == 1 ? "" : "s") that could still be read from it")
        } catch {
            return moved + ", but the answers that could still be read from it could not be copied into it (\(reason(error)))"
        }
    }

    /// The file opened for reading only, because it cannot be written (`why`): the session shows
    /// what it holds and records nothing.
    static func readOnly(_ path: String, because why: String, notices: [String]) -> StoreOpening {
        let hasAnswers: Bool
        if case .file(let size) = ProgressFile.kind(of: path) { hasAnswers = size > 0 || (ProgressFile.walSize(path) ?? 0) > 0 } else { hasAnswers = false }
        guard hasAnswers else {
            return StoreOpening(store: nil, notices: notices + ["the progress file \(path) cannot be written (\(why)): this session records nothing"])
        }
        switch openReadOnly(path) {
        case .success(let store):
            return StoreOpening(store: store, notices: notices + [
                "the progress file \(path) cannot be written (\(why)): this session shows what it holds but records nothing"])
        case .failure(let problem):
            return StoreOpening(store: nil, notices: notices + [
                "the progress file \(path) cannot be written (\(why)) and \(problem.words): this session records nothing"])
        }
    }

    /// Opens an existing progress file for reading only, for a command that only reports: no
    /// page-by-page check (it reads every page, a tenth of `gcdquiz progress`), since SQLite
    /// reports a damaged page it meets while reading. Nil when the file is not a current gcdquiz
    /// database as it is (foreign, newer, to migrate), cannot be opened, or sits where the WAL's
    /// companions cannot be made: then `open(at:)`, which checks every page, sets a bad file
    /// aside and reads one it cannot write, is the way; so it is when reading fails.
    static func openForReading(at path: String) -> ProgressStore? {
        guard case .file(let size) = ProgressFile.kind(of: path), size > 0,
            !ProgressFile.cannotHoldCompanions(folder: ProgressFile.folder(of: path)),
            let database = try? DatabaseQueue(path: path, configuration: configuration(readonly: true)),
            (try? database.read({ db in try StoreDiagnosis.inspect(db, everyPage: false) == nil ? try migrator.hasCompletedMigrations(db) : false })) == true
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

    /// An error in the learner's words; with the file's `path`, a full disk or a read-only folder
    /// is named as such.
    static func reason(_ error: Error, path: String? = nil) -> String {
        if let error = error as? DatabaseError { return StoreDiagnosis.words(for: error, path: path) }
        return (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
