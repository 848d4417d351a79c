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
    /// library's own algorithm with `<` or `>` as the snippet's own comparisons apply them
    /// (`BinaryOperator.apply`).
    private static func sorted(_ items: [Value], descending: Bool) throws(EvaluationError) -> [Value] {
        let order: BinaryOperator = descending ? .greater : .less
        var failure: EvaluationError?
        let result = items.sorted { a, b in
            do throws(EvaluationError) {
                return try order.apply(a, b) == .bool(true)
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return result
    }
}
