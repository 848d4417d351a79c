import ConcurrencyModel
import Testing
@testable import LiveRun

/// A run's lines in bounded memory: short outcomes whole, long ones by their ends, count and hash,
/// the same however they were gathered.
@Suite struct PrintedLinesTests {
    static func lines(_ count: Int, changing index: Int? = nil) -> [String] {
        (1...count).map { $0 == index ? "changed" : String($0) }
    }

    @Test func anOutcomeOfAHundredLinesIsKeptWhole() {
        let outcome = LiveOutcome(lines: Self.lines(100), end: .finished)
        #expect(outcome.elision == nil)
        #expect(outcome.lines == Self.lines(100))
        #expect(outcome.modelOutcome == Outcome(lines: Self.lines(100), end: .finished))
    }

    @Test(arguments: [101, 105, 10_000])
    func aLongerOneKeepsItsEndsTheCountAndAHash(count: Int) {
        let outcome = LiveOutcome(lines: Self.lines(count), end: .finished)
        let elision = try! #require(outcome.elision)
        #expect(outcome.lines == Self.lines(10) + Self.lines(count).suffix(10))
        #expect(elision.headCount == 10)
        #expect(elision.omitted == count - 20)
        #expect(outcome.lineCount == count)
        #expect(outcome.ends.tail == Self.lines(count).suffix(10))
        #expect(outcome.modelOutcome == nil)
    }

    /// Two long outcomes that differ only in the middle differ; the same lines, gathered one by
    /// one by the runner or given whole, are the same outcome.
    @Test func longOutcomesCompareByEveryLine() {
        let first = LiveOutcome(lines: Self.lines(5000), end: .finished)
        #expect(first != LiveOutcome(lines: Self.lines(5000, changing: 2500), end: .finished))
        #expect(first != LiveOutcome(lines: Self.lines(5000), end: .deadlock))
        var printed = PrintedLines()
        for line in Self.lines(5000) { printed.append(line) }
        #expect(printed.outcome(end: .finished) == first)
        #expect(LiveOutcome(model: Outcome(lines: Self.lines(5000), end: .finished)) == first)
        #expect(LiveOutcome(lines: Self.lines(5000), end: .timeout).asModelEnding == LiveOutcome(model: Outcome(lines: Self.lines(5000), end: .deadlock)))
    }
}
