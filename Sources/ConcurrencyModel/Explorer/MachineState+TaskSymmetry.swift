/// Symmetry reduction over tasks. Five children a loop adds to a group with the same body are
/// interchangeable: a state where child 3 waits on the actor's queue and child 4 runs is, for
/// everything that can happen next, the state where child 4 waits and child 3 runs, with the
/// two numbers swapped. Without this the search visits every such relabelling (about twelve
/// times the states per child: five children of `await counter.increment()` did not finish
/// within the budget).
///
/// The rules read a task only through its number as stored in the state (a thread's `task`, a
/// frame's role, a job on a queue, a group's lists, a continuation's or a stream's waiter, a
/// sleep's timer, a child's `parent`, a task's `waiters`) and never compare two numbers, so
/// renumbering tasks everywhere at once gives a state that behaves the same. One rule does
/// depend on their order: a cancellation wakes the sleepers it cancels one after another, a
/// group's children in the order they were added and other children in the order of their
/// numbers, and on a narrow machine the first woken starts first. So a program that may cancel a
/// task (`cancel()`, `cancelAll()`, an error that leaves a group's body or ends a child) keeps
/// every task's number (`Program.mayCancelTasks`). Only tasks no
/// variable names are renumbered (a kept `let t = Task { }` and an async let keep theirs: their
/// numbers live in variables as plain values), and only among tasks of one origin, so the words
/// "task 3" in a deadlock's reason still mean a task running the code task 3 runs.
extension MachineState {
    /// The state with the unnamed tasks of each origin (one `Task { }` or `addTask { }` statement
    /// of one parent, in one group) numbered in order of what they are doing (their own parts
    /// and, while a thread runs one, that thread's frames), and among equals in the order the
    /// state first mentions them (threads, then queues, groups, continuations, streams, timers,
    /// other tasks).
    func withInterchangeableTasksOrdered() -> MachineState {
        guard tasks.count > 2, tasksInterchangeable else { return self }
        var candidates: [(origin: Origin, index: Int)] = []
        for index in 1..<tasks.count where !tasks[index].named {
            candidates.append((Origin(body: tasks[index].body.index, parent: tasks[index].parent ?? -1, group: tasks[index].group ?? -1), index))
        }
        guard candidates.count > 1 else { return self }
        candidates.sort { ($0.origin, $0.index) < ($1.origin, $1.index) }
        var rank: [Int]?
        var renamed: [Int]?
        var start = 0
        while start < candidates.count {
            var end = start + 1
            while end < candidates.count && candidates[end].origin == candidates[start].origin { end += 1 }
            if end - start > 1 {
                let members = candidates[start..<end].map(\.index)
                let mentions = rank ?? firstMentions()
                rank = mentions
                let keyed = members.map { (shape: shapeHash(of: $0), mention: mentions[$0], index: $0) }
                let ordered = keyed.sorted { ($0.shape, $0.mention, $0.index) < ($1.shape, $1.mention, $1.index) }.map(\.index)
                for (slot, task) in zip(members, ordered) where slot != task {
                    if renamed == nil { renamed = Array(tasks.indices) }
                    renamed![task] = slot
                }
            }
            start = end
        }
        guard let renamed else { return self }
        var state = self
        state.renumberTasks(renamed)
        return state
    }

    /// Where a task comes from: its body, and the parent and group it was made in (-1: none).
    private struct Origin: Equatable, Comparable {
        var body: Int
        var parent: Int
        var group: Int

        static func < (a: Origin, b: Origin) -> Bool { (a.body, a.parent, a.group) < (b.body, b.parent, b.group) }
    }

    /// A hash of what the task is doing, apart from its number: its own parts and, while a
    /// thread runs it, that thread's frames (the frames' roles, which hold the task's number,
    /// left out).
    private func shapeHash(of index: Int) -> Int {
        var h = StateHasher()
        let task = tasks[index]
        switch task.isolation {
        case .generic: h.add(-1)
        case .mainActor: h.add(-2)
        case .actor(let queue): h.add(queue.index)
        }
        h.add(task.priority)
        h.add(task.result)
        h.add(task.parent)
        h.add(task.group)
        h.add(task.waiters.count)
        h.add((task.finished ? 1 : 0) | (task.cancelled ? 2 : 0) | (task.sleepCancelled ? 4 : 0))
        func add(_ frames: [Frame]) {
            h.add(frames.count)
            for frame in frames {
                h.add(frame.block.index)
                h.add(frame.pc)
                h.add(frame.locals)
            }
        }
        add(task.frames)
        if let thread = threads.first(where: { $0.task == index }) { add(thread.frames) } else { h.add(-1) }
        return Int(truncatingIfNeeded: h.value)
    }

