import Foundation
import Testing

/// The pieces of `make install` (the whole install builds a release binary: too slow for the
/// suite): a binary in `PREFIX/bin` finds the bank in `PREFIX/share/gcdquiz/Questions` from
/// anywhere, and ArgumentParser writes the completion scripts.
@Suite struct InstallEndToEndTests {
    @Test func anInstalledBinaryFindsTheInstalledBank() throws {
        let prefix = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let manager = FileManager.default
        let questions = prefix.appendingPathComponent("share/gcdquiz/Questions/serial-queue")
        try manager.createDirectory(at: questions, withIntermediateDirectories: true)
        try manager.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        for name in ["serial-sync-sync", "serial-async-async"] {
            try manager.copyItem(
                at: Binary.packageRoot.appendingPathComponent("Questions/serial-queue/\(name).yaml"),
                to: questions.appendingPathComponent("\(name).yaml"))
        }
        // A hard link, as a copy would be, without copying the binary (a symbolic link would
        // lead back to the build folder).
        let installed = prefix.appendingPathComponent("bin/gcdquiz")
        if link(Binary.url.path, installed.path) != 0 {
            try manager.copyItem(at: Binary.url, to: installed)
        }
        try check(installed)
    }

    private func check(_ installed: URL) throws {
        let listed = try run(installed, ["list"])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.output.contains("serial-async-async"))
        #expect(listed.output.contains("2 of 2 questions"))
        let completion = try run(installed, ["--generate-completion-script", "bash"])
        #expect(completion.status == 0)
        #expect(completion.output.contains("solve"))
        #expect(completion.output.contains("drill"))
    }

    /// Runs `executable` from `/`, far from any checkout, with no bank in the environment.
    private func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}
