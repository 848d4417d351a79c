import ConcurrencyModel
import Foundation

/// Whether a run kept the time its snippet assumes. Live runs compress time four times, so a
/// thread the machine leaves unscheduled for a few tens of milliseconds can swap events that
/// are 0.1 s apart in the snippet: an order the model rightly forbids, caused by a busy machine,
/// not by libdispatch. Such runs are marked late; an outcome only late runs showed is not a bug.
/// Only snippets that sleep, set timers or wait with a timeout are watched: nothing else
/// depends on time.
enum Punctuality {
    /// Longer than this between two instant statements of one thread, past a sleep's end, past
    /// the watchdog's own nap, or a thread of the run kept from a core (`RunQueueHolds`), and
    /// the run is late.
    static let tolerance: UInt64 = 10_000_000
}

extension Action {
    /// The statement itself takes no time in the model (it does not wait, sleep or run a body
    /// of its own), so a long gap around it means the machine did not run the thread.
    var isInstant: Bool {
        switch self {
        case .print, .assign, .dispatch(_, .async, _, _), .dispatchAfter, .semaphore(_, .signal), .activate, .queueSetting, .precondition,
             .group(_, .enter), .group(_, .leave), .group(_, .notify),
             .workItem(_, .submit), .workItem(_, .submitAfter), .workItem(_, .cancel), .workItem(_, .notify),
             .operation(_, .create), .operation(_, .addBlock), .operation(_, .addDependency), .operation(_, .setCompletion),
             .operation(_, .setPriority), .operation(_, .cancel),
             .operationQueue(_, .add), .operationQueue(_, .addBlock), .operationQueue(_, .setMaxConcurrent),
             .operationQueue(_, .setSuspended), .operationQueue(_, .cancelAll), .returns, .exitLoop, .spawn, .cancellation, .taskLocal, .continuation(_, .resume), .continuation(_, .resumeHeld),
             .stream(_, .yield), .stream(_, .finish), .stream(_, .fail), .timer, .throwing:
            true
        case .dispatch(_, .sync, _, _), .loop, .whileLoop, .branch, .group(_, .wait), .semaphore(_, .wait), .sleep, .timedWait,
             .workItem(_, .perform), .workItem(_, .wait), .concurrentPerform, .call, .operation(_, .waitUntilFinished), .operation(_, .start),
             .operationQueue(_, .waitFor), .operationQueue(_, .waitUntilAllFinished), .suspend, .hop, .withTaskGroup, .continuation(_, .start), .stream(_, .start), .handles:
            false
        }
    }
}
