extension Program {
    /// The model's rules that this program exercises, most basic first: hints that point at
    /// what matters without giving the answer away.
    public var rulesAtWork: [Rule] {
        var rules: [Rule] = []
        func add(_ rule: Rule) { if !rules.contains(rule) { rules.append(rule) } }
        var hasAsync = false
        for block in blocks {
            for statement in block.statements {
                guard case .dispatch(let queue, let mode, let body) = statement.action else { continue }
                let kind = self[queue].kind
                if kind.isSerial && containsSync(onto: queue, in: body) { add(.trapEndsTheProcess) }
                switch mode {
                case .sync:
                    add(.syncWaitsForItsBlock)
                    if kind == .main { add(.trapEndsTheProcess) }
                case .async:
                    hasAsync = true
                    add(.notSubmittedYet)
                }
                if kind == .main { add(.mainQueueNeedsIdleMainThread) }
                if kind.isSerial { add(.serialOneAtATime) }
                add(.fifo)
            }
        }
        if hasAsync { add(.programOrder) }
        if rules.isEmpty { add(.programOrder) }
        return rules
    }

    /// Whether running `block` can reach a `sync` onto `queue` (directly or in nested syncs).
    private func containsSync(onto queue: QueueID, in block: BlockID) -> Bool {
        for statement in self[block].statements {
            if case .dispatch(let target, .sync, let body) = statement.action {
                if target == queue || containsSync(onto: queue, in: body) { return true }
            }
        }
        return false
    }
}
