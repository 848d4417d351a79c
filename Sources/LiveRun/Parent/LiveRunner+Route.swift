import ConcurrencyModel
import Foundation

extension LiveRunner {
    /// Runs a puzzle live the way `LiveRoute` says its code must run: interpreted from its
    /// `program`, or compiled once into a harness (cached) and run on the real Swift-concurrency
    /// runtime. `compiling` is called before a compile that is not cached (it takes seconds).
    public func run(code: String, program: Program?, mode stated: LanguageMode? = nil, options: Options, compiling: () -> Void = {},
                    onRun: (Int, LiveOutcome) -> Void = { _, _ in }, shouldStop: () -> Bool = { false }) throws -> LiveHistogram {
        switch LiveRoute.route(for: code) {
        case .interpreter:
            guard let program else { throw LiveRunError.workerFailed("no program to interpret") }
            return try run(program, options: options, onRun: onRun, shouldStop: shouldStop)
        case .compiled:
            let mode = LanguageMode.mode(stated ?? program?.mode, for: code)
            if CompiledHarness.cached(code: code, mode: mode) == nil { compiling() }
            var harness = try CompiledHarness.prepare(code: code, mode: mode)
            harness.endsWithLastTask = HarnessProgram.endsWithLastTask(code: code, program: program)
            let options = Self.compiledOptions(options, code: code, program: program, cores: ProcessInfo.processInfo.activeProcessorCount)
            return try run(harness, options: options, onRun: onRun, shouldStop: shouldStop)
        }
    }

    /// The options a compiled snippet runs with where the user said nothing: one that keeps time
    /// gets its lateness bound and pause, and runs alone when its delays are short; one that keeps
    /// none gets `CompiledHarness.serversPerCore` fork servers a core.
    static func compiledOptions(_ given: Options, code: String, program: Program?, cores: Int) -> Options {
        var options = given
        if CompiledHarness.keepsTime(code) {
            let shortest = program.flatMap(SnippetTime.shortestDelay)
            if options.lateAfterMicroseconds == nil { options.lateAfterMicroseconds = CompiledHarness.lateAfter(shortestDelay: shortest) }
            if options.processes == nil, (shortest ?? 0) < CompiledHarness.sideBySideDelay { options.processes = 1 }
            if options.longestPauseMicroseconds == nil { options.longestPauseMicroseconds = CompiledHarness.longestPauseWithTime }
        } else if options.processes == nil {
            options.processes = CompiledHarness.serversPerCore * cores
        }
        return options
    }

    /// How many runs to make when the user did not say, for a puzzle that runs by `route`: see
    /// `defaultRuns(for:)`; a compiled run keeps the snippet's own time (no time scale).
    public static func defaultRuns(code: String, program: Program?) -> Int {
        guard let program else { return 1000 }
        switch LiveRoute.route(for: code) {
        case .interpreter: return defaultRuns(for: program)
        case .compiled: return defaultRuns(for: program, timeScale: 1)
        }
    }
}

extension CompiledHarness {
    /// The longest jitter pause for a snippet that sleeps or sets timers, in microseconds.
    public static let longestPauseWithTime = 50

    /// Fork servers a core for a snippet that keeps no time: a run spends about half its wall time
    /// waiting (its threads starting, jitter's pauses, the monitor's two calm looks), so one
    /// server a core left a 2-core machine half idle; two a core keep both cores busy (release
    /// build, 2 cores, 2,000 runs, interleaved: `actor-calls-from-main-tasks` 557–567 against
    /// 640–697 runs/s, `continuation-from-queue` 436–504 against 596–610). Without time in the
    /// snippet the model has no clock, so a run whose threads wait for a core shows no outcome
    /// the model would not allow.
    public static let serversPerCore = 2

    /// The shortest delay, in microseconds, of a snippet whose compiled runs may go two side by
    /// side (`LiveRunner.Options.processes`).
    public static let sideBySideDelay = 20_000

    /// How long the machine may hold a thread of a snippet whose shortest delay is
    /// `shortestDelay` µs before the run counts as late: half that delay (a hold seen across two
    /// of the monitor's looks still shows in one), at most 10 ms; 1 ms when the model does not
    /// take the snippet or its delays are computed. On a quiet 2-core machine a run's longest
    /// hold is about 0.25 ms (a new process's threads waiting for their first turn).
    public static func lateAfter(shortestDelay: Int?) -> Int {
        guard let shortestDelay else { return 1000 }
        return max(250, min(shortestDelay / 2, 10_000))
    }

    /// Whether a snippet sleeps or sets timers (by its text: the model may not take it).
    public static func keepsTime(_ code: String) -> Bool {
        ["sleep", "asyncAfter", "Timer", "wait(timeout", "DispatchTime"].contains { code.contains($0) }
    }
}
