/// The model's rules for `AsyncStream` (SE-0314, swiftlang/swift `AsyncStreamBuffer.swift`, and
/// swiftc runs pinned in `SwiftConcurrencyTests`, `StreamBufferingTests`): the build closure runs
/// at once where the stream is made; `yield` hands the element to the task waiting in `for await`,
/// which resumes through a job on the executor it waits on (its continuation's resume), or else
/// appends it to the buffer as the stream's policy allows (nothing once finished); `for await`
/// takes the buffered elements in order, ends once the stream is finished and empty, and
/// otherwise suspends until the next `yield` or `finish`. The iterator's `next()` is a
/// nonisolated async function (`await context.produce()`), so a loop on an actor leaves it for
/// the global executor for each element and comes back (measured: a main-actor task's loop over
/// a full stream let a main-queue block queued before it print first in 200 of 200 runs).
/// Leaving the loop early (`break`) drops only its iterator: the stream keeps its buffer and
/// takes later yields (`AsyncStream.swift`: the iterator and the stream share one `_Context`,
/// whose deinit cancels the storage only once both are gone).
extension Semantics {
    func streamStep(_ id: StreamID, _ action: StreamAction, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        switch action {
        case .start(let body):
            state.streams[id.index] = StreamState()
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.threads[site.index].frames.append(Frame(block: body, role: .inlineBody))
            return .moves(.startsStream(id), advancesPC: false)
        case .yield(let expression):
            let value = try evaluate(expression, for: site.thread, in: state)
            guard !state.streams[id.index].finished else { return .moves(.streamYields(id, value: value, wakes: nil, fate: .terminated), advancesPC: true) }
            // A task waiting for the element gets it, whatever the policy: it is not buffered.
            if state.streams[id.index].waiter != nil {
                state.streams[id.index].buffer.append(value)
                state.streams[id.index].handedOver = true
                return .moves(.streamYields(id, value: value, wakes: wakeStreamWaiter(id, in: &state), fate: .enqueued), advancesPC: true)
            }
            return .moves(.streamYields(id, value: value, wakes: nil, fate: buffer(value, in: id, in: &state)), advancesPC: true)
        case .finish:
            let already = state.streams[id.index].finished
            state.streams[id.index].finished = true
            return .moves(.streamFinishes(id, wakes: already ? nil : wakeStreamWaiter(id, in: &state)), advancesPC: true)
        case .fail(let expression):
            guard case .error(let error) = try evaluate(expression, for: site.thread, in: state) else {
                throw .undefined("a stream finished with a value that is not an error")
            }
            guard !state.streams[id.index].finished else { return .moves(.streamFails(id, error: nil, wakes: nil), advancesPC: true) }
            state.streams[id.index].finished = true
            state.streams[id.index].failure = error
            return .moves(.streamFails(id, error: error, wakes: wakeStreamWaiter(id, in: &state)), advancesPC: true)
        }
    }

    /// `yield` with nobody waiting: the element joins the buffer, unless the policy's limit is
    /// reached (`_Storage.yield`: `count < limit` appends; otherwise `bufferingOldest` drops the
    /// new element and `bufferingNewest` the oldest buffered one, or the new one with a limit of 0).
    private func buffer(_ value: Value?, in id: StreamID, in state: inout MachineState) -> ScheduleStep.StreamYieldFate {
        let handed = state.streams[id.index].handedOver ? 1 : 0
        let count = state.streams[id.index].buffer.count - handed
        switch program[id].policy {
        case .unbounded:
            break
        case .bufferingOldest(let limit):
            if count >= limit { return .droppedNew }
        case .bufferingNewest(let limit):
            if count >= limit {
                guard count > 0 else { return .droppedNew }
                let oldest = state.streams[id.index].buffer.remove(at: handed)
                state.streams[id.index].buffer.append(value)
                return .droppedOldest(oldest)
            }
        }
        state.streams[id.index].buffer.append(value)
        return .enqueued
    }

