/// Every output prefix the search has produced, each stored once: a state holds the id of its
/// output rather than the lines themselves. Two states that printed the same lines share one
/// id, so comparing and hashing outputs costs nothing, and a long single-threaded run (100,000
/// prints) keeps one chain of lines instead of a copy per state.
final class OutputLog {
    /// An output: the empty one, or an earlier output followed by one more line.
    struct ID: Hashable {
        fileprivate let index: Int32
        static let empty = ID(index: 0)
    }

    private struct Entry: Hashable {
        var parent: Int32
        var line: String
    }

    private var entries: [Entry] = [Entry(parent: -1, line: "")]
    private var counts: [Int32] = [0]
    private var index: [Entry: Int32] = [:]
    /// Bytes of line text held, for the explorer's memory budget.
    private(set) var textBytes = 0

    /// The output `id` followed by `line`.
    func appending(_ line: String, to id: ID) -> ID {
        let entry = Entry(parent: id.index, line: line)
        if let existing = index[entry] { return ID(index: existing) }
        let new = Int32(entries.count)
        entries.append(entry)
        counts.append(counts[Int(id.index)] + 1)
        index[entry] = new
        textBytes += line.utf8.count
        return ID(index: new)
    }

    func appending(_ lines: [String], to id: ID) -> ID {
        lines.reduce(id) { appending($1, to: $0) }
    }

    /// How many lines the output has.
    func count(_ id: ID) -> Int { Int(counts[Int(id.index)]) }

    /// The output's lines, first printed first.
    func lines(_ id: ID) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(count(id))
        var current = id.index
        while current > 0 {
            lines.append(entries[Int(current)].line)
            current = entries[Int(current)].parent
        }
        return lines.reversed()
    }

    /// The ids of every prefix of `lines`, the empty one first: a state's output is a prefix of
    /// `lines` exactly when its id is `ids[count]`.
    func prefixes(of lines: [String]) -> [ID] {
        var ids = [ID.empty]
        for line in lines { ids.append(appending(line, to: ids.last!)) }
        return ids
    }
}
