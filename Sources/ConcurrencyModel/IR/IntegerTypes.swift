/// Swift's integer types besides `Int` (`let w: UInt64 = 10`, `UInt64(n)`, `Int32(x)`). The model
/// holds every integer as an Int (64 bits, as on the machines gcdquiz answers for); a value of
/// another type is an Int checked against that type's range where Swift checks it: after each
/// arithmetic operation (an overflow traps) and at each conversion (a value the target cannot
/// represent traps). A UInt64 or UInt past `Int.max` is a value the model does not hold: reached,
/// it says so (a model error) rather than guess.
public enum IntegerType: String, Hashable, Sendable, Codable, CaseIterable {
    case int = "Int"
    case int64 = "Int64"
    case uint64 = "UInt64"
    case uint = "UInt"
    case int32 = "Int32"
    case uint32 = "UInt32"

    /// The values of the type the model holds.
    public var range: ClosedRange<Int> {
        switch self {
        case .int, .int64: Int.min...Int.max
        case .uint64, .uint: 0...Int.max
        case .int32: Int(Int32.min)...Int(Int32.max)
        case .uint32: 0...Int(UInt32.max)
        }
    }

    /// Unsigned 64-bit types have values past `Int.max`, which the model does not hold.
    var reachesPastIntMax: Bool {
        switch self {
        case .uint64, .uint: true
        case .int, .int64, .int32, .uint32: false
        }
    }

    /// The value of `inner` as this type: an arithmetic result out of range is Swift's overflow
    /// trap, a conversion's is Swift's "not representable" trap.
    func check(_ value: Value, conversion: Bool, operation: BinaryOperator?) throws(EvaluationError) -> Value {
        guard case .int(let number) = value else { throw .undefined("an integer of type \(rawValue) that is not a number") }
        if range.contains(number) { return value }
        if conversion { throw .runtime(.conversionOverflow(number, to: rawValue)) }
        throw .runtime(.typedOverflow(operation ?? .add, type: rawValue))
    }
}
