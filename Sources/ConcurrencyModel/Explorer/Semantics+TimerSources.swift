/// The model's rules for timer sources (`DispatchSource.makeTimerSource(queue:)`), as
/// libdispatch has them (swift-corelibs-libdispatch, `src/source.c`, `src/event/event.c`):
///
/// - A source is made inactive, like a queue made `.initiallyInactive`: until `resume()` (or
///   `activate()`) its timer is not armed and nothing of it runs.
/// - Each source is a serial queue of its own that targets the queue it was given: its event
///   handler and cancel handler run there, one at a time (`TimerSourceDecl.queue`).
/// - When the clock reaches the deadline the timer fires: unless its event handler is still
///   waiting to run from an earlier fire (then the fires merge into that one run: libdispatch
///   adds them to the source's pending data, `_dispatch_source_latch_and_call`), the handler
///   joins the source's queue. A repeating timer's next deadline is the next multiple of its
///   interval after the last one; a one-shot timer is done.
/// - `cancel()` stops the timer: an event handler not yet started never runs (the source only
///   delivers pending data while it is not cancelled), one already running goes on, and the
///   cancel handler joins the source's queue, so it runs after the event handler has returned.
///   A source cancelled before it was resumed delivers its cancel handler once resumed.
/// - The leeway is ignored: it only lets the system fire later, and the model's code takes no time.
extension Semantics {
    /// Whether the source's timer is armed: running, not cancelled, and scheduled.
    func isArmed(_ source: Int, in state: MachineState) -> Bool {
        let timer = state.timerSources[source]
        return !timer.cancelled && timer.due != nil && !state.inactive[program.timerSources[source].queue.index]
    }

    /// The deadlines of the armed timers.
    func sourceDeadlines(in state: MachineState) -> [Int] {
        state.timerSources.indices.compactMap { isArmed($0, in: state) ? state.timerSources[$0].due : nil }
    }

    func timerStep(_ source: TimerSourceID, _ action: TimerAction, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let decl = program[source]
        switch action {
        case .schedule(let deadline, let repeating):
            let microseconds = try self.microseconds(deadline, for: site.thread, in: state)
            var interval: Int?
            if let repeating {
                interval = try self.microseconds(repeating, for: site.thread, in: state)
                if interval == 0 { throw .undefined("a repeating timer with an interval of 0") }
            }
            state.timerSources[source.index].due = state.later(by: microseconds)
            state.timerSources[source.index].interval = interval
            return .moves(.timerScheduled(source: source, microseconds: microseconds, repeating: interval), advancesPC: true)
        case .setEventHandler(let body):
            state.timerSources[source.index].handler = CapturedBlock(body: body, captures: visibleLocals(of: site.thread))
            return .moves(.timerHandlerSet(source: source, cancel: false), advancesPC: true)
        case .setCancelHandler(let body):
            state.timerSources[source.index].cancelHandler = CapturedBlock(body: body, captures: visibleLocals(of: site.thread))
            return .moves(.timerHandlerSet(source: source, cancel: true), advancesPC: true)
        case .activate:
            state.inactive[decl.queue.index] = false
            state.wakeTarget(of: decl.queue)
            return .moves(.timerActivated(source: source), advancesPC: true)
        case .cancel:
            guard !state.timerSources[source.index].cancelled else {
                return .moves(.timerCancelled(source: source, again: true), advancesPC: true)
            }
            state.timerSources[source.index].cancelled = true
            state.timerSources[source.index].due = nil
            if let handler = state.timerSources[source.index].cancelHandler {
                state.enqueue(on: decl.queue, .async(handler.body, captures: handler.captures, barrier: false, group: nil, task: nil))
            }
            return .moves(.timerCancelled(source: source, again: false), advancesPC: true)
        }
    }

    /// The timer is due: its event handler joins the source's queue, unless one is waiting
    /// there already; a repeating timer is armed again for its next deadline.
    func fireSource(_ index: Int, in state: MachineState) -> Result {
        var state = state
        let decl = program.timerSources[index]
        let timer = state.timerSources[index]
        guard let due = timer.due else { preconditionFailure("only an armed timer fires") }
        if let interval = timer.interval {
            let periods = (state.now - due) / interval + 1
            let (next, overflow) = due.addingReportingOverflow(periods.multipliedReportingOverflow(by: interval).partialValue)
            state.timerSources[index].due = overflow ? Int.max : next
        } else {
            state.timerSources[index].due = nil
        }
        let source = TimerSourceID(index: index)
        let waiting = state.queues[decl.queue.index].pending.contains { item in
            if case .async(_, _, _, _, .timerEvent(index)?) = item { true } else { false }
        }
        let event: ScheduleStep.Event
        if waiting {
            event = .timerSourceMerges(source: source)
        } else if let handler = timer.handler {
            state.enqueue(on: decl.queue, .async(handler.body, captures: handler.captures, barrier: false, group: nil, task: .timerEvent(index)))
            event = .timerSourceFires(source: source, queue: decl.target)
        } else {
            event = .timerSourceMerges(source: source)
        }
        return .next(state, ScheduleStep(thread: .timer, queue: nil, event: event, span: timer.handler.flatMap { program[$0.body].span }))
    }

    /// An event handler whose source was cancelled after it joined the queue: taken and skipped.
    func skipCancelledHandler(of index: Int, on queue: QueueID, in state: MachineState) -> Result {
        var state = state
        _ = state.queues[queue.index].removeFirst()
        endDrainIfEmpty(queue, in: &state)
        return .next(state, ScheduleStep(thread: .libdispatch, queue: queue, event: .timerHandlerSkipped(source: TimerSourceID(index: index)), span: nil))
    }
}

/// A timer source while the program runs.
struct TimerSourceState: Hashable {
    /// The next deadline (logical microseconds), once scheduled; nil for a one-shot timer that
    /// has fired, and once cancelled.
    var due: Int?
    /// A repeating timer's interval, in microseconds.
    var interval: Int?
    var handler: CapturedBlock?
    var cancelHandler: CapturedBlock?
    var cancelled = false
}
