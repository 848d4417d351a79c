import CHeap

/// Every state one machine's schedules reach, and the moves between them, with the lines each move
/// prints on its edge. What was printed is not part of a state (printing changes nothing that
/// can happen next), so schedules that print the same lines in different orders share their
/// states, and the outcomes are the paths' printed lines: an automaton (`OutcomeAutomaton`) that
/// counts, lists and tests them without visiting every interleaving.
///
/// Node 0 is the initial state. A node is a state, a trap (the process died: an ending of its
/// own), or a line in the middle of one print of several lines (`print("a\nb")`).
final class StateGraph: Sendable {
    /// How a node ends a run, if it does.
    enum Ending: Hashable, Sendable {
        /// Not an ending: moves leave it (or, for a state the search never reached, none known).
        case none
        /// No move is left and no work either.
        case finished
        /// No move is left but work is: what each waiter waits for is in the state.
        case stuck
        /// The process died (an index into `trapReasons`).
        case trap(Int)
    }

    /// One move of the scheduler: `move` is its index in `Semantics.moves(in:)` of the source (-1
    /// for the step between two lines of one print), `line` an index into `lines` (-1: prints
    /// nothing).
    struct Edge: Hashable, Sendable {
        var target: Int32
        var line: Int32
        var move: Int32
    }

    let program: Program
    let machine: Machine
    /// The state at each node; nil for traps and lines between lines.
    let states: [MachineState?]
    let endings: [Ending]
    /// Each node's edges: `edges[edgeStart[n] ..< edgeStart[n] + edgeCount[n]]`, in move order.
    let edgeStart: [Int32]
    let edgeCount: [Int32]
    let edges: [Edge]
    let trapReasons: [DeadlockReason]
    /// Every line printed, each once.
    let lines: [String]
    let races: [DataRace]
    /// Why the search stopped before it had seen every state, if it did.
    let stop: Exploration.Stop?
    /// The most threads of one pool running items at once, and the widest `concurrentPerform`:
    /// from as many cores as both, no block waits for a thread.
    let maxBusyWorkers: Int
    let maxPerformIterations: Int
    /// Some block waited for a thread of a full pool: the answer depends on when libdispatch's
    /// monitor adds threads (and a process that ran the snippet before may have kept them).
    let poolsFill: Bool

    var nodeCount: Int { endings.count }

    func outgoing(_ node: Int32) -> ArraySlice<Edge> {
        let start = Int(edgeStart[Int(node)])
        return edges[start..<start + Int(edgeCount[Int(node)])]
    }

    /// The words a deadlock at this ending node deserves.
    func deadlockReason(at node: Int32, semantics: Semantics) -> DeadlockReason? {
        switch endings[Int(node)] {
        case .trap(let index): trapReasons[index]
        case .stuck: .stuck(semantics.stuckFacts(states[Int(node)]!))
        case .none, .finished: nil
        }
    }

    /// From the search's builder, or from another graph (`relabelled(for:)`): what a search found.
    private init(program: Program, machine: Machine, found: some FoundParts, stop: Exploration.Stop?) {
        self.program = program
        self.machine = machine
        states = found.states
        endings = found.endings
        edgeStart = found.edgeStart
        edgeCount = found.edgeCount
        edges = found.edges
        trapReasons = found.trapReasons
        lines = found.lines
        races = found.races
        self.stop = stop
        maxBusyWorkers = found.maxBusyWorkers
        maxPerformIterations = found.maxPerformIterations
        poolsFill = found.poolsFill
    }

    /// The same graph, for another machine whose rules are the same
    /// (`Semantics.searchedMachine(for:coresOnlyWidenTheExecutor:)`): replays and words then name the machine asked for.
    func relabelled(for other: Machine) -> StateGraph {
        other == machine ? self : StateGraph(program: program, machine: other, found: self, stop: stop)
    }

