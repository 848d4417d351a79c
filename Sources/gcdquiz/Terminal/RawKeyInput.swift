import Foundation

/// Keys one at a time from a terminal, for a full-screen view: the terminal in raw mode (no echo,
/// no line editing, Ctrl-C and Ctrl-D arriving as keys, so that the view can put the terminal
/// back before it leaves), the alternate screen (what was on the terminal comes back afterwards)
/// and the cursor hidden. Everything is put back by `close()`, and at exit whichever way the
/// program exits.
final class RawKeyInput {
    enum Key: Equatable {
        case character(Character)
        case enter
        case backspace
        case escape
        case left, right, up, down
        /// Ctrl-C or Ctrl-D.
        case interrupt
        /// Standard input ended or failed.
        case end
    }

    nonisolated(unsafe) private static var saved: termios?

    /// Nil when standard input is not a terminal.
    init?() {
        var found = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &found) == 0 else { return nil }
        if Self.saved == nil { atexit { RawKeyInput.restore() } }
        Self.saved = found
        var raw = found
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        Output.write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// The terminal as it was.
    func close() {
        Self.restore()
    }

    private static func restore() {
        guard var found = saved else { return }
        saved = nil
        Output.write("\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &found)
    }

    /// The terminal's size now (it may have changed since the last key).
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// The next key, waiting for it.
    func next() -> Key {
        guard let byte = read(wait: -1) else { return .end }
        switch byte {
        case 0x03, 0x04: return .interrupt
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x1B:
            // An arrow is ESC [ A…D (or ESC O A…D); a lone ESC is the key itself.
            guard let second = read(wait: 30) else { return .escape }
            guard second == UInt8(ascii: "[") || second == UInt8(ascii: "O"), let third = read(wait: 30) else { return .escape }
            switch third {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            case UInt8(ascii: "C"): return .right
            case UInt8(ascii: "D"): return .left
            default: return .escape
            }
        default:
            // A character of several UTF-8 bytes: read them all.
            var bytes = [byte]
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            while bytes.count < length, let more = read(wait: 30) { bytes.append(more) }
            return String(decoding: bytes, as: UTF8.self).first.map(Key.character) ?? .escape
        }
    }

    /// One byte, waiting up to `wait` milliseconds (-1: as long as it takes).
    private func read(wait: Int32) -> UInt8? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = Foundation.read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            return count == 1 ? byte : nil
        }
    }
}
