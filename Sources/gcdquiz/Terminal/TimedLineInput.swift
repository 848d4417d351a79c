import Foundation

/// Reads answer lines against a deadline, for the mock interview: the time left is shown in the
/// prompt (at a terminal, a countdown redrawn every second while the learner types), and running
/// out ends the read. Reads standard input itself (never through stdio's buffer, which would hide
/// lines already read from `poll`).
final class TimedLineInput {
    enum Result: Equatable {
        case line(String)
        /// The deadline passed before Enter.
        case timeout
        /// Ctrl-C: the line is dropped.
        case interrupted
        /// Ctrl-D on an empty line, or the end of input.
        case end
    }

    let isInteractive: Bool
    /// Bytes read but not yet returned as lines.
    private var pending: [UInt8] = []
    private var atEnd = false

    init() {
        isInteractive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The next line, or `.timeout` at `deadline`. `prompt` gives the prompt for the seconds left.
    func readLine(deadline: Date, prompt: @escaping (Int) -> String) -> Result {
        isInteractive ? readTerminal(deadline: deadline, prompt: prompt) : readPipe(deadline: deadline, prompt: prompt)
    }

    private static func secondsLeft(_ deadline: Date) -> Int { max(Int(deadline.timeIntervalSinceNow.rounded(.up)), 0) }

    // MARK: A pipe

    private func readPipe(deadline: Date, prompt: (Int) -> String) -> Result {
        Output.write(prompt(Self.secondsLeft(deadline)))
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                let text = line.hasSuffix("\r") ? String(line.dropLast()) : line
                Output.write(text + "\n")
                return .line(text)
            }
            if atEnd {
                guard !pending.isEmpty else {
                    Output.write("\n")
                    return .end
                }
                let line = String(decoding: pending, as: UTF8.self)
                pending.removeAll()
                Output.write(line + "\n")
                return .line(line)
            }
            guard wait(until: deadline) else {
                Output.write("\n")
                return .timeout
            }
            fill()
        }
    }

    /// Waits for input until `deadline` (at most a second at a time when `tick` is given, which
    /// is called each second). Returns false when the deadline passed.
    private func wait(until deadline: Date, tick: (() -> Void)? = nil) -> Bool {
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left, tick == nil ? left : 1) * 1000) + 1
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { atEnd = true; return true }
            tick?()
        }
    }

    /// Reads what standard input has; marks the end when it is closed or fails.
    private func fill() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            pending.append(contentsOf: buffer[..<count])
        } else if count == 0 || errno != EINTR {
            atEnd = true
        }
    }

    // MARK: A terminal

    private func readTerminal(deadline: Date, prompt: @escaping (Int) -> String) -> Result {
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }

        var typed: [UInt8] = []
        let redraw = {
            Output.write("\r\u{1B}[K" + prompt(Self.secondsLeft(deadline)) + String(decoding: typed, as: UTF8.self))
        }
        redraw()
        while true {
            while !pending.isEmpty {
                let byte = pending.removeFirst()
                switch byte {
                case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                    Output.write("\n")
                    return .line(String(decoding: typed, as: UTF8.self))
                case 0x7F, 0x08:
                    // Drop the last character, not the last byte.
                    var text = String(decoding: typed, as: UTF8.self)
                    if !text.isEmpty { text.removeLast() }
                    typed = Array(text.utf8)
                    redraw()
                case 0x03:
                    Output.write("^C\n")
                    return .interrupted
                case 0x04 where typed.isEmpty:
                    Output.write("\n")
                    return .end
                case 0x15:  // Ctrl-U
                    typed.removeAll()
                    redraw()
                case 0x1B:
                    // An arrow or function key: ESC [ (or O), parameters, one final byte.
                    if let next = pending.first, next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                        pending.removeFirst()
                        while let parameter = pending.first, (0x30...0x3F).contains(parameter) { pending.removeFirst() }
                        if !pending.isEmpty { pending.removeFirst() }
                    }
                case 0x00..<0x20:
                    // Escape sequences and other control bytes are not part of an answer.
                    continue
                default:
                    typed.append(byte)
                    if byte < 0x80 || String(validating: typed, as: UTF8.self) != nil { redraw() }
                }
            }
            if atEnd { return typed.isEmpty ? .end : .line(String(decoding: typed, as: UTF8.self)) }
            guard wait(until: deadline, tick: redraw) else {
                Output.write("\n")
                return .timeout
            }
            fill()
        }
    }
}
