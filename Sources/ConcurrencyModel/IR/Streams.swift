/// `AsyncStream` in the IR: a buffer of elements that a continuation fills (`yield`, `finish`)
/// and one task takes with `for await` (see the README's Swift-concurrency rules).

public struct StreamID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "st\(index)" }
}

/// One `AsyncStream` the snippet makes: the stream's name and its continuation's, as witnesses
/// name them.
public struct StreamDecl: Hashable, Sendable, Codable {
    public var name: String
    public var continuationName: String
    public var span: SourceSpan

    public init(name: String, continuationName: String, span: SourceSpan) {
        self.name = name
        self.continuationName = continuationName
        self.span = span
    }
}

/// What code does to a stream through its continuation.
public enum StreamAction: Hashable, Sendable, Codable {
    /// `AsyncStream<T> { continuation in body }`: the build closure runs at once, in place.
    case start(body: BlockID)
    /// `continuation.yield(v)`: the element joins the buffer (dropped once finished), and the
    /// task waiting in `for await` resumes.
    case yield(Expression)
    /// `continuation.finish()`: no element comes after those buffered; the waiting task resumes.
    case finish
}

/// `for await v in stream { body }`: the next buffered element (the statement runs again after
/// the body), the end once the stream is finished and empty, or a wait for a `yield`/`finish`.
/// The stream's `next()` is a nonisolated async function: code on an actor leaves it for the
/// global executor to take each element and comes back (`isolation`; the body starts with the
/// hop back), so other jobs of the actor get in between.
public struct StreamNext: Hashable, Sendable, Codable {
    public var stream: StreamID
    public var result: VariableID?
    public var body: BlockID
    /// Where the loop's code runs, which each element comes back to.
    public var isolation: Isolation

    public init(stream: StreamID, result: VariableID?, body: BlockID, isolation: Isolation) {
        self.stream = stream
        self.result = result
        self.body = body
        self.isolation = isolation
    }
}
