import ConcurrencyModel
import Foundation
@testable import LiveRun
import Testing

/// The live runner with real worker processes (the built gcdquiz): each way a run can end, within
/// the time the issue states, and no process left behind.
@Suite(.serialized) struct LiveRunnerProcessTests {
    static let runner = LiveRunner(workerExecutable: Binary.url.path, workerArguments: ["live-worker"])

    static func program(_ source: String) throws -> Program {
        try SnippetCompiler.compile(source).get()
    }

    @Test func finishingRunsShareOneProcess() throws {
        let program = try Self.program("serialQueue.async { print(1) }\nprint(2)")
        var options = LiveRunner.Options(runs: 300, seed: 3)
        options.processes = 1
        let histogram = try Self.runner.run(program, options: options)
        #expect(histogram.runs == 300)
        #expect(histogram.processes == 1)
        #expect(histogram.entries.allSatisfy { $0.outcome.end == .finished })
        #expect(Set(histogram.entries.map(\.outcome.lines)).isSubset(of: [["1", "2"], ["2", "1"]]))
    }

    @Test func aTrapEndsTheRunAsADeadlockWithLibdispatchsReason() throws {
        let program = try Self.program("print(0)\nserialQueue.sync {\n    serialQueue.sync { print(1) }\n}\nprint(2)")
        let histogram = try Self.runner.run(program, options: .init(runs: 20))
        #expect(histogram.runs == 20)
        #expect(histogram.processes == 20)
        let entry = try #require(histogram.entries.first)
        #expect(histogram.entries.count == 1)
        #expect(entry.outcome == LiveOutcome(lines: ["0"], end: .deadlock))
        #expect(entry.reason?.contains("serialQueue.sync at line 3") == true)
        #expect(entry.reason?.contains("dispatch_sync called on queue already owned by current thread") == true)
    }

    /// The interpreter makes real queues with their real targets and reads real specific values:
    /// two queues on one serial root never interleave, getSpecific follows the target.
    @Test func targetQueuesAndSpecificValuesAreReal() throws {
        let program = try Self.program("""
            let key = DispatchSpecificKey<String>()
            let root = DispatchQueue(label: "root")
            root.setSpecific(key: key, value: "root")
            let a = DispatchQueue(label: "a", target: root)
            let b = DispatchQueue(label: "b", attributes: .concurrent, target: root)
            a.async { print("a1"); print("a2") }
            b.async { print("b1"); print("b2") }
            b.async { print(DispatchQueue.getSpecific(key: key) ?? "nil") }
            """)
        let histogram = try Self.runner.run(program, options: .init(runs: 100))
        #expect(histogram.runs == 100)
        #expect(histogram.entries.allSatisfy { $0.outcome.end == .finished })
        #expect(Set(histogram.entries.map(\.outcome.lines)) == [["a1", "a2", "b1", "b2", "root"]])
    }

    /// Known from the interpreter's own books, not guessed from silence: the reason names every
    /// wait, and each hang ends its child at once.
    @Test func aHangIsRecognisedFromWhatHoldsIt() throws {
        // Two serial queues syncing onto each other: the semaphore makes the worker hold a
        // while main holds b, so every run is stuck.
        let program = try Self.program("""
            let a = DispatchQueue(label: "a")
            let b = DispatchQueue(label: "b")
            let s = DispatchSemaphore(value: 0)
            a.async { s.wait(); b.sync { print("x") } }
            b.sync { print("b"); s.signal(); a.sync { print("y") } }
            """)
        let histogram = try Self.runner.run(program, options: .init(runs: 5, jitter: false))
        #expect(histogram.runs == 5)
        let hangs = histogram.entries.filter { $0.outcome.end == .deadlock }
        #expect(hangs.map(\.count).reduce(0, +) == 5)
        for entry in hangs {
            #expect(entry.reason?.contains("the main thread waits in a.sync at line 5") == true, "\(entry.reason ?? "")")
            #expect(entry.reason?.contains("a thread waits in b.sync at line 4") == true, "\(entry.reason ?? "")")
        }
        #expect(histogram.entries.allSatisfy { $0.outcome.end != .timeout && $0.outcome.end != .crash })
    }

