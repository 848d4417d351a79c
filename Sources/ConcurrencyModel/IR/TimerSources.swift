/// `DispatchSource.makeTimerSource(queue:)` and what a snippet does with the timer. A timer
/// source is, as in libdispatch (`src/source.c`), a serial queue of its own that targets the
/// queue it was made with: its event and cancel handlers run there one at a time, so the cancel
/// handler runs after an event handler that is running. The queue starts inactive: a source
/// that is never resumed (or activated) never fires.
public struct TimerSourceID: Hashable, Sendable, Codable {
    public let index: Int
    public init(index: Int) { self.index = index }
}

public struct TimerSourceDecl: Hashable, Sendable, Codable {
    public var name: String
    /// The source's own hidden serial queue, initially inactive, targeting `target`.
    public var queue: QueueID
    /// The queue given to `makeTimerSource(queue:)`: where the handlers run.
    public var target: QueueID
    public var span: SourceSpan

    public init(name: String, queue: QueueID, target: QueueID, span: SourceSpan) {
        self.name = name
        self.queue = queue
        self.target = target
        self.span = span
    }
}

public enum TimerAction: Hashable, Sendable, Codable {
    /// `schedule(deadline: .now() + d)` (once) or `schedule(deadline:repeating:)`. The leeway is
    /// ignored (it only lets the system fire later; the model's code takes no time).
    case schedule(deadline: Delay, repeating: Delay?)
    case setEventHandler(BlockID)
    case setCancelHandler(BlockID)
    /// `resume()` or `activate()`: the source starts; its timer is armed once scheduled.
    case activate
    /// Stops the timer: no further event handler runs (one running goes on), and the cancel
    /// handler, if any, runs on the target queue after it.
    case cancel
}

extension Program {
    public subscript(source: TimerSourceID) -> TimerSourceDecl { timerSources[source.index] }
}
