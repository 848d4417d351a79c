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
        var stack = [Node(state: initial, moves: semantics.moves(in: initial))]
        var complete = true
        if stack[0].moves.isEmpty {
            record(terminalOutcome(initial, semantics), [], terminalReason(initial, semantics))
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
                let moves = semantics.moves(in: state)
                if moves.isEmpty {
                    record(terminalOutcome(state, semantics), path(stack, then: step), terminalReason(state, semantics))
                } else {
                    stack.append(Node(state: state, moves: moves, arrival: step))
                }
            }
        }

        return Exploration(
            program: program,
            reports: reports.values.sorted { $0.outcome < $1.outcome },
            statesExplored: visited.count,
            isComplete: complete)
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

    public var outcomes: [Outcome] { reports.map(\.outcome) }

    public func report(for outcome: Outcome) -> OutcomeReport? {
        reports.first { $0.outcome == outcome }
    }
}
