/// Checks a snippet's raw text before swift-syntax sees it, for what would make the parser or its
/// diagnostics misbehave rather than report: a snippet too large to be a puzzle, brackets nested
/// so deep that parsing takes exponential time or overflows the stack, and invisible characters
/// in code (a byte-order mark, a form feed, a line separator…) that make swift-syntax's fix-it
/// generator trap. Strings and comments are skipped: anything may stand in them.
struct SourceScreen {
    /// A snippet is something a learner reads: a few hundred lines at most.
    static let maximumBytes = 100_000
    /// Parentheses, brackets and braces open at once. Deep closures nest about three per level.
    static let maximumDepth = 64
    /// `[` open at once: the parser tries array, dictionary and type readings of each, which
    /// costs time exponential in the depth (1.3 s at 22 levels in a release build).
    static let maximumBracketDepth = 8
    /// String interpolations inside interpolations (`"\("\(x)")"`): swift-syntax's memory grows
    /// steeply with the depth (3.8 GB at 2,000 levels in 50 KB); a puzzle needs two or three.
    static let maximumInterpolationDepth = 8

    struct Finding {
        var message: String
        /// Offset in UTF-8 bytes from the start of the text.
        var offset: Int
    }

    /// The problems, at most one of each kind, in the order found.
    static func findings(in text: String) -> [Finding] {
        let bytes = text.utf8.count
        if bytes > maximumBytes {
            return [Finding(message: "the snippet is \(bytes / 1000) KB: gcdquiz reads snippets of up to \(maximumBytes / 1000) KB", offset: 0)]
        }
        var screen = SourceScreen(text: text)
        screen.scan()
        return screen.found
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var offset = 0
    private var found: [Finding] = []
    private var reportedCharacter = false
    /// What is open, innermost last: a bracket of code, or an interpolation inside a string.
    private var open: [Unicode.Scalar] = []
    private var brackets = 0
    private var interpolations = 0

    private init(text: String) {
        scalars = Array(text.unicodeScalars)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ distance: Int) -> Unicode.Scalar? {
        index + distance < scalars.count ? scalars[index + distance] : nil
    }

    private mutating func advance() {
        if let scalar = current { offset += String(scalar).utf8.count }
        index += 1
    }

    private mutating func report(_ message: String, at position: Int) {
        found.append(Finding(message: message, offset: position))
    }

    private mutating func scan() {
        while let scalar = current {
            if scalar == "/" && peek(1) == "/" {
                skipLineComment()
            } else if scalar == "/" && peek(1) == "*" {
                skipBlockComment()
            } else if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
                skipString()
            } else {
                code(scalar)
                advance()
            }
            if found.count >= 3 { return }
        }
    }

    /// A character of code (outside strings and comments).
    private mutating func code(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "(", "[", "{":
            open.append(scalar)
            if scalar == "[" { brackets += 1 }
            if open.count == Self.maximumDepth + 1 {
                report("parentheses, brackets and braces are nested more than \(Self.maximumDepth) deep here: gcdquiz reads snippets nested less deeply", at: offset)
            } else if scalar == "[" && brackets == Self.maximumBracketDepth + 1 {
                report("brackets are nested more than \(Self.maximumBracketDepth) deep here: array literals nested this deep are outside the supported subset", at: offset)
            }
        case ")", "]", "}":
            if let last = open.popLast(), last == "[" { brackets -= 1 }
        default:
            if !reportedCharacter, index > 0 || scalar != "\u{FEFF}", let name = Self.invisibleName(scalar) {
                reportedCharacter = true
                report("an invisible character, \(name), stands in the code here: delete it (or use a space)", at: offset)
            }
        }
    }

    /// Whitespace and control characters Swift code does not use: the parser's fix-its cannot
    /// handle them. Space, tab and line breaks are fine; anything may stand in a string.
    static func invisibleName(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case " ", "\t", "\n", "\r": return nil
        case "\u{FEFF}": return "U+FEFF (a byte-order mark)"
        case "\u{0B}": return "U+000B (a vertical tab)"
        case "\u{0C}": return "U+000C (a form feed)"
        case "\u{2028}": return "U+2028 (a line separator)"
        case "\u{2029}": return "U+2029 (a paragraph separator)"
        case "\u{A0}": return "U+00A0 (a non-breaking space)"
        default: break
        }
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        switch scalar.properties.generalCategory {
        case .control: return "U+\(padded) (a control character)"
        case .format: return "U+\(padded) (a format character)"
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: return "U+\(padded) (a space that is not ' ')"
        default: return nil
        }
    }

    private mutating func skipLineComment() {
        while let scalar = current, scalar != "\n", scalar != "\r" { advance() }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while let scalar = current {
            if scalar == "/" && peek(1) == "*" {
                depth += 1
                advance()
            } else if scalar == "*" && peek(1) == "/" {
                depth -= 1
                advance()
                if depth == 0 {
                    advance()
                    return
                }
            }
            advance()
        }
    }

    private func isRawStringStart() -> Bool {
        var distance = 0
        while peek(distance) == "#" { distance += 1 }
        return peek(distance) == "\""
    }

    /// Skips a string literal (plain, multi-line, raw), scanning its interpolations as code.
    private mutating func skipString() {
        var pounds = 0
        while current == "#" {
            pounds += 1
            advance()
        }
        let multiline = peek(1) == "\"" && peek(2) == "\""
        for _ in 0..<(multiline ? 3 : 1) { advance() }
        while let scalar = current {
            if scalar == "\\" && hasPounds(pounds, from: 1) {
                advance()
                for _ in 0..<pounds { advance() }
                if current == "(" {
                    advance()
                    interpolation()
                } else {
                    advance()
                }
                continue
            }
            if scalar == "\"" && (!multiline || (peek(1) == "\"" && peek(2) == "\"")) && hasPounds(pounds, from: multiline ? 3 : 1) {
                for _ in 0..<((multiline ? 3 : 1) + pounds) { advance() }
                return
            }
            if !multiline && (scalar == "\n" || scalar == "\r") { return }
            advance()
        }
    }

    private func hasPounds(_ pounds: Int, from distance: Int) -> Bool {
        (0..<pounds).allSatisfy { peek(distance + $0) == "#" }
    }

    /// The code inside `\( … )`, up to its closing parenthesis.
    private mutating func interpolation() {
        var depth = 1
        open.append("(")
        interpolations += 1
        defer { interpolations -= 1 }
        if interpolations == Self.maximumInterpolationDepth + 1 {
            report("string interpolations are nested more than \(Self.maximumInterpolationDepth) deep here: gcdquiz reads snippets nested less deeply", at: offset)
        }
        if open.count == Self.maximumDepth + 1 {
            report("parentheses, brackets and braces are nested more than \(Self.maximumDepth) deep here: gcdquiz reads snippets nested less deeply", at: offset)
        }
        while let scalar = current {
            if scalar == "/" && peek(1) == "/" {
                skipLineComment()
                continue
            }
            if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
                skipString()
                continue
            }
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 {
                    _ = open.popLast()
                    advance()
                    return
                }
            }
            code(scalar)
            advance()
        }
    }
}
