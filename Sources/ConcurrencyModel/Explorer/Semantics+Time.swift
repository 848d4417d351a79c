/// The model's rules for time: timers (`asyncAfter`), sleeps, waits with a timeout, the clock.
extension Semantics {
    /// The earliest future time at which something happens: a timer, a wake-up, a timeout, the
    /// tick at which a pool's monitor may add a thread for work that waits.
    func nextEventTime(in state: MachineState) -> Int? {
        var times = state.timers.map(\.due) + state.taskTimers.map(\.due) + sourceDeadlines(in: state)
        for thread in state.threads {
            if let until = thread.sleepUntil { times.append(until) }
            if let deadline = thread.waitDeadline { times.append(deadline) }
        }
        if let tick = nextPoolTick(in: state) { times.append(tick) }
        return times.filter { $0 > state.now }.min()
    }

    /// A timer, a sleep or a timeout still to come (the pool monitor's ticks aside).
    func hasTimedEventAhead(in state: MachineState) -> Bool {
        state.timers.contains { $0.due > state.now } || state.taskTimers.contains { $0.due > state.now }
            || sourceDeadlines(in: state).contains { $0 > state.now }
            || state.threads.contains { ($0.sleepUntil ?? .min) > state.now || ($0.waitDeadline ?? .min) > state.now }
    }

    func fire(_ index: Int, in state: MachineState) -> Result {
        var state = state
        let timer = state.timers.remove(at: index)
        if let item = timer.workItem {
            state.enqueue(on: timer.queue, .async(timer.body, captures: [:], barrier: program.workItems[item.index].barrier, group: nil, task: .workItem(item)))
        } else {
            state.enqueue(on: timer.queue, .async(timer.body, captures: timer.captures, barrier: false, group: nil, task: nil))
        }
        return .next(state, ScheduleStep(thread: .timer, queue: nil, event: .timerFires(queue: timer.queue), span: program[timer.body].span))
    }

    func advance(to time: Int, in state: MachineState) -> Result {
        let waiting = queuesWaitingForThreads(in: state)
        var state = state
        state.now = time
        let event: ScheduleStep.Event = waiting.isEmpty
            ? .clock(microseconds: time)
            : .clockWhileWaitingForWorker(microseconds: time, queues: waiting)
        return .next(state, ScheduleStep(thread: .clock, queue: nil, event: event, span: nil))
    }

    /// A delay as the thread computes it now, in microseconds.
    func microseconds(_ delay: Delay, for thread: ThreadState, in state: MachineState) throws(EvaluationError) -> Int {
        if let constant = delay.constant { return max(constant, 0) }
        let globals = state.globals
        return try delay.evaluate({ variable in
            program[variable].isGlobal ? globals[variable.index] : local(variable, of: thread)
        }, longest: Delay.longest)
    }

    func dispatchAfterStep(_ queue: QueueID, _ delay: Delay, _ body: BlockID, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let microseconds = try microseconds(delay, for: site.thread, in: state)
        state.timers.append(TimerEntry(due: state.later(by: microseconds), queue: queue, body: body, captures: visibleLocals(of: site.thread)))
        return .moves(.schedules(queue: queue, microseconds: microseconds), advancesPC: true)
    }

    /// Two steps: falling asleep, then waking once the clock reaches the time.
    func sleepStep(_ delay: Delay, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        if site.thread.sleepUntil == nil {
            let microseconds = try microseconds(delay, for: site.thread, in: state)
            state.threads[site.index].sleepUntil = state.later(by: microseconds)
            return .moves(.sleeps(microseconds: microseconds), advancesPC: false)
        }
        state.threads[site.index].sleepUntil = nil
        return .moves(.wakes, advancesPC: true)
    }

    /// Two steps: starting to wait, then returning when the group or semaphore is available or
    /// the deadline has passed.
    func timedWaitStep(_ waitable: Waitable, _ delay: Delay, _ result: VariableID?, at site: StepSite,
                       in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        if site.thread.waitDeadline == nil {
            let microseconds = try microseconds(delay, for: site.thread, in: state)
            state.threads[site.index].waitDeadline = state.later(by: microseconds)
            return .moves(.waitsWithTimeout(microseconds: microseconds), advancesPC: false)
        }
        state.threads[site.index].waitDeadline = nil
        let success = isAvailable(waitable, in: state)
        if success, case .semaphore(let semaphore) = waitable { state.semaphores[semaphore.index] -= 1 }
        if let result {
            let value = Waitable.result(timedOut: !success)
            if program[result].isGlobal { state.globals[result.index] = value } else { setLocal(result, value, thread: site.index, in: &state) }
        }
        return .moves(.waitEnds(timedOut: !success), advancesPC: true)
    }
}
