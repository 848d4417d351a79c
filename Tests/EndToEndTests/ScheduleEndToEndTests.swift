import Foundation
import Testing

/// The scheduler's seat as a learner meets it: through a pseudo-terminal at 80×24, and through
/// pipes as a script would drive it; `explain --step`, `run --stuck`, `check` and the drill.
@Suite(.serialized) struct ScheduleEndToEndTests {
    static func terminal(_ arguments: [String]) throws -> (PseudoTerminal, URL) {
        let state = try Binary.temporaryFolder()
        let terminal = try PseudoTerminal(arguments: arguments, environment: DrillEndToEndTests.environment(state: state), size: (80, 24))
        return (terminal, state)
    }

    /// Text as a sentence reads it: a line wrapped under the screen's left column joined back.
    static func flat(_ text: some StringProtocol) -> String {
        // A terminal's line ends are CR LF, one character to Swift.
        String(text).replacingOccurrences(of: "\r\n", with: "\n").replacing(/\n {8}/, with: " ")
    }

    /// Types each key and waits for the screen that move `count` draws.
    static func press(_ keys: [String], on terminal: PseudoTerminal, from count: Int) {
        for (index, key) in keys.enumerated() {
            let mark = terminal.screen.count
            terminal.type(key)
            #expect(terminal.waitFor("move \(count + index + 1)", after: mark), "no screen after \(key)")
        }
    }

    @Test func aLearnersMovesReachTwoOneFourThree() throws {
        let (terminal, state) = try Self.terminal(["schedule", "serial-async-async", "--goal", "2 1 4 3"])
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(terminal.waitFor("schedule · serial-async-async"))
        #expect(terminal.waitFor("make it print 2 1 4 3 and finish — not reached yet"))
        // The block, 2, the second block, the queue starts the first, 1…
        Self.press(["1", "1", "1", "2", "2"], on: terminal, from: 0)
        // …then 4 would come before 3: taken back with u.
        Self.press(["1"], on: terminal, from: 5)
        var mark = terminal.screen.count
        terminal.type("u")
        #expect(terminal.waitFor("move 5", after: mark))
        // The hint names the move.
        mark = terminal.screen.count
        terminal.type("h")
        #expect(terminal.waitFor("it keeps the goal reachable", after: mark))
        Self.press(["1", "1", "1"], on: terminal, from: 5)
        #expect(terminal.waitFor("reached at move 8"))
        #expect(terminal.waitFor("the run finished"))
        mark = terminal.screen.count
        terminal.type("q")
        #expect(terminal.waitFor("reached 2 1 4 3, with 1 hint; moves 1 1 1 2 2 1 1 1", after: mark))
        #expect(terminal.waitForExit() == 0)
    }

    @Test func aLearnersMovesReachTheDeadlockOfSyncInsideAsync() throws {
        let (terminal, state) = try Self.terminal(["schedule", "serial-sync-in-async", "--goal", "deadlock"])
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(terminal.waitFor("make it deadlock"))
        // The block; the queue starts it; 1; the sync onto the queue the worker owns.
        Self.press(["1", "2", "2", "2"], on: terminal, from: 0)
        #expect(terminal.waitFor("reached at move 4"))
        #expect(terminal.waitFor("trap at line 3: worker 1 calls serialQueue.sync on a queue it already"))
        terminal.type("q")
        #expect(terminal.waitFor("reached deadlock; moves 1 2 2 2"))
        #expect(terminal.waitForExit() == 0)
    }

    /// The slides' first puzzle: trying for 3 1, the learner is told once inside the first sync
    /// (move 2), not before, with the rule.
    @Test func threeOneIsToldImpossibleAtTheRightMove() throws {
        let (terminal, state) = try Self.terminal(["schedule", "serial-sync-sync", "--goal", "3 1"])
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(terminal.waitFor("make it print 3 1 and finish — not reached yet"))
        var mark = terminal.screen.count
        terminal.type("1")
        #expect(terminal.waitFor("move 1", after: mark))
        #expect(terminal.waitFor("not reached yet", after: mark))
        #expect(!terminal.screen.dropFirst(mark).contains("no schedule does it"))
        mark = terminal.screen.count
        terminal.type("1")
        #expect(terminal.waitFor("no schedule does it: 3 never comes first", after: mark))
        #expect(terminal.waitFor("that is the answer", after: mark))
        #expect(Self.flat(terminal.screen.dropFirst(mark)).contains("main is inside the sync at line 1 and reaches line 5 only after that block"))
        #expect(Self.flat(terminal.screen.dropFirst(mark)).contains("(rule: sync returns only after its block has run)"))
        terminal.type("q")
        #expect(terminal.waitFor("showed that no schedule does 3 1; moves 1 1"))
        #expect(terminal.waitForExit() == 0)
    }