    /// Each task's place in the order the state first mentions it (`Int.max`: not mentioned).
    private func firstMentions() -> [Int] {
        var rank = Array(repeating: Int.max, count: tasks.count)
        var next = 0
        func mention(_ task: Int?) {
            guard let task, rank[task] == .max else { return }
            rank[task] = next
            next += 1
        }
        for thread in threads {
            mention(thread.task)
            for frame in thread.frames { if case .task(let task) = frame.role { mention(task) } }
        }
        for queue in queues {
            for case .job(let task) in queue.pending { mention(task) }
        }
        for group in taskGroups {
            group.running.forEach(mention)
            group.finished.forEach(mention)
            mention(group.waiter)
        }
        for continuation in continuations { mention(continuation.task) }
        for stream in streams { mention(stream.waiter) }
        for timer in taskTimers { mention(timer.task) }
        for task in tasks {
            mention(task.parent)
            task.waiters.forEach(mention)
        }
        return rank
    }

    /// Gives task `old` the number `renamed[old]`, everywhere the state holds a task's number
    /// (a permutation). Each part is rewritten only where a number in it changes.
    private mutating func renumberTasks(_ renamed: [Int]) {
        func frames(_ frames: [Frame]) -> [Frame]? {
            guard frames.contains(where: { if case .task(let task) = $0.role { renamed[task] != task } else { false } }) else { return nil }
            return frames.map { frame in
                guard case .task(let task) = frame.role else { return frame }
                var moved = frame
                moved.role = .task(renamed[task])
                return moved
            }
        }
        let old = tasks
        for index in old.indices {
            var task = old[index]
            task.parent = task.parent.map { renamed[$0] }
            task.waiters = task.waiters.map { renamed[$0] }
            if let moved = frames(task.frames) { task.frames = moved }
            tasks[renamed[index]] = task
        }
        for t in threads.indices {
            if let task = threads[t].task, renamed[task] != task { threads[t].task = renamed[task] }
            if let moved = frames(threads[t].frames) { threads[t].frames = moved }
        }
        for q in queues.indices where queues[q].pending.contains(where: { if case .job(let task) = $0 { renamed[task] != task } else { false } }) {
            queues[q].mapItems { item in
                if case .job(let task) = item { return .job(task: renamed[task]) }
                return item
            }
        }
        let groups = taskGroups.map { group in
            var group = group
            group.running = group.running.map { renamed[$0] }
            group.finished = group.finished.map { renamed[$0] }
            group.waiter = group.waiter.map { renamed[$0] }
            return group
        }
        if groups != taskGroups { taskGroups = groups }
        let suspended = continuations.map { continuation in
            var continuation = continuation
            continuation.task = continuation.task.map { renamed[$0] }
            return continuation
        }
        if suspended != continuations { continuations = suspended }
        let waiting = streams.map { stream in
            var stream = stream
            stream.waiter = stream.waiter.map { renamed[$0] }
            return stream
        }
        if waiting != streams { streams = waiting }
        for index in taskTimers.indices where renamed[taskTimers[index].task] != taskTimers[index].task {
            taskTimers[index].task = renamed[taskTimers[index].task]
        }
    }
}

extension Program {
    /// Whether some task may be cancelled: by `cancel()` or `cancelAll()`, or by an error (a
    /// `throw`, a continuation resumed or a stream finished, possibly with an error) that leaves
    /// a group's body. Told from the statements alone, erring towards yes.
    var mayCancelTasks: Bool {
        containsStatement { statement in
            switch statement.action {
            case .cancellation(let action):
                switch action {
                case .cancelTask, .cancelGroup: true
                case .read, .check, .addHandler, .removeHandler: false
                }
            case .throwing(let action):
                switch action {
                case .value: true
                // Only after a cancellation.
                case .pending, .sleepCancelled: false
                }
            case .stream(_, let action):
                switch action {
                case .fail: true
                case .start, .yield, .finish: false
                }
            case .continuation(_, let action):
                switch action {
                case .resume(let value): value != nil
                case .resumeHeld: true
                case .start: false
                }
            case .print, .dispatch, .assign, .loop, .whileLoop, .branch, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate,
                .queueSetting, .precondition, .workItem, .concurrentPerform, .call, .returns, .exitLoop, .operation, .operationQueue, .spawn,
                .withTaskGroup, .taskLocal, .timer, .suspend, .hop, .handles:
                false
            }
        }
    }
}
