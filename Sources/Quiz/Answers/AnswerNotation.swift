import Foundation
import DispatchModel

/// DESIGN.md's answer notation: outcomes separated by `|`; within one, lines separated by spaces
/// or commas; a trailing `deadlock` (or `hang`, `crash`) when the run stops there.
public enum AnswerNotation {
    /// How the trainer writes an outcome, so that the learner can type it back: `1 2 3 4`,
    /// `1 4 deadlock`. A line that holds a separator, or reads like an ending, is quoted.
    public static func render(_ outcome: Outcome) -> String {
        var words = outcome.lines.map(quoteIfNeeded)
        if outcome.end == .deadlock { words.append("deadlock") }
        return words.isEmpty ? "(nothing)" : words.joined(separator: " ")
    }

    static let endWords: Set<String> = ["deadlock", "hang", "crash"]

    static func quoteIfNeeded(_ line: String) -> String {
        let needsQuotes = line.isEmpty || endWords.contains(line.lowercased())
            || line.contains { $0 == " " || $0 == "," || $0 == "|" || $0 == "\"" || $0 == "\t" }
        guard needsQuotes else { return line }
        return "\"" + line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
