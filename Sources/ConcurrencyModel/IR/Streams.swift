/// `AsyncStream` and `AsyncThrowingStream` in the IR: a buffer of elements that a continuation
/// fills (`yield`, `finish`, `finish(throwing:)`) and one task takes with `for await` (`for try
/// await`) (see the README's Swift-concurrency rules).

public struct StreamID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "st\(index)" }
}

/// How many elements not yet taken a stream keeps (`bufferingPolicy:`; swiftlang/swift
/// `AsyncStreamBuffer.swift`, `_Storage.yield`): a yield to a full buffer drops the new element
/// (`bufferingOldest`) or the oldest one buffered (`bufferingNewest`; with a limit of 0, the new
/// one). An element handed to a task already waiting in `for await` is not buffered at all.
public enum StreamBufferingPolicy: Hashable, Sendable, Codable, CustomStringConvertible {
    case unbounded
    case bufferingOldest(Int)
    case bufferingNewest(Int)

    /// As the snippet writes it.
    public var description: String {
        switch self {
        case .unbounded: ".unbounded"
        case .bufferingOldest(let limit): ".bufferingOldest(\(limit))"
        case .bufferingNewest(let limit): ".bufferingNewest(\(limit))"
        }
    }
}

/// One `AsyncStream` the snippet makes: the stream's name and its continuation's, as witnesses
/// name them, whether it is an `AsyncThrowingStream` (its continuation may finish it with an
/// error, which the `for try await` loop throws once the elements before it are taken), and its
/// buffering policy.
public struct StreamDecl: Hashable, Sendable, Codable {
    public var name: String
    public var continuationName: String
    public var span: SourceSpan
    public var throwing: Bool
    public var policy: StreamBufferingPolicy

    public init(name: String, continuationName: String, span: SourceSpan, throwing: Bool = false, policy: StreamBufferingPolicy = .unbounded) {
        self.name = name
        self.continuationName = continuationName
        self.span = span
        self.throwing = throwing
        self.policy = policy
    }

    /// The type as the snippet names it.
    public var typeName: String { throwing ? "AsyncThrowingStream" : "AsyncStream" }
}

/// What code does to a stream through its continuation.
public enum StreamAction: Hashable, Sendable, Codable {
    /// `AsyncStream<T> { continuation in body }`: the build closure runs at once, in place.
    case start(body: BlockID)
    /// `continuation.yield(v)`: the element goes to the task waiting in `for await` (which
    /// resumes), or joins the buffer as its policy allows; dropped once finished.
    case yield(Expression)
    /// `continuation.finish()`: no element comes after those buffered; the waiting task resumes.
    case finish
    /// `continuation.finish(throwing: e)` (an `AsyncThrowingStream`): as `finish`, and the loop
    /// throws `e` once it has taken the elements buffered before.
    case fail(Expression)
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
