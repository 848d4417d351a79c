/// The words for a witness schedule's steps: who did what, on which queue, at which line.
extension Narrator {
    /// One step as a line: "worker 1 (on serialQueue): prints 1  [line 3]".
    public func words(for step: ScheduleStep) -> String {
        let context = step.queue.map { " (on \(name($0)))" } ?? ""
        let place = step.span.map { "  [line \($0.line)]" } ?? ""
        return "\(thread(step.thread))\(context): \(action(step))\(place)"
    }

    /// Who took the step: "worker 1 on serialQueue", or "main".
    public func who(_ step: ScheduleStep) -> String {
        thread(step.thread) + (step.queue.map { " on \(name($0))" } ?? "")
    }

    /// What the thread did, in words: "prints 1", "serialQueue.async: enqueues the block".
    public func action(_ step: ScheduleStep) -> String {
        switch step.event {
        case .printed(let text): "prints \(text)"
        case .enqueued(let queue): "\(name(queue)).async: enqueues the block"
        case .waits(let queue): "\(name(queue)).sync: waits for its turn"
        case .startsItem(let queue): "starts the next item of \(name(queue))"
        case .startsItemOnAddedThread(let queue):
            "starts the next item of \(name(queue)), on a thread libdispatch adds to the pool: every worker thread was busy, some of them blocked"
        case .entersSync(let queue): "enters the \(name(queue)).sync block"
        case .asyncAndWaitRunsHere(let queue): "\(name(queue)).asyncAndWait: the queue is free, so this thread runs the block itself, at once"
        case .asyncAndWaitWaits(let queue): "\(name(queue)).asyncAndWait: the queue is busy; the block waits for its turn, and this thread waits for the block"
        case .runsAsyncAndWait(let queue): "runs the \(name(queue)).asyncAndWait block (the thread that drains the queue runs it, not the caller)"
        case .traps(let reason): "\(trapped(reason)): libdispatch traps, the process dies"
        case .reads(let variable): "reads \(name(variable)) (and computes the new value)"
        case .readsForPrint(let variable, let text): "reads \(name(variable)) for its print (it will print \(text))"
        case .writes(let variable, let value): "sets \(name(variable)) = \(value.description)"
        case .loops: "starts a loop"
        case .branches(let taken): taken ? "if: the condition holds" : "if: the condition does not hold"
        case .testsWhile(let holds): holds ? "while: the condition holds, the body runs (again)" : "while: the condition does not hold, the loop ends"
        case .groupEnter(let group): "\(name(group)).enter()"
        case .groupLeave(let group): "\(name(group)).leave()"
        case .groupWaitReturns(let group): "\(name(group)).wait() returns: the group is empty"
        case .groupNotify(let group, let queue): "\(name(group)).notify(queue: \(name(queue))): registers the block"
        case .semaphoreWaitReturns(let semaphore) where lockKind(semaphore) == .mutex: "enters \(name(semaphore)).withLock: it holds the mutex"
        case .semaphoreWaitReturns(let semaphore) where isLock(semaphore): "\(name(semaphore)).lock() returns: it holds the lock"
        case .semaphoreWaitReturns(let semaphore): "\(name(semaphore)).wait() returns (count − 1)"
        case .semaphoreSignal(let semaphore) where lockKind(semaphore) == .mutex: "leaves \(name(semaphore)).withLock: the mutex is free"
        case .semaphoreSignal(let semaphore) where isLock(semaphore): "\(name(semaphore)).unlock(): the lock is free"
        case .lockTakenAgain(let semaphore, let depth):
            "\(name(semaphore)).lock() returns at once: the thread already held it, and now holds it \(Self.times(depth))"
        case .lockStillHeld(let semaphore, let depth):
            "\(name(semaphore)).unlock(): the thread still holds it \(Self.times(depth)), so it stays locked"
        case .unlockIgnored(let semaphore):
            "\(name(semaphore)).unlock() changes nothing: this thread does not hold it (pthread_mutex_unlock fails with EPERM, which Foundation ignores)"
        case .semaphoreSignal(let semaphore): "\(name(semaphore)).signal() (count + 1)"
        case .schedules(let queue, let microseconds): "\(name(queue)).asyncAfter: a timer for \(Self.seconds(microseconds)) from now"
        case .timerFires(let queue): "fires: the block joins \(name(queue))"
        case .timerScheduled(let source, let microseconds, let repeating):
            "\(name(source)).schedule: the timer is due \(Self.seconds(microseconds)) from now"
                + (repeating.map { ", then every \(Self.seconds($0))" } ?? ", once")
        case .timerHandlerSet(let source, let cancel): "\(name(source)).\(cancel ? "setCancelHandler" : "setEventHandler"): registers the block"
        case .timerActivated(let source): "\(name(source)).resume(): the source starts, and its timer runs once scheduled"
        case .timerCancelled(let source, let again):
            again ? "\(name(source)).cancel(): it was cancelled already, nothing changes"
                : "\(name(source)).cancel(): the timer stops; an event handler not yet started will not run, and the cancel handler (if any) waits behind the one running"
        case .timerSourceFires(let source, let queue): "\(name(source)) fires: its event handler joins \(name(queue))"
        case .timerSourceMerges(let source): "\(name(source)) fires while its event handler still waits to run: the fires merge into that one run"
        case .timerHandlerSkipped(let source): "\(name(source))'s waiting event handler is dropped: the source was cancelled"
        case .clock(let microseconds): "time passes: now \(Self.seconds(microseconds))"
        case .clockWhileWaitingForWorker(let microseconds, let queues):
            "time passes (now \(Self.seconds(microseconds))) while the next block of \(queues.map { name($0) }.joined(separator: ", ")) waits for a worker thread: the pool's threads, one per CPU core, are busy, and libdispatch adds one only at its monitor's tick, once a second"
        case .sleeps(let microseconds): "sleeps for \(Self.seconds(microseconds))"
        case .wakes: "wakes up"
        case .waitsWithTimeout(let microseconds): "waits, for \(Self.seconds(microseconds)) at most"
        case .waitEnds(let timedOut): timedOut ? "the wait times out (.timedOut)" : "the wait returns (.success)"
        case .activates(let queue): "\(name(queue)).activate()"
        case .setsQueue(let queue): "sets \(name(queue))'s target or specific value"
        case .drainsTargetedQueue(let queue, let target): "\(name(target)) takes \(name(queue)), which targets it, and runs its blocks one at a time"
        case .preconditionHolds(.assumeIsolated): "MainActor.assumeIsolated: on the main actor, so its body runs here, at once"
        case .preconditionHolds(.assertIsolated): "MainActor.assertIsolated(): on the main actor, so it goes on"
        case .preconditionHolds(.preconditionIsolated): "MainActor.preconditionIsolated(): on the main actor, so it goes on"
        case .preconditionHolds: "dispatchPrecondition holds"
        case .performs(let iterations): "concurrentPerform(iterations: \(iterations)): runs iterations itself, helped by pool threads (one per core beyond the first)"
        case .takesIteration(let index): "concurrentPerform: takes iteration \(index)"
        case .helpsPerform(let added):
            "joins concurrentPerform to take iterations" + (added ? " (a thread libdispatch adds to the pool)" : "")
        case .leavesPerform: "finds no iteration of concurrentPerform left and goes back to the pool"
        case .performReturns: "concurrentPerform returns: every iteration has finished"
        case .workItemCancel(let item): "\(name(item)).cancel()"
        case .workItemWaitReturns(let item): "\(name(item)).wait() returns: the item has run"
        case .monitorAddsSpareThread(let pool):
            "the pool monitor's first tick, which found the first worker not yet running, adds a thread to the \(pool.rawValue) pool: it waits, idle, for the next block"
        case .exitsLoop(.breaks): "break: leaves the loop"
        case .exitsLoop(.continues): "continue: goes on with the loop's next value"
        case .workItemWaitStarts(let item): "\(name(item)).wait(): the item has not run yet, so it waits"
        case .workItemNotify(let item, let queue): "\(name(item)).notify(queue: \(name(queue))): registers the block"
        case .workItemPerform(let item): "\(name(item)).perform()"
        case .workItemSkipped(let item): "takes \(name(item)) from the queue: cancelled, so its body is skipped"
        case .crashes(let reason):
            if case .foundationCrash = reason { "Foundation stops the process: \(crash(reason))" } else { crash(reason) }
        case .calls(let function): "calls \(Self.called(function))"
        case .returns(let value?): "returns \(value.description)"
        case .returns(nil): "returns"
        case .operationCreated(let operation): "creates \(name(operation))"
        case .operationBlockAdded(let operation): "\(name(operation)).addExecutionBlock"
        case .dependencyAdded(let operation, let other): "\(name(operation)).addDependency(\(name(other))): \(name(operation)) waits for \(name(other)) to finish"
        case .completionSet(let operation): "sets \(name(operation)).completionBlock"
        case .priorityChanged(let operation, let priority): "\(name(operation)).queuePriority = .\(priority.name)"
        case .operationCancel(let operation): "\(name(operation)).cancel()"
        case .operationWaitReturns(let operation): "\(name(operation)).waitUntilFinished() returns: it has finished"
        case .operationsAdded(let queue, let operations): "\(name(queue)): adds \(operations.map(name).joined(separator: ", "))"
        case .operationLimit(let queue, let limit): "\(name(queue)).maxConcurrentOperationCount = \(limit.map(String.init) ?? "no limit")"
        case .operationQueueSuspended(let queue, let suspended): "\(name(queue)).isSuspended = \(suspended)"
        case .operationCancelAll(let queue): "\(name(queue)).cancelAllOperations()"
        case .operationWaitAllReturns(let queue): "\(name(queue)).waitUntilAllOperationsAreFinished() returns"
        case .operationsWaitReturns(let queue, let operations): "\(name(queue)).addOperations(…, waitUntilFinished: true) returns: \(operations.map(name).joined(separator: ", ")) have finished"
        case .startsOperation(let operation, let added):
            "starts \(name(operation))" + (added ? ", on a thread libdispatch adds to the pool: every worker thread was busy, some of them blocked" : "")
        case .operationSkipped(let operation): "\(name(operation))'s turn: cancelled, so it finishes without running"
        case .operationFinishes(let operation): "\(name(operation)) has no blocks: it finishes at once"
        case .spawnsTask(let task, let kind, let isolation):
            switch kind {
            case .unstructured: "Task { }: makes task \(task), its first job queued on \(name(isolation))"
            case .detached: "Task.detached { }: makes task \(task), its first job queued on \(name(isolation))"
            case .asyncLet: "async let: starts child task \(task) on \(name(isolation))"
            case .groupChild: "addTask: starts child task \(task) on \(name(isolation))"
            }
        case .runsTask(let task, let isolation): "\(name(isolation)) runs the next job: \(self.task(task)) goes on"
        case .runsTaskAhead(let task, let priority):
            "the global executor runs \(self.task(task))'s job ahead of earlier jobs of other priorities: "
                + "each priority has its own queue and threads, and \(Self.priorityName(priority))'s have room"
        case .passesTask(let task, let target):
            "takes \(self.task(task))'s job from the global executor; its code needs \(name(target)), so the job is queued there"
        case .yields: "await Task.yield(): the task gives up its executor; a job on the global executor will continue it"
        case .sleepsTask(let microseconds): "Task.sleep: the task suspends for \(Self.seconds(microseconds)), its executor free for other jobs"
        case .taskWakes(let task): "Task.sleep ends: \(self.task(task))'s job joins the global executor"
        case .awaitsTask(let task): "awaits task \(task), which has not finished: the task suspends, its executor free for other jobs"
        case .getsValue(let task): "task \(task) has finished: await returns its value at once"
        case .blockReturns: "the block returns: what waits for its end (its group, work item, operation or task) goes on"
        case .switchesTo(let isolation): "moves to \(name(isolation)) on the same thread (it is free)"
        case .hopsTo(let isolation): "needs \(name(isolation)): the task suspends and its job waits there"
        case .staysOn(let isolation): "already on \(name(isolation)): no suspension"
        case .operationStartedHere(let operation): "\(name(operation)).start(): runs it here"
        case .operationStartReturns(let operation): "\(name(operation)).start() returns: it has finished"
        case .startsTaskGroup(let group) where program.taskGroups[group.index].discarding:
            "\(program.taskGroups[group.index].functionName): \(name(group)) starts empty; its body runs here, in this task, and its children's results are dropped as they end"
        case .startsTaskGroup(let group): "\(program.taskGroups[group.index].functionName): \(name(group)) starts empty; its body runs here, in this task"
        case .takesChild(let group, let task): "\(name(group)) hands over child task \(task)'s value (children give theirs in the order they finish)"
        case .groupDrained(let group): "no child of \(name(group)) is left running: the wait is over"
        case .awaitsGroup(let group):
            "no child of \(name(group)) has finished yet: the task suspends until one does (then a job on the global executor continues it)"
        case .cancels(let tasks) where tasks.isEmpty: "cancels nothing new (finished or cancelled already)"
        case .cancels(let tasks): "cancels task" + (tasks.count == 1 ? " " : "s ") + tasks.map(String.init).joined(separator: ", ")
        case .readsCancelled(let cancelled): "Task.isCancelled is \(cancelled)"
        case .addsNoChild: "the group is cancelled: addTaskUnlessCancelled makes no child and gives false"
        case .registersCancellationHandler: "the onCancel handler is registered with the task"
        case .removesCancellationHandler: "the operation is over: the onCancel handler is removed"
        case .runsCancellationHandlers: "the task is already cancelled: onCancel runs now, on this thread"
        case .bindsTaskLocal(let local, let value): "\(program.taskLocals[local.index].name) is bound to \(value) in this task"
        case .unbindsTaskLocal(let local): "the withValue binding of \(program.taskLocals[local.index].name) ends"
        case .readsTaskLocal(let local, let value): "\(program.taskLocals[local.index].name) reads \(value)"
        case .startsContinuation(let id): "withCheckedContinuation: its body runs now, here, with \(program[id].name)"
        case .resumesContinuation(let id, let task?):
            "\(program[id].name).resume: \(self.task(task)) was waiting for it; its job is queued on the executor it suspended on"
        case .resumesContinuation(let id, nil): "\(program[id].name).resume: the value is kept for the await that comes"
        case .skipsNilResume: "the continuation kept there is nil: ?.resume() does nothing"
        case .awaitsContinuation(let id): "nobody has resumed \(program[id].name) yet: the task suspends, its executor free for other jobs"
        case .continuationReturns(let id): "\(program[id].name) was resumed: withCheckedContinuation returns its value"
        case .throwsError(let error, .caught): "throws \(error.written): a catch clause of the enclosing do takes it"
        case .throwsError(let error, .dropped): "throws \(error.written): try? drops it"
        case .throwsError(let error, .leavesAsyncLetScope):
            "throws \(error.written): it leaves the async let's scope, so the child task is cancelled and awaited first, then the error goes on"
        case .throwsError(let error, .leavesFunction): "throws \(error.written): it leaves the function; the caller throws it on"
        case .throwsError(let error, .leavesTaskGroup):
            "throws \(error.written): it leaves the group's body; the group cancels its children and waits for them, then throws it on"
        case .throwsError(let error, .endsTask(let task)):
            "throws \(error.written): it leaves \(self.task(task))'s body, which ends with the error (nothing prints it; its value rethrows it)"
        case .entersDo(.catches): "do: its body runs, an error thrown there going to its catch clauses"
        case .entersDo(.optional): "try?: the call runs; an error it throws is dropped"
        case .entersDo(.forced): "try!: the call runs; an error it throws traps"
        case .entersDo(.endsAsyncLet): "async let: an error thrown after it first ends its child task"
        case .throwsNothing: "no error to throw on: goes on"
        case .startsStream(let id): "\(program[id].typeName): its build closure runs now, here, with \(program[id].continuationName)"
        case .streamYields(let id, let value, _, .terminated):
            "\(program[id].continuationName).yield(\(value?.description ?? "()")): \(program[id].name) is finished, so the element is dropped"
        case .streamYields(let id, let value, let task?, .enqueued):
            "\(program[id].continuationName).yield(\(value?.description ?? "()")): \(self.task(task)) was waiting for it and gets it (it is not buffered); its job is queued on the executor it waits on"
        case .streamYields(let id, let value, nil, .enqueued):
            "\(program[id].continuationName).yield(\(value?.description ?? "()")): buffered in \(program[id].name) until a for await takes it"
        case .streamYields(let id, let value, _, .droppedNew):
            "\(program[id].continuationName).yield(\(value?.description ?? "()")): \(program[id].name)'s buffer is full (\(program[id].policy)), so the new element is dropped"
        case .streamYields(let id, let value, _, .droppedOldest(let oldest)):
            "\(program[id].continuationName).yield(\(value?.description ?? "()")): \(program[id].name)'s buffer is full (\(program[id].policy)), so its oldest element, \(oldest?.description ?? "()"), is dropped for it"
        case .streamFinishes(let id, let task?):
            "\(program[id].continuationName).finish(): \(self.task(task)) was waiting; its job is queued on the executor it waits on"
        case .streamFinishes(let id, nil): "\(program[id].continuationName).finish(): no element comes after those buffered"
        case .streamFails(let id, nil, _):
            "\(program[id].continuationName).finish(throwing:): \(program[id].name) is finished already, so the error is dropped"
        case .streamFails(let id, let error?, let task?):
            "\(program[id].continuationName).finish(throwing: \(error.written)): the loop throws it after the elements buffered before; \(self.task(task)) was waiting, its job is queued on the executor it waits on"
        case .streamFails(let id, let error?, nil):
            "\(program[id].continuationName).finish(throwing: \(error.written)): no element comes after those buffered, and the loop throws it once it has taken them"
        case .takesElement(let id, let value): "\(loop(over: id)) takes \(value?.description ?? "()") from \(program[id].name) (elements come in the order yielded)"
        case .streamEnds(let id): "\(program[id].name) is finished and empty: the \(loop(over: id)) loop ends"
        case .streamThrows(let id, let error): "\(program[id].name) was finished with \(error.written) and is empty: the for try await loop throws it"
        case .awaitsStream(let id): "nothing is buffered in \(program[id].name) yet: the task suspends until a yield or finish, its executor free"
        }
    }

