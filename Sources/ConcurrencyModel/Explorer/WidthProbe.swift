/// One schedule of the widest machine, walked before its search, that starts work as soon as it
/// can: the widths its states keep busy are widths the search will see too (each is a state
/// the search reaches, `moves(in:)` being the same), so every machine narrower than the widest
/// of them is needed for sure, known in a fraction of a millisecond instead of late in the
/// widest search, whose depth-first order runs the first jobs to their end before the main
/// thread makes the next ones (the counter puzzle's search saw its four-wide state after 80 %
/// of its time). `MachineSearches` starts the narrower machines' searches on it, the longest
/// first.
enum WidthProbe {
    /// The most steps walked: a schedule of a loop that runs long is cut there (the search
    /// still finds what lies beyond).
    static let stepLimit = 4096

    /// The widest any state along the schedule keeps busy (`Semantics.neededWidth(in:)`).
    static func width(of program: Program, on machine: Machine) -> Int {
        let semantics = Semantics(program: program, machine: machine)
        var state = semantics.initialState()
        var widest = semantics.neededWidth(in: state)
        for _ in 0..<stepLimit {
            let moves = semantics.moves(in: state)
            // A thread or job handed out before anything else moves on; else threads in order,
            // the main thread (which makes the work) first.
            guard let move = moves.first(where: \.startsWork) ?? moves.first else { break }
            guard case .next(let after, _) = semantics.apply(move, to: state) else { break }
            state = after
            widest = max(widest, semantics.neededWidth(in: state))
        }
        return widest
    }
}

extension Semantics.Move {
    /// Hands work to a thread: a queue's or the executor's next item starts, or the monitor adds one.
    fileprivate var startsWork: Bool {
        switch self {
        case .start, .overtake, .spareThread: true
        case .step, .fire, .fireSource, .advance, .wake, .corrupt: false
        }
    }
}
