import SwiftSyntax

/// The types of the subset's values, as Swift's type checker sees them, so that code Swift
/// would reject (`1 + "a"`, `if n { }`, `x = "a"` for an Int `x`) is rejected here too, with
/// swiftc's words, rather than run with a guessed meaning.
indirect enum StaticType: Hashable, CustomStringConvertible {
    case int, string, bool
    /// An integer type besides Int (`IntegerType`; never `.int`, which is `StaticType.int`).
    case integer(IntegerType)
    /// `(Int, Int)`: a task group's children's value, returned and taken apart (held as a list).
    case tuple([StaticType])
    /// `[Int: Int]`, `[String: Int]`: read with `d[k]!`, written with `d[k] = v`.
    case dictionary(key: StaticType, value: StaticType)
    /// An array; `nil` for an empty literal whose element type only the context can tell.
    case list(StaticType?)
    /// An error value (`any Error`): thrown, caught, printed, tested with `is`.
    case error
    /// `Double` (and `TimeInterval`, its other name).
    case double
    /// `CheckedContinuation<Void, Never>`, kept in a variable or property.
    case continuation
    /// `Int?`, `String?`, …: the wrapped type; nil for the `nil` literal, whose type only the
    /// context tells.
    case optional(StaticType?)
    /// `Task<Int, Never>` (nil: `Task<Void, Never>`): a task's handle, kept in an array
    /// (`tasks.append(Task { … })`) and awaited (`for t in tasks { await t.value }`). Held as the
    /// task's index, as a `let t = Task { … }`'s hidden variable is.
    case task(StaticType?)
    /// A plain enum of the snippet (`enum Phase { case idle, running }`), by its name.
    case enumeration(String)

    var description: String {
        switch self {
        case .int: "Int"
        case .integer(let type): type.rawValue
        case .tuple(let parts): "(" + parts.map(\.description).joined(separator: ", ") + ")"
        case .dictionary(let key, let value): "[\(key): \(value)]"
        case .string: "String"
        case .bool: "Bool"
        case .list(let element?): "[\(element)]"
        case .list(nil): "[_]"
        case .error: "any Error"
        case .double: "Double"
        case .continuation: "CheckedContinuation<(), Never>"
        case .optional(let wrapped?): "\(wrapped)?"
        case .optional(nil): "_?"
        case .task(let result): "Task<\(result.map(\.description) ?? "()"), Never>"
        case .enumeration(let name): name
        }
    }

    /// The type an optional wraps; nil for a type that is not optional.
    var wrapped: StaticType? {
        if case .optional(let inner) = self { inner } else { nil }
    }

    var isOptional: Bool {
        if case .optional = self { true } else { false }
    }

    static func of(_ value: Value) -> StaticType {
        switch value {
        case .int: .int
        case .string: .string
        case .bool: .bool
        case .list(let items): .list(items.first.map(of))
        case .error: .error
        case .double: .double
        case .continuation: .continuation
        case .nilValue: .optional(nil)
        case .enumCase(let value): .enumeration(value.type)
        }
    }

    init(_ integer: IntegerType) {
        self = integer == .int ? .int : .integer(integer)
    }

    var isInteger: Bool {
        switch self {
        case .int, .integer: true
        case .string, .bool, .list, .error, .tuple, .dictionary, .double, .continuation, .optional, .task, .enumeration: false
        }
    }

    /// The integer type, for `.int` and `.integer`.
    var integerType: IntegerType? {
        switch self {
        case .int: .int
        case .integer(let type): type
        case .string, .bool, .list, .error, .tuple, .dictionary, .double, .continuation, .optional, .task, .enumeration: nil
        }
    }

    /// Whether a value of this type can stand where `other` is expected (`[]` fits any array).
    func fits(_ other: StaticType) -> Bool {
        switch (self, other) {
        case (.list(nil), .list): true
        case (.list(let a?), .list(let b?)): a.fits(b)
        // `nil` fits any optional; a value fits the optional that wraps its type.
        case (.optional(nil), .optional): true
        case (.optional(let a?), .optional(let b?)): a.fits(b)
        case (_, .optional(let b?)): fits(b)
        default: self == other
        }
    }
}

