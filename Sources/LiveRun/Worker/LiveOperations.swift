import DispatchModel
import Foundation

/// One run's Foundation objects: each IR operation queue becomes a real `OperationQueue` (the
/// main one is `OperationQueue.main`), each operation a real `BlockOperation`. Scheduling,
/// dependencies, priorities and cancellation are Foundation's own; this only keeps the books.
final class LiveOperations: @unchecked Sendable {
    let queues: [OperationQueue]
    private var named: [BlockOperation?]
    /// The queue each named operation was added to, for `cancelAllOperations`.
    private var addedTo: [Int?]
    private let lock = NSLock()

    init(program: Program) {
        queues = program.operationQueues.map { $0.isMain ? OperationQueue.main : OperationQueue() }
        named = Array(repeating: nil, count: program.operations.count)
        addedTo = Array(repeating: nil, count: program.operations.count)
    }

    func operation(_ id: OperationID) -> BlockOperation? {
        lock.withLock { named[id.index] }
    }

    func store(_ operation: BlockOperation, as id: OperationID) {
        lock.withLock { named[id.index] = operation }
    }

    func markAdded(_ id: OperationID, to queue: OperationQueueID) {
        lock.withLock { addedTo[id.index] = queue.index }
    }

    func namedOperations(in queue: OperationQueueID) -> [OperationID] {
        lock.withLock { addedTo.indices.filter { addedTo[$0] == queue.index }.map { OperationID(index: $0) } }
    }
}

extension LiveInterpreter {
    /// A new BlockOperation with the declaration's blocks. Its completion block is always set,
    /// so that the run knows when the operation has finished (cancelled or not).
    private func makeOperation(_ id: OperationID, _ locals: [VariableID: Value]) -> BlockOperation {
        let operation = BlockOperation()
        for body in program[id].blocks {
            operation.addExecutionBlock(executionBlock(body, locals))
        }
        operation.completionBlock = completion(nil, locals)
        return operation
    }

    private func executionBlock(_ body: BlockID, _ captured: [VariableID: Value]) -> @Sendable () -> Void {
        { [self] in
            monitor.itemStarted()
            jitter?.pause(at: UInt64(body.index) << 32 | 0xFFFF_FFFF)
            var inner = captured
            execute(body, &inner)
            monitor.itemEnded()
        }
    }

    /// What Foundation calls once the operation has finished: the snippet's completion block
    /// (if any), then the end of the operation's outstanding work.
    private func completion(_ body: BlockID?, _ captured: [VariableID: Value]) -> @Sendable () -> Void {
        { [self] in
            monitor.itemStarted()
            if let body {
                var inner = captured
                execute(body, &inner)
            }
            if monitor.workCompleted() {
                Self.wakeMainThread()
            }
        }
    }

    /// `op.isCancelled` in the snippet reads this flag, as in the model; a finished operation
    /// ignores `cancel()`.
    private func markCancelled(_ id: OperationID) {
        if let flag = program[id].cancelled, operations.operation(id)?.isFinished == false {
            store.write(flag, .bool(true))
        }
    }

    func perform(_ action: OperationAction, on id: OperationID, _ locals: [VariableID: Value]) {
        if case .create = action {
            if let flag = program[id].cancelled { store.write(flag, .bool(false)) }
            operations.store(makeOperation(id, locals), as: id)
            return
        }
        guard let operation = operations.operation(id) else { return }
        switch action {
        case .create:
            break
        case .addBlock(let body):
            operation.addExecutionBlock(executionBlock(body, locals))
        case .addDependency(let other):
            if let other = operations.operation(other) { operation.addDependency(other) }
        case .setCompletion(let body):
            operation.completionBlock = completion(body, locals)
        case .setPriority(let raw):
            operation.queuePriority = Operation.QueuePriority(rawValue: raw) ?? .normal
        case .cancel:
            markCancelled(id)
            operation.cancel()
        case .waitUntilFinished:
            monitor.blocking(true)
            operation.waitUntilFinished()
            monitor.blocking(false)
        }
    }

    func perform(_ action: OperationQueueAction, on id: OperationQueueID, _ locals: [VariableID: Value]) {
        let queue = operations.queues[id.index]
        switch action {
        case .add(let ids):
            let added = ids.compactMap { operations.operation($0) }
            for operationID in ids { operations.markAdded(operationID, to: id) }
            for _ in added { monitor.submitted() }
            queue.addOperations(added, waitUntilFinished: false)
        case .addBlock(let declaration):
            monitor.submitted()
            queue.addOperation(makeOperation(declaration, locals))
        case .setMaxConcurrent(let limit):
            queue.maxConcurrentOperationCount = limit ?? OperationQueue.defaultMaxConcurrentOperationCount
        case .setSuspended(let suspended):
            queue.isSuspended = suspended
        case .cancelAll:
            operations.namedOperations(in: id).forEach(markCancelled)
            queue.cancelAllOperations()
        case .waitFor(let ids):
            monitor.blocking(true)
            for operationID in ids { operations.operation(operationID)?.waitUntilFinished() }
            monitor.blocking(false)
        case .waitUntilAllFinished:
            monitor.blocking(true)
            queue.waitUntilAllOperationsAreFinished()
            monitor.blocking(false)
        }
    }
}
