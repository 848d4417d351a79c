import Foundation

/// Grades a free answer by its key ideas: each idea is said when any of its accepted phrasings
/// appears (case-insensitively); `a + b` needs both parts; `/…/` is a regular expression.
///
/// An answer is read as it is meant, not letter by letter:
/// - a typo in a word the key ideas use is forgiven (`userInitated` is `userInitiated`): see
///   `TypoCorrection`;
/// - a phrasing said in the negative does not count (`sync does not block the caller` does not
///   say "sync blocks the caller"): a `not`, `no`, `never`, `without` or `…n't` among the three
///   words before it in the same clause, or inside what a regular expression matched where the
///   expression does not need it. A negation the phrasing asks for (`doesn't cancel`) is what
///   it looks for, and so is one the idea's own statement puts before a plain phrasing (the idea
///   "a semaphore has no owner", said with `owner`).
public enum ShortAnswerGrader {
    public struct Grade: Sendable {
        public var verdict: ChoiceGrader.Verdict
        /// The key ideas the answer contains, and those it misses.
        public var found: [KeyIdea]
        public var missing: [KeyIdea]
    }

    public static func grade(_ answer: String, ideas: [KeyIdea], modelAnswer: String? = nil) throws(AnswerError) -> Grade {
        let trimmed = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw AnswerError("the answer is empty: say it in a few words") }
        let text = TypoCorrection(ideas: ideas, modelAnswer: modelAnswer).corrected(trimmed)
        let found = ideas.filter { idea in idea.accept.contains { says(text, $0, idea: idea.idea) } }
        let missing = ideas.filter { !found.contains($0) }
        let verdict: ChoiceGrader.Verdict = missing.isEmpty ? .right : found.isEmpty ? .wrong : .partial
        return Grade(verdict: verdict, found: found, missing: missing)
    }

    /// Grades an answer to a short question, its model answer lending words to forgive typos in.
    public static func grade(_ answer: String, question: Question) throws(AnswerError) -> Grade {
        try grade(answer, ideas: question.keyIdeas, modelAnswer: question.modelAnswer)
    }

    /// Whether `text` says `pattern` as the idea means it: somewhere not in the negative, or in
    /// the negative where the idea's own statement says it so.
    static func says(_ text: String, _ pattern: String, idea: String) -> Bool {
        // Only a plain phrasing is looked for in the idea's statement: a regular expression says
        // the negations it wants in its own alternatives.
        let plain = regularExpression(pattern) == nil
        return expressions(pattern).allSatisfy { expression in
            let found = occurrences(of: expression, in: text)
            if found.contains(false) { return true }
            return plain && !found.isEmpty && occurrences(of: expression, in: idea).contains(true)
        }
    }

    /// A phrasing as regular expressions: one for `/…/`, one per part of `a + b`, each part
    /// matched literally.
    private static func expressions(_ pattern: String) -> [NSRegularExpression] {
        if let regex = regularExpression(pattern) { return [regex] }
        return pattern.components(separatedBy: " + ").compactMap { part in
            let phrase = part.trimmingCharacters(in: .whitespaces)
            guard !phrase.isEmpty else { return nil }
            return try? NSRegularExpression(pattern: NSRegularExpression.escapedPattern(for: phrase), options: [.caseInsensitive])
        }
    }

    /// Each place `expression` matches `text`, true where it is said in the negative.
    private static func occurrences(of expression: NSRegularExpression, in text: String) -> [Bool] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range, in: text) else { return nil }
            return Negation.precedes(range.lowerBound, in: text) || Negation.inside(text[range], needed: expression)
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

/// Saying something in the negative: "does not block", "doesn't wait", "never runs".
enum Negation {
    static let words: Set<String> = ["not", "no", "never", "cannot", "without", "neither", "nor", "none"]
    /// How many words before a phrase a negation reaches.
    static let reach = 3

    static func isNegation(_ word: String) -> Bool {
        let word = word.lowercased().replacingOccurrences(of: "’", with: "'")
        return words.contains(word) || word.hasSuffix("n't")
    }

    /// Whether a match holds a negation it does not need: one whose removal leaves something
    /// `expression` still matches (`sync does not block` for `sync.{0,80}block`), as opposed to
    /// one it asks for (`doesn't wait`).
    static func inside(_ matched: Substring, needed expression: NSRegularExpression) -> Bool {
        let words = matched.split(separator: " ", omittingEmptySubsequences: true)
        guard words.contains(where: { isNegation(String($0).trimmingCharacters(in: .punctuationCharacters)) }) else { return false }
        let stripped = words.filter { !isNegation(String($0).trimmingCharacters(in: .punctuationCharacters)) }.joined(separator: " ")
        return expression.firstMatch(in: stripped, range: NSRange(stripped.startIndex..., in: stripped)) != nil
    }

    /// Whether one of the `reach` words before `position`, in its clause, is a negation.
    static func precedes(_ position: String.Index, in text: String) -> Bool {
        var before = text[..<position]
        // The clause: back to the last stop, colon, semicolon, comma or "but".
        if let stop = before.lastIndex(where: { ".;:!?,".contains($0) }) { before = before[before.index(after: stop)...] }
        if let but = before.range(of: " but ", options: [.caseInsensitive, .backwards]) { before = before[but.upperBound...] }
        let words = before.split { !$0.isLetter && $0 != "'" && $0 != "’" }.suffix(reach)
        return words.contains { isNegation(String($0)) }
    }
}
