import Foundation
import Testing

/// The drill's live runs as a learner meets them: Ctrl-C skips the wait for those started in the
/// background, and `:again` shows the runs already made instead of starting as many again.
@Suite(.serialized) struct DrillLiveRunsEndToEndTests {
    static func drill(state: URL, bank: URL, liveRuns: Int) throws -> PseudoTerminal {
        try PseudoTerminal(arguments: ["--bank", bank.path, "--seed", "1", "--live-runs", String(liveRuns)],
                           environment: DrillEndToEndTests.environment(state: state), size: (80, 24))
    }

    @Test func ctrlCSkipsTheWaitForTheLiveRuns() throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            // More runs than the answer leaves time for: the verdict waits for them.
            let terminal = try Self.drill(state: state, bank: bank, liveRuns: 100_000)
            #expect(terminal.waitFor("answer> "))
            terminal.type("1 2 3 4\r")
            #expect(terminal.waitFor("(finishing the live runs on libdispatch… Ctrl-C skips them)", timeout: 30))
            terminal.type("\u{3}")
            #expect(terminal.waitFor("(live runs skipped: Ctrl-C; :run runs the snippet again)", timeout: 30))
            #expect(terminal.waitFor("exact:"))
            #expect(terminal.waitFor("next> "))
            terminal.type(":quit\r")
            #expect(terminal.waitForExit(timeout: 30) == 0)
        }
    }

    @Test func againShowsTheSameLiveRuns() throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            let terminal = try Self.drill(state: state, bank: bank, liveRuns: 300)
            #expect(terminal.waitFor("answer> "))
            var mark = terminal.screen.count
            terminal.type("1 2 3 4\r")
            #expect(terminal.waitFor("next> ", after: mark, timeout: 60))
            let first = Self.liveTable(String(terminal.screen.dropFirst(mark)))
            #expect(first.contains("live (300 runs on libdispatch, "))
            mark = terminal.screen.count
            terminal.type(":again\r")
            #expect(terminal.waitFor("answer> ", after: mark))
            mark = terminal.screen.count
            terminal.type("1 2 3 4\r")
            #expect(terminal.waitFor("next> ", after: mark, timeout: 60))
            // The very same histogram: the runs were kept, not made again.
            #expect(Self.liveTable(String(terminal.screen.dropFirst(mark))) == first)
            terminal.type(":quit\r")
            #expect(terminal.waitForExit(timeout: 30) == 0)
        }
    }

    /// The outcome table of a verdict: its header and rows.
    static func liveTable(_ screen: String) -> String {
        let lines = screen.split(whereSeparator: \.isNewline)
        guard let start = lines.firstIndex(where: { $0.contains("outcome") && $0.contains("live (") }) else { return "" }
        return lines[start...].prefix { !$0.isEmpty }.joined(separator: "\n")
    }
}
