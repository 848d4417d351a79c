/// Words for target queues: the chain a queue drains through.
extension Narrator {
    /// ", directly or through its target chain (a → root)" for a queue with a target; "" otherwise.
    func throughTargets(_ queue: QueueID) -> String {
        let chain = program.targetChain(of: queue)
        guard chain.count > 1 else { return "" }
        return ", directly or through its targets (" + chain.map(name).joined(separator: " → ") + "): one thread may hold only one block of a serial hierarchy"
    }
}
