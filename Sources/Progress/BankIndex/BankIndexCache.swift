import Foundation

/// The bank index on disk: each question file's entry with the file's stamp (size, times, inode)
/// when it was parsed. One JSON file per bank, behind a first line with a checksum of the rest,
/// so that a truncated or scribbled cache is noticed and rebuilt rather than believed.
struct BankIndexCache: Codable, Equatable {
    /// Bumped whenever an entry's meaning or this file's shape changes.
    static let format = 1

    struct CachedFile: Codable, Equatable {
        var stamp: FileStamp
        /// Nil: the file has a problem and yields no question.
        var entry: BankIndex.Entry?
    }

    var format = Self.format
    var root: String
    /// The gcdquiz executable that wrote it: another build may parse or hash differently.
    var program: FileStamp
    var files: [String: CachedFile] = [:]

    init(root: String, program: FileStamp) {
        self.root = root
        self.program = program
    }

    static let magic = "gcdquiz bank index "

    /// `bank-index-HASH.json`, HASH naming the bank's folder.
    static func file(in folder: String, root: String) -> String {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        return folder + "/bank-index-" + ContentHash.hash([absolute]) + ".json"
    }

    /// The cache in `file` when it is intact and was written by this program for this bank.
    static func read(_ file: String, root: String, program: FileStamp) -> BankIndexCache? {
        guard let data = FileManager.default.contents(atPath: file),
            let newline = data.firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        let body = data[data.index(after: newline)...]
        guard String(decoding: data[..<newline], as: UTF8.self) == magic + ContentHash.hash(bytes: body),
            let cache = try? JSONDecoder().decode(BankIndexCache.self, from: body),
            cache.format == Self.format, cache.root == root, cache.program == program
        else { return nil }
        return cache
    }

    /// Writes the cache whole or not at all (a temporary file renamed over the old one); a folder
    /// that cannot be written is no error: the next run parses again.
    func write(to file: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let body = try? encoder.encode(self) else { return }
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = file + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((Self.magic + ContentHash.hash(bytes: body) + "\n").utf8) + body)
        else { return }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }
}
