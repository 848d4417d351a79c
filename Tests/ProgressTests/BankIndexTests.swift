import Foundation
import Quiz
import Testing
@testable import Progress

/// The bank index must give what parsing the bank gives, whatever state its cache is in: fresh,
/// stale, damaged, or impossible to write.
@Suite struct BankIndexTests {
    /// Later than every file a test writes by more than the settling time, so that the index
    /// caches them (a file changed in the last seconds is parsed again each time).
    let later = Date().addingTimeInterval(60)

    @Test func theRealBankIndexedAgreesWithTheBankLoaderAndIsReadFromTheCacheNextTime() throws {
        let cache = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let root = packageRoot + "/Questions"
        let bank = BankLoader.load(paths: [root], compilation: .onDemand)
        let first = BankIndex.load(root: root, cacheFolder: cache, now: later)
        #expect(first.entries == bank.questions.map(BankIndex.Entry.init))
        #expect(first.parsedFiles == BankLoader.questionFiles([root]).count)
        let second = BankIndex.load(root: root, cacheFolder: cache, now: later)
        #expect(second.entries == first.entries)
        #expect(second.parsedFiles == 0)
    }

    @Test func anEditedQuestionShowsItsNewHashEvenWithItsSizeAndTimeKept() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a", code: "print(1)")
        let before = try #require(bank.index().entries.first)
        let modified = try FileManager.default.attributesOfItem(atPath: bank.file("a"))[.modificationDate]
        try bank.write("a", code: "print(2)")  // the same size
        try FileManager.default.setAttributes([.modificationDate: modified!], ofItemAtPath: bank.file("a"))
        let index = bank.index()
        let after = try #require(index.entries.first)
        #expect(index.parsedFiles == 1)
        #expect(after.contentHash != before.contentHash)
        #expect(after.contentHash == ContentHash.of(puzzle("a", code: "print(2)")))
    }

    @Test func aStaleEntryIsParsedAgainAndTheCacheRefreshed() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a", level: 1)
        try bank.write("b", level: 1)
        #expect(bank.index().parsedFiles == 2)
        try bank.write("b", level: 3, tags: ["deadlocks"])
        let index = bank.index()
        #expect(index.parsedFiles == 1)
        #expect(index.entries.map(\.level) == [1, 3])
        #expect(index.entries.last?.tags == ["deadlocks"])
        #expect(bank.index().parsedFiles == 0)
    }

    @Test func deletedAndAddedFilesAreSeen() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a")
        try bank.write("b")
        _ = bank.index()
        try FileManager.default.removeItem(atPath: bank.file("a"))
        try bank.write("c")
        let index = bank.index()
        #expect(index.entries.map(\.id) == ["b", "c"])
        #expect(index.parsedFiles == 1)
    }

    @Test func aBrokenFileGivesNoEntryUntilItIsMended() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a")
        try Data("id: b\ntitle: [unclosed\n".utf8).write(to: URL(fileURLWithPath: bank.file("b")))
        #expect(bank.index().entries.map(\.id) == ["a"])
        #expect(bank.index().parsedFiles == 0)  // the problem is remembered too
        try bank.write("b")
        #expect(bank.index().entries.map(\.id) == ["a", "b"])
    }

    @Test func aDuplicateIDCountsOnceAsInTheBank() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a", level: 1)
        try bank.write("a", level: 2, name: "z-copy")
        #expect(bank.index().entries.map(\.level) == [1])
        #expect(bank.index().entries.map(\.level) == [1])
    }

    @Test(arguments: ["empty", "garbage", "truncated", "scribbled", "wrong checksum", "other program"])
    func aDamagedCacheIsRebuiltNeverBelieved(damage: String) throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a", code: "print(1)")
        try bank.write("b", code: "print(2)")
        _ = bank.index()
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: bank.cache).first { $0.hasPrefix("bank-index-") })
        let path = bank.cache + "/" + file
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        switch damage {
        case "empty": data = Data()
        case "garbage": data = Data("not a cache\n{".utf8)
        case "truncated": data = data.prefix(data.count / 2)
        // Valid JSON with a wrong hash: only the checksum can tell.
        case "scribbled": data = Data(text.replacingOccurrences(of: ContentHash.of(puzzle("a", code: "print(1)")), with: "0123456789abcdef").utf8)
        case "wrong checksum": data = Data(("gcdquiz bank index 0000000000000000\n" + text.drop { $0 != "\n" }.dropFirst()).utf8)
        case "other program":
            // Written by another build of gcdquiz: intact, but not to be trusted.
            let program = try #require(FileStamp.ofExecutable())
            var cache = try #require(BankIndexCache.read(path, root: bank.root, program: program))
            cache.program.size += 1
            cache.write(to: path)
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        default: Issue.record("unknown damage \(damage)")
        }
        try data.write(to: URL(fileURLWithPath: path))
        let index = bank.index()
        #expect(index.parsedFiles == 2)
        #expect(index.entries.map(\.contentHash) == [ContentHash.of(puzzle("a", code: "print(1)")), ContentHash.of(puzzle("b", code: "print(2)"))])
        #expect(bank.index().parsedFiles == 0)  // rewritten whole
    }

    @Test func anUnwritableCacheFolderStillGivesTheRightEntries() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a")
        // A folder under a regular file can never be created, not even by root.
        let blocker = bank.cache + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        for _ in 0..<2 {
            let index = BankIndex.load(root: bank.root, cacheFolder: blocker + "/gcdquiz", now: later)
            #expect(index.entries.map(\.id) == ["a"])
            #expect(index.parsedFiles == 1)
        }
        let none = BankIndex.load(root: bank.root, cacheFolder: nil, now: later)
        #expect(none.entries.map(\.id) == ["a"])
    }

    @Test func aFileChangedInTheLastSecondsIsNotCached() throws {
        let bank = try TestBank()
        defer { bank.remove() }
        try bank.write("a")
        #expect(BankIndex.load(root: bank.root, cacheFolder: bank.cache).parsedFiles == 1)
        #expect(BankIndex.load(root: bank.root, cacheFolder: bank.cache).parsedFiles == 1)
        #expect(bank.index().parsedFiles == 1)
        #expect(bank.index().parsedFiles == 0)
    }

    @Test func cacheFolderFollowsXDG() {
        #expect(BankIndex.cacheFolder(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/gcdquiz")
        #expect(BankIndex.cacheFolder(environment: ["HOME": "/h"]) == "/h/.cache/gcdquiz")
        #expect(BankIndex.cacheFolder(environment: [:]) == nil)
    }

    var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// A bank folder and a cache folder of a test's own.
    struct TestBank {
        let root: String
        let cache: String
        let later = Date().addingTimeInterval(60)

        init() throws {
            let folder = try temporaryFolder()
            root = folder + "/Questions"
            cache = folder + "/cache"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        }

        func file(_ name: String) -> String { root + "/\(name).yaml" }

        func write(_ id: String, code: String = "print(1)", level: Int = 1, tags: [String] = ["serial-queues"], name: String? = nil) throws {
            let text = """
                id: \(id)
                title: \(id)
                level: \(level)
                tags: [\(tags.joined(separator: ", "))]
                source: test
                explanation: x
                code: |
                  \(code)

                """
            try Data(text.utf8).write(to: URL(fileURLWithPath: file(name ?? id)))
        }

        func index() -> BankIndex { BankIndex.load(root: root, cacheFolder: cache, now: later) }

        func remove() { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
    }
}
