import Foundation
import Testing

/// Standard output and standard error as a hostile shell leaves them: every write failure is
/// handled, never a trap. A reader gone ends the program by SIGPIPE, as `cat` does; a full disk
/// or a closed standard output is a message and exit 2; a closed standard error loses only the
/// diagnostics.
struct OutputEndToEndTests {
    /// Commands that write standard output in each of the ways the program has: JSON, tables,
    /// rendered text, a live run (whose child processes make SIGPIPE ignored), ArgumentParser's help.
    static let writers: [[String]] = [
        ["solve", "serial-async-async", "--json"],
        ["run", "serial-async-async", "--json", "--runs", "20"],
        ["run", "serial-async-async", "--runs", "20"],
        ["list"],
        ["show", "serial-async-async"],
        ["--help"],
    ]

    @Test(arguments: writers)
    func aReaderGoneEndsTheProgramQuietly(arguments: [String]) throws {
        let process = try SpawnedProcess(arguments, stdout: .pipeWithoutReader)
        #expect(process.finish() == .signalled(SIGPIPE))
        #expect(process.stderr == "")
    }

    @Test(arguments: writers)
    func aFullDiskIsAnError(arguments: [String]) throws {
        let process = try SpawnedProcess(arguments, stdout: .file("/dev/full"))
        #expect(process.finish() == .exited(2))
        #expect(process.stderr == "gcdquiz: cannot write standard output: No space left on device\n")
    }

    @Test func aClosedStandardOutputIsAnError() throws {
        let process = try SpawnedProcess(["list", "--json"], stdout: .closed)
        #expect(process.finish() == .exited(2))
        #expect(process.stderr == "gcdquiz: cannot write standard output: it is closed\n")
    }

    /// Diagnostics of every kind (one line, a problem list with its source, ArgumentParser's
    /// usage error) with nowhere to go: the exit code still says what happened.
    @Test func diagnosticsWithStandardErrorClosed() throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.swift")
        try "serialQueue.async {\n    print(1)\n".write(to: broken, atomically: true, encoding: .utf8)
        for arguments in [["solve", "no-such-puzzle"], ["solve", broken.path], ["check", "serial-async-async", "1 2 \"3"], ["--no-such-flag"]] {
            let process = try SpawnedProcess(arguments, stderr: .closed)
            #expect(process.finish() == .exited(1), "\(arguments)")
        }
        // Standard output is unaffected.
        let process = try SpawnedProcess(["solve", "serial-async-async"], stderr: .closed)
        #expect(process.finish() == .exited(0))
        #expect(process.stdout.contains("5 possible outcomes"))
    }

    /// `gcdquiz … | head -1`: once the reader has its line and is gone, the drill ends at its
    /// next write instead of going through every answer and live run.
    @Test func aDrillStopsWhenItsReaderIsGone() throws {
        let bank = try DrillEndToEndTests.fixtureBank()
        defer { try? FileManager.default.removeItem(at: bank) }
        let process = try SpawnedProcess(["--bank", bank.path, "--seed", "1", "--live-runs", "300"], stdin: .pipe)
        #expect(process.firstLine()?.hasPrefix("gcdquiz") == true)
        process.stopReadingOutput()
        process.type("1 2 3 4\n\n1 2 3 4\n\n:quit\n")
        #expect(process.finish() == .signalled(SIGPIPE))
        #expect(process.stderr == "")
    }

    /// The executable writes standard output and error only through `Output` (Support/Output.swift),
    /// whose `print` shadows Swift's: nothing may write around it.
    @Test func everythingIsWrittenThroughOutput() throws {
        let sources = Binary.packageRoot.appendingPathComponent("Sources/gcdquiz")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "Output.swift" } ?? []
        #expect(!files.isEmpty)
        let forbidden = ["FileHandle.standardOutput", "FileHandle.standardError", "Swift.print(", "fputs(", "fwrite("]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for pattern in forbidden where text.contains(pattern) {
                Issue.record("\(file.lastPathComponent) writes with \(pattern): use print or Output.write")
            }
        }
    }
}
