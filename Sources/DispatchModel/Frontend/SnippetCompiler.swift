import SwiftDiagnostics
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Turns a snippet written against the prelude into a `Program`, or says precisely why it cannot:
/// a syntax error, or Swift outside the supported subset, each at its line and column.
public enum SnippetCompiler {
    /// - Parameter fileName: the name problems are reported against (a path, or `<snippet>`).
    public static func compile(_ source: String, fileName: String = "<snippet>") -> Result<Program, ProblemList> {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: fileName, tree: tree)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        func problem(_ message: String, at position: AbsolutePosition) -> Problem {
            let location = converter.location(for: position)
            let line = location.line
            return Problem(
                .error, message,
                at: SourceLocation(file: fileName, line: line, column: location.column),
                sourceLine: line >= 1 && line <= lines.count ? lines[line - 1] : nil)
        }

        let syntaxErrors = ParseDiagnosticsGenerator.diagnostics(for: tree)
            .filter { $0.diagMessage.severity == .error }
            .map { problem($0.message, at: $0.position) }
        if !syntaxErrors.isEmpty {
            return .failure(ProblemList(syntaxErrors))
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
        let program = lowering.lower(file)
        if !lowering.problems.isEmpty {
            return .failure(ProblemList(lowering.problems))
        }
        return .success(program)
    }
}

/// One or more problems, sorted by position, thrown or returned together so that a user sees all
/// of them at once rather than one per attempt.
public struct ProblemList: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [Problem]

    public init(_ problems: [Problem]) {
        self.problems = problems.sorted(by: Problem.byLocation)
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
