/// How big a run is, said when a search runs out of budget: a snippet that makes thousands of
/// tasks (sc-06: 2,000 `Task { }` in a loop) has more schedules than any budget explores, and
/// the learner should read that, not only "the explorer stopped".
extension Program {
    /// The most tasks one run makes (`Task { }`, `async let`, a group's children), counting the
    /// iterations of loops with constant bounds and each call of a function; saturated.
    public var tasksMade: UInt64 { tasks(in: entry, depth: 0) }

    private func tasks(in block: BlockID, depth: Int) -> UInt64 {
        guard depth < 64 else { return 0 }
        var total: UInt64 = 0
        for statement in blocks[block.index].statements {
            var inner: UInt64 = 0
            for body in bodies(of: statement.action) { inner = inner.addingSaturated(tasks(in: body, depth: depth + 1)) }
            switch statement.action {
            case .spawn:
                inner = inner.addingSaturated(1)
            case .loop(let loop):
                if case .int(let first)? = loop.from.constantValue, case .int(let bound)? = loop.to.constantValue,
                    let count = Loop.iterations(from: first, to: bound, inclusive: loop.inclusive) {
                    inner = inner.multipliedSaturated(by: count)
                }
            default:
                break
            }
            total = total.addingSaturated(inner)
        }
        return total
    }
}

private extension UInt64 {
    func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    func multipliedSaturated(by other: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
