import Foundation
import Testing

/// The drill as a person uses it, through a pseudo-terminal, and as a script uses it, through a pipe.
@Suite(.serialized) struct DrillEndToEndTests {
    static func environment(state: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        environment["XDG_STATE_HOME"] = state.path
        environment["HOME"] = state.path
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        return environment
    }

    /// A bank of two puzzles, so the session does not change when the real bank grows: with
    /// seed 1 it asks serial-sync-sync, then serial-async-async.
    static func fixtureBank() throws -> URL {
        let folder = try Binary.temporaryFolder()
        for id in ["serial-sync-sync", "serial-async-async"] {
            let source = Binary.packageRoot.appendingPathComponent("Questions/serial-queue/\(id).yaml")
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent("\(id).yaml"))
        }
        return folder
    }

    @Test func aPersonAtATerminal() throws {
        let state = try Binary.temporaryFolder()
        let bank = try Self.fixtureBank()
        defer {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: bank)
        }
        let terminal = try PseudoTerminal(
            arguments: ["--bank", bank.path, "--seed", "1", "--live-runs", "50"],
            environment: Self.environment(state: state))

        #expect(terminal.waitFor("answer> "))
        #expect(terminal.screen.contains("Two sync calls on a serial queue"))
        #expect(terminal.screen.contains("1 │ serialQueue.sync {"))

        // A right answer.
        terminal.type("1 2 3 4\r")
        #expect(terminal.waitFor("exact: the one possible outcome"))
        #expect(terminal.waitFor("live (50 runs on libdispatch)"))
        #expect(terminal.waitFor("next> "))
        var mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("Two async calls on a serial queue", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark))

        // Ctrl-C on a half-typed line drops it and keeps the session.
        mark = terminal.screen.count
        terminal.type("9 9 9")
        #expect(terminal.waitFor("9 9 9", after: mark))
        terminal.type("\u{3}")
        #expect(terminal.waitFor("(line dropped", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 5))

        // A wrong answer.
        mark = terminal.screen.count
        terminal.type("3 1 2 4\r")
        #expect(terminal.waitFor("wrong: 3 1 2 4 cannot happen.", after: mark))
        #expect(terminal.waitFor("rule: statements on one thread run in program order", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))
        #expect(!terminal.screen.contains("9 9 9 cannot happen"))

        // :again, then the up arrow recalls the last answer (history), and an incomplete one.
        mark = terminal.screen.count
        terminal.type(":again\r")
        #expect(terminal.waitFor("answer> ", after: mark))
        mark = terminal.screen.count
        terminal.type("1 2 3 4 | 2 1 3 4\r")
        #expect(terminal.waitFor("incomplete: both of your outcomes can happen, but 3 more can too.", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type(":again\r")
        #expect(terminal.waitFor("answer> ", after: mark))
        mark = terminal.screen.count
        terminal.type("\u{1B}[A")  // up: the last line typed was ":again"
        terminal.type("\u{1B}[A")  // up again: the incomplete answer
        terminal.type("\r")
        #expect(terminal.waitFor("incomplete: both of your outcomes can happen", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))

        // A : command with tab completion.
        mark = terminal.screen.count
        terminal.type(":sco\t\r")
        #expect(terminal.waitFor("Score so far.", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))

        // Ctrl-D ends the session with a summary.
        mark = terminal.screen.count
        terminal.type("\u{4}")
        #expect(terminal.waitFor("Session over.", after: mark))
        #expect(terminal.waitFor("By tag, weakest first:", after: mark))
        #expect(terminal.waitForExit() == 0)

        let history = try String(contentsOf: state.appendingPathComponent("gcdquiz/history"), encoding: .utf8)
        #expect(history.replacingOccurrences(of: "\\040", with: " ").contains("3 1 2 4"))
    }

    @Test func answersPipedThroughStandardInput() throws {
        let bank = try Self.fixtureBank()
        defer { try? FileManager.default.removeItem(at: bank) }
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--live-runs", "20"],
            input: "1234\n\n12|21\n:again\nnot | an | \"answer\n1 2 4 3 | 2 1 3 4\n:score\n:quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(!out.contains("\u{1B}["))
        #expect(out.contains("answer> 1234"))
        #expect(out.contains("exact: the one possible outcome, and nothing else."))
        #expect(out.contains("wrong: 1 2 cannot happen."))
        #expect(out.contains("I can't read that: the quote opened at column 12 is never closed."))
        #expect(out.contains("Score so far."))
        #expect(out.contains("incomplete: both of your outcomes can happen, but 3 more can too."))
        #expect(out.contains("Session over. 3 answered"))
    }

    @Test func endOfInputEndsTheSessionCleanly() throws {
        let result = try Binary.run(["--seed", "2", "--live-runs", "0"], input: "")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Session over. 0 answered"))
    }
}
