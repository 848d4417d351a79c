import Foundation

/// Writes a set of files so that the output folder never holds half of them: everything is
/// written into a hidden staging folder first (beside the output folder when it does not exist
/// yet, inside it when it does), and only when all of it is there is it moved into place. A
/// failure on the way removes the staging folder and leaves what was there before.
public struct StagedOutput {
    public let target: URL
    /// Where the files are written until `commit`.
    public let staging: URL
    private let targetExists: Bool

    /// Checks that `target` can be written (or created) and makes the staging folder.
    public init(target: URL) throws(SheetError) {
        self.target = target.standardizedFileURL
        let home = try Self.check(target)
        targetExists = home == self.target
        staging = home.appendingPathComponent(".gcdquiz-staging-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw .badInput("cannot write to '\(home.path)': \(error.localizedDescription)")
        }
    }

    /// Checks, before any work, that `target` is a folder that can be written, or can be
    /// created. Returns the folder the staging folder goes in: `target` itself when it exists,
    /// else the folder that will hold it.
    @discardableResult
    public static func check(_ target: URL) throws(SheetError) -> URL {
        let manager = FileManager.default
        let target = target.standardizedFileURL
        var isDirectory: ObjCBool = false
        let home: URL
        if manager.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .badInput("'\(target.path)' is a file, not a folder: choose another --output") }
            home = target
        } else {
            home = target.deletingLastPathComponent()
            guard manager.fileExists(atPath: home.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .badInput("cannot create '\(target.path)': there is no folder '\(home.path)' to create it in")
            }
        }
        guard manager.isWritableFile(atPath: home.path) else {
            throw .badInput("cannot write to '\(home.path)': permission denied; choose another --output")
        }
        return home
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
    /// and removes the staging folder. Returns where they now are.
    @discardableResult
    public func commit(_ names: [String]) throws(SheetError) -> [URL] {
        let manager = FileManager.default
        do {
            if !targetExists {
                for extra in try manager.contentsOfDirectory(atPath: staging.path) where !names.contains(extra) {
                    try manager.removeItem(at: url(for: extra))
                }
                try manager.moveItem(at: staging, to: target)
            } else {
                for name in names {
                    // rename(2) replaces a file of the same name in one step.
                    let destination = target.appendingPathComponent(name)
                    guard rename(url(for: name).path, destination.path) == 0 else {
                        throw SheetError.badInput("cannot move '\(name)' into '\(target.path)': \(String(cString: strerror(errno)))")
                    }
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
        try? FileManager.default.removeItem(at: staging)
    }
}

/// Writes one file by way of a temporary file beside it, renamed into place once complete.
public enum AtomicFile {
    /// Checks, before any work, that `path` names a file that can be written.
    public static func check(_ path: URL) throws(SheetError) {
        let manager = FileManager.default
        let folder = path.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .badInput("cannot write '\(path.path)': there is no folder '\(folder.path)'")
        }
        if manager.fileExists(atPath: path.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .badInput("'\(path.path)' is a folder: --output names the file to write")
        }
        guard manager.isWritableFile(atPath: folder.path) else {
            throw .badInput("cannot write to '\(folder.path)': permission denied")
        }
    }

    public static func write(_ data: Data, to path: URL) throws(SheetError) {
        try check(path)
        do {
            // Foundation writes to a temporary file in the same folder and renames it.
            try data.write(to: path, options: .atomic)
        } catch {
            throw .badInput("cannot write '\(path.path)': \(error.localizedDescription)")
        }
    }
}
