import ConcurrencyModel

/// The queues a puzzle can dispatch onto, by the name its code uses, with their kind: the
/// prelude's two, the main queue, the default global queue, and those the code declares.
struct QueueCatalog: Sendable {
    static let serial = "serialQueue"
    static let concurrent = "concurrentQueue"
    static let main = "DispatchQueue.main"
    static let global = "DispatchQueue.global()"
    static let standard: [(name: String, kind: QueueKind)] = [
        (serial, .serial), (concurrent, .concurrent), (main, .main), (global, .global),
    ]

    private(set) var kinds: [String: QueueKind]

    init(program: Program?) {
        var kinds = Dictionary(uniqueKeysWithValues: Self.standard.map { ($0.name, $0.kind) })
        for queue in Self.dispatchQueues(program) { kinds[queue.name] = queue.kind }
        self.kinds = kinds
    }

    /// The program's dispatch queues: not the hidden queues behind its OperationQueues, which
    /// have no `sync` or `async` of their own.
    private static func dispatchQueues(_ program: Program?) -> [QueueDecl] {
        guard let program else { return [] }
        let backing = Set(program.operationQueues.map(\.backing))
        return program.queues.indices.filter { !backing.contains(QueueID(index: $0)) }.map { program.queues[$0] }
    }

    func kind(of name: String) -> QueueKind? {
        kinds[name]
    }

    /// Queues a dispatch could move to: the standard four and the code's own (not those it
    /// creates inactive, which would need an `activate()`).
    func targets(program: Program?) -> [String] {
        let declared = Self.dispatchQueues(program).filter { $0.span != nil && !$0.initiallyInactive }.map(\.name)
        return Self.standard.map(\.name) + declared.filter { name in !Self.standard.contains { $0.name == name } }
    }

    mutating func declare(_ name: String, kind: QueueKind) {
        kinds[name] = kind
    }

    /// How a learner reads the queue's name in prose: "serialQueue", "the main queue", "a global queue".
    static func spoken(_ name: String) -> String {
        switch name {
        case main: "the main queue"
        case global: "a global queue"
        default: name.hasPrefix("DispatchQueue.global(") ? "a global queue" : name
        }
    }
}
