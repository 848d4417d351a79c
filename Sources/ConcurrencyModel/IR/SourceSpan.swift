/// Where an IR node came from in the snippet (1-based line and column of its first character).
/// Kept relative to the snippet so the same IR serves a `.swift` file and code embedded in YAML.
public struct SourceSpan: Hashable, Sendable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
