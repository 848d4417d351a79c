/// The model's rules for target queues and queue-specific values, as libdispatch has them
/// (swift-corelibs-libdispatch, `src/queue.c`):
///
/// - A queue whose target is a serial queue (a custom serial queue or the main queue) is drained
///   by its target: when it gets work it goes, once, to the end of its target as one item
///   (`PendingItem.drain`); when that item's turn comes the target is held while the queue's
///   blocks run one after another on the target's thread, until the queue is empty. So two
///   queues that target one serial queue never run blocks at the same time, and a concurrent
///   queue that targets a serial one runs one block at a time (`_dispatch_lane_drain`,
///   "non-redirecting mode": "non-barriers and barriers alike run in the context of the drain
///   thread"). Measured with swiftc (100 runs each): two serial queues on one root never
///   overlapped; three blocks of a concurrent queue on a serial root ran one at a time, in
///   order; blocks of a queue targeting `.main` ran on the main thread.
///   A sync body's end releases the queue and its targets, and a queue with work left goes to
///   the end of its target anew; an async block's end lets the drain go on (measured: `s r x y z
///   r2`, 100 of 100 runs, see `TargetQueueTests`).
/// - A queue whose target is a global queue runs as before, on that queue's worker pool.
/// - `sync` onto a queue traps when the thread already holds any queue of its target chain, or
///   the queue is in the chain of one the thread holds (measured, 100 of 100 runs each: a root's
///   block syncing onto a queue that targets it, a block of that queue syncing onto the root,
///   and onto a sibling queue with the same root, all died with SIGILL).
///   From the main thread, a sync onto a queue that targets `.main` traps too; so does a sync
///   from a root's block onto a concurrent queue on that root (100 of 100 runs each).
/// - `dispatchPrecondition(condition: .onQueue(root))` holds in a block of a queue that targets
///   `root` (100 of 100 runs).
/// - `setTarget(queue:)` changes an inactive queue's target; on an active one libdispatch traps
///   ("Cannot change the target of this object after it has been activated"; 100 of 100 runs).
/// - `DispatchQueue.getSpecific(key:)` reads the current queue's value, or else its target's,
///   and so on up (`dispatch_get_specific`); nil when none has one. The current queue is the
///   queue of the innermost block or sync body the thread runs; top-level code runs on the
///   main queue.
extension Semantics {
    /// A queue with a serial target starts its blocks only while its target drains it, one at a
    /// time whatever its kind; on the main thread only once that thread is idle.
    func admitsDrained(_ queue: QueueID, in state: MachineState) -> Bool {
        let queueState = state.queues[queue.index]
        guard queueState.draining, queueState.active == 0 else { return false }
        return !program.runsOnMainThread(queue) || state.mainThread.frames.isEmpty
    }

    /// The target starts its `.drain` item: it is held (one item running) while the queue drains.
    func startDrain(of child: QueueID, on target: QueueID, in state: MachineState) -> Result {
        var state = state
        _ = state.queues[target.index].removeFirst()
        state.queues[target.index].active += 1
        state.queues[child.index].draining = true
        return .next(state, ScheduleStep(thread: .libdispatch, queue: target, event: .drainsTargetedQueue(child, target: target), span: nil))
    }

    /// A block or sync body of `queue` has ended: if its target drains it and nothing is left in
    /// it, the drain ends and the target is free again (and so on up the chain).
    func endDrainIfEmpty(_ queue: QueueID, in state: inout MachineState) {
        var queue = queue
        while let target = state.drainTargets[queue.index], state.queues[queue.index].draining,
            state.queues[queue.index].active == 0, state.queues[queue.index].pending.isEmpty {
            state.queues[queue.index].draining = false
            state.queues[queue.index].onTarget = false
            state.queues[target.index].active -= 1
            queue = target
        }
    }

