import SwiftSyntax

/// A plain enum of the snippet: cases without associated values, optionally with String or Int
/// raw values (`enum Phase: String { case idle, running = "run" }`).
struct PlainEnum {
    var cases: [String]
    /// `String` or `Int` when the enum declares raw values; nil otherwise.
    var rawType: StaticType?
    /// Each case's raw value, in the cases' order (empty without a raw type).
    var rawValues: [Value]
}

/// Plain enums (`enum Phase { case idle, running, done }`, not `: Error`, which are error types:
/// `Lowering+Errors`): the declaration, the values `Phase.idle` and `.idle`, `==` and `!=`, a
/// `switch` over one (exhaustive when every case is listed), `.rawValue` and
/// `Phase(rawValue:)`, and printing, which shows the case's name as Swift does (`print(p)` →
/// `idle`). Swift shows an enum inside an array, an optional or `debugPrint` with its module's
/// name (`[snippet.Phase.idle]`), which depends on how the snippet is compiled: refused.
extension Lowering {
    /// Whether an enum declaration is a plain one rather than an error type.
    static func isPlainEnum(_ declaration: EnumDeclSyntax) -> Bool {
        !(declaration.inheritanceClause?.inheritedTypes.contains { $0.type.sourceText == "Error" } ?? false)
    }

    mutating func declarePlainEnum(_ declaration: EnumDeclSyntax) {
        let name = declaration.name.text
        guard declaration.genericParameterClause == nil else {
            report("generic types are outside the supported subset", Syntax(declaration))
            return
        }
        if typeDeclarations[name] != nil || lookup(name) != nil || errorEnums[name] != nil || plainEnums[name] != nil {
            report("invalid redeclaration of '\(name)'", Syntax(declaration))
            return
        }
        // The raw type first, then protocols every plain enum meets.
        var rawType: StaticType?
        for (position, inherited) in (declaration.inheritanceClause?.inheritedTypes ?? []).enumerated() {
            switch inherited.type.sourceText {
            case "String" where position == 0: rawType = .string
            case "Int" where position == 0: rawType = .int
            case "Sendable", "Equatable", "Hashable": break
            default:
                report("an enum here is plain (enum \(name) { case a, b }), with String or Int raw values at most, and Sendable, Equatable or Hashable",
                       Syntax(inherited))
                return
            }
        }
        var cases: [String] = []
        var rawValues: [Value] = []
        for member in declaration.memberBlock.members {
            guard let declared = member.decl.as(EnumCaseDeclSyntax.self) else {
                report("an enum here lists its cases only: members besides cases are outside the supported subset", Syntax(member))
                return
            }
            guard declared.modifiers.isEmpty, declared.attributes.isEmpty else {
                report("'\(declared.modifiers.first?.sourceText ?? "@")' on an enum case is outside the supported subset", Syntax(declared))
                return
            }
            for element in declared.elements {
                let caseName = element.name.text
                if let parameters = element.parameterClause {
                    report("an enum case with associated values is outside the supported subset: write case \(caseName)", Syntax(parameters))
                    return
                }
                if cases.contains(caseName) {
                    report("invalid redeclaration of '\(caseName)'", Syntax(element))
                    return
                }
                cases.append(caseName)
                guard let rawType else {
                    if let raw = element.rawValue {
                        report("enum case cannot have a raw value if the enum does not have a raw type", Syntax(raw))
                        return
                    }
                    continue
                }
                guard let raw = rawValue(of: element, type: rawType, after: rawValues.last) else { return }
                if rawValues.contains(raw) {
                    report("raw value for enum case is not unique", Syntax(element))
                    return
                }
                rawValues.append(raw)
            }
        }
        plainEnums[name] = PlainEnum(cases: cases, rawType: rawType, rawValues: rawValues)
    }

    /// A case's raw value: its literal, or Swift's implicit one (a String case's name; an Int
    /// case's predecessor's plus one, 0 for the first).
    private mutating func rawValue(of element: EnumCaseElementSyntax, type: StaticType, after previous: Value?) -> Value? {
        guard let written = element.rawValue?.value else {
            if type == .string { return .string(element.name.text) }
            guard case .int(let last)? = previous else { return .int(0) }
            guard last < Int.max else {
                report("enum case raw value overflows Int", Syntax(element))
                return nil
            }
            return .int(last + 1)
        }
        if type == .string, let text = stringLiteral(written) { return .string(text) }
        if type == .int {
            if let number = integerLiteral(written) { return .int(number) }
            if let prefix = written.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
                let literal = prefix.expression.as(IntegerLiteralExprSyntax.self), let number = integerValue("-" + literal.literal.text) {
                return .int(number)
            }
        }
        report("raw value for an enum case here is a \(type) literal", Syntax(written))
        return nil
    }

