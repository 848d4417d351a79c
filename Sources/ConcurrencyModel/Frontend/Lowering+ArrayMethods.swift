import SwiftSyntax

/// The standard library's methods on the subset's values that run none of the snippet's code:
/// an array's `sorted()` (also `sorted(by: <)`, `sorted(by: >)` and a closure that compares its
/// two parameters, `{ $0 > $1 }`), `reversed()` where it is used as an array (`Array(xs.reversed())`,
/// `for x in xs.reversed()`, or the base of another method), `contains(x)`, `min()` and `max()`
/// (optionals: nil for an empty array); a String's `uppercased()` and `lowercased()`; and the
/// statements `xs.sort()` and `xs.reverse()`, a read and a write of the array as
/// `xs = xs.sorted()` is. Each is one `Expression` evaluated in one step, with this process's
/// standard library (`ValueTransform`). `first`, `last`, `isEmpty` and `count` are elsewhere
/// (`Lowering+ArrayEnds`, `Lowering+Collections`).
extension Lowering {
    static let arrayMethods: Set<String> = ["sorted", "reversed", "contains", "min", "max", "uppercased", "lowercased"]

    /// `xs.sorted()`, `name.uppercased()`, `Array(xs.reversed())`: a method of a value, not a
    /// function of the snippet (whose calls `isValueCall` claims first).
    func isArrayMethodCall(_ call: FunctionCallExprSyntax) -> Bool {
        if call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Array", lookup("Array") == nil { return true }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil else { return false }
        return Self.arrayMethods.contains(member.declName.baseName.text) && !isValueCall(call)
    }

    mutating func lowerArrayMethod(_ call: FunctionCallExprSyntax) -> Expression? {
        let node = Syntax(call)
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else {
            return lowerArrayConversion(call)
        }
        let method = member.declName.baseName.text
        if method == "reversed" {
            report("\(base.sourceText).reversed() is a ReversedCollection, which Swift prints as such: write Array(\(base.sourceText).reversed()), or loop over it", node)
            return nil
        }
        switch method {
        case "sorted":
            if call.arguments.isEmpty && call.trailingClosure == nil { return lowerTransform(base, method: method, .sortedAscending, call: call) }
            guard let order = sortOrder(call) else { return nil }
            return lowerTransform(base, method: method, order, call: call)
        case "uppercased":
            return lowerTransform(base, method: method, .uppercased, call: call)
        case "lowercased":
            return lowerTransform(base, method: method, .lowercased, call: call)
        case "contains":
            return lowerContains(base, call: call)
        default:
            return lowerExtreme(base, isMax: method == "max", call: call)
        }
    }

    /// An array where one is wanted: `xs.reversed()` (or `(1...3).reversed()` of constant bounds)
    /// as the array it walks, anything else as a value.
    mutating func lowerArrayOperand(_ expr: ExprSyntax) -> Expression? {
        guard let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            let base = member.base, member.declName.baseName.text == "reversed", !isValueCall(call)
        else { return lowerExpression(expr) }
        guard call.arguments.isEmpty, call.trailingClosure == nil else {
            report("reversed() takes no arguments", Syntax(call))
            return nil
        }
        if let range = rangeSyntax(base) {
            return rangeArray(range, at: Syntax(base)).map { .transformed($0, .reversed) }
        }
        guard let list = lowerArrayOperand(base), let type = type(of: list) else { return nil }
        guard case .list = type else {
            report("reversed() is supported on an array or a range of constant bounds here, not '\(type)'", Syntax(member.declName))
            return nil
        }
        return .transformed(list, .reversed)
    }

    /// `Array(xs.reversed())`, `Array(xs)`, `Array(1...3)` (constant bounds).
    private mutating func lowerArrayConversion(_ call: FunctionCallExprSyntax) -> Expression? {
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil else {
            report("write Array(xs.reversed()) or Array(1...3)", Syntax(call))
            return nil
        }
        if let range = rangeSyntax(argument.expression) {
            return rangeArray(range, at: Syntax(argument.expression))
        }
        guard let list = lowerArrayOperand(argument.expression), let type = type(of: list) else { return nil }
        guard case .list = type else {
            report("Array(…) of a '\(type)' is outside the supported subset: convert an array, its reversed(), or a range", Syntax(argument.expression))
            return nil
        }
        return list
    }

