import Foundation

/// What tells that a file changed: its size, modification and status-change times (the latter
/// cannot be set back by a program), inode and device.
struct FileStamp: Codable, Equatable {
    var size: Int64
    var modified: Int64
    var changed: Int64
    var inode: UInt64
    var device: UInt64

    static let unknown = FileStamp(size: -1, modified: 0, changed: 0, inode: 0, device: 0)

    init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
    }

    /// Nil when the file cannot be looked at.
    init?(of path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        changed = Int64(status.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(status.st_ctimespec.tv_nsec)
        #else
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        #endif
        inode = UInt64(status.st_ino)
        device = UInt64(status.st_dev)
    }

    /// The running executable's stamp.
    static func ofExecutable() -> FileStamp? {
        #if os(Linux)
        if let stamp = FileStamp(of: "/proc/self/exe") { return stamp }
        #endif
        return Bundle.main.executablePath.flatMap { FileStamp(of: $0) }
    }

    /// Whether the file last changed long enough before `now` that a second change could not
    /// share its time stamps (file systems keep them in ticks of up to a second or two).
    func isSettled(at now: Date) -> Bool {
        let latest = Double(max(modified, changed)) / 1_000_000_000
        return latest < now.timeIntervalSince1970 - 2
    }
}
