/// Finds every outcome a program can produce by exploring every schedule the model's rules allow.
/// States already seen are not explored again; a budget keeps the search from running away.
public struct Explorer: Sendable {
    /// How many distinct states the search may visit before it stops and says it is incomplete.
    public var stateBudget: Int

    public init(stateBudget: Int = 2_000_000) {
        self.stateBudget = stateBudget
    }

    public func explore(_ program: Program) -> Exploration {
        let semantics = Semantics(program: program)
        var reports: [Outcome: OutcomeReport] = [:]
        var visited: Set<MachineState> = []
        var races: [DataRace] = []
        var raceKeys: Set<[SourceSpan]> = []

        func checkRaces(_ state: MachineState) {
            let running = state.threads.filter { semantics.isRunnable($0, in: state) }
            guard running.count > 1 else { return }
            let accesses = running.map { ($0, semantics.nextAccesses(of: $0)) }
            for i in accesses.indices {
                for j in accesses.indices where j > i {
                    for a in accesses[i].1 {
                        for b in accesses[j].1 where a.variable == b.variable && (a.isWrite || b.isWrite) {
                            // One report per pair of places, whichever accesses met first.
                            let key = [a.span, b.span].sorted { ($0.line, $0.column) < ($1.line, $1.column) }
                            guard raceKeys.insert(key).inserted else { continue }
                            races.append(DataRace(
                                variable: program[a.variable].name,
                                first: .init(thread: accesses[i].0.name, isWrite: a.isWrite, span: a.span),
                                second: .init(thread: accesses[j].0.name, isWrite: b.isWrite, span: b.span)))
                        }
                    }
                }
            }
        }

        struct Node {
            var state: MachineState
            var moves: [Semantics.Move]
            var next = 0
            /// The step that led from the parent node to this one.
            var arrival: ScheduleStep?
        }

        func record(_ outcome: Outcome, _ path: [ScheduleStep], _ reason: DeadlockReason?) {
            if reports[outcome] == nil {
                reports[outcome] = OutcomeReport(outcome: outcome, witness: path, deadlock: reason)
            }
        }

        func path(_ stack: [Node], then step: ScheduleStep) -> [ScheduleStep] {
            stack.compactMap(\.arrival) + [step]
        }

        let initial = semantics.initialState()
        visited.insert(initial)
        checkRaces(initial)
        var stack = [Node(state: initial, moves: semantics.moves(in: initial))]
        var complete = true
        if stack[0].moves.allSatisfy(semantics.isOptional) {
            record(terminalOutcome(initial, semantics), [], terminalReason(initial, semantics))
        }
        if stack[0].moves.isEmpty {
            stack.removeAll()
        }

        search: while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].moves.count else {
                stack.removeLast()
                continue
            }
            let move = stack[top].moves[stack[top].next]
            stack[top].next += 1

            switch semantics.apply(move, to: stack[top].state) {
            case .trapped(let state, let step, let reason):
                record(Outcome(lines: state.output, end: .deadlock), path(stack, then: step), reason)
            case .next(let state, let step):
                guard visited.insert(state).inserted else { continue }
                if visited.count > stateBudget {
                    complete = false
                    break search
                }
                checkRaces(state)
                let moves = semantics.moves(in: state)
                // When only optional moves remain (helpers for concurrentPerform), the run may
                // also stop here: on one core no helper ever comes.
                if moves.allSatisfy(semantics.isOptional) {
                    record(terminalOutcome(state, semantics), path(stack, then: step), terminalReason(state, semantics))
                }
                if !moves.isEmpty {
                    stack.append(Node(state: state, moves: moves, arrival: step))
                }
            }
        }

        return Exploration(
            program: program,
            reports: reports.values.sorted { $0.outcome < $1.outcome },
            statesExplored: visited.count,
            isComplete: complete,
            races: races)
    }

    private func terminalOutcome(_ state: MachineState, _ semantics: Semantics) -> Outcome {
        Outcome(lines: state.output, end: semantics.isFinished(state) ? .finished : .deadlock)
    }

    private func terminalReason(_ state: MachineState, _ semantics: Semantics) -> DeadlockReason? {
        semantics.isFinished(state) ? nil : .stuck(semantics.stuckDescription(state))
    }
}

/// What the explorer found: every outcome with a witness schedule, and how much it searched.
public struct Exploration: Sendable {
    public var program: Program
    /// Sorted: finished runs first, then by their lines.
    public var reports: [OutcomeReport]
    public var statesExplored: Int
    /// False when the state budget ran out: the outcomes found are possible, but others may be too.
    public var isComplete: Bool
    /// Pairs of accesses to one variable from two threads with nothing ordering them, one a write.
    public var races: [DataRace] = []

    public var outcomes: [Outcome] { reports.map(\.outcome) }

    public func report(for outcome: Outcome) -> OutcomeReport? {
        reports.first { $0.outcome == outcome }
    }
}

/// Two accesses to one variable that can happen at the same time on two threads, at least one a
/// write: what Thread Sanitizer would report.
public struct DataRace: Hashable, Sendable {
    public struct Access: Hashable, Sendable {
        public var thread: String
        public var isWrite: Bool
        public var span: SourceSpan
    }

    public var variable: String
    public var first: Access
    public var second: Access

    public var summary: String {
        func describe(_ access: Access) -> String {
            "\(access.isWrite ? "write" : "read") at line \(access.span.line) (\(access.thread))"
        }
        return "data race on \(variable): \(describe(first)) and \(describe(second)) can happen at the same time"
    }
}
