/// Runs that never end: states from which no schedule reaches an ending (finished, stuck or
/// trapped). A thread that spins without changing anything waits instead (`Semantics.spinning`),
/// so what is left is a loop that changes the state each time round and comes back to it (a
/// `while` that toggles a local), which no outcome describes: the search says so, at the loop,
/// rather than answer without those runs.
extension Program {
    /// Only a `while` or `repeat` loop can take a run round for ever.
    var hasWhileLoops: Bool {
        containsStatement { statement in
            if case .whileLoop = statement.action { true } else { false }
        }
    }
}

extension StateGraph {
    /// The `while` loop some never-ending run goes round, if there is such a run.
    static func endlessLoop(endings: [Ending], edgeStart: [Int32], edgeCount: [Int32], edges: [Edge], states: [MachineState?],
                            program: Program) -> SourceSpan? {
        let count = endings.count
        var predecessors = Array(repeating: [Int32](), count: count)
        for node in 0..<count {
            let start = Int(edgeStart[node])
            for edge in edges[start..<start + Int(edgeCount[node])] { predecessors[Int(edge.target)].append(Int32(node)) }
        }
        var ends = Array(repeating: false, count: count)
        var stack: [Int32] = []
        for node in 0..<count {
            switch endings[node] {
            case .finished, .stuck, .trap: ends[node] = true; stack.append(Int32(node))
            case .none: break
            }
        }
        while let node = stack.popLast() {
            for before in predecessors[Int(node)] where !ends[Int(before)] {
                ends[Int(before)] = true
                stack.append(before)
            }
        }
        for node in 0..<count where !ends[node] {
            guard let state = states[node] else { continue }
            for thread in state.threads {
                for frame in thread.frames.reversed() where frame.pc < program[frame.block].statements.count {
                    let statement = program[frame.block].statements[frame.pc]
                    if case .whileLoop = statement.action { return statement.span }
                }
            }
        }
        return nil
    }
}