    /// The task waiting for the stream's next element resumes on the executor it waits on.
    private func wakeStreamWaiter(_ id: StreamID, in state: inout MachineState) -> Int? {
        guard let task = state.streams[id.index].waiter else { return nil }
        state.streams[id.index].waiter = nil
        enqueueJob(task, on: queue(for: state.tasks[task].isolation), in: &state)
        return task
    }

    /// A task cancelled inside a stream's `next()` (waiting, or woken and not yet back): the
    /// cancellation handler `next()` registers finishes the stream (`_Storage.cancel`: the
    /// `onTermination` handler, then `finish()`), so the task resumes, takes what is buffered,
    /// and the loop ends; later yields are dropped.
    func cancelStreamNext(of task: Int, in state: inout MachineState) {
        for s in state.streams.indices where state.streams[s].inNext == task && !state.streams[s].finished {
            state.streams[s].finished = true
            _ = wakeStreamWaiter(StreamID(index: s), in: &state)
        }
    }

    /// `for await v in stream`: the next buffered element and the loop's body (the statement
    /// runs again after it), the end once finished and empty, or a suspension until one comes.
    /// A task already cancelled when it calls `next()` finishes the stream first
    /// (`withTaskCancellationHandler` runs the handler at once): it still takes what is buffered.
    func streamNextStep(_ next: StreamNext, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        guard let task = site.thread.task else { throw .undefined("an await outside a task") }
        let s = next.stream.index
        // next() runs on the global executor: code on an actor leaves it first (the statement
        // runs again there), and the loop's end comes back to it.
        if state.tasks[task].isolation != .generic {
            if state.tasks[task].isolation != .mainActor {
                releaseExecutor(of: task, in: &state)
                state.tasks[task].isolation = .generic
                return .moves(.switchesTo(.generic), advancesPC: false)
            }
            suspend(task, thread: site.index, in: &state)
            state.tasks[task].isolation = .generic
            enqueueJob(task, on: queue(for: .generic), in: &state)
            return .ends(.next(state, ScheduleStep(thread: site.thread.threadID, queue: site.queue, event: .hopsTo(.generic), span: site.statement.span)))
        }
        // Back from `next()` (or never waiting in it) once this step is over.
        state.streams[s].inNext = nil
        if state.tasks[task].cancelled { state.streams[s].finished = true }
        if !state.streams[s].buffer.isEmpty {
            let element = state.streams[s].buffer.removeFirst()
            state.streams[s].handedOver = false
            if let result = next.result, let element { assign(result, element, thread: site.index, in: &state) }
            // The body is a loop's (`whileBody`): `break` leaves the loop, `continue` takes the next element.
            state.threads[site.index].frames.append(Frame(block: next.body, role: .whileBody))
            return .moves(.takesElement(next.stream, value: element), advancesPC: false)
        }
        if state.streams[s].finished {
            // An error the stream was finished with is thrown on by the statement after the loop
            // (`ThrowAction.pending`), once back on the loop's executor.
            if let failure = state.streams[s].failure { state.threads[site.index].frames[site.frameIndex].pendingError = failure }
            if next.isolation != .generic { return try hopStep(next.isolation, at: site, in: &state) }
            if let failure = state.streams[s].failure { return .moves(.streamThrows(next.stream, error: failure), advancesPC: true) }
            return .moves(.streamEnds(next.stream), advancesPC: true)
        }
        if let other = state.streams[s].waiter, other != task { throw .undefined("two tasks wait for the next element of one AsyncStream at once") }
        state.streams[s].waiter = task
        state.streams[s].inNext = task
        suspend(task, thread: site.index, in: &state)
        return .ends(.next(state, ScheduleStep(thread: site.thread.threadID, queue: site.queue, event: .awaitsStream(next.stream),
                                               span: site.statement.span)))
    }
}
