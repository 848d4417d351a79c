import CEditLine
import Foundation

/// Line editing on a terminal through libedit: emacs keys, history that survives sessions
/// (searchable with Ctrl-R, recalled with the arrows), and tab completion. Ctrl-C drops the line
/// being typed and keeps the session; the up arrow brings the line back.
final class EditLineInput: LineInput {
    var completer: ((String) -> [String])?
    let isInteractive = true

    let editor: OpaquePointer
    private let history: OpaquePointer?
    /// The file answers are appended to; nil once it cannot be kept.
    private var historyFile: HistoryFile?
    /// Why the history is not kept, to say once, before the next prompt.
    private var historyNotice: String?
    private var lastRemembered: String?
    private var promptStorage: UnsafeMutablePointer<CChar>?
    /// The clock of a timed read (a mock interview's question), while one is under way.
    var countdown: Countdown?
    /// Characters to hand libedit before reading the keyboard: a line being put back.
    var injected: [wchar_t] = []
    /// The part before the cursor of a line lifted for a warning, to put the cursor back.
    var lifted: String?

    init?(historyPath: String?) {
        guard let editor = gcdquiz_el_open("gcdquiz") else { return nil }
        self.editor = editor
        history = gcdquiz_history_open(Int32(HistoryFile.entryLimit))
        if let history {
            _ = gcdquiz_el_set_history(editor, history)
            if let historyPath {
                let file = HistoryFile(path: historyPath)
                switch file.load() {
                case .success(let entries):
                    entries.forEach { _ = gcdquiz_history_enter(history, $0) }
                    lastRemembered = entries.last
                    historyFile = file
                case .failure(let problem):
                    historyNotice = problem.reason
                }
            }
        }
        _ = gcdquiz_el_set_editor(editor, "emacs")
        _ = gcdquiz_el_set_client_data(editor, Unmanaged.passUnretained(self).toOpaque())
        _ = gcdquiz_el_set_prompt_esc(editor, { editor in
            guard let editor, let data = gcdquiz_el_get_client_data(editor) else { return nil }
            let input = Unmanaged<EditLineInput>.fromOpaque(data).takeUnretainedValue()
            return input.promptStorage
        }, 1)
        _ = gcdquiz_el_add_function(editor, "gcdquiz-complete", "Complete a : command or a question id") { editor, _ in
            guard let editor, let data = gcdquiz_el_get_client_data(editor) else { return UInt8(CC_ERROR) }
            let input = Unmanaged<EditLineInput>.fromOpaque(data).takeUnretainedValue()
            return input.complete()
        }
        _ = gcdquiz_el_bind(editor, "^I", "gcdquiz-complete")
        // Ctrl-C normally arrives as SIGINT; should the terminal deliver the byte instead (no
        // ISIG), the key itself drops the line.
        _ = gcdquiz_el_add_function(editor, "gcdquiz-interrupt", "Drop the line being typed") { _, _ in
            InterruptHandler.interrupt()
            return UInt8(CC_NEWLINE)
        }
        _ = gcdquiz_el_bind(editor, "^C", "gcdquiz-interrupt")
        // Ctrl-R searches the history backwards for what is typed, as in a shell.
        _ = gcdquiz_el_bind(editor, "^R", "em-inc-search-prev")
        _ = gcdquiz_el_set_getc(editor) { editor, character in
            guard let editor, let character, let data = gcdquiz_el_get_client_data(editor) else { return -1 }
            return Unmanaged<EditLineInput>.fromOpaque(data).takeUnretainedValue().nextCharacter(into: character)
        }
        bindCountdownKeys()
        el_source(editor, nil)  // the user's ~/.editrc, if any
        InterruptHandler.install()
        TypeAheadMode.enter()
    }

    deinit {
        TypeAheadMode.restore()
        el_end(editor)
        if let history { history_end(history) }
        promptStorage.map { free($0) }
    }

    func readLine(prompt: String) -> LineResult {
        sayHistoryNotice()
        setPrompt(prompt)
        return edit()
    }

    /// Says once, before a prompt, why the history is not kept.
    func sayHistoryNotice() {
        if let historyNotice {
            print(TerminalStyle.current(for: .standardOutput).dim("(answers are not kept in the history: \(historyNotice))"))
            self.historyNotice = nil
        }
    }

    /// The prompt libedit draws from now on (at its next refresh).
    func setPrompt(_ prompt: String) {
        promptStorage.map { free($0) }
        promptStorage = strdup(Self.markingEscapes(prompt))
    }

    /// The prompt as drawn, without its escape sequences: its width on screen.
    var promptColumns: Int {
        promptStorage.map { TerminalColumns.width(String(cString: $0)) } ?? 0
    }

    /// One line edited with libedit, with the prompt set.
    func edit() -> LineResult {
        InterruptHandler.clear()
        var count: Int32 = 0
        let raw = el_gets(editor, &count)
        TypeAheadMode.enter()
        guard let raw else {
            // libedit returns no line for an empty one ended by the clock (nothing typed yet).
            if countdown?.event != nil { return .line("") }
            if InterruptHandler.wasInterrupted || (count < 0 && errno == EINTR) {
                keepDropped(typedLine())
                el_reset(editor)
                print("^C")
                return .interrupted
            }
            return .end
        }
        var line = String(cString: raw)
        if line.hasSuffix("\n") { line.removeLast() }
        if InterruptHandler.wasInterrupted {
            keepDropped(line)
            print("^C")
            return .interrupted
        }
        return .line(line)
    }

