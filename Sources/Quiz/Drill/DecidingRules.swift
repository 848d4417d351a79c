import ConcurrencyModel

/// The hints of a trace puzzle in the order that helps: first the rules that decide it, then the
/// other rules at work. A rule decides a puzzle when it forbids what a learner would plausibly
/// predict instead: the near misses of its outcomes (two neighbouring lines swapped, a deadlock
/// that finishes), whose reasons the model gives (`Explainer`). A notify block on the main queue is
/// decided by "the main queue runs only when the main thread is idle", not by "statements on
/// one thread run in program order", which was the only hint it had.
public enum DecidingRules {
    /// The rules, the most deciding first (by how many near misses each forbids), then the rest
    /// of `Program.rulesAtWork`. At most `nearMisses` near misses are explained.
    public static func ordered(_ exploration: Exploration, nearMisses limit: Int = 24) -> [Rule] {
        let possible = Set(exploration.outcomes)
        var candidates: [Outcome] = []
        func consider(_ outcome: Outcome) {
            if candidates.count < limit, !possible.contains(outcome), !candidates.contains(outcome) { candidates.append(outcome) }
        }
        for outcome in exploration.outcomes.prefix(8) {
            for index in outcome.lines.indices.dropLast() where outcome.lines[index] != outcome.lines[index + 1] {
                var lines = outcome.lines
                lines.swapAt(index, index + 1)
                consider(Outcome(lines: lines, end: outcome.end))
            }
            // A deadlock that "finishes" instead: what holds it is the point. (A finished run
            // that "deadlocks" instead is forbidden only by "work is left", true of every puzzle.)
            if outcome.end == .deadlock { consider(Outcome(lines: outcome.lines, end: .finished)) }
        }
        let explainer = Explainer(exploration: exploration)
        var counts: [Rule: Int] = [:]
        var order: [Rule] = []
        for candidate in candidates {
            guard case .impossible(let why) = explainer.explain(candidate) else { continue }
            for rule in Set(why.blockers.map(\.rule)) where rule != .alreadyPrinted && rule != .neverPrinted {
                if counts[rule] == nil { order.append(rule) }
                counts[rule, default: 0] += 1
            }
        }
        let deciding = order.enumerated().sorted { (-counts[$0.element]!, $0.offset) < (-counts[$1.element]!, $1.offset) }.map(\.element)
        return deciding + exploration.program.rulesAtWork.filter { !deciding.contains($0) }
    }
}
