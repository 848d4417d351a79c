@testable import ConcurrencyModel
import Testing

/// The schedule the helper thread walks before the searches (`WidthProbe`): it must see the
/// widths the widest search sees late (or the second thread starts on a narrower machine and
/// the longest search comes last), and never more than that search sees (or a thread would
/// search a machine no answer needs; `WidthProbeBankTests` checks the whole bank).
@Suite struct WidthProbeTests {
    /// The counter puzzle: two detached tasks, an async let's child and the actor's job
    /// run at once; the widest search sees it only after most of its states.
    static let counter = SwiftConcurrencyTests.counter

    static func widths(_ source: String) throws -> (probe: Int, search: Int) {
        let program = try SnippetCompiler.compile(source).get()
        let probe = WidthProbe.width(of: program, on: Machine(cores: nil))
        let exploration = Explorer().explore(program, for: Machine(cores: nil))
        let graph = try #require(exploration.answers[Machine(cores: nil)]).graph
        return (probe, max(graph.maxBusyWorkers, graph.maxPerformIterations))
    }

    @Test func seesTheCounterPuzzlesFourJobsAtOnce() throws {
        let (probe, search) = try Self.widths(Self.counter)
        #expect(search == 4)
        #expect(probe == 4)
    }

    /// Blocks on a concurrent queue start before the ones started run on.
    @Test func startsEveryBlockBeforeRunningOne() throws {
        let (probe, search) = try Self.widths("""
            for i in 0..<3 {
                concurrentQueue.async {
                    print(i)
                }
            }
            """)
        #expect(search == 3)
        #expect(probe == 3)
    }

    @Test func countsAConcurrentPerformsIterations() throws {
        let (probe, _) = try Self.widths("""
            DispatchQueue.concurrentPerform(iterations: 3) { i in
                print(i)
            }
            """)
        #expect(probe == 3)
    }

    /// A loop that never ends: the walk stops at its step limit.
    @Test func stopsInAnEndlessLoop() throws {
        let program = try SnippetCompiler.compile("""
            var n = 0
            while true {
                n += 1
            }
            """).get()
        #expect(WidthProbe.width(of: program, on: Machine(cores: nil)) == 0)
    }
}
