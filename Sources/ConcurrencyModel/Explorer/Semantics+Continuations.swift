/// The model's rules for continuations (swiftlang/swift CheckedContinuation.swift, and swiftc runs
/// pinned in `SwiftConcurrencyTests`): the body runs at once in the calling task; the task waits
/// only if nobody resumed the continuation by then; a resume puts the waiting task's job on the
/// executor it suspended on (`ResumeToExecutor`); a second resume traps.
extension Semantics {
    func continuationStep(_ id: ContinuationID, _ action: ContinuationAction, at site: StepSite,
                          in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        switch action {
        case .start(let body):
            state.continuations[id.index] = ContinuationState(task: site.thread.task)
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.threads[site.index].frames.append(Frame(block: body, role: .inlineBody))
            return .moves(.startsContinuation(id), advancesPC: false)
        case .resumeHeld(let held):
            switch try evaluate(held, for: site.thread, in: state) {
            case .nilValue:
                state.threads[site.index].frames[site.frameIndex].pc += 1
                return .moves(.skipsNilResume, advancesPC: false)
            case .continuation(let index):
                return try continuationStep(ContinuationID(index: index), .resume(nil), at: site, in: &state)
            case let other:
                throw .undefined("resume of \(other), which is no continuation")
            }
        case .resume(let value):
            guard !state.continuations[id.index].resumed else { throw .runtime(.continuationResumedTwice) }
            state.continuations[id.index].resumed = true
            state.continuations[id.index].value = try value.map { expression throws(EvaluationError) in
                try evaluate(expression, for: site.thread, in: state)
            }
            var woken: Int?
            if state.continuations[id.index].waiting, let task = state.continuations[id.index].task {
                state.continuations[id.index].waiting = false
                // A task that waits on an actor comes back through the global executor, whose
                // thread then moves it to the actor (as after a yield): swiftc, a main-actor
                // caller that awaited the same actor's method again went in ahead of the task
                // its first call resumed in 100 of 100 runs. The main actor's comes straight back.
                let isolation = state.tasks[task].isolation
                let back: Isolation = if case .actor = isolation { .generic } else { isolation }
                enqueueJob(task, on: queue(for: back), in: &state)
                woken = task
            }
            return .moves(.resumesContinuation(id, wakes: woken), advancesPC: true)
        }
    }
}

extension Semantics {
    /// Tasks suspended for good: no job of theirs waits on an executor and no timer will wake
    /// them, each with what it awaits and where.
    func suspendedTasks(in state: MachineState) -> [StuckFact] {
        var queued: Set<Int> = []
        for queue in state.queues {
            for case .job(let task) in queue.pending { queued.insert(task) }
        }
        var facts: [StuckFact] = []
        for (index, task) in state.tasks.enumerated() where !task.finished && !task.frames.isEmpty && !queued.contains(index) {
            guard !state.taskTimers.contains(where: { $0.task == index }), let frame = task.frames.last else { continue }
            let statements = program[frame.block].statements
            guard statements.indices.contains(frame.pc) else { continue }
            let statement = statements[frame.pc]
            let wait: TaskWait
            switch statement.action {
            case .suspend(.continuation(let id, _)): wait = .continuation(id)
            case .suspend(.groupNext(let next)): wait = .group(next.group)
            case .suspend(.groupWaitAll(let group)): wait = .group(group)
            case .suspend(.streamNext(let next)): wait = .stream(next.stream)
            case .suspend(.value(let handle, _)):
                let holder = ThreadState(id: -1, frames: task.frames)
                guard case .int(let target)? = value(of: handle, for: holder, in: state) else { continue }
                wait = .taskValue(target)
            default: continue
            }
            facts.append(.taskWaits(task: index, wait, line: statement.span.line))
        }
        return facts
    }
}
