/// What the explorer found: the outcomes on the machine asked for, each with where else it can
/// happen and a witness schedule on demand; the outcomes only other machines show, labelled; and
/// how much it searched. When the outcomes are too many to list, it answers with their count,
/// the rules that order the lines and a sample, and still tells whether any one outcome can happen.
public struct Exploration: Sendable {
    /// A budget that ran out.
    public enum Stop: Hashable, Sendable, CustomStringConvertible {
        case stateBudget(Int)
        case memoryBudget(Int)
        case timeBudget(Double)
        /// A step of some schedule goes beyond what gcdquiz explores (a place in the snippet).
        case beyondLimits(Limit)

        public var description: String {
            switch self {
            case .stateBudget(let states): "the explorer stopped at its budget of \(states) states"
            case .memoryBudget(let bytes): "the explorer stopped at its memory budget of \(bytes >> 20) MB"
            case .timeBudget(let seconds): "the explorer stopped at its time budget of \(Self.seconds(seconds))"
            case .beyondLimits(let limit): limit.description
            }
        }

        /// The place in the snippet the stop is about, if any.
        public var span: SourceSpan? {
            switch self {
            case .stateBudget, .memoryBudget, .timeBudget: nil
            case .beyondLimits(.loop(let span, _)), .beyondLimits(.endlessOutput(let span)), .beyondLimits(.endlessRun(let span)): span
            }
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
        }
    }

    /// What gcdquiz does not explore, met in a schedule.
    public enum Limit: Hashable, Sendable, CustomStringConvertible {
        /// A loop whose bounds, known only while running, give its body more iterations than
        /// `Loop.maximumIterations`.
        case loop(SourceSpan, iterations: UInt64)
        /// A `while` loop whose iteration changes nothing but prints: it prints for ever.
        case endlessOutput(SourceSpan)
        /// Some schedule goes round this `while` loop for ever, each iteration changing the state
        /// (and coming back to it), so the run never ends and has no outcome to list.
        case endlessRun(SourceSpan)

        public var description: String {
            switch self {
            case .loop(_, let iterations):
                "this loop runs \(iterations.grouped) times: gcdquiz explores at most \(Loop.maximumIterations.grouped) iterations of a loop with a body (each is a step of its thread)"
            case .endlessOutput:
                "this loop prints for ever once it gets here (each time round it changes nothing but prints): a run with endless output has no outcome to list"
            case .endlessRun:
                "some schedule goes round this loop for ever, changing something each time, so the run never ends (and since code takes no time in the model, no timer fires meanwhile to stop it): gcdquiz answers only for runs that end or hang; a loop that sleeps, blocks or changes nothing while it waits is fine"
            }
        }
    }

    public var program: Program
    /// The machine the answer was asked for.
    public let requested: Machine
    /// The machine whose outcomes these are: the one asked for, with a core count at or past
    /// `enoughCores` read as "enough cores" (nil), which answers alike.
    public let machine: Machine
    /// The smallest core count at which no block of the snippet waits for a thread.
    public let enoughCores: Int
    /// The platforms explored: Apple's alone unless a BlockOperation runs several blocks.
    public let platforms: [Platform]
    /// Machines whose search did not finish within the budget: labels say nothing about them.
    public let unexplored: [Machine]
    /// Why the search of `machine` stopped before it had seen every state, if it did.
    public var stop: Stop?
    /// False when a budget ran out: the outcomes found are possible, but others may be too.
    public var isComplete: Bool { stop == nil }
    /// Every outcome on `machine`, sorted (finished runs first, then by their lines), when there
    /// are at most `listLimit`; empty past it (see `outcomeCount`, `rules`, `sample`).
    public var reports: [OutcomeReport]
    /// Whether `reports` holds every outcome found.
    public let isListed: Bool
    /// How many outcomes `machine` has (found so far, when incomplete), saturated at `UInt64.max`.
    public let outcomeCount: UInt64
    /// Outcomes that `machine` cannot show but another explored machine can, each labelled with
    /// where it happens (listed when each machine's outcomes are few enough).
    public internal(set) var elsewhere: [OutcomeReport]
    /// Pairs of accesses to one variable from two threads with nothing ordering them, one a write,
    /// on any machine explored.
    public var races: [DataRace] = []
    /// States visited by every machine's search together.
    public var statesExplored: Int

    let answers: [Machine: OutcomeAutomaton]
    let listLimit: Int

    public var outcomes: [Outcome] { reports.map(\.outcome) }

    /// The words for this exploration's facts, with the snippet's names.
    public var narrator: Narrator { Narrator(program: program) }

    var automaton: OutcomeAutomaton { answers[machine]! }