    /// `Phase.idle`, `.idle`, `p.rawValue`, `Phase(rawValue: "idle")`; nil when `expr` is none
    /// of them (nothing reported), `.some(nil)` when it was refused (reported).
    mutating func lowerEnumValue(_ expr: ExprSyntax) -> Expression?? {
        if let member = expr.as(MemberAccessExprSyntax.self) {
            let caseName = member.declName.baseName.text
            guard let base = member.base else {
                // `.idle`: the case of the one plain enum that has it.
                let owners = plainEnums.filter { $0.value.cases.contains(caseName) }.keys.sorted()
                guard let owner = owners.first else { return .none }
                guard owners.count == 1 else {
                    report("'.\(caseName)' is a case of \(owners.joined(separator: " and ")): write \(owner).\(caseName)", Syntax(expr))
                    return .some(nil)
                }
                return .some(.literal(.enumCase(EnumCase(type: owner, name: caseName))))
            }
            if let typeName = base.as(DeclReferenceExprSyntax.self)?.baseName.text, let declared = plainEnums[typeName], lookup(typeName) == nil {
                guard declared.cases.contains(caseName) else {
                    report("type '\(typeName)' has no member '\(caseName)'", Syntax(member.declName))
                    return .some(nil)
                }
                return .some(.literal(.enumCase(EnumCase(type: typeName, name: caseName))))
            }
            if caseName == "rawValue", !plainEnums.isEmpty {
                return .some(lowerRawValue(of: base, at: Syntax(member.declName)))
            }
            return .none
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let typeName = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let declared = plainEnums[typeName], lookup(typeName) == nil {
            return .some(lowerRawValueInit(call, of: typeName, declared))
        }
        return .none
    }

    /// `p.rawValue`: the raw value of the case `p` holds, looked up in a table of the enum's
    /// cases and raw values.
    private mutating func lowerRawValue(of base: ExprSyntax, at node: Syntax) -> Expression? {
        guard let value = lowerExpression(base), let type = type(of: value) else { return nil }
        guard case .enumeration(let name) = type, let declared = plainEnums[name], declared.rawType != nil else {
            report("value of type '\(type)' has no member 'rawValue'", node)
            return nil
        }
        return .entry(table(name, declared, byRawValue: false), key: value, optional: false)
    }

    /// `Phase(rawValue: x)`: the case whose raw value is `x`, or nil.
    private mutating func lowerRawValueInit(_ call: FunctionCallExprSyntax, of name: String, _ declared: PlainEnum) -> Expression? {
        guard let rawType = declared.rawType else {
            report("'\(name)' cannot be constructed because it has no accessible initializers", Syntax(call))
            return nil
        }
        guard call.trailingClosure == nil, call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "rawValue" else {
            report("write \(name)(rawValue: x)", Syntax(call))
            return nil
        }
        guard let raw = lowerExpression(argument.expression),
            expect(rawType, raw, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(rawType)'" })
        else { return nil }
        return .entry(table(name, declared, byRawValue: true), key: raw, optional: true)
    }

    /// The enum's cases and raw values as a dictionary, keyed by case or by raw value.
    private func table(_ name: String, _ declared: PlainEnum, byRawValue: Bool) -> Expression {
        let cases = declared.cases.map { Expression.literal(.enumCase(EnumCase(type: name, name: $0))) }
        let raws = declared.rawValues.map { Expression.literal($0) }
        return byRawValue ? .dictionary(keys: raws, values: cases) : .dictionary(keys: cases, values: raws)
    }

    /// Whether a switch's `case` tests list every case of the enum the subject is (Swift needs
    /// no `default:` then). A test is `subject == .a`, or several joined by `||` (`case .a, .b:`).
    func coversEveryCase(_ tests: [Expression?], over subject: Expression) -> Bool {
        guard case .enumeration(let name)? = type(of: subject), let declared = plainEnums[name] else { return false }
        var listed: Set<String> = []
        func collect(_ test: Expression) {
            switch test {
            case .binary(.or, let left, let right):
                collect(left)
                collect(right)
            case .binary(.equal, _, .literal(.enumCase(let value))):
                listed.insert(value.name)
            default:
                break
            }
        }
        for test in tests { if let test { collect(test) } }
        return Set(declared.cases).isSubset(of: listed)
    }

    /// `if case .done = phase`, `guard case .idle = p else { … }`: a value pattern without
    /// bindings, which Swift matches with `~=`, that is `==` for an enum (or any Equatable value).
    mutating func lowerCaseCondition(_ condition: MatchingPatternConditionSyntax) -> Expression? {
        guard condition.typeAnnotation == nil, let pattern = condition.pattern.as(ExpressionPatternSyntax.self),
            rangeSyntax(pattern.expression) == nil
        else {
            report("'case' in a condition here matches one value, without bindings or ranges: if case .done = phase", Syntax(condition.pattern))
            return nil
        }
        guard let subject = lowerExpression(condition.initializer.value), let value = lowerExpression(pattern.expression),
            checkOperands(.equal, subject, value, at: Syntax(pattern))
        else { return nil }
        return .binary(.equal, subject, value)
    }

    /// An enum printed inside an array or an optional shows its module's name
    /// (`[snippet.Phase.idle]`, `Optional(snippet.Phase.idle)`), which depends on how the
    /// snippet is compiled (a file's name, a playground's): refused.
    /// `debug`: `debugPrint`, which shows the module's name for the enum itself too.
    mutating func refusesQualifiedEnumText(_ type: StaticType?, debug: Bool = false, at node: Syntax) -> Bool {
        /// The enum an array or optional holds, however deep (`[[Phase]]`).
        func enclosed(_ type: StaticType?) -> String? {
            switch type {
            case .enumeration(let name)?: name
            case .list(let element)?: enclosed(element)
            case .optional(let wrapped)?: enclosed(wrapped)
            default: nil
            }
        }
        switch type {
        case .list?, .optional?:
            guard let name = enclosed(type) else { return false }
            report("Swift prints a \(name) inside an array or an optional with its module's name (Module.\(name).case), which depends on how the snippet is compiled: print each value, unwrapped", node)
            return true
        case .enumeration(let name)? where debug:
            report("debugPrint shows a \(name) with its module's name (Module.\(name).case), which depends on how the snippet is compiled: print it", node)
            return true
        default:
            return false
        }
    }
}
