/// A value the snippet computes: what `print` shows, what a condition tests, what a variable holds.
public indirect enum Expression: Hashable, Sendable, Codable {
    case literal(Value)
    case variable(VariableID)
    case binary(BinaryOperator, Expression, Expression)
    case not(Expression)
    /// A string literal with interpolations: the parts' descriptions, concatenated.
    case interpolation([Expression])
    /// `list.count`
    case count(Expression)
    /// `Thread.isMainThread`: evaluated by the walker, which knows the thread.
    case isMainThread
    /// `c ? a : b`, and `if`/`switch` expressions: only the chosen value is evaluated.
    case conditional(Expression, then: Expression, otherwise: Expression)
    /// `list[i]`: an index outside the array traps, as in Swift.
    case element(Expression, index: Expression)
    /// `DispatchQueue.getSpecific(key: k)` (the key's hidden variable, whose lookup gives nil
    /// where no queue of the current hierarchy has a value), in the forms that make it a value.
    case specific(VariableID, SpecificUse)
    /// A value as `debugPrint` shows it: a string quoted and escaped.
    case debugText(Expression)
    /// `error is T`, `error as? T` tested in an `if let`: whether the error is of type T.
    case errorIs(Expression, type: String)
    /// A value of an integer type besides Int (`IntegerType`): the inner arithmetic's result, or
    /// `UInt64(x)`'s (`conversion`), checked against the type's range as Swift checks it.
    case typed(Expression, IntegerType, conversion: Bool)
    /// `(a, b)`: a tuple, held as a list of its elements (it is only passed on and taken apart).
    case tuple([Expression])
    /// `[a, b]` of values computed when it runs (`await [x, y]` of async lets): a list.
    case array([Expression])
    /// `dict[key]!`: the value of a dictionary's entry (kept as `[key, value]` pairs); a missing
    /// key traps, as force-unwrapping nil does. `optional`: `dict[key]` itself, nil when missing.
    case entry(Expression, key: Expression, optional: Bool)
    /// An optional as `print` and interpolation show it: `Optional(3)`, `Optional("a")`, `nil`
    /// (swiftc warns, and compiles).
    case optionalText(Expression)
    /// `o ?? d`: the optional's value, or `d` (evaluated only then, as Swift's autoclosure is).
    case coalesce(Expression, Expression)
    /// `strings.joined(separator: ", ")` (`joined()`: an empty separator): one string of the
    /// array's strings, the separator between them.
    case joined(Expression, separator: Expression)
    /// `[1: "a", 2: "b"]`: a dictionary, kept as `[key, value]` pairs in the literal's order
    /// (the front end has checked that its keys are distinct constants, as Swift traps otherwise).
    case dictionary(keys: [Expression], values: [Expression])
    /// `Int(s)` of a String: the number it spells in decimal (an optional sign, digits only),
    /// nil otherwise or past Int's range, as Swift's `Int.init?(_: String)` parses (the same
    /// function answers here).
    case parsedInt(Expression)
    /// `xs.sorted()`, `Array(xs.reversed())`, `s.uppercased()`: a standard-library method's
    /// value (`ValueTransform`).
    case transformed(Expression, ValueTransform)
    /// `xs.contains(x)`: whether an element of the array equals `x`.
    case contains(Expression, element: Expression)
    /// `o!`: the optional's value; nil traps, as Swift's force unwrap does.
    case unwrapped(Expression)

    /// Whether evaluating the expression reads `variable`.
    public func reads(_ variable: VariableID) -> Bool {
        variablesRead.contains(variable)
    }

    /// Every variable the expression reads.
    public var variablesRead: [VariableID] {
        switch self {
        case .literal, .isMainThread: []
        case .variable(let id): [id]
        case .binary(_, let lhs, let rhs): lhs.variablesRead + rhs.variablesRead
        case .not(let inner), .count(let inner), .debugText(let inner), .typed(let inner, _, _), .optionalText(let inner): inner.variablesRead
        case .coalesce(let optional, let fallback): optional.variablesRead + fallback.variablesRead
        case .joined(let list, let separator): list.variablesRead + separator.variablesRead
        case .dictionary(let keys, let values): (keys + values).flatMap(\.variablesRead)
        case .parsedInt(let text): text.variablesRead
        case .transformed(let inner, _), .unwrapped(let inner): inner.variablesRead
        case .contains(let list, let element): list.variablesRead + element.variablesRead
        case .tuple(let parts), .array(let parts): parts.flatMap(\.variablesRead)
        case .entry(let dictionary, let key, _): dictionary.variablesRead + key.variablesRead
        case .interpolation(let parts): parts.flatMap(\.variablesRead)
        case .conditional(let condition, let then, let otherwise): condition.variablesRead + then.variablesRead + otherwise.variablesRead
        case .element(let list, let index): list.variablesRead + index.variablesRead
        case .specific(let key, let use): [key] + use.variablesRead
        case .errorIs(let inner, _): inner.variablesRead
        }
    }

    /// Whether the value depends on the thread evaluating it (`Thread.isMainThread`).
    public var readsThread: Bool {
        switch self {
        case .isMainThread: true
        case .literal, .variable: false
        case .binary(_, let lhs, let rhs): lhs.readsThread || rhs.readsThread
        case .not(let inner), .count(let inner), .debugText(let inner), .typed(let inner, _, _), .optionalText(let inner): inner.readsThread
        case .coalesce(let optional, let fallback): optional.readsThread || fallback.readsThread
        case .joined(let list, let separator): list.readsThread || separator.readsThread
        case .dictionary(let keys, let values): (keys + values).contains(where: \.readsThread)
        case .parsedInt(let text): text.readsThread
        case .transformed(let inner, _), .unwrapped(let inner): inner.readsThread
        case .contains(let list, let element): list.readsThread || element.readsThread
        case .tuple(let parts), .array(let parts): parts.contains(where: \.readsThread)
        case .entry(let dictionary, let key, _): dictionary.readsThread || key.readsThread
        case .interpolation(let parts): parts.contains(where: \.readsThread)
        case .conditional(let condition, let then, let otherwise): condition.readsThread || then.readsThread || otherwise.readsThread
        case .element(let list, let index): list.readsThread || index.readsThread
        case .specific: true
        case .errorIs(let inner, _): inner.readsThread
        }
    }

    /// The value when nothing a run decides goes into it (no variable, no thread) and it does not
    /// trap; nil otherwise.
    public var constantValue: Value? {
        guard variablesRead.isEmpty, !readsThread else { return nil }
        return try? evaluate({ _ in nil }, isMainThread: false)
    }

    /// Evaluates with `lookup` giving each variable's value, as Swift would: `&&` and `||` short
    /// circuit, and arithmetic that overflows or divides by zero is a runtime error (a Swift
    /// program traps there). `isMainThread` answers `Thread.isMainThread`.
    public func evaluate(_ lookup: (VariableID) -> Value?, isMainThread: Bool) throws(EvaluationError) -> Value {
        switch self {
        case .isMainThread:
            return .bool(isMainThread)
        case .literal(let value):
            return value
        case .variable(let id):
            guard let value = lookup(id) else { throw .undefined("variable v\(id.index) has no value") }
            return value
        case .not(let inner):
            guard case .bool(let value) = try inner.evaluate(lookup, isMainThread: isMainThread) else { throw .undefined("! of a non-Bool") }
            return .bool(!value)
        case .count(let inner):
            switch try inner.evaluate(lookup, isMainThread: isMainThread) {
            case .list(let items): return .int(items.count)
            case .string(let text): return .int(text.count)
            case .int, .bool, .error, .nilValue, .double, .continuation, .enumCase: throw .undefined(".count of a value without one")
            }
        case .debugText(let inner):
            return .string(try inner.evaluate(lookup, isMainThread: isMainThread).debugText)
        case .optionalText(let inner):
            let value = try inner.evaluate(lookup, isMainThread: isMainThread)
            return .string(value == .nilValue ? "nil" : "Optional(\(value.debugText))")
        case .coalesce(let optional, let fallback):
            let value = try optional.evaluate(lookup, isMainThread: isMainThread)
            return value == .nilValue ? try fallback.evaluate(lookup, isMainThread: isMainThread) : value
        case .joined(let list, let separator):
            guard case .list(let items) = try list.evaluate(lookup, isMainThread: isMainThread),
                case .string(let between) = try separator.evaluate(lookup, isMainThread: isMainThread)
            else { throw .undefined("joined of a value that is not an array of strings") }
            var parts: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw .undefined("joined of a value that is not an array of strings") }
                parts.append(text)
            }
            return .string(parts.joined(separator: between))
        case .dictionary(let keys, let values):
            var entries: [Value] = []
            for (key, value) in zip(keys, values) {
                entries.append(.list([try key.evaluate(lookup, isMainThread: isMainThread), try value.evaluate(lookup, isMainThread: isMainThread)]))
            }
            return .list(entries)
        case .parsedInt(let text):
            guard case .string(let spelled) = try text.evaluate(lookup, isMainThread: isMainThread) else { throw .undefined("Int(…) of a value that is not a String") }
            return Int(spelled).map(Value.int) ?? .nilValue
        case .transformed(let inner, let transform):
            return try transform.apply(try inner.evaluate(lookup, isMainThread: isMainThread))
        case .unwrapped(let optional):
            let value = try optional.evaluate(lookup, isMainThread: isMainThread)
            guard value != .nilValue else { throw .runtime(.unwrappedNil) }
            return value
        case .contains(let list, let element):
            guard case .list(let items) = try list.evaluate(lookup, isMainThread: isMainThread) else { throw .undefined("contains of a value that is not an array") }
            return .bool(items.contains(try element.evaluate(lookup, isMainThread: isMainThread)))
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                text += try part.evaluate(lookup, isMainThread: isMainThread).description
            }
            return .string(text)
        case .conditional(let condition, let then, let otherwise):
            guard case .bool(let holds) = try condition.evaluate(lookup, isMainThread: isMainThread) else { throw .undefined("a condition that is not a Bool") }
            return try (holds ? then : otherwise).evaluate(lookup, isMainThread: isMainThread)
        case .element(let list, let index):
            guard case .list(let items) = try list.evaluate(lookup, isMainThread: isMainThread),
                case .int(let position) = try index.evaluate(lookup, isMainThread: isMainThread)
            else { throw .undefined("a subscript of a value that is not an array") }
            guard items.indices.contains(position) else { throw .runtime(.indexOutOfRange) }
            return items[position]
        case .specific(let key, let use):
            let found = lookup(key)
            switch use {
            case .orElse(let fallback):
                if let found { return found }
                return try fallback.evaluate(lookup, isMainThread: isMainThread)
            case .isNil(let expected): return .bool((found == nil) == expected)
            case .printed: return .string(found.map { "Optional(\($0.debugText))" } ?? "nil")
            case .equals(let other, let negated):
                let value = try other.evaluate(lookup, isMainThread: isMainThread)
                return .bool((found == value) != negated)
            }
        case .tuple(let parts), .array(let parts):
            var values: [Value] = []
            for part in parts { values.append(try part.evaluate(lookup, isMainThread: isMainThread)) }
            return .list(values)
        case .entry(let dictionary, let key, let optional):
            guard case .list(let entries) = try dictionary.evaluate(lookup, isMainThread: isMainThread) else { throw .undefined("a key of a value that is not a dictionary") }
            let wanted = try key.evaluate(lookup, isMainThread: isMainThread)
            for case .list(let pair) in entries where pair.count == 2 && pair[0] == wanted { return pair[1] }
            if optional { return .nilValue }
            throw .runtime(.unwrappedNil)
        case .typed(let inner, let type, let conversion):
            let operation: BinaryOperator? = if case .binary(let op, _, _) = inner { op } else { nil }
            let value: Value
            do {
                value = try inner.evaluate(lookup, isMainThread: isMainThread)
            } catch .runtime(.overflow(let op)) {
                // Past Int's range: a UInt64 may still hold it, which the model cannot say.
                if type.reachesPastIntMax { throw .undefined("a \(type.rawValue) value past Int.max (\(Int.max)), which gcdquiz's model does not hold") }
                throw .runtime(.typedOverflow(op, type: type.rawValue))
            }
            return try type.check(value, conversion: conversion, operation: operation)
        case .errorIs(let inner, let type):
            guard case .error(let error) = try inner.evaluate(lookup, isMainThread: isMainThread) else { throw .undefined("a type test of a value that is not an error") }
            return .bool(error.type == type)
        case .binary(let op, let lhs, let rhs):
            let left = try lhs.evaluate(lookup, isMainThread: isMainThread)
            switch (op, left) {
            case (.and, .bool(false)): return .bool(false)
            case (.or, .bool(true)): return .bool(true)
            default: break
            }
            return try op.apply(left, try rhs.evaluate(lookup, isMainThread: isMainThread))
        }
    }
}

