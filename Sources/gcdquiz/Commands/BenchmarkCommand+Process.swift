import DispatchModel
import Foundation
import Quiz

/// `benchmark --process`: gcdquiz as a user or a script meets it, a whole process at a time —
/// `--help` (the cost of starting at all), `solve FILE.swift` of each slide puzzle written to a
/// file, `solve ID`, the drill until its first prompt — beside compiling and running the same
/// snippet once with `swiftc`.
extension BenchmarkCommand {
    /// The slides' eight print-order puzzles (seed 004).
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

        print("whole processes: median and minimum of \(processRuns) runs each (wall time, spawn to exit)")
        let help = try Self.time(runs: processRuns) { try Self.spawn(executable, ["--help"]) }
        print(Self.row("gcdquiz --help", help))

        var slowestSolve = 0.0
        var slowestSnippet = ""
        for id in Self.slidePuzzles {
            guard let question = bank.question(id: id), let code = question.code else { continue }
            let file = folder.appendingPathComponent("\(id).swift")
            try code.write(to: file, atomically: true, encoding: .utf8)
            let times = try Self.time(runs: processRuns) { try Self.spawn(executable, ["solve", file.path]) }
            print(Self.row("solve \(id).swift", times))
            if times.median > slowestSolve { slowestSolve = times.median; slowestSnippet = id }
        }
        let byID = try Self.time(runs: processRuns) { try Self.spawn(executable, ["solve", "serial-async-async"] + bankArguments) }
        print(Self.row("solve serial-async-async (id)", byID))
        let drill = try Self.time(runs: max(processRuns / 3, 5)) {
            try Self.spawn(executable, ["drill", "--live-runs", "0", "--seed", "1"] + bankArguments)
        }
        print(Self.row("drill, to its first prompt", drill))

        guard let slowest = bank.question(id: slowestSnippet), let code = slowest.code else { return }
        let clock = ContinuousClock()
        let start = clock.now
        let compiled = try CompiledSnippet.build(code: code, in: folder.appendingPathComponent("swiftc"))
        _ = try compiled.run()
        let swiftc = Self.milliseconds(clock.now - start)
        print(String(format: "swiftc -O, then one run of %@: %.0f ms; solve of its file: %.1f ms, %.0f× faster",
                     slowestSnippet, swiftc, slowestSolve, swiftc / max(slowestSolve, 0.001)))
        print(String(format: "targets: solve of a slide puzzle's file ≤ 15 ms (slowest median %.1f ms) and ≥ 15× faster than swiftc; drill's first prompt ≤ 100 ms (median %.1f ms)",
                     slowestSolve, drill.median))
    }

    struct Times {
        var median: Double
        var minimum: Double
    }

    static func row(_ name: String, _ times: Times) -> String {
        name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%8.1f ms %8.1f ms", times.median, times.minimum)
    }

    /// Runs `body` `runs` times after one warm-up (page cache, dynamic linker).
    static func time(runs: Int, _ body: () throws -> Void) throws -> Times {
        try body()
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<max(runs, 1) {
            let start = clock.now
            try body()
            samples.append(milliseconds(clock.now - start))
        }
        samples.sort()
        return Times(median: samples[samples.count / 2], minimum: samples[0])
    }

    /// Starts the executable with nothing on standard input and waits for it to exit. The drill
    /// reaches its first prompt, reads the end of input there and ends at once: its time is the
    /// time to the first prompt.
    static func spawn(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure.unexpected("'\(([executable] + arguments).joined(separator: " "))' exited with \(process.terminationStatus)")
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
