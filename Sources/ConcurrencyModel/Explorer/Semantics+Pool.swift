/// The model's rules for libdispatch's worker pools (swift-corelibs-libdispatch, `src/queue.c` and
/// `src/event/workqueue.c`): blocks of global and custom concurrent queues run on a pool per QoS
/// bucket of one thread per core. A block that finds every thread of its pool busy waits. The
/// pools' monitor is a timer that starts with the first worker thread and fires at once, then
/// once a second; at each tick, a pool whose threads are busy, some of them blocked (asleep,
/// waiting), while work waits, gets one thread more, which stays. Its first tick comes a moment
/// after that first worker starts, as the pool's threads are still starting and may wait for
/// locks inside `print` or `malloc`: it may add a thread to a full pool whether or not the
/// snippet's code blocks (measured with swiftc, three programs at once: on one core two
/// concurrent blocks interleaved in 67 of 3,000 runs, on two cores a third block printed first
/// in 1 of 3,000; with no other load, 0 of 300 and 0 of 500). Custom serial queues and the main
/// queue are served without that limit (overcommit), and so is every pool on a machine with
/// enough cores (`Machine.cores == nil`).
extension Semantics {
    /// The pools by index in `MachineState.pools`: libdispatch's QoS buckets that a snippet can
    /// reach (userInteractive shares userInitiated's).
    static let pools: [QoSClass] = [.userInitiated, .default, .utility, .background]

    /// The monitor's period: it adds at most one thread to a pool per tick.
    static let monitorPeriod = 1_000_000

    /// Whether a queue's next item can get a thread now.
    enum WorkerAvailability: Hashable {
        /// A thread is free (or the item needs none: it runs on a thread of its own kind).
        case free
        /// Every thread of the pool is busy, some of them blocked, and the monitor may add one
        /// now; or it may not yet, while time passes.
        case afterPoolGrows
        /// Every thread of the pool is busy and none can be added now.
        case waits
    }

    func poolIndex(_ pool: QoSClass) -> Int {
        Self.pools.firstIndex(of: pool.pool) ?? 1
    }

    /// The threads running an item of a queue served by `pool` (blocked ones included).
    func busyThreads(of pool: QoSClass, in state: MachineState) -> [ThreadState] {
        state.threads.filter { thread in
            guard thread.id != MachineState.mainThreadID, case .item(let queue, _, _)? = thread.frames.first?.role else { return false }
            return queueWorkerPools[queue.index] == pool
        }
    }

    /// How many threads run an item of a queue served by `pool`, as `busyThreads(of:in:)` counts
    /// them without gathering them.
    func busyThreadCount(of pool: QoSClass, in state: MachineState) -> Int {
        // By index, reading each first frame's role in place: iterating would copy every thread.
        state.threads.indices.count { t in
            guard state.threads[t].id != MachineState.mainThreadID, !state.threads[t].frames.isEmpty,
                case .item(let queue, _, _) = state.threads[t].frames[0].role
            else { return false }
            return queueWorkerPools[queue.index] == pool
        }
    }

    /// How wide a machine must be for nothing of this state to wait for a thread: the busiest
    /// worker pool (as `busyThreadCount(of:in:)` counts it), or the busiest priority of the
    /// global executor (as `executorThreads(ofPriority:in:)` does), in one look along the
    /// threads: the search asks it of every new state.
    func busyWidth(in state: MachineState) -> Int {
        var workers = SIMD4<Int>(repeating: 0)
        var executor = SIMD4<Int>(repeating: 0)
        for t in state.threads.indices where state.threads[t].id != MachineState.mainThreadID {
            if let task = state.threads[t].task, let pool = Self.pools.firstIndex(of: Self.executorPool(ofPriority: state.tasks[task].priority)) {
                executor[pool] += 1
            }
            if !state.threads[t].frames.isEmpty, case .item(let queue, _, _) = state.threads[t].frames[0].role,
                let pool = queueWorkerPools[queue.index].flatMap(Self.pools.firstIndex(of:))
            {
                workers[pool] += 1
            }
        }
        return max(workers.max(), executor.max())
    }

