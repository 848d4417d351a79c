/// Cuts an answer into words and the notation's marks: `|` between outcomes, `[` `]` around one,
/// arrows between lines. Any Unicode space (a non-breaking space too), a line break, a comma or
/// their full-width forms separate words; quotes keep a line whole.
struct AnswerLexer {
    enum Kind: Equatable {
        case word(String, quoted: Bool)
        case bar
        case open
        case close
        case arrow
    }

    struct Token: Equatable {
        var kind: Kind
        /// 1-based, in characters, for messages.
        var column: Int
    }

    /// Arrows (`->`, `→`) separate lines, unless a printable line may hold one.
    var arrowsSeparate: Bool
    /// Brackets group an outcome, unless a printable line may start with `[` or end with `]`.
    /// Then `[` opens an outcome only at the start of a word and `]` closes one only at its
    /// end: a line such as `a[0]=1` stays whole.
    var bracketsGroup: Bool

    static let arrows = ["->", "→"]

    static func isSpace(_ character: Character) -> Bool {
        character.isWhitespace || character == "," || character == "，" || character == "、"
            || character == "\u{200B}" || character == "\u{2060}" || character == "\u{FEFF}"
    }

    static func isBar(_ character: Character) -> Bool { character == "|" || character == "｜" }

    func tokens(_ text: String) throws(AnswerError) -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var word = ""
        var wordColumn = 0
        var index = 0

        func finishWord() {
            if !word.isEmpty { tokens.append(Token(kind: .word(word, quoted: false), column: wordColumn)) }
            word = ""
        }

        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if arrowsSeparate, let arrow = Self.arrows.first(where: { characters[index...].starts(with: $0) }) {
                finishWord()
                tokens.append(Token(kind: .arrow, column: column))
                index += arrow.count
                continue
            }
            if Self.isSpace(character) {
                finishWord()
            } else if Self.isBar(character) {
                finishWord()
                tokens.append(Token(kind: .bar, column: column))
            } else if bracketsGroup && character == "[" && word.isEmpty {
                tokens.append(Token(kind: .open, column: column))
            } else if bracketsGroup && character == "]" && endsWord(characters, after: index) {
                finishWord()
                tokens.append(Token(kind: .close, column: column))
            } else if character == "\"" || character == "“" || character == "”" {
                guard word.isEmpty else {
                    throw AnswerError("a quote in the middle of \(AnswerError.excerpt(word + "\"")), at column \(column): quote a whole line, \"like this\"")
                }
                let (line, end) = try quoted(characters, from: index)
                tokens.append(Token(kind: .word(line, quoted: true), column: column))
                index = end + 1
                if index < characters.count, !endsQuotedWord(characters, at: index) {
                    throw AnswerError("a closing quote (column \(end + 1)) must be followed by a space, a comma or '|'")
                }
                continue
            } else {
                if word.isEmpty { wordColumn = column }
                word.append(character)
            }
            index += 1
        }
        finishWord()
        return tokens
    }

    /// Whether the character after `index` ends a word: a space, a bar, another `]`, an arrow,
    /// or the end of the answer.
    private func endsWord(_ characters: [Character], after index: Int) -> Bool {
        let next = index + 1
        return next >= characters.count || endsQuotedWord(characters, at: next) || characters[next] == "]"
    }

    private func endsQuotedWord(_ characters: [Character], at index: Int) -> Bool {
        let next = characters[index]
        return Self.isSpace(next) || Self.isBar(next) || (bracketsGroup && next == "]")
            || (arrowsSeparate && Self.arrows.contains { characters[index...].starts(with: $0) })
    }

    /// A quoted line from the quote at `start`: its text and the index of the closing quote.
    /// `\"` is a quote and `\\` a backslash; `\t` a tab. A line break cannot be part of a line
    /// (print starts a new line there), so `\n` and a real line break are refused.
    private func quoted(_ characters: [Character], from start: Int) throws(AnswerError) -> (String, Int) {
        var text = ""
        var index = start + 1
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            switch character {
            case "\"", "”", "“":
                return (text, index)
            case "\\":
                guard index + 1 < characters.count else { break }
                let escaped = characters[index + 1]
                switch escaped {
                case "\"", "\\": text.append(escaped)
                case "t": text.append("\t")
                case "n", "r":
                    throw AnswerError("a printed line never holds a line break (\\\(escaped) at column \(column)): print starts a new line there, so write the two parts as two lines")
                default:
                    throw AnswerError("'\\\(escaped)' at column \(column) is not an escape the notation reads: inside quotes, write \\\" for a quote and \\\\ for a backslash")
                }
                index += 2
                continue
            default:
                if character.isNewline {
                    throw AnswerError("a printed line never holds a line break (inside the quote at column \(start + 1)): print starts a new line there, so write the two parts as two lines")
                }
                text.append(character)
            }
            index += 1
        }
        throw AnswerError("the quote opened at column \(start + 1) is never closed")
    }
}