    /// The limits one search may not pass.
    struct Budget {
        var states: Int
        var memory: HeapMeter
        var deadline: ContinuousClock.Instant?
        /// The wall-clock budget the deadline came from, for the message.
        var seconds: Double?
        /// Calls the search off: its graph is then thrown away (`MachineSearches`).
        var cancel: CancelFlag?
        /// Told, as the search finds them, the core counts below which some block waits for a
        /// thread (`MachineSearches` starts those machines' searches meanwhile).
        var widths: WidthFloor?
    }

    /// Explores every state the machine's rules reach from the program's start, depth first.
    static func explore(_ program: Program, on machine: Machine, budget: Budget) -> StateGraph {
        let semantics = Semantics(program: program, machine: machine)
        var builder = Builder(program: program)
        let clock = ContinuousClock()
        var stop: Exploration.Stop?

        let initial = semantics.initialState().canonical()
        var pending: [Int32] = [builder.node(for: initial, semantics: semantics).id]
        var expanded = 0
        search: while let node = pending.popLast() {
            expanded += 1
            if let widths = budget.widths { widths.raise(to: max(builder.maxBusyWorkers, builder.maxPerformIterations)) }
            if expanded % 64 == 0, let cancel = budget.cancel, cancel.isCancelled {
                stop = .timeBudget(budget.seconds ?? 0)
                break
            }
            if builder.states.count > budget.states {
                stop = .stateBudget(budget.states)
                break
            }
            if expanded % 1024 == 0 {
                // glibc's count walks the heap's bins: asked every 8,192 states it costs little
                // (every 1,024, 4% of a search), and 8,192 states are a few MB.
                if expanded % 8192 == 0 && budget.memory.isOverBudget {
                    stop = .memoryBudget(budget.memory.budget ?? 0)
                    break
                }
                if let deadline = budget.deadline, clock.now >= deadline {
                    stop = .timeBudget(budget.seconds ?? 0)
                    break
                }
            }
            let state = builder.states[Int(node)]!
            let moves = semantics.moves(in: state)
            var edges: [Edge] = []
            var continuations: [(node: Int32, edge: Edge)] = []
            for (index, move) in moves.enumerated() {
                let (next, step, reason): (MachineState, ScheduleStep, DeadlockReason?)
                switch semantics.apply(move, to: state) {
                case .next(let after, let taken): (next, step, reason) = (after, taken, nil)
                case .trapped(let after, let taken, let why): (next, step, reason) = (after, taken, why)
                case .beyondLimits(let limit):
                    stop = .beyondLimits(limit)
                    break search
                }
                let target: Int32
                if let reason {
                    target = builder.trap(reason)
                } else {
                    let found = builder.node(for: next.canonical(), semantics: semantics)
                    if found.isNew { pending.append(found.id) }
                    target = found.id
                }
                var printed: [Int32] = []
                if case .printed(let text) = step.event {
                    // Most prints are one line: no array of pieces to split it into.
                    printed = text.utf8.contains(UInt8(ascii: "\n"))
                        ? text.split(separator: "\n", omittingEmptySubsequences: false).map { builder.line(String($0)) }
                        : [builder.line(text)]
                }
                // A print of several lines is one move; the nodes between its lines have one edge.
                var source: Int32? = nil
                var line: Int32 = printed.first ?? -1
                for next in printed.dropFirst() {
                    let middle = builder.middle()
                    let edge = Edge(target: middle, line: line, move: source == nil ? Int32(index) : -1)
                    if let source { continuations.append((source, edge)) } else { edges.append(edge) }
                    source = middle
                    line = next
                }
                let edge = Edge(target: target, line: line, move: source == nil ? Int32(index) : -1)
                if let source { continuations.append((source, edge)) } else { edges.append(edge) }
            }
            builder.setEdges(of: node, edges)
            for (middle, edge) in continuations { builder.setEdges(of: middle, [edge]) }
            if moves.isEmpty {
                builder.endings[Int(node)] = semantics.isFinished(state) ? .finished : .stuck
            }
        }
        if stop == nil, program.hasWhileLoops, let loop = endlessLoop(endings: builder.endings, edgeStart: builder.edgeStart, edgeCount: builder.edgeCount,
                                               edges: builder.edges, states: builder.states, program: program) {
            stop = .beyondLimits(.endlessRun(loop))
        }
        return StateGraph(program: program, machine: machine, found: builder, stop: stop)
    }

