/// Which data races a state holds: two runnable threads about to touch one shared variable, one of
/// them writing. The search records them as it meets states; the scheduler's seat asks whether the
/// learner has steered two threads there.
extension Semantics {
    /// Every pair of accesses that meet in `state`, in thread order.
    func races(in state: MachineState) -> [DataRace] {
        // Only shared variables nothing synchronizes are reported (`nextAccesses`): a program
        // without one has no race to look for in any state.
        guard hasRacyVariables else { return [] }
        // Only runnable threads about to touch a shared variable can race: usually few of many
        // (asked without copying each thread, as a filter of the threads did). A spinning thread
        // waits in the model but reads what its loop tests, again and again.
        var accesses: [(ThreadState, [Access])] = []
        for t in state.threads.indices {
            let next = nextAccesses(of: state.threads[t])
            if !next.isEmpty && (isRunnable(state.threads[t], in: state) || wait(of: state.threads[t], in: state) == .spins) {
                accesses.append((state.threads[t], next))
            }
        }
        guard accesses.count > 1 else { return [] }
        var races: [DataRace] = []
        for i in accesses.indices {
            for j in accesses.indices where j > i {
                for a in accesses[i].1 {
                    for b in accesses[j].1 where a.variable == b.variable && (a.isWrite || b.isWrite) {
                        races.append(DataRace(
                            variable: a.variable,
                            first: .init(thread: accesses[i].0.threadID, isWrite: a.isWrite, span: a.span),
                            second: .init(thread: accesses[j].0.threadID, isWrite: b.isWrite, span: b.span)))
                    }
                }
            }
        }
        return races
    }
}

/// Races that may crash the process: Swift's arrays (and strings past the 15 bytes stored
/// inline) keep their elements in a copy-on-write buffer, and a thread changing one that it
/// finds uniquely referenced reallocates or frees it in place. Two threads doing so at once, or
/// one doing so while another copies the value, may free the buffer under the other: swiftc
/// builds of three `DispatchQueue.global().async { numbers.append(i) }` crashed with SIGSEGV in 2
/// of 600 runs. Integers, booleans and short strings race without crashing (lost updates only).
extension Semantics {
    /// One race per variable whose value lives in a heap buffer now (an empty array is the shared
    /// empty singleton, never freed): each is a move that ends the run in a crash.
    func memoryCorruptions(in state: MachineState) -> [DataRace] {
        guard hasRacyVariables, state.globals.contains(where: { $0.map(Self.livesInHeapBuffer) ?? false }) else { return [] }
        var seen: Set<VariableID> = []
        return races(in: state).filter { race in
            guard let value = state.globals[race.variable.index], Self.livesInHeapBuffer(value) else { return false }
            return seen.insert(race.variable).inserted
        }
    }

    static func livesInHeapBuffer(_ value: Value) -> Bool {
        switch value {
        case .list(let items): !items.isEmpty
        case .string(let text): text.utf8.count > 15
        case .int, .bool, .error, .nilValue, .double, .continuation, .enumCase: false
        }
    }

    /// The race's crash: the process dies with both threads where they are.
    func corrupt(_ race: DataRace, in state: MachineState) -> Result {
        let reason = DeadlockReason.memoryCorrupted(race)
        let queue = state.threads.first { $0.threadID == race.second.thread }?.currentQueue
        let step = ScheduleStep(thread: race.second.thread, queue: queue, event: .crashes(reason), span: race.second.span)
        return .trapped(state, step, reason)
    }
}
