import SwiftSyntax

/// Closures kept in a constant: `let work = { print("work") }`, `let show = { (n: Int) in … }` or
/// `let job: @Sendable () -> Void = { … }`, then `work()`, `show(3)`, `q.async(execute: job)`, or
/// passed on for a function's closure parameter. A call runs the body in place on the calling
/// thread, seeing the names it saw where it was written (variables by reference, as Swift's
/// closures capture them), exactly as a closure passed for a closure parameter does
/// (`lowerClosureParameterCall`); `execute:` makes the body the dispatched block.
///
/// Measured with swiftc 6.3 (Swift 6 mode, the prelude in front): a closure kept at the top level
/// may touch the top-level variables, and may be called from a `Task.detached` or a block on
/// another queue (no error, no trap in 20 runs: the body runs on the caller's thread); handing one
/// to `execute:` needs it to be `@Sendable` ("converting non-Sendable function value to
/// '@Sendable @convention(block) () -> Void' may introduce data races"), and a `@Sendable` one may
/// not touch a top-level `var` (`globalAccessPlace`). In Swift 5 mode (a snippet without Swift concurrency) all of these compile.
extension Lowering {
    /// Binds `name` to the closure it keeps; nil when `value` is no closure. Refused (reported,
    /// no statements): a `var` (it could be given another closure), capture lists (they copy
    /// values when the closure is made), async, throwing or value-returning closures, parameters
    /// without types.
    mutating func declareKeptClosure(_ name: String, _ value: ExprSyntax, declaration: VariableDeclSyntax, binding: PatternBindingSyntax) -> [Statement]? {
        guard let closure = value.as(ClosureExprSyntax.self) else { return nil }
        guard declaration.bindingSpecifier.tokenKind == .keyword(.let) else {
            report("a closure kept in a 'var' is outside the supported subset: keep it in a 'let' (\(declaration.bindingSpecifier.text) → let)", Syntax(declaration.bindingSpecifier))
            return []
        }
        guard let parameters = keptClosureParameters(closure, annotation: binding.typeAnnotation?.type) else { return [] }
        if scopes[scopes.count - 1][name] != nil {
            report("invalid redeclaration of '\(name)'", Syntax(binding.pattern))
            return []
        }
        bind(name, .closure(closure, scopes: scopes, parameters: parameters))
        return []
    }

    /// The types of a kept closure's parameters, from its type annotation or its own parameter
    /// clause; nil, reported, when the closure is outside the subset.
    private mutating func keptClosureParameters(_ closure: ClosureExprSyntax, annotation: TypeSyntax?) -> [StaticType]? {
        if let signature = closure.signature {
            if let capture = signature.capture {
                report("a capture list on a closure kept in a constant is outside the supported subset: write the closure where it runs (q.async { [x] in … })", Syntax(capture))
                return nil
            }
            if let effects = signature.effectSpecifiers {
                report("an '\(effects.sourceText)' closure kept in a constant is outside the supported subset: make it a func", Syntax(effects))
                return nil
            }
            if let attribute = signature.attributes.first(where: { $0.sourceText != "@Sendable" }) {
                report("'\(attribute.sourceText)' on a closure kept in a constant is outside the supported subset: make it a func", Syntax(attribute))
                return nil
            }
            if let returnClause = signature.returnClause, !["Void", "()"].contains(returnClause.type.sourceText) {
                report("a closure kept in a constant that returns a value ('\(returnClause.type.sourceText)') is outside the supported subset: make it a func", Syntax(returnClause))
                return nil
            }
        }
        if let annotation {
            let function = (annotation.as(AttributedTypeSyntax.self)?.baseType ?? annotation).as(FunctionTypeSyntax.self)
            if let function, function.effectSpecifiers != nil || !["Void", "()"].contains(function.returnClause.type.sourceText) {
                report("a closure kept in a constant is '() -> Void' or '(Int) -> Void' here (no async, throws or value): make it a func", Syntax(annotation))
                return nil
            }
            guard case .closure(let types)?? = closureParameterKind(annotation) else {
                if function == nil { report("cannot convert a closure to '\(annotation.sourceText)'", Syntax(annotation)) }
                return nil
            }
            return types
        }
        switch closure.signature?.parameterClause {
        case nil:
            return []
        case .simpleInput(let names)?:
            guard names.isEmpty else {
                report("give the parameters' types: { (n: Int) in … }, or the constant's: let f: (Int) -> Void = { n in … }", Syntax(names))
                return nil
            }
            return []
        case .parameterClause(let clause)?:
            var types: [StaticType] = []
            for parameter in clause.parameters {
                guard let written = parameter.type else {
                    report("give the parameter's type: (\(parameter.firstName.text): Int)", Syntax(parameter))
                    return nil
                }
                guard let type = staticType(written) else { return nil }
                types.append(type)
            }
            return types
        }
    }

    /// Whether a kept closure is `@Sendable` (its constant's type or its own attribute says so).
    static func isSendableKeptClosure(_ closure: ClosureExprSyntax) -> Bool {
        if closure.signature?.attributes.contains(where: { $0.sourceText == "@Sendable" }) == true { return true }
        guard let attributed = keptBinding(of: closure)?.typeAnnotation?.type.as(AttributedTypeSyntax.self) else { return false }
        return attributed.attributes.contains { $0.sourceText == "@Sendable" }
    }

    /// Whether `closure` is kept in a constant (`let work = { … }`) rather than given to a call.
    static func isKeptClosure(_ closure: ClosureExprSyntax) -> Bool {
        keptBinding(of: closure) != nil
    }

    /// The binding `let work = { … }` that keeps `closure`, if one does.
    private static func keptBinding(of closure: ClosureExprSyntax) -> PatternBindingSyntax? {
        closure.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self)
    }

    /// `q.async(execute: work)` for a kept closure of no parameters: its body, lowered with the
    /// names it saw where it was written, as the block to dispatch. `.none` when `expr` names no
    /// kept closure; `.some(nil)` when it does and the call is refused (reported).
    mutating func keptClosureBlock(_ expr: ExprSyntax) -> BlockID?? {
        guard case .closure(let closure, let written, let parameters)? = binding(of: expr), Self.isKeptClosure(closure) else { return .none }
        guard parameters.isEmpty else {
            report("'execute:' takes a closure of no parameters: '\(expr.sourceText)' takes \(parameters.count)", Syntax(expr))
            return .some(nil)
        }
        if globalsOnMainActor && !Self.isSendableKeptClosure(closure) {
            report("converting non-Sendable function value to '@Sendable @convention(block) () -> Void' may introduce data races (declare it 'let \(expr.sourceText): @Sendable () -> Void')", Syntax(expr))
            return .some(nil)
        }
        guard !namesWritersLocal(closure, written: written, except: [], what: "a closure dispatched with 'execute:'") else { return .some(nil) }
        let saved = scopes
        scopes = written
        let body = lowerBlock(closure.statements, span: span(of: Syntax(closure)), runsOnce: true)
        scopes = saved
        return .some(body)
    }
}
