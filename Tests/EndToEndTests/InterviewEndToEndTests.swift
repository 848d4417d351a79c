import Foundation
import Progress
import Testing

/// The mock interview at a terminal, as a candidate meets it: answers edited with libedit (the
/// arrows, Home, the history), a warning before the time is up that leaves the line as it was,
/// the line graded when the time runs out, and the debrief after the verdict, page by page with
/// `:more`, at 80×24.
@Suite(.serialized) struct InterviewEndToEndTests {
    /// `gcdquiz interview` with seed 1 over the learner's two-puzzle bank, at a terminal of 80×24.
    static func interview(_ arguments: [String], learner: MemoryEndToEndTests.Learner) throws -> PseudoTerminal {
        var environment = ProcessInfo.processInfo.environment.merging(learner.environment) { $1 }
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        return try PseudoTerminal(arguments: ["interview", "--bank", learner.bank.path, "--seed", "1"] + arguments,
                                  environment: environment, size: (80, 24))
    }

    @Test func anInterviewAtATerminal() throws {
        let learner = try MemoryEndToEndTests.Learner()
        defer { learner.remove() }
        // Two questions of 21 seconds: serial-sync-sync, then serial-async-async. The warning
        // comes 11 seconds in, time enough for the keys before it on a busy machine.
        let terminal = try Self.interview(["--questions", "2", "--minutes", "0.7"], learner: learner)
        #expect(terminal.waitFor("[0:2"))
        #expect(terminal.waitFor("answer> "))

        // Line editing: typed, then Ctrl-A and more typed before it.
        var mark = terminal.screen.count
        terminal.type("2 3 4")
        #expect(terminal.waitFor("2 3 4", after: mark))
        terminal.type("\u{1}1 \r")
        #expect(terminal.waitFor("Noted (", after: mark))

        // The up arrow brings the last answer back; Ctrl-A puts the cursor at its start. The
        // warning 10 seconds before the end lifts the line and puts it back, cursor and all.
        #expect(terminal.waitFor("question 2", after: mark))
        mark = terminal.screen.count
        #expect(terminal.waitFor("answer> ", after: mark))
        terminal.type("\u{1B}[A")
        #expect(terminal.waitFor("1 2 3 4", after: mark))
        terminal.type("\u{1}")
        let warning = "10 seconds left: what is on the line when the time is up is graded."
        #expect(terminal.waitFor(warning, after: mark, timeout: 40))
        let screen = terminal.screen
        let warned = screen.distance(from: screen.startIndex, to: try #require(screen.range(of: warning, options: .backwards)).upperBound)
        #expect(terminal.waitFor("answer> 1 2 3 4", after: warned))
        // Typed at the cursor, put back at the start of the line (libedit inserts with escape
        // sequences, so the line is read back from the debrief and the log below).
        terminal.type("2 1 4 3 | ")

        // At the end, what is on the line is graded.
        #expect(terminal.waitFor("Time is up: what you had typed is graded", after: warned, timeout: 40))
        #expect(terminal.waitFor("Verdict: Nearly ready: 1 right, 1 partly right; score 1.5 of 2 (75%).", after: warned))
        #expect(terminal.screen.contains("partly"))

        // The debrief: each question with the answer given, the right one, and :more.
        #expect(terminal.waitFor("debrief> ", after: warned))
        #expect(terminal.screen.contains("Your answer (0:"))
        mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("Your answer as it stood when the time ran out: 2 1 4 3 | 1 2 3 4", after: mark))
        #expect(terminal.waitFor(":more shows the rest of this question", after: mark))
        #expect(terminal.waitFor("debrief> ", after: mark))
        mark = terminal.screen.count
        terminal.type(":more\r")
        #expect(terminal.waitFor("A schedule you did not predict", after: mark))
        #expect(terminal.waitFor("debrief> ", after: mark))
        mark = terminal.screen.count
        terminal.type("\r")
        #expect(terminal.waitFor("That was every question.", after: mark))
        #expect(terminal.waitForExit(timeout: 30) == 0)

        let recorded = try learner.reviews()
        #expect(recorded.map(\.answer) == ["1 2 3 4", "2 1 4 3 | 1 2 3 4"])
        #expect(recorded.map(\.grade) == [.exact, .incomplete])
        #expect(recorded.allSatisfy { $0.mode == .interview })
    }

    /// Nothing typed when the time runs out: no answer, and the debrief shows the right one.
    @Test func nothingTypedIsNoAnswerAndTheDebriefGivesTheAnswer() throws {
        let learner = try MemoryEndToEndTests.Learner()
        defer { learner.remove() }
        let terminal = try Self.interview(["--questions", "1", "--minutes", "0.05"], learner: learner)
        #expect(terminal.waitFor("Time is up: counted as no answer.", timeout: 30))
        #expect(terminal.waitFor("Verdict: Not ready yet: 1 no answer; score 0 of 1 (0%)."))
        #expect(terminal.waitFor("No answer: the time ran out."))
        #expect(terminal.waitFor("The answer: one possible outcome."))
        terminal.type(":quit\r")
        #expect(terminal.waitForExit(timeout: 30) == 0)
        #expect(try learner.reviews().map(\.grade) == [.unanswered])
    }
}
