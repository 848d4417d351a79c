import ConcurrencyModel

/// A set of outcomes with its printed lines renamed away: two puzzles with the same shape ask
/// for the same answer under other names ("1 2 | 2 1" and "b a | a b"), so a learner who knows
/// one knows the other.
///
/// Lines are first told apart by where they occur (a signature that renaming cannot change);
/// lines with equal signatures are tried in every order, up to a limit, and the smallest
/// encoding wins. Past the limit the shape keeps the signatures only, which may call two
/// different sets equal (a puzzle dropped too many) but never two equal sets different.
public struct OutcomeShape: Hashable, Sendable {
    private let encoding: String

    public init(_ outcomes: [Outcome]) {
        encoding = Self.encode(outcomes)
    }

    static let permutationLimit = 720

    private static func encode(_ outcomes: [Outcome]) -> String {
        var occurrences: [String: [String]] = [:]
        for outcome in outcomes {
            for (position, line) in outcome.lines.enumerated() {
                occurrences[line, default: []].append("\(outcome.lines.count).\(position).\(outcome.end.rawValue)")
            }
        }
        let signatures = occurrences.mapValues { $0.sorted().joined(separator: ",") }
        // Groups of lines that renaming-invariant facts cannot tell apart, in signature order.
        let groups = Dictionary(grouping: signatures.keys) { signatures[$0]! }
            .sorted { $0.key < $1.key }
            .map { $0.value.sorted() }
        var orderings = 1
        for group in groups {
            for count in 1...group.count { orderings = orderings.multipliedReportingOverflow(by: count).partialValue }
            if orderings > permutationLimit { break }
        }
        guard orderings <= permutationLimit else {
            return "signatures:" + groups.map { signatures[$0[0]]! + "×\($0.count)" }.joined(separator: ";")
                + "|outcomes:\(outcomes.count)"
        }
        var best: String?
        forEachOrdering(groups) { order in
            let names = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
            let encoded = outcomes.map { outcome in
                outcome.lines.map { String(names[$0]!) }.joined(separator: " ") + "/" + outcome.end.rawValue
            }.sorted().joined(separator: "|")
            if best == nil || encoded < best! { best = encoded }
        }
        return best ?? ""
    }

    /// Calls `body` with every concatenation of one permutation of each group.
    private static func forEachOrdering(_ groups: [[String]], _ body: ([String]) -> Void) {
        func permutations(_ items: [String]) -> [[String]] {
            guard items.count > 1 else { return [items] }
            return items.indices.flatMap { index in
                var rest = items
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        func walk(_ index: Int, _ prefix: [String]) {
            guard index < groups.count else { return body(prefix) }
            for permutation in permutations(groups[index]) { walk(index + 1, prefix + permutation) }
        }
        walk(0, [])
    }
}
