/// The outcomes of one machine's `StateGraph`, as a deterministic automaton over printed lines:
/// each of its states is the set of graph nodes some printed prefix reaches, so one walk along
/// an outcome's lines says whether it can happen, and sums over the automaton count outcomes
/// that number in the billions without listing them.
final class OutcomeAutomaton: Sendable {
    typealias Edge = StateGraph.Edge

    struct Transition: Hashable, Sendable {
        var line: Int32
        var target: Int32
    }

    /// How a state of the automaton can end a run.
    struct Endings: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let finished = Endings(rawValue: 1)
        static let deadlock = Endings(rawValue: 2)
    }

    let graph: StateGraph
    /// The graph nodes of each automaton state, sorted; state 0 holds the initial node and every
    /// node reached from it without printing.
    let members: [[Int32]]
    /// Each state's transitions, sorted by line: `transitions[transitionStart[s] ..< …+transitionCount[s]]`.
    let transitionStart: [Int32]
    let transitionCount: [Int32]
    let transitions: [Transition]
    let endings: [Endings]
    /// How many outcomes start at each state (its endings, plus everything after it), saturated
    /// at `UInt64.max`.
    let counts: [UInt64]
    /// Line text to its index in `graph.lines`.
    let lineIDs: [String: Int32]
    /// False when a budget stopped the construction: the states built are right, others are missing.
    let isComplete: Bool

    var outcomeCount: UInt64 { counts.first ?? 0 }

    private init(graph: StateGraph, members: [[Int32]], transitionStart: [Int32], transitionCount: [Int32],
                 transitions: [Transition], endings: [Endings], counts: [UInt64], isComplete: Bool) {
        self.graph = graph
        self.members = members
        self.transitionStart = transitionStart
        self.transitionCount = transitionCount
        self.transitions = transitions
        self.endings = endings
        self.counts = counts
        self.isComplete = isComplete
        var ids: [String: Int32] = [:]
        for (index, line) in graph.lines.enumerated() { ids[line] = Int32(index) }
        lineIDs = ids
    }

    /// The same automaton over `graph.relabelled(for:)`.
    func relabelled(for machine: Machine) -> OutcomeAutomaton {
        guard machine != graph.machine else { return self }
        return OutcomeAutomaton(graph: graph.relabelled(for: machine), members: members, transitionStart: transitionStart,
                                transitionCount: transitionCount, transitions: transitions, endings: endings, counts: counts,
                                isComplete: isComplete)
    }

    func outgoing(_ state: Int32) -> ArraySlice<Transition> {
        let start = Int(transitionStart[Int(state)])
        return transitions[start..<start + Int(transitionCount[Int(state)])]
    }

    /// The state after printing `line` in `state`, if some schedule does.
    func next(_ state: Int32, line: Int32) -> Int32? {
        let slice = outgoing(state)
        var low = slice.startIndex, high = slice.endIndex
        while low < high {
            let middle = (low + high) / 2
            if slice[middle].line < line { low = middle + 1 } else { high = middle }
        }
        return low < slice.endIndex && slice[low].line == line ? slice[low].target : nil
    }

    /// The state after printing `lines` from the start, or nil at the first line no schedule
    /// prints there (with how many lines were printed before it).
    func walk(_ lines: [String]) -> (state: Int32?, matched: Int, last: Int32) {
        var state: Int32 = 0
        for (index, text) in lines.enumerated() {
            guard let line = lineIDs[text], let next = next(state, line: line) else { return (nil, index, state) }
            state = next
        }
        return (state, lines.count, state)
    }

    func contains(_ outcome: Outcome) -> Bool {
        guard let state = walk(outcome.lines).state else { return false }
        return endings[Int(state)].contains(outcome.end == .finished ? .finished : .deadlock)
    }

    // MARK: Building

    /// Determinises the graph, breadth first, within the budget's deadline.
    static func build(_ graph: StateGraph, deadline: ContinuousClock.Instant?) -> OutcomeAutomaton {
        var members: [[Int32]] = []
        var index: [NodeSet: Int32] = [:]
        var transitionStart: [Int32] = []
        var transitionCount: [Int32] = []
        var transitions: [Transition] = []
        var endings: [Endings] = []
        var isComplete = true
        let clock = ContinuousClock()
        let edges = graph.edges, edgeStart = graph.edgeStart, edgeCount = graph.edgeCount
        // The closure in progress marks its nodes with its number: no set to allocate and hash.
        var mark = [Int32](repeating: -1, count: graph.nodeCount)
        var closureNumber: Int32 = 0

        /// Every node reachable from `nodes` without printing, sorted.
        func closure(_ nodes: some Sequence<Int32>) -> [Int32] {
            closureNumber += 1
            var found: [Int32] = []
            for node in nodes where mark[Int(node)] != closureNumber {
                mark[Int(node)] = closureNumber
                found.append(node)
            }
            var next = 0
            while next < found.count {
                let node = Int(found[next])
                next += 1
                let start = Int(edgeStart[node])
                for edge in edges[start..<start + Int(edgeCount[node])] where edge.line < 0 && mark[Int(edge.target)] != closureNumber {
                    mark[Int(edge.target)] = closureNumber
                    found.append(edge.target)
                }
            }
            found.sort()
            return found
        }

        func intern(_ set: [Int32]) -> Int32 {
            let key = NodeSet(set)
            if let id = index[key] { return id }
            let id = Int32(members.count)
            members.append(set)
            index[key] = id
            var ending: Endings = []
            for node in set {
                switch graph.endings[Int(node)] {
                case .finished: ending.insert(.finished)
                case .stuck, .trap: ending.insert(.deadlock)
                case .none: break
                }
            }
            endings.append(ending)
            transitionStart.append(0)
            transitionCount.append(0)
            return id
        }

        _ = intern(closure([0]))
        var next = 0
        while next < members.count {
            if next % 256 == 0, let deadline, clock.now >= deadline {
                isComplete = false
                break
            }
            // The printing edges of the state's nodes, by line: one transition per line.
            var printing: [Edge] = []
            for node in members[next] {
                let start = Int(edgeStart[Int(node)])
                for edge in edges[start..<start + Int(edgeCount[Int(node)])] where edge.line >= 0 { printing.append(edge) }
            }
            printing.sort { $0.line < $1.line }
            transitionStart[next] = Int32(transitions.count)
            var first = 0
            while first < printing.count {
                var end = first + 1
                while end < printing.count && printing[end].line == printing[first].line { end += 1 }
                transitions.append(Transition(line: printing[first].line, target: intern(closure(printing[first..<end].lazy.map(\.target)))))
                first = end
            }
            transitionCount[next] = Int32(transitions.count) - transitionStart[next]
            next += 1
        }
        let built = next
        // States never expanded (the deadline) have no transitions: their outcomes are missing.
        let counts = countOutcomes(states: members.count, built: built, start: transitionStart, count: transitionCount,
                                   transitions: transitions, endings: endings)
        return OutcomeAutomaton(graph: graph, members: members, transitionStart: transitionStart, transitionCount: transitionCount,
                                transitions: transitions, endings: endings, counts: counts, isComplete: isComplete && graph.stop == nil)
    }

    /// Outcomes from each state, summed after its successors (iteratively: an outcome can be
    /// 100,000 lines long).
    private static func countOutcomes(states: Int, built: Int, start: [Int32], count: [Int32], transitions: [Transition],
                                      endings: [Endings]) -> [UInt64] {
        var counts = [UInt64](repeating: 0, count: states)
        var done = [Bool](repeating: false, count: states)
        var stack: [(state: Int32, next: Int32)] = [(0, 0)]
        var onStack = [Bool](repeating: false, count: states)
        onStack[0] = true
        while let top = stack.last {
            let s = Int(top.state)
            let total = s < built ? count[s] : 0
            if top.next < total {
                stack[stack.count - 1].next += 1
                let target = transitions[Int(start[s] + top.next)].target
                // The automaton has no cycle (every transition prints a line and every program
                // ends); a cycle would be a bug, and counting it once keeps the sum finite.
                if !done[Int(target)] && !onStack[Int(target)] {
                    onStack[Int(target)] = true
                    stack.append((target, 0))
                }
                continue
            }
            var sum = UInt64(endings[s].contains(.finished) ? 1 : 0) + UInt64(endings[s].contains(.deadlock) ? 1 : 0)
            for index in 0..<Int(total) {
                let (added, overflow) = sum.addingReportingOverflow(counts[Int(transitions[Int(start[s]) + index].target)])
                sum = overflow ? .max : added
            }
            counts[s] = sum
            done[s] = true
            onStack[s] = false
            stack.removeLast()
        }
        return counts
    }

    // MARK: Reading

    /// Every outcome, up to `limit` of them (in no particular order), or nil past it.
    func outcomes(limit: Int) -> [Outcome]? {
        guard outcomeCount <= UInt64(limit) else { return nil }
        var found: [Outcome] = []
        var lines: [String] = []
        var stack: [(state: Int32, next: Int32)] = [(0, -1)]
        while let top = stack.last {
            let s = Int(top.state)
            if top.next < 0 {
                if endings[s].contains(.finished) { found.append(Outcome(lines: lines, end: .finished)) }
                if endings[s].contains(.deadlock) { found.append(Outcome(lines: lines, end: .deadlock)) }
                stack[stack.count - 1].next = 0
                continue
            }
            if top.next < transitionCount[s] && s < transitionStart.count {
                stack[stack.count - 1].next += 1
                let transition = transitions[Int(transitionStart[s] + top.next)]
                lines.append(graph.lines[Int(transition.line)])
                stack.append((transition.target, -1))
                continue
            }
            stack.removeLast()
            if !stack.isEmpty { lines.removeLast() }
        }
        return found
    }

    /// What some outcome prints or does right after printing `state`'s prefix.
    func nextEvents(at state: Int32) -> [NextEvent] {
        var events = outgoing(state).map { NextEvent.line(graph.lines[Int($0.line)]) }
        if endings[Int(state)].contains(.finished) { events.append(.end(.finished)) }
        if endings[Int(state)].contains(.deadlock) { events.append(.end(.deadlock)) }
        return events
    }

    /// A graph node of `state` that ends the run as `end`, for its reason.
    func endingNode(at state: Int32, _ end: End) -> Int32? {
        members[Int(state)].first { node in
            switch graph.endings[Int(node)] {
            case .finished: end == .finished
            case .stuck, .trap: end == .deadlock
            case .none: false
            }
        }
    }

    /// `count` outcomes drawn uniformly (with repeats when there are few), from the seed.
    func sample(_ count: Int, seed: UInt64) -> [Outcome] {
        guard outcomeCount > 0 else { return [] }
        var generator = SplitMix64(seed: seed)
        var drawn: [Outcome] = []
        for _ in 0..<count {
            var state: Int32 = 0
            var lines: [String] = []
            while true {
                let s = Int(state)
                var pick = UInt64.random(in: 0..<max(counts[s], 1), using: &generator)
                if endings[s].contains(.finished) {
                    if pick == 0 { drawn.append(Outcome(lines: lines, end: .finished)); break }
                    pick -= 1
                }
                if endings[s].contains(.deadlock) {
                    if pick == 0 { drawn.append(Outcome(lines: lines, end: .deadlock)); break }
                    pick -= 1
                }
                var chosen: Transition?
                for transition in outgoing(state) {
                    let weight = counts[Int(transition.target)]
                    if pick < weight { chosen = transition; break }
                    pick -= weight
                }
                guard let transition = chosen ?? outgoing(state).last else { break }
                lines.append(graph.lines[Int(transition.line)])
                state = transition.target
            }
        }
        return drawn
    }

    /// Pairs of lines printed in one order in every outcome that prints both (and some outcome
    /// does): the rules that order the lines when the outcomes are too many to list. Computed
    /// over the automaton, for up to `maxLines` distinct lines.
    func orderingRules(maxLines: Int = 256) -> [LineOrder]? {
        let lineCount = graph.lines.count
        guard isComplete, lineCount <= maxLines, lineCount > 1 else { return nil }
        let words = (lineCount + 63) / 64
        // The lines some outcome still prints at or after each state.
        var after = [[UInt64]](repeating: [UInt64](repeating: 0, count: words), count: members.count)
        var order: [Int32] = []
        var visited = [Bool](repeating: false, count: members.count)
        var stack: [(Int32, Int32)] = [(0, 0)]
        visited[0] = true
        while let (state, next) = stack.last {
            if next < transitionCount[Int(state)] {
                stack[stack.count - 1].1 += 1
                let target = transitions[Int(transitionStart[Int(state)] + next)].target
                if !visited[Int(target)] {
                    visited[Int(target)] = true
                    stack.append((target, 0))
                }
                continue
            }
            order.append(state)
            stack.removeLast()
        }
        for state in order {
            var bits = [UInt64](repeating: 0, count: words)
            for transition in outgoing(state) {
                let line = Int(transition.line)
                bits[line / 64] |= 1 << UInt64(line % 64)
                for w in 0..<words { bits[w] |= after[Int(transition.target)][w] }
            }
            after[Int(state)] = bits
        }
        // later[x][y]: some outcome prints y after x.
        var later = [[Bool]](repeating: [Bool](repeating: false, count: lineCount), count: lineCount)
        for state in order {
            for transition in outgoing(state) {
                let x = Int(transition.line)
                let bits = after[Int(transition.target)]
                for y in 0..<lineCount where bits[y / 64] & (1 << UInt64(y % 64)) != 0 { later[x][y] = true }
            }
        }
        var rules: [LineOrder] = []
        for x in 0..<lineCount {
            for y in 0..<lineCount where x != y && later[x][y] && !later[y][x] {
                // Keep only the rules no other rule implies (x before z before y).
                let implied = (0..<lineCount).contains { z in
                    z != x && z != y && later[x][z] && !later[z][x] && later[z][y] && !later[y][z]
                }
                if !implied { rules.append(LineOrder(first: graph.lines[x], then: graph.lines[y])) }
            }
        }
        return rules
    }
}

/// An automaton state's graph nodes as a dictionary key: hashed once, by a quick mix of its
/// numbers (`Hasher` over every node of every set looked up was a tenth of building).
private struct NodeSet: Hashable {
    let nodes: [Int32]
    let hash: Int

    init(_ nodes: [Int32]) {
        self.nodes = nodes
        var h = StateHasher()
        for node in nodes { h.add(Int(node)) }
        hash = Int(truncatingIfNeeded: h.value)
    }

    static func == (a: NodeSet, b: NodeSet) -> Bool { a.hash == b.hash && a.nodes == b.nodes }
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// A rule that orders two printed lines: in every outcome that prints both, `first` comes before
/// `then`.
public struct LineOrder: Hashable, Sendable {
    public var first: String
    public var then: String
}

/// A small seeded generator, so that a sample is the same for the same seed everywhere.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
