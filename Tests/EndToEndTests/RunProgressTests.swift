import Foundation
import Testing

/// `run`'s progress line: on standard error at a terminal, after a second, never into a pipe;
/// Ctrl-C stops the runs and shows what was seen.
@Suite(.serialized) struct RunProgressTests {
    /// Each run sleeps half a second at the runner's time scale.
    static func sleepySnippet() throws -> (folder: URL, file: String) {
        let folder = try Binary.temporaryFolder()
        let file = folder.appendingPathComponent("sleepy.swift")
        try "print(1)\nsleep(2)\nprint(2)\n".write(to: file, atomically: true, encoding: .utf8)
        return (folder, file.path)
    }

    @Test func aTerminalSeesTheProgressLineAndCtrlCShowsWhatWasSeen() throws {
        let (folder, file) = try Self.sleepySnippet()
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try PseudoTerminal(arguments: ["run", file, "--runs", "100", "--processes", "1"],
                                          environment: ["TERM": "xterm", "NO_COLOR": "1", "HOME": folder.path])
        #expect(terminal.waitFor("Ctrl-C stops and shows what was seen"))
        #expect(terminal.screen.contains("/100 runs"))
        terminal.type("\u{3}")
        #expect(terminal.waitForExit() == 0)
        #expect(terminal.screen.contains("stopped after"), "\(terminal.screen)")
        #expect(terminal.screen.contains("1 2"), "\(terminal.screen)")
    }

    /// SIGTERM, as Ctrl-C: the progress line is ended (erased) before the histogram of what was
    /// seen is printed; then gcdquiz dies of SIGTERM, as asked.
    @Test func sigtermAtATerminalEndsTheProgressLineAndShowsWhatWasSeen() throws {
        let (folder, file) = try Self.sleepySnippet()
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try PseudoTerminal(arguments: ["run", file, "--runs", "100", "--processes", "1"],
                                          environment: ["TERM": "xterm", "NO_COLOR": "1", "HOME": folder.path])
        #expect(terminal.waitFor("Ctrl-C stops and shows what was seen"))
        kill(terminal.pid, SIGTERM)
        #expect(terminal.waitForExit() == 128 + SIGTERM)
        #expect(terminal.screen.contains("stopped after"), "\(terminal.screen)")
        #expect(terminal.screen.contains("runs (SIGTERM)"), "\(terminal.screen)")
        #expect(terminal.screen.contains("1 2"), "\(terminal.screen)")
        let raw = terminal.transcript
        let lastDrawn = try #require(raw.range(of: "Ctrl-C stops and shows what was seen", options: .backwards))
        let heading = try #require(raw.range(of: "live runs on libdispatch"))
        #expect(lastDrawn.upperBound < heading.lowerBound)
        #expect(raw[lastDrawn.upperBound..<heading.lowerBound].contains("\r\u{1B}[K"), "\(raw.debugDescription)")
    }

    @Test func aPipeGetsNoProgressLine() throws {
        let (folder, file) = try Self.sleepySnippet()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Binary.run(["run", file, "--runs", "3", "--processes", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("3 live runs on libdispatch"))
        #expect(result.stdout.contains("finished"))
        #expect(!result.stdout.contains("timeout"))
    }
}
