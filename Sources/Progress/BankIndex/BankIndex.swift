import Foundation
import Quiz

/// What scheduling and the report need to know of a question: its card, level and topics, not
/// its text or code. A question of the bank is one; so is its line in the `BankIndex`.
public protocol ScheduledQuestion: Sendable {
    var id: String { get }
    /// 1 to 3: new questions come easiest first.
    var level: Int { get }
    var tags: [String] { get }
    /// The question as it is worded now: its id and content hash.
    var card: CardKey { get }
}

extension Question: ScheduledQuestion {
    public var card: CardKey { CardKey(self) }
}

/// The bank as `gcdquiz progress` needs it: per question its id, kind, level, topics and content
/// hash. Parsing every question file costs most of the report, so the entries are cached per file
/// (`BankIndexCache`) and a file is parsed again only when it changed since.
public struct BankIndex: Sendable {
    public struct Entry: ScheduledQuestion, Codable, Hashable {
        public var id: String
        public var kind: Question.Kind
        public var level: Int
        public var tags: [String]
        public var contentHash: String

        public init(_ question: Question) {
            id = question.id
            kind = question.kind
            level = question.level
            tags = question.tags
            contentHash = ContentHash.of(question)
        }

        public var card: CardKey { CardKey(questionID: id, contentHash: contentHash) }
    }

    /// The bank's questions in bank order, as `BankLoader` finds them: files with a problem are
    /// left out, and of two files with one id the first in path order counts.
    public var entries: [Entry]
    /// How many files were parsed because the cache had nothing current for them.
    public var parsedFiles: Int

    /// The index of the bank at `root`, using and refreshing the cache in `cacheFolder` (none:
    /// parse everything). A cache that is missing, damaged, written by another build or for
    /// another bank, or that cannot be written, only costs time: the entries are always those of
    /// the files as they are now. `now` is for tests (a file changed within the last seconds is
    /// not cached, as its time stamp could miss a second change).
    public static func load(root: String, cacheFolder: String?, now: Date = Date()) -> BankIndex {
        let cacheFile = cacheFolder.map { BankIndexCache.file(in: $0, root: root) }
        let program = FileStamp.ofExecutable()
        let cached = program.flatMap { program in cacheFile.flatMap { BankIndexCache.read($0, root: root, program: program) } }
        var fresh = BankIndexCache(root: root, program: program ?? FileStamp.unknown)
        var entries: [Entry] = []
        var ids: Set<String> = []
        var parsed = 0
        for file in BankLoader.questionFiles([root]) {
            guard let stamp = FileStamp(of: file) else { continue }  // gone or unreadable: BankLoader skips it too
            let entry: Entry?
            if let known = cached?.files[file], known.stamp == stamp {
                entry = known.entry
                fresh.files[file] = known
            } else {
                parsed += 1
                entry = BankLoader.read(file).question.map(Entry.init)
                if stamp.isSettled(at: now) { fresh.files[file] = BankIndexCache.CachedFile(stamp: stamp, entry: entry) }
            }
            if let entry, ids.insert(entry.id).inserted { entries.append(entry) }
        }
        if let cacheFile, program != nil, fresh.files != cached?.files {
            fresh.write(to: cacheFile)
        }
        return BankIndex(entries: entries, parsedFiles: parsed)
    }

    /// `$XDG_CACHE_HOME/gcdquiz`, else `~/.cache/gcdquiz`; nil when neither is set.
    public static func cacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache + "/gcdquiz" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/gcdquiz" }
        return nil
    }
}