    @Test func aSemaphoreNobodySignalsIsAHangEveryTime() throws {
        let program = try Self.program("let s = DispatchSemaphore(value: 0)\nserialQueue.async {\n    print(\"a\")\n}\ns.wait()\nprint(\"b\")")
        let histogram = try Self.runner.run(program, options: .init(runs: 40))
        #expect(histogram.runs == 40)
        #expect(histogram.entries.map(\.outcome) == [LiveOutcome(lines: ["a"], end: .deadlock)])
        #expect(histogram.entries.first?.reason == "hang: the main thread waits in s.wait() at line 5")
    }

    /// The issue's case: blocks blocked on a semaphore hold the global pool's workers, and one
    /// more block waits (about a second on Linux) for libdispatch to add a worker. A slow pool,
    /// not a hang: every run ends as the model says, with both permitted lines printed.
    @Test func aSemaphoreThatLetsSomeThroughIsNeverCalledStuckEarly() throws {
        let source = """
            let s = DispatchSemaphore(value: 2)
            for i in 1...6 {
                DispatchQueue.global().async {
                    s.wait()
                    print(i)
                }
            }
            """
        let program = try Self.program(source)
        let exploration = Explorer().explore(program)
        let histogram = try Self.runner.run(program, options: .init(runs: 4, seed: 5))
        #expect(histogram.runs == 4)
        for entry in histogram.entries {
            #expect(entry.outcome.lines.count == 2, "\(entry.outcome) \(entry.reason ?? "")")
            #expect(entry.outcome.end == .deadlock, "\(entry.outcome) \(entry.reason ?? "")")
            #expect(entry.outcome.modelOutcome.map(exploration.outcomes.contains) == true, "\(entry.outcome)")
        }
    }

    /// A sleep longer than the margin is not a timeout: the limit moves with the snippet's own time.
    /// (The margin left is a second: a fifth of one was too little for a loaded machine to wake
    /// the thread and print after the sleep.)
    @Test func aLongSleepIsNotATimeout() throws {
        let program = try Self.program("print(0)\nsleep(8)\nprint(1)")
        var options = LiveRunner.Options(runs: 2, seed: 1)
        options.marginSeconds = 1  // the sleep takes 2 s at the runner's time scale
        let histogram = try Self.runner.run(program, options: options)
        #expect(histogram.entries.map(\.outcome) == [LiveOutcome(lines: ["0", "1"], end: .finished)])
    }

    /// A seed whose first run draws the nervous temperament: pauses at three points in four, of
    /// up to 400 µs, which make a long loop take seconds.
    static let nervousSeed = (UInt64(1)...).first { Jitter(seed: $0, run: 0).chance == 768 }!

    /// Snippet code computing without a print, slowed by jitter far past the margin (the loop
    /// takes about two seconds here): the worker's heartbeat says the run is going on, so it
    /// finishes instead of being killed as a timeout the model must explain.
    @Test func aRunComputingInSilenceIsNotATimeout() throws {
        let program = try Self.program("var x = 0\nfor i in 1...5000 {\n    x += i\n}\nprint(x)")
        var options = LiveRunner.Options(runs: 1, seed: Self.nervousSeed)
        options.marginSeconds = 1
        let histogram = try Self.runner.run(program, options: options)
        #expect(histogram.entries.map(\.outcome) == [LiveOutcome(lines: ["12502500"], end: .finished)], "\(histogram.entries.map { $0.reason ?? "" })")
    }