    /// The graph as it grows.
    private struct Builder: FoundParts {
        let program: Program
        var states: [MachineState?] = []
        var endings: [Ending] = []
        var edgeStart: [Int32] = []
        var edgeCount: [Int32] = []
        var edges: [Edge] = []
        var index = StateIndex()
        var trapReasons: [DeadlockReason] = []
        var trapNodes: [DeadlockReason: Int32] = [:]
        var lines: [String] = []
        var lineIDs: [String: Int32] = [:]
        var races: [DataRace] = []
        var raceKeys: Set<[SourceSpan]> = []
        var maxBusyWorkers = 0
        var maxPerformIterations = 0
        var poolsFill = false

        init(program: Program) {
            self.program = program
        }

        private mutating func add(_ state: MachineState?, _ ending: Ending) -> Int32 {
            states.append(state)
            endings.append(ending)
            edgeStart.append(0)
            edgeCount.append(0)
            return Int32(states.count - 1)
        }

        /// The node of a state, new or already seen.
        mutating func node(for state: MachineState, semantics: Semantics) -> (id: Int32, isNew: Bool) {
            let hash = state.hashValue
            if let id = index.node(hash: hash, where: { states[Int($0)]! == state }) { return (id, false) }
            let id = add(state, .none)
            index.insert(id, hash: hash)
            checkRaces(state, semantics: semantics)
            measure(state, semantics: semantics)
            return (id, true)
        }

        mutating func trap(_ reason: DeadlockReason) -> Int32 {
            if let node = trapNodes[reason] { return node }
            trapReasons.append(reason)
            let node = add(nil, .trap(trapReasons.count - 1))
            trapNodes[reason] = node
            return node
        }

        mutating func middle() -> Int32 { add(nil, .none) }

        mutating func line(_ text: String) -> Int32 {
            if let id = lineIDs[text] { return id }
            lines.append(text)
            lineIDs[text] = Int32(lines.count - 1)
            return Int32(lines.count - 1)
        }

        mutating func setEdges(of node: Int32, _ new: [Edge]) {
            edgeStart[Int(node)] = Int32(edges.count)
            edgeCount[Int(node)] = Int32(new.count)
            edges += new
        }

        /// How wide the machine must be for no block of this state to wait for a thread.
        private mutating func measure(_ state: MachineState, semantics: Semantics) {
            maxBusyWorkers = max(maxBusyWorkers, semantics.busyWidth(in: state))
            maxPerformIterations = max(maxPerformIterations, semantics.performWidth(in: state))
            if semantics.machine.cores != nil && !poolsFill {
                poolsFill = !semantics.queuesWaitingForThreads(in: state).isEmpty
            }
        }

        /// Pairs of threads about to touch one shared variable, one of them writing.
        private mutating func checkRaces(_ state: MachineState, semantics: Semantics) {
            for race in semantics.races(in: state) {
                // One report per pair of places, whichever accesses met first.
                let key = [race.first.span, race.second.span].sorted { ($0.line, $0.column) < ($1.line, $1.column) }
                if raceKeys.insert(key).inserted { races.append(race) }
            }
        }
    }
}

/// The heap the process uses, against a budget: glibc's count of allocated bytes, so that the
/// search stops on what it really holds rather than an estimate.
struct HeapMeter {
    let budget: Int?
    let limit: Int?

    init(budget: Int?) {
        self.budget = budget
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

extension StateGraph {
    /// What a search finds, as the builder holds it while the search runs and the graph after.
    fileprivate protocol FoundParts {
        var states: [MachineState?] { get }
        var endings: [Ending] { get }
        var edgeStart: [Int32] { get }
        var edgeCount: [Int32] { get }
        var edges: [Edge] { get }
        var trapReasons: [DeadlockReason] { get }
        var lines: [String] { get }
        var races: [DataRace] { get }
        var maxBusyWorkers: Int { get }
        var maxPerformIterations: Int { get }
        var poolsFill: Bool { get }
    }
}

extension StateGraph: StateGraph.FoundParts {}
