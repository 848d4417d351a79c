/// A problem found in a snippet or a question file, as a value: the executable decides how to show
/// it and which exit code it means. Positions are 1-based, as compilers print them.
public struct Problem: Hashable, Sendable, Error, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case error, warning, note
    }

    public var severity: Severity
    public var message: String
    /// Nil for a problem with no place in a file (an unknown question id, say).
    public var location: SourceLocation?
    /// The text of the line the problem is on, so the renderer can put a caret under it.
    public var sourceLine: String?

    public init(_ severity: Severity = .error, _ message: String, at location: SourceLocation?, sourceLine: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
    }

    /// `file:line:col: error: message`, the first line of the rendering.
    public var description: String {
        (location.map { "\($0): " } ?? "") + "\(severity.rawValue): \(message)"
    }
}

extension Problem {
    /// Orders problems by file and position; those without a place come first.
    public static func byLocation(_ a: Problem, _ b: Problem) -> Bool {
        switch (a.location, b.location) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x < y
        }
    }
}

/// A place in a file. `file` is the name shown to the user (a path, or `<snippet>`).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}
