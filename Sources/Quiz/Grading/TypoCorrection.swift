import Foundation

/// Forgives typos in a short answer: a word the answer misspells is read as the word of the key
/// ideas it is one letter away from (two for long words), the way a person reading the answer
/// would. One typo (`userInitated`) used to turn a right answer into "none of the key ideas".
///
/// The vocabulary is the question's own: the words of its key ideas, their accepted phrasings
/// (the words inside regular expressions too) and its model answer. Only words of five letters
/// or more are corrected, only to a word of that vocabulary with the same first letter (typos
/// rarely touch it, and `block` must not become `lock`, nor `async` become `sync`). A word made
/// of humps (`userInitated`) is tried whole, then hump by hump.
struct TypoCorrection {
    /// The vocabulary in lower case, each with its spelling in the question (`userInitiated`).
    private let vocabulary: [String: String]
    /// The vocabulary by first letter, for the search.
    private let byFirstLetter: [Character: [String]]

    init(ideas: [KeyIdea], modelAnswer: String?) {
        var words: [String: String] = [:]
        let sources = ideas.flatMap { [$0.idea] + $0.accept } + [modelAnswer ?? ""]
        for source in sources {
            // A regular expression's escapes (`\b`, `\w`) are not letters of its words.
            let text = source.replacingOccurrences(of: #"\\[A-Za-z]"#, with: " ", options: .regularExpression)
            for word in Self.words(in: text) {
                for spelling in [word] + Self.humps(of: word) where spelling.count >= 4 {
                    words[spelling.lowercased()] = words[spelling.lowercased()] ?? spelling
                }
            }
        }
        vocabulary = words
        byFirstLetter = Dictionary(grouping: words.keys, by: { $0.first! })
    }

    /// `text` with each misspelled word replaced by the vocabulary's word.
    func corrected(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstIndex(where: \.isLetter) {
            result += rest[..<start]
            let end = rest[start...].firstIndex { !$0.isLetter } ?? rest.endIndex
            result += correct(String(rest[start..<end]))
            rest = rest[end...]
        }
        return result + rest
    }

    private func correct(_ word: String) -> String {
        if let whole = nearest(word) { return whole }
        let humps = Self.humps(of: word)
        guard humps.count > 1 else { return word }
        return humps.map { nearest($0) ?? $0 }.joined()
    }

    /// The vocabulary's word `word` misspells, in `word`'s case at its first letter; nil when it
    /// is spelled right, too short, or near none.
    private func nearest(_ word: String) -> String? {
        let lowered = word.lowercased()
        guard lowered.count >= 5, vocabulary[lowered] == nil, let first = lowered.first else { return nil }
        let allowed = lowered.count >= 8 ? 2 : 1
        let best = (byFirstLetter[first] ?? [])
            .filter { $0.count >= 5 && abs($0.count - lowered.count) <= allowed }
            .map { ($0, AnswerNotation.editDistance(lowered, $0, limit: allowed)) }
            .filter { $0.1 <= allowed }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
        guard let best, let spelling = vocabulary[best] else { return nil }
        // The question's spelling, with the first letter in the answer's case.
        return (word.first!.isUppercase ? spelling.prefix(1).uppercased() : spelling.prefix(1).lowercased()) + spelling.dropFirst()
    }

    static func words(in text: String) -> [String] {
        text.split { !$0.isLetter }.map(String.init)
    }

    /// `userInitiated` → `user`, `Initiated`.
    static func humps(of word: String) -> [String] {
        var humps: [String] = []
        var current = ""
        for character in word {
            if character.isUppercase, let last = current.last, last.isLowercase {
                humps.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { humps.append(current) }
        return humps
    }
}
