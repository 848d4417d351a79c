@testable import ConcurrencyModel
import Testing

/// `Exploration` sorts its outcomes by line numbers (`OutcomeSortOrder`); the order must be
/// `Outcome.<`'s, table or no table.
@Suite struct OutcomeSortOrderTests {
    static func sortedBoth(lines: [String], outcomes: [([Int32], End)]) -> (byOrder: [Outcome], byComparable: [Outcome]) {
        let order = OutcomeSortOrder(lines: lines)
        let made = outcomes.map { Outcome(lines: $0.0.map { lines[Int($0)] }, end: $0.1) }
        let byOrder = outcomes.indices.sorted { order.precedes(outcomes[$0].0, outcomes[$0].1, outcomes[$1].0, outcomes[$1].1) }.map { made[$0] }
        return (byOrder, made.sorted())
    }

    @Test func numbersAsNumbersFinishedFirstPrefixesFirst() {
        let lines = ["10", "9", "a", "b", "2"]
        let outcomes: [([Int32], End)] = [
            ([0, 1], .finished), ([1, 0], .finished), ([1], .finished), ([4, 0], .deadlock), ([2, 3], .finished),
            ([3, 2], .finished), ([1, 0, 2], .finished), ([0], .deadlock), ([4, 1, 0], .finished), ([2], .finished),
        ]
        let (byOrder, byComparable) = Self.sortedBoth(lines: lines, outcomes: outcomes)
        #expect(byOrder == byComparable)
        #expect(byOrder.first == Outcome(lines: ["2", "9", "10"], end: .finished))
        #expect(byOrder.last == Outcome(lines: ["10"], end: .deadlock))
    }

    /// Past the table's limit, lines are compared as asked: the same order.
    @Test func manyLinesWithoutATable() {
        let lines = (0..<(OutcomeSortOrder.tableLimit + 40)).map { $0 % 3 == 0 ? "line \($0)" : String($0 * 7 % 1000) }
        var generator = SplitMix64(seed: 7)
        let outcomes: [([Int32], End)] = (0..<300).map { _ in
            ((0..<Int.random(in: 1...6, using: &generator)).map { _ in Int32.random(in: 0..<Int32(lines.count), using: &generator) },
             Bool.random(using: &generator) ? .finished : .deadlock)
        }
        let distinct = Array(Set(outcomes.map { "\($0.0) \($0.1)" }).sorted().compactMap { key in outcomes.first { "\($0.0) \($0.1)" == key } })
        let (byOrder, byComparable) = Self.sortedBoth(lines: lines, outcomes: distinct)
        #expect(byOrder == byComparable)
    }
}