    /// A logical time as a learner reads it: "2 s", "100 ms", "5 µs".
    /// "once", "twice", "3 times".
    static func times(_ count: Int) -> String {
        switch count {
        case 1: "once"
        case 2: "twice"
        default: "\(count) times"
        }
    }

    /// A task priority as Swift spells it (`TaskPriority.rank`): ".high", ".medium", ….
    static func priorityName(_ rank: Int) -> String {
        let known: [TaskPriority] = [.high, .medium, .low, .background]
        return known.first { $0.rank == rank }.map { ".\($0.rawValue)" } ?? "priority \(rank)"
    }

    static func seconds(_ microseconds: Int) -> String {
        if microseconds % 1_000_000 == 0 { return "\(microseconds / 1_000_000) s" }
        if microseconds % 1_000 == 0 { return "\(microseconds / 1_000) ms" }
        return "\(microseconds) µs"
    }

    /// The object whose call traps: the queue of a sync or precondition, the group of a leave,
    /// the semaphore of a signal.
    /// The loop over a stream, as the snippet writes it.
    private func loop(over stream: StreamID) -> String {
        program[stream].throwing ? "for try await" : "for await"
    }

    private func trapped(_ reason: DeadlockReason) -> String {
        switch reason {
        case .trap(_, let queue, _), .preconditionFailed(_, _, let queue, _), .targetOfActiveQueue(_, let queue, _): name(queue)
        case .unbalancedLeave(_, let group, _): name(group)
        case .unbalancedSignal(_, let semaphore, _), .recursiveMutexLock(_, let semaphore, _): name(semaphore)
        case .foundationCrash, .runtimeError, .modelError, .stuck, .memoryCorrupted: words(for: reason)
        case .workItemMisuse(_, let item, _, _): name(item)
        }
    }

    /// What stops the process, after "Foundation stops the process: ".
    public func crash(_ reason: DeadlockReason) -> String {
        switch reason {
        case .foundationCrash(_, let misuse, _): message(misuse)
        case .workItemMisuse(_, _, let misuse, _): message(misuse)
        case .trap, .preconditionFailed, .unbalancedLeave, .unbalancedSignal, .recursiveMutexLock, .runtimeError, .modelError, .stuck,
            .targetOfActiveQueue, .memoryCorrupted:
            words(for: reason)
        }
    }
}
