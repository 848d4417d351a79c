import CEditLine
import Foundation

/// A line read against a deadline (a mock interview's question), with all of libedit's editing:
/// the time left is counted down in the prompt, a warning line appears above the line being
/// typed at chosen moments, and when time runs out the read ends with what is on the line, as
/// an interviewer hears an unfinished sentence.
///
/// libedit owns the screen while a line is edited, so the clock speaks to it in keys: the
/// character reader hands it one of three control characters bound to this file's functions
/// (a second passed: redraw the prompt; a warning is due; the time is up), which act inside the
/// editor as a typed key would.
struct Countdown {
    let deadline: Date
    /// The prompt for the seconds left.
    let prompt: (Int) -> String
    /// Seconds left at which to warn, the next first.
    var warnings: [Int]
    /// The seconds the prompt shows now.
    var shown: Int
    /// What ended the editing of the line, if the clock did.
    var event: Event?

    enum Event: Equatable {
        case warning(Int)
        case timeUp
    }

    var secondsLeft: Int { max(Int(deadline.timeIntervalSinceNow.rounded(.up)), 0) }
}

/// How a timed read ended.
enum TimedLineResult: Equatable {
    case line(String)
    /// The deadline passed before Enter: what was on the line then.
    case timeout(typed: String)
    /// Ctrl-C: the line is dropped (the clock runs on).
    case interrupted
    /// Ctrl-D on an empty line, or the end of input.
    case end
}

extension EditLineInput {
    /// The keys the clock hands libedit. Control characters nobody types in an answer; should
    /// one be typed, it does nothing when no clock runs.
    static let tickKey: wchar_t = 0x1D
    static let warningKey: wchar_t = 0x1E
    static let timeUpKey: wchar_t = 0x1F

    /// Reads a line until `deadline`. At each of `warnings` (seconds left) the line being typed
    /// is lifted, `warn` prints its warning, and the line comes back as it was, cursor and all.
    func readLine(deadline: Date, prompt: @escaping (Int) -> String, warnings: [Int], warn: (Int) -> Void) -> TimedLineResult {
        sayHistoryNotice()
        var countdown = Countdown(deadline: deadline, prompt: prompt, warnings: [], shown: 0)
        countdown.warnings = warnings.filter { $0 < countdown.secondsLeft }.sorted(by: >)
        while true {
            countdown.shown = countdown.secondsLeft
            countdown.event = nil
            self.countdown = countdown
            setPrompt(prompt(countdown.shown))
            let result = edit()
            let event = self.countdown?.event
            countdown.warnings = self.countdown?.warnings ?? []
            self.countdown = nil
            switch (event, result) {
            case (.warning(let seconds), .line(let text)):
                warn(seconds)
                // The line comes back as it was: its characters, then the cursor moved back.
                let after = text.unicodeScalars.count - (lifted?.unicodeScalars.count ?? text.unicodeScalars.count)
                injected = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                    + Array(repeating: 0x02, count: max(after, 0))  // Ctrl-B: one character back
                lifted = nil
            case (.timeUp, .line(let text)):
                return .timeout(typed: text)
            case (_, .line(let text)):
                return .line(text)
            case (_, .interrupted):
                return .interrupted
            case (_, .end):
                return .end
            }
        }
    }

    /// The key the clock has for libedit now, if any: the end, a warning, or a new second.
    func countdownKey() -> wchar_t? {
        guard var countdown else { return nil }
        defer { self.countdown = countdown }
        let left = countdown.secondsLeft
        if left == 0 && countdown.shown != 0 {
            // The prompt says 0:00 before the line ends.
            countdown.shown = 0
            setPrompt(countdown.prompt(0))
            return Self.tickKey
        }
        if left == 0 {
            countdown.event = .timeUp
            return Self.timeUpKey
        }
        if let next = countdown.warnings.first, left <= next {
            countdown.warnings.removeFirst()
            countdown.event = .warning(next)
            return Self.warningKey
        }
        if left != countdown.shown {
            countdown.shown = left
            setPrompt(countdown.prompt(left))
            return Self.tickKey
        }
        return nil
    }

    func bindCountdownKeys() {
        _ = gcdquiz_el_add_function(editor, "gcdquiz-tick", "Redraw the countdown in the prompt") { _, _ in
            UInt8(CC_REFRESH)
        }
        _ = gcdquiz_el_add_function(editor, "gcdquiz-lift", "Lift the line to say something above it") { editor, _ in
            guard let editor, let data = gcdquiz_el_get_client_data(editor) else { return UInt8(CC_NORM) }
            return Unmanaged<EditLineInput>.fromOpaque(data).takeUnretainedValue().endForTheClock(erase: true)
        }
        _ = gcdquiz_el_add_function(editor, "gcdquiz-time-up", "End the line: the time is up") { editor, _ in
            guard let editor, let data = gcdquiz_el_get_client_data(editor) else { return UInt8(CC_NORM) }
            return Unmanaged<EditLineInput>.fromOpaque(data).takeUnretainedValue().endForTheClock(erase: false)
        }
        _ = gcdquiz_el_bind(editor, String(UnicodeScalar(UInt8(Self.tickKey))), "gcdquiz-tick")
        _ = gcdquiz_el_bind(editor, String(UnicodeScalar(UInt8(Self.warningKey))), "gcdquiz-lift")
        _ = gcdquiz_el_bind(editor, String(UnicodeScalar(UInt8(Self.timeUpKey))), "gcdquiz-time-up")
    }

    /// Ends the editing of the line for the clock. libedit leaves the cursor where it was, in
    /// the middle of what was typed: to warn, the prompt and the line are erased (the warning
    /// takes their place, and the line is drawn again under it); at the end, the cursor goes
    /// past the line, which stays on screen as it was graded.
    private func endForTheClock(erase: Bool) -> UInt8 {
        guard countdown?.event != nil else { return UInt8(CC_NORM) }
        let (text, beforeCursor) = typedLineAndCursor()
        var size = winsize()
        let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        let prompt = promptColumns
        // libedit moves to the next row once a row is full, so a row of exactly `columns` puts
        // the cursor at the start of the next one.
        let cursorRow = (prompt + TerminalColumns.width(beforeCursor)) / columns
        let lastRow = (prompt + TerminalColumns.width(text)) / columns
        fflush(nil)
        if erase {
            lifted = beforeCursor
            Output.write((cursorRow > 0 ? "\u{1B}[\(cursorRow)A" : "") + "\r\u{1B}[J")
        } else {
            Output.write((lastRow > cursorRow ? "\u{1B}[\(lastRow - cursorRow)B" : "") + "\r\n")
        }
        return UInt8(CC_NEWLINE)
    }
}
