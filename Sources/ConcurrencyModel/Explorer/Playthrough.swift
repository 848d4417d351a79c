/// The learner in the scheduler's seat: the run so far as a history of states, the moves the
/// model allows in the last one, and where the goal stands. A value: undo and restart drop states
/// from the history, and a copy is a saved game.
///
/// Moves are those of the explorer (`Semantics.moves`), numbered from 1 in its order: a thread's
/// next step, a queue starting its next item, a timer firing, the clock moving on. A step that
/// touches only a thread's own locals (a loop starting, a local assigned, a call) is the only
/// move the explorer offers when one is due (its partial-order reduction: such a step commutes
/// with every other, so when it is taken changes nothing anyone can see); the playthrough takes
/// it at once and shows it among the move's steps, so every choice left to the learner changes
/// what can happen, and every state the learner reaches is one the explorer visited, where
/// hints and "out of reach" are exact.
public struct Playthrough: Sendable {
    /// The exploration whose machine the run is on, whose graph answers reachability.
    public let exploration: Exploration
    public private(set) var goal: PlayGoal?
    let semantics: Semantics
    /// Answers "can the goal still be reached from here?"; nil without a goal or when the
    /// exploration is incomplete.
    private var guide: GoalGuide?
    private var positions: [Position]

    /// One state of the run and how the learner got there.
    struct Position: Sendable {
        var state: MachineState
        /// The state's node in the exploration's graph; nil when the exploration is incomplete.
        var node: Int32?
        var printed: [String]
        var ending: PlayEnding?
        /// What the move into this position did: the learner's step, then the local steps taken
        /// at once after it.
        var steps: [TakenStep]
        /// The number of the move chosen to get here (nil at the start).
        var chosen: Int?
        var status: GoalStatus
        /// The goal can still be reached from here.
        var alive: Bool
    }

    public init(exploration: Exploration, goal: PlayGoal? = nil) {
        self.exploration = exploration
        semantics = Semantics(program: exploration.program, machine: exploration.automaton.graph.machine)
        self.goal = goal
        let initial = semantics.initialState()
        var start = Position(state: initial, node: exploration.isComplete ? 0 : nil, printed: [], ending: nil, steps: [],
                             chosen: nil, status: .none, alive: false)
        positions = []
        settle(&start)
        positions = [start]
        setGoal(goal)
    }

    /// Plays `choices` (move numbers) from the start; nil at the first one that is not a move.
    public static func replaying(_ choices: [Int], exploration: Exploration, goal: PlayGoal? = nil) -> Playthrough? {
        var play = Playthrough(exploration: exploration, goal: goal)
        for choice in choices where !play.play(choice) { return nil }
        return play
    }

    /// The learner's moves of a schedule towards `outcome`: for an outcome some schedule produces,
    /// the witness `explain` shows (its steps that the playthrough takes by itself left out);
    /// for one no schedule produces, the shortest way to print as much of it as any schedule
    /// does and on until the learner would be stuck, where the playthrough says why.
    public static func script(towards outcome: Outcome, in exploration: Exploration) -> [Int] {
        var play = Playthrough(exploration: exploration, goal: .outcome(outcome))
        var script: [Int] = []
        if exploration.isComplete, let witness = WitnessSearch(automaton: exploration.automaton).schedule(for: outcome)?.choices {
            var taken = play.lastSteps.count
            while taken < witness.count, play.play(Int(witness[taken]) + 1) {
                script.append(Int(witness[taken]) + 1)
                taken += play.lastSteps.count
            }
            return script
        }
        while script.count < 100_000, case .move(let move, _) = play.hint(), play.play(move.number) {
            script.append(move.number)
        }
        return script
    }

    /// Sets (or clears) the goal, keeping the moves made: where it stands is judged again from the start.
    public mutating func setGoal(_ goal: PlayGoal?) {
        self.goal = goal
        guide = goal.flatMap { goal in
            exploration.isComplete ? GoalGuide(goal: goal, exploration: exploration, semantics: semantics) : nil
        }
        for index in positions.indices {
            judge(&positions[index], after: index > 0 ? positions[index - 1] : nil, moveCount: index)
        }
    }

