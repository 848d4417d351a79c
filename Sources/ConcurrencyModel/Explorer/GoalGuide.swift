/// Where a goal can still be reached from, in the exploration's graph: computed once per goal,
/// backwards from the nodes that reach it, so that each move of a playthrough answers "still
/// reachable?" and "which move gets there soonest?" by a look-up.
///
/// For an outcome the question is about a node together with how many of the goal's lines have
/// been printed on the way to it (a node is reached after printing different lines along different
/// schedules); for a deadlock, a crash or a race, about the node alone.
final class GoalGuide: Sendable {
    let graph: StateGraph
    let goal: PlayGoal
    /// The goal's lines as the graph numbers them (-1: a line no schedule prints).
    private let lineIDs: [Int32]
    /// For each (node, lines matched) from which the goal can be reached: the fewest edges to it.
    private let distances: [Int64: Int32]
    /// How many of the goal's lines, from its start, some schedule prints (all of them for a
    /// reachable outcome; 0 for goals without lines).
    let longestPrefix: Int

    init(goal: PlayGoal, exploration: Exploration, semantics: Semantics) {
        let graph = exploration.automaton.graph
        self.graph = graph
        self.goal = goal
        let lines: [String]
        if case .outcome(let outcome) = goal { lines = outcome.lines } else { lines = [] }
        var ids: [String: Int32] = [:]
        for (index, line) in graph.lines.enumerated() { ids[line] = Int32(index) }
        lineIDs = lines.map { ids[$0] ?? -1 }
        longestPrefix = exploration.automaton.walk(lines).matched
        distances = Self.distances(graph: graph, goal: goal, lineIDs: lineIDs, semantics: semantics)
    }

    private static func key(_ node: Int32, _ matched: Int) -> Int64 {
        Int64(node) << 32 | Int64(matched)
    }

    /// How many goal lines `printed` matches, when it is a start of the goal's lines (always 0 for
    /// goals without lines); nil once it printed something else.
    func matched(_ printed: [String]) -> Int? {
        guard case .outcome(let outcome) = goal else { return 0 }
        guard printed.count <= outcome.lines.count, zip(printed, outcome.lines).allSatisfy({ $0 == $1 }) else { return nil }
        return printed.count
    }

    func isAlive(node: Int32, matched: Int) -> Bool {
        distances[Self.key(node, matched)] != nil
    }

    func distance(node: Int32, matched: Int) -> Int32? {
        distances[Self.key(node, matched)]
    }

    /// Breadth first backwards from the nodes where the goal is met, over the graph's edges
    /// reversed: a line printed on an edge must be the goal's next one.
    private static func distances(graph: StateGraph, goal: PlayGoal, lineIDs: [Int32], semantics: Semantics) -> [Int64: Int32] {
        let count = graph.nodeCount
        // The reversed edges, grouped by target.
        var start = [Int32](repeating: 0, count: count + 1)
        for node in 0..<count { for edge in graph.outgoing(Int32(node)) { start[Int(edge.target) + 1] += 1 } }
        for node in 0..<count { start[node + 1] += start[node] }
        var fill = start
        var sources = [(node: Int32, line: Int32)](repeating: (0, 0), count: Int(start[count]))
        for node in 0..<count {
            for edge in graph.outgoing(Int32(node)) {
                sources[Int(fill[Int(edge.target)])] = (Int32(node), edge.line)
                fill[Int(edge.target)] += 1
            }
        }
        var distances: [Int64: Int32] = [:]
        var queue: [(node: Int32, matched: Int)] = []
        let done = lineIDs.count
        for node in 0..<count where meets(goal, node: Int32(node), graph: graph, semantics: semantics) {
            distances[key(Int32(node), done)] = 0
            queue.append((Int32(node), done))
        }
        var head = 0
        let linesMatter: Bool = if case .outcome = goal { true } else { false }
        while head < queue.count {
            let (node, matched) = queue[head]
            head += 1
            let distance = distances[key(node, matched)]! + 1
            for index in Int(start[Int(node)])..<Int(start[Int(node) + 1]) {
                let (source, line) = sources[index]
                let before: Int
                if line < 0 || !linesMatter {
                    before = matched
                } else if matched > 0 && lineIDs[matched - 1] == line {
                    before = matched - 1
                } else {
                    continue
                }
                let sourceKey = key(source, before)
                guard distances[sourceKey] == nil else { continue }
                distances[sourceKey] = distance
                queue.append((source, before))
            }
        }
        return distances
    }

    /// Whether the goal is met at this node (with all its lines printed).
    private static func meets(_ goal: PlayGoal, node: Int32, graph: StateGraph, semantics: Semantics) -> Bool {
        let ending = graph.endings[Int(node)]
        switch goal {
        case .outcome(let outcome):
            switch ending {
            case .finished: return outcome.end == .finished
            case .stuck, .trap: return outcome.end == .deadlock
            case .none: return false
            }
        case .deadlock:
            switch ending {
            case .stuck, .trap: return true
            case .finished, .none: return false
            }
        case .crash:
            if case .trap = ending { return true }
            return false
        case .race:
            guard case .none = ending, let state = graph.states[Int(node)] else { return false }
            return !semantics.races(in: state).isEmpty
        }
    }

    /// For an outcome no schedule produces: the index of the move, from `node` with `matched`
    /// lines printed, that starts a shortest schedule printing as many of its lines as any
    /// schedule prints and going on until every move left prints (where the learner is told the
    /// next one cannot come). Breadth first, forwards; nil when there already.
    func firstMoveTowardsLongestPrefix(from node: Int32, matched: Int) -> Int? {
        guard matched < longestPrefix || !isSaturated(node) else { return nil }
        var seen: Set<Int64> = [Self.key(node, matched)]
        // Each entry: a node, the lines matched, and the move out of `node` that began its path.
        var queue: [(node: Int32, matched: Int, first: Int)] = []
        func visit(_ target: Int32, _ line: Int32, _ after: Int, first: Int) -> Int? {
            var now = after
            if line >= 0 {
                guard now < lineIDs.count, lineIDs[now] == line else { return nil }
                now += 1
            }
            if now == longestPrefix && isSaturated(target) { return first }
            if seen.insert(Self.key(target, now)).inserted { queue.append((target, now, first)) }
            return nil
        }
        for edge in graph.outgoing(node) where edge.move >= 0 {
            if let found = visit(edge.target, edge.line, matched, first: Int(edge.move)) { return found }
        }
        var head = 0
        while head < queue.count {
            let (at, done, first) = queue[head]
            head += 1
            for edge in graph.outgoing(at) {
                if let found = visit(edge.target, edge.line, done, first: first) { return found }
            }
        }
        return nil
    }

    /// A node where every move prints, or none is left (not the middle of a print).
    private func isSaturated(_ node: Int32) -> Bool {
        if case .none = graph.endings[Int(node)] {
            return graph.states[Int(node)] != nil && graph.outgoing(node).allSatisfy { $0.line >= 0 }
        }
        return true
    }
}
