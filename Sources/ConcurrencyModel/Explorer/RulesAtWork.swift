extension Program {
    /// Whether the program sleeps, sets timers or waits with a timeout: its live runs take real
    /// time, so callers run fewer of them.
    public var usesTime: Bool {
        containsStatement { $0.action.takesTime }
    }

    /// The model's rules that this program exercises, most basic first: hints that point at
    /// what matters without giving the answer away.
    public var rulesAtWork: [Rule] {
        var rules: [Rule] = []
        func add(_ rule: Rule) { if !rules.contains(rule) { rules.append(rule) } }
        var hasAsync = false
        var usesPool = false
        var blocks = false
        walk { statement, _ in
            switch statement.action {
            case .dispatch(let queue, .async, _, _) where workerPool(of: queue) != nil: usesPool = true
            case .concurrentPerform:
                usesPool = true
                add(.concurrentPerformWaitsForIterations)
            case .print, .dispatch, .assign, .loop, .whileLoop, .branch, .group, .semaphore, .dispatchAfter, .sleep, .timedWait,
                .activate, .queueSetting, .precondition, .workItem, .call, .operation, .operationQueue, .returns, .exitLoop, .hop, .timer, .throwing, .handles:
                break
            case .spawn, .suspend, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream:
                hasAsync = true
            }
            switch statement.action {
            case .semaphore(_, .wait), .group(_, .wait), .sleep, .timedWait, .workItem(_, .wait), .dispatch(_, .sync, _, _):
                blocks = true
            case .print, .dispatch(_, .async, _, _), .assign, .loop, .whileLoop, .branch, .group(_, .enter), .group(_, .leave),
                .group(_, .notify), .semaphore(_, .signal), .dispatchAfter, .activate, .queueSetting, .precondition,
                .workItem(_, .perform), .workItem(_, .cancel), .workItem(_, .notify), .workItem(_, .submit),
                .workItem(_, .submitAfter), .concurrentPerform, .call, .operation, .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation,
                .stream, .timer, .throwing, .handles:
                break
            }
            switch statement.action {
            case .group(_, .wait): add(.groupWaitsForItsBlocks)
            case .group(_, .notify): add(.groupNotifiesWhenEmpty)
            case .semaphore(_, .wait): add(.semaphoreBlocksAtZero)
            case .sleep, .dispatchAfter, .timedWait, .suspend(.sleep), .workItem(_, .submitAfter), .timer(_, .schedule): add(.timeIsLogical)
            case .precondition: add(.preconditionCrashes)
            case .operation(_, .addDependency), .operation(_, .waitUntilFinished), .operationQueue(_, .waitUntilAllFinished), .operationQueue(_, .waitFor),
                .operation(_, .start):
                add(.operationWaitsForDependencies)
            case .operationQueue(_, .setMaxConcurrent), .operationQueue(_, .setSuspended), .operation(_, .setPriority):
                add(.operationQueueLimit)
            case .operation(_, .cancel), .operationQueue(_, .cancelAll): add(.cancelledOperationSkipsItsBlocks)
            case .operation(_, .setCompletion): add(.completionBlockRunsAfter)
            case .operationQueue(let queue, .add), .operationQueue(let queue, .addBlock):
                hasAsync = true
                if self[queue].isMain { add(.mainQueueNeedsIdleMainThread) }
            case .assign(let assignment) where variables[assignment.target.index].isGlobal && assignment.readsTarget:
                add(.unsynchronizedAccess)
            case .workItem(_, .wait): add(.workItemWaitReturnsAfterItRuns)
            case .print, .dispatch, .assign, .loop, .whileLoop, .branch, .call, .activate, .queueSetting, .concurrentPerform,
                .group(_, .enter), .group(_, .leave), .semaphore(_, .signal),
                .workItem(_, .perform), .workItem(_, .cancel), .workItem(_, .notify), .workItem(_, .submit),
                .operation(_, .create), .operation(_, .addBlock), .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation,
                .stream, .timer, .throwing, .handles:
                // Said by the dispatch rules below, or by no rule of its own.
                break
            }
            guard case .dispatch(let queue, let mode, let body, let options) = statement.action else { return }
            if options.barrier && self[queue].kind == .concurrent { add(.barrierRunsAlone) }
            let kind = self[queue].kind
            if (kind.isSerial || (kind == .concurrent && options.barrier)) && containsSync(onto: queue, in: body) { add(.trapEndsTheProcess) }
            switch mode {
            case .sync:
                add(.syncWaitsForItsBlock)
                if kind == .main { add(.trapEndsTheProcess) }
            case .async:
                hasAsync = true
                add(.notSubmittedYet)
            }
            if kind == .main { add(.mainQueueNeedsIdleMainThread) }
            if kind.isSerial { add(.serialOneAtATime) }
            if drainTarget(of: queue) != nil { add(.serialTargetDrainsOneAtATime) }
            add(.fifo)
        }
        if usesPool && blocks && usesTime { add(.workerPoolIsLimited) }
        if hasAsync { add(.programOrder) }
        if rules.isEmpty { add(.programOrder) }
        return rules
    }

    /// Whether running `block` can reach a `sync` onto `queue` (directly or in nested syncs).
    private func containsSync(onto queue: QueueID, in block: BlockID) -> Bool {
        for statement in self[block].statements {
            if case .dispatch(let target, .sync, let body, _) = statement.action {
                if target == queue || containsSync(onto: queue, in: body) { return true }
            }
        }
        return false
    }
}

extension Action {
    /// The statement sleeps, sets a timer or waits with a timeout: it makes a live run take time.
    var takesTime: Bool {
        switch self {
        case .sleep, .dispatchAfter, .timedWait, .suspend(.sleep), .timer(_, .schedule): true
        case .timer(_, .setEventHandler), .timer(_, .setCancelHandler), .timer(_, .activate), .timer(_, .cancel): false
        case .suspend(.yield), .suspend(.value), .suspend(.groupNext), .suspend(.groupWaitAll), .suspend(.continuation), .suspend(.streamNext),
            .spawn, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream, .throwing, .handles: false
        case .print, .dispatch, .assign, .loop, .whileLoop, .branch, .group, .semaphore, .activate, .queueSetting, .precondition, .workItem,
            .concurrentPerform, .call, .operation, .operationQueue, .returns, .exitLoop:
            false
        }
    }
}
