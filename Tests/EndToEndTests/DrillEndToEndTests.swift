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
        // A database of each session's own: sessions sharing a state folder stay first sessions
        // (a returning learner's drill starts elsewhere; MemoryEndToEndTests test that).
        environment["GCDQUIZ_PROGRESS"] = state.appendingPathComponent("progress-\(UUID().uuidString).sqlite").path
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        return environment
    }

    /// A small bank copied from `Questions/` (paths without `.yaml`), so the session does not
    /// change when the real bank grows.
    static func fixtureBank(_ paths: [String] = twoPuzzles) throws -> URL {
        let folder = try Binary.temporaryFolder()
        for path in paths {
            let source = Binary.packageRoot.appendingPathComponent("Questions/\(path).yaml")
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(source.lastPathComponent))
        }
        return folder
    }

    /// With seed 1: serial-sync-sync, then serial-async-async.
    static let twoPuzzles = ["serial-queue/serial-sync-sync", "serial-queue/serial-async-async"]

    /// One question of each kind. With seed 3: the trace puzzle, then (once it is answered) its
    /// choice follow-up, options shown as a) 2 before 4, b) 4 last, c) 2 before 3, d) 1 before 2,
    /// e) 1 before 3 (a, c, e are right), then the short question. With seed 1 and --level 1 the
    /// short question comes first; answering the puzzle brings the follow-up in, shown as
    /// a) 1 before 2, b) 2 before 3, c) 4 last, d) 1 before 3, e) 2 before 4 (b, d, e are right).
    static let oneOfEachKind = [
        "serial-queue/serial-async-async", "sync-async/serial-async-async-guarantees", "sync-async/sync-vs-async",
    ]

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
        #expect(terminal.waitFor("live (50 runs on libdispatch, "))
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
        // The second answer to the puzzle, after :again, is practice: shown, graded, not counted.
        #expect(out.contains("(answered already: wrong; a new answer is practice and does not count)"))
        #expect(out.contains("incomplete: both of your outcomes can happen, but 3 more can too.\nPractice: this answer does not count; your scored answer was wrong."))
        #expect(out.contains("Session over. 2 answered"))
        #expect(out.contains("1 right, 0 partly right, 1 wrong, 0 skipped."))
        #expect(out.contains("1 practice answer(s), not counted."))
    }

    @Test func everyKindAtATerminal() throws {
        let state = try Binary.temporaryFolder()
        let bank = try Self.fixtureBank(Self.oneOfEachKind)
        defer {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: bank)
        }
        let terminal = try PseudoTerminal(
            arguments: ["--bank", bank.path, "--seed", "3", "--live-runs", "0"],
            environment: Self.environment(state: state), size: (80, 24))

        // The trace puzzle.
        #expect(terminal.waitFor("answer> "))
        #expect(terminal.screen.contains("Two async calls on a serial queue"))
        terminal.type("2 1 4 3\r")
        #expect(terminal.waitFor("incomplete: your outcome can happen, but 4 more can too."))
        #expect(terminal.waitFor("next> "))

        // Its follow-up, a choice question with shuffled options.
        var mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("(a follow-up to the question you just answered)", after: mark))
        #expect(terminal.waitFor("a) 2 prints before 4.", after: mark))
        #expect(terminal.waitFor("e) 1 prints before 3.", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark))
        mark = terminal.screen.count
        terminal.type("z\r")
        #expect(terminal.waitFor("I can't read that: choose with the options' letters, a to e", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type(":hin\t\r")
        #expect(terminal.waitFor("Hint: 3 of the 5 options are right.", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type(":run\r")
        #expect(terminal.waitFor(":run works on trace puzzles, and this is a choice question.", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type("a, d\r")
        #expect(terminal.waitFor("wrong", after: mark))
        #expect(terminal.waitFor("Correct: a, c, e", after: mark))
        #expect(terminal.waitFor("d) is wrong: The main thread does not wait for the async block", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type(":rig\t\r")
        #expect(terminal.waitFor("A choice answer is graded against the answer key", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))

        // The short question: Ctrl-C, an empty answer, an overrule too early, then the answer.
        mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("sync and async, seen by the caller", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark))
        mark = terminal.screen.count
        terminal.type("half a thought")
        #expect(terminal.waitFor("half a thought", after: mark))
        terminal.type("\u{3}")
        #expect(terminal.waitFor("(line dropped", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 5))
        mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("Answer in a sentence or two, or :skip, :hint, :help.", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type(":wrong\r")
        #expect(terminal.waitFor("Nothing to overrule yet", after: mark))
        #expect(terminal.waitFor("answer> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type("sync blocks the caller until it is done\r")
        #expect(terminal.waitFor("partly right: 1 of 2 key ideas.", after: mark))
        #expect(terminal.waitFor("A model answer", after: mark))
        #expect(terminal.waitFor("`sync` blocks the caller", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))
        mark = terminal.screen.count
        terminal.type(":right\r")
        #expect(terminal.waitFor("Counted as right (the grader said partly right", after: mark))
        #expect(terminal.waitFor("next> ", after: mark + 10))

        // The summary covers every kind.
        mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("That was the last question.", after: mark))
        #expect(terminal.waitFor("Session over. 3 answered", after: mark))
        #expect(terminal.waitFor("(1 grade(s) overruled by you)", after: mark))
        #expect(terminal.waitFor("By kind: trace 50% (1), choice 0% (1), short 100% (1)", after: mark))
        #expect(terminal.waitForExit() == 0)
    }

    @Test func everyKindPipedThroughStandardInput() throws {
        let bank = try Self.fixtureBank(Self.oneOfEachKind)
        defer { try? FileManager.default.removeItem(at: bank) }
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--live-runs", "0", "--level", "1"],
            input: "\nsync waits for the block; async returns immediately\n:wrong\n\n2 4 1 3\n\n1\n:explain\ne d b\n:score\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(!out.contains("\u{1B}["))
        #expect(out.contains("──── 1/2 ──── sync and async, seen by the caller"))
        #expect(out.contains("Answer in a sentence or two, or :skip, :hint, :help."))
        #expect(out.contains("right: every key idea is there."))
        #expect(out.contains("Counted as wrong (the grader said right; the summary shows it as overruled)."))
        #expect(out.contains("incomplete: your outcome can happen, but 4 more can too."))
        // Left out by --level 1, the follow-up comes once its puzzle is answered.
        #expect(out.contains("──── 3/3 ──── What is guaranteed in the serial async/async puzzle"))
        #expect(out.contains("I can't read that: choose with the options' letters, a to e"))
        #expect(out.contains(":explain works on trace puzzles, and this is a choice question."))
        #expect(out.contains("right\nCorrect: b, d, e"))
        #expect(out.contains("Score so far. 3 answered"))
        #expect(out.contains("Session over. 3 answered in"))
        #expect(out.contains("1 right, 1 partly right, 1 wrong, 0 skipped (1 grade(s) overruled by you)."))
        #expect(out.contains("By kind: trace 50% (1), choice 100% (1), short 0% (1)"))
    }

    @Test func kindLimitsTheSessionAndItsFollowUps() throws {
        let bank = try Self.fixtureBank(Self.oneOfEachKind)
        defer { try? FileManager.default.removeItem(at: bank) }
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--live-runs", "0", "--kind", "trace"], input: "1 2 3 4\n\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 question ·"))
        #expect(result.stdout.contains("That was the last question."))
        let bad = try Binary.run(["--bank", bank.path, "--kind", "essay"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("essay"))
    }

    @Test func endOfInputEndsTheSessionCleanly() throws {
        let result = try Binary.run(["--seed", "2", "--live-runs", "0"], input: "")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Session over. 0 answered"))
    }
}
