import ConcurrencyModel
import Foundation

/// Shows problems as compilers do: `file:line:col: error: message`, the source line, a caret.
enum ProblemRenderer {
    static func render(_ problems: [Problem], style: TerminalStyle) -> Data {
        Data(problems.map { text(for: $0, style: style) }.joined().utf8)
    }

    static func text(for problem: Problem, style: TerminalStyle) -> String {
        let severity: String
        switch problem.severity {
        case .error: severity = style.red(style.bold("error:"))
        case .warning: severity = style.magenta(style.bold("warning:"))
        case .note: severity = style.dim("note:")
        }
        let place = problem.location.map { style.bold("\($0):") + " " } ?? "gcdquiz: "
        var text = "\(place)\(severity) \(problem.message)\n"
        if let line = problem.sourceLine, let column = problem.location?.column {
            text += line + "\n"
            // Keep tabs so the caret lines up under the same character.
            let padding = line.prefix(max(column - 1, 0)).map { $0 == "\t" ? "\t" : " " }.joined()
            text += padding + style.green("^") + "\n"
        }
        return text
    }
}
