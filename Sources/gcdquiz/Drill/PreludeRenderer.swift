import ConcurrencyModel
import Foundation

/// The prelude every snippet runs after (`serialQueue`, `concurrentQueue`), shown once when a
/// drill starts, in `:help`, and under a snippet whose barrier means what it does because of
/// which prelude queue it is on.
enum PreludeRenderer {
    /// The prelude's declarations, highlighted, each broken after a comma when the terminal is
    /// narrower than the line, its continuation under the opening parenthesis.
    static func declarations(style: TerminalStyle, indent: Int = 2) -> String {
        let lines = Prelude.source.split(separator: "\n").map(String.init).filter { $0.hasPrefix("let ") }
        return lines.flatMap { line -> [String] in
            let room = (style.width ?? Int.max) - indent
            guard line.count > room, let open = line.firstIndex(of: "("), let comma = line.range(of: ", ", options: .backwards) else {
                return [line]
            }
            let column = line.distance(from: line.startIndex, to: open) + 1
            return [String(line[..<comma.lowerBound]) + ",", String(repeating: " ", count: column) + line[comma.upperBound...]]
        }.map { String(repeating: " ", count: indent) + CodeHighlighter.highlight($0, style: style) }.joined(separator: "\n") + "\n"
    }

    /// Said before the first question: what the snippets are written against.
    static func introduction(style: TerminalStyle) -> String {
        style.wrappedLines(style.dim("Every snippet runs after this prelude, its top-level code on the main thread:"), hanging: 0) + "\n"
            + declarations(style: style)
    }

    /// For a snippet with a barrier on a prelude queue: which queue it is, and so what the
    /// barrier does there. Empty otherwise.
    static func barrierNote(code: String, style: TerminalStyle) -> String {
        guard code.contains(".barrier") else { return "" }
        var notes: [String] = []
        if code.contains("concurrentQueue") {
            notes.append("concurrentQueue is the prelude's custom concurrent queue (attributes: .concurrent): a barrier on it waits for the blocks before it and holds back those after it.")
        }
        if code.contains("serialQueue") {
            notes.append("serialQueue is the prelude's serial queue: it runs one block at a time anyway, so a barrier on it changes nothing.")
        }
        return notes.map { style.wrappedLines(style.dim("(" + $0 + ")"), hanging: 1) + "\n" }.joined() + (notes.isEmpty ? "" : "\n")
    }
}