    // MARK: Reading

    /// The learner's moves so far.
    public var moveCount: Int { positions.count - 1 }
    /// The numbers chosen, in order: replaying them gives this playthrough again.
    public var choices: [Int] { positions.dropFirst().compactMap(\.chosen) }
    public var output: [String] { current.printed }
    public var ending: PlayEnding? { current.ending }
    public var status: GoalStatus { current.status }
    /// What the last move did (at the start: the local steps taken before the first choice).
    public var lastSteps: [TakenStep] { current.steps }
    /// The snippet's words: names of queues, threads, variables.
    public var narrator: Narrator { exploration.narrator }

    var current: Position { positions[positions.count - 1] }
    var state: MachineState { current.state }

    /// The moves the model allows now, numbered from 1 (none once the run has ended).
    public var moves: [PlayMove] {
        guard current.ending == nil else { return [] }
        return semantics.moves(in: state).enumerated().map { index, move in
            let kind: PlayMove.Kind = switch move {
            case .step(let thread): .step(ThreadID(thread))
            case .start(let queue), .overtake(let queue): .start(queue)
            case .fire(let timer): .fire(state.timers[timer].queue, line: exploration.program[state.timers[timer].body].span?.line)
            case .fireSource(let index):
                .fire(exploration.program.timerSources[index].queue,
                      line: state.timerSources[index].handler.flatMap { exploration.program[$0.body].span?.line })
            case .advance(let time): .advance(to: time)
            case .wake(let timer): .wake(task: state.taskTimers[timer].task, due: state.taskTimers[timer].due)
            case .spareThread: .spareThread
            case .corrupt(let race): .step(race.second.thread)
            }
            switch semantics.apply(move, to: state) {
            case .next(_, let step), .trapped(_, let step, _):
                return PlayMove(number: index + 1, kind: kind, step: step, limit: nil)
            case .beyondLimits(let limit):
                return PlayMove(number: index + 1, kind: kind, step: nil, limit: limit)
            }
        }
    }

    // MARK: Playing

    /// Takes move `number` (as `moves` numbers them). False when there is no such move, or it
    /// goes beyond what gcdquiz explores.
    @discardableResult
    public mutating func play(_ number: Int) -> Bool {
        guard current.ending == nil else { return false }
        let moves = semantics.moves(in: state)
        guard moves.indices.contains(number - 1) else { return false }
        var next = current
        next.steps = []
        next.chosen = number
        guard take(moves[number - 1], index: number - 1, into: &next, automatic: false) else { return false }
        settle(&next)
        judge(&next, after: current, moveCount: positions.count)
        positions.append(next)
        return true
    }

    /// Takes back the last move. False at the start.
    @discardableResult
    public mutating func undo() -> Bool {
        guard positions.count > 1 else { return false }
        positions.removeLast()
        return true
    }

    /// Back to the start, goal kept.
    public mutating func restart() {
        positions.removeSubrange(1...)
    }

