/// Where a statement sits: its block and its position in that block.
public struct StatementLocation: Hashable, Sendable {
    public var block: BlockID
    public var index: Int

    public init(block: BlockID, index: Int) {
        self.block = block
        self.index = index
    }
}

extension Program {
    /// Calls `visit` for every statement of the program, nested bodies included (every closure,
    /// loop body, branch, function, work item and operation body is a block of its own), block by
    /// block and in order within each: the one loop the analyses that look "anywhere in the
    /// snippet" share, so none of them forgets a kind of body.
    public func walk(_ visit: (Statement, StatementLocation) throws -> Void) rethrows {
        for (blockIndex, block) in blocks.enumerated() {
            for (index, statement) in block.statements.enumerated() {
                try visit(statement, StatementLocation(block: BlockID(index: blockIndex), index: index))
            }
        }
    }

    /// Whether some statement anywhere in the program satisfies `predicate`.
    public func containsStatement(where predicate: (Statement) throws -> Bool) rethrows -> Bool {
        try blocks.contains { block in try block.statements.contains(where: predicate) }
    }

    /// The statement at `location`.
    public subscript(location: StatementLocation) -> Statement {
        blocks[location.block.index].statements[location.index]
    }

    /// The blocks a statement owns, in source order: those it runs in place (a loop's or
    /// branch's body, a sync body, a called function) and those it submits to run later (an
    /// async body, a notify block, an operation's blocks). They are the statement's children in
    /// the program's tree; the exhaustive switch makes a new construct say what it owns.
    public func bodies(of action: Action) -> [BlockID] {
        switch action {
        case .dispatch(_, _, let body, _), .dispatchAfter(_, _, let body), .group(_, .notify(_, let body)),
             .workItem(_, .notify(_, let body)), .operation(_, .addBlock(let body)), .operation(_, .setCompletion(let body)),
             .timer(_, .setEventHandler(let body)), .timer(_, .setCancelHandler(let body)):
            [body]
        case .loop(let loop): [loop.body]
        // `repeat`'s entry runs the body its test owns.
        case .whileLoop(let loop): loop.entersUntested ? [] : [loop.body]
        case .branch(_, let then, let otherwise): [then] + (otherwise.map { [$0] } ?? [])
        case .call(let call): [call.body]
        case .concurrentPerform(let perform): [perform.body]
        case .spawn(let spawn): [spawn.body]
        case .withTaskGroup(let run): [run.body]
        case .cancellation(.addHandler(let body)): [body]
        case .continuation(_, .start(let body)), .stream(_, .start(let body)): [body]
        case .suspend(.groupNext(let next)): next.body.map { [$0] } ?? []
        case .suspend(.streamNext(let next)): [next.body]
        case .handles(let handler): [handler.body] + handler.clauses.map(\.body)
        case .workItem(let item, .submit), .workItem(let item, .submitAfter), .workItem(let item, .perform): [workItems[item.index].body]
        case .operation(let operation, .create), .operationQueue(_, .addBlock(let operation)): self[operation].blocks
        case .print, .assign, .group(_, .enter), .group(_, .leave), .group(_, .wait), .semaphore, .sleep, .timedWait,
             .activate, .queueSetting, .precondition, .workItem(_, .cancel), .workItem(_, .wait),
             .operation(_, .addDependency), .operation(_, .setPriority), .operation(_, .cancel), .operation(_, .waitUntilFinished),
             .operation(_, .start),
             .operationQueue(_, .add), .operationQueue(_, .waitFor), .operationQueue(_, .setMaxConcurrent),
             .operationQueue(_, .setSuspended), .operationQueue(_, .cancelAll), .operationQueue(_, .waitUntilAllFinished),
             .returns, .exitLoop, .suspend, .hop, .cancellation(.cancelTask), .cancellation(.cancelGroup), .cancellation(.read), .cancellation(.check),
             .cancellation(.removeHandler), .taskLocal, .continuation(_, .resume), .continuation(_, .resumeHeld), .stream(_, .yield), .stream(_, .finish), .stream(_, .fail),
             .timer(_, .schedule), .timer(_, .activate), .timer(_, .cancel), .throwing:
            []
        }
    }
}

extension Program {
    /// Whether running the statement may `return` from the body it stands in: it is a `return`,
    /// or a loop or branch with one inside (a closure it submits or a function it calls returns
    /// from its own body).
    public func mayReturn(_ statement: Statement) -> Bool {
        switch statement.action {
        case .returns: true
        case .loop(let loop): blocks[loop.body.index].statements.contains(where: mayReturn)
        case .whileLoop(let loop): blocks[loop.body.index].statements.contains(where: mayReturn)
        case .branch(_, let then, let otherwise):
            ([then] + (otherwise.map { [$0] } ?? [])).contains { blocks[$0.index].statements.contains(where: mayReturn) }
        case .suspend(.groupNext(let next)): next.body.map { blocks[$0.index].statements.contains(where: mayReturn) } ?? false
        case .suspend(.streamNext(let next)): blocks[next.body.index].statements.contains(where: mayReturn)
        case .stream, .timer: false
        case .handles(let handler):
            ([handler.body] + handler.clauses.map(\.body)).contains { blocks[$0.index].statements.contains(where: mayReturn) }
        case .throwing: false
        case .print, .dispatch, .assign, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .queueSetting, .precondition,
            .workItem, .concurrentPerform, .call, .operation, .operationQueue, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation,
            .exitLoop:
            false
        }
    }
}

extension Action {
    /// The expressions the statement evaluates itself (not those of its bodies).
    public var expressions: [Expression] {
        switch self {
        case .print(let items): items
        case .assign(let assignment): [assignment.value]
        case .branch(let condition, _, _): [condition]
        case .loop(let loop): [loop.from, loop.to]
        case .whileLoop(let loop): loop.entersUntested ? [] : [loop.condition]
        case .call(let call): call.arguments.map(\.value)
        case .returns(let value): value.map { [$0] } ?? []
        case .exitLoop: []
        case .suspend(.sleep(let delay)): [delay.microseconds]
        case .queueSetting(_, .specific(_, let value)): [value]
        case .stream(_, .yield(let value)): [value]
        case .stream, .timer: []
        case .throwing(.value(let error)): [error]
        case .throwing(.pending), .throwing(.sleepCancelled), .handles: []
        case .continuation(_, .resumeHeld(let held)): [held]
        case .taskLocal(.bind(_, let value)): [value]
        case .taskLocal(.unbind), .taskLocal(.read): []
        case .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .continuation: []
        case .dispatch, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .queueSetting(_, .target), .precondition, .workItem,
             .concurrentPerform, .operation, .operationQueue:
            []
        }
    }
}
