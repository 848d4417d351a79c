import ConcurrencyModel

/// One decision of a puzzle changed: what turns a bank puzzle into a variant, and what gives a
/// fresh puzzle's skeleton its groups, semaphores, barriers and second queues. Dispatches and
/// prints are numbered as `SnippetTree.dispatches` and `.labels` list them.
public enum VariantChange: Hashable, Sendable {
    /// `sync` ↔ `async`.
    case flipMode(dispatch: Int)
    /// The dispatch goes to another queue (serial ↔ concurrent ↔ main ↔ global).
    case retarget(dispatch: Int, queue: String)
    /// One more level: a print is wrapped in a dispatch.
    case nest(print: Int, queue: String, mode: DispatchMode)
    /// One more level: a new block with a print of its own, at the end of a dispatch's block.
    case addBlock(inside: Int, queue: String, mode: DispatchMode)
    /// One fewer level: a dispatch is replaced by its body.
    case unnest(dispatch: Int)
    /// A second queue of the code's own, declared at the top, takes over one dispatch.
    case secondQueue(dispatch: Int, name: String, concurrent: Bool)
    /// `flags: .barrier` added or removed.
    case toggleBarrier(dispatch: Int)
    /// `q.sync { … }` becomes `q.async(group: g) { … }` followed by `g.wait()`.
    case groupForSync(dispatch: Int, group: String)
    /// `q.sync { … }` becomes `q.async { …; s.signal() }` followed by `s.wait()`.
    case semaphoreForSync(dispatch: Int, semaphore: String)

    /// The changed tree, or nil when the change does not apply to it.
    func apply(to tree: SnippetTree, catalog: QueueCatalog) -> SnippetTree? {
        let dispatches = tree.dispatches
        func dispatch(_ index: Int) -> Dispatch? { dispatches.indices.contains(index) ? dispatches[index] : nil }
        switch self {
        case .flipMode(let index):
            guard let old = dispatch(index), old.group == nil else { return nil }
            return tree.replacingDispatch(index) { dispatch in
                var flipped = dispatch
                flipped.mode = dispatch.mode == .sync ? .async : .sync
                return [.dispatch(flipped)]
            }
        case .retarget(let index, let queue):
            guard let old = dispatch(index), old.queue != queue, let kind = catalog.kind(of: queue) else { return nil }
            return tree.replacingDispatch(index) { dispatch in
                var moved = dispatch
                moved.queue = queue
                if kind != .concurrent && kind != .global { moved.barrier = false }
                return [.dispatch(moved)]
            }
        case .nest(let index, let queue, let mode):
            guard tree.labels.indices.contains(index) else { return nil }
            return tree.replacingPrint(index) { label in
                [.dispatch(Dispatch(queue: queue, mode: mode, body: [.print(label)]))]
            }
        case .addBlock(let index, let queue, let mode):
            guard dispatch(index) != nil else { return nil }
            // A label no code prints (the new print is renamed with the others).
            let label = Label.text("new\(tree.labels.count)")
            return tree.replacingDispatch(index) { dispatch in
                var grown = dispatch
                grown.body.append(.dispatch(Dispatch(queue: queue, mode: mode, body: [.print(label)])))
                return [.dispatch(grown)]
            }
        case .unnest(let index):
            guard dispatch(index) != nil, dispatches.count > 1 else { return nil }
            return tree.replacingDispatch(index) { $0.body }
        case .secondQueue(let index, let name, let concurrent):
            guard dispatch(index) != nil, !tree.declaredNames.contains(name), catalog.kind(of: name) == nil else { return nil }
            let attributes = concurrent ? ", attributes: .concurrent" : ""
            let declaration = Statement.line("let \(name) = DispatchQueue(label: \"\(name)\"\(attributes))")
            var changed = tree.replacingDispatch(index) { dispatch in
                var moved = dispatch
                moved.queue = name
                if !concurrent { moved.barrier = false }
                return [.dispatch(moved)]
            }
            changed.statements.insert(declaration, at: 0)
            return changed
        case .toggleBarrier(let index):
            guard let old = dispatch(index), [.concurrent, .global].contains(catalog.kind(of: old.queue)) else { return nil }
            return tree.replacingDispatch(index) { dispatch in
                var toggled = dispatch
                toggled.barrier.toggle()
                return [.dispatch(toggled)]
            }
        case .groupForSync(let index, let group):
            guard let old = dispatch(index), old.mode == .sync, !tree.declaredNames.contains(group) else { return nil }
            var changed = tree.replacingDispatch(index) { dispatch in
                var submitted = dispatch
                submitted.mode = .async
                submitted.group = group
                return [.dispatch(submitted), .line("\(group).wait()")]
            }
            changed.statements.insert(.line("let \(group) = DispatchGroup()"), at: 0)
            return changed
        case .semaphoreForSync(let index, let semaphore):
            guard let old = dispatch(index), old.mode == .sync, !tree.declaredNames.contains(semaphore) else { return nil }
            var changed = tree.replacingDispatch(index) { dispatch in
                var submitted = dispatch
                submitted.mode = .async
                submitted.body.append(.line("\(semaphore).signal()"))
                return [.dispatch(submitted), .line("\(semaphore).wait()")]
            }
            changed.statements.insert(.line("let \(semaphore) = DispatchSemaphore(value: 0)"), at: 0)
            return changed
        }
    }

