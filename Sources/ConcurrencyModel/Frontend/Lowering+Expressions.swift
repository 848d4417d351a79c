import SwiftSyntax

/// Expressions: literals, variables, arithmetic, comparisons, interpolation, `list.count`.
extension Lowering {
    /// An expression lowered only to check it or to know its constant value: the statements it
    /// would run first (an awaited call, a function's call) are dropped, as nothing runs it.
    mutating func lowerWithoutRunning(_ expr: ExprSyntax) -> Expression? {
        let saved = (hoisted: hoisted, pending: pendingStatements)
        defer { (hoisted, pendingStatements) = saved }
        return lowerExpression(expr)
    }

    mutating func lowerExpression(_ expr: ExprSyntax) -> Expression? {
        if let attempt = expr.as(TryExprSyntax.self) {
            guard attempt.questionOrExclamationMark == nil else { return lowerMarkedTryValue(attempt) }
            guard checkHandled(Syntax(attempt)) else { return nil }
            if !attempt.expression.is(AwaitExprSyntax.self) { return lowerExpression(attempt.expression) }
        }
        if let awaited = Self.awaited(expr) {
            return lowerAwaitValue(awaited)
        }
        switch lowerErrorValue(expr) {
        case .some(.some(let found)): return found
        case .some(.none): return nil  // refused, and reported once
        case .none: break
        }
        switch lowerEnumValue(expr) {
        case .some(let found): return found
        case .none: break
        }
        if let test = expr.as(IsExprSyntax.self) {
            return lowerErrorIs(test)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task",
            member.declName.baseName.text == "isCancelled" {
            return lowerIsCancelled(member)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let read = lowerTaskLocalRead(member) {
            return read
        }
        if let integer = expr.as(IntegerLiteralExprSyntax.self) {
            guard let value = integerValue(integer.literal.text) else {
                report("integer literal out of range", Syntax(expr))
                return nil
            }
            return .literal(.int(value))
        }
        if isFunctionNameMacro(expr) {
            return lowerFunctionName(expr)
        }
        if expr.is(NilLiteralExprSyntax.self) {
            return .literal(.nilValue)
        }
        if let float = expr.as(FloatLiteralExprSyntax.self) {
            guard let value = Double(float.literal.text.filter { $0 != "_" }), value.isFinite else {
                report("this floating-point literal is outside the supported subset", Syntax(expr))
                return nil
            }
            return .literal(.double(value))
        }
        if let boolean = expr.as(BooleanLiteralExprSyntax.self) {
            return .literal(.bool(boolean.literal.tokenKind == .keyword(.true)))
        }
        if let string = expr.as(StringLiteralExprSyntax.self) {
            return lowerString(string)
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self) {
            // `-9223372036854775808` is one literal in Swift, not a negation of one that overflows.
            if prefix.operator.text == "-", let integer = prefix.expression.as(IntegerLiteralExprSyntax.self) {
                guard let value = integerValue("-" + integer.literal.text) else {
                    report("integer literal '-\(integer.literal.text)' overflows when stored into 'Int'", Syntax(expr))
                    return nil
                }
                return .literal(.int(value))
            }
            guard let inner = lowerExpression(prefix.expression) else { return nil }
            switch prefix.operator.text {
            case "-" where type(of: inner) == .double:
                // -1 × x is IEEE negation exactly (0 - 0.0 would lose -0.0's sign).
                if case .literal(.double(let number)) = inner { return .literal(.double(-number)) }
                return .binary(.multiply, .literal(.double(-1)), inner)
            case "-":
                guard expect(.int, inner, at: Syntax(expr), { "unary operator '-' cannot be applied to an operand of type '\($0)'" }) else { return nil }
                return constantChecked(.binary(.subtract, .literal(.int(0)), inner), written: expr, at: Syntax(expr))
            case "!":
                guard expect(.bool, inner, at: Syntax(expr), { "unary operator '!' cannot be applied to an operand of type '\($0)'" }) else { return nil }
                return .not(inner)
            default:
                unsupported(Syntax(expr))
                return nil
            }
        }
        if case .some(let value) = awaitedTaskValue(expr) { return value }
        if let read = lowerActorPropertyRead(expr) { return read }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            base.baseName.text == "Int", ["max", "min"].contains(member.declName.baseName.text)
        {
            return .literal(.int(member.declName.baseName.text == "max" ? .max : .min))
        }
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            switch lookup(name) {
            case .variable(let id)? where variables[id.index].reflects == .specificKey:
                report("'\(name)' is a DispatchSpecificKey: read its value with DispatchQueue.getSpecific(key: \(name))", Syntax(expr))
            case .variable(let id)?: return mayTouchMainActorGlobal(id, mutates: false, at: Syntax(expr)) ? .variable(id) : nil
            case .continuation(let id)?: return keptContinuation(id, at: Syntax(expr))
            case .function(let property)? where property.isProperty: return lowerPropertyRead(property, reference)
            case .task(let handle)? where !awaitingExpression && isTaskHandle(handle):
                return .variable(handle)
            case .task(let handle)? where awaitingExpression:
                // `await (a + b)` of async lets: each awaited just before the statement, in order.
                guard let type = taskResultTypes[handle] else {
                    report("'\(name)' gives no value here (its task returns none)", Syntax(expr))
                    return nil
                }
                let span = self.span(of: Syntax(expr))
                let result = newVariable("the value of \(name)", isGlobal: false, span: span, type: type)
                hoisted.append(Statement(.suspend(.value(of: handle, result: result)), at: span))
                return .variable(result)
            case nil:
                if reportsNonisolatedPropertyRead(reference) { return nil }
                report("cannot find '\(name)' in scope", Syntax(expr))
            default:
                report("'\(name)' cannot be used as a value here", Syntax(expr))
            }
            return nil
        }
        if let member = expr.as(MemberAccessExprSyntax.self), isInstanceMember(member) {
            guard mayUseTopLevelInstance(through: member) else { return nil }
            switch binding(of: expr) {
            case .variable(let id)?: return .variable(id)
            case .function(let property)? where property.isProperty: return lowerPropertyRead(property, member)
            case nil: _ = reportMissingMember(member)
            default: report("'\(member.sourceText)' cannot be used as a value here", Syntax(expr))
            }
            return nil
        }
        if refusesCurrentThreadFromAsync(expr) { return nil }
        // `Thread.isMainThread`, and `Thread.current.isMainThread` where swiftc takes it (code that
        // is not async, or Swift 5 mode, where it only warns).
        if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isMainThread",
            let base = member.base?.sourceText, ["Thread", "Thread.current"].contains(base)
        {
            return .isMainThread
        }
        // `String(describing: x)`: the text `"\(x)"` gives.
        if let call = expr.as(FunctionCallExprSyntax.self), call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "String",
            call.trailingClosure == nil, call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "describing"
        {
            guard let value = lowerExpression(argument.expression), !refusesTaskText(type(of: value), at: Syntax(argument.expression)) else { return nil }
            return .interpolation([printable(value)])
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isCancelled",
            let base = member.base, case .workItem(let item)? = binding(of: base)
        {
            return .variable(workItems[item.index].cancelled)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isCancelled",
            let base = member.base, case .operation(let operation)? = binding(of: base),
            let flag = operations[operation.index].cancelled
        {
            return .variable(flag)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), ["isFinished", "isExecuting"].contains(member.declName.baseName.text),
            let base = member.base, case .operation(let operation)? = binding(of: base)
        {
            return .variable(operationFlag(operation, member.declName.baseName.text))
        }
        if isArrayEnd(expr), case .some(let end) = lowerArrayEnd(expr) {
            return end
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, member.declName.baseName.text == "count" {
            guard let inner = lowerExpression(base), let type = type(of: inner) else { return nil }
            guard case .list = type, type != .string else {
                // A dictionary is kept as its entries: its count is theirs.
                if case .dictionary = type { return .count(inner) }
                if type == .string { return .count(inner) }
                report("value of type '\(type)' has no member 'count'", Syntax(member.declName))
                return nil
            }
            return .count(inner)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, member.declName.baseName.text == "isEmpty" {
            return lowerIsEmpty(of: base, at: Syntax(member.declName))
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self), let use = lowerSpecificUse(infix) {
            return use
        }
        if let found = getSpecificCall(expr) {
            if found != nil {
                report("DispatchQueue.getSpecific(key:) returns an optional: write '?? fallback', '!= nil' or '== value' (or print it)", Syntax(expr))
            }
            return nil
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self), infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
            return lowerNilCoalescing(infix)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self),
            let op = infix.operator.as(BinaryOperatorExprSyntax.self).flatMap({ BinaryOperator(rawValue: $0.operator.text) })
        {
            // Left to right, as Swift evaluates (the calls inside run in that order).
            let left = lowerExpression(infix.leftOperand)
            let right = op == .and || op == .or
                ? lowerConditionally(infix.rightOperand, op == .and ? "when the left side of && is true" : "when the left side of || is false")
                : lowerExpression(infix.rightOperand)
            guard let lhs = left, let rhs = right,
                checkOperands(op, lhs, rhs, at: Syntax(infix.operator))
            else { return nil }
            // Arithmetic on another integer type than Int traps where its result leaves the type's range.
            if case .integer(let integer)? = type(of: .binary(op, lhs, rhs)) {
                return constantChecked(.typed(.binary(op, lhs, rhs), integer, conversion: false), written: infix, at: Syntax(infix.operator))
            }
            return constantChecked(.binary(op, lhs, rhs), written: infix, at: Syntax(infix.operator))
        }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return lowerExpression(only.expression)
        }
        // `(1, await num1())`: left to right, as Swift evaluates a tuple.
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count >= 2, tuple.elements.allSatisfy({ $0.label == nil }) {
            var parts: [Expression] = []
            for element in tuple.elements {
                guard let part = lowerExpression(element.expression) else { return nil }
                parts.append(part)
            }
            return .tuple(parts)
        }
        // `dict[key]!`: a missing key traps.
        if let unwrap = expr.as(ForceUnwrapExprSyntax.self), let subscriptCall = unwrap.expression.as(SubscriptCallExprSyntax.self),
            subscriptCall.arguments.count == 1, let argument = subscriptCall.arguments.first, argument.label == nil,
            let dictionary = lowerExpression(subscriptCall.calledExpression), case .dictionary(let keyType, _)? = type(of: dictionary) {
            guard let key = lowerExpression(argument.expression),
                expect(keyType, key, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(keyType)'" })
            else { return nil }
            return .entry(dictionary, key: key, optional: false)
        }
        if let unwrap = expr.as(ForceUnwrapExprSyntax.self) {
            return lowerForceUnwrap(unwrap)
        }
        if let subscriptCall = expr.as(SubscriptCallExprSyntax.self) {
            guard subscriptCall.arguments.count == 1, let argument = subscriptCall.arguments.first, argument.label == nil,
                let list = lowerExpression(subscriptCall.calledExpression), let index = lowerExpression(argument.expression)
            else {
                if subscriptCall.arguments.count != 1 { report("a subscript takes one index: list[i]", Syntax(subscriptCall)) }
                return nil
            }
            // `dict[key]`: the value, or nil where the key is not there.
            if case .dictionary(let keyType, _)? = type(of: list) {
                guard expect(keyType, index, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(keyType)'" })
                else { return nil }
                return .entry(list, key: index, optional: true)
            }
            guard case .list? = type(of: list) else {
                report("value of type '\(type(of: list).map { "\($0)" } ?? "?")' has no subscripts", Syntax(subscriptCall.calledExpression))
                return nil
            }
            guard expect(.int, index, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type 'Int'" }) else { return nil }
            return .element(list, index: index)
        }
        if let ternary = expr.as(TernaryExprSyntax.self) {
            guard let condition = lowerCondition(ternary.condition), let then = lowerConditionally(ternary.thenExpression, "when the condition holds"),
                let otherwise = lowerConditionally(ternary.elseExpression, "when the condition does not hold"), sameType(then, otherwise, at: Syntax(ternary.elseExpression))
            else { return nil }
            return .conditional(condition, then: then, otherwise: otherwise)
        }
        if let branch = expr.as(IfExprSyntax.self) {
            return lowerIfExpression(branch)
        }
        if let choice = expr.as(SwitchExprSyntax.self) {
            return lowerSwitchExpression(choice)
        }
        if let array = expr.as(ArrayExprSyntax.self) {
            var items: [Value] = []
            var computed: [Expression] = []
            for element in array.elements {
                guard let lowered = lowerExpression(element.expression) else { return nil }
                if let first = computed.first, let firstType = type(of: first), type(of: lowered).map({ !$0.fits(firstType) }) ?? true {
                    report("heterogeneous collection literal: '\(type(of: lowered).map { "\($0)" } ?? "?")' among '\(firstType)' elements (Swift would need '[Any]', outside the supported subset)", Syntax(element))
                    return nil
                }
                computed.append(lowered)
                // `[a, b]` of values known only when it runs (`await [x, y]`): built then.
                if case .literal(let value) = lowered { items.append(value) }
            }
            return items.count == computed.count ? .literal(.list(items)) : .array(computed)
        }
        if let dictionary = expr.as(DictionaryExprSyntax.self) {
            return lowerDictionaryLiteral(dictionary)
        }
        if case .some(let element) = emptyArrayCall(expr) {
            return element == nil ? nil : .literal(.list([]))
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isTaskCreation(call) {
            return lowerTaskValue(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isRangeReduce(call) {
            return lowerRangeReduce(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isSequenceCall(call) {
            return lowerSequenceCall(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isJoinedCall(call) {
            return lowerJoined(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isMinMaxCall(call) {
            return lowerMinMax(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isValueCall(call) {
            return lowerValueCall(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), isArrayMethodCall(call) {
            return lowerArrayMethod(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            name == "Double" || name == "TimeInterval" {
            return lowerDoubleConversion(call)
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let integer = IntegerType(rawValue: name) {
            return lowerIntegerConversion(call, to: integer)
        }
        // `await cache.value(for: "b") ?? -1`: one `await` covers an actor's method or an async
        // function inside the expression; the call runs just before the statement, as a call
        // awaited on its own would, its value in a hidden variable.
        if awaitingExpression, let call = expr.as(FunctionCallExprSyntax.self) {
            let reported = problems.count
            if let lowered = lowerAwaitedCall(call, keepsValue: true) {
                guard let result = lowered.value else {
                    report("'\(call.calledExpression.sourceText)' returns nothing: await it on a line of its own", Syntax(call))
                    return nil
                }
                hoisted += lowered.statements
                return .variable(result)
            }
            if problems.count > reported { return nil }
        }
        report("'\(short(expr))' is outside the supported subset: use literals, variables, + - * / %, comparisons, && || !, ?:, interpolation and .count", Syntax(expr))
        return nil
    }

    /// `Double(i)`, `TimeInterval(i)` of an Int (the nearest Double, as Swift's conversion
    /// rounds: 1.0 × the Int, which the Double arithmetic converts the same way), or of a Double.
    private mutating func lowerDoubleConversion(_ call: FunctionCallExprSyntax) -> Expression? {
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil else {
            report("write Double(x) of an Int or a Double", Syntax(call))
            return nil
        }
        guard let inner = lowerExpression(argument.expression), let type = type(of: inner) else { return nil }
        if case .literal(.int(let number)) = inner { return .literal(.double(Double(number))) }
        switch type {
        case .double: return inner
        case .int: return .binary(.multiply, .literal(.double(1)), inner)
        default:
            report("Double(…) of a '\(type)' is outside the supported subset: convert an Int", Syntax(argument.expression))
            return nil
        }
    }

    /// `Int(x)`, `UInt64(n)`, `Int32(x)` of an integer: Swift traps when the value does not fit
    /// the type ("Negative value is not representable", "Not enough bits to represent the passed value").
    private mutating func lowerIntegerConversion(_ call: FunctionCallExprSyntax, to integer: IntegerType) -> Expression? {
        guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil else {
            report("write \(integer.rawValue)(x) of an integer value", Syntax(call))
            return nil
        }
        guard let inner = lowerExpression(argument.expression) else { return nil }
        if inner.isIntegerLiteral { return typedLiteral(inner, integer, at: Syntax(argument.expression)) }
        guard let type = type(of: inner) else { return nil }
        // `Int("42")`: an optional, nil where the text is not a number.
        if type == .string, integer == .int { return .parsedInt(inner) }
        guard type.isInteger else {
            report("\(integer.rawValue)(…) of a '\(type)' is outside the supported subset: convert an integer", Syntax(argument.expression))
            return nil
        }
        return .typed(inner, integer, conversion: true)
    }

    /// The hidden variable `op.isFinished` or `op.isExecuting` reads, made on first use.
    private mutating func operationFlag(_ operation: OperationID, _ property: String) -> VariableID {
        let decl = operations[operation.index]
        let finished = property == "isFinished"
        if let existing = finished ? decl.finished : decl.executing { return existing }
        let flag = newVariable("\(decl.name).\(property)", isGlobal: true, span: decl.span, type: .bool, synchronized: true,
                               reflects: finished ? .operationIsFinished(operation) : .operationIsExecuting(operation))
        if finished { operations[operation.index].finished = flag } else { operations[operation.index].executing = flag }
        return flag
    }

    /// A Bool expression, as a condition (`if`, `?:`, a `case` test).
    mutating func lowerCondition(_ expr: ExprSyntax) -> Expression? {
        guard let condition = lowerExpression(expr) else { return nil }
        guard expect(.bool, condition, at: Syntax(expr), { "type '\($0)' cannot be used as a boolean; test for '!= 0' instead" }) else { return nil }
        return condition
    }

    /// Both values of a choice have one type, as Swift's type checker wants.
    private mutating func sameType(_ a: Expression, _ b: Expression, at node: Syntax) -> Bool {
        guard let first = type(of: a), let second = type(of: b) else { return false }
        guard first.fits(second) || second.fits(first) else {
            report("result values in '? :' expression have mismatching types '\(first)' and '\(second)'", node)
            return false
        }
        return true
    }

    /// `if c { a } else if d { b } else { e }` as a value (Swift 5.9): each branch one expression.
    private mutating func lowerIfExpression(_ branch: IfExprSyntax) -> Expression? {
        guard branch.conditions.count == 1, case .expression(let test)? = branch.conditions.first?.condition else {
            report("an 'if' expression tests one Bool condition here", Syntax(branch.conditions))
            return nil
        }
        guard let elseBody = branch.elseBody else {
            report("'if' must have an unconditional 'else' to be used as expression", Syntax(branch))
            return nil
        }
        guard let condition = lowerCondition(test), let then = singleValue(branch.body.statements, of: Syntax(branch.body)) else { return nil }
        let otherwise: Expression?
        switch elseBody {
        case .ifExpr(let nested): otherwise = lowerConditionally(ExprSyntax(nested), "when the conditions before it do not hold")
        case .codeBlock(let block): otherwise = singleValue(block.statements, of: Syntax(block))
        }
        guard let otherwise, sameType(then, otherwise, at: Syntax(elseBody)) else { return nil }
        return .conditional(condition, then: then, otherwise: otherwise)
    }

    /// `switch x { case 1, 2: a case 3...5: b default: c }` as a value (Swift 5.9): each case one
    /// expression, the first whose pattern matches chosen.
    private mutating func lowerSwitchExpression(_ choice: SwitchExprSyntax) -> Expression? {
        guard let subject = lowerExpression(choice.subject) else { return nil }
        var arms: [(test: Expression?, value: Expression)] = []
        for element in choice.cases {
            guard case .switchCase(let arm) = element else {
                report("'#if' inside a switch is outside the supported subset", Syntax(element))
                return nil
            }
            let test = caseTest(arm, subject: subject)
            guard test != .invalid, let value = singleValue(arm.statements, of: Syntax(arm)) else { return nil }
            if let first = arms.first?.value, !sameType(first, value, at: Syntax(arm)) { return nil }
            arms.append((test.expression, value))
        }
        guard let last = arms.last, last.test == nil || isExhaustive(arms.map(\.test), over: subject) else {
            report("switch must be exhaustive: add a 'default:' case", Syntax(choice.switchKeyword))
            return nil
        }
        var result = last.value
        for arm in arms.dropLast().reversed() {
            result = arm.test.map { .conditional($0, then: arm.value, otherwise: result) } ?? arm.value
        }
        return result
    }

    /// A block that is one expression: the value of an `if` or `switch` branch.
    private mutating func singleValue(_ statements: CodeBlockItemListSyntax, of node: Syntax) -> Expression? {
        guard statements.count == 1, let only = statements.first, case .expr(let expr) = only.item else {
            report("a branch of an 'if' or 'switch' expression is one value here", node)
            return nil
        }
        return lowerConditionally(expr, "when its branch is chosen")
    }

    /// What a `case` tests of the switch's subject.
    enum CaseTest: Equatable {
        /// `default:` (or a case that always matches).
        case always
        case test(Expression)
        /// Already reported.
        case invalid

        var expression: Expression? {
            if case .test(let test) = self { return test }
            return nil
        }
    }

    /// `case 1, 2:` (equal to any), `case 1...5:` or `case ..<3:` (in the range), `default:`.
    mutating func caseTest(_ arm: SwitchCaseSyntax, subject: Expression) -> CaseTest {
        switch arm.label {
        case .default:
            return .always
        case .case(let label):
            var tests: [Expression] = []
            for item in label.caseItems {
                guard item.whereClause == nil, let pattern = item.pattern.as(ExpressionPatternSyntax.self) else {
                    report("a case matches values here: 'case 1, 2:', 'case 1...5:' or 'default:'", Syntax(item))
                    return .invalid
                }
                guard let test = matches(pattern.expression, subject: subject) else { return .invalid }
                tests.append(test)
            }
            return .test(tests.dropFirst().reduce(tests[0]) { .binary(.or, $0, $1) })
        }
    }

    /// `value`, `a...b`, `a..<b` against the subject.
    private mutating func matches(_ pattern: ExprSyntax, subject: Expression) -> Expression? {
        if let range = pattern.as(InfixOperatorExprSyntax.self), let op = range.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
            op == "..." || op == "..<" {
            guard let low = lowerExpression(range.leftOperand), let high = lowerExpression(range.rightOperand),
                checkOperands(.lessOrEqual, low, subject, at: Syntax(range.operator)), checkOperands(.lessOrEqual, subject, high, at: Syntax(range.operator))
            else { return nil }
            return .binary(.and, .binary(.lessOrEqual, low, subject), .binary(op == "..." ? .lessOrEqual : .less, subject, high))
        }
        guard let value = lowerExpression(pattern), checkOperands(.equal, subject, value, at: Syntax(pattern)) else { return nil }
        return .binary(.equal, subject, value)
    }

    /// Cases without `default:` cover a Bool subject only when both `true` and `false` are there.
    func isExhaustive(_ tests: [Expression?], over subject: Expression) -> Bool {
        if coversEveryCase(tests, over: subject) { return true }
        guard type(of: subject) == .bool else { return false }
        let values = Set(tests.compactMap { test -> Bool? in
            if case .binary(.equal, _, .literal(.bool(let value)))? = test { return value }
            return nil
        })
        return values == [true, false]
    }

    /// An expression of literals only is worked out by swiftc when it compiles: one that
    /// overflows or divides by zero does not compile ("arithmetic operation … results in an
    /// overflow", "division by zero"). Others are left to run (and trap at run time).
    private mutating func constantChecked(_ expression: Expression, written: some SyntaxProtocol, at node: Syntax) -> Expression? {
        guard expression.variablesRead.isEmpty, !expression.readsThread else { return expression }
        do {
            _ = try expression.evaluate({ _ in nil }, isMainThread: false)
            return expression
        } catch .runtime(.divisionByZero) {
            report("division by zero", node)
        } catch .runtime {
            report("arithmetic operation '\(written.sourceText)' (on type 'Int') results in an overflow", node)
        } catch {
            return expression
        }
        return nil
    }

    private mutating func lowerString(_ literal: StringLiteralExprSyntax) -> Expression? {
        guard literal.openingPounds == nil else {
            report("raw strings are outside the supported subset", Syntax(literal))
            return nil
        }
        var parts: [Expression] = []
        var text = ""
        for segment in literal.segments {
            switch segment {
            case .stringSegment(let piece):
                guard let unescaped = Self.unescape(piece.content.text) else {
                    report("this escape sequence is outside the supported subset", Syntax(piece))
                    return nil
                }
                text += unescaped
            case .expressionSegment(let interpolation):
                guard interpolation.expressions.count == 1, let inner = interpolation.expressions.first, inner.label == nil else {
                    report("an interpolation holds one value: \\(x)", Syntax(interpolation))
                    return nil
                }
                guard let value = lowerExpression(inner.expression), !refusesTaskText(type(of: value), at: Syntax(inner.expression)) else { return nil }
                if !text.isEmpty { parts.append(.literal(.string(text))) }
                text = ""
                parts.append(printable(value))
            }
        }
        if literal.openingQuote.tokenKind == .multilineStringQuote, text.hasSuffix("\n") {
            text.removeLast()
        }
        if !text.isEmpty || parts.isEmpty { parts.append(.literal(.string(text))) }
        if parts.count == 1, case .literal(.string) = parts[0] { return parts[0] }
        return .interpolation(parts)
    }

    /// A non-negative integer literal, for counts the front end needs to know.
    func integerLiteral(_ expr: ExprSyntax) -> Int? {
        expr.as(IntegerLiteralExprSyntax.self).flatMap { integerValue($0.literal.text) }
    }

    /// A string literal without interpolation, for labels.
    func stringLiteral(_ expr: ExprSyntax) -> String? {
        guard let literal = expr.as(StringLiteralExprSyntax.self), literal.openingPounds == nil,
            literal.segments.count == 1, case .stringSegment(let piece)? = literal.segments.first
        else { return nil }
        return Self.unescape(piece.content.text)
    }

    func integerValue(_ text: String) -> Int? {
        let digits = String(text.filter { $0 != "_" })
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            return Int(digits.dropFirst(2), radix: radix)
        }
        return Int(digits)
    }

    static func unescape(_ raw: String) -> String? {
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "\"": result.append("\"")
            case "'": result.append("'")
            default: return nil
            }
        }
        return result
    }

    private func short(_ expr: ExprSyntax) -> String {
        let text = expr.sourceText
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
