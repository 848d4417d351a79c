import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The searches of several machines, shared between the calling thread and the other cores, so
/// that all work all along. Which machines need a search is known only after the widest one's
/// (`Explorer.explore`: the core count at which no block waits for a thread comes from it); but
/// as that search goes, the widths it has seen busy only grow, and a machine narrower than one
/// of them is needed whatever comes after (the second thread first walks one schedule that
/// starts work early, `WidthProbe`, to learn them sooner). So while the caller runs the widest
/// machine, a second thread searches those, the widest first (the longest searches), then one
/// as wide as the widest seen busy on speculation (called off if not needed after all); the
/// caller then says which are needed (`settle`), and the threads share what is left. A search is the same whichever thread
/// runs it and whenever (the budgets are the caller's, and a search cut short by one stays so),
/// so the answers do not depend on the order.
final class MachineSearches: Sendable {
    private struct Queue {
        /// Searches waiting for a thread, first first (after `settle`).
        var waiting: [Machine] = []
        /// The search each running thread is on, with the flag that calls it off.
        var running: [Machine: CancelFlag] = [:]
        var found: [Machine: OutcomeAutomaton] = [:]
        var settled = false
        /// Every needed answer is in: a helper that starts only now leaves at once.
        var closed = false
        /// Threads from the pool taking searches now.
        var helpers = 0
    }

    private let program: Program
    private let platforms: [Platform]
    /// `Program.coresOnlyWidenTheExecutor`, for `searched(_:)`.
    private let coresOnlyWidenTheExecutor: Bool
    private let budget: StateGraph.Budget
    private let queue: Mutex<Queue>
    /// The widths the widest machines' searches, and the helper's probe, have seen busy so far.
    private let widths = WidthFloor()
    private let clock = ContinuousClock()

    init(program: Program, platforms: [Platform], budget: StateGraph.Budget) {
        self.program = program
        self.platforms = platforms
        coresOnlyWidenTheExecutor = program.coresOnlyWidenTheExecutor
        self.budget = budget
        queue = Mutex(Queue())
    }

    /// The cores beside the caller's.
    static let spareCores = max(0, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)

    /// Starts a second thread on the machines the widest searches show are needed, when there
    /// is a core for it. It first walks one schedule that starts work early (`WidthProbe`):
    /// the widths it sees are needed whatever the widest search finds, so the thread can take
    /// the longest of those machines at once. Where two or more are needed, a third thread
    /// takes the next of them (only those: no speculation), even on two cores: the three
    /// searches then share the cores evenly, where two on the caller's thread, one after the
    /// other, finished last (the counter puzzle: 853 and 941 states on the caller, 900 on the
    /// helper, which then sat idle).
    func startAhead() {
        guard Self.spareCores > 0 else { return }
        addHelpers(1, probingFirst: true)
    }

    /// Puts `count` more threads from the pool on the queue; with `probingFirst`, a thread that
    /// walks the probe's schedule before it takes a search (`startAhead`).
    private func addHelpers(_ count: Int, speculating: Bool = true, probingFirst: Bool = false) {
        guard count > 0 else { return }
        queue.withLock { $0.helpers += count }
        for _ in 0..<count {
            DispatchQueue.global().async {
                if probingFirst { self.probe() }
                self.work(asHelper: true, speculating: speculating)
            }
        }
    }

    /// Raises the widths to what `WidthProbe` sees, and starts the extra thread where two or
    /// more machines are needed for sure.
    private func probe() {
        if let platform = platforms.first {
            widths.raise(to: WidthProbe.width(of: program, on: Machine(cores: nil, platform: platform)))
        }
        if sureSearches(floor: widths.value).count > 1 { addHelpers(1, speculating: false) }
    }

    /// The searches of the machines narrower than `floor`, a width the widest search sees busy:
    /// needed whatever else it sees, the widest first (the longest searches).
    private func sureSearches(floor: Int) -> [Machine] {
        var seen: Set<Machine> = []
        return (1..<max(floor, 1)).reversed().flatMap { cores in platforms.map { searched(Machine(cores: cores, platform: $0)) } }
            .filter { seen.insert($0).inserted }
    }

    /// One machine's search on the calling thread, or the answer another thread has (waiting
    /// for it when that thread is on it now). The widest machines tell the others which
    /// narrower ones are needed as they go.
    func search(_ machine: Machine) -> OutcomeAutomaton {
        let searched = searched(machine)
        if let known = claim(searched) { return known.relabelled(for: machine) }
        return run(searched, flag: CancelFlag(), telling: searched.cores == nil ? widths : nil)!.relabelled(for: machine)
    }

    /// The machine whose search answers for `machine`: machines whose rules are the same share
    /// one search (`Semantics.searchedMachine(for:coresOnlyWidenTheExecutor:)`), and only searched machines are keys
    /// of the queue.
    private func searched(_ machine: Machine) -> Machine {
        Semantics.searchedMachine(for: machine, coresOnlyWidenTheExecutor: coresOnlyWidenTheExecutor)
    }

