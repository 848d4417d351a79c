/// The words for how a run ends: a trap, a crash, or a stuck run and what holds it.
extension Narrator {
    /// "main", or "worker 3".
    public func thread(_ thread: ThreadID) -> String {
        switch thread {
        case .main: "main"
        case .worker(let number): "worker \(number)"
        case .libdispatch: "libdispatch"
        case .foundation: "Foundation"
        case .timer: "timer"
        case .clock: "clock"
        }
    }

    /// "the top-level code" (task 0 runs it once the snippet uses Swift concurrency), or "task 2":
    /// tasks numbered as `Task { }` made them, the same in steps, endings and the scheduler's seat.
    public func task(_ index: Int) -> String {
        index == 0 ? "the top-level code" : "task \(index)"
    }

    /// Why the run ended so, in one sentence: "trap at line 2: main calls q.sync on a queue it
    /// already owns", "nothing can run any more: …".
    public func words(for reason: DeadlockReason) -> String {
        switch reason {
        case .foundationCrash(let thread, let misuse, let span):
            "crash at line \(span.line): Foundation stops the process on \(self.thread(thread)): \(message(misuse))"
        case .workItemMisuse(.libdispatch, let item, let misuse, let span):
            "crash at line \(span.line): libdispatch stops the process as a queue starts \(name(item)): \(message(misuse))"
        case .workItemMisuse(let thread, let item, let misuse, let span):
            "crash at line \(span.line): libdispatch stops the process on \(self.thread(thread)) (\(name(item))): \(message(misuse))"
        case .trap(let thread, let queue, let span):
            "trap at line \(span.line): \(self.thread(thread)) calls \(name(queue)).\(syncCall(at: span)) on a queue it already owns" + throughTargets(queue)
        case .targetOfActiveQueue(let thread, let queue, let span):
            "trap at line \(span.line): \(self.thread(thread)) calls \(name(queue)).setTarget(queue:) on an active queue; libdispatch kills the process (\"Cannot change the target of this object after it has been activated\")"
        case .stuck(let facts):
            "nothing can run any more: " + words(for: facts)
        case .preconditionFailed(let thread, .assumeIsolated, _, let span):
            "crash at line \(span.line): MainActor.assumeIsolated runs on \(self.thread(thread)), off the main actor; the runtime stops the process (its check of the main queue, libdispatch's dispatch_assert_queue, fails)"
        case .preconditionFailed(let thread, let kind, _, let span) where kind == .assertIsolated || kind == .preconditionIsolated:
            "crash at line \(span.line): MainActor.\(kind.rawValue)() runs on \(self.thread(thread)), off the main actor; the runtime stops the process (its check of the main queue, libdispatch's dispatch_assert_queue, fails)"
        case .preconditionFailed(let thread, let kind, let queue, let span):
            "crash at line \(span.line): dispatchPrecondition(\(condition(kind, queue))) fails on \(self.thread(thread)); the process dies"
        case .unbalancedLeave(let thread, let group, let span):
            "crash at line \(span.line): \(self.thread(thread)) calls \(name(group)).leave() more often than enter(); libdispatch kills the process"
        case .unbalancedSignal(let thread, let semaphore, let span):
            "crash at line \(span.line): \(self.thread(thread)) calls \(name(semaphore)).signal() with the count already at Int.max; libdispatch kills the process (\"Unbalanced call to dispatch_semaphore_signal()\")"
        case .recursiveMutexLock(let thread, let semaphore, let span):
            "crash at line \(span.line): \(self.thread(thread)) calls \(name(semaphore)).withLock inside \(name(semaphore)).withLock; a Mutex is not recursive, and it stops the process (\"Fatal error: Recursive call to lock Mutex\")"
        case .runtimeError(let thread, let error, let span):
            "crash at line \(span.line): Swift stops the process on \(self.thread(thread)): \(error.message)"
        case .memoryCorrupted(let race):
            "crash at line \(race.second.span.line) (it may happen): \(self.thread(race.first.thread)) \(race.first.isWrite ? "changes" : "reads") \(name(race.variable)) at line \(race.first.span.line) while \(self.thread(race.second.thread)) \(race.second.isWrite ? "changes" : "reads") it at line \(race.second.span.line); a copy-on-write buffer (an array's, a long string's) changed by one thread while another uses it may be freed under it, and the process dies (a data race is undefined behaviour)"
        case .modelError(let thread, let message, let span):
            "at line \(span.line) on \(self.thread(thread)), gcdquiz's model cannot tell what happens (a bug in gcdquiz: \(message)); the run is cut short there"
        }
    }

