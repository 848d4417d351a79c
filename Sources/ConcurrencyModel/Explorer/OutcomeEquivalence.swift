/// Whether two machines show the same outcomes, told without listing them: two automata over
/// printed lines show the same outcomes when, walked side by side along every line either prints
/// (with some outcome after it), they end alike at every step. Listing both machines' outcomes
/// and comparing them as sets hashed every line of every outcome.
extension OutcomeAutomaton {
    func showsSameOutcomes(as other: OutcomeAutomaton) -> Bool {
        if other === self { return true }
        let lineMap = lineNumbers(in: other)
        var seen: Set<Int64> = []
        var pending: [(mine: Int32, theirs: Int32)] = [(0, 0)]
        while let (mine, theirs) = pending.popLast() {
            guard seen.insert(Int64(mine) << 32 | Int64(theirs)).inserted else { continue }
            guard endings[Int(mine)] == other.endings[Int(theirs)] else { return false }
            // Lines after which no outcome ends (a search cut short) lead to no outcome.
            let leading = outgoing(mine).filter { counts[Int($0.target)] > 0 }
            let theirCount = other.outgoing(theirs).count { other.counts[Int($0.target)] > 0 }
            guard leading.count == theirCount else { return false }
            for transition in leading {
                let line = lineMap[Int(transition.line)]
                guard line >= 0, let next = other.next(theirs, line: line), other.counts[Int(next)] > 0 else { return false }
                pending.append((transition.target, next))
            }
        }
        return true
    }
}