    /// The machines still needed are these: any other search is called off, and the caller and
    /// the other threads share what is left; the caller then waits for the searches still
    /// running, not for helpers that have not started (a pool busy elsewhere may start them
    /// late: they then find nothing to do). Returns every needed machine's answer.
    func settle(needed: [Machine]) -> [Machine: OutcomeAutomaton] {
        var wanted: Set<Machine> = []
        let searches = needed.map(searched).filter { wanted.insert($0).inserted }
        let idle = queue.withLock { queue in
            queue.settled = true
            for (machine, flag) in queue.running where !wanted.contains(machine) { flag.cancel() }
            queue.waiting = searches.filter { queue.found[$0] == nil && queue.running[$0] == nil }
            // As many threads as cores, the caller's one of them.
            return min(Self.spareCores, queue.waiting.count - 1) - queue.helpers
        }
        addHelpers(idle)
        work(asHelper: false)
        while true {
            let done: [Machine: OutcomeAutomaton]? = queue.withLock { queue in
                guard queue.running.isEmpty else { return nil }
                queue.closed = true
                let found = queue.found
                return Dictionary(needed.compactMap { machine in found[searched(machine)].map { (machine, $0.relabelled(for: machine)) } },
                                  uniquingKeysWith: { first, _ in first })
            }
            if let done { return done }
            usleep(100)
        }
    }

    /// Takes searches until none is left; before `settle`, one as wide as the widest seen busy
    /// only when `speculating`.
    private func work(asHelper: Bool, speculating: Bool = true) {
        while true {
            switch next(asHelper: asHelper, speculating: speculating) {
            case .search(let machine, let flag): _ = run(machine, flag: flag, telling: nil)
            case .wait: usleep(250)
            case .done: return
            }
        }
    }

    private enum Turn {
        case search(Machine, CancelFlag)
        /// Nothing known to be needed yet: the widest search may still show some.
        case wait
        case done
    }

    /// The next search to run, marked as running. Before `settle`, the widest machine not wider
    /// than a width seen busy, on each platform.
    private func next(asHelper: Bool, speculating: Bool) -> Turn {
        queue.withLock { queue in
            if queue.closed { return .done }
            // Each starts only while the time budget lasts.
            let inTime = budget.deadline.map { clock.now < $0 } ?? true
            if !queue.settled && inTime {
                // Narrower than a width seen busy: needed for sure. The width itself: needed unless
                // the widest search sees no wider (then called off), so taken only when nothing
                // sure is left.
                let floor = widths.value
                let speculation = speculating && floor >= 1 ? platforms.map { searched(Machine(cores: floor, platform: $0)) } : []
                let ahead = sureSearches(floor: floor) + speculation
                guard let machine = ahead.first(where: { queue.found[$0] == nil && queue.running[$0] == nil }) else { return .wait }
                return start(machine, in: &queue)
            }
            guard inTime, !queue.waiting.isEmpty else {
                queue.waiting = []
                if asHelper { queue.helpers -= 1 }
                return .done
            }
            return start(queue.waiting.removeFirst(), in: &queue)
        }
    }

    private func start(_ machine: Machine, in queue: inout Queue) -> Turn {
        let flag = CancelFlag()
        queue.running[machine] = flag
        return .search(machine, flag)
    }

    /// Claims a machine for the caller: its answer if found, else nil once no other thread runs
    /// it (waiting while one does) and it is marked as the caller's.
    private func claim(_ machine: Machine) -> OutcomeAutomaton? {
        while true {
            let state: OutcomeAutomaton?? = queue.withLock { queue in
                if let found = queue.found[machine] { return .some(found) }
                if queue.running[machine] != nil { return nil }
                queue.waiting.removeAll { $0 == machine }
                queue.running[machine] = CancelFlag()
                return .some(nil)
            }
            switch state {
            case .some(let found): return found
            // Another thread is on it: its search takes as long as the caller's would.
            case .none: usleep(50)
            }
        }
    }

    /// Searches a machine and keeps its answer, unless it was called off (nil).
    private func run(_ machine: Machine, flag: CancelFlag, telling widths: WidthFloor?) -> OutcomeAutomaton? {
        var budget = budget
        budget.cancel = flag
        budget.widths = widths
        let graph = StateGraph.explore(program, on: machine, budget: budget)
        let automaton = flag.isCancelled ? nil : OutcomeAutomaton.build(graph, deadline: budget.deadline)
        queue.withLock { queue in
            queue.running[machine] = nil
            if let automaton { queue.found[machine] = automaton }
        }
        return automaton
    }
}

/// Calls a search off (`StateGraph.explore` looks every 64 states).
final class CancelFlag: Sendable {
    private let cancelled = Atomic(false)

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}

/// The most threads a widest machine's search has seen busy at once so far: machines narrower
/// than that are needed.
final class WidthFloor: Sendable {
    private let width = Atomic(0)

    var value: Int { width.load(ordering: .relaxed) }

    func raise(to newWidth: Int) {
        // The widest search and the helper's probe both raise it: a maximum, never lowered.
        width.max(newWidth, ordering: .relaxed)
    }
}
