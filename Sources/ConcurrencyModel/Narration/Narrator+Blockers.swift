/// The words for why-not findings: why a line (or an ending) cannot come next.
extension Narrator {
    /// One reason, as `explain`, `check` and answer keys print it.
    public func words(for blocker: Blocker) -> String {
        words(for: blocker.reason)
    }

    public func words(for reason: BlockerReason) -> String {
        switch reason {
        case .everythingRan:
            return "every submitted block has run: the run finishes"
        case .stuck(let facts):
            return words(for: facts)
        case .stillRunning(let prints):
            return prints.isEmpty ? "work is still running" : "still to print: " + prints.map { print in
                print.values.map { $0?.description ?? "…" }.joined(separator: " ") + " (\(thread(print.thread)))"
            }.joined(separator: ", ")
        case .neverPrinted(let text):
            return "no print in the snippet prints \(text)"
        case .alreadyPrinted(let text, let lines):
            return "\(text) was already printed (\(lines.map { "line \($0)" }.joined(separator: ", ")))"
        case .stuckBefore(let text, let facts):
            return "the run is stuck before \(text) prints: " + words(for: facts)
        case .waits(let thread, let wait, let line, let before):
            // A wait on the very line in question (`if s.wait(timeout: …) == .timedOut`) is reason enough.
            return waiting(wait, thread: self.thread(thread), line: line) + (before == line ? "" : ", before line \(before)")
        case .printsOtherValue(let thread, let line, let printed, let wanted, let values):
            let read = values.isEmpty ? "" : ": " + values.map { "\(name($0.variable)) is \($0.value.description)" }.joined(separator: ", ") + " when it runs"
            return "at line \(line), \(self.thread(thread)) prints \(printed), not \(wanted)\(read)"
        case .mustFirstRun(let thread, let location, let printed, let before):
            let statement = program[location]
            return "\(self.thread(thread)) must first \(doing(statement, printed: printed)) (line \(statement.span.line)) before line \(before)"
        case .insidePerform(let thread, let performLine, let running, let before):
            return "\(self.thread(thread)) is inside the concurrentPerform at line \(performLine) (running line \(running)) and reaches line \(before) only after every iteration has finished"
        case .insideSync(let thread, let syncLine, let running, let before):
            return "\(self.thread(thread)) is inside the sync at line \(syncLine) and reaches line \(before) only after that block (running line \(running)) has finished"
        case .mustFirstFinish(let thread, let location, let at, let before):
            let statement = program[location]
            return "\(self.thread(thread)) must first finish the \(construct(statement)) at line \(statement.span.line) (it is at \(at.map { "line \($0)" } ?? "its block")) before line \(before)"
        case .afterSync(let thread, let queue, let syncLine, let line, let hold):
            return "line \(line) comes after \(self.thread(thread))'s \(name(queue)).sync at line \(syncLine), which must wait: \(words(for: hold))"
        case .waitsInQueue(let queue, let blockLine, let hold):
            return "the block at \(blockLine.map { "line \($0)" } ?? "its block") waits in \(name(queue)): \(words(for: hold))"
        case .operationCancelled(let operation):
            return "\(name(operation)) was cancelled before it started, so its block never runs"
        case .operationWaitsForDependencies(let operation, let queue, let unfinished):
            return "\(name(operation)) waits in \(name(queue)) until \(names(unfinished)) \(unfinished.count == 1 ? "has" : "have") finished"
        case .operationQueueSuspended(let queue):
            return "\(name(queue)) is suspended: it starts no operation"
        case .operationQueueFull(let operation, let queue, let running):
            return "\(name(operation)) waits: \(name(queue)) already runs \(running) operation\(running == 1 ? "" : "s"), its maxConcurrentOperationCount"
        case .timerNotDue(let line, let queue, let due, let now):
            return "line \(line) runs in a \(name(queue)).asyncAfter block due at \(Self.seconds(due)), and the clock is at \(Self.seconds(now)): what can run before then runs first"
        case .timerSourceHeldBack(let line, let source, let hold):
            let handler = "line \(line) runs in the event handler of \(name(source))"
            switch hold {
            case .notResumed:
                return handler + ", which is never resumed: a dispatch source is made inactive, and until resume() (or activate()) its timer is not armed"
            case .cancelled:
                return handler + ", which is cancelled: a cancelled source delivers no more events"
            case .notDue(let due, let now):
                return handler + ", due at \(Self.seconds(due)), and the clock is at \(Self.seconds(now)): what can run before then runs first"
            case .notScheduled:
                return handler + ", whose timer has no deadline left: a one-shot timer fires once"
            }
        case .groupNotifyHeldBack(let line, let group, let remaining):
            return "line \(line) runs in the block of \(name(group)).notify, submitted only once \(name(group)) is empty: \(remaining) block(s) are still in it"
        case .workItemNotifyHeldBack(let line, let item):
            return "line \(line) runs in the block of \(name(item)).notify, submitted only once \(name(item)) has run, and it has not yet"
        case .completionHeldBack(let line, let operation):
            return "line \(line) runs in the completionBlock of \(name(operation)), which has not finished yet"
        case .notReached(let line, let parent, let inner):
            let at = program[parent].span.line
            let container: String
            switch program[parent].action {
            case .loop: container = "is in the loop at line \(at), which has not started yet"
            case .whileLoop: container = "is in the loop at line \(at), whose body has not run (again) yet"
            case .branch: container = "is in the if at line \(at), which has not been reached yet"
            case .handles(let handler) where handler.kind == .catches:
                container = "is in the do/catch at line \(at), which has not been reached (or no error was caught) yet"
            case .handles(let handler) where handler.kind == .endsAsyncLet:
                container = "comes after the async let at line \(at), which has not been reached yet"
            case .handles: container = "is in the try at line \(at), which has not been reached yet"
            case .throwing: container = "comes after the throw at line \(at)"
            case .call(let call): container = "is in \(Self.called(call.name)), which line \(at) has not called yet"
            case .print, .dispatch, .assign, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .queueSetting,
                .precondition, .workItem, .concurrentPerform, .operation, .operationQueue, .returns, .exitLoop, .hop, .cancellation, .taskLocal, .continuation(_, .resume), .continuation(_, .resumeHeld),
                .stream(_, .yield), .stream(_, .finish), .stream(_, .fail), .timer:
                container = "runs in a block submitted at line \(at), which has not run yet"
            case .suspend(.streamNext):
                container = "is in the for await at line \(at), which has not taken an element yet"
            case .suspend:
                container = "is in the for await at line \(at), which has not taken a child's value yet"
            case .withTaskGroup, .continuation(_, .start), .stream(_, .start):
                container = "is in the body at line \(at), which has not started yet"
            case .spawn:
                container = "runs in the task made at line \(at), which has not run that far yet"
            }
            return "line \(line) \(container): \(words(for: inner))"
        case .processDies(let ending):
            return dying(ending)
        }
    }