    /// What is on the line being edited.
    func typedLine() -> String {
        typedLineAndCursor().text
    }

    /// What is on the line being edited, and how much of it is before the cursor.
    func typedLineAndCursor() -> (text: String, beforeCursor: String) {
        guard let info = el_line(editor) else { return ("", "") }
        let bytes = UnsafeRawBufferPointer(start: info.pointee.buffer, count: info.pointee.lastchar - info.pointee.buffer)
        let before = UnsafeRawBufferPointer(start: info.pointee.buffer, count: info.pointee.cursor - info.pointee.buffer)
        return (String(decoding: bytes, as: UTF8.self), String(decoding: before, as: UTF8.self))
    }

    /// A line dropped with Ctrl-C goes to this session's history (not the file), so that the up
    /// arrow brings it back: nothing typed is lost.
    private func keepDropped(_ line: String) {
        guard let history, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        _ = gcdquiz_history_enter(history, line)
    }

    /// libedit's character reader: a character being put back first; else waits for input with
    /// poll, so that a Ctrl-C (a SIGINT, which sets the interrupt flag) ends the read within 50
    /// ms instead of depending on how the signal interrupts a blocking read, and so that a
    /// countdown's clock can hand libedit its own keys (a new second, a warning, the end).
    /// Decodes UTF-8. Returns 1 with a character, 0 at the end of input, -1 when interrupted.
    func nextCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        if !injected.isEmpty {
            character.pointee = injected.removeFirst()
            return 1
        }
        var bytes: [UInt8] = []
        while true {
            if InterruptHandler.wasInterrupted { return -1 }
            if bytes.isEmpty, let key = countdownKey() {
                character.pointee = key
                return 1
            }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready < 0 && errno != EINTR { return -1 }
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 { if errno == EINTR { continue } else { return -1 } }
            if count == 0 { return 0 }
            bytes.append(byte)
            let expected = byte < 0x80 && bytes.count == 1 ? 1
                : bytes[0] >= 0xF0 ? 4 : bytes[0] >= 0xE0 ? 3 : bytes[0] >= 0xC0 ? 2 : 1
            guard bytes.count >= expected else { continue }
            let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first?.value ?? UInt32(bytes[0])
            character.pointee = wchar_t(bitPattern: scalar)
            return 1
        }
    }

    /// Wraps each ANSI escape sequence in \u{1} so libedit does not count it as visible.
    static func markingEscapes(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" {
                inEscape = true
                // Adjacent sequences share one ignored region.
                if result.hasSuffix("\u{1}") {
                    result.removeLast()
                    result += "\u{1B}"
                } else {
                    result += "\u{1}\u{1B}"
                }
            } else if inEscape && character.isLetter {
                inEscape = false
                result += String(character) + "\u{1}"
            } else {
                result.append(character)
            }
        }
        return result
    }

    func remember(_ line: String) {
        guard let history, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        _ = gcdquiz_history_enter(history, line)
        guard let historyFile, line != lastRemembered else { return }
        lastRemembered = line
        if case .failure(let problem) = historyFile.append(line) {
            self.historyFile = nil
            historyNotice = problem.reason
        }
    }

    /// Completes the word before the cursor: the longest common prefix of the candidates, or a
    /// list of them when there are several.
    private func complete() -> UInt8 {
        guard let info = el_line(editor), let completer else { return UInt8(CC_ERROR) }
        let length = info.pointee.cursor - info.pointee.buffer
        let bytes = UnsafeRawBufferPointer(start: info.pointee.buffer, count: length)
        let before = String(decoding: bytes, as: UTF8.self)
        let word = String(before.split(separator: " ", omittingEmptySubsequences: false).last ?? "")
        let candidates = completer(before).filter { $0.hasPrefix(word) }.sorted()
        guard !candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let common = candidates.dropFirst().reduce(candidates[0]) { prefix, candidate in
            String(zip(prefix, candidate).prefix { $0 == $1 }.map(\.0))
        }
        if candidates.count == 1 {
            el_insertstr(editor, String(candidates[0].dropFirst(word.count)) + " ")
            return UInt8(CC_REFRESH)
        }
        if common.count > word.count {
            el_insertstr(editor, String(common.dropFirst(word.count)))
            return UInt8(CC_REFRESH)
        }
        var size = winsize()
        let width = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        print("")
        print(Self.columns(candidates, width: width), terminator: "")
        return UInt8(CC_REDISPLAY)
    }

    /// Candidates in columns, down then across, as a shell lists them: never a line wider than
    /// the terminal (one long line used to be broken mid-id by the terminal).
    static func columns(_ candidates: [String], width: Int) -> String {
        let cell = (candidates.map { TerminalColumns.width($0) }.max() ?? 0) + 2
        let across = max(1, (width - 1) / cell)
        let rows = (candidates.count + across - 1) / across
        var text = ""
        for row in 0..<rows {
            var line = ""
            for column in 0..<across {
                let index = column * rows + row
                guard index < candidates.count else { break }
                line += TerminalColumns.padded(candidates[index], to: cell)
            }
            text += line.trimmingTrailingSpaces() + "\n"
        }
        return text
    }
}

/// SIGINT without SA_RESTART: the read inside libedit returns EINTR, so Ctrl-C abandons the
/// line instead of killing the trainer.
enum InterruptHandler {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in InterruptHandler.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // Whoever started us may have blocked SIGINT; Ctrl-C must reach the editor.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }

    static func clear() { flag = 0 }
    static func interrupt() { flag = 1 }
    static var wasInterrupted: Bool { flag != 0 }
}