    /// What holds a stuck run, one clause per fact, separated by "; ".
    public func words(for facts: [StuckFact]) -> String {
        Self.countingDuplicates(facts.compactMap(words(for:))).joined(separator: "; ")
    }

    /// The same clause said several times once, with how many ("2× …"), in order of first
    /// appearance; the live runner's narration says its sentences the same way.
    public static func countingDuplicates(_ sentences: [String]) -> [String] {
        var counts: [String: Int] = [:]
        for sentence in sentences { counts[sentence, default: 0] += 1 }
        var said: Set<String> = []
        return sentences.compactMap { sentence in
            guard said.insert(sentence).inserted else { return nil }
            let count = counts[sentence] ?? 1
            return count == 1 ? sentence : "\(count)× \(sentence)"
        }
    }

    /// One fact of a stuck run, or nil where it is better told from the other side (a thread
    /// inside a concurrentPerform is told by the iterations nobody takes).
    public func words(for fact: StuckFact) -> String? {
        switch fact {
        case .waits(.main, .spins, let line, _):
            "the main thread, and with it the main actor and the main queue, spins in the `while` loop at line \(line) and is never given up: nothing else can change what the loop tests"
        case .waits(let thread, let wait, let line, let holders):
            stuck(wait, thread: self.thread(thread), line: line, heldBy: holders.map(self.thread))
        case .operationInSuspendedQueue(let operation, let queue):
            "\(name(operation)) never starts: \(name(queue)) is suspended"
        case .operationDependsOnUnfinished(let operation, let unfinished):
            "\(name(operation)) never starts: it depends on \(names(unfinished)), which never finish\(unfinished.count == 1 ? "es" : "")"
        case .iterationsNobodyTakes(let line, let left):
            "concurrentPerform\(line.map { " at line \($0)" } ?? "") has \(left) iteration(s) that no thread takes: those running are blocked, and libdispatch lends it no more threads than the pool has (one per CPU core, none beyond the caller on one core)"
        case .workItemNotifyNeverRuns(let item):
            "\(name(item)).notify never runs: the work item never runs"
        case .groupNotifyNeverRuns(let group, let remaining):
            "\(name(group)).notify never runs: \(remaining) block(s) never leave the group"
        case .mainQueueBlocked(let queue, let pending):
            "\(name(queue)) has \(pending) item(s) but the main thread is blocked"
        case .itemsWaiting(let queue, let pending):
            "\(name(queue)) has \(pending) item(s) waiting"
        case .taskWaits(let task, .continuation(let id), let line):
            "\(self.task(task)) waits in withCheckedContinuation at line \(line), and nothing resumes \(program[id].name)"
        case .taskWaits(let task, .taskValue(let target), let line):
            "\(self.task(task)) awaits task \(target)'s value at line \(line), and task \(target) never finishes"
        case .taskWaits(let task, .stream(let id), let line):
            "\(self.task(task)) waits in for await on \(program[id].name) at line \(line), and nothing yields to it or finishes it"
        case .taskWaits(let task, .group(let group), let line):
            "\(self.task(task)) waits for the children of \(program[group].name) at line \(line), and they never finish"
        }
    }

    /// Foundation's reason for stopping the process.
    public func message(_ misuse: FoundationMisuse) -> String {
        switch misuse {
        case .blockAddedAfterStart: "blocks cannot be added after the operation has started executing or finished"
        case .operationEnqueuedTwice: "operations finished, executing or already in a queue cannot be enqueued"
        case .startedNotReady: "receiver is not yet ready to execute: start() on an operation whose dependencies have not finished"
        case .startedTwice: "something is trying to start the receiver simultaneously from more than one thread: start() on an operation in a queue or already executing"
        }
    }

    /// libdispatch's message for a work item's misuse, and what led to it.
    public func message(_ misuse: WorkItemMisuse) -> String {
        switch misuse {
        case .waitedTwice: "\"A block object may not be waited for more than once\": wait() is called a second time"
        case .runMoreThanOnceAndWaited:
            "\"A block object may not be both run more than once and waited for\": wait() on an item that has run twice, or that perform() ran while a queue also holds it"
        case .ranAgainAfterWait:
            "\"A block object may not be both run more than once and waited for\": the item runs again after a wait() on it returned"
        case .runMoreThanOnceAndObserved: "\"A block object may not be both run more than once and observed\": notify on an item that has run twice"
        }
    }

    /// A dispatchPrecondition's condition as written: "onQueue(serialQueue)".
    func condition(_ kind: PreconditionKind, _ queue: QueueID) -> String {
        "\(kind.rawValue)(\(name(queue)))"
    }

    /// Operations by name: "b and c".
    func names(_ operations: [OperationID]) -> String {
        operations.map(name).joined(separator: " and ")
    }
}
