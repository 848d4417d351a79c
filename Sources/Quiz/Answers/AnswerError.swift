import Foundation

/// An answer the notation cannot read; the message says what is wrong, and `help` how to write it.
/// Such an answer is not graded: the drill asks again without counting it, `check` exits 1.
public struct AnswerError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var help: String {
        "write \(AnswerNotation.reminder), e.g. \(AnswerNotation.example)"
    }

    public var description: String { "\(message); \(help)" }

    /// A piece of what the learner typed, fit to quote in a message: one line, at most `limit`
    /// characters, so that a pasted page (or 128 KB) never comes back whole.
    public static func excerpt(_ text: String, limit: Int = 24) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let cut = line.count > limit || line.count < text.trimmingCharacters(in: .whitespacesAndNewlines).count
        return "'" + line.prefix(limit) + (cut ? "…" : "") + "'"
    }
}
