import SwiftSyntax

/// `.map`, `.filter`, `.compactMap`, `.reduce(0, +)` and `.reduce(0) { $0 + $1 }` of an array or
/// a range with a synchronous closure of one expression (`(1...3).map { $0 * 2 }`,
/// `names.map { "\($0)!" }`, `(0..<3).map { i in Task { … } }`): a loop run just before the
/// statement (hoisted), over a copy of the array as Swift iterates the value it was given, its
/// result in a hidden variable. The closure runs where the call runs: a non-sendable closure has
/// its context's isolation (a `Task { }` made in it inherits that), and it may not `await`.
/// A range's `reduce(0, +)` with constant bounds is `Lowering+RangeSums` (a sum in closed form).
extension Lowering {
    /// A call that is a value, not a statement (a body of one is its implicit return):
    /// `xs.map { … }`, `names.joined(separator: ", ")`.
    func givesCollectionValue(_ call: FunctionCallExprSyntax) -> Bool {
        isSequenceCall(call) || isJoinedCall(call) || isArrayMethodCall(call)
    }

    func isSequenceCall(_ call: FunctionCallExprSyntax) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil else { return false }
        return ["map", "filter", "compactMap", "reduce"].contains(member.declName.baseName.text)
    }

    /// What the loop goes over: a range's bounds, or an array's copy and its element type.
    private enum Source {
        case range(from: Expression, to: Expression, inclusive: Bool)
        case array(Expression, element: StaticType)
    }

    mutating func lowerSequenceCall(_ call: FunctionCallExprSyntax) -> Expression? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        let method = member.declName.baseName.text
        let node = Syntax(call)
        // The sequence first, as Swift evaluates it.
        let source: Source
        if let kept = keptRange(base) {
            source = .range(from: kept.from, to: kept.to, inclusive: kept.inclusive)
        } else if let range = rangeSyntax(base) {
            guard let bounds = lowerRangeBounds(range, at: Syntax(base)) else { return nil }
            source = .range(from: bounds.from, to: bounds.to, inclusive: range.inclusive)
        } else {
            guard let list = lowerArrayOperand(base) else { return nil }
            guard case .list(let element)? = type(of: list) else {
                report("'\(method)' is supported on an array or a range of Int here", Syntax(member.declName))
                return nil
            }
            guard let element else {
                report("empty collection literal requires an explicit type", Syntax(base))
                return nil
            }
            source = .array(list, element: element)
        }
        // The closure, and reduce's start (and its operator, `reduce(0, +)`).
        var arguments = Array(call.arguments)
        var start: Expression?
        if method == "reduce" {
            guard let first = arguments.first, first.label == nil else {
                report("write reduce(0, +) or reduce(0) { $0 + $1 }", node)
                return nil
            }
            guard let initial = lowerExpression(first.expression) else { return nil }
            start = initial
            arguments.removeFirst()
        }
        var closure = call.trailingClosure
        var combining: BinaryOperator?
        if closure == nil, arguments.count == 1, let only = arguments.first, only.label == nil {
            if let given = only.expression.as(ClosureExprSyntax.self) {
                closure = given
            } else if method == "reduce", let name = only.expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                let op = BinaryOperator(rawValue: name), [.add, .multiply, .subtract].contains(op) {
                combining = op
            }
        } else if closure != nil, !arguments.isEmpty {
            closure = nil
        }
        guard closure != nil || combining != nil, call.additionalTrailingClosures.isEmpty else {
            report(method == "reduce" ? "write reduce(0, +) or reduce(0) { $0 + $1 }" : "write \(method) with a closure: list.\(method) { $0 … }", node)
            return nil
        }
        let span = self.span(of: node)

        // The loop's element, bound at the top of its body.
        let loopVariable = newVariable("the element of \(method)", isGlobal: false, span: span, type: .int, constant: false)
        var prelude: [Statement] = []
        var element: Expression = .variable(loopVariable)
        let elementType: StaticType
        let loop: (BlockID) -> Loop
        let count: UInt64?
        switch source {
        case .range(let from, let to, let inclusive):
            elementType = .int
            loop = { Loop(variable: loopVariable, from: from, to: to, inclusive: inclusive, body: $0) }
            if case .int(let first)? = from.constantValue, case .int(let bound)? = to.constantValue {
                count = Loop.iterations(from: first, to: bound, inclusive: inclusive)
            } else {
                count = nil
            }
        case .array(let list, let type):
            elementType = type
            let copy = newVariable("the array of \(method)", isGlobal: false, span: span, type: .list(type), constant: false)
            hoisted.append(Statement(.assign(Assignment(target: copy, operation: .set, value: list)), at: span))
            let value = newVariable("the element of \(method)", isGlobal: false, span: span, type: type, constant: false)
            prelude = [Statement(.assign(Assignment(target: value, operation: .set, value: .element(.variable(copy), index: .variable(loopVariable)))), at: span)]
            element = .variable(value)
            loop = { Loop(variable: loopVariable, from: .literal(.int(0)), to: .count(.variable(copy)), inclusive: false, body: $0) }
            if case .list(let items)? = list.constantValue { count = UInt64(items.count) } else { count = nil }
        }
        guard case .variable(let elementVariable) = element else { return nil }
        if let count, count > Loop.maximumIterations {
            report("this \(method) runs its closure \(count.grouped) times: gcdquiz explores at most \(Loop.maximumIterations.grouped) iterations of a loop",
                   Syntax(base))
            return nil
        }

        // reduce's running value.
        var accumulator: VariableID?
        if let start {
            guard let startType = type(of: start) else { return nil }
            accumulator = newVariable("the running value of reduce", isGlobal: false, span: span, type: startType, constant: false)
        }

        // The closure's value for one element, with what it runs first (a task it makes).
        let outerHoisted = hoisted
        hoisted = []
        scopes.append([:])
        var value: Expression?
        if let combining, let accumulator {
            let lhs = Expression.variable(accumulator), rhs = element
            if checkOperands(combining, lhs, rhs, at: Syntax(arguments[0].expression)) { value = .binary(combining, lhs, rhs) }
        } else if let closure {
            var names: [(name: String, variable: VariableID, type: StaticType)] = []
            if let accumulator { names.append(("", accumulator, variableTypes[accumulator]!)) }
            names.append(("", elementVariable, elementType))
            if bindParameters(of: closure, to: names, method: method) {
                closureContexts[closure.id] = (context(of: node).isolation, false)
                value = closureValue(closure)
            }
        }
        let computing = hoisted
        hoisted = outerHoisted
        scopes.removeLast()
        guard let value, let valueType = type(of: value) else { return nil }

        // What one iteration does with the value.
        let result: VariableID
        var step: [Statement] = []
        switch method {
        case "reduce":
            let accumulator = accumulator!
            guard valueType.fits(variableTypes[accumulator]!) else {
                report("cannot convert value of type '\(valueType)' to closure result type '\(variableTypes[accumulator]!)'", closure.map { Syntax($0) } ?? node)
                return nil
            }
            result = accumulator
            hoisted.append(Statement(.assign(Assignment(target: accumulator, operation: .set, value: start!)), at: span))
            step = [Statement(.assign(Assignment(target: accumulator, operation: .set, value: value)), at: span)]
        case "filter":
            guard expectCondition(value, at: Syntax(closure!)) else { return nil }
            result = newVariable("the result of filter", isGlobal: false, span: span, type: .list(elementType), constant: false)
            let keep = BlockID(index: blocks.count)
            blocks.append(Block(statements: [Statement(.assign(Assignment(target: result, operation: .append, value: element)), at: span)], span: span))
            step = [Statement(.branch(condition: value, then: keep, otherwise: nil), at: span)]
        case "compactMap" where valueType.isOptional:
            guard let wrapped = valueType.wrapped else {
                report("compactMap's closure gives nil only: its result is empty, which Swift cannot type", Syntax(closure!))
                return nil
            }
            result = newVariable("the result of compactMap", isGlobal: false, span: span, type: .list(wrapped), constant: false)
            let found = newVariable("a value of compactMap", isGlobal: false, span: span, type: valueType, constant: false)
            let keep = BlockID(index: blocks.count)
            blocks.append(Block(statements: [Statement(.assign(Assignment(target: result, operation: .append, value: .variable(found))), at: span)], span: span))
            step = [Statement(.assign(Assignment(target: found, operation: .set, value: value)), at: span),
                    Statement(.branch(condition: .binary(.notEqual, .variable(found), .literal(.nilValue)), then: keep, otherwise: nil), at: span)]
        default:
            // map, and compactMap of a closure whose value is never nil (Swift warns, and keeps all).
            result = newVariable("the result of \(method)", isGlobal: false, span: span, type: .list(valueType), constant: false)
            step = [Statement(.assign(Assignment(target: result, operation: .append, value: value)), at: span)]
        }
        if method != "reduce" {
            hoisted.append(Statement(.assign(Assignment(target: result, operation: .set, value: .literal(.list([])))), at: span))
        }
        let body = BlockID(index: blocks.count)
        blocks.append(Block(statements: prelude + computing + step, span: span))
        hoisted.append(Statement(.loop(loop(body)), at: span))
        return .variable(result)
    }

    /// Binds the closure's parameters (`i in`, `(a, b) in`, or `$0`, `$1` when it names none) to
    /// the loop's variables; reports a signature outside the subset.
    private mutating func bindParameters(of closure: ClosureExprSyntax, to values: [(name: String, variable: VariableID, type: StaticType)],
                                         method: String) -> Bool {
        var names: [String] = []
        if let signature = closure.signature {
            guard signature.attributes.isEmpty, signature.capture == nil, signature.effectSpecifiers == nil, signature.returnClause == nil else {
                report("\(method)'s closure is written { x in … } or with $0 here", Syntax(signature))
                return false
            }
            switch signature.parameterClause {
            case .simpleInput(let list)?:
                names = list.map(\.name.text)
            case .parameterClause(let clause)?:
                guard clause.parameters.allSatisfy({ $0.type == nil }) else {
                    report("\(method)'s closure is written { x in … } or with $0 here", Syntax(clause))
                    return false
                }
                names = clause.parameters.map { $0.secondName?.text ?? $0.firstName.text }
            case nil:
                break
            }
            guard names.count == values.count else {
                report("contextual closure type expects \(values.count) argument\(values.count == 1 ? "" : "s"), but \(names.count) \(names.count == 1 ? "was" : "were") used in closure body", Syntax(signature))
                return false
            }
        } else {
            names = values.indices.map { "$\($0)" }
        }
        for (name, value) in zip(names, values) where name != "_" {
            bindElement(name, value.variable, of: value.type)
        }
        return true
    }

    /// The value of a closure of one expression, or of one `return e`.
    private mutating func closureValue(_ closure: ClosureExprSyntax) -> Expression? {
        guard closure.statements.count == 1, let only = closure.statements.first else {
            report("a closure given to map, filter, compactMap or reduce is one expression here: { $0 * 2 }", Syntax(closure))
            return nil
        }
        if let returned = only.item.as(ReturnStmtSyntax.self), let expression = returned.expression {
            return lowerExpression(expression)
        }
        guard let expression = only.item.as(ExprSyntax.self) else {
            report("a closure given to map, filter, compactMap or reduce is one expression here: { $0 * 2 }", Syntax(closure))
            return nil
        }
        return lowerExpression(expression)
    }
}

/// `items.joined(separator: ", ")` and `items.joined()` of an array of strings.
extension Lowering {
    func isJoinedCall(_ call: FunctionCallExprSyntax) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil else { return false }
        return member.declName.baseName.text == "joined"
    }

    mutating func lowerJoined(_ call: FunctionCallExprSyntax) -> Expression? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        let arguments = Array(call.arguments)
        guard call.trailingClosure == nil, arguments.count <= 1, arguments.allSatisfy({ $0.label?.text == "separator" }) else {
            report("write list.joined(separator: \", \") or list.joined()", Syntax(call))
            return nil
        }
        guard let list = lowerArrayOperand(base) else { return nil }
        guard type(of: list) == .list(.string) else {
            report("joined is supported on an array of String here, not '\(type(of: list).map(\.description) ?? "?")'", Syntax(member.declName))
            return nil
        }
        var separator = Expression.literal(.string(""))
        if let given = arguments.first {
            guard let lowered = lowerExpression(given.expression),
                expect(.string, lowered, at: Syntax(given.expression), { "cannot convert value of type '\($0)' to expected argument type 'String'" })
            else { return nil }
            separator = lowered
        }
        return .joined(list, separator: separator)
    }
}
