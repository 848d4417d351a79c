/// A thread that spins: at a `while` test whose iteration, run by this thread alone, comes back to
/// this very state (`while true { if Task.isCancelled { … } }` before anyone cancels). Running it
/// changes nothing anyone sees, so the model takes it as a wait (`ThreadWait.spins`) for another
/// thread, a timer or the clock to change what the test reads: the search does not go round the
/// loop for ever, time passes while the thread spins (a spinning thread burns real time, so due
/// timers fire), and when nothing else can change, the run hangs there, with the executor or
/// queue the thread holds never given up. An iteration that comes back to the same state but
/// prints prints for ever: no outcome can list that (`Exploration.Limit.endlessOutput`).
extension Semantics {
    enum Spin: Equatable {
        /// The iteration changes something, blocks, traps, or is too long to tell.
        case no
        /// The iteration changes nothing: the thread waits for something else to.
        case quietly
        /// The iteration changes nothing but prints.
        case printing
    }

    /// The most steps one iteration may take for the model to tell whether it spins; a longer
    /// body is run step by step (and a run that never ends is refused: `EndlessRuns`).
    static let spinProbeSteps = 512

    /// Whether the thread, at a `while` test that holds, would come back to it in this state.
    func spinning(_ thread: ThreadState, in state: MachineState) -> Spin {
        guard !thread.switching, !thread.returning, thread.waitingOn == nil, let frame = thread.frames.last,
            frame.pc < program[frame.block].statements.count,
            case .whileLoop(let loop) = program[frame.block].statements[frame.pc].action, !loop.entersUntested,
            let index = state.threadIndex(thread.id),
            (try? evaluate(loop.condition, for: thread, in: state)) == .bool(true)
        else { return .no }
        let depth = thread.frames.count
        // The test itself, as `whileStep` takes it (not through it: it asks here).
        var current = state
        current.threads[index].frames.append(Frame(block: loop.body, role: .whileBody))
        unwind(thread.id, in: &current)
        var printed = false
        for _ in 0..<Self.spinProbeSteps {
            guard let t = current.threadIndex(thread.id) else { return .no }
            let now = current.threads[t]
            if now.frames.count == depth, let top = now.frames.last, top.block == frame.block, top.pc == frame.pc,
                !now.switching, !now.returning {
                guard current.canonical() == state.canonical() else { return .no }
                return printed ? .printing : .quietly
            }
            guard isRunnable(now, in: current) else { return .no }
            switch step(thread.id, in: current) {
            case .next(let after, let taken):
                if case .printed = taken.event { printed = true }
                current = after
            case .trapped, .beyondLimits:
                return .no
            }
        }
        return .no
    }
}
