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

    @Test func aNewerSchemaIsSetAside() throws {
        try expectSetAside(reason: "newer version of gcdquiz") { path in
            let store = try #require(ProgressStore.open(at: path).store)
            try store.database.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
            try store.database.close()
        }
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
