extension Action {
    /// Whether the statement gives a queue, a work item, an operation or a timer work that runs
    /// outside every task: a block a count of tasks does not see (the live harness's ending), and
    /// one that may wait for a thread of libdispatch's pools (the machines a search needs).
    public var givesWorkOutsideTasks: Bool {
        switch self {
        case .dispatch, .dispatchAfter, .workItem, .concurrentPerform, .operation, .operationQueue, .timer, .activate,
             .queueSetting:
            true
        case .group(_, let action):
            switch action {
            case .notify: true
            case .enter, .leave, .wait: false
            }
        case .print, .assign, .loop, .whileLoop, .branch, .semaphore, .sleep, .timedWait, .precondition, .call, .returns,
             .exitLoop, .spawn, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream, .suspend, .hop, .throwing,
             .handles:
            false
        }
    }
}
