import Foundation
import Progress
import Quiz
import Testing

/// The drill, `review` and `interview` with a memory: each answer recorded as it is graded (in a
/// temporary HOME), a returning learner's session starting with what was missed, `--missed`,
/// `--no-progress`, a location that cannot be written, two sessions at once, a killed session.
@Suite struct MemoryEndToEndTests {
    /// A temporary HOME with the two-puzzle bank: with seed 1, serial-sync-sync then serial-async-async.
    struct Learner {
        let home: URL
        let bank: URL

        init() throws {
            home = try Binary.temporaryFolder()
            bank = try DrillEndToEndTests.fixtureBank()
        }

        var environment: [String: String] { ["HOME": home.path, "XDG_DATA_HOME": "", "XDG_STATE_HOME": home.path, "GCDQUIZ_PROGRESS": ""] }
        var database: String { home.path + "/.local/share/gcdquiz/progress.sqlite" }

        func run(_ arguments: [String], input: String) throws -> Binary.Result {
            let quiet = arguments.first == "interview" ? [] : ["--live-runs", "0"]
            return try Binary.run(arguments + ["--bank", bank.path] + quiet, input: input, environment: environment)
        }

        /// The recorded answers, oldest first.
        func reviews() throws -> [Review] {
            guard let store = ProgressStore.open(at: database).store else { return [] }
            return try store.reviews()
        }

