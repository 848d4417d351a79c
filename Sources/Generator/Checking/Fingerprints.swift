import ConcurrencyModel

/// What makes two puzzles the same puzzle: the same code once labels are renamed to a canonical
/// sequence (and layout normalised by printing), or the same outcome set up to renaming. A
/// generated puzzle that matches a bank puzzle or an earlier generated one is a copy.
public struct Fingerprints: Sendable {
    private var sources: Set<String> = []
    private var shapes: Set<OutcomeShape> = []

    public init() {}

    /// Whether a puzzle with this canonical source or this outcome shape is already known.
    public func contains(canonicalSource: String, shape: OutcomeShape) -> Bool {
        sources.contains(canonicalSource) || shapes.contains(shape)
    }

    /// The cheap half, known before exploring: the same code up to labels.
    public func contains(canonicalSource: String) -> Bool {
        sources.contains(canonicalSource)
    }

    public mutating func insert(canonicalSource: String, shape: OutcomeShape) {
        sources.insert(canonicalSource)
        shapes.insert(shape)
    }

    public mutating func insert(_ puzzle: GeneratedPuzzle) {
        insert(canonicalSource: puzzle.tree.canonicalSource, shape: OutcomeShape(puzzle.exploration.outcomes))
    }

    public mutating func formUnion(_ other: Fingerprints) {
        sources.formUnion(other.sources)
        shapes.formUnion(other.shapes)
    }

    /// A puzzle's canonical source: its code read into a tree and printed with labels renamed,
    /// or (for code the reader cannot parse) its lines with whitespace collapsed.
    static func canonicalSource(of code: String) -> String {
        if let tree = SnippetTreeReader.read(code) { return tree.canonicalSource }
        return code.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
    }
}
