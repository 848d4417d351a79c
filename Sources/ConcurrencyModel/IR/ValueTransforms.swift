/// A standard-library method that makes one value from another without running the snippet's
/// code: an array's `sorted()`, `sorted(by: >)` and `reversed()`, a String's `uppercased()` and
/// `lowercased()`. Each is applied with this process's own standard library, as the snippet's
/// is: the same sort (stable for ties, so `-0.0` and `0.0` keep their order) and the same
/// Unicode case mappings (`"ß".uppercased()` is `SS`).
public enum ValueTransform: String, Hashable, Sendable, Codable, CaseIterable {
    /// `sorted()`, `sorted(by: <)`, `sorted { $0 < $1 }`.
    case sortedAscending
    /// `sorted(by: >)`, `sorted { $0 > $1 }`.
    case sortedDescending
    /// `Array(xs.reversed())`, `for x in xs.reversed()`.
    case reversed
    case uppercased
    case lowercased

    /// The method as the snippet writes it, for explanations.
    public var written: String {
        switch self {
        case .sortedAscending: "sorted()"
        case .sortedDescending: "sorted(by: >)"
        case .reversed: "reversed()"
        case .uppercased: "uppercased()"
        case .lowercased: "lowercased()"
        }
    }

    func apply(_ value: Value) throws(EvaluationError) -> Value {
        switch (self, value) {
        case (.reversed, .list(let items)): return .list(items.reversed())
        case (.uppercased, .string(let text)): return .string(text.uppercased())
        case (.lowercased, .string(let text)): return .string(text.lowercased())
        case (.sortedAscending, .list(let items)), (.sortedDescending, .list(let items)):
            return .list(try Self.sorted(items, descending: self == .sortedDescending))
        default:
            throw .undefined("\(written) of \(value)")
        }
    }

    /// Integers, Doubles or Strings (the front end lets only those be sorted), sorted by the
    /// library's own algorithm with `<` or `>`.
    private static func sorted(_ items: [Value], descending: Bool) throws(EvaluationError) -> [Value] {
        if items.allSatisfy({ if case .int = $0 { true } else { false } }) {
            return items.sorted { a, b in
                guard case .int(let x) = a, case .int(let y) = b else { return false }
                return descending ? x > y : x < y
            }
        }
        if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
            return items.sorted { a, b in
                guard case .string(let x) = a, case .string(let y) = b else { return false }
                return descending ? x > y : x < y
            }
        }
        if items.allSatisfy({ $0.doubleValue != nil }) {
            return items.sorted { a, b in
                let x = a.doubleValue!, y = b.doubleValue!
                return descending ? x > y : x < y
            }
        }
        throw .undefined("a sort of values that are not all Int, Double or String")
    }
}
