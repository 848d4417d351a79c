import Foundation

/// One line of a full-screen view, as pieces of text with the role that decides how a terminal
/// paints each (the executable maps roles to colours, or to nothing without them). Laid out in
/// columns of plain text, so that what fits is decided here, once, and tested.
public struct ScreenLine: Hashable, Sendable {
    public enum Role: Hashable, Sendable {
        case plain
        case dim
        case heading
        /// A line of the snippet.
        case code
        /// A line of the snippet where some thread is now.
        case currentCode
        /// Which threads are at a line of the snippet.
        case marker
        case good
        case bad
        case warning
        /// A key to press, or a move's number.
        case key
    }

    public struct Span: Hashable, Sendable {
        public var text: String
        public var role: Role
    }

    public var spans: [Span]

    public init(_ spans: [Span] = []) {
        self.spans = spans
    }

    public init(_ text: String, _ role: Role = .plain) {
        spans = [Span(text: text, role: role)]
    }

    public var text: String { spans.map(\.text).joined() }
    /// Columns on screen: one per character (the screen's own glyphs are all narrow).
    public var width: Int { spans.reduce(0) { $0 + $1.text.count } }

    static func + (line: ScreenLine, span: (String, Role)) -> ScreenLine {
        ScreenLine(line.spans + [Span(text: span.0, role: span.1)])
    }

    /// The line cut to `width` columns, an ellipsis marking the cut.
    func truncated(to width: Int) -> ScreenLine {
        guard self.width > width else { return self }
        var kept: [Span] = []
        var room = max(width - 1, 0)
        for span in spans where room > 0 {
            let piece = String(span.text.prefix(room))
            kept.append(Span(text: piece, role: span.role))
            room -= piece.count
        }
        kept.append(Span(text: "…", role: .dim))
        return ScreenLine(kept)
    }
}


/// Plain text broken into lines at spaces, never inside a word unless a word alone is too wide.
enum ScreenWrap {
    /// `text` in lines of at most `width` columns, the lines after the first indented by `indent`.
    /// "line 12" is never broken between its words.
    static func lines(_ text: String, width: Int, indent: Int) -> [String] {
        let glued = text.replacing(/line (\d)/) { "line\u{A0}" + $0.output.1 }
        return fill(glued, width: width, indent: indent).map { $0.replacingOccurrences(of: "\u{A0}", with: " ") }
    }

    private static func fill(_ text: String, width: Int, indent: Int) -> [String] {
        let indent = min(indent, max(width - 8, 0))
        var lines: [String] = []
        var line = ""
        func room() -> Int { max(lines.isEmpty ? width : width - indent, 1) }
        for piece in text.split(separator: " ") {
            var word = Substring(piece)
            if !line.isEmpty && line.count + 1 + word.count <= room() {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > room() {
                lines.append(String(word.prefix(room())))
                word = word.dropFirst(room())
            }
            line = String(word)
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines.enumerated().map { $0.offset == 0 ? $0.element : String(repeating: " ", count: indent) + $0.element }
    }
}
