import Foundation

/// Grades a free answer by its key ideas: each idea is said when any of its accepted phrasings
/// appears (case-insensitively); `a + b` needs both parts; `/…/` is a regular expression.
public enum ShortAnswerGrader {
    public struct Grade: Sendable {
        public var verdict: ChoiceGrader.Verdict
        /// The key ideas the answer contains, and those it misses.
        public var found: [KeyIdea]
        public var missing: [KeyIdea]
    }

    public static func grade(_ answer: String, ideas: [KeyIdea]) throws(AnswerError) -> Grade {
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw AnswerError("the answer is empty: say it in a few words") }
        let found = ideas.filter { idea in idea.accept.contains { matches(text, $0) } }
        let missing = ideas.filter { !found.contains($0) }
        let verdict: ChoiceGrader.Verdict = missing.isEmpty ? .right : found.isEmpty ? .wrong : .partial
        return Grade(verdict: verdict, found: found, missing: missing)
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        if let regex = regularExpression(pattern) {
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        let lowered = text.lowercased()
        return pattern.lowercased().components(separatedBy: " + ").allSatisfy { part in
            lowered.contains(part.trimmingCharacters(in: .whitespaces))
        }
    }

    static func regularExpression(_ pattern: String) -> NSRegularExpression? {
        guard pattern.count > 2, pattern.hasPrefix("/"), pattern.hasSuffix("/") else { return nil }
        return try? NSRegularExpression(pattern: String(pattern.dropFirst().dropLast()), options: [.caseInsensitive])
    }

    /// A problem with an accepted phrasing, for validation: a regular expression that does not
    /// compile.
    public static func checkPattern(_ pattern: String) -> String? {
        guard pattern.count > 2, pattern.hasPrefix("/"), pattern.hasSuffix("/") else { return nil }
        return regularExpression(pattern) == nil ? "'\(pattern)' is not a valid regular expression" : nil
    }
}
