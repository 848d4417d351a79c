/// Finds every outcome a program can produce by exploring every schedule the model's rules allow,
/// on every machine where the answer differs: each width of libdispatch's worker pools from one
/// core up to the count at which no block waits for a thread, and (when a BlockOperation runs
/// several blocks) Apple's Foundation and swift-corelibs-foundation. Budgets of states, memory
/// and time keep the search from running away, and it says which one stopped it.
public struct Explorer: Sendable {
    /// How many distinct states one machine's search may visit before it stops and says so.
    public var stateBudget: Int
    /// How many bytes the searches may add to the heap before they stop (nil: no limit). The
    /// default keeps gcdquiz under about 1 GB whatever the snippet.
    public var memoryBudget: Int?
    /// Wall-clock seconds for every machine's search together (nil: no limit).
    public var timeBudget: Double?
    /// The most outcomes listed one by one; past it, an answer is a count, the rules that order
    /// the lines and a sample, and predictions are graded one by one against the automaton.
    public var listLimit: Int

    public static let defaultStateBudget = 2_000_000
    public static let defaultMemoryBudget = 768 << 20
    public static let defaultTimeBudget = 8.0
    public static let defaultListLimit = 5_000

    public init(stateBudget: Int = Explorer.defaultStateBudget, memoryBudget: Int? = Explorer.defaultMemoryBudget,
                timeBudget: Double? = Explorer.defaultTimeBudget, listLimit: Int = Explorer.defaultListLimit) {
        self.stateBudget = stateBudget
        self.memoryBudget = memoryBudget
        self.timeBudget = timeBudget
        self.listLimit = listLimit
    }

    /// Every outcome on every machine, with `machine`'s as the answer (`Exploration.outcomes`).
    ///
    /// A print reads its values and outputs its line in one step, unless a variable it reads
    /// takes part in a data race: then another thread may write it and print between the two
    /// (`Program.racyPrintVariables`). Which variables race is what the search finds, so a search
    /// that finds a print's variable racing is done again with that print in two steps (and
    /// again, should the new schedules show another); race-free programs are searched once.
    public func explore(_ program: Program, for machine: Machine = .interview) -> Exploration {
        let clock = ContinuousClock()
        let budget = StateGraph.Budget(
            states: stateBudget, memory: HeapMeter(budget: memoryBudget),
            deadline: timeBudget.map { clock.now + .milliseconds(Int($0 * 1000)) }, seconds: timeBudget)
        var program = program
        let printed = program.sharedVariablesPrinted
        while true {
            let exploration = explore(program, for: machine, budget: budget)
            let racing = Set(exploration.races.map(\.variable)).intersection(printed)
            guard !racing.isSubset(of: program.racyPrintVariables) else { return exploration }
            program.racyPrintVariables.formUnion(racing)
        }
    }

    private func explore(_ program: Program, for machine: Machine, budget: StateGraph.Budget) -> Exploration {
        var answers: [Machine: OutcomeAutomaton] = [:]
        let platforms = program.runsOperationBlocksSideBySide || program.asksForTheMainThreadWithTasks ? Platform.allCases : [.apple]
        // While this thread runs the widest machines, another starts on those they show are needed.
        let searches = MachineSearches(program: program, platforms: platforms, budget: budget)
        searches.startAhead()

        func answer(_ machine: Machine) -> OutcomeAutomaton {
            if let known = answers[machine] { return known }
            let automaton = searches.search(machine)
            answers[machine] = automaton
            return automaton
        }

        var enoughCores = 1
        for platform in platforms {
            let wide = answer(Machine(cores: nil, platform: platform))
            enoughCores = max(enoughCores, wide.graph.maxBusyWorkers, wide.graph.maxPerformIterations)
        }
        let target = Self.normalized(machine, enoughCores: enoughCores, platforms: platforms)
        let targetAnswer = answer(target)
        let stop = targetAnswer.isComplete ? nil : (targetAnswer.graph.stop ?? .timeBudget(timeBudget ?? 0))
        // The other machines, while the budget lasts: each labels outcomes; one cut short is left
        // out ("not computed") rather than read as "impossible there".
        let others = platforms.flatMap { platform in
            ((1..<enoughCores).map(Optional.some) + [nil]).map { Machine(cores: $0, platform: platform) }
        }.filter { $0 != target }
        // Once the answer itself is incomplete, labels from other machines could not say where an
        // outcome cannot happen: the budget goes to nothing more.
        // Their searches are independent of each other: they share the cores (one at a time
        // each), and each starts only while the time budget lasts. The widest go first: their
        // searches are the longest, and the narrow ones fill in beside them (in the
        // narrowest-first order, the last search to start on two cores was the longest).
        let toExplore = (stop == nil ? others.filter { answers[$0] == nil } : [])
            .sorted { ($0.cores ?? .max) > ($1.cores ?? .max) }
        answers.merge(searches.settle(needed: toExplore)) { known, _ in known }
        var unexplored: [Machine] = []
        for other in others where !(answers[other]?.isComplete ?? false) {
            answers[other] = nil
            unexplored.append(other)
        }
        return Exploration(program: program, requested: machine, target: target, answers: answers, enoughCores: enoughCores,
                           platforms: platforms, unexplored: unexplored, stop: stop, listLimit: listLimit)
    }

    /// The machine whose answer stands for `machine`: past `enoughCores` every width answers alike.
    static func normalized(_ machine: Machine, enoughCores: Int, platforms: [Platform]) -> Machine {
        let cores = machine.cores.flatMap { $0 >= enoughCores ? nil : max(1, $0) }
        return Machine(cores: cores, platform: platforms.contains(machine.platform) ? machine.platform : .apple)
    }
}

extension Program {
    /// The shared variables some `print` reads.
    var sharedVariablesPrinted: Set<VariableID> {
        var found: Set<VariableID> = []
        walk { statement, _ in
            guard case .print(let items) = statement.action else { return }
            for item in items { found.formUnion(item.variablesRead.filter { self[$0].isGlobal }) }
        }
        return found
    }

    /// Whether some BlockOperation has more than one execution block: Apple's Foundation runs them
    /// side by side, swift-corelibs-foundation one after another, so the platforms can differ.
    var runsOperationBlocksSideBySide: Bool {
        if operations.contains(where: { $0.blocks.count > 1 }) { return true }
        var adds = false
        walk { statement, _ in
            if case .operation(_, .addBlock) = statement.action { adds = true }
        }
        return adds
    }

    /// Whether Swift-concurrency code reads `Thread.isMainThread`: on Linux the main thread ends
    /// when the top-level code first suspends (`MachineState.mainThreadLeft`), on Apple's
    /// platforms it runs the main actor's jobs for good, so the platforms can differ.
    var asksForTheMainThreadWithTasks: Bool {
        usesTasks && containsStatement { statement in statement.action.expressions.contains(where: \.readsThread) }
    }
}
