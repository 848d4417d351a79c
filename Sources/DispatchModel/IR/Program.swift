/// The intermediate representation every walker shares: the explorer (all schedules), the live
/// runner (real libdispatch) and the sheet renderer. It is what a snippet *means*, with Swift's
/// syntax already resolved: queues are numbered, closures are numbered blocks.
public struct Program: Hashable, Sendable, Codable {
    /// Every queue the snippet can touch; `QueueID.index` indexes this array.
    public var queues: [QueueDecl]
    /// Every closure body; `BlockID.index` indexes this array. The top-level code is `entry`.
    public var blocks: [Block]
    public var entry: BlockID

    public init(queues: [QueueDecl], blocks: [Block], entry: BlockID) {
        self.queues = queues
        self.blocks = blocks
        self.entry = entry
    }

    public subscript(queue: QueueID) -> QueueDecl { queues[queue.index] }
    public subscript(block: BlockID) -> Block { blocks[block.index] }

    /// The main queue always exists: the main thread serves it once the top-level code ends.
    public var mainQueue: QueueID {
        QueueID(index: queues.firstIndex { $0.kind == .main }!)
    }
}

public struct QueueID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public static func < (a: QueueID, b: QueueID) -> Bool { a.index < b.index }
    public var description: String { "q\(index)" }
}

public struct BlockID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "b\(index)" }
}

/// How a queue schedules its items; the one place both walkers learn what a queue is.
public enum QueueKind: String, Hashable, Sendable, Codable {
    /// Serial, served only by the main thread once it is idle.
    case main
    /// One item at a time, FIFO.
    case serial
    /// Items start in FIFO order and run side by side.
    case concurrent
    /// A global (root) queue: concurrent, and a barrier on it is a plain item.
    case global

    /// At most one item at a time holds the queue.
    public var isSerial: Bool { self == .main || self == .serial }
}

public struct QueueDecl: Hashable, Sendable, Codable {
    /// The Swift expression or variable name the snippet uses, as shown in witnesses.
    public var name: String
    /// The label passed to `DispatchQueue(label:)`; for main and global queues, libdispatch's own.
    public var label: String
    public var kind: QueueKind
    /// The QoS class name (`userInitiated`, …) when the snippet gave one.
    public var qos: String?
    /// Where the snippet declared it; nil for the prelude's queues and the built-in ones.
    public var span: SourceSpan?

    public init(name: String, label: String, kind: QueueKind, qos: String? = nil, span: SourceSpan? = nil) {
        self.name = name
        self.label = label
        self.kind = kind
        self.qos = qos
        self.span = span
    }
}

public struct Block: Hashable, Sendable, Codable {
    public var statements: [Statement]
    /// Where the closure starts (its `{`), or nil for the top-level code.
    public var span: SourceSpan?

    public init(statements: [Statement], span: SourceSpan? = nil) {
        self.statements = statements
        self.span = span
    }
}

public struct Statement: Hashable, Sendable, Codable {
    public var action: Action
    public var span: SourceSpan

    public init(_ action: Action, at span: SourceSpan) {
        self.action = action
        self.span = span
    }
}

public enum Action: Hashable, Sendable, Codable {
    /// `print(…)`: one line of output, its text already known.
    case print(String)
    /// `queue.sync { body }` or `queue.async { body }`.
    case dispatch(queue: QueueID, mode: DispatchMode, body: BlockID)
}

public enum DispatchMode: String, Hashable, Sendable, Codable {
    case sync, async
}
