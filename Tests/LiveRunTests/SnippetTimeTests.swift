import ConcurrencyModel
import Testing

@testable import LiveRun

@Suite struct SnippetTimeTests {
    static func bound(_ source: String) throws -> Int {
        SnippetTime.upperBound(of: try SnippetCompiler.compile(source).get())
    }

    @Test func sleepsTimersAndTimeoutsAddUp() throws {
        #expect(try Self.bound("print(1)") == 0)
        #expect(try Self.bound("sleep(25)\nprint(1)") == 25_000_000)
        #expect(try Self.bound("usleep(1000)\nserialQueue.asyncAfter(deadline: .now() + 0.5) { Thread.sleep(forTimeInterval: 0.25) }") == 751_000)
    }

    @Test func loopsMultiplyAndBranchesTakeTheLonger() throws {
        #expect(try Self.bound("for _ in 1...4 {\n    concurrentQueue.async { usleep(1000) }\n}") == 4000)
        #expect(try Self.bound("for _ in 0..<3 { usleep(10) }") == 30)
        #expect(try Self.bound("var x = 1\nif x == 1 { usleep(100) } else { usleep(300) }") == 300)
    }

    /// The grain of a snippet's clock: its shortest delay written as a number, whatever kind.
    @Test func theShortestDelayIsTheSnippetsGrain() throws {
        func shortest(_ source: String) throws -> Int? { SnippetTime.shortestDelay(of: try SnippetCompiler.compile(source).get()) }
        #expect(try shortest("print(1)") == nil)
        #expect(try shortest("usleep(0)\nprint(1)") == nil)
        #expect(try shortest("usleep(1000)\nserialQueue.asyncAfter(deadline: .now() + 0.5) { Thread.sleep(forTimeInterval: 0.25) }") == 1000)
        #expect(try shortest("Task {\n    try? await Task.sleep(nanoseconds: 1_000_000)\n    print(1)\n}\nsleep(1)") == 1000)
    }

    /// A compiled run is late once the machine held a thread half the shortest delay, within
    /// bounds: never under the 0.25 ms a new process's threads wait for their first turn.
    @Test func aRunIsLateAfterHalfTheShortestDelay() {
        #expect(CompiledHarness.lateAfter(shortestDelay: 1000) == 500)
        #expect(CompiledHarness.lateAfter(shortestDelay: 100) == 250)
        #expect(CompiledHarness.lateAfter(shortestDelay: 60_000_000) == 10_000)
        #expect(CompiledHarness.lateAfter(shortestDelay: nil) == 1000)
    }

    /// Snippets that take real time get fewer runs by default, never fewer than ten.
    @Test func defaultRunsFollowTheSnippetsTime() throws {
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("print(1)").get()) == 1000)
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("usleep(1000)").get(), processes: 2) == 100)
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("sleep(25)\nprint(1)").get(), processes: 2) == 10)
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("sleep(2)\nprint(1)").get(), processes: 2) == 80)
    }
}