extension Lowering {
    /// The type of a lowered expression; nil when a part has no known type (already reported).
    func type(of expression: Expression) -> StaticType? {
        switch expression {
        case .literal(let value): return .of(value)
        case .variable(let id): return variableTypes[id]
        case .isMainThread, .not: return .bool
        case .specific(let key, .orElse): return variableTypes[key]
        case .specific(_, .isNil), .specific(_, .equals): return .bool
        case .specific(_, .printed): return .string
        case .errorIs: return .bool
        case .typed(_, let type, _): return StaticType(type)
        case .optionalText: return .string
        case .parsedInt: return .optional(.int)
        case .contains: return .bool
        case .unwrapped(let optional): return type(of: optional)?.wrapped
        case .transformed(let inner, _): return type(of: inner)
        case .coalesce(let optional, let fallback):
            // `o ?? d` is the wrapped type, or an optional again when `d` is one.
            return type(of: fallback).flatMap { $0.isOptional ? $0 : (type(of: optional)?.wrapped ?? $0) }
        case .count: return .int
        case .interpolation, .debugText, .joined: return .string
        case .conditional(_, let then, let otherwise):
            // `c ? nil : v` (an array's `last`): the optional of the other branch's type.
            guard let first = type(of: then), first == .optional(nil), let other = type(of: otherwise) else { return type(of: then) }
            return other.isOptional ? other : .optional(other)
        case .element(let list, let index):
            if case .list(let element)? = type(of: list) { return element }
            if case .tuple(let parts)? = type(of: list), case .literal(.int(let at)) = index, parts.indices.contains(at) { return parts[at] }
            return nil
        case .tuple(let parts):
            let types = parts.compactMap { type(of: $0) }
            return types.count == parts.count ? .tuple(types) : nil
        case .array(let parts):
            return parts.first.flatMap { type(of: $0) }.map { .list($0) }
        case .dictionary(let keys, let values):
            guard let key = keys.first.flatMap({ type(of: $0) }), let value = values.first.flatMap({ type(of: $0) }) else { return nil }
            return .dictionary(key: key, value: value)
        case .entry(let dictionary, _, let optional):
            if case .dictionary(_, let value)? = type(of: dictionary) { return optional ? .optional(value) : value }
            return nil
        case .binary(let op, let lhs, let rhs):
            switch op {
            // An integer literal takes the other operand's integer type.
            case .add, .subtract, .multiply, .divide, .remainder: return lhs.isIntegerLiteral ? type(of: rhs) : type(of: lhs)
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .and, .or: return .bool
            }
        }
    }

    /// Checks a binary operator's operands as Swift's type checker would; reports at the operator.
    mutating func checkOperands(_ op: BinaryOperator, _ lhs: Expression, _ rhs: Expression, at node: Syntax) -> Bool {
        guard let left = type(of: lhs), let right = type(of: rhs) else { return false }
        if left == .error || right == .error {
            report("binary operator '\(op.rawValue)' cannot be applied to operands of type '\(left)' and '\(right)'", node)
            return false
        }
        // An optional is compared with `==`/`!=` only (with nil or a value); anything else must
        // unwrap it first, as swiftc says.
        if op != .equal && op != .notEqual, let optional = [left, right].first(where: \.isOptional) {
            report("value of optional type '\(optional)' must be unwrapped to a value of type '\(optional.wrapped.map(\.description) ?? "_")'", node)
            return false
        }
        // A Double beside an integer literal: the literal is a Double.
        if left == .double && rhs.isIntegerLiteral || right == .double && lhs.isIntegerLiteral {
            return checkOperands(op, left == .double ? lhs : .literal(.double(0)), right == .double ? rhs : .literal(.double(0)), at: node)
        }
        // An integer literal takes the other side's integer type (`w * 10_000_000`, w a UInt64).
        if case .integer = left, rhs.isIntegerLiteral { return checkOperands(op, lhs, .typed(rhs, left.integerType!, conversion: false), at: node) }
        if case .integer = right, lhs.isIntegerLiteral { return checkOperands(op, .typed(lhs, right.integerType!, conversion: false), rhs, at: node) }
        let fits: Bool
        switch op {
        case .add:
            switch (left, right) {
            case (.int, .int), (.string, .string), (.double, .double): fits = true
            case (.integer(let a), .integer(let b)): fits = a == b
            case (.list, .list): fits = left.fits(right) || right.fits(left)
            default: fits = false
            }
        case .subtract, .multiply, .divide:
            fits = (left.isInteger || left == .double) && left == right
        case .remainder:
            if left == .double && right == .double {
                report("'%' is unavailable: For floating point numbers use truncatingRemainder instead", node)
                return false
            }
            fits = left.isInteger && left == right
        case .equal, .notEqual:
            fits = left.fits(right) || right.fits(left)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            fits = ((left.isInteger || left == .double) && left == right) || (left == .string && right == .string)
        case .and, .or:
            fits = left == .bool && right == .bool
        }
        if !fits {
            report("binary operator '\(op.rawValue)' cannot be applied to operands of type '\(left)' and '\(right)'", node)
        }
        return fits
    }

    /// An integer literal where a value of `integer` is expected takes that type (out of its
    /// range, swiftc's error); any other expression is left as it is, for the caller's check.
    mutating func typedLiteral(_ expression: Expression, _ integer: IntegerType, at node: Syntax) -> Expression? {
        guard case .literal(.int(let number)) = expression else { return expression }
        guard integer.range.contains(number) else {
            report(number < 0 && integer.range.lowerBound == 0
                   ? "negative integer '\(number)' overflows when stored into unsigned type '\(integer.rawValue)'"
                   : "integer literal '\(number)' overflows when stored into '\(integer.rawValue)'", node)
            return nil
        }
        return integer == .int ? expression : .typed(expression, integer, conversion: false)
    }

