import Foundation
import Testing

/// What the drill counts, what it brings back, and what fits on a screen.
@Suite(.serialized) struct DrillBookkeepingEndToEndTests {
    static let twoPuzzles = DrillEndToEndTests.twoPuzzles

    @Test func anUnreadableAnswerIsAskedAgainUncounted() throws {
        let bank = try DrillEndToEndTests.fixtureBank(["serial-queue/serial-async-async"])
        defer { try? FileManager.default.removeItem(at: bank) }
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--live-runs", "0"],
            input: "0 -> 1 -> 2\n[0, 1, 2, 3]\n1 2 3 4 finishd\n1 2 3 4 finished\n:score\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("I can't read that: no print of this snippet can produce '0'."))
        #expect(out.contains("e.g. 1 2 3 | 2 1 3 | 1 deadlock"))
        #expect(out.contains("no print of this snippet can produce 'finishd' (did you mean 'finished'?)"))
        #expect(out.contains("incomplete: your outcome can happen, but 4 more can too."))
        #expect(out.contains("Score so far. 1 answered"))
    }

    @Test func skippedQuestionsComeBackAtTheEnd() throws {
        let bank = try DrillEndToEndTests.fixtureBank(Self.twoPuzzles)
        defer { try? FileManager.default.removeItem(at: bank) }
        // With seed 1: serial-sync-sync, then serial-async-async.
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--live-runs", "0"],
            input: ":skip\n1 2 4 3\n\n1 2 3 4\n\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("Skipped serial-sync-sync: it comes back at the end of the session, and in a later session if not answered by then."))
        // The question after the skip is number 2; the skipped one comes back with its number.
        #expect(out.contains("──── 2/2 ──── Two async calls on a serial queue"))
        #expect(out.contains("──── 1/2 ──── Two sync calls on a serial queue\nserial-sync-sync · trace · level 1 · serial-queues, sync-async\n(back: you skipped it earlier)"))
        #expect(!out.contains("Skipped serial-sync-sync again"))
        #expect(out.contains("exact: the one possible outcome"))
        #expect(out.contains("That was the last question."))
        #expect(out.contains("Session over. 2 answered"))
        #expect(out.contains("1 right, 1 partly right, 0 wrong, 0 skipped."))

        let twice = try Binary.run(["--bank", bank.path, "--seed", "1", "--live-runs", "0"], input: ":skip\n:skip\n:skip\n")
        #expect(twice.stdout.contains("Skipped serial-sync-sync again: it will not come back this session."))
        #expect(twice.stdout.contains("0 answered"))
        #expect(twice.stdout.contains("2 skipped"))
    }

    @Test func helpUsedBeforeAnsweringIsNotedAndOnlyTheFirstAnswerCounts() throws {
        let bank = try DrillEndToEndTests.fixtureBank(["serial-queue/serial-async-async"])
        defer { try? FileManager.default.removeItem(at: bank) }
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--live-runs", "0"],
            input: ":explain 2 4 1 3\n:hint\n3 1 2 4\n:again\n1 2 3 4 | 1 2 4 3 | 2 1 3 4 | 2 1 4 3 | 2 4 1 3\n:list\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("(:explain before answering is noted beside your answer.)"))
        #expect(out.contains("Counted, with the help you used before answering noted beside it (a hint, :explain)."))
        #expect(out.contains("Practice: this answer does not count; your scored answer was wrong."))
        // The list shows what the score counts: the first answer, and that it was practised.
        #expect(out.contains("  ▶ serial-async-async (practised)"))
        #expect(out.contains("Session over. 1 answered"))
        #expect(out.contains("0 right, 0 partly right, 1 wrong, 0 skipped."))
        #expect(out.contains("1 practice answer(s), not counted; 1 answered after help (:hint, :explain, :run)."))
    }

    @Test func aChoiceOnlySessionNeverOpensWithAFollowUp() throws {
        let result = try Binary.run(["--kind", "choice", "--seed", "5", "--live-runs", "0"], input: ":list\n:quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let followUps = ["what-deadlocks-concurrent-sync-in-async", "fix-serial-sync-in-async", "operation-dependency-cycle",
                         "concurrent-async-async-guarantees", "serial-sync-sync-concurrent", "serial-async-in-sync-why",
                         "serial-async-async-guarantees", "pipeline-cancel"]
        for id in followUps {
            #expect(!result.stdout.contains(" \(id) "), "\(id)")
        }
        #expect(!result.stdout.contains("In the puzzle you just solved"))
    }

