import Foundation

/// Colours and emphasis for a terminal, or none: when the stream is not a terminal, when
/// `NO_COLOR` is set, or when `TERM` is `dumb`.
struct TerminalStyle {
    var enabled: Bool
    /// The terminal's width in columns, to wrap long lines with their indentation; nil when the
    /// stream is not a terminal (then lines are left whole for whoever reads them).
    var width: Int?

    static func current(for stream: StandardStream) -> TerminalStyle {
        let environment = ProcessInfo.processInfo.environment
        let descriptor = stream.descriptor
        let wanted = isatty(descriptor) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true
            && environment["TERM"] != "dumb"
        var size = winsize()
        let width = isatty(descriptor) == 1 && ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col >= 40 ? Int(size.ws_col) : nil
        return TerminalStyle(enabled: wanted, width: width)
    }

    /// Breaks `text` at spaces so that no line is wider than the terminal; lines after the first
    /// start with `indent` spaces (a hanging indent under a list marker).
    func wrapped(_ text: String, firstLineWidth used: Int, indent: Int) -> String {
        guard let width else { return text }
        var lines: [String] = []
        var line = ""
        var room = width - used
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.count + 1 + word.count > room {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
                room = width
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    static let plain = TerminalStyle(enabled: false)

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func blue(_ text: String) -> String { wrap(text, "34") }
    func magenta(_ text: String) -> String { wrap(text, "35") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
}
