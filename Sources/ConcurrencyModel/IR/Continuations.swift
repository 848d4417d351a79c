/// Continuations in the IR: `withCheckedContinuation { cont in … }` and its throwing twin, and
/// `cont.resume(…)` from anywhere (a queue's block, another task).

public struct ContinuationID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "k\(index)" }
}

/// One `withCheckedContinuation` in the source (made afresh each time it runs).
public struct ContinuationDecl: Hashable, Sendable, Codable {
    /// The body's parameter (`cont`), as witnesses name it.
    public var name: String
    public var span: SourceSpan

    public init(name: String, span: SourceSpan) {
        self.name = name
        self.span = span
    }
}

public enum ContinuationAction: Hashable, Sendable, Codable {
    /// The body runs in place, at once, in the calling task (before it suspends); the
    /// statement after it is the `Suspension.continuation` that waits for the resume.
    case start(body: BlockID)
    /// `cont.resume(returning: v)`, `cont.resume()`: the waiting task continues on the executor
    /// it suspended on, with the value; a second resume is a crash ("SWIFT TASK CONTINUATION
    /// MISUSE: … tried to resume its continuation more than once").
    case resume(Expression?)
    /// `continuation?.resume()` of a continuation kept in a variable or property
    /// (`self.continuation = c` in the body): the value names the continuation
    /// (`Value.continuation`), and nil resumes nothing, as optional chaining skips the call. The
    /// statement's ContinuationID is the one the lowering last saw kept, for words only.
    case resumeHeld(Expression)
}
