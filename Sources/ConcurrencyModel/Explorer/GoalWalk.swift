/// Why an outcome cannot be reached from a playthrough's state: how far along its lines some
/// schedule from here still gets, the line (or ending) that cannot come next there, and the
/// model's reasons, found where every thread has gone as far as it can without printing (as
/// `Explainer` finds them for the whole snippet). It walks the learner's own numbered states, so
/// that the threads it names are those on the learner's screen.
struct GoalWalk {
    let semantics: Semantics
    /// How many states one look-ahead may visit: the reasons are found in the first few.
    static let stateBudget = 20_000

    struct Finding {
        /// Lines of the goal some schedule from here can still print first.
        var after: [String]
        var wanted: NextEvent
        var blockers: [Blocker]
    }

    /// Where a goal that was reachable before the last move stops, from here: how far along its
    /// lines some schedule still gets, and why the next line (or the ending) cannot come there.
    /// Nil when the walk (within its budget) finds the whole outcome still possible.
    func explain(_ outcome: Outcome, from state: MachineState, matched: Int) -> Finding? {
        var level = [state]
        var done = matched
        var visited = 0
        while true {
            let frontier = Frontier(from: level, semantics: semantics, budget: Self.stateBudget - visited)
            visited += frontier.states.count
            let wanted = Self.wanted(outcome, after: done)
            var next: [MachineState] = []
            var printedCount = 0
            switch wanted {
            case .line:
                // The prints that go on with the goal's lines; a print of several lines must match
                // them all (the fewest lines first, if prints of several sizes do).
                let going = frontier.prints.filter { print in
                    done + print.lines.count <= outcome.lines.count && Array(outcome.lines[done..<done + print.lines.count]) == print.lines
                }
                if let fewest = going.map(\.lines.count).min() {
                    printedCount = fewest
                    next = going.filter { $0.lines.count == fewest }.map(\.after)
                }
            case .end(let end):
                if frontier.endings.contains(end) { return nil }
            }
            guard !next.isEmpty else {
                return Finding(after: Array(outcome.lines[matched..<done]), wanted: wanted,
                               blockers: frontier.blockers(for: wanted, prefix: Array(outcome.lines[..<done]), semantics: semantics,
                                                           current: done == matched ? state : nil))
            }
            level = next
            done += printedCount
        }
    }

    /// For an outcome no schedule produces: whether the learner is stuck here, every move left
    /// printing (or none left) and none of them what the goal wants next; then why, in this state.
    func stuck(_ outcome: Outcome, at state: MachineState, matched: Int) -> Finding? {
        let moves = semantics.moves(in: state)
        let analysis = BlockerAnalysis(program: semantics.program, semantics: semantics)
        guard analysis.isSaturated(state, moves: moves) else { return nil }
        let wanted = Self.wanted(outcome, after: matched)
        var traps: [DeadlockReason] = []
        for move in moves {
            switch semantics.apply(move, to: state) {
            case .next(_, let step):
                if case .printed(let text) = step.event, case .line(let line) = wanted,
                    text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == line {
                    return nil
                }
            case .trapped(_, _, let reason):
                traps.append(reason)
            case .beyondLimits:
                break
            }
        }
        var frontier = Frontier(from: [], semantics: semantics, budget: 0)
        frontier.states = [(state, moves)]
        frontier.traps = traps
        return Finding(after: [], wanted: wanted,
                       blockers: frontier.blockers(for: wanted, prefix: Array(outcome.lines[..<matched]), semantics: semantics, current: state))
    }

    private static func wanted(_ outcome: Outcome, after done: Int) -> NextEvent {
        done < outcome.lines.count ? .line(outcome.lines[done]) : .end(outcome.end)
    }
}

/// The states reachable from some states without printing, and what can happen next from them:
/// the prints (with the state after each), the endings, the traps.
struct Frontier {
    /// Each state with the moves it offers, deduplicated by their canonical form.
    var states: [(state: MachineState, moves: [Semantics.Move])] = []
    var prints: [(lines: [String], after: MachineState)] = []
    var endings: Set<End> = []
    var traps: [DeadlockReason] = []

    init(from starts: [MachineState], semantics: Semantics, budget: Int) {
        var seen: Set<MachineState> = []
        var pending = starts.filter { seen.insert($0.canonical()).inserted }
        while let state = pending.popLast(), states.count < max(budget, 1) {
            let moves = semantics.moves(in: state)
            states.append((state, moves))
            if moves.isEmpty { endings.insert(semantics.isFinished(state) ? .finished : .deadlock) }
            for move in moves {
                switch semantics.apply(move, to: state) {
                case .next(let after, let step):
                    if case .printed(let text) = step.event {
                        prints.append((text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), after))
                    } else if seen.insert(after.canonical()).inserted {
                        pending.append(after)
                    }
                case .trapped(_, _, let reason):
                    endings.insert(.deadlock)
                    traps.append(reason)
                case .beyondLimits:
                    break
                }
            }
        }
    }

    /// Why `wanted` does not come next from these states: what holds it back in `current` (the
    /// learner's state, whose threads are those on the screen), or else the reasons in the states
    /// where every move prints (or none is left); and every way the process dies on the way. At
    /// most four, each said once.
    func blockers(for wanted: NextEvent, prefix: [String], semantics: Semantics, current: MachineState?) -> [Blocker] {
        let analysis = BlockerAnalysis(program: semantics.program, semantics: semantics)
        var found: [Blocker] = []
        func add(_ blockers: [Blocker]) {
            for blocker in blockers where !found.contains(where: { $0.rule == blocker.rule && $0.span == blocker.span }) {
                found.append(blocker)
            }
        }
        if let current {
            add(analysis.whyNot(wanted, in: current, prefix: prefix, isTerminal: semantics.moves(in: current).isEmpty))
        }
        let heldHere = !found.isEmpty
        for (state, moves) in states where !heldHere && found.count < 4 && analysis.isSaturated(state, moves: moves) {
            add(analysis.whyNot(wanted, in: state, prefix: prefix, isTerminal: moves.isEmpty))
        }
        for reason in traps where found.count < 4 {
            if let blocker = analysis.blocker(ending: reason) { add([blocker]) }
        }
        return Array(found.prefix(4))
    }
}
