/// The model's rules (DESIGN.md): what each step of the abstract machine does. The search in
/// `Explorer` decides which steps to take; this file decides what a step means.
struct Semantics {
    let program: Program

    /// A choice the scheduler can make in a state.
    enum Move: Hashable {
        /// The thread executes its next statement.
        case step(thread: Int)
        /// The queue hands its first pending item to a thread.
        case start(QueueID)
    }

    enum Result {
        case next(MachineState, ScheduleStep)
        case trapped(MachineState, ScheduleStep, DeadlockReason)
    }

    /// The state before the first step: the main thread about to run the top-level code.
    func initialState() -> MachineState {
        var state = MachineState(program: program)
        unwind(MachineState.mainThreadID, in: &state)
        return state
    }

    func moves(in state: MachineState) -> [Move] {
        var moves: [Move] = []
        for thread in state.threads where thread.isRunnable {
            moves.append(.step(thread: thread.id))
        }
        for (index, queue) in state.queues.enumerated() where !queue.pending.isEmpty {
            let id = QueueID(index: index)
            if canStart(id, in: state) {
                moves.append(.start(id))
            }
        }
        return moves
    }

    /// Serial queues run one item at a time; the main queue only when the main thread is idle;
    /// concurrent and global queues start items as soon as they reach the head.
    func canStart(_ queue: QueueID, in state: MachineState) -> Bool {
        switch program[queue].kind {
        case .main: state.queues[queue.index].active == 0 && state.mainThread.frames.isEmpty
        case .serial: state.queues[queue.index].active == 0
        case .concurrent, .global: true
        }
    }

    func apply(_ move: Move, to state: MachineState) -> Result {
        switch move {
        case .step(let thread): step(thread, in: state)
        case .start(let queue): start(queue, in: state)
        }
    }

    private func step(_ threadID: Int, in state: MachineState) -> Result {
        var state = state
        let t = state.threadIndex(threadID)!
        let thread = state.threads[t]
        let frame = thread.frames[thread.frames.count - 1]
        let statement = program[frame.block].statements[frame.pc]
        state.threads[t].frames[thread.frames.count - 1].pc += 1
        let context = thread.currentQueue.map { program[$0].name }
        let event: ScheduleStep.Event

        switch statement.action {
        case .print(let text):
            state.output.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            event = .printed(text)
        case .dispatch(let queue, .async, let body):
            state.queues[queue.index].pending.append(.async(body))
            event = .enqueued(queue: program[queue].name)
        case .dispatch(let queue, .sync, let body):
            if ownsForSync(thread, queue) {
                let step = ScheduleStep(thread: thread.name, queue: context, event: .traps(queue: program[queue].name), span: statement.span)
                return .trapped(state, step, .trap(thread: thread.name, queue: program[queue].name, at: statement.span))
            }
            state.queues[queue.index].pending.append(.sync(thread: threadID, body: body))
            state.threads[t].waitingOn = queue
            event = .waits(queue: program[queue].name)
        }
        unwind(threadID, in: &state)
        return .next(state, ScheduleStep(thread: thread.name, queue: context, event: event, span: statement.span))
    }

    /// A `sync` traps when the thread already owns the queue: the main thread always owns the
    /// main queue (libdispatch binds it), and a thread owns a serial queue while it runs an item
    /// or a sync body of it, however deeply nested.
    private func ownsForSync(_ thread: ThreadState, _ queue: QueueID) -> Bool {
        switch program[queue].kind {
        case .main: thread.id == MachineState.mainThreadID
        case .serial: thread.holds(queue)
        case .concurrent, .global: false
        }
    }

    private func start(_ queue: QueueID, in state: MachineState) -> Result {
        var state = state
        let item = state.queues[queue.index].pending.removeFirst()
        state.queues[queue.index].active += 1
        let isMain = program[queue].kind == .main
        let name = program[queue].name
        let runner: Int
        let event: ScheduleStep.Event
        var span: SourceSpan?

        switch item {
        case .async(let body):
            if isMain {
                runner = MachineState.mainThreadID
                state.threads[0].frames.append(Frame(block: body, pc: 0, role: .item(queue)))
            } else {
                runner = state.nextWorker
                state.nextWorker += 1
                state.threads.append(ThreadState(id: runner, frames: [Frame(block: body, pc: 0, role: .item(queue))]))
            }
            event = .startsItem(queue: name)
            span = program[body].span
        case .sync(let waiter, let body):
            if isMain && waiter != MachineState.mainThreadID {
                runner = MachineState.mainThreadID
                state.threads[0].frames.append(Frame(block: body, pc: 0, role: .syncBody(queue, waiter: waiter)))
            } else {
                runner = waiter
                let w = state.threadIndex(waiter)!
                state.threads[w].waitingOn = nil
                state.threads[w].frames.append(Frame(block: body, pc: 0, role: .syncBody(queue, waiter: nil)))
            }
            event = .entersSync(queue: name)
            span = program[body].span
        }
        let thread = state.threads[state.threadIndex(runner)!]
        unwind(runner, in: &state)
        return .next(state, ScheduleStep(thread: thread.name, queue: name, event: event, span: span))
    }

    /// Pops the frames a thread has finished, releasing their queues at once (a release only
    /// enables other steps, so doing it eagerly loses no schedule). A worker with nothing left
    /// goes back to the pool.
    private func unwind(_ threadID: Int, in state: inout MachineState) {
        // A thread blocked in `sync` is still inside the statement: its frames stay until the
        // sync returns, so it keeps owning the queues it holds.
        guard var t = state.threadIndex(threadID), state.threads[t].waitingOn == nil else { return }
        while let frame = state.threads[t].frames.last, frame.pc >= program[frame.block].statements.count {
            state.threads[t].frames.removeLast()
            switch frame.role {
            case .topLevel:
                break
            case .item(let queue):
                state.queues[queue.index].active -= 1
            case .syncBody(let queue, let waiter):
                state.queues[queue.index].active -= 1
                if let waiter, let w = state.threadIndex(waiter) {
                    state.threads[w].waitingOn = nil
                    unwind(waiter, in: &state)
                    t = state.threadIndex(threadID)!
                }
            }
        }
        if state.threads[t].frames.isEmpty && threadID != MachineState.mainThreadID {
            state.threads.remove(at: t)
        }
    }

    /// A run is over when nothing can move. It finished if no work is left anywhere.
    func isFinished(_ state: MachineState) -> Bool {
        state.threads.count == 1 && state.mainThread.frames.isEmpty
            && state.queues.allSatisfy { $0.pending.isEmpty && $0.active == 0 }
    }

    /// Who waits on what in a state where nothing can move, in words.
    func stuckDescription(_ state: MachineState) -> [String] {
        var waits: [String] = []
        for thread in state.threads {
            if let queue = thread.waitingOn {
                let holders = state.threads.filter { $0.holds(queue) }.map(\.name)
                let held = holders.isEmpty ? "" : " (held by \(holders.joined(separator: ", ")))"
                waits.append("\(thread.name) waits in \(program[queue].name).sync\(held)")
            }
        }
        for (index, queue) in state.queues.enumerated() where !queue.pending.isEmpty {
            let decl = program.queues[index]
            if decl.kind == .main && !state.mainThread.frames.isEmpty {
                waits.append("\(decl.name) has \(queue.pending.count) item(s) but the main thread is blocked")
            } else if !waits.contains(where: { $0.contains("waits in \(decl.name).sync") }) {
                waits.append("\(decl.name) has \(queue.pending.count) item(s) waiting")
            }
        }
        return waits
    }
}