    /// The most iterations a `concurrentPerform` under way runs side by side on a wide machine.
    func performWidth(in state: MachineState) -> Int {
        state.performs.reduce(0) { max($0, $1.perform.iterations) }
    }

    /// The width a machine needs for this state (`MachineSearches`' floor).
    func neededWidth(in state: MachineState) -> Int {
        max(busyWidth(in: state), performWidth(in: state))
    }

    /// How many threads the pool has on this machine: one per core, plus those the monitor added.
    func capacity(of pool: QoSClass, in state: MachineState) -> Int? {
        guard let cores = machine.cores, !state.pools.isEmpty else { return nil }
        return cores + state.pools[poolIndex(pool)].added
    }

    /// Whether `queue`'s first pending item can get a thread now (the queue's own rules aside).
    func workerAvailability(for queue: QueueID, in state: MachineState) -> WorkerAvailability {
        // Swift's global executor: one queue per priority, each as wide as the machine's CPUs
        // (`executorWidth`), served side by side.
        switch program[queue].kind {
        case .cooperative:
            // An empty executor waits for nothing.
            guard !state.queues[queue.index].pending.isEmpty else { return .free }
            return firstStartableJob(on: queue, in: state) != nil ? .free : .waits
        case .actor:
            guard case .job(let task)? = state.queues[queue.index].pending.first else { return .free }
            return executorHasRoom(forPriority: state.tasks[task].priority, in: state) ? .free : .waits
        case .main, .serial, .concurrent, .global:
            break
        }
        guard let pool = queueWorkerPools[queue.index], let item = state.queues[queue.index].pending.first, item.needsThread,
            let capacity = capacity(of: pool, in: state)
        else { return .free }
        // The pool serves its queues' items first come, first served (measured with swiftc:
        // blocks of concurrentQueue submitted before a global one get the threads first).
        let arrival = state.queues[queue.index].arrivals[0]
        let earlier = state.queues.indices.contains { other in
            guard other != queue.index, program.workerPool(of: QueueID(index: other)) == pool,
                state.queues[other].pending.first?.needsThread == true, state.queues[other].arrivals[0] < arrival
            else { return false }
            return admits(QueueID(index: other), in: state)
        }
        if earlier { return .waits }
        if busyThreadCount(of: pool, in: state) < capacity { return .free }
        return canAddThread(to: pool, busy: busyThreads(of: pool, in: state), in: state) ? .afterPoolGrows : .waits
    }

    /// The monitor adds a thread at one of its ticks, when some busy thread of the pool is blocked
    /// (it counts the runnable ones), one per tick; at its first tick, whatever the threads do.
    private func canAddThread(to pool: QoSClass, busy: [ThreadState], in state: MachineState) -> Bool {
        guard isTick(state), state.pools[poolIndex(pool)].lastAdded != state.now else { return false }
        return state.now == state.monitorStarted || busy.contains { isInBlockingCall($0, in: state) }
    }

    /// Blocked, as the monitor sees it: waiting, or asleep or in a timed wait whose end is due
    /// now but which has not returned yet (the tick and the wake-up come in either order).
    private func isInBlockingCall(_ thread: ThreadState, in state: MachineState) -> Bool {
        wait(of: thread, in: state) != nil || thread.sleepUntil != nil || thread.waitDeadline != nil
    }

    /// The queues whose next item waits for a thread of a full pool.
    func queuesWaitingForThreads(in state: MachineState) -> [QueueID] {
        state.queues.indices.map { QueueID(index: $0) }.filter { queue in
            !state.inactive[queue.index] && workerAvailability(for: queue, in: state) != .free
        }
    }

    /// Whether the clock stands at one of the monitor's ticks.
    private func isTick(_ state: MachineState) -> Bool {
        guard let started = state.monitorStarted, state.now >= started else { return false }
        return (state.now - started) % Self.monitorPeriod == 0
    }

    /// A move that starts a block only on a thread the pool's monitor adds: the run may take it, or
    /// let time pass first (the monitor's tick can come later).
    func waitsForWorker(_ move: Move, in state: MachineState) -> Bool {
        guard case .start(let queue) = move else { return false }
        return workerAvailability(for: queue, in: state) == .afterPoolGrows
    }