        func remove() {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: bank)
        }
    }

    @Test func theNextSessionStartsWithTheQuestionMissed() throws {
        let learner = try Learner()
        defer { learner.remove() }
        // serial-sync-sync right; serial-async-async incomplete (one of its outcomes only).
        let first = try learner.run(["--seed", "1"], input: "1 2 3 4\n\n1 2 3 4\n\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.contains("Welcome back"))
        let recorded = try learner.reviews()
        #expect(recorded.map(\.questionID) == ["serial-sync-sync", "serial-async-async"])
        #expect(recorded.map(\.grade) == [.exact, .incomplete])
        #expect(recorded.allSatisfy { $0.mode == .drill && $0.seed == 1 && $0.answer == "1 2 3 4" })

        let second = try learner.run(["--seed", "1"], input: "")
        #expect(second.status == 0, "\(second.stderr)")
        // The question missed is due again: counted once, not also as "1 missed".
        #expect(second.stdout.contains("Welcome back: 1 due today (missed last time), 8 new left today."))
        let asyncAt = try #require(second.stdout.range(of: "Two async calls on a serial queue"))
        let syncAt = second.stdout.range(of: "Two sync calls on a serial queue")
        #expect(syncAt == nil || asyncAt.lowerBound < syncAt!.lowerBound)

        // Only what was missed.
        let missed = try learner.run(["drill", "--missed"], input: "")
        #expect(missed.stdout.contains("1/1"))
        #expect(missed.stdout.contains("Two async calls on a serial queue"))
        #expect(!missed.stdout.contains("Two sync calls on a serial queue"))
    }

    @Test func helpBeforeAnsweringAndSkipsAreRecorded() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let result = try learner.run(["--seed", "1"], input: ":hint\n1 2 3 4\n\n:skip\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("comes back at the end of the session, and in a later session"))
        let recorded = try learner.reviews()
        #expect(recorded.map(\.grade) == [.exact, .skipped])
        #expect(recorded.first?.hints == 1)
        #expect(recorded.first?.rating == .hard)
    }

    @Test func noProgressRecordsNothing() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let result = try learner.run(["--seed", "1", "--no-progress"], input: "1 2 3 4\n\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: learner.database))
    }

    @Test func aPlaceThatCannotBeWrittenIsSaidOnceAndTheSessionGoesOn() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let result = try learner.run(["--seed", "1", "--progress", "/proc/gcdquiz/progress.sqlite"], input: "1 2 3 4\n\n1 2 3 4\n\n")
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "records nothing").count == 2, "\(result.stderr)")
        #expect(result.stdout.contains("Session over. 2 answered"))
    }

    @Test func twoSessionsAtOnceAreBothRecorded() throws {
        let learner = try Learner()
        defer { learner.remove() }
        nonisolated(unsafe) var results: [Binary.Result?] = [nil, nil]
        let threads = (0..<2).map { index in
            Thread { results[index] = try? learner.run(["--seed", "1"], input: "1 2 3 4\n\n1 2 3 4\n\n") }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(10_000) }
        #expect(results.allSatisfy { $0?.status == 0 })
        let recorded = try learner.reviews().count
        #expect(recorded == 4, "\(recorded) answers recorded; the sessions said: \(results.map { $0?.stderr ?? "(no result)" })")
    }

    @Test func aSessionKilledAfterTwoAnswersKeepsThem() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let drill = try SpawnedProcess(["--bank", learner.bank.path, "--seed", "1", "--live-runs", "0"], environment: learner.environment, stdin: .pipe)
        drill.type("1 2 3 4\n\n")
        #expect(drill.waitForOutput("2/2"))
        drill.type("1 2 3 4\n")
        #expect(drill.waitForOutput("next> ", times: 2))
        kill(drill.pid, SIGKILL)
        #expect(drill.finish() == .signalled(SIGKILL))
        #expect(try learner.reviews().map(\.questionID) == ["serial-sync-sync", "serial-async-async"])
    }

    @Test func reviewAsksNewQuestionsAndASkippedOneComesBack() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let first = try learner.run(["review", "--new", "1", "--seed", "1"], input: ":skip\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Review: 0 due now, then 1 new."))
        let skipped = try #require(try learner.reviews().first)
        #expect(skipped.grade == .skipped && skipped.mode == .review)
        let second = try learner.run(["review", "--new", "1", "--seed", "1"], input: "")
        #expect(second.stdout.contains(skipped.questionID))
        #expect(try learner.run(["review", "--new", "0"], input: "").stdout.contains("Nothing is due now"))
    }

    @Test func anInterviewThroughAPipeWithAShortLimit() throws {
        let learner = try Learner()
        defer { learner.remove() }
        // Two questions, three seconds each: the first answered, the second left to run out.
        let interview = try SpawnedProcess(["interview", "--bank", learner.bank.path, "--questions", "2", "--minutes", "0.1", "--seed", "1"],
                                           environment: learner.environment, stdin: .pipe)
        #expect(interview.waitForOutput("answer> "))
        interview.type("1 2 3 4\n")
        #expect(interview.waitForOutput("Time is up", timeout: 30))
        #expect(interview.finish(timeout: 30) == .exited(0))
        let output = interview.stdout
        #expect(output.contains("Mock interview: 2 questions"))
        #expect(output.contains("[0:03] answer> "))
        #expect(output.contains("Readiness report"))
        #expect(output.contains("ran out of time"))
        #expect(output.contains("Verdict: "))
        #expect(!output.contains(":hint"))
        let recorded = try learner.reviews()
        #expect(recorded.count == 2)
        #expect(recorded.allSatisfy { $0.mode == .interview })
        #expect(recorded.last?.grade == .unanswered)
    }

    @Test func hintsAreRefusedInAnInterview() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let result = try learner.run(["interview", "--questions", "1", "--seed", "1"], input: ":run\n:hint\n1 2 3 4\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Not during the interview: :run comes after it"))
        #expect(result.stdout.contains("Not during the interview: :hint comes after it"))
        #expect(result.stdout.contains("Verdict: "))
    }

    @Test func theGreetingAtATerminal() throws {
        let learner = try Learner()
        defer { learner.remove() }
        _ = try learner.run(["--seed", "1"], input: "1 2 3 4\n\n1 2 3 4\n\n")
        var environment = ProcessInfo.processInfo.environment.merging(learner.environment) { $1 }
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GCDQUIZ_BANK")
        let terminal = try PseudoTerminal(arguments: ["--bank", learner.bank.path, "--seed", "1", "--live-runs", "0"],
                                          environment: environment, size: (80, 24))
        #expect(terminal.waitFor("answer> "))
        #expect(terminal.screen.contains("Welcome back: 1 due today (missed last time), 8 new left today."))
        #expect(terminal.screen.contains("Two async calls on a serial queue"))
        terminal.type("\u{4}")
    }

    @Test func aGeneratedPuzzleIsAskedAndRecordedWithItsCode() throws {
        let learner = try Learner()
        defer { learner.remove() }
        let result = try learner.run(["drill", "--generated", "--count", "1", "--seed", "2"], input: "deadlock\n\n")
        #expect(result.status == 0, "\(result.stderr)")
        let recorded = try #require(try learner.reviews().first)
        #expect(result.stdout.contains(recorded.questionID))
        #expect(recorded.code?.isEmpty == false)
        #expect(recorded.contentHash == ContentHash.of(code: recorded.code!))
        #expect(!recorded.topics.isEmpty)
        #expect(recorded.questionID != "serial-sync-sync" && recorded.questionID != "serial-async-async")
    }

    @Test func aReviewAsksAVariantOfAMasteredPuzzle() throws {
        let learner = try Learner()
        defer { learner.remove() }
        _ = try learner.run(["--seed", "1", "--count", "1"], input: "1 2 3 4\n\n")
        let right = try #require(try learner.reviews().first)
        #expect(right.questionID == "serial-sync-sync" && right.grade == .exact)
        // The same right answer months before, again and again: mastered.
        let earlier = [150.0, 120, 80, 30].map { days in
            var copy = right
            copy.id = UUID().uuidString.lowercased()
            copy.answeredAt = right.answeredAt.addingTimeInterval(-days * 86_400)
            return copy
        }
        try #require(ProgressStore.open(at: learner.database).store).merge(earlier)
        let result = try learner.run(["review", "--new", "0", "--variants", "1", "--seed", "4"], input: "")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("and 1 fresh variant(s) of puzzles you have mastered."))
        #expect(result.stdout.contains("serial-sync-sync-v"))
    }
}
