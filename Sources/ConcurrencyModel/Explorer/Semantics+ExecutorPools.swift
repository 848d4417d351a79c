/// The model's rules for the threads of Swift's global executor on Linux. swiftlang/swift,
/// `stdlib/public/Concurrency/DispatchGlobalExecutor.cpp`: `swift_dispatchEnqueueGlobal` puts a
/// job on the queue of the job's priority (`getGlobalQueue`), which off Apple platforms is a
/// custom concurrent queue made per priority, with that priority as its QoS and the width
/// `DISPATCH_QUEUE_WIDTH_MAX_LOGICAL_CPUS`. Each such queue drains through libdispatch's root
/// queue of its QoS, whose pool has its own threads (one per CPU the process may use, plus the
/// monitor's), niced by QoS on Linux (swift-corelibs-libdispatch `src/queue.c`,
/// `_dispatch_worker_thread`: `setpriority(…, _dispatch_pp_to_nice(pp))`). So jobs of different
/// priorities never wait for each other's threads; jobs of one priority start first come, first
/// served, at most `executorWidth` at a time.
extension Semantics {
    /// The root queue's pool that serves a job of this priority (`TaskPriority.rank`).
    static func executorPool(ofPriority rank: Int) -> QoSClass {
        if rank >= TaskPriority.userInitiated.rank { return .userInitiated }
        if rank >= TaskPriority.medium.rank { return .default }
        if rank >= TaskPriority.utility.rank { return .utility }
        return .background
    }

    /// How many jobs of one priority run at once (nil: no limit). The queue's width is the
    /// logical CPUs (libdispatch `_dispatch_lane_set_width` → `_dispatch_qos_max_parallelism(qos,
    /// 0)` → `sysconf(_SC_NPROCESSORS_CONF)`), which `taskset` does not narrow, while the root
    /// queue's pool is sized by the CPUs the process may use (`pthread_getaffinity_np`) and its
    /// monitor adds a thread to it. A one-core run is a multi-core machine under `taskset -c 0`,
    /// so a second job of the same priority can start beside the first (measured with swiftc
    /// under `taskset -c 0`: two `Task.detached` printed in reverse order in 4 of 300 runs without
    /// jitter, 19 of 200 with it). On a real one-CPU machine the width is one: its outcomes are a
    /// subset. The width never grows (measured: two tasks blocked in a semaphore starve a
    /// 2-core machine's executor; SwiftConcurrencyTests).
    var executorWidth: Int? {
        machine.cores.map { max($0, 2) }
    }

    /// The pool threads running jobs of this priority's queue (blocked ones included): tasks on
    /// the global executor, and on actors, whose jobs the runtime also runs from it.
    func executorThreads(ofPriority rank: Int, in state: MachineState) -> Int {
        let pool = Self.executorPool(ofPriority: rank)
        return state.threads.count { thread in
            guard thread.id != MachineState.mainThreadID, let task = thread.task else { return false }
            return Self.executorPool(ofPriority: state.tasks[task].priority) == pool
        }
    }

    /// Whether a job of this priority can get a thread now.
    func executorHasRoom(forPriority rank: Int, in state: MachineState) -> Bool {
        guard let width = executorWidth, !state.pools.isEmpty else { return true }
        return executorThreads(ofPriority: rank, in: state) < width
    }

    /// The place of the global executor's next job to start: the first whose priority's queue
    /// has room. Jobs of one priority start in order; a job of another priority may start ahead
    /// of them (measured with swiftc under `taskset -c 0`: `.background` then `.high` detached
    /// tasks printed the high one first in 285 of 300 runs).
    func firstStartableJob(on queue: QueueID, in state: MachineState) -> Int? {
        var full: Set<QoSClass> = []
        for (place, item) in state.queues[queue.index].pending.enumerated() {
            guard case .job(let task) = item else { return place }
            let rank = state.tasks[task].priority
            let pool = Self.executorPool(ofPriority: rank)
            if full.contains(pool) { continue }
            if executorHasRoom(forPriority: rank, in: state) { return place }
            full.insert(pool)
        }
        return nil
    }
}

extension Semantics {
    /// The machine whose search answers for `machine`. Where no work may wait for a thread of
    /// libdispatch's worker pools, the cores reach the rules only through `executorWidth`, which
    /// is two on one core as on two: the one-core machine's search would repeat the two-core
    /// one's state for state, so the two-core one answers for both (`MachineSearches`).
    /// `coresOnlyWidenTheExecutor` is the program's (a walk of it, so asked once by the caller).
    static func searchedMachine(for machine: Machine, coresOnlyWidenTheExecutor: Bool) -> Machine {
        guard let cores = machine.cores, cores < 2, coresOnlyWidenTheExecutor else { return machine }
        return Machine(cores: 2, platform: machine.platform)
    }
}

extension Program {
    /// Whether a machine's core count changes nothing but the global executor's width: no
    /// statement gives work to a queue served by a worker pool (`Semantics.capacity(of:in:)`),
    /// and none gives work outside tasks in any other way (a work item, an operation, a timer, a
    /// `concurrentPerform`, whose width is the cores: counted in, whichever queue they use).
    var coresOnlyWidenTheExecutor: Bool {
        !containsStatement { statement in
            switch statement.action {
            case .dispatch(let queue, _, _, _), .dispatchAfter(let queue, _, _): workerPool(of: queue) != nil
            default: statement.action.givesWorkOutsideTasks
            }
        }
    }
}
