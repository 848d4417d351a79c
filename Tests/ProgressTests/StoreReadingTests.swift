import Foundation
import GRDB
import Testing
@testable import Progress

/// The report's way in: a read-only connection without the check of every page, used only when
/// the file is sound and its card states current; anything else is left to `open(at:)`.
@Suite struct StoreReadingTests {
    let scheduler = CardScheduler()

    @Test func aSoundCurrentFileGivesTheSameHistoryAsOpeningIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/p.sqlite"
        let store = try #require(ProgressStore.open(at: path).store)
        for number in 0..<20 { try store.record(review(puzzle("q\(number % 7)"), number % 3 == 0 ? .wrong : .exact, at: day(Double(number)))) }
        let since = day(10)
        _ = try store.history(scheduler: scheduler)  // derives the card states, as every session's start does
        let opened = try store.history(scheduler: scheduler, reviewsSince: since)
        let read = try #require(ProgressStore.currentHistory(at: path, scheduler: scheduler, reviewsSince: since))
        #expect(read.cards == opened.cards)
        #expect(read.reviews == opened.reviews)
        #expect(read.ratedDates == opened.ratedDates)
        #expect(read.reviewCount == 20)
        #expect(read.reviews.count == 10)
    }

    /// After an import the card states must be derived again, which needs the writable opening.
    @Test func cardStatesToDeriveAgainAreLeftToTheFullOpening() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/p.sqlite"
        let store = try #require(ProgressStore.open(at: path).store)
        try store.merge([review(puzzle("a"), .exact, at: day(0))])
        #expect(ProgressStore.currentHistory(at: path, scheduler: scheduler, reviewsSince: nil) == nil)
        _ = try store.history(scheduler: scheduler)
        #expect(ProgressStore.currentHistory(at: path, scheduler: scheduler, reviewsSince: nil)?.reviewCount == 1)
        // Another retention: derived with other settings.
        #expect(ProgressStore.currentHistory(at: path, scheduler: CardScheduler(desiredRetention: 0.8), reviewsSince: nil) == nil)
    }

    /// Damaged, foreign, empty or not SQLite: no history, and the file untouched (the full
    /// opening sets it aside and says why).
    @Test(arguments: ["damaged", "not SQLite", "empty", "foreign", "missing"])
    func aFileThatIsNotSoundIsLeftAsItIs(kind: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/p.sqlite"
        switch kind {
        case "damaged": try writeDamagedStore(at: path)
        case "not SQLite": try Data("a note\n".utf8).write(to: URL(fileURLWithPath: path))
        case "empty": try Data().write(to: URL(fileURLWithPath: path))
        case "foreign":
            let database = try DatabaseQueue(path: path)
            try database.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
            try database.close()
        default: break
        }
        let before = FileManager.default.contents(atPath: path)
        #expect(ProgressStore.currentHistory(at: path, scheduler: scheduler, reviewsSince: nil) == nil)
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}