    init(program: Program, requested: Machine, target: Machine, answers: [Machine: OutcomeAutomaton], enoughCores: Int,
         platforms: [Platform], unexplored: [Machine], stop: Stop?, listLimit: Int) {
        self.program = program
        self.requested = requested
        machine = target
        self.answers = answers
        self.enoughCores = enoughCores
        self.platforms = platforms
        self.unexplored = unexplored
        self.stop = stop
        self.listLimit = listLimit
        let automaton = answers[target]!
        outcomeCount = automaton.outcomeCount
        // Machines that share one search (`Semantics.searchedMachine`) count it once.
        let shared = program.coresOnlyWidenTheExecutor
        var searches: [Machine: Int] = [:]
        for (machine, answer) in answers {
            searches[Semantics.searchedMachine(for: machine, coresOnlyWidenTheExecutor: shared)] = answer.graph.nodeCount
        }
        statesExplored = searches.values.reduce(0, +)
        var raceKeys: Set<[SourceSpan]> = []
        for machine in answers.keys.sorted(by: Self.order) {
            for race in answers[machine]!.graph.races
            where raceKeys.insert([race.first.span, race.second.span].sorted { ($0.line, $0.column) < ($1.line, $1.column) }).inserted {
                races.append(race)
            }
        }
        isListed = automaton.outcomeCount <= UInt64(listLimit)
        reports = []
        elsewhere = []
        // Each outcome with the machines that show it, in one walk of every automaton together.
        let machines = answers.keys.sorted(by: Self.order)
        let automata = machines.map { answers[$0]! }
        var listed: [(outcome: Outcome, lineNumbers: [Int32], label: MachineLabel)] = []
        // A few sets of machines label every outcome: each label is made once.
        var labels: [[Bool]: MachineLabel] = [:]
        if isListed {
            automaton.walkOutcomes(alongside: automata) { lines, numbers, end, shownBy in
                let shown: MachineLabel
                if let known = labels[shownBy] {
                    shown = known
                } else {
                    shown = label(on: zip(machines, shownBy).filter(\.1).map(\.0)) ?? emptyLabel
                    labels[shownBy] = shown
                }
                listed.append((Outcome(lines: lines, end: end), numbers, shown))
            }
        }
        let order = OutcomeSortOrder(lines: automaton.graph.lines)
        reports = listed.indices
            .sorted { order.precedes(listed[$0].lineNumbers, listed[$0].outcome.end, listed[$1].lineNumbers, listed[$1].outcome.end) }
            .map { report(for: listed[$0].outcome, in: automaton, label: listed[$0].label) }
        var others: Set<Outcome> = []
        for machine in machines where machine != target {
            let there = answers[machine]!
            guard there.outcomeCount <= UInt64(listLimit) else { continue }
            there.walkOutcomes(alongside: [automaton]) { lines, _, end, shownBy in
                if !shownBy[0] { others.insert(Outcome(lines: lines, end: end)) }
            }
        }
        elsewhere = others.sorted().map { outcome in
            let home = answers.keys.sorted(by: Self.order).first { answers[$0]!.contains(outcome) }!
            return report(for: outcome, in: answers[home]!)
        }
    }

    /// Machines in a fixed order: Apple's first, then by cores, enough cores last.
    static func order(_ a: Machine, _ b: Machine) -> Bool {
        if a.platform != b.platform { return a.platform == .apple }
        return (a.cores ?? .max) < (b.cores ?? .max)
    }

    /// The report of an outcome `automaton` (one machine's) allows.
    private func report(for outcome: Outcome, in automaton: OutcomeAutomaton, label known: MachineLabel? = nil) -> OutcomeReport {
        var reason: DeadlockReason?
        if outcome.end == .deadlock, let state = automaton.walk(outcome.lines).state, let node = automaton.endingNode(at: state, .deadlock) {
            reason = automaton.graph.deadlockReason(at: node, semantics: Semantics(program: program, machine: automaton.graph.machine))
        }
        return OutcomeReport(outcome: outcome, deadlock: reason, machines: known ?? label(of: outcome) ?? emptyLabel, automaton: automaton)
    }

    private var emptyLabel: MachineLabel {
        MachineLabel(coreCounts: [], enoughCores: enoughCores, platforms: [], platformsExplored: platforms)
    }

    /// Whether some schedule on `machine` produces the outcome (for every outcome, listed or not).
    public func contains(_ outcome: Outcome) -> Bool {
        automaton.contains(outcome)
    }

    /// Whether some outcome on `machine` starts with these lines and prints more after them.
    public func continues(_ lines: [String]) -> Bool {
        guard let state = automaton.walk(lines).state else { return false }
        return !automaton.outgoing(state).isEmpty
    }

    /// The outcome's report on `machine`, or nil when it cannot happen there.
    public func report(for outcome: Outcome) -> OutcomeReport? {
        if isListed { return reports.first { $0.outcome == outcome } }
        return contains(outcome) ? report(for: outcome, in: automaton) : nil
    }

