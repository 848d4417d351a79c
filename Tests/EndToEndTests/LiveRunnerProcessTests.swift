import DispatchModel
import Foundation
import LiveRun
import Testing

/// The live runner with real worker processes (the built gcdquiz): each way a run can end, within
/// the time the issue states, and no process left behind.
@Suite(.serialized) struct LiveRunnerProcessTests {
    static let runner = LiveRunner(workerExecutable: Binary.url.path, workerArguments: ["live-worker"])

    static func program(_ source: String) throws -> Program {
        try SnippetCompiler.compile(source).get()
    }

    static func seconds(_ body: () throws -> LiveHistogram) rethrows -> (LiveHistogram, Double) {
        let start = Date()
        let histogram = try body()
        return (histogram, Date().timeIntervalSince(start))
    }

    @Test func finishingRunsShareOneProcess() throws {
        let program = try Self.program("serialQueue.async { print(1) }\nprint(2)")
        let histogram = try Self.runner.run(program, options: .init(runs: 300, seed: 3))
        #expect(histogram.runs == 300)
        #expect(histogram.processes == 1)
        #expect(histogram.entries.allSatisfy { $0.outcome.end == .finished })
        #expect(Set(histogram.entries.map(\.outcome.lines)).isSubset(of: [["1", "2"], ["2", "1"]]))
    }

    @Test func aTrapEndsTheRunAsADeadlockWithLibdispatchsReason() throws {
        let program = try Self.program("print(0)\nserialQueue.sync {\n    serialQueue.sync { print(1) }\n}\nprint(2)")
        let (histogram, elapsed) = try Self.seconds { try Self.runner.run(program, options: .init(runs: 20)) }
        #expect(histogram.runs == 20)
        #expect(histogram.processes == 20)
        let entry = try #require(histogram.entries.first)
        #expect(histogram.entries.count == 1)
        #expect(entry.outcome == LiveOutcome(lines: ["0"], end: .deadlock))
        #expect(entry.reason?.contains("serialQueue.sync at line 3") == true)
        #expect(elapsed < 10)
    }

    @Test func aHangIsDetectedWithinAboutATenthOfASecond() throws {
        // Two serial queues syncing onto each other, from the main thread: always stuck.
        let program = try Self.program("""
            let a = DispatchQueue(label: "a")
            let b = DispatchQueue(label: "b")
            a.async { b.sync { print("x") } }
            b.sync { print("b"); a.sync { print("y") } }
            """)
        let (histogram, elapsed) = try Self.seconds { try Self.runner.run(program, options: .init(runs: 5, jitter: false)) }
        #expect(histogram.runs == 5)
        for entry in histogram.entries where entry.outcome.end == .deadlock {
            #expect(entry.reason?.hasPrefix("hang:") == true)
        }
        let hangs = histogram.entries.filter { $0.outcome.end == .deadlock }.map(\.count).reduce(0, +)
        #expect(hangs >= 1)
        // Each hang costs the 100 ms threshold plus a fresh child; well under a fixed timeout.
        #expect(elapsed < Double(hangs) * 0.5 + 1)
    }

    @Test func aCrashOfAnotherKindIsACrashAndTheRestGoOn() throws {
        let program = try Self.program("print(1)")
        var options = LiveRunner.Options(runs: 10, seed: 1)
        options.crashAtRun = 4
        let histogram = try Self.runner.run(program, options: options)
        #expect(histogram.runs == 10)
        #expect(histogram.count(of: LiveOutcome(lines: [], end: .crash)) == 1)
        #expect(histogram.count(of: LiveOutcome(lines: ["1"], end: .finished)) == 9)
        #expect(histogram.entries.first { $0.outcome.end == .crash }?.reason?.contains("SIGSEGV") == true)
        #expect(histogram.processes == 2)
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
