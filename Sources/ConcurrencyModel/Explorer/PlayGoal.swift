/// What a learner in the scheduler's seat tries to make the snippet do.
public enum PlayGoal: Hashable, Sendable {
    /// Print exactly these lines and end so (the notation's outcome).
    case outcome(Outcome)
    /// End in a deadlock, whatever is printed: a cycle of waits, work that can never run, or a
    /// trap (the notation's `deadlock` covers all three).
    case deadlock
    /// End with the process dying: a trap or a crash (a sync onto an owned queue, an unbalanced
    /// leave, a failed precondition, Foundation stopping a misuse, a Swift runtime error).
    case crash
    /// Bring two threads to the same shared variable at the same moment, one of them about to write.
    case race
}

/// Where a playthrough stands with its goal, as facts; `Narrator.words(for:)` says it.
public enum GoalStatus: Hashable, Sendable {
    /// No goal: the learner explores.
    case none
    /// The model did not finish exploring the snippet: no hint, and nothing said about reachability.
    case unguided
    /// Not reached yet, and nothing says it cannot be.
    case open
    /// Reached at this move (the learner's move count).
    case reached(atMove: Int)
    /// Out of reach since this move (0: from the start), and why.
    case outOfReach(atMove: Int, OutOfReach)
}

extension GoalStatus {
    /// The goal is reached, or shown to be out of reach of every schedule (the learner went as far
    /// along it as any schedule goes): either way the learner has found the answer.
    public var isSettled: Bool {
        switch self {
        case .reached: true
        case .outOfReach(_, .cannotComeNext(_, _, _, _, let proved)): proved
        case .outOfReach(_, .noSchedule(let fromStart)): fromStart
        case .outOfReach(_, .printedInstead), .none, .unguided, .open: false
        }
    }
}

/// Why a goal can no longer be reached.
public enum OutOfReach: Hashable, Sendable {
    /// The move printed a line the goal does not want there.
    case printedInstead(printed: String, wanted: NextEvent)
    /// `wanted` cannot come right after `prefix` (the goal's lines before it, of which the first
    /// `printed` are printed already and the rest some schedule from here can still print), for
    /// these reasons. `proved`: no schedule at all gets further along the goal, so the model
    /// forbids it; otherwise another schedule does (undo).
    case cannotComeNext(prefix: [String], printed: Int, wanted: NextEvent, blockers: [Blocker], proved: Bool)
    /// No schedule from here (`fromStart`: at all) ends as the goal asks (a deadlock, a crash)
    /// or meets a data race.
    case noSchedule(fromStart: Bool)
}

/// How a playthrough's run ended.
public enum PlayEnding: Hashable, Sendable {
    /// Every piece of work ran to completion.
    case finished
    /// Nothing can move any more, and work remains: what holds it.
    case stuck([StuckFact])
    /// The process died at a step (a trap, a crash).
    case died(DeadlockReason)

    public var end: End {
        switch self {
        case .finished: .finished
        case .stuck, .died: .deadlock
        }
    }
}

/// What a hint offers.
public enum Hint: Hashable, Sendable {
    /// This move keeps the goal reachable (the first of a shortest schedule to it); for a goal no
    /// schedule reaches, the move that goes furthest along it, to where it breaks.
    case move(PlayMove, reachable: Bool)
    /// Undo back to this move count, where the goal was still reachable.
    case undoTo(Int)
    /// Nothing to suggest: no goal, a goal already reached or out of reach from the start, no
    /// move left, or an exploration the model did not finish.
    case nothing
}
