import ConcurrencyModel
import LiveRun
import Quiz
import Testing

@Suite struct LiveComparisonTests {
    static let exploration = Explorer().explore(try! SnippetCompiler.compile(
        "serialQueue.async { print(1) }\nprint(2)\nserialQueue.async { print(3) }\nprint(4)").get())

    static func histogram(_ entries: [(lines: [String], end: LiveEnd, count: Int)]) -> LiveHistogram {
        LiveHistogram(
            entries: entries.map { LiveHistogram.Entry(outcome: LiveOutcome(lines: $0.lines, end: $0.end), count: $0.count) },
            runs: entries.map(\.count).reduce(0, +), seed: 1, jitter: true, processes: 1, seconds: 0.1)
    }

    @Test func allowedOutcomesAndUnseenOnes() {
        let comparison = LiveComparison(histogram: Self.histogram([(["1", "2", "3", "4"], .finished, 90), (["2", "4", "1", "3"], .finished, 10)]),
                                        exploration: Self.exploration)
        #expect(comparison.unexpected.isEmpty)
        #expect(comparison.seenCount == 2)
        #expect(comparison.possibleCount == 5)
        #expect(comparison.unseen.count == 3)
    }

    @Test func anOutcomeOutsideTheModelIsUnexpected() {
        let comparison = LiveComparison(histogram: Self.histogram([
            (["1", "2", "3", "4"], .finished, 90), (["3", "1", "2", "4"], .finished, 5),
            (["1", "2"], .crash, 3), (["1"], .timeout, 2),
        ]), exploration: Self.exploration)
        #expect(comparison.unexpected.count == 3)
        #expect(comparison.unexpected.map(\.entry.outcome.lines).contains(["3", "1", "2", "4"]))
    }

    /// A run killed at its limit stands for a deadlock: expected where the model has one with the
    /// same lines, and counted as seeing it; a crash never is.
    @Test func aTimeoutIsExpectedWhereTheModelDeadlocks() throws {
        let exploration = Explorer().explore(try SnippetCompiler.compile(
            "let s = DispatchSemaphore(value: 0)\nserialQueue.async { print(1) }\ns.wait()\nprint(2)").get())
        let comparison = LiveComparison(histogram: Self.histogram([(["1"], .timeout, 3), (["1"], .crash, 1), (["2"], .timeout, 1)]),
                                        exploration: exploration)
        #expect(comparison.unexpected.map(\.entry.outcome) == [LiveOutcome(lines: ["1"], end: .crash), LiveOutcome(lines: ["2"], end: .timeout)])
        #expect(comparison.seenCount == 1)
        #expect(comparison.unseen.isEmpty)
    }

    /// Runs compress time: a busy machine can swap events 0.1 s apart. An outcome the model
    /// forbids that only such late runs showed is no bug; one on-time run showing it is.
    @Test func anOutcomeSeenOnlyInLateRunsIsNotUnexpected() {
        let entries = [
            LiveHistogram.Entry(outcome: LiveOutcome(lines: ["1", "2", "3", "4"], end: .finished), count: 90, lateRuns: 30),
            LiveHistogram.Entry(outcome: LiveOutcome(lines: ["3", "1", "2", "4"], end: .finished), count: 4, lateRuns: 4),
            LiveHistogram.Entry(outcome: LiveOutcome(lines: ["4", "3", "2", "1"], end: .finished), count: 6, lateRuns: 5),
        ]
        let comparison = LiveComparison(
            histogram: LiveHistogram(entries: entries, runs: 100, seed: 1, jitter: true, processes: 1, seconds: 1),
            exploration: Self.exploration)
        #expect(comparison.rows.map(\.isLateOnly) == [false, true, false])
        #expect(comparison.unexpected.map(\.entry.outcome.lines) == [["4", "3", "2", "1"]])
    }

    /// When the model stopped at its budget, an outcome it did not find is not judged: not
    /// unexpected, not late, counted apart. One it did find is expected as ever.
    @Test func anIncompleteModelJudgesOnlyWhatItFound() throws {
        let program = try SnippetCompiler.compile((1...6).map { "concurrentQueue.async { print(\($0)) }" }.joined(separator: "\n")).get()
        // For the machine the runs ran on, as `run` explores it: compared as it is, not explored again.
        let partial = Explorer(stateBudget: 50).explore(program, for: .live)
        #expect(!partial.isComplete)
        let found = try #require(partial.outcomes.first)
        let missed = Explorer().explore(program, for: .live).outcomes.first { !partial.contains($0) }!
        let comparison = LiveComparison(histogram: Self.histogram([(found.lines, .finished, 5), (missed.lines, .finished, 3), (["1"], .crash, 1)]),
                                        exploration: partial)
        #expect(!comparison.isModelComplete)
        #expect(comparison.rows.map(\.isExpected) == [true, false, false])
        #expect(comparison.unjudged.map(\.entry.outcome.lines) == [missed.lines])
        // A crash is the runner's failure whatever the model found.
        #expect(comparison.unexpected.map(\.entry.outcome.end) == [.crash])
    }

    /// A long outcome is compared by its ends, count and hash, as the runner keeps it.
    @Test func aLongOutcomeMatchesTheModelsByItsSummary() throws {
        let exploration = Explorer().explore(try SnippetCompiler.compile("for i in 1...500 {\n    print(i)\n}").get())
        let lines = (1...500).map(String.init)
        var changed = lines
        changed[250] = "0"
        let comparison = LiveComparison(histogram: Self.histogram([(lines, .finished, 4), (changed, .finished, 1)]), exploration: exploration)
        #expect(comparison.rows.map(\.isExpected) == [true, false])
        #expect(comparison.unexpected.count == 1)
        #expect(comparison.unseen.isEmpty)
    }
}
