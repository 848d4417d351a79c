/// When the parent gives up on a run in progress. A run is killed `margin` after its last sign
/// of progress (a line printed, a call made, the worker's heartbeat while the snippet's code runs)
/// or after what its own sleeps, timers and waits for the thread pool take, whichever is later:
/// so the limit grows with the output and the jitter, and a run that goes silent is a `timeout`.
/// Signs of progress move the limit only up to `longest` after the run began (its own time moves
/// that too): a run still making progress there is too slow to finish, not a hang.
struct RunDeadline: Equatable {
    let margin: UInt64
    let longest: UInt64
    let began: UInt64
    /// Past this, the run is killed.
    private(set) var deadline: UInt64
    /// Progress moves `deadline` up to here, and no further.
    private(set) var ceiling: UInt64
    private(set) var lastSign: UInt64

    /// Times in nanoseconds of the uptime clock.
    init(began: UInt64, margin: UInt64, longest: UInt64) {
        self.margin = margin
        self.longest = max(longest, margin)
        self.began = began
        deadline = began + margin
        ceiling = began + self.longest
        lastSign = began
    }

    /// A sign that the run is going on.
    mutating func progressed(at now: UInt64) {
        lastSign = max(lastSign, now)
        deadline = max(deadline, min(now + margin, ceiling))
    }

    /// The run will go on for `own` nanoseconds more by its own doing (a sleep, a timer, the
    /// thread pool), which is never cut short; 0 is the worker's heartbeat, a sign of progress.
    mutating func expect(_ own: UInt64, at now: UInt64) {
        progressed(at: now)
        guard own > 0 else { return }
        deadline = max(deadline, now + own + margin)
        ceiling = max(ceiling, now + own + longest)
    }

    func isPast(at now: UInt64) -> Bool { now > deadline }

    /// Whether a run killed at `killedAt` was still showing progress: it reached the longest a
    /// run may take rather than going silent.
    func wasProgressing(at killedAt: UInt64) -> Bool {
        killedAt - min(lastSign, killedAt) < margin
    }
}