/// What the snippet does with the optional `DispatchQueue.getSpecific(key:)` returns (the subset
/// has no optionals): unwraps it with `??`, or compares it with nil or with a value.
public indirect enum SpecificUse: Hashable, Sendable, Codable {
    /// `getSpecific(key: k) ?? fallback`
    case orElse(Expression)
    /// `== nil` (true) or `!= nil` (false).
    case isNil(Bool)
    /// `== v` (negated false) or `!= v` (negated true): nil equals no value.
    case equals(Expression, negated: Bool)
    /// `print(DispatchQueue.getSpecific(key: k))` (or `… as Any`): the optional as `print`
    /// shows it, `Optional(1)`, `Optional("a")` or `nil`.
    case printed

    var variablesRead: [VariableID] {
        switch self {
        case .orElse(let other), .equals(let other, _): other.variablesRead
        case .isNil, .printed: []
        }
    }
}

/// Why an expression has no value.
public enum EvaluationError: Error, Hashable, Sendable {
    /// What the snippet's code does traps in Swift: the process dies.
    case runtime(RuntimeError)
    /// A value the front end's checks promised is missing or of the wrong type: a bug in gcdquiz.
    case undefined(String)
}

/// A Swift runtime error the snippet's own code can raise (Swift traps: the process dies on the
/// spot, as with libdispatch's traps).
public enum RuntimeError: Hashable, Sendable, Codable {
    /// `+`, `-` or `*` whose result does not fit in an Int.
    case overflow(BinaryOperator)
    /// `x / 0` or `x % 0`.
    case divisionByZero(BinaryOperator)
    /// `Int.min / -1` or `Int.min % -1`.
    case divisionOverflow(BinaryOperator)
    /// `for i in 5...1`: a range whose upper bound is below its lower bound.
    case invalidRange
    /// `UInt32(n)` of a value that does not fit: Swift's integer conversion traps.
    case conversionOverflow(Int, to: String)
    /// Arithmetic on an integer type besides Int whose result the type cannot hold.
    case typedOverflow(BinaryOperator, type: String)
    /// `dict[key]!` of a key the dictionary does not have.
    case unwrappedNil
    /// `list[i]` with `i` outside the array.
    case indexOutOfRange
    /// A checked continuation resumed a second time.
    case continuationResumedTwice
    /// An error thrown out of the top-level code (swift_errorInMain); the error's type and value.
    case errorAtTopLevel(String)
    /// `try!` of a call that threw (swift_unexpectedError).
    case forcedTryThrew(String)

