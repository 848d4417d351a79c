import CHeap

/// Finds every outcome a program can produce by exploring every schedule the model's rules allow.
/// States already seen are not explored again; budgets of states and of memory keep the search
/// from running away, and it says which one stopped it.
public struct Explorer: Sendable {
    /// How many distinct states the search may visit before it stops and says it is incomplete.
    public var stateBudget: Int
    /// How many bytes the search may add to the heap before it stops (nil: no limit). The
    /// default keeps gcdquiz under about 1 GB whatever the snippet.
    public var memoryBudget: Int?

    public static let defaultStateBudget = 2_000_000
    public static let defaultMemoryBudget = 768 << 20

    public init(stateBudget: Int = Explorer.defaultStateBudget, memoryBudget: Int? = Explorer.defaultMemoryBudget) {
        self.stateBudget = stateBudget
        self.memoryBudget = memoryBudget
    }

    public func explore(_ program: Program) -> Exploration {
        let semantics = Semantics(program: program)
        var reports: [Outcome: OutcomeReport] = [:]
        var visited: Set<MachineState> = []
        var races: [DataRace] = []
        var raceKeys: Set<[SourceSpan]> = []
        let memory = HeapMeter(budget: memoryBudget)

        func checkRaces(_ state: MachineState) {
            let running = state.threads.filter { semantics.isRunnable($0, in: state) }
            guard running.count > 1 else { return }
            // Only threads about to touch a shared variable can race: usually few of many.
            let accesses = running.map { ($0, semantics.nextAccesses(of: $0)) }.filter { !$0.1.isEmpty }
            guard accesses.count > 1 else { return }
            for i in accesses.indices {
                for j in accesses.indices where j > i {
                    for a in accesses[i].1 {
                        for b in accesses[j].1 where a.variable == b.variable && (a.isWrite || b.isWrite) {
                            // One report per pair of places, whichever accesses met first.
                            let key = [a.span, b.span].sorted { ($0.line, $0.column) < ($1.line, $1.column) }
                            guard raceKeys.insert(key).inserted else { continue }
                            races.append(DataRace(
                                variable: a.variable,
                                first: .init(thread: accesses[i].0.threadID, isWrite: a.isWrite, span: a.span),
                                second: .init(thread: accesses[j].0.threadID, isWrite: b.isWrite, span: b.span)))
                        }
                    }
                }
            }
        }

        struct Node {
            var state: MachineState
            var moves: [Semantics.Move]
            var next = 0
        }

        /// The moves taken from the initial state to the top of the stack, then `choice`.
        func path(_ stack: [Node], then choice: Int) -> [Int32] {
            stack.dropLast().map { Int32($0.next - 1) } + [Int32(choice)]
        }

        func record(_ state: MachineState, end: End, _ path: [Int32], _ reason: DeadlockReason?) {
            let outcome = Outcome(lines: semantics.outputs.lines(state.output), end: end)
            if reports[outcome] == nil {
                reports[outcome] = OutcomeReport(outcome: outcome, schedule: Schedule(program: program, choices: path), deadlock: reason)
            }
        }

        func recordTerminal(_ state: MachineState, _ path: [Int32]) {
            let finished = semantics.isFinished(state)
            record(state, end: finished ? .finished : .deadlock, path, finished ? nil : .stuck(semantics.stuckFacts(state)))
        }

        let initial = semantics.initialState()
        visited.insert(initial)
        checkRaces(initial)
        var stack = [Node(state: initial, moves: semantics.moves(in: initial))]
        var stop: Exploration.Stop?
        if stack[0].moves.allSatisfy(semantics.isOptional) {
            recordTerminal(initial, [])
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
            let choice = stack[top].next
            let move = stack[top].moves[choice]
            stack[top].next += 1

            switch semantics.apply(move, to: stack[top].state) {
            case .trapped(let state, _, let reason):
                record(state, end: .deadlock, path(stack, then: choice), reason)
            case .next(let state, _):
                guard visited.insert(state).inserted else { continue }
                if visited.count > stateBudget {
                    stop = .stateBudget(stateBudget)
                    break search
                }
                if visited.count % 64 == 0, memory.isOverBudget {
                    stop = .memoryBudget(memoryBudget ?? 0)
                    break search
                }
                checkRaces(state)
                let moves = semantics.moves(in: state)
                // When only optional moves remain (helpers for concurrentPerform), the run may
                // also stop here: on one core no helper ever comes.
                if moves.allSatisfy(semantics.isOptional) {
                    recordTerminal(state, path(stack, then: choice))
                }
                if !moves.isEmpty {
                    stack.append(Node(state: state, moves: moves))
                }
            }
        }

        return Exploration(
            program: program,
            reports: reports.values.sorted { $0.outcome < $1.outcome },
            statesExplored: visited.count,
            stop: stop,
            races: races)
    }
}

