@testable import ConcurrencyModel
import Testing

/// Machines whose rules are the same share one search (`Semantics.searchedMachine(for:coresOnlyWidenTheExecutor:)`):
/// where no work waits for a thread of libdispatch's pools, the cores reach the model only
/// through the global executor's width, two on one core as on two.
@Suite struct SharedSearchTests {
    /// Three detached tasks: three run at once with enough cores, so the one-, two- and
    /// three-core machines are needed; the executor is two wide on one and on two cores.
    static let threeTasks = ExecutorPriorityTests.sameThree

    @Test func oneCoreIsAnsweredByTheTwoCoreSearch() throws {
        let exploration = try explore(Self.threeTasks, on: Machine(cores: 1))
        let one = try #require(exploration.answers[Machine(cores: 1)])
        let two = try #require(exploration.answers[Machine(cores: 2)])
        let wide = try #require(exploration.answers[Machine(cores: nil)])
        // One search: the same graph's parts, named for the machine asked.
        #expect(one.graph.machine == Machine(cores: 1))
        #expect(one.graph.edges == two.graph.edges && one.counts == two.counts)
        // Counted once.
        #expect(exploration.statesExplored == wide.graph.nodeCount + two.graph.nodeCount)
        #expect(outcomeSet(exploration) == outcomeSet(try explore(Self.threeTasks, on: Machine(cores: 2))))
    }

    /// A schedule found in the shared search says the machine it was asked for.
    @Test func aSchedulesMachineIsTheOneAsked() throws {
        let exploration = try explore(Self.threeTasks, on: Machine(cores: 1))
        let report = try #require(exploration.report(for: Outcome(lines: ["a", "b", "c"], end: .finished)))
        #expect(report.schedule.machine == Machine(cores: 1))
        #expect(!report.witness.isEmpty)
    }

    /// Main-queue blocks from a task take no pool thread: still one search.
    @Test func mainQueueWorkKeepsTheSearchShared() throws {
        let program = try SnippetCompiler.compile("""
            Task.detached {
                DispatchQueue.main.async {
                    print("main")
                }
            }
            print("top")
            """).get()
        #expect(Semantics.searchedMachine(for: Machine(cores: 1), coresOnlyWidenTheExecutor: program.coresOnlyWidenTheExecutor) == Machine(cores: 2))
    }

    /// A global queue's pool is one thread wide on one core and two on two: both searched.
    @Test func aGlobalQueuesPoolKeepsOneCoreApart() throws {
        let program = try SnippetCompiler.compile("""
            DispatchQueue.global().async {
                print("a")
            }
            DispatchQueue.global().async {
                print("b")
            }
            """).get()
        #expect(Semantics.searchedMachine(for: Machine(cores: 1), coresOnlyWidenTheExecutor: program.coresOnlyWidenTheExecutor) == Machine(cores: 1))
        let exploration = Explorer().explore(program, for: Machine(cores: 1))
        let one = try #require(exploration.answers[Machine(cores: 1)])
        #expect(one.graph.machine == Machine(cores: 1))
        #expect(exploration.answers.values.reduce(0) { $0 + $1.graph.nodeCount } == exploration.statesExplored)
    }

    /// A `concurrentPerform` splits its iterations by the cores, whichever queue it uses.
    @Test func concurrentPerformKeepsOneCoreApart() throws {
        let program = try SnippetCompiler.compile("""
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                print(i)
            }
            """).get()
        #expect(Semantics.searchedMachine(for: Machine(cores: 1), coresOnlyWidenTheExecutor: program.coresOnlyWidenTheExecutor) == Machine(cores: 1))
    }
}
