import ArgumentParser
import ConcurrencyModel
import Foundation
import LiveRun
import Quiz

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Execute a snippet live on libdispatch many times and print the histogram beside the model.",
        discussion: """
            Each run executes the snippet on real DispatchQueues in a child process. By default small \
            seeded pauses at scheduling points bring out rare interleavings; --no-jitter shows the raw \
            behaviour. An outcome the model says is impossible is flagged UNEXPECTED (exit code 2). Runs \
            go on in one worker process per core; a run that sleeps may take as long as its sleeps and \
            timers (scaled by 1/4) plus a margin that every line printed moves on. When the model stops \
            at its budget (--max-states, --max-memory), outcomes it did not find are not judged. At a \
            terminal, a progress line on standard error shows how far along the runs are; Ctrl-C (or \
            SIGTERM) stops them and shows what was seen.
            """)

    @OptionGroup var bank: BankOptions

    @Argument(help: ArgumentHelp("A question id, or a .swift / .yaml file.", valueName: "id|file"))
    var target: String

    @Option(name: .long, help: "How many runs (default 1000; for snippets that sleep or set timers, whose runs take real time, 100 or as many as fit in about 20 s, at least 10).")
    var runs: Int?

    @Option(name: .long, help: "Seed for the jitter, to reproduce a series of runs.")
    var seed: UInt64 = 1

    @Flag(name: .long, help: "No pauses: the raw behaviour of libdispatch.")
    var noJitter = false

    @Option(name: .long, help: "Worker processes running at once (default: one per core).")
    var processes: Int?

    @Flag(name: .long, help: "Print JSON: {\"outcomes\": [{\"lines\", \"end\", \"count\", …}], \"unseen\", …}.")
    var json = false

    @Flag(name: .long, help: "After the histogram, each outcome that ended stuck (a deadlock or a timeout), pictured as the scheduler's seat shows the state it stopped in.")
    var stuck = false

    @OptionGroup var budgets: ExplorationOptions

    @OptionGroup var languageMode: ModeOptions

    func validate() throws {
        if let runs, !(1...1_000_000).contains(runs) { throw ValidationError("--runs must be between 1 and 1000000") }
        if let processes, !(1...256).contains(processes) { throw ValidationError("--processes must be between 1 and 256") }
    }

    func run() throws {
        let target = try PuzzleResolver.liveTarget(self.target, bank: bank.source(), mode: languageMode.mode)
        let program = try? target.program.get()
        // Live runs are compared with the answer for the machine they run on.
        let exploration = program.map { budgets.explorer.explore($0, for: .live) }
        var options = LiveRunner.Options(runs: runs ?? LiveRunner.defaultRuns(code: target.code, program: program), seed: seed, jitter: !noJitter)
        if let processes { options.processes = processes }
        if let exploration { options.fit(exploration) }
        let progress = LiveProgressLine(total: options.runs)
        InterruptHandler.install()
        TerminationHandler.install()
        let histogram: LiveHistogram
        do {
            histogram = try LiveRunner.selfHosted.run(
                code: target.code, program: program, mode: target.mode, options: options,
                compiling: { Output.write("compiling with swiftc (once, cached)…\n", to: .standardError) },
                onRun: progress.record,
                shouldStop: {
                    progress.tick()
                    return InterruptHandler.wasInterrupted || TerminationHandler.wasTerminated
                })
        } catch let problems as ProblemList {
            progress.clear()
            throw problems
        } catch {
            progress.clear()
            throw CommandFailure.unexpected("\(error)")
        }
        progress.clear()
        let modelProblem: String? = {
            guard case .failure(let problems) = target.program else { return nil }
            return problems.problems.first.map { "\($0)" } ?? "no program"
        }()
        let comparison = try exploration.map { LiveComparison(histogram: histogram, exploration: $0) }
            ?? LiveComparison(unjudged: histogram, narrator: Narrator(program: try SnippetCompiler.compile("", fileName: target.name).get()))
        let stoppedBy = TerminationHandler.wasTerminated ? "SIGTERM" : "Ctrl-C"
        if json {
            var document = RunJSON(puzzle: target.name, comparison: comparison, modelComplete: exploration?.isComplete ?? false,
                                   requested: options.runs)
            document.live = histogram.compiledMode == nil ? "interpreter" : "compiled"
            document.languageMode = histogram.compiledMode.map { "\($0)" }
            document.modelProblem = modelProblem
            try JSONOutput.print(document)
        } else {
            print(HistogramRenderer.render(comparison, name: target.name, style: .current(for: .standardOutput), requested: options.runs,
                                           stoppedBy: stoppedBy, modelStop: exploration?.stop.map { "\($0)" },
                                           modelProblem: modelProblem),
                  terminator: "")
            if stuck, let exploration {
                print(StuckPictures.render(comparison, exploration: exploration, name: target.name, code: target.code, style: .current(for: .standardOutput)),
                      terminator: "")
            }
        }
        if TerminationHandler.wasTerminated { TerminationHandler.dieAsAsked() }
        if !comparison.unexpected.isEmpty {
            throw CommandFailure.unexpected("\(comparison.unexpected.count) outcome(s) seen live that the model says are impossible: a bug in the model or the runner")
        }
    }
}

