import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

/// `benchmark --process`: gcdquiz as a user or a script meets it, a whole process at a time —
/// `--help` (the cost of starting at all), `solve FILE.swift` of each slide puzzle written to a
/// file, `solve ID`, the drill until its first prompt — beside compiling and running the same
/// snippet once with `swiftc`.
extension BenchmarkCommand {
    /// The eight print-order puzzles of the slides "iOS 并发编程 — GCD & Operation".
    static let slidePuzzles = [
        "serial-sync-sync", "serial-async-async", "serial-sync-in-async", "serial-async-in-sync",
        "concurrent-sync-sync", "concurrent-async-async", "concurrent-sync-in-async", "concurrent-async-in-sync",
    ]

    func benchmarkProcesses(bank: Bank) throws {
        #if DEBUG
        print("note: this is a debug build; figures for the record come from a release build")
        #endif
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let bankArguments = ["--bank", bank.root]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-process-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        print("whole processes, \(processRuns) runs each: wall time from spawn to exit (median, minimum), and CPU time (median)")
        print("command".padding(toLength: 40, withPad: " ", startingAt: 0) + "      wall  min wall       CPU")
        let help = try Self.time(runs: processRuns, executable, ["--help"])
        print(Self.row("gcdquiz --help", help))

        var slowestSolve = 0.0
        var slowestSnippet = ""
        for id in Self.slidePuzzles {
            guard let question = bank.question(id: id), let code = question.code else { continue }
            let file = folder.appendingPathComponent("\(id).swift")
            try code.write(to: file, atomically: true, encoding: .utf8)
            let times = try Self.time(runs: processRuns, executable, ["solve", file.path])
            print(Self.row("solve \(id).swift", times))
            if times.median > slowestSolve { slowestSolve = times.median; slowestSnippet = id }
        }
        let byID = try Self.time(runs: processRuns, executable, ["solve", "serial-async-async"] + bankArguments)
        print(Self.row("solve serial-async-async (id)", byID))
        let drill = try Self.time(runs: max(processRuns / 3, 5), executable, ["drill", "--live-runs", "0", "--seed", "1"] + bankArguments)
        print(Self.row("drill, to its first prompt", drill))

        guard let slowest = bank.question(id: slowestSnippet), let code = slowest.code else { return }
        let clock = ContinuousClock()
        let start = clock.now
        let compiled = try CompiledSnippet.build(code: code, in: folder.appendingPathComponent("swiftc"))
        _ = try compiled.run()
        let swiftc = Self.milliseconds(clock.now - start)
        print(String(format: "swiftc -O, then one run of %@: %.0f ms; solve of its file: %.1f ms (median wall), %.0f× faster",
                     slowestSnippet, swiftc, slowestSolve, swiftc / max(slowestSolve, 0.001)))
        print(String(format: "targets: solve of a slide puzzle's file ≤ 15 ms (slowest median %.1f ms) and ≥ 15× faster than swiftc; drill's first prompt ≤ 100 ms (median %.1f ms)",
                     slowestSolve, drill.median))
    }

    struct Times {
        var median: Double
        var minimum: Double
        /// Median CPU time (user + system): less sensitive than wall time to a busy machine.
        var cpu: Double
    }

    static func row(_ name: String, _ times: Times) -> String {
        name.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%8.1f ms %8.1f ms %8.1f ms", times.median, times.minimum, times.cpu)
    }

    /// Runs the command `runs` times after one warm-up (page cache, dynamic linker).
    static func time(runs: Int, _ executable: String, _ arguments: [String]) throws -> Times {
        _ = try spawn(executable, arguments)
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<max(runs, 1) {
            let sample = try spawn(executable, arguments)
            wall.append(sample.wall)
            cpu.append(sample.cpu)
        }
        wall.sort()
        cpu.sort()
        return Times(median: wall[wall.count / 2], minimum: wall[0], cpu: cpu[cpu.count / 2])
    }

    /// Starts the executable with standard input, output and error on /dev/null and waits for
    /// it: posix_spawn and wait4, not Foundation's Process, whose own overhead would be most of
    /// what is measured. The drill reaches its first prompt, reads the end of input there and
    /// ends at once: its time is the time to the first prompt.
    static func spawn(_ executable: String, _ arguments: [String]) throws -> (wall: Double, cpu: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CommandFailure.unexpected("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = milliseconds(clock.now - start)
        guard status == 0 else {
            throw CommandFailure.unexpected("'\(([executable] + arguments).joined(separator: " "))' ended with status \(status)")
        }
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
        return (wall, cpu)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
