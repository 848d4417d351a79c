import ConcurrencyModel
import Foundation

/// DESIGN.md's answer notation: outcomes separated by `|`; within one, lines separated by spaces
/// or commas; a trailing `deadlock` (or `hang`, `crash`) when the run stops there, `finished`
/// when it ends well (also the default). When every line a puzzle can print is one character,
/// `1234` means `1 2 3 4`.
///
/// What people write besides is read when it can mean one thing only: `->` or `→` between lines,
/// `[…]` around an outcome, `or` between outcomes (unless a line of the snippet holds such a
/// mark, or is the word `or`). A word that no print of the snippet can produce is not a
/// prediction but a misreading (`finishd`, `[0,`): it is refused with the notation, never graded.
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

    /// Words that end an outcome, and the ending each means.
    static let endings: [String: End] = ["deadlock": .deadlock, "hang": .deadlock, "crash": .deadlock, "finished": .finished]

    static func quoteIfNeeded(_ line: String) -> String {
        let lowered = line.lowercased()
        let needsQuotes = line.isEmpty || endings[lowered] != nil || lowered == "or" || line == emptyWord
            || line.contains { $0 == "\"" || $0 == "[" || $0 == "]" || AnswerLexer.isSpace($0) || AnswerLexer.isBar($0) }
            || AnswerLexer.arrows.contains { line.contains($0) }
        guard needsQuotes else { return line }
        return "\"" + line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Reads a prediction with no snippet to check its words against (every word is a line).
    public static func parse(_ text: String, compactLines: Bool) throws(AnswerError) -> [Outcome] {
        try parse(text, lines: .any(compactLines: compactLines))
    }

    /// Reads a prediction of a puzzle whose prints can produce `printable`. Duplicated outcomes
    /// count once; their order is kept.
    public static func parse(_ text: String, lines printable: PrintableLines) throws(AnswerError) -> [Outcome] {
        guard !text.allSatisfy(AnswerLexer.isSpace) else { throw AnswerError("the answer is empty") }
        let lexer = AnswerLexer(
            arrowsSeparate: !AnswerLexer.arrows.contains(where: printable.mayContain),
            bracketsGroup: !printable.mayStart(with: "[") && !printable.mayEnd(with: "]"))
        var tokens = try lexer.tokens(text)
        // `or` between outcomes, unless the snippet prints it.
        for (index, token) in tokens.enumerated() {
            if case .word(let word, quoted: false) = token.kind, word.lowercased() == "or", !printable.contains(word) {
                tokens[index].kind = .bar
            }
        }
        var outcomes: [Outcome] = []
        for (index, words) in try OutcomeGroups.split(tokens).enumerated() {
            let outcome = try parseOutcome(words, number: index + 1, printable: printable)
            if !outcomes.contains(outcome) { outcomes.append(outcome) }
        }
        return outcomes
    }

    private static func parseOutcome(_ tokens: [AnswerLexer.Token], number: Int, printable: PrintableLines) throws(AnswerError) -> Outcome {
        for (index, token) in tokens.enumerated() where token.kind == .arrow {
            let between = index > 0 && index < tokens.count - 1 && tokens[index - 1].kind != .arrow && tokens[index + 1].kind != .arrow
            guard between else { throw AnswerError("an arrow stands between two lines (the one at column \(token.column) does not)") }
        }
        let words: [(text: String, quoted: Bool)] = tokens.compactMap { token in
            if case .word(let text, let quoted) = token.kind { return (text, quoted) }
            return nil
        }
        guard !words.isEmpty else {
            throw AnswerError("outcome \(number) is empty: write its lines, or '\(emptyWord)' for a run that prints nothing")
        }
        var lines: [String] = []
        var end = End.finished
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            if !word.quoted, let ending = endings[word.text.lowercased()] {
                guard isLast else {
                    throw AnswerError("\(AnswerError.excerpt(word.text)) must be the last word of its outcome (outcome \(number))")
                }
                end = ending
            } else if !word.quoted && word.text == emptyWord {
                let endsNext = words.count == 2 && index == 0 && !words[1].quoted && endings[words[1].text.lowercased()] != nil
                guard words.count == 1 || endsNext else { throw AnswerError("'\(emptyWord)' stands alone: a run that prints nothing") }
            } else {
                do {
                    lines += try readLines(word.text, quoted: word.quoted, printable: printable)
                } catch {
                    throw spacedLine(around: index, in: words, printable: printable) ?? error
                }
            }
        }
        return Outcome(lines: lines, end: end)
    }

    /// The printed lines one word stands for: itself, or (compact, unquoted) each character.
    private static func readLines(_ word: String, quoted: Bool, printable: PrintableLines) throws(AnswerError) -> [String] {
        if !quoted && printable.compactLines && word.count > 1 {
            let characters = word.map(String.init)
            if characters.allSatisfy(printable.contains) { return characters }
        }
        if printable.contains(word) { return [word] }
        var message = "no print of this snippet can produce \(AnswerError.excerpt(word))"
        if let near = nearest(word, among: Set(endings.keys).union(printable.knownLines)) {
            message += " (did you mean \(AnswerError.excerpt(near))?)"
        } else if AnswerLexer.arrows.contains(where: word.contains) || word.contains("[") || word.contains("]") {
            message += " (the snippet prints lines that may hold arrows or brackets: quote a line whole, \"like this\")"
        }
        throw AnswerError(message)
    }

    /// A printed line that holds a space, written without quotes, reads as several words none
    /// of which the snippet prints alone (`a done` for the line "a done"): the error that says
    /// to quote it, when the words around `index` make such a line.
    private static func spacedLine(around index: Int, in words: [(text: String, quoted: Bool)], printable: PrintableLines) -> AnswerError? {
        for length in 2...4 {
            for start in max(index - length + 1, 0)...index where start + length <= words.count {
                let window = words[start..<(start + length)]
                guard !window.contains(where: \.quoted) else { continue }
                let line = window.map(\.text).joined(separator: " ")
                if printable.contains(line) {
                    return AnswerError("no print of this snippet can produce \(AnswerError.excerpt(words[index].text)) alone, but one prints the line \(quoteIfNeeded(line)): a line that holds a space is quoted, \(quoteIfNeeded(line))")
                }
            }
        }
        return nil
    }

    /// A word within a typo of `word`, for a "did you mean": one edit (a letter added, dropped,
    /// changed, or two neighbours swapped) for words of three to six letters, two from seven.
    static func nearest(_ word: String, among candidates: Set<String>) -> String? {
        guard word.count >= 3 else { return nil }
        let allowed = word.count >= 7 ? 2 : 1
        let lowered = word.lowercased()
        return candidates.filter { $0.count >= 3 || $0.lowercased() == lowered }
            .map { ($0, editDistance(lowered, $0.lowercased(), limit: allowed)) }
            .filter { $0.1 <= allowed }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// The optimal-string-alignment distance (Levenshtein with two neighbours swapped counting
    /// as one edit: `wrok` is one edit from `work`), stopping early once it exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a), b = Array(b)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            if current.min()! > limit { return limit + 1 }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}

/// The outcomes of an answer, each as its tokens: split at `|` (and `or`), or one per `[…]`.
enum OutcomeGroups {
    typealias Token = AnswerLexer.Token

    static func split(_ tokens: [Token]) throws(AnswerError) -> [[Token]] {
        var parts: [[Token]] = [[]]
        var open: [Token] = []
        for token in tokens {
            switch token.kind {
            case .open:
                guard open.count < 2 else {
                    throw AnswerError("brackets nested too deep at column \(token.column): one pair around each outcome is enough")
                }
                open.append(token)
            case .close:
                guard open.popLast() != nil else { throw AnswerError("the ']' at column \(token.column) closes nothing") }
            case .bar:
                guard open.isEmpty else {
                    throw AnswerError("a '|' inside brackets, at column \(token.column): brackets hold one outcome, and | goes between outcomes")
                }
                parts.append([])
                continue
            case .word, .arrow:
                break
            }
            parts[parts.count - 1].append(token)
        }
        if let unclosed = open.first { throw AnswerError("the '[' at column \(unclosed.column) is never closed") }
        var outcomes: [[Token]] = []
        for part in parts {
            guard part.contains(where: { $0.kind == .open }) else {
                outcomes.append(part)
                continue
            }
            outcomes += try bracketed(part)
        }
        return outcomes
    }

    /// `[1 2] [2 1]` or `[[1, 2], [2, 1]]`: each innermost pair of brackets is an outcome, and
    /// nothing may stand outside them.
    private static func bracketed(_ part: [Token]) throws(AnswerError) -> [[Token]] {
        var outcomes: [[Token]] = []
        var depth = 0
        var current: [Token]?
        var innermost = part.contains { $0.kind == .open } ? maximumDepth(part) : 0
        if innermost == 0 { innermost = 1 }
        for token in part {
            switch token.kind {
            case .open:
                depth += 1
                if depth == innermost { current = [] }
            case .close:
                if depth == innermost, let finished = current {
                    outcomes.append(finished)
                    current = nil
                }
                depth -= 1
            case .word, .arrow:
                guard depth == innermost else {
                    throw AnswerError("\(describe(token)) at column \(token.column) stands outside the brackets: put each outcome in its own brackets, or separate outcomes with |")
                }
                current?.append(token)
            case .bar:
                break
            }
        }
        return outcomes
    }

    private static func maximumDepth(_ tokens: [Token]) -> Int {
        var depth = 0
        var deepest = 0
        for token in tokens {
            if token.kind == .open { depth += 1; deepest = max(deepest, depth) }
            if token.kind == .close { depth -= 1 }
        }
        return deepest
    }

    private static func describe(_ token: Token) -> String {
        if case .word(let text, _) = token.kind { return AnswerError.excerpt(text) }
        return "an arrow"
    }
}
