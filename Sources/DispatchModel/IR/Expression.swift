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
        case .not(let inner), .count(let inner): inner.variablesRead
        case .interpolation(let parts): parts.flatMap(\.variablesRead)
        }
    }

    /// Evaluates with `lookup` giving each variable's value; nil when a value is missing or an
    /// operation does not apply (the front end's checks make that a bug, not a user error).
    public func evaluate(_ lookup: (VariableID) -> Value?, isMainThread: Bool? = nil) -> Value? {
        switch self {
        case .isMainThread:
            return isMainThread.map(Value.bool)
        case .literal(let value):
            return value
        case .variable(let id):
            return lookup(id)
        case .not(let inner):
            guard case .bool(let value)? = inner.evaluate(lookup, isMainThread: isMainThread) else { return nil }
            return .bool(!value)
        case .count(let inner):
            guard case .list(let items)? = inner.evaluate(lookup, isMainThread: isMainThread) else { return nil }
            return .int(items.count)
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                guard let value = part.evaluate(lookup, isMainThread: isMainThread) else { return nil }
                text += value.description
            }
            return .string(text)
        case .binary(let op, let lhs, let rhs):
            guard let left = lhs.evaluate(lookup, isMainThread: isMainThread),
                let right = rhs.evaluate(lookup, isMainThread: isMainThread)
            else { return nil }
            return op.apply(left, right)
        }
    }
}

public enum BinaryOperator: String, Hashable, Sendable, Codable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case and = "&&", or = "||"

    func apply(_ left: Value, _ right: Value) -> Value? {
        switch (self, left, right) {
        case (.add, .int(let a), .int(let b)): .int(a &+ b)
        case (.subtract, .int(let a), .int(let b)): .int(a &- b)
        case (.multiply, .int(let a), .int(let b)): .int(a &* b)
        case (.divide, .int(let a), .int(let b)): b == 0 ? nil : .int(a / b)
        case (.remainder, .int(let a), .int(let b)): b == 0 ? nil : .int(a % b)
        case (.equal, _, _): .bool(left == right)
        case (.notEqual, _, _): .bool(left != right)
        case (.less, .int(let a), .int(let b)): .bool(a < b)
        case (.lessOrEqual, .int(let a), .int(let b)): .bool(a <= b)
        case (.greater, .int(let a), .int(let b)): .bool(a > b)
        case (.greaterOrEqual, .int(let a), .int(let b)): .bool(a >= b)
        case (.and, .bool(let a), .bool(let b)): .bool(a && b)
        case (.or, .bool(let a), .bool(let b)): .bool(a || b)
        default: nil
        }
    }
}

/// A value of the supported Swift subset, printed as Swift's `print` prints it.
public enum Value: Hashable, Sendable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)
    case bool(Bool)
    case list([Value])

    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .string(let value): value
        case .bool(let value): String(value)
        case .list(let items): "[" + items.map(\.debugText).joined(separator: ", ") + "]"
        }
    }

    /// How the value shows inside a printed array: strings quoted, as Swift does.
    var debugText: String {
        if case .string(let text) = self {
            return "\"" + text + "\""
        }
        return description
    }
}
