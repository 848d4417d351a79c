import Foundation
import GRDB
import Testing
@testable import Progress

@Suite struct ProgressStoreTests {
    @Test func locationFollowsExplicitThenEnvironmentThenXDG() {
        #expect(ProgressLocation.resolve(explicit: "/x/p.sqlite", environment: ["GCDQUIZ_PROGRESS": "/y"]) == "/x/p.sqlite")
        #expect(ProgressLocation.resolve(explicit: nil, environment: ["GCDQUIZ_PROGRESS": "/y", "HOME": "/h"]) == "/y")
        #expect(ProgressLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/gcdquiz/progress.sqlite")
        #expect(ProgressLocation.resolve(explicit: nil, environment: ["HOME": "/h"]) == "/h/.local/share/gcdquiz/progress.sqlite")
        #expect(ProgressLocation.resolve(explicit: nil, environment: [:]) == nil)
    }

    /// A new file and an empty file are both migrated to the current schema, in WAL mode.
    @Test func migratesFromNothingAndFromAnEmptyFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = folder + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for path in [folder + "/sub/dir/new.sqlite", empty] {
            let opening = ProgressStore.open(at: path)
            #expect(opening.notices.isEmpty)
            let store = try #require(opening.store)
            #expect(store.isWritable)
            let (migrated, journal, application) = try store.database.read { db in
                (try ProgressStore.migrator.hasCompletedMigrations(db), try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                 try Int32.fetchOne(db, sql: "PRAGMA application_id"))
            }
            #expect(migrated)
            #expect(journal == "wal")
            #expect(application == ProgressStore.applicationID)
            #expect(try store.count() == 0)
        }
    }

    /// Every field survives the database, and each answer is there as soon as `record` returns.
    @Test func recordsAndReadsBackEveryField() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        var first = review(puzzle("a", tags: ["deadlocks", "serial-queues"]), .incomplete, at: day(0), hints: 2, answer: "1 2, \"3\"\n| 4")
        first.overruledFrom = .wrong
        first.explains = 1
        first.runs = 3
        first.seed = UInt64.max
        first.code = "print(1)\n"
        first.mode = .interview
        let second = review(puzzle("b"), .exact, at: day(1))
        try store.record(first)
        try store.record(second)
        // Another connection sees both: they are committed.
        let other = try #require(ProgressStore.open(at: folder + "/p.sqlite").store)
        #expect(try other.reviews() == [first, second])
    }

    @Test func notSQLiteIsSetAsideAndAFreshOneStarted() throws {
        try expectSetAside(reason: "is not an SQLite database") { path in
            try Data("this is a note, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test func aDamagedFileIsSetAside() throws {
        try expectSetAside(reason: "is damaged", writeDamagedStore(at:))
    }

    @Test func anotherProgramsDatabaseIsSetAside() throws {
        try expectSetAside(reason: "belongs to another program") { path in
            let database = try DatabaseQueue(path: path)
            try database.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
            try database.close()
        }
    }

    /// A newer gcdquiz's file (a migration this one does not know, or a higher `user_version`)
    /// is neither set aside nor read nor written: the newer gcdquiz still finds it as it left it.
    @Test(arguments: ["INSERT INTO grdb_migrations VALUES ('v99: from the future')", "PRAGMA user_version = 999"])
    func aNewerGcdquizsFileIsLeftAsItIs(change: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"
        let store = try #require(ProgressStore.open(at: path).store)
        try store.record(review(puzzle("a"), .exact, at: day(0)))
        try store.database.write { db in try db.execute(sql: change) }
        try store.database.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let opening = ProgressStore.open(at: path)
        #expect(opening.store == nil)
        #expect(opening.notices.count == 1)
        #expect(opening.notices.first?.contains("was written by a newer gcdquiz") == true, "\(opening.notices)")
        #expect(opening.notices.first?.contains("it is left as it is") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains("set-aside") })
    }

    /// Only an index was damaged: every answer is still in the table, and the fresh file gets
    /// them all (the damaged one is set aside as it is).
    @Test func aDamagedIndexLosesNoAnswer() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"
        let written = try writeStore(at: path, answers: 300)
        let root = try rootPage(of: "review_by_time", in: path)
        try scribble(page: root, of: path)
        let opening = ProgressStore.open(at: path)
        #expect(opening.notices.count == 1)
        #expect(opening.notices.first?.contains("is damaged") == true, "\(opening.notices)")
        #expect(opening.notices.first?.contains("a fresh one started with the 300 answers that could still be read from it") == true, "\(opening.notices)")
        let store = try #require(opening.store)
        #expect(try store.reviews() == written)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("progress.sqlite.set-aside-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(aside.count == 1)
    }

    /// A page of the table itself was damaged: the answers on it are lost, every other one is
    /// copied, unchanged.
    @Test func aDamagedTablePageLosesOnlyItsAnswers() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"
        let written = try writeStore(at: path, answers: 300)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let page = try #require(bytes.firstRange(of: Data("answer 150".utf8))).lowerBound / 4096 + 1
        // The answers whose rows are on that page (a leaf of the table: each id is there once).
        let pageBytes = bytes[(page - 1) * 4096 ..< page * 4096]
        let onThePage = Set(written.filter { pageBytes.firstRange(of: Data($0.id.utf8)) != nil }.map(\.id))
        #expect(onThePage.count > 5 && onThePage.count < 60, "\(onThePage.count)")
        try scribble(page: page, of: path)
        let opening = ProgressStore.open(at: path)
        let store = try #require(opening.store)
        let salvaged = try store.reviews()
        // Every other answer, unchanged, those after the damaged page too.
        #expect(salvaged == written.filter { !onThePage.contains($0.id) })
        #expect(opening.notices.first?.contains("with the \(salvaged.count) answers that could still be read") == true, "\(opening.notices)")
    }

    /// Something other than a regular file at the path is not opened (a FIFO would block for
    /// ever), nor moved, nor replaced.
    @Test(arguments: ["fifo", "folder"])
    func somethingThatIsNotAFileIsRefused(kind: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"
        if kind == "fifo" {
            #expect(mkfifo(path, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let opening = ProgressStore.open(at: path)
        #expect(opening.store == nil)
        #expect(opening.notices == ["the progress path \(path) is \(kind == "fifo" ? "a FIFO (named pipe)" : "a folder"), not a file: this session neither reads nor records progress"])
        #expect(ProgressStore.currentHistory(at: path, scheduler: CardScheduler(), reviewsSince: nil) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["progress.sqlite"])
    }

    /// An empty file found at the path (one another session is not creating this instant) is
    /// said to be empty, and a new history starts in it.
    @Test func anEmptyFileIsSaidToBeEmpty() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        let opening = ProgressStore.open(at: path)
        #expect(opening.notices == ["the progress file \(path) is empty (0 bytes): it holds no answers, so a new history starts in it"])
        let store = try #require(opening.store)
        try store.record(review(puzzle("a"), .exact, at: day(0)))
        #expect(ProgressStore.open(at: path).notices.isEmpty)
    }

    /// A folder that cannot be created: no store, one notice, no crash.
    @Test func anUnwritableLocationRecordsNothingAndSaysSo() throws {
        let opening = ProgressStore.open(at: "/proc/gcdquiz-cannot-be-here/progress.sqlite")
        #expect(opening.store == nil)
        #expect(!opening.isRecording)
        #expect(opening.notices.count == 1)
        #expect(opening.notices.first?.contains("records nothing") == true)
        let recorder = ProgressRecorder(opening)
        #expect(recorder.record(review(puzzle("a"), .exact, at: day(0))) == nil)
    }

    /// A write that fails mid-session is reported once, and the session goes on.
    @Test func aFailingWriteIsReportedOnce() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let opening = ProgressStore.open(at: folder + "/p.sqlite")
        let recorder = ProgressRecorder(opening)
        #expect(recorder.record(review(puzzle("a"), .exact, at: day(0))) == nil)
        try opening.store!.database.write { db in try db.execute(sql: "DROP TABLE review") }
        #expect(recorder.record(review(puzzle("a"), .exact, at: day(1)))?.contains("goes on without recording") == true)
        #expect(recorder.record(review(puzzle("a"), .exact, at: day(2))) == nil)
    }

    /// A store of `answers` answers at `path`, checkpointed into the file itself and closed;
    /// returns them as the log reads them back.
    func writeStore(at path: String, answers: Int) throws -> [Review] {
        let store = try #require(ProgressStore.open(at: path).store)
        for number in 0..<answers {
            try store.record(review(puzzle("q\(number % 40)"), number % 4 == 0 ? .wrong : .exact, at: day(Double(number) / 10), answer: "answer \(number)"))
        }
        let written = try store.reviews()
        try store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try store.database.close()
        return written
    }

    func rootPage(of name: String, in path: String) throws -> Int {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        return try #require(try database.read { db in try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [name]) })
    }

    /// Overwrites page `page` (1-based, 4 KB pages) with a pattern SQLite cannot read.
    func scribble(page: Int, of path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(page - 1) * 4096)
        handle.write(Data(repeating: 0xA5, count: 4096))
        try handle.close()
    }

    /// Opens a file spoiled by `spoil`: it is renamed aside (kept, with a timestamp), the notice
    /// says why, and a fresh store works.
    func expectSetAside(reason: String, sourceLocation: SourceLocation = #_sourceLocation, _ spoil: (String) throws -> Void) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/progress.sqlite"
        try spoil(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let opening = ProgressStore.open(at: path, now: Date(timeIntervalSince1970: 1_782_828_720))  // 2026-06-30 14:12:00 UTC
        #expect(opening.notices.count == 1, sourceLocation: sourceLocation)
        #expect(opening.notices.first?.contains(reason) == true, "\(opening.notices)", sourceLocation: sourceLocation)
        let aside = path + ".set-aside-20260630T141200Z"
        #expect(opening.notices.first?.contains(aside) == true, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == before, sourceLocation: sourceLocation)
        let store = try #require(opening.store, sourceLocation: sourceLocation)
        try store.record(review(puzzle("a"), .exact, at: day(0)))
        #expect(try store.count() == 1, sourceLocation: sourceLocation)
    }
}
