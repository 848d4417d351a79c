/// The hash the search gives a `MachineState`: one pass over its parts that mixes plain integers
/// (FxHash's rotate, xor and multiply), then one `Hasher` combine of the result. `Hasher`
/// field by field (what `Hashable` synthesizes) spent most of a state's hashing on per-call
/// work for small fields, booleans and optionals' tags. Equality stays the synthesized one,
/// so a weaker hash costs a comparison, never a merged state; a part left out here would only
/// weaken it.
struct StateHasher {
    private(set) var value: UInt64 = 0

    mutating func add(_ word: Int) {
        value = ((value << 5 | value >> 59) ^ UInt64(UInt(bitPattern: word))) &* 0x517C_C1B7_2722_0A95
    }

    mutating func add(_ word: Int?) { add(word ?? .min) }

    mutating func add(_ flag: Bool) { add(flag ? 1 : 0) }

    mutating func add(_ value: Value?) { add(value.map { Int(bitPattern: UInt(truncatingIfNeeded: valueHash($0))) } ?? .min) }

    mutating func add(_ bindings: [VariableID: Value]) { add(bindingsHash(bindings)) }
}

extension ThreadState {
    /// Read in place through the pointer, field by field: a method on an element of a buffer
    /// copied the whole element first (a retain and a release of each of its arrays).
    static func add(_ thread: UnsafePointer<ThreadState>, to h: inout StateHasher) {
        h.add(thread.pointee.id)
        h.add(thread.pointee.frames.count)
        thread.pointee.frames.withUnsafeBufferPointer { frames in
            for frame in frames.indices { Frame.add(frames.baseAddress! + frame, to: &h) }
        }
        h.add(thread.pointee.waitingOn?.index)
        h.add(thread.pointee.pendingWrite)
        h.add(thread.pointee.pendingIndex)
        h.add(thread.pointee.sleepUntil)
        h.add(thread.pointee.waitDeadline)
        h.add(thread.pointee.task)
        h.add((thread.pointee.switching ? 1 : 0) | (thread.pointee.returning ? 2 : 0))
    }
}

extension Frame {
    static func add(_ frame: UnsafePointer<Frame>, to h: inout StateHasher) {
        h.add(frame.pointee.block.index)
        h.add(frame.pointee.pc)
        frame.pointee.role.add(to: &h)
        h.add(frame.pointee.locals)
        Task.add(frame.pointee.task, to: &h)
        h.add(frame.pointee.performing)
        h.add(frame.pointee.isHelper)
        h.add(frame.pointee.startedOperation)
        h.add(frame.pointee.cancellationHandlerOf)
    }
}

extension Frame.Role {
    func add(to h: inout StateHasher) {
        switch self {
        case .topLevel: h.add(0)
        case .item(let queue, let barrier, let group): h.add(1); h.add(queue.index); h.add(barrier); h.add(group?.index)
        case .syncBody(let queue, let waiter, let barrier): h.add(2); h.add(queue.index); h.add(waiter); h.add(barrier)
        case .branch: h.add(3)
        case .call: h.add(4)
        case .inlineBody: h.add(5)
        case .loop(let variable, let current, let last): h.add(6); h.add(variable?.index); h.add(current); h.add(last)
        case .task(let task): h.add(7); h.add(task)
        case .whileBody: h.add(8)
        }
    }
}

extension QueueState {
    static func add(_ queue: UnsafePointer<QueueState>, to h: inout StateHasher) {
        h.add(queue.pointee.pending.count)
        queue.pointee.pending.withUnsafeBufferPointer { for item in $0.indices { $0[item].add(to: &h) } }
        queue.pointee.arrivals.withUnsafeBufferPointer { for arrival in $0 { h.add(arrival) } }
        h.add(queue.pointee.active)
        h.add((queue.pointee.barrierActive ? 1 : 0) | (queue.pointee.onTarget ? 2 : 0) | (queue.pointee.draining ? 4 : 0))
    }
}

extension Task {
    /// A frame's or a pending item's task, none included, as `hash(into:)` mixes it.
    static func add(_ task: Task?, to h: inout StateHasher) {
        switch task {
        case nil: h.add(-1)
        case .workItem(let item)?: h.add(0); h.add(item.index)
        case .operationBlock(let instance)?: h.add(1); h.add(instance)
        case .iteration(let instance)?: h.add(2); h.add(instance)
        case .timerEvent(let source)?: h.add(3); h.add(source)
        }
    }
}

extension PendingItem {
    /// What `hash(into:)` mixes, without a `Hasher` of its own per item.
    func add(to h: inout StateHasher) {
        switch self {
        case .async(let body, let captures, let barrier, let group, let task):
            h.add(0)
            h.add(body.index)
            h.add(captures)
            h.add(barrier)
            h.add(group?.index)
            Task.add(task, to: &h)
        case .sync(let thread, let body, let barrier, let captures):
            h.add(1)
            h.add(thread)
            h.add(body.index)
            h.add(barrier)
            h.add(captures)
        case .operation(let instance):
            h.add(2)
            h.add(instance)
        case .helper(let perform):
            h.add(3)
            h.add(perform)
        case .job(let task):
            h.add(4)
            h.add(task)
        case .drain(let queue):
            h.add(5)
            h.add(queue.index)
        }
    }
}

extension TaskState {
    static func add(_ task: UnsafePointer<TaskState>, to h: inout StateHasher) {
        switch task.pointee.isolation {
        case .generic: h.add(-1)
        case .mainActor: h.add(-2)
        case .actor(let queue): h.add(queue.index)
        }
        h.add(task.pointee.priority)
        h.add(task.pointee.frames.count)
        task.pointee.frames.withUnsafeBufferPointer { frames in
            for frame in frames.indices { Frame.add(frames.baseAddress! + frame, to: &h) }
        }
        h.add(task.pointee.result)
        h.add(task.pointee.waiters.count)
        task.pointee.waiters.withUnsafeBufferPointer { for waiter in $0 { h.add(waiter) } }
        h.add(task.pointee.parent)
        h.add(task.pointee.group)
        h.add((task.pointee.finished ? 1 : 0) | (task.pointee.cancelled ? 2 : 0) | (task.pointee.awaitable ? 4 : 0))
    }
}
