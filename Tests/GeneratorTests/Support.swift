import Foundation
import Generator
import Quiz

/// The repository's bank and a generator over it, shared by the suites (loading and exploring
/// the bank once).
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let bank = BankLoader.load(paths: [root.appendingPathComponent("Questions").path])
    static let generator = PuzzleGenerator(bank: bank)
}