    /// Swift's own words for the trap.
    public var message: String {
        switch self {
        case .overflow(let op): "arithmetic overflow: the result of '\(op.rawValue)' does not fit in an Int"
        case .divisionByZero(.remainder): "division by zero in remainder operation"
        case .divisionByZero: "division by zero"
        case .divisionOverflow(.remainder): "division results in an overflow in remainder operation"
        case .divisionOverflow: "division results in an overflow"
        case .invalidRange: "range requires lowerBound <= upperBound"
        case .indexOutOfRange: "Index out of range"
        case .continuationResumedTwice: "SWIFT TASK CONTINUATION MISUSE: the program tried to resume its continuation more than once"
        case .errorAtTopLevel(let error): "Error raised at top level: \(error)"
        case .forcedTryThrew(let error): "'try!' expression unexpectedly raised an error: \(error)"
        case .unwrappedNil: "Unexpectedly found nil while unwrapping an Optional value"
        case .typedOverflow(let op, let type): "arithmetic overflow: the result of '\(op.rawValue)' does not fit in a \(type)"
        case .conversionOverflow(let value, let type): value < 0 ? "negative value \(value) is not representable as \(type)" : "not enough bits to represent \(value) as \(type)"
        }
    }
}

public enum BinaryOperator: String, Hashable, Sendable, Codable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case and = "&&", or = "||"

    /// The operator applied as Swift applies it to the subset's types; the front end has checked
    /// the operands' types.
    func apply(_ left: Value, _ right: Value) throws(EvaluationError) -> Value {
        switch (self, left, right) {
        case (.add, .int(let a), .int(let b)): return try Self.checked(a.addingReportingOverflow(b), self)
        case (.add, .string(let a), .string(let b)): return .string(a + b)
        case (.add, .list(let a), .list(let b)): return .list(a + b)
        case (.subtract, .int(let a), .int(let b)): return try Self.checked(a.subtractingReportingOverflow(b), self)
        case (.multiply, .int(let a), .int(let b)): return try Self.checked(a.multipliedReportingOverflow(by: b), self)
        case (.divide, .int(let a), .int(let b)):
            guard b != 0 else { throw .runtime(.divisionByZero(self)) }
            return try Self.checked(a.dividedReportingOverflow(by: b), self, division: true)
        case (.remainder, .int(let a), .int(let b)):
            guard b != 0 else { throw .runtime(.divisionByZero(self)) }
            return try Self.checked(a.remainderReportingOverflow(dividingBy: b), self, division: true)
        case (.add, .double, _), (.subtract, .double, _), (.multiply, .double, _), (.divide, .double, _),
             (.add, _, .double), (.subtract, _, .double), (.multiply, _, .double), (.divide, _, .double):
            return try Self.floating(self, left, right)
        case (.less, .double, _), (.lessOrEqual, .double, _), (.greater, .double, _), (.greaterOrEqual, .double, _),
             (.less, _, .double), (.lessOrEqual, _, .double), (.greater, _, .double), (.greaterOrEqual, _, .double),
             (.equal, .double, .int), (.equal, .int, .double), (.notEqual, .double, .int), (.notEqual, .int, .double):
            guard let a = left.doubleValue, let b = right.doubleValue else { throw .undefined("'\(rawValue)' applied to \(left) and \(right)") }
            switch self {
            case .less: return .bool(a < b)
            case .lessOrEqual: return .bool(a <= b)
            case .greater: return .bool(a > b)
            case .greaterOrEqual: return .bool(a >= b)
            case .equal: return .bool(a == b)
            default: return .bool(a != b)
            }
        case (.equal, _, _): return .bool(left == right)
        case (.notEqual, _, _): return .bool(left != right)
        case (.less, .int(let a), .int(let b)): return .bool(a < b)
        case (.lessOrEqual, .int(let a), .int(let b)): return .bool(a <= b)
        case (.greater, .int(let a), .int(let b)): return .bool(a > b)
        case (.greaterOrEqual, .int(let a), .int(let b)): return .bool(a >= b)
        case (.less, .string(let a), .string(let b)): return .bool(a < b)
        case (.lessOrEqual, .string(let a), .string(let b)): return .bool(a <= b)
        case (.greater, .string(let a), .string(let b)): return .bool(a > b)
        case (.greaterOrEqual, .string(let a), .string(let b)): return .bool(a >= b)
        case (.and, .bool(let a), .bool(let b)): return .bool(a && b)
        case (.or, .bool(let a), .bool(let b)): return .bool(a || b)
        default: throw .undefined("'\(rawValue)' applied to \(left) and \(right)")
        }
    }

    /// Double arithmetic as IEEE 754 does it (no traps: `1 / 0.0` is `inf`). An integer literal
    /// beside a Double is a Double (the front end lets only literals stand there). A NaN, which
    /// equals nothing and would break the model's comparison of states, is not held.
    private static func floating(_ op: BinaryOperator, _ left: Value, _ right: Value) throws(EvaluationError) -> Value {
        guard let a = left.doubleValue, let b = right.doubleValue else { throw .undefined("'\(op.rawValue)' applied to \(left) and \(right)") }
        let result: Double = switch op {
        case .add: a + b
        case .subtract: a - b
        case .multiply: a * b
        default: a / b
        }
        guard !result.isNaN else { throw .undefined("a Double that is not a number (nan), which gcdquiz's model does not hold") }
        return .double(result)
    }

    private static func checked(_ result: (partialValue: Int, overflow: Bool), _ op: BinaryOperator, division: Bool = false) throws(EvaluationError) -> Value {
        guard !result.overflow else { throw .runtime(division ? .divisionOverflow(op) : .overflow(op)) }
        return .int(result.partialValue)
    }
}

