import ConcurrencyModel
import Foundation

/// One run's Foundation objects: each IR operation queue becomes a real `OperationQueue` (the
/// main one is `OperationQueue.main`), each operation a real `BlockOperation`. Scheduling,
/// dependencies, priorities and cancellation are Foundation's own; this only keeps the books.
final class LiveOperations: @unchecked Sendable {
    let queues: [OperationQueue]
    private var named: [BlockOperation?]
    /// The queue each named operation was added to, for `cancelAllOperations`.
    private var addedTo: [Int?]
    private let lock = RunnableLock()

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
        operation.completionBlock = completion(nil, locals, of: operation)
        return operation
    }

    private func executionBlock(_ body: BlockID, _ captured: [VariableID: Value]) -> @Sendable () -> Void {
        { [self] in
            monitor.threadStarted()
            jitter?.pause(at: .start(of: body))
            var inner = captured
            execute(body, &inner)
            monitor.threadStopped()
        }
    }

    /// What Foundation calls once the operation has finished: the snippet's completion block
    /// (if any), then the end of the operation's outstanding work.
    private func completion(_ body: BlockID?, _ captured: [VariableID: Value], of operation: Operation) -> @Sendable () -> Void {
        { [self, weak operation] in
            monitor.operationCompleting(operation)
            if let body {
                var inner = captured
                execute(body, &inner)
            }
            monitor.threadStopped()
            if monitor.workDone() {
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

    func perform(_ action: OperationAction, on id: OperationID, at statement: Statement, _ locals: [VariableID: Value]) {
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
            announce(.addExecutionBlock(operation: program[id].name), at: statement)
            operation.addExecutionBlock(executionBlock(body, locals))
            clearAnnouncement()
        case .addDependency(let other):
            if let other = operations.operation(other) { operation.addDependency(other) }
        case .setCompletion(let body):
            operation.completionBlock = completion(body, locals, of: operation)
        case .setPriority(let priority):
            operation.queuePriority = Operation.QueuePriority(rawValue: priority.rawValue) ?? .normal
        case .cancel:
            markCancelled(id)
            operation.cancel()
        case .waitUntilFinished:
            monitor.waiting(in: .operation(id), line: statement.span.line) {
                operation.waitUntilFinished()
            }
        case .start:
            // Its completion block (always set) ends the work counted here; a finished operation
            // runs nothing, and its completion not again.
            if !operation.isFinished { monitor.workSubmitted() }
            announce(.startOperation(operation: program[id].name), at: statement)
            operation.start()
            clearAnnouncement()
        }
    }

    func perform(_ action: OperationQueueAction, on id: OperationQueueID, at statement: Statement, _ locals: [VariableID: Value]) {
        let queue = operations.queues[id.index]
        let decl = program[id]
        let line = statement.span.line
        switch action {
        case .add(let ids):
            let added = ids.compactMap { id in operations.operation(id).map { (id, $0) } }
            for operationID in ids { operations.markAdded(operationID, to: id) }
            for (operationID, operation) in added {
                monitor.workSubmitted()
                monitor.operationAdded(operation, to: queue, isMainQueue: decl.isMain, id: operationID, line: line)
            }
            let names = ids.map { program[$0].name }.joined(separator: ", ")
            announce(.addOperation(operation: names, queue: decl.name), at: statement)
            queue.addOperations(added.map(\.1), waitUntilFinished: false)
            clearAnnouncement()
        case .addBlock(let declaration):
            let operation = makeOperation(declaration, locals)
            monitor.workSubmitted()
            monitor.operationAdded(operation, to: queue, isMainQueue: decl.isMain, id: declaration, line: line)
            queue.addOperation(operation)
        case .setMaxConcurrent(let limit):
            queue.maxConcurrentOperationCount = limit ?? OperationQueue.defaultMaxConcurrentOperationCount
        case .setSuspended(let suspended):
            queue.isSuspended = suspended
        case .cancelAll:
            operations.namedOperations(in: id).forEach(markCancelled)
            queue.cancelAllOperations()
        case .waitFor(let ids):
            monitor.waiting(in: .addedOperations(id), line: line) {
                for operationID in ids { operations.operation(operationID)?.waitUntilFinished() }
            }
        case .waitUntilAllFinished:
            monitor.waiting(in: .allOperations(id), line: line) {
                queue.waitUntilAllOperationsAreFinished()
            }
        }
    }
}
