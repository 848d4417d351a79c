import Foundation

/// Colours and emphasis for a terminal, or none: when the stream is not a terminal, when
/// `NO_COLOR` is set, or when `TERM` is `dumb`.
struct TerminalStyle {
    var enabled: Bool
    /// The terminal's width in columns, to wrap long lines with their indentation; nil when the
    /// stream is not a terminal (then lines are left whole for whoever reads them).
    var width: Int?
    /// The terminal's height in lines, to fit a result on one screen; nil when the stream is not
    /// a terminal (then everything is printed).
    var height: Int?

    static func current(for stream: StandardStream) -> TerminalStyle {
        let environment = ProcessInfo.processInfo.environment
        let descriptor = stream.descriptor
        let wanted = isatty(descriptor) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true
            && environment["TERM"] != "dumb"
        var size = winsize()
        let known = isatty(descriptor) == 1 && ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0
        let width = known && size.ws_col >= 40 ? Int(size.ws_col) : nil
        let height = known && size.ws_row >= 10 ? Int(size.ws_row) : nil
        return TerminalStyle(enabled: wanted, width: width, height: height)
    }

    /// Breaks `text` at spaces so that no line is wider than the terminal; lines after the first
    /// start with `indent` spaces (a hanging indent under a list marker).
    func wrapped(_ text: String, firstLineWidth used: Int, indent: Int) -> String {
        guard let width else { return text }
        var lines: [String] = []
        // Leading spaces are the line's own indentation: kept, never a place to break.
        let leading = text.prefix { $0 == " " }
        var line = String(leading)
        var length = leading.count
        var hasWord = false
        var room = width - used
        let words = text.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false)
            .flatMap { Self.pieces(String($0), columns: max(width - indent, 8)) }
        for word in words {
            let wordLength = Self.visibleLength(String(word))
            if hasWord && length + 1 + wordLength > room {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
                length = indent + wordLength
                room = width
                // A break at a double space ("there  [line 5]"): the next word starts the line.
                hasWord = !word.isEmpty
            } else {
                line += (hasWord ? " " : "") + word
                length += (hasWord ? 1 : 0) + wordLength
                hasWord = true
            }
        }
        lines.append(line)
        Self.keepShortTailWithItsWord(&lines, indent: indent, width: width)
        return lines.joined(separator: "\n")
    }

    /// A word wider than a whole line (a sentence of Chinese, which has no spaces) in pieces
    /// that fit: the terminal would break it at its edge anyway, past the hanging indent.
    /// Escape sequences stay whole.
    private static func pieces(_ word: String, columns: Int) -> [String] {
        guard visibleLength(word) > columns else { return [word] }
        var pieces: [String] = []
        var piece = ""
        var used = 0
        var inEscape = false
        for character in word {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                piece.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            let next = TerminalColumns.width(of: character)
            if used + next > columns {
                pieces.append(piece)
                piece = ""
                used = 0
            }
            piece.append(character)
            used += next
        }
        pieces.append(piece)
        return pieces
    }

    /// A last line of one short word (a closing "}`" or ")") reads as debris: it takes the word
    /// before it along, when that word is not the previous line's only one.
    private static func keepShortTailWithItsWord(_ lines: inout [String], indent: Int, width: Int) {
        guard lines.count >= 2 else { return }
        let tail = lines[lines.count - 1].dropFirst(indent)
        guard !tail.contains(" "), visibleLength(String(tail)) <= 3 else { return }
        let previous = lines[lines.count - 2]
        let body = previous.drop { $0 == " " }
        guard let space = body.lastIndex(of: " ") else { return }
        let word = previous[previous.index(after: space)...]
        guard indent + visibleLength(String(word)) + 1 + visibleLength(String(tail)) <= width else { return }
        lines[lines.count - 2] = String(previous[..<space])
        lines[lines.count - 1] = String(repeating: " ", count: indent) + word + " " + tail
    }

    /// Every line of `text` wrapped at the terminal's width, its continuation lines indented
    /// under the line's own indentation plus `hanging` spaces.
    func wrappedLines(_ text: String, hanging: Int = 2) -> String {
        guard width != nil else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let indent = line.prefix { $0 == " " }.count
            return wrapped(String(line), firstLineWidth: 0, indent: indent + hanging)
        }.joined(separator: "\n")
    }

    static let plain = TerminalStyle(enabled: false)

    /// The width of `text` on screen, in columns: escape sequences take none, East Asian wide
    /// characters two (`TerminalColumns`).
    static func visibleLength(_ text: String) -> Int {
        TerminalColumns.width(text)
    }

    /// How many lines `text` takes on screen, long lines wrapped by the terminal.
    func screenLines(_ text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
            let length = Self.visibleLength(String(line))
            return total + max(1, width.map { (length + $0 - 1) / $0 } ?? 1)
        }
    }

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
