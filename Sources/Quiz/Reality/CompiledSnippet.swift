import DispatchModel
import Foundation
import LiveRun

/// A snippet compiled by `swiftc` into a real program, with the prelude in front: what a learner
/// would do without gcdquiz, and the check of the model against the real compiler.
public struct CompiledSnippet: Sendable {
    public let executable: URL
    /// How long the program serves the main queue before it exits by itself.
    public var graceMilliseconds = 20

    /// After the top-level code, the main thread serves the main queue through its run loop for
    /// `graceMilliseconds`, then the program exits. Not `dispatchMain()`: on Linux it ends the
    /// main thread and main-queue blocks then run on a worker, where `Thread.isMainThread` is
    /// false. Standard output is line-buffered so that a trap loses nothing.
    public static func source(for code: String, graceMilliseconds: Int) -> String {
        Prelude.source + "setvbuf(stdout, nil, _IOLBF, 0)\n" + code
            + "\nDispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(\(graceMilliseconds))) { exit(0) }\nRunLoop.main.run()\n"
    }

    /// How long a compiled snippet's main thread should serve the main queue before exiting: long
    /// enough for every sleep and timer in it, plus a margin.
    public static func grace(for program: Program) -> Int {
        var microseconds = 0
        for block in program.blocks {
            for statement in block.statements {
                switch statement.action {
                case .sleep(let time), .dispatchAfter(_, let time, _), .timedWait(_, let time, _):
                    microseconds += time
                default:
                    break
                }
            }
        }
        return 200 + microseconds / 1000
    }

    /// Compiles with optimisation in Swift 5 mode (as a Playground would accept the code).
    public static func build(code: String, graceMilliseconds: Int = 20, in directory: URL) throws -> CompiledSnippet {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("main.swift")
        try source(for: code, graceMilliseconds: graceMilliseconds).write(to: file, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent("snippet")
        let result = try Self.execute("/usr/bin/env", ["swiftc", "-O", "-swift-version", "5", file.path, "-o", executable.path])
        guard result.status == 0 else {
            throw ProblemList([Problem(.error, "swiftc failed: \(result.output.prefix(2000))", at: nil)])
        }
        return CompiledSnippet(executable: executable, graceMilliseconds: graceMilliseconds)
    }

    /// Runs the program once: its lines, and `finished` (exit 0), `deadlock` (libdispatch's
    /// trap) or `crash`.
    /// A program whose main thread is blocked never reaches its exit: it is killed after the
    /// grace period and two seconds more, and counts as a deadlock.
    public func run() throws -> LiveOutcome {
        let result = try Self.execute(executable.path, [], environment: ["SWIFT_BACKTRACE": "enable=no"],
                                      killAfter: Double(graceMilliseconds) / 1000 + 2)
        if result.killed {
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            return LiveOutcome(lines: lines, end: .deadlock)
        }
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let printed = lines.last == "" ? Array(lines.dropLast()) : lines
        switch (result.signal, result.status) {
        case (0, 0): return LiveOutcome(lines: printed, end: .finished)
        case (SIGILL, _), (SIGTRAP, _): return LiveOutcome(lines: printed, end: .deadlock)
        default: return LiveOutcome(lines: printed, end: .crash)
        }
    }

    struct Execution {
        var status: Int32
        var signal: Int32
        var stdout: String
        var output: String
        var killed = false
    }

    static func execute(_ path: String, _ arguments: [String], environment extra: [String: String] = [:],
                        killAfter seconds: Double? = nil) throws -> Execution {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = KillSwitch()
        if let seconds {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if watchdog.arm() { kill(pid, SIGKILL) }
            }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let killed = !watchdog.disarm()
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : 0
        let text = String(decoding: stdout, as: UTF8.self)
        return Execution(
            status: signal == 0 ? process.terminationStatus : 0, signal: signal, stdout: text,
            output: text + String(decoding: stderr, as: UTF8.self), killed: killed)
    }
}

/// Decides once between "the process ended" and "the watchdog killed it".
private final class KillSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var decided = false
    private var fired = false

    /// The watchdog's turn: true if it may kill (the process has not ended yet).
    func arm() -> Bool {
        lock.withLock {
            guard !decided else { return false }
            decided = true
            fired = true
            return true
        }
    }

    /// After the process ended: false if the watchdog had killed it.
    func disarm() -> Bool {
        lock.withLock {
            decided = true
            return !fired
        }
    }
}