    /// A range's Ints as an array: a literal when its bounds are constants, else made by a loop
    /// run just before the statement (a step per element, as Swift's loop over the range is;
    /// bounds in the wrong order trap there, as making the range does).
    private mutating func rangeArray(_ range: (lower: ExprSyntax, upper: ExprSyntax, inclusive: Bool), at node: Syntax) -> Expression? {
        guard let (from, to) = lowerRangeBounds(range, at: node) else { return nil }
        if case .int(let first)? = from.constantValue, case .int(let bound)? = to.constantValue {
            guard let count = Loop.iterations(from: first, to: bound, inclusive: range.inclusive) else {
                report("this range's upper bound is below its lower bound: Swift traps (Range requires lowerBound <= upperBound)", node)
                return nil
            }
            guard count <= Loop.maximumIterations else {
                report("this range has \(count.grouped) elements: gcdquiz makes arrays of at most \(Loop.maximumIterations.grouped)", node)
                return nil
            }
            return .literal(.list((range.inclusive ? Array(first...bound) : Array(first..<bound)).map(Value.int)))
        }
        let span = self.span(of: node)
        let element = newVariable("an element of the range", isGlobal: false, span: span, type: .int, constant: false)
        let result = newVariable("the range's array", isGlobal: false, span: span, type: .list(.int), constant: false)
        let body = BlockID(index: blocks.count)
        blocks.append(Block(statements: [Statement(.assign(Assignment(target: result, operation: .append, value: .variable(element))), at: span)], span: span))
        hoisted.append(Statement(.assign(Assignment(target: result, operation: .set, value: .literal(.list([])))), at: span))
        hoisted.append(Statement(.loop(Loop(variable: element, from: from, to: to, inclusive: range.inclusive, body: body)), at: span))
        return .variable(result)
    }

    /// `sorted(by: <)`, `sorted(by: >)`, `sorted { $0 > $1 }`, `sorted(by: { a, b in a < b })`.
    private mutating func sortOrder(_ call: FunctionCallExprSyntax) -> ValueTransform? {
        let usage = "a sort here is sorted(), sorted(by: <), sorted(by: >) or sorted { $0 > $1 } (a closure comparing its two parameters with < or >)"
        var given: ExprSyntax?
        if let closure = call.trailingClosure, call.arguments.isEmpty, call.additionalTrailingClosures.isEmpty {
            given = ExprSyntax(closure)
        } else if call.trailingClosure == nil, call.arguments.count == 1, let only = call.arguments.first, only.label?.text == "by" {
            given = only.expression
        }
        guard let given else {
            report(usage, Syntax(call))
            return nil
        }
        if let reference = given.as(DeclReferenceExprSyntax.self) {
            switch reference.baseName.text {
            case "<": return .sortedAscending
            case ">": return .sortedDescending
            default:
                report(usage, Syntax(given))
                return nil
            }
        }
        guard let closure = given.as(ClosureExprSyntax.self), let comparison = comparedParameters(closure) else {
            report(usage, Syntax(given))
            return nil
        }
        return comparison
    }

    /// The order a closure of one comparison of its two parameters sorts in: `$0 < $1` (or
    /// `$1 > $0`) ascending, `$0 > $1` (or `$1 < $0`) descending; nil for any other closure.
    private func comparedParameters(_ closure: ClosureExprSyntax) -> ValueTransform? {
        var names = ["$0", "$1"]
        if let signature = closure.signature {
            guard signature.attributes.isEmpty, signature.capture == nil, signature.effectSpecifiers == nil, signature.returnClause == nil else { return nil }
            switch signature.parameterClause {
            case .simpleInput(let list)?: names = list.map(\.name.text)
            case .parameterClause(let clause)?:
                guard clause.parameters.allSatisfy({ $0.type == nil }) else { return nil }
                names = clause.parameters.map { $0.secondName?.text ?? $0.firstName.text }
            case nil: break
            }
        }
        guard names.count == 2, names[0] != names[1], closure.statements.count == 1, let only = closure.statements.first else { return nil }
        let body: ExprSyntax? = only.item.as(ReturnStmtSyntax.self)?.expression ?? only.item.as(ExprSyntax.self)
        guard let infix = body?.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
            op == "<" || op == ">",
            let left = infix.leftOperand.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let right = infix.rightOperand.as(DeclReferenceExprSyntax.self)?.baseName.text,
            Set([left, right]) == Set(names)
        else { return nil }
        return (op == "<") == (left == names[0]) ? .sortedAscending : .sortedDescending
    }