/// A value of the supported Swift subset, printed as Swift's `print` prints it.
public enum Value: Hashable, Sendable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)
    case bool(Bool)
    case list([Value])
    /// An error value (`MyError.failed`, `CancellationError()`), thrown or caught.
    case error(ThrownError)
    /// An optional's `nil` (an optional that holds a value holds it bare: the front end knows
    /// which variables are optional, and prints them so).
    case nilValue
    /// A Double (or TimeInterval), printed as Swift prints it: the shortest text that reads back
    /// as the same number (`0.1`, `1.0`, `1e-05`), which this process's own `description` is.
    case double(Double)
    /// A continuation kept in a variable (`self.continuation = c`): the `withCheckedContinuation`
    /// whose continuation it is (`ContinuationID.index`).
    case continuation(Int)
    /// A case of a plain enum of the snippet (`Phase.idle`), printed as its name.
    case enumCase(EnumCase)

    /// The number a Double's arithmetic takes: a Double, or an integer literal beside one.
    var doubleValue: Double? {
        switch self {
        case .double(let number): number
        case .int(let number): Double(number)
        case .string, .bool, .list, .error, .nilValue, .continuation, .enumCase: nil
        }
    }

    public var description: String {
        switch self {
        case .nilValue: "nil"
        case .double(let value): value.description
        case .continuation: "CheckedContinuation<(), Never>(…)"
        case .int(let value): String(value)
        case .string(let value): value
        case .bool(let value): String(value)
        case .error(let error): error.text
        case .enumCase(let value): value.description
        case .list(let items): "[" + items.map(\.debugText).joined(separator: ", ") + "]"
        }
    }

    /// How the value shows inside a printed array or through `debugPrint`: strings quoted and
    /// escaped (String's `debugDescription`), as Swift does.
    var debugText: String {
        if case .string(let text) = self {
            var quoted = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                case "\t": quoted += "\\t"
                case "\r": quoted += "\\r"
                case "\0": quoted += "\\0"
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        }
        return description
    }
}
