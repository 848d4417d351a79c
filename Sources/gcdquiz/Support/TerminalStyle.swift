import Foundation

/// Colours and emphasis for a terminal, or none: when the stream is not a terminal, when
/// `NO_COLOR` is set, or when `TERM` is `dumb`.
struct TerminalStyle {
    var enabled: Bool

    enum Stream { case standardOutput, standardError }

    static func current(for stream: Stream) -> TerminalStyle {
        let environment = ProcessInfo.processInfo.environment
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        let wanted = isatty(descriptor) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true
            && environment["TERM"] != "dumb"
        return TerminalStyle(enabled: wanted)
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
