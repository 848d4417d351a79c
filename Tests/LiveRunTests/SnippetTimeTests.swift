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

    /// Snippets that take real time get fewer runs by default, never fewer than ten.
    @Test func defaultRunsFollowTheSnippetsTime() throws {
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("print(1)").get()) == 1000)
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("usleep(1000)").get(), processes: 2) == 100)
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("sleep(25)\nprint(1)").get(), processes: 2) == 10)
        #expect(LiveRunner.defaultRuns(for: try SnippetCompiler.compile("sleep(2)\nprint(1)").get(), processes: 2) == 80)
    }
}
