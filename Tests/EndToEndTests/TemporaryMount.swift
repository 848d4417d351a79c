import Foundation
import Testing

/// A small tmpfs of a test's own, for the faults a real disk has: filled to the last block, or
/// remounted read-only. Mounting needs root (CI runs as root); `isPermitted` says whether this
/// machine lets the tests mount, and the tests that need it are skipped with a message when not.
struct TemporaryMount {
    let path: String

    static let isPermitted: Bool = {
        guard let mount = try? TemporaryMount(kilobytes: 64) else { return false }
        mount.unmount()
        return true
    }()

    static let skipMessage: Comment = "mounting a tmpfs is not permitted here (it needs root): the full-disk and read-only-folder tests are skipped"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(kilobytes: Int) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k,mode=0777") == 0 else {
            let error = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: path)
            throw Failure(description: "mount tmpfs at \(path): \(error)")
        }
    }

    /// Fills the file system with a file of zeros until only `bytes` are free (as root sees it).
    func fill(leaving bytes: Int = 0) throws {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw Failure(description: "statvfs \(path)") }
        let free = Int(info.f_bfree) * Int(info.f_frsize)
        var left = max(free - bytes, 0)
        let descriptor = open(path + "/filler-\(UUID().uuidString)", O_WRONLY | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot create a filler in \(path)") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 65536)
        while left > 0 {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, min(left, block.count)) }
            if written <= 0 { break }  // ENOSPC: full already
            left -= written
        }
    }

    /// Removes the fillers: the disk has room again.
    func makeRoom() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasPrefix("filler-") {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }

    func remountReadOnly() throws {
        guard Glibc.mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 else {
            throw Failure(description: "remount \(path) read-only: \(String(cString: strerror(errno)))")
        }
    }

    /// The names in the mounted folder, sorted.
    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func unmount() {
        _ = umount2(path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(atPath: path)
    }
}
