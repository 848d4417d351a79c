import SwiftSyntax

/// A top-level function that returns the AsyncStream it makes, as tutorials write a producer:
/// `func numbers() -> AsyncStream<Int> { AsyncStream { continuation in … } }` (or
/// `return AsyncStream { … }`, or `let s = AsyncStream { … }` then `return s`), used as
/// `for await v in numbers()` or `let s = numbers()`. AsyncStream's init runs the build closure
/// at once, inside the call, so each call is lowered where it stands, as
/// `let s = AsyncStream { … }` there would be: the parameters set from the arguments, the body
/// seeing the top level and its parameters (not the caller's locals), as a function's does.
extension Lowering {
    /// Records `function` if it returns a stream; true when it does (refused or not), so that no
    /// ordinary signature is declared for it.
    mutating func declareStreamFunction(_ function: FunctionDeclSyntax, instance: String?) -> Bool {
        guard let returned = function.signature.returnClause?.type, Self.returnsStream(returned) else { return false }
        guard instance == nil, declaringStaticOf == nil else {
            report("a function returning an AsyncStream is supported at the top level of the snippet", Syntax(function.name))
            return true
        }
        guard function.genericParameterClause == nil, function.signature.effectSpecifiers == nil, function.attributes.isEmpty,
            function.modifiers.isEmpty
        else {
            report("a function returning an AsyncStream here is a plain synchronous func: func numbers() -> AsyncStream<Int> { … }", Syntax(function.signature))
            return true
        }
        guard streamReturnKind(returned) != nil else { return true }
        for parameter in function.signature.parameterClause.parameters {
            guard parameter.defaultValue == nil, parameter.ellipsis == nil, closureParameterKind(parameter.type) == nil,
                FunctionDecl.ObjectKind(typeName: parameter.type.sourceText) == nil
            else {
                report("a function returning an AsyncStream takes plain values (Int, String, Bool, arrays), without defaults", Syntax(parameter))
                return true
            }
            guard staticType(parameter.type) != nil else { return true }
        }
        guard function.body != nil else {
            report("'\(function.name.text)' needs a body", Syntax(function))
            return true
        }
        if streamFunctions[function.name.text] != nil || lookup(function.name.text) != nil {
            report("invalid redeclaration of '\(function.name.text)'", Syntax(function.name))
            return true
        }
        streamFunctions[function.name.text] = function
        return true
    }

    /// `AsyncStream<…>` or `AsyncThrowingStream<…>`.
    private static func returnsStream(_ type: TypeSyntax) -> Bool {
        guard let named = type.as(IdentifierTypeSyntax.self) else { return false }
        return ["AsyncStream", "AsyncThrowingStream"].contains(named.name.text)
    }

    /// The stream a return type names: `AsyncStream<Int>` or `AsyncThrowingStream<Int, Error>`
    /// (Int, String or Bool elements); nil, reported, otherwise.
    private mutating func streamReturnKind(_ type: TypeSyntax) -> StreamKind? {
        guard let named = type.as(IdentifierTypeSyntax.self) else { return nil }
        let throwing = named.name.text == "AsyncThrowingStream"
        let arguments = named.genericArgumentClause?.arguments.map(\.argument.sourceText) ?? []
        let fits = throwing ? arguments.count == 2 && ["Error", "any Error"].contains(arguments[1]) : arguments.count == 1
        guard fits, ["Int", "String", "Bool"].contains(arguments[0]) else {
            report(throwing ? "a function here returns AsyncThrowingStream<Int, Error> (elements Int, String or Bool)"
                : "a function here returns AsyncStream<Int> (elements Int, String or Bool)", Syntax(type))
            return nil
        }
        guard let element = staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(arguments[0]))), at: Syntax(type)) else { return nil }
        return StreamKind(element: element, throwing: throwing)
    }

    /// `numbers(…)`, a call of a function returning a stream: the statements that make the
    /// stream (under `name`), the stream and its element type; nil when `call` calls no such
    /// function, `.some(nil)` when the call is refused (reported).
    mutating func callStreamFunction(_ call: FunctionCallExprSyntax, as name: String, span: SourceSpan)
        -> (statements: [Statement], stream: StreamID, element: StaticType)?? {
        guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), let function = streamFunctions[callee.baseName.text],
            lookup(callee.baseName.text) == nil, let returned = function.signature.returnClause?.type, let body = function.body
        else { return nil }
        guard let kind = streamReturnKind(returned) else { return .some(nil) }
        let parameters = Array(function.signature.parameterClause.parameters)
        let labels = parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
        guard call.trailingClosure == nil, call.arguments.map({ $0.label?.text }) == labels else {
            let expected = labels.map { ($0 ?? "_") + ":" }.joined()
            report("call '\(callee.baseName.text)(\(expected))' with its parameters' labels, in order", Syntax(call))
            return .some(nil)
        }
        if currentFunction == callee.baseName.text {
            report("recursion is outside the supported subset", Syntax(call))
            return .some(nil)
        }
        // The arguments, in the caller's scope; then the parameters, as the body's locals.
        var statements: [Statement] = []
        var bound: [(String, VariableID)] = []
        for (parameter, argument) in zip(parameters, call.arguments) {
            guard let type = staticType(parameter.type), let value = lowerExpression(argument.expression),
                expect(type, value, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(type)'" })
            else { return .some(nil) }
            let inner = (parameter.secondName ?? parameter.firstName).text
            let variable = newVariable(inner, isGlobal: false, span: span, type: type)
            statements.append(Statement(.assign(Assignment(target: variable, operation: .set, value: value)), at: span))
            if inner != "_" { bound.append((inner, variable)) }
        }
        guard let made = Self.madeStream(body) else {
            report("a function returning an AsyncStream here returns the stream it makes: { AsyncStream { continuation in … } }, or let s = AsyncStream { … } then return s", Syntax(body))
            return .some(nil)
        }
        let saved = (scopes: scopes, function: currentFunction, context: functionContext, async: asyncContext)
        scopes = [scopes[0], [:]]
        for (inner, variable) in bound { bind(inner, .variable(variable)) }
        currentFunction = callee.baseName.text
        functionContext = nil
        asyncContext = nil
        let making = declareStream(name, made, span: span, inferred: kind)
        let stream = lookup(name)
        (scopes, currentFunction, functionContext, asyncContext) = (saved.scopes, saved.function, saved.context, saved.async)
        guard let making else {
            report("a function returning an AsyncStream here returns the stream it makes: AsyncStream { continuation in … }", Syntax(made))
            return .some(nil)
        }
        guard !making.isEmpty, case .stream(let id, let element)? = stream else { return .some(nil) }
        return .some((statements + making, id, element))
    }

    /// The expression that makes the stream a function's body returns: its one expression, its
    /// `return`, or a `let` that the `return` after it names.
    private static func madeStream(_ body: CodeBlockSyntax) -> ExprSyntax? {
        let items = Array(body.statements)
        if items.count == 1 {
            if let expression = items[0].item.as(ExprSyntax.self) { return expression }
            return items[0].item.as(ReturnStmtSyntax.self)?.expression
        }
        guard items.count == 2, let declaration = items[0].item.as(VariableDeclSyntax.self), declaration.bindings.count == 1,
            let binding = declaration.bindings.first, binding.typeAnnotation == nil,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            items[1].item.as(ReturnStmtSyntax.self)?.expression?.as(DeclReferenceExprSyntax.self)?.baseName.text == name
        else { return nil }
        return binding.initializer?.value
    }
}
