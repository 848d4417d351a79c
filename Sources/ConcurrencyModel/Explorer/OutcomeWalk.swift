/// Every outcome of one automaton, with where else each happens, in one walk: the other
/// automata follow the same lines step by step (by line number, no text looked up), where
/// asking each of them about each outcome (`contains`) walked it again from the start,
/// looking every line up by its text. `Exploration` labels its outcomes so.
extension OutcomeAutomaton {
    /// For each of this graph's lines, its number in `other`'s graph (-1 where `other` never prints it).
    func lineNumbers(in other: OutcomeAutomaton) -> [Int32] {
        if other === self { return graph.lines.indices.map(Int32.init) }
        return graph.lines.map { other.lineIDs[$0] ?? -1 }
    }

    /// Calls `visit` with every outcome, in the order `outcomes(limit:)` lists them, its lines
    /// also as numbers in this graph's `lines` (which `OutcomeSortOrder` sorts by), and, for each of
    /// `others`, whether it shows that outcome too. The arrays are only lent to `visit`.
    func walkOutcomes(alongside others: [OutcomeAutomaton],
                      _ visit: (_ lines: [String], _ lineNumbers: [Int32], _ end: End, _ shownBy: [Bool]) -> Void) {
        let lineMaps = others.map(lineNumbers(in:))
        let width = others.count
        var lines: [String] = []
        var numbers: [Int32] = []
        // Per depth: this automaton's state and the next transition to take (-1: its endings
        // first); and, `width` to a depth, each other automaton's state after the same lines
        // (-1: it never prints them).
        var stack: [(state: Int32, next: Int32)] = [(0, -1)]
        var elsewhere = [Int32](repeating: 0, count: width)
        var shown = [Bool](repeating: false, count: width)
        func visitEnding(_ end: End, _ ending: Endings) {
            let base = elsewhere.count - width
            for index in 0..<width {
                let there = elsewhere[base + index]
                shown[index] = there >= 0 && others[index].endings[Int(there)].contains(ending)
            }
            visit(lines, numbers, end, shown)
        }
        while let top = stack.last {
            let s = Int(top.state)
            if top.next < 0 {
                if endings[s].contains(.finished) { visitEnding(.finished, .finished) }
                if endings[s].contains(.deadlock) { visitEnding(.deadlock, .deadlock) }
                stack[stack.count - 1].next = 0
                continue
            }
            if top.next < transitionCount[s] && s < transitionStart.count {
                stack[stack.count - 1].next += 1
                let transition = transitions[Int(transitionStart[s] + top.next)]
                lines.append(graph.lines[Int(transition.line)])
                numbers.append(transition.line)
                let base = elsewhere.count - width
                for index in 0..<width {
                    let there = elsewhere[base + index]
                    let line = lineMaps[index][Int(transition.line)]
                    elsewhere.append(there < 0 || line < 0 ? -1 : others[index].next(there, line: line) ?? -1)
                }
                stack.append((transition.target, -1))
                continue
            }
            stack.removeLast()
            elsewhere.removeLast(width)
            if !stack.isEmpty {
                lines.removeLast()
                numbers.removeLast()
            }
        }
    }
}
