import Foundation
import GRDB
import Quiz
import Testing
@testable import Progress

/// A fresh folder for a test's files.
func temporaryFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-progress-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

/// A question of the bank for tests: a trace puzzle with `code`.
func puzzle(_ id: String, tags: [String] = ["serial-queues"], code: String = "print(1)", level: Int = 1) -> Question {
    Question(id: id, kind: .trace, title: id, level: level, tags: tags, source: "test", explanation: "x", code: code, file: "\(id).yaml")
}

/// 2026-03-02 09:00 UTC plus `days`.
func day(_ days: Double, hour: Double = 0) -> Date {
    Date(timeIntervalSince1970: 1_772_442_000 + days * 86_400 + hour * 3600)
}

func review(_ question: Question, _ grade: Grade, at date: Date, hints: Int = 0, answer: String = "1") -> Review {
    var review = Review(of: question, grade: grade, answer: answer, seconds: 12.5, mode: .drill, at: date, seed: 42)
    review.hints = hints
    return review
}

var utc: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
}

/// A progress file of 200 answers whose pages after the first are scribbled over (the header
/// kept): SQLite opens it and finds the damage when it reads.
func writeDamagedStore(at path: String) throws {
    let store = try #require(ProgressStore.open(at: path).store)
    for number in 0..<200 { try store.record(review(puzzle("q\(number)"), .exact, at: day(Double(number)))) }
    try store.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    try store.database.close()
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: 4096)
    handle.write(Data(repeating: 0xA5, count: Int(size) - 4096))
    try handle.close()
}
