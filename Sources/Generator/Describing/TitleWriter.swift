import ConcurrencyModel

/// A generated puzzle's title, in the bank's manner: what the code does, not what it prints
/// ("sync inside async on the same serial queue", "Two async blocks and a group wait").
enum TitleWriter {
    static func title(_ tree: SnippetTree, program: Program) -> String {
        let catalog = QueueCatalog(program: program)
        var core = nestedCore(tree.statements, catalog: catalog) ?? flatCore(tree.dispatches, catalog: catalog)
        let extras = extrasPhrase(tree, catalog: catalog)
        if !extras.isEmpty && core.count + 2 + extras.count <= PuzzleGenerator.titleLength { core += ", " + extras }
        return core.prefix(1).uppercased() + core.dropFirst()
    }

    /// "async inside sync on a serial queue": the first dispatch that holds another one, with the
    /// deepest chain under it when there are three levels.
    private static func nestedCore(_ statements: [Statement], catalog: QueueCatalog) -> String? {
        for outer in outermostDispatches(statements) {
            let chain = deepestChain(from: outer)
            guard chain.count >= 2 else { continue }
            if chain.count >= 3 {
                let modes = chain.reversed().map(\.mode.rawValue).joined(separator: " inside ")
                return "\(modes), three levels deep"
            }
            let (a, b) = (chain[0], chain[1])
            if a.queue == b.queue {
                return "\(b.mode.rawValue) inside \(a.mode.rawValue) on the same \(kindNoun(a.queue, catalog))"
            }
            let (outer, inner) = (phrase(a.queue, catalog), phrase(b.queue, catalog))
            let other = inner == outer ? "another " + kindNoun(b.queue, catalog) : inner
            return "\(b.mode.rawValue) on \(other) inside \(a.mode.rawValue) on \(outer)"
        }
        return nil
    }

    private static func outermostDispatches(_ statements: [Statement]) -> [Dispatch] {
        statements.flatMap { statement -> [Dispatch] in
            switch statement {
            case .dispatch(let dispatch): [dispatch]
            case .compound(let clauses, _): clauses.flatMap { outermostDispatches($0.body) }
            case .print, .line: []
            }
        }
    }

    private static func deepestChain(from dispatch: Dispatch) -> [Dispatch] {
        let inner = outermostDispatches(dispatch.body).map(deepestChain).max { $0.count < $1.count } ?? []
        return [dispatch] + inner
    }

    /// "Two asyncs on a serial queue and a sync on the main queue", "Async on the main queue and
    /// on a serial queue"; with more kinds of dispatch than two, "Three asyncs and a sync on four
    /// queues".
    private static func flatCore(_ dispatches: [Dispatch], catalog: QueueCatalog) -> String {
        var groups: [(mode: DispatchMode, place: String, count: Int)] = []
        for dispatch in dispatches {
            let place = phrase(dispatch.queue, catalog)
            if let index = groups.firstIndex(where: { $0.mode == dispatch.mode && $0.place == place }) {
                groups[index].count += 1
            } else {
                groups.append((dispatch.mode, place, 1))
            }
        }
        func calls(_ mode: DispatchMode, _ count: Int) -> String {
            switch count {
            case 1: mode == .async ? "an async" : "a sync"
            default: "\(number(count)) \(mode.rawValue)s"
            }
        }
        switch groups.count {
        case 0:
            return "plain prints"
        case 1:
            return "\(calls(groups[0].mode, groups[0].count)) on \(groups[0].place)"
        case 2 where groups[0].count == 1 && groups[1].count == 1 && groups[0].mode == groups[1].mode:
            return "\(groups[0].mode.rawValue) on \(groups[0].place) and on \(groups[1].place)"
        case 2:
            return groups.map { "\(calls($0.mode, $0.count)) on \($0.place)" }.joined(separator: " and ")
        default:
            let modes = [DispatchMode.async, .sync].compactMap { mode -> String? in
                let count = dispatches.filter { $0.mode == mode }.count
                return count == 0 ? nil : calls(mode, count)
            }
            return list(modes) + " on \(number(Set(dispatches.map(\.queue)).count)) queues"
        }
    }

    private static func extrasPhrase(_ tree: SnippetTree, catalog: QueueCatalog) -> String {
        var extras: [String] = []
        var lines: [String] = []
        SnippetTree.visit(tree.statements) { if case .line(let text) = $0 { lines.append(text) } }
        if lines.contains(where: { $0.hasSuffix("= DispatchGroup()") }) { extras.append("a group wait") }
        if lines.contains(where: { $0.contains("= DispatchSemaphore(") }) { extras.append("a semaphore") }
        if tree.dispatches.contains(where: \.barrier) { extras.append("a barrier") }
        guard !extras.isEmpty else { return "" }
        return "with " + list(extras)
    }

    /// "a serial queue", "the main queue", "a global queue", "a concurrent queue".
    static func phrase(_ queue: String, _ catalog: QueueCatalog) -> String {
        switch catalog.kind(of: queue) {
        case .main?: "the main queue"
        case .global?: "a global queue"
        case .concurrent?, .cooperative?: "a concurrent queue"
        case .actor?: "an actor"
        case .serial?, nil: "a serial queue"
        }
    }

    private static func kindNoun(_ queue: String, _ catalog: QueueCatalog) -> String {
        String(phrase(queue, catalog).split(separator: " ", maxSplits: 1)[1])
    }

    static func number(_ count: Int) -> String {
        ["no", "one", "two", "three", "four", "five", "six"].indices.contains(count)
            ? ["no", "one", "two", "three", "four", "five", "six"][count] : String(count)
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }
}