    private func take(_ move: Semantics.Move, index: Int, into position: inout Position, automatic: Bool) -> Bool {
        let step: ScheduleStep
        switch semantics.apply(move, to: position.state) {
        case .next(let after, let taken):
            position.state = after
            step = taken
        case .trapped(let after, let taken, let reason):
            position.state = after
            step = taken
            position.ending = .died(reason)
        case .beyondLimits:
            return false
        }
        position.steps.append(TakenStep(step: step, automatic: automatic))
        if case .printed(let text) = step.event {
            position.printed += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        position.node = position.node.flatMap { node in
            GraphCursor(graph: exploration.automaton.graph).follow(node, move: index, to: position.ending == nil ? position.state : nil)
        }
        return true
    }

    /// Takes the local steps due (the only move offered, touching only the thread's locals), and
    /// notes how the run ended when no move is left.
    private func settle(_ position: inout Position) {
        while position.ending == nil {
            let moves = semantics.moves(in: position.state)
            if moves.isEmpty {
                position.ending = semantics.isFinished(position.state) ? .finished : .stuck(semantics.stuckFacts(position.state))
                return
            }
            guard moves.count == 1, isForced(moves[0], in: position.state), take(moves[0], index: 0, into: &position, automatic: true)
            else { return }
        }
    }

    /// A move the search's reductions take before any other, so no choice of the player's:
    /// a step that touches only its thread's locals, or the global executor's next job starting
    /// where no other start wants its thread (`Semantics+Reduction.swift`).
    private func isForced(_ move: Semantics.Move, in state: MachineState) -> Bool {
        switch move {
        case .step(let id): state.threads.first { $0.id == id }.map { semantics.isLocal($0, in: state) } ?? false
        case .start: move == semantics.jobStartFirst(in: state)
        case .overtake, .fire, .fireSource, .advance, .wake, .spareThread, .corrupt: false
        }
    }

    // MARK: The goal

    /// Where the goal stands at `position`, reached from `previous` by the `moveCount`-th move.
    private func judge(_ position: inout Position, after previous: Position?, moveCount: Int) {
        position.alive = false
        guard let goal else {
            position.status = .none
            return
        }
        guard let guide, let node = position.node else {
            position.status = .unguided
            return
        }
        if isReached(goal, at: position) {
            if case .reached(let at)? = previous?.status { position.status = .reached(atMove: at) } else { position.status = .reached(atMove: moveCount) }
            return
        }
        if case .outOfReach(let at, let why)? = previous?.status {
            position.status = .outOfReach(atMove: at, why)
            return
        }
        let matched = guide.matched(position.printed)
        if let matched, guide.isAlive(node: node, matched: matched) {
            position.alive = true
            position.status = .open
            return
        }
        let walker = GoalWalk(semantics: semantics)
        switch goal {
        case .deadlock, .crash, .race:
            position.status = .outOfReach(atMove: moveCount, .noSchedule(fromStart: previous == nil))
        case .outcome(let outcome):
            guard let matched else {
                let at = zip(position.printed, outcome.lines).prefix { $0 == $1 }.count
                let wanted: NextEvent = at < outcome.lines.count ? .line(outcome.lines[at]) : .end(outcome.end)
                position.status = .outOfReach(atMove: moveCount, .printedInstead(printed: position.printed[at], wanted: wanted))
                return
            }
            if previous?.alive == true {
                // The goal was within reach before this move: say how far it still goes from here.
                let why = walker.explain(outcome, from: position.state, matched: matched)
                position.status = .outOfReach(atMove: moveCount, why.map {
                    .cannotComeNext(prefix: Array(outcome.lines[..<(matched + $0.after.count)]), printed: matched, wanted: $0.wanted,
                                    blockers: $0.blockers, proved: false)
                } ?? .noSchedule(fromStart: false))
            } else if let why = walker.stuck(outcome, at: position.state, matched: matched) {
                // No schedule produces it: said once the learner is stuck, every move left printing
                // something else.
                position.status = .outOfReach(atMove: moveCount, .cannotComeNext(
                    prefix: Array(outcome.lines[..<matched]), printed: matched, wanted: why.wanted, blockers: why.blockers,
                    proved: matched >= guide.longestPrefix))
            } else {
                position.status = .open
            }
        }
    }

    private func isReached(_ goal: PlayGoal, at position: Position) -> Bool {
        switch goal {
        case .outcome(let outcome): position.ending?.end == outcome.end && position.printed == outcome.lines
        case .deadlock: position.ending?.end == .deadlock
        case .crash: if case .died = position.ending { true } else { false }
        case .race: position.ending == nil && !semantics.races(in: position.state).isEmpty
        }
    }

    /// The data races the state holds right now: two threads about to touch one variable.
    public var races: [DataRace] {
        current.ending == nil ? semantics.races(in: state) : []
    }

    // MARK: Hints

    /// The move that keeps the goal reachable, or what else to do.
    public func hint() -> Hint {
        switch current.status {
        case .none, .unguided, .reached: return .nothing
        case .outOfReach: return undoHint()
        case .open: break
        }
        guard let guide, let node = current.node, let matched = guide.matched(current.printed) else { return .nothing }
        let offered = moves
        if current.alive {
            let cursor = GraphCursor(graph: exploration.automaton.graph)
            let ranked = offered.compactMap { move -> (move: PlayMove, distance: Int32)? in
                guard let (target, lines) = cursor.target(node, move: move.number - 1),
                    let after = guide.matched(current.printed + lines), let distance = guide.distance(node: target, matched: after)
                else { return nil }
                return (move, distance)
            }
            return ranked.min { $0.distance < $1.distance }.map { .move($0.move, reachable: true) } ?? .nothing
        }
        // No schedule reaches it: the move towards the furthest any schedule gets along it.
        guard let index = guide.firstMoveTowardsLongestPrefix(from: node, matched: matched), offered.indices.contains(index) else {
            return .nothing
        }
        return .move(offered[index], reachable: false)
    }

    /// Back to the last move at which the goal could still be reached, if any.
    private func undoHint() -> Hint {
        guard let last = positions.lastIndex(where: \.alive), last < positions.count - 1 else { return .nothing }
        return .undoTo(last)
    }
}

/// One move the learner can make, and what it does.
public struct PlayMove: Hashable, Sendable {
    /// Its number among the moves offered, from 1.
    public var number: Int
    public var kind: Kind
    /// The step it takes, as a witness would show it; nil when it goes beyond what gcdquiz explores.
    public var step: ScheduleStep?
    /// Why it cannot be taken, when it goes beyond what gcdquiz explores.
    public var limit: Exploration.Limit?

