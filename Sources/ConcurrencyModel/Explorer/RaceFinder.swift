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
