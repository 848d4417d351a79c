import Foundation

/// Writes a set of files so that the output folder never holds half of them: everything is
/// written into a hidden staging folder first (inside the output folder when it exists, else in
/// the nearest folder above it that does), and only when all of it is there is it moved into
/// place, creating the folders on the way. A failure on the way removes the staging folder and
/// leaves what was there before; so does an interruption (`discardEveryStaging`, which the
/// executable calls on Ctrl-C, SIGTERM and SIGHUP); and a staging folder an interrupted process
/// could not remove (it was killed outright) is removed by the next run that writes beside it.
public final class StagedOutput: @unchecked Sendable {
    public let target: URL
    /// Where the files are written until `commit`.
    public let staging: URL
    private let targetExists: Bool

    /// The prefix of every staging folder's name; the process id and a random part follow.
    static let stagingPrefix = ".gcdquiz-staging-"

    /// Checks that `target` can be written (or created), removes staging folders of processes
    /// that no longer run, and makes the staging folder.
    public init(target: URL) throws(SheetError) {
        self.target = target.standardizedFileURL
        let home = try Self.check(target)
        targetExists = home == self.target
        Self.removeAbandonedStaging(in: home)
        if targetExists { Self.removeAbandonedStaging(in: self.target.deletingLastPathComponent()) }
        staging = home.appendingPathComponent("\(Self.stagingPrefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw .badInput("cannot write to '\(home.path)': \(error.localizedDescription)")
        }
        Self.active.insert(staging)
    }

    /// Checks, before any work, that `target` is a folder that can be written, or can be
    /// created (with the folders above it that are missing). Returns the folder the staging
    /// folder goes in: `target` itself when it exists, else the nearest folder above it.
    @discardableResult
    public static func check(_ target: URL) throws(SheetError) -> URL {
        let manager = FileManager.default
        let target = target.standardizedFileURL
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .badInput("'\(target.path)' is a file, not a folder: choose another --output") }
            guard manager.isWritableFile(atPath: target.path) else {
                throw .badInput("cannot write to '\(target.path)': permission denied; choose another --output")
            }
            return target
        }
        return try ExistingFolder.above(target, creating: "--output")
    }

    /// The place a file of this name is staged at.
    public func url(for name: String) -> URL {
        staging.appendingPathComponent(name)
    }

    public func write(_ file: OutputFile) throws(SheetError) {
        do {
            try file.contents.write(to: url(for: file.name))
        } catch {
            throw .badInput("cannot write '\(file.name)' in '\(target.path)': \(error.localizedDescription)")
        }
    }

    /// Moves the named staged files into the output folder, replacing files of the same names,
    /// removes the files named `obsolete` from it (an earlier run's, `--force`), and removes the
    /// staging folder. Returns where the files now are.
    @discardableResult
    public func commit(_ names: [String], removing obsolete: [String] = []) throws(SheetError) -> [URL] {
        let manager = FileManager.default
        do {
            if !targetExists {
                for extra in try manager.contentsOfDirectory(atPath: staging.path) where !names.contains(extra) {
                    try manager.removeItem(at: url(for: extra))
                }
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.moveItem(at: staging, to: target)
                Self.active.remove(staging)
            } else {
                for name in names {
                    // rename(2) replaces a file of the same name in one step.
                    let destination = target.appendingPathComponent(name)
                    guard rename(url(for: name).path, destination.path) == 0 else {
                        throw SheetError.badInput("cannot move '\(name)' into '\(target.path)': \(String(cString: strerror(errno)))")
                    }
                }
                for name in obsolete where !names.contains(name) {
                    try? manager.removeItem(at: target.appendingPathComponent(name))
                }
                discard()
            }
        } catch {
            discard()
            throw .badInput("cannot move the files into '\(target.path)': \(error.localizedDescription)")
        }
        return names.map { target.appendingPathComponent($0) }
    }

    /// Removes the staging folder and everything in it.
    public func discard() {
        Self.remove(staging)
        Self.active.remove(staging)
    }

    // MARK: Interruptions

    /// The staging folders of this process not yet committed or discarded.
    static let active = StagingSet()

    /// Removes every staging folder this process has not committed yet: for an interruption,
    /// just before the process ends. Safe to call from any thread.
    public static func discardEveryStaging() {
        for folder in active.removeAll() { remove(folder) }
    }

    /// Removes a folder and what is in it, again if a writer that was just stopped added a file
    /// meanwhile.
    static func remove(_ folder: URL) {
        for _ in 0..<5 {
            try? FileManager.default.removeItem(at: folder)
            guard FileManager.default.fileExists(atPath: folder.path) else { return }
            usleep(20_000)
        }
    }

    /// Removes, in `folder`, staging folders whose process no longer runs (killed before it
    /// could clean up).
    static func removeAbandonedStaging(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(stagingPrefix) {
            let rest = name.dropFirst(stagingPrefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                remove(folder.appendingPathComponent(name))
            }
        }
    }

    final class StagingSet: @unchecked Sendable {
        private let lock = NSLock()
        private var folders: Set<URL> = []

        func insert(_ folder: URL) { lock.withLock { _ = folders.insert(folder) } }
        func remove(_ folder: URL) { lock.withLock { _ = folders.remove(folder) } }
        func removeAll() -> [URL] {
            lock.withLock {
                defer { folders = [] }
                return Array(folders)
            }
        }
    }
}

/// The nearest folder above a path that does not exist yet, where it can be created.
enum ExistingFolder {
    /// Checks that the nearest existing folder above `path` is a folder that can be written;
    /// `what` names the option in messages.
    static func above(_ path: URL, creating what: String) throws(SheetError) -> URL {
        let manager = FileManager.default
        var folder = path.standardizedFileURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        while !manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) && folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        guard isDirectory.boolValue else {
            throw .badInput("cannot create '\(path.path)': '\(folder.path)' is a file, not a folder; choose another \(what)")
        }
        guard manager.isWritableFile(atPath: folder.path) else {
            throw .badInput("cannot write to '\(folder.path)': permission denied; choose another \(what)")
        }
        return folder
    }
}

/// Writes one file by way of a temporary file beside it, renamed into place once complete; the
/// folders above it are created when missing.
public enum AtomicFile {
    /// Checks, before any work, that `path` names a file that can be written.
    public static func check(_ path: URL) throws(SheetError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .badInput("'\(path.path)' is a folder: --output names the file to write")
        }
        let folder = path.deletingLastPathComponent()
        if manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .badInput("cannot write '\(path.path)': '\(folder.path)' is a file, not a folder") }
            guard manager.isWritableFile(atPath: folder.path) else {
                throw .badInput("cannot write to '\(folder.path)': permission denied")
            }
        } else {
            try ExistingFolder.above(folder.appendingPathComponent("-"), creating: "--output")
        }
    }

    public static func write(_ data: Data, to path: URL) throws(SheetError) {
        try check(path)
        do {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Foundation writes to a temporary file in the same folder and renames it.
            try data.write(to: path, options: .atomic)
        } catch {
            throw .badInput("cannot write '\(path.path)': \(error.localizedDescription)")
        }
    }
}
