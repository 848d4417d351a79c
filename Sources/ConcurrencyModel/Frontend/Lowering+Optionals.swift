import SwiftSyntax

/// Optionals of the subset's plain values (`Int?`, `String?`, `Bool?`, `Double?`, a kept
/// continuation): `nil`, `o ?? d`, `== nil`, `if let x = o`, `guard let x = o`, and `print(o)`,
/// which shows `Optional(3)` or `nil` as Swift does. An optional that holds a value holds it
/// bare (`Value.nilValue` is its nil): the types here say which variables are optional.
extension Lowering {
    /// `o ?? d`: the fallback is Swift's autoclosure, evaluated only when `o` is nil, so a call
    /// in it would run only sometimes (refused, as elsewhere).
    mutating func lowerNilCoalescing(_ infix: InfixOperatorExprSyntax) -> Expression? {
        guard let optional = lowerExpression(infix.leftOperand),
            let fallback = lowerConditionally(infix.rightOperand, "when the left side of ?? is nil"),
            let optionalType = type(of: optional), let fallbackType = type(of: fallback)
        else { return nil }
        guard optionalType.isOptional else {
            // swiftc warns here and uses the left side; the subset keeps to what swiftc reads plainly.
            report("left side of nil coalescing operator '??' has non-optional type '\(optionalType)', so the right side is never used", Syntax(infix.operator))
            return nil
        }
        guard let wrapped = optionalType.wrapped else {
            report("'nil ?? …' is outside the supported subset: its type is the right side's", Syntax(infix.leftOperand))
            return nil
        }
        let coerced = coercedLiteral(fallback, to: wrapped)
        guard let coercedType = type(of: coerced), coercedType.fits(optionalType) else {
            report("binary operator '??' cannot be applied to operands of type '\(optionalType)' and '\(fallbackType)'", Syntax(infix.operator))
            return nil
        }
        return .coalesce(optional, coerced)
    }

    /// An integer literal where a Double is wanted is a Double (`var d: Double = 1` holds 1.0,
    /// and prints so); anything else as it is.
    func coercedLiteral(_ expression: Expression, to type: StaticType?) -> Expression {
        guard case .literal(.int(let number)) = expression else { return expression }
        switch type {
        case .double?, .optional(.double?)?: return .literal(.double(Double(number)))
        default: return expression
        }
    }

    /// `o!` of an optional value (`xs.first!`, `results.max()!`): its value, or a trap
    /// ("Unexpectedly found nil while unwrapping an Optional value") where it is nil.
    mutating func lowerForceUnwrap(_ unwrap: ForceUnwrapExprSyntax) -> Expression? {
        guard let optional = lowerExpression(unwrap.expression), let type = type(of: optional) else { return nil }
        guard type.isOptional else {
            report("cannot force unwrap value of non-optional type '\(type)'", Syntax(unwrap.exclamationMark))
            return nil
        }
        guard type.wrapped != nil else {
            report("'nil' cannot be force unwrapped", Syntax(unwrap.expression))
            return nil
        }
        return .unwrapped(optional)
    }

    /// What `print` and interpolation show for a value: an optional as `Optional(…)` or `nil`.
    func printable(_ item: Expression) -> Expression {
        type(of: item)?.isOptional == true ? .optionalText(item) : item
    }

    /// `let x = o` (or `var x = o`, or `let o`) in an `if`'s or `guard`'s conditions: the
    /// optional is read once, into a variable of its own, and the condition is that it is not
    /// nil; the name then stands for that variable, unwrapped. The read is hoisted just before
    /// the statement, so it is refused after a condition that could stop the test first (that
    /// read would not happen in Swift): bindings come first.
    mutating func lowerOptionalBinding(_ binding: OptionalBindingConditionSyntax, afterTests: Bool) -> Expression? {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
            report("an optional binding names one value: if let x = o", Syntax(binding.pattern))
            return nil
        }
        if let annotation = binding.typeAnnotation {
            report("an optional binding's type is the optional's: write if let \(name) = … without '\(annotation.sourceText)'", Syntax(annotation))
            return nil
        }
        let source: ExprSyntax = binding.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name)))
        let before = hoisted.count
        guard let optional = lowerExpression(source), let optionalType = type(of: optional) else { return nil }
        // A call in the first binding (`if let v = await cache.value(for: "a")`) is hoisted with
        // it, as a call in an `if`'s condition is: Swift runs it first too (an `else if`'s runs
        // in the else block). After another condition it might not run at all: refused.
        if afterTests {
            hoisted.removeSubrange(before...)
            report("bind optionals before the other conditions here (if let x = o, x > 0), or nest the ifs", Syntax(binding))
            return nil
        }
        guard let unwrapped = optionalType.wrapped else {
            report("initializer for conditional binding must have Optional type, not '\(optionalType)'", Syntax(source))
            return nil
        }
        let span = self.span(of: Syntax(binding))
        let isConstant = binding.bindingSpecifier.tokenKind == .keyword(.let)
        let variable = newVariable(name, isGlobal: false, span: span, type: unwrapped, constant: isConstant)
        hoisted.append(Statement(.assign(Assignment(target: variable, operation: .set, value: optional)), at: span))
        bind(name, .variable(variable))
        return .binary(.notEqual, .variable(variable), .literal(.nilValue))
    }

    /// Whether the conditions bind an optional (not the work-item idiom, which binds an item).
    func bindsOptional(_ conditions: ConditionElementListSyntax) -> Bool {
        conditions.contains { element in
            guard case .optionalBinding(let binding) = element.condition else { return false }
            return bindsOptional(binding)
        }
    }

    func bindsOptional(_ binding: OptionalBindingConditionSyntax) -> Bool {
        if let value = binding.initializer?.value, case .workItem? = self.binding(of: value) { return false }
        return true
    }
}

extension Lowering {
    /// The value of `try? e` (an optional: nil when `e` throws; one level, as Swift 5 flattens
    /// `try?` of an optional) or of `try! e` (a crash when it throws): `e` runs in the handler's
    /// body just before the statement, its value into a variable of its own, which is the value.
    mutating func lowerMarkedTryValue(_ attempt: TryExprSyntax) -> Expression? {
        let span = self.span(of: Syntax(attempt))
        let forced = attempt.questionOrExclamationMark?.tokenKind == .exclamationMark
        var result: VariableID?
        var failed = false
        let handler = lowerMarkedTry(attempt) { lowering, inner in
            guard let value = lowering.lowerExpression(inner), let type = lowering.type(of: value) else {
                failed = true
                return []
            }
            guard type != .continuation, type.wrapped != nil || !type.isOptional else {
                failed = true
                lowering.report("this value of 'try?' is outside the supported subset", Syntax(inner))
                return []
            }
            let resultType: StaticType = forced || type.isOptional ? type : .optional(type)
            let variable = lowering.newVariable(forced ? "the value of try!" : "the value of try?", isGlobal: false, span: span, type: resultType, constant: false)
            result = variable
            return [Statement(.assign(Assignment(target: variable, operation: .set, value: value)), at: span)]
        }
        guard !failed, let result else { return nil }
        // Set first where the statement runs (the handler's body is a frame of its own, whose
        // locals end with it): nil stays for `try?` when the body throws; `try!` then crashes.
        hoisted.append(Statement(.assign(Assignment(target: result, operation: .set, value: .literal(.nilValue))), at: span))
        hoisted += handler
        return .variable(result)
    }
}
