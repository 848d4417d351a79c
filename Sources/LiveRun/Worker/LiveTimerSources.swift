import ConcurrencyModel
import Foundation

/// The snippet's timer sources on the real libdispatch: one `DispatchSourceTimer` per
/// `makeTimerSource`, made afresh each run with the queue the snippet gave it. The interpreter
/// only keeps the books: a source counts as outstanding work (and as a timer that ends by
/// itself) while it may still run a handler, so that the run is not over before it has.
final class LiveTimerSources: @unchecked Sendable {
    let sources: [DispatchSourceTimer]
    private let lock = RunnableLock()
    private var books: [Books]

    private struct Books {
        var active = false
        var cancelled = false
        var scheduled = false
        var repeating = false
        /// A one-shot timer whose handler has run: it will not fire again unless rescheduled.
        var spent = false
        var hasEventHandler = false
        /// Cancelled with a cancel handler that has not run yet.
        var cancelHandlerDue = false
        var hasCancelHandler = false
        /// Counted as outstanding work.
        var booked = false

        /// Whether a handler of the source may still run.
        var mayRunHandler: Bool {
            active && ((!cancelled && scheduled && !spent && hasEventHandler) || (cancelled && cancelHandlerDue))
        }
    }

    init(program: Program, queues: [DispatchQueue]) {
        sources = program.timerSources.map { DispatchSource.makeTimerSource(queue: queues[$0.target.index]) }
        // libdispatch crashes when a source is released while inactive or suspended; a real
        // program keeps its timers in globals until it exits, so these live on too.
        sources.forEach { _ = Unmanaged.passRetained($0 as AnyObject) }
        books = Array(repeating: Books(), count: program.timerSources.count)
    }

    /// Runs one statement on a timer source.
    func perform(_ action: TimerAction, on id: TimerSourceID, _ locals: [VariableID: Value], in interpreter: LiveInterpreter) {
        let source = sources[id.index]
        let target = interpreter.program[id].target
        switch action {
        case .schedule(let deadline, let repeating):
            let microseconds = interpreter.microseconds(deadline, locals)
            let interval = repeating.map { interpreter.microseconds($0, locals) }
            interpreter.expect(microseconds)
            update(id, interpreter) {
                $0.scheduled = true
                $0.spent = false
                $0.repeating = interval != nil
            }
            if let interval {
                source.schedule(deadline: .now() + LiveInterpreter.scaled(microseconds), repeating: LiveInterpreter.scaled(interval))
            } else {
                source.schedule(deadline: .now() + LiveInterpreter.scaled(microseconds))
            }
        case .setEventHandler(let body):
            update(id, interpreter) { $0.hasEventHandler = true }
            source.setEventHandler(handler: handler(body, captured: locals, on: target, of: id, cancel: false, in: interpreter))
        case .setCancelHandler(let body):
            update(id, interpreter) { $0.hasCancelHandler = true }
            source.setCancelHandler(handler: handler(body, captured: locals, on: target, of: id, cancel: true, in: interpreter))
        case .activate:
            update(id, interpreter) { $0.active = true }
            source.activate()
        case .cancel:
            update(id, interpreter) {
                if !$0.cancelled { $0.cancelHandlerDue = $0.hasCancelHandler }
                $0.cancelled = true
            }
            source.cancel()
        }
    }

    /// A handler as libdispatch runs it on the target queue: booked as a block of that queue
    /// while it runs; a one-shot timer is spent once its handler has run, and a cancel handler
    /// is the source's last.
    private func handler(_ body: BlockID, captured: [VariableID: Value], on queue: QueueID, of id: TimerSourceID, cancel: Bool,
                         in interpreter: LiveInterpreter) -> DispatchWorkItem {
        DispatchWorkItem { [self, interpreter] in
            let monitor = interpreter.monitor
            monitor.workSubmitted()
            monitor.started(nil, on: queue, barrier: false)
            var inner = captured
            interpreter.execute(body, &inner)
            monitor.finished(on: queue, barrier: false)
            update(id, interpreter) { books in
                if cancel { books.cancelHandlerDue = false } else if !books.repeating { books.spent = true }
            }
            if monitor.workDone() { LiveInterpreter.wakeMainThread() }
        }
    }

    /// Changes a source's books, then counts it as outstanding work (and a pending timer) or no
    /// longer, as whether a handler of it may still run says.
    private func update(_ id: TimerSourceID, _ interpreter: LiveInterpreter, _ change: (inout Books) -> Void) {
        let (book, release) = lock.withLock { () -> (Bool, Bool) in
            change(&books[id.index])
            let should = books[id.index].mayRunHandler
            defer { books[id.index].booked = should }
            return (should && !books[id.index].booked, !should && books[id.index].booked)
        }
        let monitor = interpreter.monitor
        if book {
            monitor.workSubmitted()
            monitor.timerSet()
        }
        if release {
            monitor.timerEnded()
            if monitor.workDone() { LiveInterpreter.wakeMainThread() }
        }
    }
}