    @Test func aScriptDrivesTheSeatThroughAPipe() throws {
        let result = try Binary.run(["schedule", "serial-async-async", "--goal", "2 4 3 1"], input: "1 1 1\nh\n1 1\nq\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}["))
        let out = Self.flat(result.stdout)
        #expect(out.contains("goes as far along it as any schedule does"))
        #expect(out.contains("no schedule does it: 3 never comes right after 2 4"))
        #expect(out.contains("serialQueue is busy running another block (worker 1, at line 2)"))
        #expect(result.stdout.hasSuffix("showed that no schedule does 2 4 3 1, with 1 hint; moves 1 1 1 1 1\n"))

        let unreadable = try Binary.run(["schedule", "serial-async-async", "--goal", "5 6"])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("unreadable goal '5 6'"))
    }

    @Test func explainStepReplaysTheWitness() throws {
        let result = try Binary.run(["explain", "serial-sync-in-async", "--outcome", "4 1 deadlock", "--step"])
        #expect(result.status == 0, "\(result.stderr)")
        let screens = result.stdout.components(separatedBy: "replay · serial-sync-in-async")
        #expect(screens.count > 4)
        #expect(screens.last?.contains("reached at move") == true)
        #expect(screens.last?.contains("trap at line 3") == true)
        #expect(result.stdout.contains("Enter next"))

        let impossible = try Binary.run(["explain", "serial-async-async", "--outcome", "2 4 3 1", "--step"])
        #expect(impossible.status == 0, "\(impossible.stderr)")
        #expect(Self.flat(impossible.stdout).contains("no schedule does it: 3 never comes right after 2 4"))
        let refused = try Binary.run(["explain", "serial-async-async", "--step"])
        #expect(refused.status == 1)
    }

    @Test func aLiveRunsStuckStateIsPictured() throws {
        let result = try Binary.run(["run", "semaphore-never-signalled", "--runs", "5", "--stuck"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Stuck: a deadlock (5 runs)"))
        #expect(result.stdout.contains("the live run's report: hang: the main thread waits in s.wait() at line 5"))
        #expect(result.stdout.contains("state · semaphore-never-signalled"))
        #expect(result.stdout.contains("▶5 s.wait()  ◀ main"))
    }

    @Test func checkGradesAScheduleQuestionsMoves() throws {
        let right = try Binary.run(["check", "schedule-serial-async-async-2143", "1 1 1 2 2 1 1 1", "--json"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains("\"verdict\" : \"right\""))
        let wrong = try Binary.run(["check", "schedule-serial-async-async-2143", "1 1 1 1"])
        #expect(wrong.status == 0)
        #expect(wrong.stdout.contains("wrong: make it print 2 1 4 3 and finish — out of reach since move 4: 4 was printed where the goal wants 1 next"))
        let unreadable = try Binary.run(["check", "schedule-serial-async-async-2143", "1 7"])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("move 2 is 7, but only 1–2 are offered there"))
    }

    /// The drill asks a schedule question: Enter takes the seat (from a pipe, lines of moves);
    /// typed moves answer too; both are recorded as reached or gave-up, with the hints.
    @Test func theDrillGradesAndRecordsScheduleQuestions() throws {
        let bank = try DrillEndToEndTests.fixtureBank(["schedule/schedule-serial-async-async-2143", "schedule/schedule-serial-fifo-3-never-first"])
        let folder = try Binary.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: bank)
            try? FileManager.default.removeItem(at: folder)
        }
        let progress = folder.appendingPathComponent("progress.sqlite").path
        let result = try Binary.run(
            ["--bank", bank.path, "--seed", "1", "--progress", progress],
            input: "\n1 1 1\nh\n1 1\nq\n\n1 1 1 1\n\n:quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Goal: make it print"))
        #expect(result.stdout.contains("Shown: no schedule does it."))
        #expect(result.stdout.contains("Gave up. moves 1 1 1 1: out of reach since move 4: 4 was printed where the goal wants 1 next"))
        let export = folder.appendingPathComponent("log.csv").path
        let exported = try Binary.run(["progress", "--progress", progress, "--export", export])
        #expect(exported.status == 0, "\(exported.stderr)")
        let log = try String(contentsOfFile: export, encoding: .utf8)
        #expect(log.contains("schedule-serial-fifo-3-never-first,") && log.contains(",reached,"))
        #expect(log.contains(",gave-up,"))
    }
}