    /// Every line printed moves the limit: 10,000 lines taking longer than the margin in all are
    /// no timeout, and the outcome is kept by its ends, count and hash.
    @Test func aRunPrintingLongerThanTheMarginIsNotATimeout() throws {
        let program = try Self.program("for i in 1...10000 {\n    print(i)\n}")
        var options = LiveRunner.Options(runs: 1, seed: Self.nervousSeed)
        options.marginSeconds = 1
        let histogram = try Self.runner.run(program, options: options)
        #expect(histogram.entries.map(\.outcome) == [LiveOutcome(lines: (1...10000).map(String.init), end: .finished)],
                "\(histogram.entries.map { $0.reason ?? "" })")
        #expect(histogram.entries.first?.outcome.elision?.omitted == 9980)
    }

    /// A run still making progress at the longest a run may take is stopped, as too slow to
    /// finish here: a late run, which the comparison never calls unexpected.
    @Test func aRunStillGoingAtTheLongestIsLateNotUnexpected() throws {
        let program = try Self.program("for i in 1...10000 {\n    print(i)\n}")
        var options = LiveRunner.Options(runs: 1, seed: Self.nervousSeed)
        options.marginSeconds = 0.5
        options.longestRunSeconds = 0.7
        let histogram = try Self.runner.run(program, options: options)
        let entry = try #require(histogram.entries.first)
        #expect(entry.outcome.end == .timeout)
        #expect(entry.lateRuns == entry.count)
        #expect(entry.reason?.contains("still making progress: stopped as too slow to finish here (not a hang)") == true, "\(entry.reason ?? "")")
    }

    @Test func anUnbalancedLeaveAndAFailedPreconditionAreNamed() throws {
        let leave = try Self.runner.run(try Self.program("let g = DispatchGroup()\nprint(1)\ng.leave()\nprint(2)"), options: .init(runs: 3))
        #expect(leave.entries.map(\.outcome) == [LiveOutcome(lines: ["1"], end: .deadlock)])
        #expect(leave.entries.first?.reason == "trap in g.leave() at line 3: libdispatch: \"Unbalanced call to dispatch_group_leave()\" (SIGILL)")

        let precondition = try Self.runner.run(try Self.program("""
            serialQueue.sync {
                print(1)
            }
            serialQueue.async {
                dispatchPrecondition(condition: .onQueue(concurrentQueue))
                print(2)
            }
            """), options: .init(runs: 3))
        #expect(precondition.entries.map(\.outcome) == [LiveOutcome(lines: ["1"], end: .deadlock)])
        let reason = precondition.entries.first?.reason ?? ""
        #expect(reason.contains("dispatchPrecondition(condition: .onQueue(concurrentQueue)) at line 5"), "\(reason)")
        #expect(reason.contains("Block was expected to execute on queue"), "\(reason)")
        #expect(!reason.contains("dispatch_sync"), "\(reason)")
    }

    /// A Swift runtime error in the snippet's code ends the run as the model says (the process
    /// dies), under `run` as under `verify`: not a crash of the runner.
    @Test func aRuntimeErrorInTheSnippetIsItsOwnEnding() throws {
        let histogram = try Self.runner.run(try Self.program("var x = 0\nprint(1)\nprint(5 / x)\nprint(2)"), options: .init(runs: 3))
        #expect(histogram.entries.map(\.outcome) == [LiveOutcome(lines: ["1"], end: .deadlock)])
        #expect(histogram.entries.first?.reason?.contains("division by zero") == true)
    }

    @Test func aCrashOfAnotherKindIsACrashAndTheRestGoOn() throws {
        let program = try Self.program("print(1)")
        var options = LiveRunner.Options(runs: 10, seed: 1)
        options.crashAtRun = 4
        options.processes = 1
        let histogram = try Self.runner.run(program, options: options)
        #expect(histogram.runs == 10)
        #expect(histogram.count(of: LiveOutcome(lines: [], end: .crash)) == 1)
        #expect(histogram.count(of: LiveOutcome(lines: ["1"], end: .finished)) == 9)
        #expect(histogram.entries.first { $0.outcome.end == .crash }?.reason?.contains("SIGSEGV") == true)
    }

    @Test func stoppingEarlyLeavesNoProcessBehind() throws {
        let program = try Self.program("concurrentQueue.async { print(1) }\nprint(2)")
        var seen = 0
        let histogram = try Self.runner.run(program, options: .init(runs: 1_000_000), onRun: { done, _ in seen = done }, shouldStop: { seen >= 200 })
        #expect(histogram.runs >= 200)
        #expect(histogram.runs < 1_000_000)
        usleep(100_000)
        #expect(Self.workerProcesses().isEmpty)
    }

    /// Processes whose parent is this test process and whose command line is a live worker.
    static func workerProcesses() -> [String] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid -> String? in
            guard Int32(pid) != nil,
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, Int32(fields[1]) == me else { return nil }
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return command.contains("live-worker") ? pid : nil
        }
    }
}
