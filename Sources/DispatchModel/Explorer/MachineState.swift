/// A snapshot of the abstract machine the model runs: threads with their call frames, queues with
/// their pending items, and what has been printed. Hashable so that the search can recognise a
/// state it has already explored (the output is part of the state, so merging is exact).
struct MachineState: Hashable {
    var threads: [ThreadState]
    var queues: [QueueState]
    var output: [String]
    var nextWorker: Int

    static let mainThreadID = 0

    init(program: Program) {
        threads = [ThreadState(id: Self.mainThreadID, frames: [Frame(block: program.entry, pc: 0, role: .topLevel)])]
        queues = Array(repeating: QueueState(), count: program.queues.count)
        output = []
        nextWorker = 1
    }

    func threadIndex(_ id: Int) -> Int? {
        threads.firstIndex { $0.id == id }
    }

    var mainThread: ThreadState { threads[0] }
}

struct ThreadState: Hashable {
    let id: Int
    /// Innermost last. Empty for the main thread once it is idle (serving the main queue).
    var frames: [Frame]
    /// The queue this thread waits on in a `sync`, until the queue lets it in.
    var waitingOn: QueueID?

    var name: String { id == MachineState.mainThreadID ? "main" : "worker \(id)" }

    var isRunnable: Bool { waitingOn == nil && !frames.isEmpty }

    /// The queue whose item or sync body the thread runs right now, for witnesses.
    var currentQueue: QueueID? {
        frames.last?.role.queue
    }

    /// Whether the thread holds `queue` through one of its frames (an item or a sync body).
    func holds(_ queue: QueueID) -> Bool {
        frames.contains { $0.role.queue == queue }
    }
}

struct Frame: Hashable {
    var block: BlockID
    var pc: Int
    var role: Role

    enum Role: Hashable {
        case topLevel
        /// An `async` item this thread took from the queue.
        case item(QueueID)
        /// The body of a `sync`. `waiter` is the thread blocked in the `sync` when the body runs on
        /// another thread (a `DispatchQueue.main.sync` from a worker runs on the main thread).
        case syncBody(QueueID, waiter: Int?)

        var queue: QueueID? {
            switch self {
            case .topLevel: nil
            case .item(let queue), .syncBody(let queue, _): queue
            }
        }
    }
}

struct QueueState: Hashable {
    var pending: [PendingItem] = []
    /// Items or sync bodies holding the queue right now.
    var active = 0
}

enum PendingItem: Hashable {
    case async(BlockID)
    case sync(thread: Int, body: BlockID)
}
