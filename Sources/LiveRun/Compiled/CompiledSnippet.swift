import ConcurrencyModel
import Foundation

/// A snippet compiled by `swiftc` into a real program, with the prelude in front: what a learner
/// would do without gcdquiz, and the check of the model against the real compiler. Run by the
/// same process runner, and its endings told by the same classification, as the live runs.
public struct CompiledSnippet: Sendable {
    public let executable: URL
    /// How long the program serves the main queue before it exits by itself.
    public var graceMilliseconds: Int

    /// After the top-level code, the main thread serves the main queue through its run loop for
    /// `graceMilliseconds` (or as many as its first argument says), then the program exits. Not
    /// `dispatchMain()`: on Linux it ends the main thread and main-queue blocks then run on a
    /// worker, where `Thread.isMainThread` is false. Standard output is line-buffered so that a
    /// trap loses nothing.
    public static func source(for code: String, graceMilliseconds: Int) -> String {
        Prelude.source + AsyncAndWaitShim.source(for: code) + "setvbuf(stdout, nil, _IOLBF, 0)\n" + code
            + "\nDispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? \(graceMilliseconds))) { exit(0) }"
            + "\nRunLoop.main.run()\n"
    }

    /// How long a compiled snippet's main thread should serve the main queue before exiting: long
    /// enough for every sleep, timer and timeout in it, plus a margin.
    public static func grace(for program: Program) -> Int {
        let milliseconds = SnippetTime.upperBound(of: program) / 1000
        return 200 + min(milliseconds, 86_400_000)
    }

    /// Compiles with optimisation in Swift 5 mode (as a Playground would accept the code).
    public static func build(code: String, graceMilliseconds: Int = 20, in directory: URL) throws -> CompiledSnippet {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("main.swift")
        try source(for: code, graceMilliseconds: graceMilliseconds).write(to: file, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent("snippet")
        let result = try ProcessRun.execute("/usr/bin/env", ["swiftc", "-O", "-swift-version", "5", "-module-cache-path", CompiledHarness.moduleCache(), file.path, "-o", executable.path])
        guard result.death == .exited(0) else {
            throw ProblemList([Problem(.error, "swiftc failed: \((result.stdout + result.stderr).prefix(2000))", at: nil)])
        }
        return CompiledSnippet(executable: executable, graceMilliseconds: graceMilliseconds)
    }

    /// Checks a snippet as real Swift with the prelude in front, as a Playground would compile it
    /// (`swiftc -swift-version 5`, or the puzzle's `mode`): the check every bank puzzle, and every
    /// generated one, must pass. It goes as far as SIL (`-emit-sil`), not only `-typecheck`:
    /// Swift 6's region-based isolation errors ("sending 'completion' risks causing data races")
    /// come from a SIL pass, and `-typecheck` passes code the compiler then refuses. Diagnostics
    /// name `fileName` at the snippet's own lines. Throws only when swiftc cannot be started.
    public static func typeCheck(_ code: String, mode: LanguageMode = LanguageMode(swiftVersion: 5),
                                 fileName: String = "snippet.swift") throws -> (succeeded: Bool, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-typecheck-\(UUID().uuidString).swift")
        try (Prelude.source + AsyncAndWaitShim.source(for: code) + "#sourceLocation(file: \"\(fileName)\", line: 1)\n" + code).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRun.execute("/usr/bin/env", ["swiftc"] + mode.swiftcArguments + ["-module-cache-path", CompiledHarness.moduleCache(), "-emit-sil", "-o", "/dev/null", file.path])
        return (result.death == .exited(0), result.stdout + result.stderr)
    }

    /// The model's outcome a run of the compiled program shows, or nil if the model does not
    /// allow it. A program that exits after its grace period may leave work stuck on other
    /// threads, so a finished run may also show a stuck outcome.
    public static func allowedOutcome(_ run: LiveOutcome, possible: Set<Outcome>) -> Outcome? {
        allowedOutcome(run, isPossible: possible.contains)
    }

    static func allowedOutcome(_ run: LiveOutcome, isPossible: (Outcome) -> Bool) -> Outcome? {
        let stuck = Outcome(lines: run.lines, end: .deadlock)
        if let model = run.modelOutcome, isPossible(model) { return model }
        if run.end == .finished, isPossible(stuck) { return stuck }
        return nil
    }

    /// Runs the program once and tells whether the model allows what it showed. A run that
    /// exits after its grace period having printed only the start of an outcome the model allows
    /// was cut short, not wrong: on a loaded machine the workers may not have been scheduled yet.
    /// Such a run is repeated with one, then five seconds more, before it counts.
    public func check(against possible: Set<Outcome>) throws -> (outcome: LiveOutcome, reason: String, allowed: Outcome?) {
        try check(isPossible: possible.contains) { lines in
            possible.contains { $0.lines.count > lines.count && $0.lines.starts(with: lines) }
        }
    }

    /// The same against the model's answer for a machine, also when its outcomes are too many to list.
    public func check(against exploration: Exploration) throws -> (outcome: LiveOutcome, reason: String, allowed: Outcome?) {
        try check(isPossible: exploration.contains, continues: exploration.continues)
    }

    private func check(isPossible: (Outcome) -> Bool, continues: ([String]) -> Bool) throws -> (outcome: LiveOutcome, reason: String, allowed: Outcome?) {
        var extensions = [1000, 5000][...]
        var grace = graceMilliseconds
        while true {
            let (outcome, reason) = try run(graceMilliseconds: grace)
            let allowed = Self.allowedOutcome(outcome, isPossible: isPossible)
            let cutShort = allowed == nil && outcome.end == .finished && continues(outcome.lines)
            guard cutShort, let more = extensions.popFirst() else { return (outcome, reason, allowed) }
            grace = graceMilliseconds + more
        }
    }

    /// Runs the program once: its lines, and how it ended with the reason. `finished` means it
    /// exited by itself after the grace period (work may remain blocked on other threads); a
    /// program whose main thread never gets there is killed two seconds later: a `timeout`.
    public func run(graceMilliseconds: Int? = nil) throws -> (outcome: LiveOutcome, reason: String) {
        let grace = graceMilliseconds ?? self.graceMilliseconds
        let limit = Double(grace) / 1000 + 2
        let result = try ProcessRun.execute(executable.path, ["\(grace)"], environment: ["SWIFT_BACKTRACE": "enable=no", "LIBDISPATCH_LOG": "stderr"],
                                            limit: limit)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let printed = lines.last == "" ? Array(lines.dropLast()) : lines
        guard let death = result.death else {
            let (end, reason) = Ending.timeout(after: result.seconds)
            return (LiveOutcome(lines: printed, end: end), reason)
        }
        let (end, reason) = Ending.classify(death, stderr: result.stderr, culprit: nil, runner: .compiledSnippet)
        return (LiveOutcome(lines: printed, end: end), reason)
    }
}