    /// `xs.sorted()` and the like, `s.uppercased()`: the base's type checked for the method.
    private mutating func lowerTransform(_ base: ExprSyntax, method: String, _ transform: ValueTransform, call: FunctionCallExprSyntax) -> Expression? {
        if transform == .uppercased || transform == .lowercased {
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(method)() takes no arguments", Syntax(call))
                return nil
            }
        }
        guard let value = lowerArrayOperand(base), let type = type(of: value) else { return nil }
        switch transform {
        case .uppercased, .lowercased:
            guard type == .string else {
                report("value of type '\(type)' has no member '\(method)'", Syntax(call.calledExpression))
                return nil
            }
        case .sortedAscending, .sortedDescending, .reversed:
            guard case .list(let element) = type else {
                report("\(method) is supported on an array here, not on '\(type)'", Syntax(call.calledExpression))
                return nil
            }
            guard sortable(element, at: Syntax(call.calledExpression)) else { return nil }
        }
        return .transformed(value, transform)
    }

    /// Elements this process's standard library orders as Swift's does: integers, Doubles, Strings.
    static func isOrdered(_ element: StaticType) -> Bool {
        element.isInteger || element == .double || element == .string
    }

    /// Whether an array of `element` may be sorted; reported at `node` when not.
    private mutating func sortable(_ element: StaticType?, at node: Syntax) -> Bool {
        if let element, Self.isOrdered(element) { return true }
        report("sorting an array of '\(element.map(\.description) ?? "?")' is outside the supported subset: sort Int, Double or String values", node)
        return false
    }

    /// `xs.contains(x)`: whether an element equals `x`.
    private mutating func lowerContains(_ base: ExprSyntax, call: FunctionCallExprSyntax) -> Expression? {
        guard call.trailingClosure == nil, call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil else {
            report("write list.contains(x) (contains(where:) is outside the supported subset)", Syntax(call))
            return nil
        }
        guard let list = lowerArrayOperand(base), let type = type(of: list) else { return nil }
        guard case .list(let element?) = type else {
            report(type == .string
                   ? "contains on a String is outside the supported subset: test an array's elements"
                   : "contains is supported on an array here, not on '\(type)'", Syntax(call.calledExpression))
            return nil
        }
        guard var value = lowerExpression(argument.expression) else { return nil }
        value = coercedLiteral(value, to: element)
        if case .integer(let integer) = element { guard let typed = typedLiteral(value, integer, at: Syntax(argument.expression)) else { return nil }; value = typed }
        guard expect(element, value, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(element)'" }) else { return nil }
        return .contains(list, element: value)
    }

    /// `xs.min()`, `xs.max()`: the first smallest (largest) element, nil for an empty array —
    /// the first element of the array sorted (stably) up or down, as the library's loop keeps
    /// the first of equal ones.
    private mutating func lowerExtreme(_ base: ExprSyntax, isMax: Bool, call: FunctionCallExprSyntax) -> Expression? {
        let name = isMax ? "max" : "min"
        guard call.arguments.isEmpty, call.trailingClosure == nil else {
            report("write list.\(name)() (\(name)(by:) is outside the supported subset)", Syntax(call))
            return nil
        }
        guard let list = lowerArrayOperand(base), let type = type(of: list) else { return nil }
        guard case .list(let element?) = type, Self.isOrdered(element) else {
            report("\(name)() is supported on an array of Int, Double or String here, not on '\(type)'", Syntax(call.calledExpression))
            return nil
        }
        let sorted = Expression.transformed(list, isMax ? .sortedDescending : .sortedAscending)
        return .conditional(.binary(.equal, .count(list), .literal(.int(0))), then: .literal(.nilValue), otherwise: .element(sorted, index: .literal(.int(0))))
    }

    /// `xs.sort()`, `xs.sort(by: >)`, `xs.reverse()` on an array variable: `xs = xs.sorted()`.
    mutating func lowerSortInPlace(_ variable: VariableID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        let transform: ValueTransform
        if method == "reverse" {
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("reverse() takes no arguments", Syntax(call))
                return nil
            }
            transform = .reversed
        } else if call.arguments.isEmpty && call.trailingClosure == nil {
            transform = .sortedAscending
        } else {
            guard let order = sortOrder(call) else { return nil }
            transform = order
        }
        guard case .list(let element)? = variableTypes[variable] else {
            report("\(method)() is supported on an array variable here", Syntax(call.calledExpression))
            return nil
        }
        if transform != .reversed {
            guard sortable(element, at: Syntax(call.calledExpression)) else { return nil }
        }
        let value = Expression.transformed(.variable(variable), transform)
        guard checkAssignment(.set, to: variable, value, at: Syntax(call)) else { return nil }
        return Statement(.assign(Assignment(target: variable, operation: .set, value: value)), at: span)
    }
}
