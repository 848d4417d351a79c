import Foundation

/// The progress path as the file system has it, looked at before SQLite touches it: with stat(2)
/// and statvfs(2), which never block (opening a FIFO for reading waits for a writer for ever) and
/// open no descriptor (closing one would drop the locks this process's connections hold on the
/// file: sqlite.org/howtocorrupt.html, 2.2).
enum ProgressFile {
    enum Kind: Equatable {
        case missing
        case file(size: Int64)
        /// Something that is not a regular file (a FIFO, a folder, a device, a socket), or a path
        /// that cannot be looked at: SQLite must not open it.
        case other(String)
    }

    static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = errno
            return error == ENOENT ? .missing : .other("a path that cannot be looked at (\(String(cString: strerror(error))))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int64(status.st_size))
        case S_IFIFO: return .other("a FIFO (named pipe)")
        case S_IFDIR: return .other("a folder")
        case S_IFCHR: return .other("a character device")
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a regular file")
        }
    }

    /// The size of the WAL beside the file: answers committed but not yet copied into the file
    /// itself live there. Nil when there is none.
    static func walSize(_ path: String) -> Int64? {
        guard case .file(let size) = kind(of: path + "-wal") else { return nil }
        return size
    }

    /// A file of no bytes with no WAL holding anything beside it, last modified before the last
    /// two seconds: a database with no answers, whatever it held before. A session creating the
    /// file leaves it empty for an instant (until SQLite writes its first page), but not for
    /// seconds.
    static func isEmpty(_ path: String, at now: Date) -> Bool {
        guard kind(of: path) == .file(size: 0), (walSize(path) ?? 0) == 0, let stamp = FileStamp(of: path) else { return false }
        return Double(stamp.modified) / 1e9 < now.timeIntervalSince1970 - 2
    }

    /// Below this much free space a session does not start writing: SQLite needs room for the
    /// WAL and its index (32 KB) before the first answer, and a write that fails half-way
    /// leaves those companions behind.
    static let minimumFreeBytes: UInt64 = 64 * 1024

    /// Whether the file system holding `folder` has (almost) no room left.
    static func isFull(folder: String) -> Bool {
        guard let free = freeBytes(folder: folder) else { return false }
        return free < minimumFreeBytes
    }

    /// The bytes this process may still write in `folder`'s file system (root may use the
    /// blocks kept for it).
    static func freeBytes(folder: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return nil }
        let blocks = geteuid() == 0 ? UInt64(info.f_bfree) : UInt64(info.f_bavail)
        return blocks * UInt64(info.f_frsize)
    }

    /// Whether `folder` is on a file system mounted read-only.
    static func isReadOnlyFileSystem(folder: String) -> Bool {
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Whether SQLite could not make the WAL's companion files beside a file in `folder` (its
    /// file system is full or read-only, or the folder cannot be written): trying leaves a stub
    /// of one behind.
    static func cannotHoldCompanions(folder: String) -> Bool {
        isFull(folder: folder) || isReadOnlyFileSystem(folder: folder) || access(folder.isEmpty ? "." : folder, W_OK) != 0
    }

    static func folder(of path: String) -> String {
        (path as NSString).deletingLastPathComponent
    }

    /// An SQLite URI that opens `path` as immutable: read without locks and without the WAL's
    /// companions, which a read-only folder or a full disk cannot hold. Only for a file whose
    /// WAL holds nothing (the URI reads the file alone) and that nobody can be writing.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // "file:" followed by a path that starts with "//" would name a host.
        if escaped.hasPrefix("//") { escaped = "/" + escaped.drop { $0 == "/" } }
        return "file:" + escaped + "?immutable=1"
    }
}
