import SwiftDiagnostics
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Turns a snippet written against the prelude into a `Program`, or says precisely why it cannot:
/// a syntax error, or Swift outside the supported subset, each at its line and column.
public enum SnippetCompiler {
    /// - Parameter fileName: the name problems are reported against (a path, or `<snippet>`).
    /// - Parameter mode: the language mode stated for the snippet (nil: its default); the
    ///   upcoming features it turns on change where code runs (`LanguageMode`).
    public static func compile(_ source: String, fileName: String = "<snippet>", mode: LanguageMode? = nil) -> Result<Program, ProblemList> {
        // A byte-order mark at the very start is an editor's, not the snippet's.
        let source = source.hasPrefix("\u{FEFF}") ? String(source.dropFirst()) : source
        let lines = SourceLines(source)
        let screened = SourceScreen.findings(in: source)
        if !screened.isEmpty {
            return .failure(ProblemList(screened.map { finding in
                let (line, column) = lines.position(ofUTF8Offset: finding.offset)
                return Problem(.error, finding.message, at: SourceLocation(file: fileName, line: line, column: column), sourceLine: lines[line])
            }))
        }
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: fileName, tree: tree)

        func problem(_ message: String, at position: AbsolutePosition) -> Problem {
            let location = converter.location(for: position)
            return Problem(
                .error, singleLine(message),
                at: SourceLocation(file: fileName, line: location.line, column: location.column),
                sourceLine: lines[location.line])
        }

        if let (message, position) = FixItGuard.unfixableEqualSign(in: tree) {
            return .failure(ProblemList([problem(message, at: position)]))
        }
        let syntaxErrors = ParseDiagnosticsGenerator.diagnostics(for: tree)
            .filter { $0.diagMessage.severity == .error }
            .map { problem($0.message, at: $0.position) }
        if !syntaxErrors.isEmpty {
            return .failure(ProblemList(syntaxErrors))
        }

        if let (message, node) = SyntaxShape.tooDeep(tree) {
            return .failure(ProblemList([problem(message, at: node.positionAfterSkippingLeadingTrivia)]))
        }

        var foldingErrors: [Problem] = []
        let folded = OperatorTable.standardOperators.foldAll(tree) { error in
            foldingErrors.append(problem(error.message, at: error.asDiagnostic.position))
        }
        guard foldingErrors.isEmpty, let file = folded.as(SourceFileSyntax.self) else {
            return .failure(ProblemList(foldingErrors))
        }

        var lowering = Lowering(converter: converter) { message, node in
            problem(message, at: node.positionAfterSkippingLeadingTrivia)
        }
        lowering.nonsendingByDefault = mode?.runsNonisolatedAsyncOnCaller ?? false
        lowering.swift5Mode = mode.map { $0.swiftVersion < 6 } ?? false
        lowering.globalsOnMainActor = (mode ?? LanguageMode(swiftVersion: SwiftConcurrencyUse.found(in: tree) ? 6 : 5)).swiftVersion >= 6
        var program = lowering.lower(file)
        program.mode = mode
        if !lowering.problems.isEmpty {
            return .failure(ProblemList(lowering.problems))
        }
        return .success(program)
    }

    /// A message that quotes code spanning lines (swift-syntax's "unexpected code '…'", our
    /// "'…' is outside the supported subset") on one line: a diagnostic is one line, and the
    /// code it is about follows it.
    static func singleLine(_ message: String) -> String {
        guard message.contains(where: \.isNewline) else { return message }
        return message.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed() }
            .filter { !$0.isEmpty }
            .map { String($0) }
            .joined(separator: " ")
    }
}

/// A snippet's lines as Swift counts them: `\n`, `\r\n` and a lone `\r` each end a line.
struct SourceLines {
    private let lines: [Substring]
    private let starts: [Int]

    init(_ text: String) {
        var lines: [Substring] = []
        var starts: [Int] = []
        var start = text.startIndex
        var index = text.startIndex
        var offset = 0
        var lineOffset = 0
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            offset += character.utf8.count
            if character == "\n" || character == "\r" || character == "\r\n" {
                lines.append(text[start..<index])
                starts.append(lineOffset)
                start = next
                lineOffset = offset
            }
            index = next
        }
        lines.append(text[start...])
        starts.append(lineOffset)
        self.lines = lines
        self.starts = starts
    }

    /// The text of line `number` (1-based), without its line break; nil past the end.
    subscript(number: Int) -> String? {
        lines.indices.contains(number - 1) ? String(lines[number - 1]) : nil
    }

    /// The 1-based line and column (in UTF-8 bytes, as swift-syntax counts) of a byte offset.
    func position(ofUTF8Offset offset: Int) -> (line: Int, column: Int) {
        let line = (starts.lastIndex { $0 <= offset } ?? 0)
        return (line + 1, offset - starts[line] + 1)
    }
}