    /// Checks that an expression has the type its place needs, e.g. a condition's Bool.
    mutating func expect(_ expected: StaticType, _ expression: Expression, at node: Syntax, _ message: (StaticType) -> String) -> Bool {
        // An integer literal is a value of the integer type expected, when it fits its range.
        if case .integer(let integer) = expected, expression.isIntegerLiteral { return typedLiteral(expression, integer, at: node) != nil }
        guard let actual = type(of: expression) else { return false }
        if actual.fits(expected) { return true }
        report(message(actual), node)
        return false
    }

    /// A condition must be a Bool: Swift has no truthiness.
    mutating func expectCondition(_ expression: Expression, at node: Syntax) -> Bool {
        expect(.bool, expression, at: node) { actual in
            actual == .int ? "type 'Int' cannot be used as a boolean; test for '!= 0' instead" : "cannot convert value of type '\(actual)' to expected condition type 'Bool'"
        }
    }

    /// `Int`, `String`, `Bool` or an array of them, as written in a declaration or a parameter.
    /// `node` is where a problem is reported when `type` was made from text (`of: (Int, Int).self`),
    /// so that it points at the snippet's own line rather than at 1:1.
    mutating func staticType(_ type: TypeSyntax, at node: Syntax? = nil) -> StaticType? {
        if let array = type.as(ArrayTypeSyntax.self) {
            return staticType(array.element, at: node).map { .list($0) }
        }
        // `Int?`, `String?`, `Double?`, `CheckedContinuation<Void, Never>?`: one level, of a
        // plain value (an optional array, tuple or optional is outside the subset).
        if let optional = type.as(OptionalTypeSyntax.self) {
            guard let wrapped = staticType(optional.wrappedType, at: node) else { return nil }
            switch wrapped {
            case .int, .string, .bool, .integer, .double, .continuation, .enumeration: return .optional(wrapped)
            case .list, .tuple, .dictionary, .error, .optional, .task:
                report("an optional '\(wrapped)?' is outside the supported subset: Int?, String?, Bool?, Double? and a continuation's are", node ?? Syntax(type))
                return nil
            }
        }
        // `CheckedContinuation<Void, Never>` (or `<(), Never>`): a continuation kept for later.
        if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "CheckedContinuation",
            let arguments = generic.genericArgumentClause?.arguments, arguments.count == 2 {
            let texts = arguments.map { $0.argument.sourceText }
            guard ["Void", "()"].contains(texts[0]), texts[1] == "Never" else {
                report("a continuation kept in a variable is a CheckedContinuation<Void, Never> here", node ?? Syntax(type))
                return nil
            }
            return .continuation
        }
        // `Task<Void, Never>`, `Task<Int, Never>`: a task's handle (an array of them, mostly).
        if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Task",
            let arguments = generic.genericArgumentClause?.arguments, arguments.count == 2 {
            let result = arguments.first!.argument
            guard arguments.last!.argument.sourceText == "Never" else {
                report("a task kept here does not throw: Task<Void, Never>, Task<Int, Never>", node ?? Syntax(type))
                return nil
            }
            if ["Void", "()"].contains(result.sourceText) { return .task(nil) }
            guard case .type(let resultType) = result, let value = staticType(resultType, at: node) else {
                if case .expr = result { report("the type '\(type.sourceText)' is outside the supported subset", node ?? Syntax(type)) }
                return nil
            }
            return .task(value)
        }
        switch type.as(IdentifierTypeSyntax.self).flatMap({ $0.genericArgumentClause == nil ? $0.name.text : nil }) {
        case "Int": return .int
        case _ where type.is(TupleTypeSyntax.self):
            let tuple = type.as(TupleTypeSyntax.self)!
            guard tuple.elements.count >= 2, tuple.elements.allSatisfy({ $0.firstName == nil }) else { break }
            var parts: [StaticType] = []
            for element in tuple.elements {
                guard let part = staticType(element.type, at: node) else { return nil }
                parts.append(part)
            }
            return .tuple(parts)
        case _ where type.is(DictionaryTypeSyntax.self):
            let dictionary = type.as(DictionaryTypeSyntax.self)!
            guard let key = staticType(dictionary.key, at: node), let value = staticType(dictionary.value, at: node) else { return nil }
            guard key == .int || key == .string else {
                report("a dictionary's keys are Int or String here", node ?? Syntax(dictionary.key))
                return nil
            }
            return .dictionary(key: key, value: value)
        case let name? where IntegerType(rawValue: name) != nil: return StaticType(IntegerType(rawValue: name)!)
        case "String": return .string
        case "Bool": return .bool
        case "Double", "TimeInterval": return .double
        case let name? where plainEnums[name] != nil: return .enumeration(name)
        default:
            break
        }
        report("the type '\(type.sourceText)' is outside the supported subset: use Int (or Int64, UInt64, UInt, Int32, UInt32), Double, String, Bool, an optional of one, an array or dictionary of them, or a tuple as a task group's value", node ?? Syntax(type))
        return nil
    }
}

extension Expression {
    /// An integer literal, which Swift types by its context (`w * 10`, `let w: UInt64 = 10`).
    var isIntegerLiteral: Bool {
        if case .literal(.int) = self { true } else { false }
    }
}