    /// Who moves: a thread (a task, once Swift concurrency is modelled), a queue handing out its
    /// next item (an actor or executor later), a timer, or the clock.
    public enum Kind: Hashable, Sendable {
        case step(ThreadID)
        case start(QueueID)
        /// The `asyncAfter` timer of a block (starting at `line`) onto the queue fires.
        case fire(QueueID, line: Int?)
        /// The `Task.sleep` of a task (numbered from 0) ends.
        case wake(task: Int, due: Int)
        case advance(to: Int)
        /// libdispatch's monitor adds an idle thread to a pool (`Semantics.spareThreadPools`).
        case spareThread
    }
}

/// A step a move took, and whether the playthrough took it by itself (a step only its thread sees).
public struct TakenStep: Hashable, Sendable {
    public var step: ScheduleStep
    public var automatic: Bool
}

/// Follows a playthrough's moves through the exploration's graph, whose edges are in move order.
struct GraphCursor {
    let graph: StateGraph

    /// The node a move leads to and the lines it prints on the way (through the nodes between the
    /// lines of one print).
    func target(_ node: Int32, move index: Int) -> (node: Int32, lines: [String])? {
        guard let edge = graph.outgoing(node).first(where: { $0.move == Int32(index) }) else { return nil }
        var lines = edge.line >= 0 ? [graph.lines[Int(edge.line)]] : []
        var target = edge.target
        while graph.states[Int(target)] == nil, case .none = graph.endings[Int(target)],
            let next = graph.outgoing(target).first, next.move < 0 {
            if next.line >= 0 { lines.append(graph.lines[Int(next.line)]) }
            target = next.target
        }
        return (target, lines)
    }

    /// The node after the move, checked against the state the playthrough reached (nil for a
    /// trap): nil when they disagree, so that no hint is ever given from the wrong state.
    func follow(_ node: Int32, move index: Int, to state: MachineState?) -> Int32? {
        guard let (target, _) = target(node, move: index) else { return nil }
        if let state {
            return graph.states[Int(target)] == state.canonical() ? target : nil
        }
        return graph.states[Int(target)] == nil ? target : nil
    }
}
