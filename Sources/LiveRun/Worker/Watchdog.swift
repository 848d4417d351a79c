import CProcessSupport
import Foundation

/// A thread of the batch child that looks at the run's books every millisecond. A run is stuck
/// when the books say so (`StuckAnalysis`) *and* the kernel shows every other thread asleep, twice
/// in a row with nothing booked in between: then nothing can ever wake any of them, so the child
/// says what holds the run and exits (a stuck run cannot be undone). Blocks waiting for a worker
/// thread are a slow pool, not a hang: the child keeps the parent's deadline moving while the pool
/// grows, and gives up only when it stops growing.
final class Watchdog: @unchecked Sendable {
    /// libdispatch on Linux adds a worker to a starved pool about once a second: three seconds
    /// without any block starting means it will not.
    static let poolPatience: UInt64 = 3_000_000_000
    /// However the pool grows, a run waits for it at most this long in all.
    static let poolLimit: UInt64 = 60_000_000_000
    static let heartbeat: UInt64 = 500_000_000

    private let monitor: RunMonitor
    /// Words what holds a hung run.
    private let narration: LiveNarration
    private let output: WorkerOutput
    /// Whether to watch that the machine keeps time (`Punctuality`): the watchdog's own naps
    /// overrun when the machine is too busy to run the run's threads on time.
    private let keepsTime: Bool

    init(monitor: RunMonitor, narration: LiveNarration, output: WorkerOutput, keepsTime: Bool) {
        self.monitor = monitor
        self.narration = narration
        self.output = output
        self.keepsTime = keepsTime
    }

    func start() {
        let thread = Thread { [self] in watch() }
        thread.start()
    }

    private func watch() -> Never {
        let me = gcdquiz_thread_id()
        var candidate: UInt64?
        var pool = PoolWait()
        var lastHeartbeat: UInt64 = 0
        var pause: UInt32 = 1000
        var holds = RunQueueHolds()
        while true {
            let napped = DispatchTime.now().uptimeNanoseconds
            usleep(pause)
            if keepsTime {
                // The machine kept this thread, or one of the run's, from a core.
                let elapsed = DispatchTime.now().uptimeNanoseconds - napped
                let overslept = elapsed - min(elapsed, UInt64(pause) * 1000)
                let held = max(overslept, holds.longest(except: me, window: elapsed))
                if monitor.late(by: held) {
                    output.send(.late(microseconds: Int(held / 1000)))
                }
            }
            // While snippet code runs there is nothing to judge: look less often, and take
            // less of a busy machine from the run's own threads.
            pause = 4000
            let books = monitor.snapshot
            let verdict = StuckAnalysis.verdict(books, operations: Self.facts(books.operations.values))
            let now = DispatchTime.now().uptimeNanoseconds
            if pool.run != books.run { pool = PoolWait(run: books.run) }
            switch verdict {
            case .busy:
                candidate = nil
                pool.pause()
                // Snippet code computing (or pausing for jitter) prints nothing for a while: say
                // that the run is going on, so that the parent does not take the silence for a hang.
                if books.inProgress, books.running > 0, now - lastHeartbeat >= Self.heartbeat, !ThreadStates.allAsleep(except: me) {
                    lastHeartbeat = now
                    output.send(.expect(microseconds: 0))
                }
            case .waitingForTime:
                candidate = nil
                pool.pause()
            case .waitingForWorkers(let blocks):
                candidate = nil
                pause = 1000
                if let reason = pool.waiting(blocks: blocks, generation: books.generation, at: now, output: output) {
                    output.send(.gaveUp(reason))
                    _exit(0)
                }
            case .stuck(let holders):
                pool.pause()
                pause = 1000
                guard !holders.isEmpty, ThreadStates.allAsleep(except: me), monitor.generation == books.generation else {
                    candidate = nil
                    continue
                }
                if candidate == books.generation {
                    output.send(.hung(narration.hung(holders)))
                    _exit(0)
                }
                candidate = books.generation
            }
        }
    }

    /// Foundation's own view of the added operations, read outside the books' lock (Foundation
    /// takes its own locks).
    static func facts(_ operations: some Sequence<RunMonitor.TrackedOperation>) -> [StuckAnalysis.OperationFacts] {
        operations.map { tracked in
            let limit = tracked.queue.maxConcurrentOperationCount
            return StuckAnalysis.OperationFacts(
                operation: tracked.id, line: tracked.line, queue: ObjectIdentifier(tracked.queue), isMainQueue: tracked.isMainQueue,
                isFinished: tracked.operation.isFinished, isExecuting: tracked.operation.isExecuting,
                isReady: tracked.operation.isReady, queueSuspended: tracked.queue.isSuspended,
                queueLimit: limit == OperationQueue.defaultMaxConcurrentOperationCount ? nil : limit)
        }
    }

    /// How long the current run has been waiting for worker threads.
    private struct PoolWait {
        var run = -1
        /// Since when nothing was booked while blocks waited (nil: not waiting now).
        var since: UInt64?
        var generation: UInt64 = 0
        var total: UInt64 = 0
        var lastLook: UInt64?
        var lastHeartbeat: UInt64 = 0

        /// Not waiting for the pool right now.
        mutating func pause() {
            since = nil
            lastLook = nil
        }

        /// Another look while `blocks` wait for a thread; returns why to give up, if it is time.
        mutating func waiting(blocks: Int, generation: UInt64, at now: UInt64, output: WorkerOutput) -> String? {
            if let lastLook { total += now - lastLook }
            lastLook = now
            if since == nil || generation != self.generation {
                since = now
                self.generation = generation
            }
            if now - lastHeartbeat >= Watchdog.heartbeat {
                lastHeartbeat = now
                output.send(.expect(microseconds: Int(Watchdog.poolPatience / 1000)))
            }
            let what = blocks == 1 ? "a block" : "\(blocks) blocks"
            if let since, now - since >= Watchdog.poolPatience {
                return "\(what) waited \(Watchdog.poolPatience / 1_000_000_000) s for a worker thread and none came: the thread pool stopped growing"
            }
            if total >= Watchdog.poolLimit {
                return "\(what) still waiting for a worker thread after \(Watchdog.poolLimit / 1_000_000_000) s of waiting for the thread pool"
            }
            return nil
        }
    }
}