    /// Every change that applies to `tree`, in a fixed order.
    static func candidates(for tree: SnippetTree, catalog: QueueCatalog, program: Program?) -> [VariantChange] {
        let dispatches = tree.dispatches
        let free = { (names: [String]) in names.first { !tree.declaredNames.contains($0) && catalog.kind(of: $0) == nil } }
        var changes: [VariantChange] = []
        for (index, dispatch) in dispatches.enumerated() {
            if dispatch.group == nil { changes.append(.flipMode(dispatch: index)) }
            for queue in catalog.targets(program: program) where queue != dispatch.queue {
                changes.append(.retarget(dispatch: index, queue: queue))
            }
            if dispatches.count > 1 { changes.append(.unnest(dispatch: index)) }
            for queue in [QueueCatalog.serial, QueueCatalog.concurrent, QueueCatalog.main, QueueCatalog.global] {
                changes.append(.addBlock(inside: index, queue: queue, mode: .async))
                if queue != dispatch.queue { changes.append(.addBlock(inside: index, queue: queue, mode: .sync)) }
            }
            if let name = free(["other", "second", "worker", "background"]) {
                changes.append(.secondQueue(dispatch: index, name: name, concurrent: false))
                changes.append(.secondQueue(dispatch: index, name: name, concurrent: true))
            }
            if [.concurrent, .global].contains(catalog.kind(of: dispatch.queue)) { changes.append(.toggleBarrier(dispatch: index)) }
            if dispatch.mode == .sync {
                if let group = free(["group", "g", "work"]) { changes.append(.groupForSync(dispatch: index, group: group)) }
                if let semaphore = free(["done", "s", "ready"]) { changes.append(.semaphoreForSync(dispatch: index, semaphore: semaphore)) }
            }
        }
        for index in tree.labels.indices {
            for queue in [QueueCatalog.serial, QueueCatalog.concurrent, QueueCatalog.main, QueueCatalog.global] {
                changes.append(.nest(print: index, queue: queue, mode: .async))
                if queue != QueueCatalog.main { changes.append(.nest(print: index, queue: queue, mode: .sync)) }
            }
        }
        return changes
    }

    /// What kind of change it is and where: two changes with the same site would say the same
    /// thing twice.
    var site: String {
        switch self {
        case .flipMode(let index): "flip \(index)"
        case .retarget(let index, _): "retarget \(index)"
        case .nest(let index, _, _): "nest \(index)"
        case .addBlock(let index, _, _): "add \(index)"
        case .unnest(let index): "unnest \(index)"
        case .secondQueue: "second queue"
        case .toggleBarrier(let index): "barrier \(index)"
        case .groupForSync(let index, _), .semaphoreForSync(let index, _): "replace \(index)"
        }
    }

    /// Whether the change puts an async onto a worker queue into `tree` (the code before it).
    func addsAsync(to tree: SnippetTree) -> Bool {
        let dispatches = tree.dispatches
        func onWorker(_ index: Int) -> Bool { dispatches.indices.contains(index) && dispatches[index].queue != QueueCatalog.main }
        switch self {
        case .flipMode(let index): return onWorker(index) && dispatches[index].mode == .sync
        case .nest(_, let queue, let mode), .addBlock(_, let queue, let mode): return mode == .async && queue != QueueCatalog.main
        case .groupForSync(let index, _), .semaphoreForSync(let index, _): return onWorker(index)
        case .retarget, .unnest, .secondQueue, .toggleBarrier: return false
        }
    }

    /// What the change does to `tree` (the code before it), in words a learner reads in the
    /// title: "with async in place of serialQueue.sync".
    func phrase(before tree: SnippetTree, renamed: [Label: Label] = [:]) -> String {
        let dispatches = tree.dispatches
        func call(_ index: Int) -> String {
            dispatches.indices.contains(index) ? "\(dispatches[index].queue).\(dispatches[index].mode.rawValue)" : "a dispatch"
        }
        switch self {
        case .flipMode(let index):
            let mode = dispatches.indices.contains(index) ? dispatches[index].mode : .sync
            return "with \(mode == .sync ? "async" : "sync") in place of \(call(index))"
        case .retarget(let index, let queue):
            return "with \(call(index)) moved to \(QueueCatalog.spoken(queue))"
        case .nest(let index, let queue, let mode):
            guard tree.labels.indices.contains(index) else { return "with a print wrapped in \(queue).\(mode.rawValue)" }
            let label = renamed[tree.labels[index]] ?? tree.labels[index]
            return "with print(\(label.literal)) wrapped in \(queue).\(mode.rawValue)"
        case .addBlock(let index, let queue, let mode):
            return "with a \(queue).\(mode.rawValue) block added inside \(call(index))"
        case .unnest(let index):
            return "with one \(call(index)) unwrapped"
        case .secondQueue(_, let name, let concurrent):
            return "with a second \(concurrent ? "concurrent" : "serial") queue, \(name)"
        case .toggleBarrier(let index):
            let had = dispatches.indices.contains(index) && dispatches[index].barrier
            return had ? "without the barrier" : "with a barrier on \(call(index))"
        case .groupForSync(let index, _):
            return "with a group wait in place of \(call(index))"
        case .semaphoreForSync(let index, _):
            return "with a semaphore in place of \(call(index))"
        }
    }
}