    /// Why a queue holds a block back.
    public func words(for hold: QueueHold) -> String {
        switch hold {
        case .mainThreadBusy(let line):
            return "the main thread is still busy at line \(line)"
        case .earlierItems(let queue, let count, let last):
            let ahead: String = switch last {
            case .block(let line): line.map { "line \($0)" } ?? "an earlier block"
            case .sync(let line, let thread): (line.map { "line \($0)" } ?? "a sync") + " (\(self.thread(thread)))"
            case .operation(let operation): name(operation)
            case .queue(let other): "\(name(other)), which targets it"
            }
            return "\(count) earlier item(s) of \(name(queue)) must start first, the last one at \(ahead)"
        case .barrierRunning(let queue):
            return "a barrier block is running on \(name(queue)), alone"
        case .barrierWaits(let queue, let running):
            return "this barrier block waits for the \(running) block(s) running on \(name(queue))"
        case .busy(let queue, let holder):
            return "\(name(queue)) is busy running another block (\(holder.map { "\(thread($0.thread)), at line \($0.line)" } ?? "another block"))"
        case .notStartedYet(let queue):
            return "\(name(queue)) has not started it yet"
        case .targetBusy(let queue, let target, let running?) where running == target:
            return "\(name(queue)) targets \(name(target)); \(name(target)) is running a block of its own"
        case .targetBusy(let queue, let target, let running?):
            return "\(name(queue)) targets \(name(target)); \(name(target)) is running \(name(running))'s block"
        case .targetBusy(let queue, let target, nil):
            return "\(name(queue)) targets \(name(target)) and waits its turn there behind earlier items"
        case .poolBusy(let queue, let cores, let added, let blocked, let ahead):
            let threads = cores + added
            var text = "every worker thread that serves \(name(queue)) is busy (\(threads) on \(Self.count(cores))"
                + (added > 0 ? ", \(added) of them added by libdispatch" : "") + ")"
            text += blocked > 0
                ? "; \(blocked) of them blocked, so libdispatch adds a thread only at its monitor's next tick, once a second"
                : ", running"
            if ahead > 0 { text += ", and \(ahead) earlier item(s) wait for a thread first" }
            return text
        }
    }

    /// A process that dies at a trap or crash: nothing comes after it.
    private func dying(_ ending: DeadlockReason) -> String {
        switch ending {
        case .trap(let thread, let queue, let span):
            "\(self.thread(thread)) traps in \(name(queue)).\(syncCall(at: span)) at line \(span.line): the process dies, so nothing comes after it"
        case .preconditionFailed(let thread, .assumeIsolated, _, let span):
            "MainActor.assumeIsolated finds \(self.thread(thread)) off the main actor at line \(span.line): the process dies"
        case .preconditionFailed(let thread, let kind, _, let span) where kind == .assertIsolated || kind == .preconditionIsolated:
            "MainActor.\(kind.rawValue)() finds \(self.thread(thread)) off the main actor at line \(span.line): the process dies"
        case .preconditionFailed(let thread, let kind, let queue, let span):
            "dispatchPrecondition(\(condition(kind, queue))) fails on \(self.thread(thread)) at line \(span.line): the process dies"
        case .unbalancedLeave(let thread, let group, let span):
            "\(self.thread(thread)) calls \(name(group)).leave() at line \(span.line) with nothing in the group: the process dies"
        case .unbalancedSignal, .recursiveMutexLock, .foundationCrash, .runtimeError, .modelError, .stuck, .targetOfActiveQueue, .workItemMisuse,
            .memoryCorrupted:
            words(for: ending) + ", so nothing comes after it"
        }
    }
}
