import Foundation
import Testing

/// Runs the built `gcdquiz` as a user would and captures what it prints.
enum Binary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `GCDQUIZ_BINARY` if set, else the `gcdquiz` built next to this test bundle.
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["GCDQUIZ_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("gcdquiz")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/gcdquiz")
    }()

    /// Runs gcdquiz with `input` on its standard input (nothing, by default: never the test's own).
    static func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:], directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        // The bank index cache goes to a folder of the test run's own, not the real home's.
        environment["XDG_CACHE_HOME"] = cacheHome
        for (key, value) in extra { environment[key] = value }
        let progress = IsolatedProgress(&environment)
        defer { progress.remove() }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a large output cannot block the child.
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread { errorData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1000) }
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// The cache folder every run of this test process shares (the bank index).
    static let cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-e2e-cache-\(getpid())").path

    /// A fresh folder for files a test writes; removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `text` written as `name` in a fresh folder (removed by the caller): a snippet or question file.
    static func file(_ text: String, named name: String) throws -> (folder: URL, path: String) {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (folder, file.path)
    }
}