    /// An outcome some explored machine shows but `machine` does not, with its label.
    public func reportElsewhere(for outcome: Outcome) -> OutcomeReport? {
        guard !contains(outcome) else { return nil }
        if let listed = elsewhere.first(where: { $0.outcome == outcome }) { return listed }
        guard let home = answers.keys.sorted(by: Self.order).first(where: { answers[$0]!.contains(outcome) }) else { return nil }
        return report(for: outcome, in: answers[home]!)
    }

    /// Where an outcome can happen among the machines explored, or nil when on none of them.
    public func label(of outcome: Outcome) -> MachineLabel? {
        label(on: answers.filter { $0.value.contains(outcome) }.map(\.key))
    }

    /// The label of an outcome these machines show, or nil when none does.
    private func label(on machines: [Machine]) -> MachineLabel? {
        var cores: Set<Int> = []
        var platformsFound: Set<Platform> = []
        for machine in machines {
            cores.insert(machine.cores ?? enoughCores)
            platformsFound.insert(machine.platform)
        }
        guard !cores.isEmpty else { return nil }
        return MachineLabel(coreCounts: cores.sorted(), enoughCores: enoughCores,
                            platforms: Platform.allCases.filter(platformsFound.contains), platformsExplored: platforms)
    }

    /// Whether `other` shows exactly this machine's outcomes; nil when it was not explored or
    /// either has more than `limit` outcomes. Said where two machines' counts are equal, which
    /// alone would not tell.
    public func sameOutcomes(on other: Machine, limit: Int = 10_000) -> Bool? {
        guard let there = answers[other], automaton.outcomeCount <= UInt64(limit), there.outcomeCount <= UInt64(limit) else { return nil }
        return automaton.showsSameOutcomes(as: there)
    }

    /// How many outcomes each explored machine has, in a fixed order.
    public var countsByMachine: [(machine: Machine, count: UInt64)] {
        answers.keys.sorted(by: Self.order).map { ($0, answers[$0]!.outcomeCount) }
    }

    /// The same exploration answering for another machine, when that machine was explored.
    public func retargeted(to machine: Machine) -> Exploration? {
        let target = Explorer.normalized(machine, enoughCores: enoughCores, platforms: platforms)
        guard let found = answers[target] else { return nil }
        return Exploration(program: program, requested: machine, target: target, answers: answers, enoughCores: enoughCores,
                           platforms: platforms, unexplored: unexplored,
                           stop: found.isComplete ? nil : (found.graph.stop ?? stop ?? .timeBudget(0)), listLimit: listLimit)
    }

    /// Pairs of lines printed in one order in every outcome that prints both: what a learner can
    /// say about outcomes too many to list (nil for more than 256 distinct lines).
    public var orderingRules: [LineOrder]? { automaton.orderingRules() }

    /// Outcomes drawn uniformly from `machine`'s, repeatable with the seed.
    public func sample(_ count: Int, seed: UInt64) -> [Outcome] {
        automaton.sample(count, seed: seed)
    }

    /// Whether, on `machine`, some block can wait for a thread of a full worker pool: then the
    /// answer depends on when libdispatch's monitor adds threads, and a process that ran the
    /// snippet before may still have the threads it added (live runs need a fresh process each).
    public var poolsFill: Bool { automaton.graph.poolsFill }

    /// Every line some schedule prints, on any machine explored.
    public var printedLines: Set<String> {
        answers.values.reduce(into: []) { $0.formUnion($1.graph.lines) }
    }
}

/// What the explorer knows of one outcome: why it ended so, where it can happen, and a schedule
/// that produces it (found when asked for).
public struct OutcomeReport: Hashable, Sendable {
    public var outcome: Outcome
    public var deadlock: DeadlockReason?
    /// The machines on which some schedule produces it.
    public var machines: MachineLabel
    /// The answer of a machine that produces it, where the schedule is looked up.
    let automaton: OutcomeAutomaton

    init(outcome: Outcome, deadlock: DeadlockReason?, machines: MachineLabel, automaton: OutcomeAutomaton) {
        self.outcome = outcome
        self.deadlock = deadlock
        self.machines = machines
        self.automaton = automaton
    }

    /// A schedule that produces the outcome: the first a search in move order meets.
    public var schedule: Schedule {
        let choices = WitnessSearch(automaton: automaton).schedule(for: outcome)?.choices ?? []
        return Schedule(program: automaton.graph.program, machine: automaton.graph.machine, choices: choices)
    }

    /// That schedule, step by step.
    public var witness: [ScheduleStep] { schedule.steps }

    public static func == (a: OutcomeReport, b: OutcomeReport) -> Bool {
        a.outcome == b.outcome && a.deadlock == b.deadlock && a.machines == b.machines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(outcome)
        hasher.combine(machines)
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
