import ConcurrencyModel

/// Fresh puzzles from a small grammar of the supported subset: prints and dispatches nested in
/// one another, onto the prelude's queues, the main queue and a global queue, then (from level
/// 2) a group, a semaphore, a barrier or a second queue put in by the same changes variants
/// use. The level sizes the grammar; the puzzle's real level is measured afterwards.
struct FreshGrammar {
    struct Size {
        var prints: ClosedRange<Int>
        var dispatches: ClosedRange<Int>
        var depth: Int
        var queues: [String]
        /// How many changes (group, semaphore, barrier, second queue) to try to put in.
        var extras: ClosedRange<Int>
    }

    let size: Size

    init(level: Int) {
        switch level {
        case ...1:
            size = Size(prints: 3...6, dispatches: 1...3, depth: 1,
                        queues: [QueueCatalog.serial, QueueCatalog.concurrent, QueueCatalog.main], extras: 0...0)
        case 2:
            size = Size(prints: 5...7, dispatches: 2...4, depth: 2,
                        queues: QueueCatalog.standard.map(\.name), extras: 0...1)
        default:
            size = Size(prints: 5...7, dispatches: 3...4, depth: 3,
                        queues: QueueCatalog.standard.map(\.name), extras: 1...2)
        }
    }

    /// A random skeleton of the grammar's size, labels numbered in code order.
    func tree(random: inout SeededRandom) -> SnippetTree {
        struct Node {
            var parent: Int?
            var depth: Int
            var queue: String
            var mode: DispatchMode
        }
        var nodes: [Node] = []
        for _ in 0..<random.int(size.dispatches) {
            let parents = [nil] + nodes.indices.filter { nodes[$0].depth < size.depth }.map(Optional.some)
            // Nest more often than not, so that deeper levels get deep code.
            let parent = nodes.isEmpty || random.percent(35) ? nil : random.pick(parents)
            let depth = parent.map { nodes[$0].depth + 1 } ?? 1
            var queue = random.pick(size.queues)
            // Syncs and serial queues fix orders, so that more prints still make few outcomes.
            var mode: DispatchMode = random.percent(45) ? .async : .sync
            // A main-queue sync from the main thread traps at once: a puzzle with one answer.
            if queue == QueueCatalog.main && parent == nil && mode == .sync { mode = .async }
            if queue == QueueCatalog.main && parent != nil && random.percent(50) { queue = QueueCatalog.concurrent }
            nodes.append(Node(parent: parent, depth: depth, queue: queue, mode: mode))
        }
        // Without an async onto a worker queue, the main thread runs everything in an order the
        // code fixes: a single outcome.
        if !nodes.contains(where: { $0.mode == .async && $0.queue != QueueCatalog.main }) {
            let index = random.below(nodes.count)
            nodes[index].mode = .async
            if nodes[index].queue == QueueCatalog.main { nodes[index].queue = random.pick([QueueCatalog.serial, QueueCatalog.concurrent]) }
        }
        // Every block and the top level print at least once; the rest go anywhere.
        var printCounts = [Int](repeating: 1, count: nodes.count + 1)  // index 0: top level
        let extra = max(0, random.int(size.prints) - printCounts.count)
        for _ in 0..<extra { printCounts[random.below(printCounts.count)] += 1 }

        var nextLabel = 1
        func body(_ container: Int?) -> [Statement] {
            let children = nodes.indices.filter { nodes[$0].parent == container }
            var items: [Int?] = children.map(Optional.some)  // nil: a print
            for _ in 0..<printCounts[(container ?? -1) + 1] {
                items.insert(nil, at: random.below(items.count + 1))
            }
            return items.map { item in
                guard let child = item else {
                    defer { nextLabel += 1 }
                    return .print(.number(nextLabel))
                }
                let node = nodes[child]
                return .dispatch(Dispatch(queue: node.queue, mode: node.mode, body: body(child)))
            }
        }
        return SnippetTree(body(nil))
    }

    /// The extras this level puts in, applied one after another where they fit.
    func decorate(_ tree: SnippetTree, catalog: QueueCatalog, random: inout SeededRandom) -> (SnippetTree, [VariantChange]) {
        var tree = tree
        var applied: [VariantChange] = []
        var catalog = catalog
        for _ in 0..<random.int(size.extras) {
            let options = VariantChange.candidates(for: tree, catalog: catalog, program: nil).filter { change in
                switch change {
                case .groupForSync, .semaphoreForSync, .toggleBarrier, .secondQueue: true
                case .flipMode, .retarget, .nest, .addBlock, .unnest: false
                }
            }
            guard !options.isEmpty else { break }
            let change = random.pick(options)
            guard let changed = change.apply(to: tree, catalog: catalog) else { continue }
            if case .secondQueue(_, let name, let concurrent) = change { catalog.declare(name, kind: concurrent ? .concurrent : .serial) }
            tree = changed
            applied.append(change)
        }
        return (tree, applied)
    }
}