/// The histogram as text: most frequent first, with a bar; then what the model allows but the
/// runs never showed; unexpected outcomes flagged loudly. A long outcome is written short
/// (`LiveNotation`), on a line of its own above its counts.
enum HistogramRenderer {
    /// Outcomes whose notation is longer than this get a line of their own: the others' columns
    /// are not padded to a 200,000-line outcome.
    static let longestInColumn = 40
    /// Possible outcomes not seen, listed at most: a snippet may have thousands.
    static let unseenShown = 20

    /// `requested`: the runs asked for, when they were stopped early (by `stoppedBy`).
    /// `modelStop`: why the model stopped before knowing every outcome, if it did.
    /// `modelProblem`: why the model does not take the snippet, when it does not (the runs are
    /// then shown, not judged).
    static func render(_ comparison: LiveComparison, name: String, style: TerminalStyle, requested: Int? = nil,
                       stoppedBy: String = "Ctrl-C", modelStop: String? = nil,
                       modelProblem: String? = nil) -> String {
        let histogram = comparison.histogram
        let mode = histogram.jitter ? "jitter on, seed \(histogram.seed)" : "no jitter"
        let machine = "\(Narrator.count(comparison.machine.cores ?? 0)), \(comparison.machine.platform.name); "
        var text = style.wrappedLines("\(style.bold(name)): \(histogram.runs) live runs \(histogram.engine) (\(machine)\(mode))") + "\n"
        if let requested, histogram.runs < requested {
            text += style.yellow("stopped after \(histogram.runs) of \(requested) runs (\(stoppedBy))") + "\n"
        }
        if let modelProblem {
            text += style.wrappedLines(style.yellow("the model does not take this snippet, so these outcomes are not judged: \(modelProblem)")) + "\n"
        }
        if let modelStop {
            text += style.yellow("\(modelStop) (--max-states, --max-memory): it found \(comparison.possibleCount) outcome\(comparison.possibleCount == 1 ? "" : "s") "
                + "and may have missed some, so outcomes seen live that it did not find are not judged") + "\n"
        }
        let notations = comparison.rows.map { LiveNotation.render($0.entry.outcome, ending: false) }
            + comparison.unseen.prefix(unseenShown).map { LiveNotation.render(LiveOutcome(model: $0), ending: false) }
        let width = max(notations.map(TerminalColumns.width).filter { $0 <= longestInColumn }.max() ?? 0, 1)
        /// The notation column: padded, or on a line of its own (wrapped) above a blank column
        /// when too long.
        func column(_ notation: String) -> (above: String, cell: String) {
            TerminalColumns.width(notation) <= width ? ("", TerminalColumns.padded(notation, to: width))
                : (style.wrappedLines("  " + notation, hanging: 2) + "\n", String(repeating: " ", count: width))
        }
        let countWidth = String(histogram.runs).count
        let largest = comparison.rows.map(\.entry.count).max() ?? 1
        // "  notation   finished count  12.3% bar": the bar takes what the terminal leaves.
        let barWidth = style.barWidth(preferred: 30, used: 2 + width + 3 + 8 + 1 + countWidth + 8)
        for (row, notation) in zip(comparison.rows, notations) {
            let entry = row.entry
            let percent = 100 * Double(entry.count) / Double(max(histogram.runs, 1))
            let bar = barWidth > 0 ? Self.bar(entry.count, of: largest, width: barWidth) : ""
            let end = entry.outcome.end.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let (above, cell) = column(notation)
            text += above
            var line = "  \(cell)   "
            line += entry.outcome.end == .finished ? style.green(end) : style.red(end)
            line += " " + String(repeating: " ", count: countWidth - String(entry.count).count) + "\(entry.count)"
            line += String(format: " %5.1f%% ", percent) + style.cyan(bar)
            if row.isUnexpected {
                let elsewhere = row.elsewhere.flatMap { comparison.narrator.words(for: $0) }.map { " on this machine (it \($0))" } ?? ""
                line += "  " + style.red(style.bold("UNEXPECTED: the model says this cannot happen\(elsewhere)"))
            } else if row.isLateOnly {
                line += "  " + style.yellow("not in the model, seen only in late runs")
            } else if row.isUnjudged, modelProblem == nil {
                line += "  " + style.yellow(comparison.isModelComplete ? "too long to check against outcomes too many to list"
                    : "not among the outcomes the model found before it stopped")
            }
            text += style.wrappedRow(line.trimmingTrailingSpaces(), proseColumn: width + 5) + "\n"
            let under = String(repeating: " ", count: width + 5)
            if let reason = entry.reason, entry.outcome.end != .finished {
                text += style.wrappedRow(under + style.dim(reason), proseColumn: width + 5) + "\n"
            }
            if row.isLateOnly {
                text += style.wrappedRow(under + style.dim("the machine was too busy to run it in time"
                    + (histogram.compiledMode == nil ? " (runs compress time 4×)" : "") + ": not a model bug"),
                                         proseColumn: width + 5) + "\n"
            }
        }
        if !comparison.unseen.isEmpty {
            text += style.dim("possible, but not seen in these runs:") + "\n"
            for (outcome, notation) in zip(comparison.unseen, notations.dropFirst(comparison.rows.count)).prefix(unseenShown) {
                let (above, cell) = column(notation)
                text += style.dim(above) + style.dim("  \(cell)   \(outcome.end.rawValue)") + "\n"
            }
            if comparison.unseen.count > unseenShown {
                text += style.dim("  … and \(comparison.unseen.count - unseenShown) more (--json lists them all)") + "\n"
            }
        }
        let possible = comparison.isModelComplete ? "\(comparison.possibleCount)" : "at least \(comparison.possibleCount)"
        var coverage = modelProblem == nil ? "coverage: \(comparison.seenCount) of \(possible) possible outcomes seen"
            : "\(comparison.rows.count) outcome\(comparison.rows.count == 1 ? "" : "s") seen"
        let rate = String(format: histogram.runsPerSecond < 10 ? "%.1f" : "%.0f", histogram.runsPerSecond)
        // `processes` counts the forked children that ran batches of runs (a new one after each
        // run that died), not workers side by side: said as batches, never as processes.
        coverage += style.dim(String(format: " · %.2f s, %@ runs/s in %d forked batch%@", histogram.seconds, rate,
                                     histogram.processes, histogram.processes == 1 ? "" : "es"))
        if histogram.lateRuns > 0 {
            coverage += style.dim(" · \(histogram.lateRuns) late run\(histogram.lateRuns == 1 ? "" : "s") (the machine did not keep the snippet's time)")
        }
        text += style.wrappedLines(coverage, hanging: 2) + "\n"
        return text
    }

    static func bar(_ count: Int, of largest: Int, width: Int) -> String {
        let eighths = Int((Double(count) / Double(max(largest, 1)) * Double(width * 8)).rounded())
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        let full = String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
        return full.isEmpty ? "▏" : full
    }
}