    /// A wrong answer to a puzzle that deadlocks: long reasons, four outcomes, a trap. What is
    /// printed between the answer and the next prompt fits 80 columns and 22 lines (the answer
    /// above it and the prompt below it make 24), and holds the verdict, the table and a witness.
    @Test func aTraceResultFitsEightyByTwentyFour() throws {
        try Self.withDrill(of: "serial-queue/serial-sync-in-async") { terminal in
            #expect(terminal.waitFor("answer> "))
            var mark = terminal.screen.count
            terminal.type("1 2 3 4\r")
            #expect(terminal.waitFor("next> ", after: mark))
            let result = String(terminal.screen.dropFirst(mark))
            // The pseudo-terminal ends lines with CR LF, one Character in Swift.
            var lines = result.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            // From the echoed answer line to the prompt, both left out.
            let answerLine = try #require(lines.firstIndex { $0.contains("1 2 3 4") }, "\(result)")
            lines.removeFirst(answerLine + 1)
            let prompt = try #require(lines.lastIndex { $0.hasPrefix("next> ") }, "\(result)")
            lines.removeLast(lines.count - prompt)
            #expect(lines.count <= 22, "\(lines.count) lines:\n\(result)")
            for line in lines {
                #expect(line.count <= 80, "too wide: \(line)")
            }
            #expect(result.contains("wrong: 1 2 3 4 cannot happen."))
            #expect(result.contains("live (30 runs on libdispatch, "))
            #expect(result.contains("1 2 3 4        ✗ impossible"))
            #expect(result.contains("A schedule you did not predict"))
            #expect(!result.contains("still going"))

            mark = terminal.screen.count
            terminal.type(":more\r")
            #expect(terminal.waitFor("rule: a trap", after: mark))
            #expect(terminal.waitFor("Why", after: mark))
            #expect(terminal.waitFor("libdispatch traps", after: mark))
            #expect(terminal.waitFor("next> ", after: mark + 10))
            let more = String(terminal.screen.dropFirst(mark))
            for line in more.split(whereSeparator: \.isNewline) {
                #expect(line.count <= 80, "too wide: \(line)")
            }
            terminal.type(":quit\r")
            #expect(terminal.waitForExit() == 0)
        }
    }

    /// A drill of one fixture puzzle in an 80×24 pseudo-terminal with 30 live runs, its state and
    /// bank removed after `body`.
    static func withDrill(of puzzle: String, _ body: (PseudoTerminal) throws -> Void) throws {
        let state = try Binary.temporaryFolder()
        let bank = try DrillEndToEndTests.fixtureBank([puzzle])
        defer {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: bank)
        }
        try body(PseudoTerminal(
            arguments: ["--bank", bank.path, "--seed", "1", "--live-runs", "30"],
            environment: DrillEndToEndTests.environment(state: state), size: (80, 24)))
    }

    /// A compiled snippet's live caption ("30 runs compiled by swiftc (Swift 6), 2 cores") beside
    /// long outcomes went past 80 columns: it goes on a line of its own above the table.
    @Test func aCompiledPuzzlesLiveCaptionFitsEightyColumns() throws {
        try Self.withDrill(of: "actors/actor-method-calls-actor") { terminal in
            #expect(terminal.waitFor("answer> "))
            let mark = terminal.screen.count
            terminal.type("\"sold x\" \"sell x\"\r")
            #expect(terminal.waitFor("next> ", after: mark, timeout: 120))
            let result = String(terminal.screen.dropFirst(mark))
            #expect(result.contains("live: 30 runs compiled by swiftc (Swift 6), 2 cores"), "\(result)")
            for line in result.split(whereSeparator: \.isNewline) {
                #expect(line.count <= 80, "too wide: \(line)")
            }
            terminal.type(":quit\r")
            #expect(terminal.waitForExit() == 0)
        }
    }
}