/// The heap the process uses, against a budget: glibc's count of allocated bytes, so that the
/// search stops on what it really holds rather than an estimate.
struct HeapMeter {
    let limit: Int?

    init(budget: Int?) {
        limit = budget.map { Self.allocatedBytes() + $0 }
    }

    var isOverBudget: Bool {
        guard let limit else { return false }
        return Self.allocatedBytes() > limit
    }

    static func allocatedBytes() -> Int {
        Int(gcdquiz_heap_allocated_bytes())
    }
}

/// A schedule kept as the choices made at each step (an index into the moves the state offered),
/// replayed into steps when someone asks: an exploration with hundreds of thousands of outcomes
/// keeps a few bytes per step instead of a sentence.
public struct Schedule: Hashable, Sendable {
    let program: Program
    let choices: [Int32]

    /// The steps, replayed from the initial state.
    public var steps: [ScheduleStep] {
        let semantics = Semantics(program: program)
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
            }
        }
        return steps
    }

    public static func == (a: Schedule, b: Schedule) -> Bool { a.choices == b.choices }
    public func hash(into hasher: inout Hasher) { hasher.combine(choices) }
}

/// What the explorer found: every outcome with a witness schedule, and how much it searched.
public struct Exploration: Sendable {
    /// A budget that ran out.
    public enum Stop: Hashable, Sendable, CustomStringConvertible {
        case stateBudget(Int)
        case memoryBudget(Int)

        public var description: String {
            switch self {
            case .stateBudget(let states): "the explorer stopped at its budget of \(states) states"
            case .memoryBudget(let bytes): "the explorer stopped at its memory budget of \(bytes >> 20) MB"
            }
        }
    }

    public var program: Program
    /// Sorted: finished runs first, then by their lines.
    public var reports: [OutcomeReport]
    public var statesExplored: Int
    /// Why the search stopped before it had seen every state, if it did.
    public var stop: Stop?
    /// False when a budget ran out: the outcomes found are possible, but others may be too.
    public var isComplete: Bool { stop == nil }
    /// Pairs of accesses to one variable from two threads with nothing ordering them, one a write.
    public var races: [DataRace] = []

    public var outcomes: [Outcome] { reports.map(\.outcome) }

    /// The words for this exploration's facts, with the snippet's names.
    public var narrator: Narrator { Narrator(program: program) }

    public func report(for outcome: Outcome) -> OutcomeReport? {
        reports.first { $0.outcome == outcome }
    }
}

/// Two accesses to one variable that can happen at the same time on two threads, at least one a
/// write: what Thread Sanitizer would report. Facts only; `Narrator.words(for:)` says it.
public struct DataRace: Hashable, Sendable {
    public struct Access: Hashable, Sendable {
        public var thread: ThreadID
        public var isWrite: Bool
        public var span: SourceSpan
    }

    /// The snippet's shared variable, as the IR has it (`Narrator.name(_:)` gives its name).
    public var variable: VariableID
    public var first: Access
    public var second: Access
}
