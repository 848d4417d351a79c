import Foundation
import Testing

/// What a person types at the drill's prompts arrives whole: characters outside ASCII whatever
/// the locale says, lines dropped with Ctrl-C kept for the up arrow, Ctrl-D ending the session
/// only on an empty line.
@Suite(.serialized) struct TerminalInputEndToEndTests {
    /// With seed 1 the first question is serial-sync-sync, whose one outcome is `1 2 3 4`.
    static func drill(state: URL, bank: URL, locale: String?) throws -> PseudoTerminal {
        var environment = DrillEndToEndTests.environment(state: state)
        for name in ["LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE"] { environment.removeValue(forKey: name) }
        if let locale { environment["LC_ALL"] = locale }
        return try PseudoTerminal(
            arguments: ["--bank", bank.path, "--seed", "1", "--live-runs", "20"], environment: environment)
    }

    /// `1 é 2` used to be graded as `1 2`: libedit in the C locale drops what it cannot encode.
    @Test(arguments: ["C", "POSIX", "C.UTF-8", nil])
    func nonASCIIInputArrivesWhole(locale: String?) throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            let terminal = try Self.drill(state: state, bank: bank, locale: locale)
            #expect(terminal.waitFor("answer> "))
            terminal.type("1 é 2\r")
            // é arrived whole: the grader names it (no print of the puzzle produces it) and asks again.
            let mark = terminal.screen.count
            #expect(terminal.waitFor("no print of this snippet can produce 'é'"))
            #expect(terminal.waitFor("answer> ", after: mark))
            terminal.type("\u{4}")
            #expect(terminal.waitForExit() == 0)
            let history = try String(contentsOf: state.appendingPathComponent("gcdquiz/history"), encoding: .utf8)
            #expect(history.contains("1\\040é\\0402"))
        }
    }

    @Test func controlKeysInEveryPromptState() throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            let terminal = try Self.drill(state: state, bank: bank, locale: nil)
            #expect(terminal.waitFor("answer> "))

            // Ctrl-C on an empty line: the session goes on.
            var mark = terminal.screen.count
            terminal.type("\u{3}")
            #expect(terminal.waitFor("(line dropped", after: mark))
            #expect(terminal.waitFor("answer> ", after: mark + 5))

            // Ctrl-C drops a half-typed answer, and the up arrow brings it back.
            mark = terminal.screen.count
            terminal.type("3 1 2")
            #expect(terminal.waitFor("3 1 2", after: mark))
            terminal.type("\u{3}")
            #expect(terminal.waitFor("(line dropped", after: mark))
            #expect(terminal.waitFor("answer> ", after: mark + 5))
            mark = terminal.screen.count
            terminal.type("\u{1B}[A 4\r")
            #expect(terminal.waitFor("wrong: 3 1 2 4 cannot happen.", after: mark))
            #expect(terminal.waitFor("next> ", after: mark + 10))

            // At next>: Ctrl-C keeps the session, and so does Ctrl-D after text (it deletes, at
            // most); the text typed around it is all there.
            mark = terminal.screen.count
            terminal.type("\u{3}")
            #expect(terminal.waitFor("(line dropped", after: mark))
            #expect(terminal.waitFor("next> ", after: mark + 5))
            mark = terminal.screen.count
            terminal.type(":sc\u{4}")
            terminal.type("ore\r")
            #expect(terminal.waitFor("Score so far. 1 answered", after: mark))
            #expect(terminal.waitFor("next> ", after: mark + 10))

            // Ctrl-C stops a long live run in the foreground and shows what it saw.
            mark = terminal.screen.count
            terminal.type(":run 1000000\r")
            Thread.sleep(forTimeInterval: 1)
            terminal.type("\u{3}")
            #expect(terminal.waitFor("of 1000000 runs (Ctrl-C)", after: mark, timeout: 60))
            #expect(terminal.screen.dropFirst(mark).contains("stopped after"))
            #expect(terminal.waitFor("next> ", after: mark + 10, timeout: 60))

            // Typed ahead while the drill is busy: kept, in order.
            mark = terminal.screen.count
            terminal.type("\r:score\r")
            #expect(terminal.waitFor("Two async calls on a serial queue", after: mark))
            #expect(terminal.waitFor("Score so far. 1 answered", after: mark))

            #expect(terminal.waitFor("answer> ", after: mark))

            // Ctrl-D typed while the drill is busy (a long live run) ends the session once it is
            // done: the terminal does not swallow it as an end of file between two prompts.
            mark = terminal.screen.count
            terminal.type(":run 5000\r")
            Thread.sleep(forTimeInterval: 0.5)
            terminal.type("\u{4}")
            #expect(terminal.waitFor("Session over. 1 answered", after: mark, timeout: 120))
            #expect(terminal.waitForExit() == 0)
        }
    }
}
