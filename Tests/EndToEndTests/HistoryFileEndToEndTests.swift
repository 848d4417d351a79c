import Foundation
import Testing

/// The drill's history file (`$XDG_STATE_HOME/gcdquiz/history`) when something hostile is at its
/// path, when it is huge, and when several sessions write it at once.
@Suite(.serialized) struct HistoryFileEndToEndTests {
    /// A drill at a terminal on the two-puzzle fixture bank, with its state in `state`.
    static func drill(state: URL, bank: URL) throws -> PseudoTerminal {
        try PseudoTerminal(
            arguments: ["--bank", bank.path, "--seed", "1", "--live-runs", "0"],
            environment: DrillEndToEndTests.environment(state: state))
    }

    static func historyURL(_ state: URL) -> URL { state.appendingPathComponent("gcdquiz/history") }

    /// A fresh state folder and the two-puzzle fixture bank, removed once `body` is done.
    static func withStateAndBank(_ body: (_ state: URL, _ bank: URL) throws -> Void) throws {
        let state = try Binary.temporaryFolder()
        let bank = try DrillEndToEndTests.fixtureBank()
        defer {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: bank)
        }
        try body(state, bank)
    }

    /// Writes `contents` as the history file in `state`.
    static func writeHistory(_ contents: Data, in state: URL) throws -> URL {
        let history = historyURL(state)
        try FileManager.default.createDirectory(at: history.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: history)
        return history
    }

    /// Types a line that is remembered but changes nothing (a jump to no question), and waits
    /// for the drill's answer.
    static func remember(_ word: String, in terminal: PseudoTerminal) {
        let mark = terminal.screen.count
        terminal.type(":goto \(word)\r")
        let said = "No question '\(word)'"
        #expect(terminal.waitFor(said, after: mark))
        let answered = terminal.screen.dropFirst(mark).range(of: said).map { terminal.screen.distance(from: terminal.screen.startIndex, to: $0.upperBound) } ?? mark
        #expect(terminal.waitFor("> ", after: answered))
    }

    static func quit(_ terminal: PseudoTerminal) {
        terminal.type("\u{4}")
        #expect(terminal.waitFor("Session over."))
        #expect(terminal.waitForExit() == 0)
    }

    /// Something that is not a regular file at the history's path: the drill reaches its prompt,
    /// says once that answers are not kept, and leaves the thing alone.
    @Test(arguments: ["fifo", "dev-zero", "directory"])
    func notARegularFile(kind: String) throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            let path = Self.historyURL(state).path
            try FileManager.default.createDirectory(at: state.appendingPathComponent("gcdquiz"), withIntermediateDirectories: true)
            switch kind {
            case "fifo": #expect(mkfifo(path, 0o600) == 0)
            case "dev-zero": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
            let terminal = try Self.drill(state: state, bank: bank)
            #expect(terminal.waitFor("answer> ", timeout: 30))
            #expect(terminal.screen.contains("(answers are not kept in the history: \(path) is not a regular file)"))
            Self.remember("first", in: terminal)
            Self.remember("second", in: terminal)
            Self.quit(terminal)
            #expect(terminal.screen.components(separatedBy: "not kept in the history").count == 2, "said once")
            var status = stat()
            #expect(lstat(path, &status) == 0)
            let expected = kind == "fifo" ? S_IFIFO : kind == "dev-zero" ? S_IFLNK : S_IFDIR
            #expect(status.st_mode & S_IFMT == expected)
        }
    }

    /// A history whose folder cannot be made (a regular file is in the way): said once, at the
    /// first prompt, and the session goes on.
    @Test func aHistoryThatCannotBeRead() throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            let blocker = state.appendingPathComponent("state")
            try Data().write(to: blocker)
            let terminal = try Self.drill(state: blocker, bank: bank)
            #expect(terminal.waitFor("answer> "))
            #expect(terminal.screen.contains("(answers are not kept in the history: \(blocker.path)/gcdquiz/history: Not a directory)"))
            Self.remember("one", in: terminal)
            Self.remember("two", in: terminal)
            Self.quit(terminal)
            #expect(terminal.screen.components(separatedBy: "not kept in the history").count == 2, "said once")
        }
    }

    /// A history that does not exist yet and cannot be created (/proc takes no new files): said
    /// once, after the first answer that could not be kept, and the session goes on.
    @Test func aHistoryThatCannotBeWritten() throws {
        let bank = try DrillEndToEndTests.fixtureBank()
        defer { try? FileManager.default.removeItem(at: bank) }
        let terminal = try Self.drill(state: URL(fileURLWithPath: "/proc/self"), bank: bank)
        #expect(terminal.waitFor("answer> "))
        #expect(!terminal.screen.contains("not kept in the history"))
        Self.remember("one", in: terminal)
        Self.remember("two", in: terminal)
        Self.quit(terminal)
        #expect(terminal.screen.contains("(answers are not kept in the history: /proc/self/gcdquiz/history: "))
        #expect(terminal.screen.components(separatedBy: "not kept in the history").count == 2, "said once")
    }

    /// A 5 MB history of one line: only its last megabyte is read (a piece of a line, so no
    /// entry), and the first answer leaves a small file with that answer.
    @Test func aHugeHistoryIsReadInPartAndCompacted() throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            let history = try Self.writeHistory(Data(repeating: UInt8(ascii: "x"), count: 5 << 20), in: state)
            let terminal = try Self.drill(state: state, bank: bank)
            #expect(terminal.waitFor("answer> "))
            Self.remember("after-the-flood", in: terminal)
            Self.quit(terminal)
            let text = try String(contentsOf: history, encoding: .utf8)
            #expect(text == "_HiStOrY_V2_\n:goto\\040after-the-flood\n")
            #expect(!terminal.screen.contains("not kept"))
        }
    }

    /// Two sessions at once, answering in turns: the file keeps every answer of both, each
    /// session's in its order (the last writer used to win), and entries written before them.
    @Test func twoSessionsKeepEachOthersEntries() throws {
        try HistoryFileEndToEndTests.withStateAndBank { state, bank in
            // libedit's own format, as earlier versions wrote it.
            let history = try Self.writeHistory(Data("_HiStOrY_V2_\n1\\0402\\0403\\0404\ncaf\\M-C\\M-)\n".utf8), in: state)
            let first = try Self.drill(state: state, bank: bank)
            let second = try Self.drill(state: state, bank: bank)
            #expect(first.waitFor("answer> "))
            #expect(second.waitFor("answer> "))
            for round in 1...4 {
                Self.remember("first-\(round)", in: first)
                Self.remember("second-\(round)", in: second)
            }
            Self.quit(first)
            Self.quit(second)
            let lines = try String(contentsOf: history, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.prefix(3) == ["_HiStOrY_V2_", "1\\0402\\0403\\0404", "caf\\M-C\\M-)"])
            let firsts = lines.filter { $0.hasPrefix(":goto\\040first-") }
            let seconds = lines.filter { $0.hasPrefix(":goto\\040second-") }
            #expect(firsts == (1...4).map { ":goto\\040first-\($0)" })
            #expect(seconds == (1...4).map { ":goto\\040second-\($0)" })

            // A third session recalls the old entries, decoded, with the up arrow.
            let third = try Self.drill(state: state, bank: bank)
            #expect(third.waitFor("answer> "))
            let mark = third.screen.count
            third.type("\u{1B}[A")
            #expect(third.waitFor(":goto second-4", after: mark))
            for _ in 1...8 { third.type("\u{1B}[A") }
            third.type("\r")
            // Recalled whole, é included: the grader quotes the word that no print of the puzzle makes.
            #expect(third.waitFor("no print of this snippet can produce 'café'", after: mark))
            #expect(third.waitFor("answer> ", after: mark + 10))
            Self.quit(third)
        }
    }
}
