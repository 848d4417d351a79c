/// Finds a schedule in a `StateGraph` that prints given lines: the witness of an outcome, found
/// when someone asks for it rather than kept for every outcome during the search.
struct WitnessSearch {
    let automaton: OutcomeAutomaton
    var graph: StateGraph { automaton.graph }

    /// The moves of a schedule that prints `lines` and then ends as `end`, and the node it ends at.
    func schedule(for outcome: Outcome) -> (choices: [Int32], node: Int32)? {
        search(lines: outcome.lines) { node in
            switch graph.endings[Int(node)] {
            case .finished: outcome.end == .finished
            case .stuck, .trap: outcome.end == .deadlock
            case .none: false
            }
        }
    }

    /// The moves of a schedule that prints `lines` and reaches `target`.
    func schedule(printing lines: [String], to target: Int32) -> [Int32]? {
        search(lines: lines) { $0 == target }?.choices
    }

    /// Depth first over (node, lines printed), taking moves in their order, so the schedule is
    /// the one a search of the states in move order meets first. The automaton prunes: a node is
    /// worth entering only if it belongs to the automaton's state for the lines printed so far.
    private func search(lines: [String], accepts: (Int32) -> Bool) -> (choices: [Int32], node: Int32)? {
        let ids = lines.map { automaton.lineIDs[$0] ?? -2 }
        // The automaton's state after each prefix: only its member nodes can be on the way.
        var prefixStates: [Set<Int32>] = []
        var state: Int32 = 0
        prefixStates.append(Set(automaton.members[0]))
        for line in ids {
            guard let next = automaton.next(state, line: line) else { break }
            state = next
            prefixStates.append(Set(automaton.members[Int(next)]))
        }
        guard prefixStates.count == lines.count + 1 else { return nil }

        struct Key: Hashable { var node: Int32; var printed: Int32 }
        // Every node entered, with the move that entered it and where from, for the path back.
        var entered: [(node: Int32, printed: Int32, move: Int32, parent: Int32)] = [(0, 0, -1, -1)]
        var visited: Set<Key> = [Key(node: 0, printed: 0)]
        var stack: [Int32] = [0]
        while let at = stack.popLast() {
            let (node, printed, _, _) = entered[Int(at)]
            if Int(printed) == lines.count && accepts(node) {
                var choices: [Int32] = []
                var step = at
                while step > 0 {
                    if entered[Int(step)].move >= 0 { choices.append(entered[Int(step)].move) }
                    step = entered[Int(step)].parent
                }
                return (choices.reversed(), node)
            }
            for edge in graph.outgoing(node).reversed() {
                let after: Int32
                if edge.line < 0 {
                    after = printed
                } else {
                    guard Int(printed) < lines.count, edge.line == ids[Int(printed)] else { continue }
                    after = printed + 1
                }
                guard prefixStates[Int(after)].contains(edge.target),
                    visited.insert(Key(node: edge.target, printed: after)).inserted
                else { continue }
                entered.append((edge.target, after, edge.move, at))
                stack.append(Int32(entered.count - 1))
            }
        }
        return nil
    }
}

/// A schedule kept as the choices made at each step (an index into the moves the state offered),
/// replayed into steps when someone asks: an exploration with hundreds of thousands of outcomes
/// keeps a few bytes per step instead of a sentence.
public struct Schedule: Hashable, Sendable {
    let program: Program
    let machine: Machine
    let choices: [Int32]

    /// The steps, replayed from the initial state on the machine the schedule was found for.
    public var steps: [ScheduleStep] {
        let semantics = Semantics(program: program, machine: machine)
        var state = semantics.initialState()
        var steps: [ScheduleStep] = []
        for choice in choices {
            let moves = semantics.moves(in: state)
            guard moves.indices.contains(Int(choice)) else { break }
            switch semantics.apply(moves[Int(choice)], to: state) {
            case .next(let next, let step):
                steps.append(step)
                state = next
            case .trapped(_, let step, _):
                steps.append(step)
                return steps
            case .beyondLimits:
                return steps
            }
        }
        return steps
    }

    public static func == (a: Schedule, b: Schedule) -> Bool { a.choices == b.choices && a.machine == b.machine }
    public func hash(into hasher: inout Hasher) { hasher.combine(choices) }
}