    /// A sync body of a drained queue has ended: libdispatch releases the queue and each target
    /// it took (`_dispatch_sync_complete_recurse`), and a queue with work left is woken anew, to
    /// the end of its target, behind what came meanwhile, where an async block's end lets the
    /// drain go on.
    func endDrainAfterSync(_ queue: QueueID, in state: inout MachineState) {
        guard let target = state.drainTargets[queue.index], state.queues[queue.index].draining,
            state.queues[queue.index].active == 0 else { return }
        state.queues[queue.index].draining = false
        state.queues[queue.index].onTarget = false
        state.queues[target.index].active -= 1
        endDrainIfEmpty(target, in: &state)
        state.wakeTarget(of: queue)
    }

    /// Queues the thread holds through its frames, each with the serial queues it drains through.
    func heldChains(of thread: ThreadState) -> Set<QueueID> {
        var held: Set<QueueID> = []
        for frame in thread.frames {
            guard let queue = frame.role.queue else { continue }
            for link in program.targetChain(of: queue) where link == queue || program[link].kind.isSerial {
                held.insert(link)
            }
        }
        return held
    }

    /// A `sync` onto a queue with targets traps when the thread holds a serial queue that the
    /// sync would need: the queue itself (when it is drained serially) or a serial queue it
    /// drains through, or when the queue is one the thread holds through its own chain.
    func syncTrapsThroughTargets(_ thread: ThreadState, _ queue: QueueID) -> Bool {
        let needed = program.targetChain(of: queue).filter { link in
            link == queue ? (program[link].kind.isSerial || program.drainTarget(of: link) != nil) : program[link].kind.isSerial
        }
        if needed.contains(where: { program[$0].kind == .main }) && thread.id == MachineState.mainThreadID { return true }
        let held = heldChains(of: thread)
        return needed.contains { held.contains($0) }
    }

    /// `dispatchPrecondition(condition: .onQueue(q))` holds inside a block of a queue that
    /// targets `q` (measured with swiftc: 100 of 100 runs, a serial queue's block on its root).
    func runsInHierarchy(_ thread: ThreadState, of queue: QueueID) -> Bool {
        thread.frames.contains { frame in frame.role.queue.map { program.targetChain(of: $0).contains(queue) } ?? false }
    }

    /// Whether the program has any queue with a target (the cheaper rules apply otherwise).
    var usesTargets: Bool { program.queues.contains { $0.target != nil } }

    /// `q.setTarget(queue:)`: the front end has put the target into the queue's declaration (it
    /// may stand only before the queue's activation); on an active queue it traps.
    func setTargetStep(_ queue: QueueID, at site: StepSite, in state: MachineState) -> StepEffect {
        guard state.inactive[queue.index] else {
            let reason = DeadlockReason.targetOfActiveQueue(thread: site.thread.threadID, queue: queue, at: site.statement.span)
            return .ends(site.trapped(state, .traps(reason), reason))
        }
        return .moves(.setsQueue(queue: queue), advancesPC: true)
    }

    /// `q.setSpecific(key:value:)`: the queue's value for the key, from now on.
    func setSpecificStep(_ queue: QueueID, key: VariableID, value: Expression, at site: StepSite,
                         in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        state.specifics[queue.index][key] = try evaluate(value, for: site.thread, in: state)
        return .moves(.setsQueue(queue: queue), advancesPC: true)
    }

    /// `DispatchQueue.getSpecific(key:)` on this thread: the current queue's value, else its
    /// target's, and so on up; nil when none has one.
    static func specificValue(_ key: VariableID, thread: ThreadState, program: Program, specifics: [[VariableID: Value]]) -> Value? {
        specificValue(key, currentQueue: thread.currentQueue, threadID: thread.id, program: program, specifics: specifics)
    }

    /// The same, from the thread's current queue (`ThreadState.currentQueue`) and number.
    static func specificValue(_ key: VariableID, currentQueue: QueueID?, threadID: Int, program: Program,
                              specifics: [[VariableID: Value]]) -> Value? {
        let current = currentQueue ?? (threadID == MachineState.mainThreadID ? Program.mainQueueID(in: program.queues) : nil)
        guard let current else { return nil }
        for queue in program.targetChain(of: current) {
            if let value = specifics[queue.index][key] { return value }
        }
        return nil
    }
}
