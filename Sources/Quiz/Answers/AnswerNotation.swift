import DispatchModel
import Foundation

/// DESIGN.md's answer notation: outcomes separated by `|`; within one, lines separated by spaces
/// or commas; a trailing `deadlock` (or `hang`, `crash`) when the run stops there. When every
/// line a puzzle can print is one character, `1234` means `1 2 3 4`.
public enum AnswerNotation {
    /// The one-line reminder shown with every trace question.
    public static let reminder = "spaces between lines, | between outcomes, deadlock where it stops"
    /// An example for that reminder and for error messages.
    public static let example = "1 2 3 | 2 1 3 | 1 deadlock"

    /// How the trainer writes an outcome, so that the learner can type it back: `1 2 3 4`,
    /// `1 4 deadlock`. A line that holds a separator, or reads like an ending, is quoted.
    public static func render(_ outcome: Outcome) -> String {
        var words = outcome.lines.map(quoteIfNeeded)
        if outcome.end == .deadlock { words.append("deadlock") }
        return words.isEmpty ? emptyWord : words.joined(separator: " ")
    }

    /// A run that prints nothing and finishes.
    public static let emptyWord = "(nothing)"

    static let endWords: Set<String> = ["deadlock", "hang", "crash"]

    static func quoteIfNeeded(_ line: String) -> String {
        let needsQuotes = line.isEmpty || endWords.contains(line.lowercased()) || line == emptyWord
            || line.contains { $0 == " " || $0 == "," || $0 == "|" || $0 == "\"" || $0 == "\t" }
        guard needsQuotes else { return line }
        return "\"" + line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Reads a prediction. Duplicated outcomes count once; their order is kept.
    /// - Parameter compactLines: every line the puzzle can print is one character, so an
    ///   unquoted word like `1234` stands for the lines 1, 2, 3, 4.
    public static func parse(_ text: String, compactLines: Bool) throws(AnswerError) -> [Outcome] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw AnswerError("the answer is empty") }
        var outcomes: [Outcome] = []
        for (index, part) in try split(trimmed).enumerated() {
            let outcome = try parseOutcome(part, number: index + 1, compactLines: compactLines)
            if !outcomes.contains(outcome) { outcomes.append(outcome) }
        }
        return outcomes
    }

    private struct Word {
        var text: String
        var quoted: Bool
    }

    /// Splits into outcomes, each a list of words, honouring quotes.
    private static func split(_ text: String) throws(AnswerError) -> [[Word]] {
        var outcomes: [[Word]] = [[]]
        var current = ""
        var inQuotes = false
        var wasQuoted = false
        var escaping = false
        var column = 0
        var quoteColumn = 0
        var closedAt: Int?

        func finishWord() {
            if !current.isEmpty || wasQuoted {
                outcomes[outcomes.count - 1].append(Word(text: current, quoted: wasQuoted))
            }
            current = ""
            wasQuoted = false
        }

        for character in text {
            column += 1
            if inQuotes {
                if escaping {
                    current.append(character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else if character == "\"" {
                    inQuotes = false
                    closedAt = column
                } else {
                    current.append(character)
                }
                continue
            }
            if let closed = closedAt {
                closedAt = nil
                guard character == " " || character == "\t" || character == "," || character == "|" else {
                    throw AnswerError("a closing quote (column \(closed)) must be followed by a space, a comma or '|'")
                }
            }
            switch character {
            case "\"":
                guard current.isEmpty else { throw AnswerError("a quote in the middle of a word, at column \(column)") }
                inQuotes = true
                wasQuoted = true
                quoteColumn = column
            case " ", "\t", ",":
                finishWord()
            case "|":
                finishWord()
                outcomes.append([])
            default:
                current.append(character)
            }
        }
        if inQuotes { throw AnswerError("the quote opened at column \(quoteColumn) is never closed") }
        finishWord()
        return outcomes
    }

    private static func parseOutcome(_ words: [Word], number: Int, compactLines: Bool) throws(AnswerError) -> Outcome {
        guard !words.isEmpty else {
            throw AnswerError("outcome \(number) is empty: write its lines, or '\(emptyWord)' for a run that prints nothing")
        }
        var lines: [String] = []
        var end = End.finished
        for (index, word) in words.enumerated() {
            let lowered = word.text.lowercased()
            if !word.quoted && endWords.contains(lowered) {
                guard index == words.count - 1 else {
                    throw AnswerError("'\(word.text)' must be the last word of its outcome (outcome \(number))")
                }
                end = .deadlock
            } else if !word.quoted && word.text == emptyWord {
                guard words.count == 1 else { throw AnswerError("'\(emptyWord)' stands alone: a run that prints nothing") }
            } else if compactLines && !word.quoted && word.text.count > 1 {
                lines += word.text.map(String.init)
            } else {
                lines.append(word.text)
            }
        }
        return Outcome(lines: lines, end: end)
    }
}

/// An answer the notation cannot read; the message says what is wrong, and `help` how to write it.
public struct AnswerError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var help: String {
        "write \(AnswerNotation.reminder), e.g. \(AnswerNotation.example)"
    }

    public var description: String { "\(message); \(help)" }
}
