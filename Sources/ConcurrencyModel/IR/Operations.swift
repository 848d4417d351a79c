/// Foundation's `OperationQueue` and `Operation` in the IR. An operation queue is a scheduler in
/// front of a dispatch queue (its *backing* queue: a private concurrent queue, or the main queue
/// for `OperationQueue.main`); it hands an operation to that queue once the operation is ready
/// (every dependency finished, or cancelled) and a slot is free under
/// `maxConcurrentOperationCount`, highest `queuePriority` first, then in the order added.

public struct OperationQueueID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "oq\(index)" }
}

public struct OperationQueueDecl: Hashable, Sendable, Codable {
    /// The Swift name (`queue`, `OperationQueue.main`), as shown in witnesses.
    public var name: String
    /// Where operations go once they may start: a hidden concurrent queue, or the main queue.
    public var backing: QueueID
    /// The global queue Foundation sends completion blocks to (and, on Apple, a BlockOperation's
    /// further execution blocks).
    public var globalQueue: QueueID
    public var isMain: Bool
    public var span: SourceSpan?

    public init(name: String, backing: QueueID, globalQueue: QueueID, isMain: Bool, span: SourceSpan?) {
        self.name = name
        self.backing = backing
        self.globalQueue = globalQueue
        self.isMain = isMain
        self.span = span
    }
}

/// An operation the snippet names (`let load = BlockOperation { … }`), or the anonymous one an
/// `addOperation { … }` creates (one instance each time the statement runs).
public struct OperationID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let index: Int
    public init(index: Int) { self.index = index }
    public var description: String { "op\(index)" }
}

public struct OperationDecl: Hashable, Sendable, Codable {
    public var name: String
    /// The execution blocks it is created with (none for `Operation()` and `BlockOperation()`).
    public var blocks: [BlockID]
    /// The hidden top-level variable `op.isCancelled` reads; nil for anonymous operations.
    public var cancelled: VariableID?
    /// The hidden variables `op.isFinished` and `op.isExecuting` read, when the snippet reads them.
    public var finished: VariableID?
    public var executing: VariableID?
    public var span: SourceSpan

    public init(name: String, blocks: [BlockID], cancelled: VariableID?, span: SourceSpan) {
        self.name = name
        self.blocks = blocks
        self.cancelled = cancelled
        self.span = span
    }

}

public enum OperationAction: Hashable, Sendable, Codable {
    /// The declaration runs: the operation exists, with its initial blocks, not cancelled.
    case create
    /// `op.addExecutionBlock { … }`.
    case addBlock(BlockID)
    /// `op.addDependency(other)`: `op` waits until `other` has finished.
    case addDependency(OperationID)
    /// `op.completionBlock = { … }`: runs on a global queue once `op` has finished.
    case setCompletion(BlockID)
    /// `op.queuePriority = .high`.
    case setPriority(QueuePriority)
    /// `op.cancel()`: a cancelled operation is ready at once, and finishes without running.
    case cancel
    /// `op.waitUntilFinished()`.
    case waitUntilFinished
    /// `op.start()`: the operation runs on the calling thread, which returns once it has finished;
    /// `globalQueue` takes its completion block (and, on Apple's platforms, its further blocks).
    case start(globalQueue: QueueID)
}

public enum OperationQueueAction: Hashable, Sendable, Codable {
    /// `queue.addOperation(op)` and `queue.addOperations([…], waitUntilFinished:)`.
    case add([OperationID])
    /// The wait of `addOperations([…], waitUntilFinished: true)`: until all of them have finished.
    case waitFor([OperationID])
    /// `queue.addOperation { … }`: a fresh anonymous operation with that block, added.
    case addBlock(OperationID)
    /// `queue.maxConcurrentOperationCount = n` (nil: no limit).
    case setMaxConcurrent(Int?)
    /// `queue.isSuspended = …`: a suspended queue starts nothing new.
    case setSuspended(Bool)
    case cancelAll
    case waitUntilAllFinished
}

/// Foundation's `Operation.QueuePriority`, with its raw values: among ready operations of an
/// OperationQueue, a higher one starts first.
public enum QueuePriority: Int, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case veryLow = -8, low = -4, normal = 0, high = 4, veryHigh = 8

    /// The name a snippet writes after the dot: `.veryHigh`.
    public var name: String {
        switch self {
        case .veryLow: "veryLow"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .veryHigh: "veryHigh"
        }
    }

    public init?(name: String) {
        guard let priority = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = priority
    }

    public static func < (a: QueuePriority, b: QueuePriority) -> Bool { a.rawValue < b.rawValue }
}