    /// The pools to which the monitor's first tick may add a thread though nothing waits: the
    /// tick comes as the first worker starts, and when that worker has not yet taken its item
    /// (nor told the monitor it runs), the monitor sees work and no runnable thread, and adds
    /// one. The spare thread idles (libdispatch's workers wait seconds for work before they
    /// exit) and takes the next block that comes. Measured with swiftc under `taskset -c 0`: a
    /// work item sleeping 5 × 100 ms on a global queue, cancelled by a block due at 250 ms on
    /// another global queue, was cancelled in 3 of 30 runs (and 1 of 10 live runs): on one core
    /// that block ran while the pool's one thread slept.
    func spareThreadPools(in state: MachineState) -> [Int] {
        guard machine.cores != nil, let started = state.monitorStarted, state.now == started else { return [] }
        return Self.pools.indices.filter { index in
            let pool = Self.pools[index]
            guard state.pools[index].added == 0, state.pools[index].lastAdded != state.now, let capacity = capacity(of: pool, in: state) else { return false }
            // The pool is full, and nothing of it waits (a waiting block gets the tick's thread
            // through `workerAvailability` already).
            return busyThreadCount(of: pool, in: state) >= capacity && !state.queues.indices.contains { queue in
                program.workerPool(of: QueueID(index: queue)) == pool && state.queues[queue].pending.first?.needsThread == true
            }
        }
    }

    func addSpareThread(to pool: Int, in state: MachineState) -> Result {
        var state = state
        state.pools[pool].added += 1
        state.pools[pool].lastAdded = state.now
        return .next(state, ScheduleStep(thread: .libdispatch, queue: nil, event: .monitorAddsSpareThread(pool: Self.pools[pool]), span: nil))
    }

    /// The monitor's next tick, when work waits for a thread of a full pool.
    func nextPoolTick(in state: MachineState) -> Int? {
        guard let started = state.monitorStarted else { return nil }
        let waits = state.queues.indices.contains { index in
            let id = QueueID(index: index)
            guard let pool = program.workerPool(of: id), state.queues[index].pending.first?.needsThread == true,
                let capacity = capacity(of: pool, in: state)
            else { return false }
            return busyThreadCount(of: pool, in: state) >= capacity
        }
        guard waits else { return nil }
        return started + ((state.now - started) / Self.monitorPeriod + 1) * Self.monitorPeriod
    }

    /// Records that the monitor added a thread to the queue's pool now.
    func addThread(forQueue queue: QueueID, in state: inout MachineState) {
        guard let pool = queueWorkerPools[queue.index] else { return }
        state.pools[poolIndex(pool)].added += 1
        state.pools[poolIndex(pool)].lastAdded = state.now
    }

    /// A pool's first worker starts the monitor.
    func noteWorkerStart(forQueue queue: QueueID, in state: inout MachineState) {
        guard machine.cores != nil, state.monitorStarted == nil, queueWorkerPools[queue.index] != nil else { return }
        state.monitorStarted = state.now
    }

    /// How many threads run a `concurrentPerform` of `iterations` called by `thread`: as many as
    /// the pool has cores, never more than the iterations; a call inside another's iteration
    /// shares the cores with its siblings (`dispatch_apply_f`: the width divided by the outer
    /// iterations). With one thread the caller runs every iteration itself.
    func performWidth(iterations: Int, calledBy thread: ThreadState, in state: MachineState) -> Int {
        var width = machine.cores ?? iterations
        if let outer = thread.frames.lazy.compactMap({ frame -> Int? in
            if case .iteration(let instance)? = frame.task { return instance }
            return nil
        }).last {
            let siblings = state.performs[outer].perform.iterations
            width = siblings < width ? width / siblings : 1
        }
        return max(1, min(width, iterations))
    }

    /// Once a `concurrentPerform` has handed out its last iteration, its helper requests still
    /// queued would find nothing to do: they leave the queue (a no-op a worker would run).
    func dropIdleHelpers(of instance: Int, in state: inout MachineState) {
        guard !state.performs[instance].hasIterationsLeft else { return }
        let queue = state.performs[instance].perform.queue
        state.queues[queue.index].removeAll { item in
            if case .helper(instance) = item { return true }
            return false
        }
    }
}
