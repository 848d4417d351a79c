import Foundation

/// The drill's history file, in libedit's format (`_HiStOrY_V2_`, one entry a line, blanks and
/// backslashes escaped), kept safe from whatever is at its path and from other sessions:
///
/// - only a regular file is read or written (a FIFO, a device such as /dev/zero or a directory
///   is refused without opening it for long: opens are non-blocking);
/// - only its last `readLimit` bytes are read, and entries longer than `entryLimit` are left out;
/// - each answer is appended under an exclusive lock (O_APPEND), never the whole file rewritten,
///   so that sessions running side by side keep each other's entries;
/// - past `compactionThreshold` bytes, the appending session keeps the last `entryLimit`
///   entries, in place under the same lock.
struct HistoryFile {
    let path: String

    static let cookie = "_HiStOrY_V2_"
    /// As many entries as libedit's in-memory history holds.
    static let entryLimit = 2000
    static let readLimit = 1 << 20
    static let compactionThreshold = 2 << 20
    static let maximumEntryLength = 4096

    /// Why the history cannot be kept, in words for a dim line.
    struct Problem: Error, Equatable {
        var reason: String
    }

    /// The entries, oldest first; none when the file does not exist yet.
    func load() -> Result<[String], Problem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            return errno == ENOENT ? .success([]) : .failure(problem(errno))
        }
        defer { close(descriptor) }
        return Result {
            let size = try checkedRegularFile(descriptor)
            try lock(descriptor, LOCK_SH)
            defer { flock(descriptor, LOCK_UN) }
            return Self.entries(try readTail(descriptor, size: size))
        }.mapError { $0 as? Problem ?? Problem(reason: "\($0)") }
    }

    /// Adds one entry at the end of the file, creating it (and its folder) when missing.
    func append(_ entry: String) -> Result<Void, Problem> {
        let line = Self.encoded(entry)
        guard line.utf8.count <= Self.maximumEntryLength else { return .success(()) }  // never read back
        // When this fails, opening the file says why.
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(problem(errno)) }
        defer { close(descriptor) }
        return Result {
            _ = try checkedRegularFile(descriptor)
            try lock(descriptor, LOCK_EX)
            defer { flock(descriptor, LOCK_UN) }
            // The size under the lock: another session may have appended since the open.
            let size = try checkedRegularFile(descriptor)
            var text = ""
            if size > Self.compactionThreshold {
                let kept = Self.entries(try readTail(descriptor, size: size)).suffix(Self.entryLimit - 1)
                guard ftruncate(descriptor, 0) == 0 else { throw problem(errno) }
                text = Self.cookie + "\n" + kept.map { Self.encoded($0) + "\n" }.joined()
            } else if size == 0 {
                text = Self.cookie + "\n"
            } else if try read(descriptor, from: size - 1, to: size) != Data("\n".utf8) {
                text = "\n"  // a last line cut short (a crash, another program): do not join it
            }
            text += line + "\n"
            try writeFully(descriptor, Data(text.utf8))
        }.mapError { $0 as? Problem ?? Problem(reason: "\($0)") }
    }

    // MARK: The file

    private func problem(_ error: Int32) -> Problem {
        Problem(reason: "\(path): \(String(cString: strerror(error)))")
    }

    /// The file's size, when it is a regular file.
    private func checkedRegularFile(_ descriptor: Int32) throws -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw problem(errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Problem(reason: "\(path) is not a regular file") }
        return Int(status.st_size)
    }

    /// Waits up to two seconds for another session's lock: a lock held for longer is not a
    /// session writing one line, and the drill must not hang on it.
    private func lock(_ descriptor: Int32, _ operation: Int32) throws {
        for _ in 0..<200 {
            if flock(descriptor, operation | LOCK_NB) == 0 { return }
            guard errno == EWOULDBLOCK || errno == EINTR else { throw problem(errno) }
            usleep(10_000)
        }
        throw Problem(reason: "\(path) is locked by another program")
    }

    /// The whole lines among the last `readLimit` bytes of a file of `size` bytes.
    private func readTail(_ descriptor: Int32, size: Int) throws -> Data {
        let start = max(0, size - Self.readLimit)
        let data = try read(descriptor, from: start, to: size)
        guard start > 0 else { return data }
        // Started in the middle of a line: that line is not whole.
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return Data() }
        return data[(newline + 1)...]
    }

    private func read(_ descriptor: Int32, from start: Int, to end: Int) throws -> Data {
        var data = Data(count: end - start)
        var offset = 0
        while offset < data.count {
            let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(start + offset)) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw problem(errno) }
            if count == 0 { break }  // shorter than it was a moment ago
            offset += count
        }
        data.count = offset
        return data
    }

    private func writeFully(_ descriptor: Int32, _ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let count = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { throw problem(count < 0 ? errno : EIO) }
            offset += count
        }
    }

    // MARK: The format

    /// The entries in a piece of the file, oldest first, without the cookie and without lines
    /// too long to be answers.
    static func entries(_ data: Data) -> [String] {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        let entries = lines.lazy
            .filter { $0.count <= maximumEntryLength }
            .map { decoded($0) }
            .filter { !$0.isEmpty && $0 != cookie }
        return Array(entries.suffix(entryLimit))
    }

    /// An entry as libedit's `strvis(…, VIS_WHITE)` would write it, close enough for its
    /// `strunvis` to read back: blanks, controls and backslashes escaped, the rest as UTF-8.
    static func encoded(_ entry: String) -> String {
        var result = ""
        for scalar in entry.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case _ where scalar.value <= 0x20 || scalar.value == 0x7F:
                result += "\\" + String(scalar.value, radix: 8).leftPadded(to: 3)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// One line of the file as an entry: undoes `strvis`'s escapes (`\040`, `\\`, `\^I`,
    /// `\M-C`, C-style `\n`, `\s`…); anything else is kept as written.
    static func decoded<Bytes: Collection<UInt8>>(_ line: Bytes) -> String {
        var bytes: [UInt8] = []
        var input = Array(line)[...]
        func isOctal(_ byte: UInt8?) -> Bool { byte.map { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) } ?? false }
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.first else {
                bytes.append(byte)
                continue
            }
            input.removeFirst()
            switch next {
            case _ where isOctal(next):
                var value = Int(next - UInt8(ascii: "0"))
                for _ in 0..<2 where isOctal(input.first) {
                    value = value * 8 + Int(input.removeFirst() - UInt8(ascii: "0"))
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "M") where input.first == UInt8(ascii: "-") && input.count >= 2:
                input.removeFirst()
                bytes.append(input.removeFirst() | 0x80)
            case UInt8(ascii: "M") where input.first == UInt8(ascii: "^") && input.count >= 2:
                input.removeFirst()
                bytes.append(control(input.removeFirst()) | 0x80)
            case UInt8(ascii: "^") where !input.isEmpty:
                bytes.append(control(input.removeFirst()))
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "s"): bytes.append(0x20)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "a"): bytes.append(0x07)
            case UInt8(ascii: "v"): bytes.append(0x0B)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "E"): bytes.append(0x1B)
            default: bytes.append(next)  // `\\` and anything unknown: the character itself
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `^X` in vis notation: the control character for X, and `^?` for DEL.
    private static func control(_ byte: UInt8) -> UInt8 {
        byte == UInt8(ascii: "?") ? 0x7F : byte & 0x1F
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
