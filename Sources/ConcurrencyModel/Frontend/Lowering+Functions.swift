import SwiftSyntax

/// Functions the snippet declares: `func work(_ n: Int) { … }` or `func total() -> Int { … }`.
/// They take and return values of the subset's types; a call runs the body on the calling thread
/// (one inside an expression just before its statement: `Lowering+Returns`).
/// As in a Swift main file, a top-level function may be called above its declaration: every
/// signature is known before the top-level code is lowered, and each body is lowered where it
/// stands (seeing the declarations above it).
extension Lowering {
    /// Declares every top-level function of the file (its parameters and an empty body), so that
    /// calls anywhere resolve; each body is lowered when its declaration comes.
    mutating func declareFunctions(in items: CodeBlockItemListSyntax) {
        for item in items {
            guard case .decl(let decl) = item.item, let function = decl.as(FunctionDeclSyntax.self) else { continue }
            declareSignature(function)
        }
    }

    private mutating func declareSignature(_ function: FunctionDeclSyntax) {
        let name = function.name.text
        if function.genericParameterClause != nil || function.signature.effectSpecifiers != nil {
            if let async = function.signature.effectSpecifiers?.asyncSpecifier {
                report(Self.swiftConcurrency, Syntax(async))
            } else {
                report("generic and throwing functions are outside the supported subset", Syntax(function.signature))
            }
            return
        }
        var returns: StaticType?
        if let returnClause = function.signature.returnClause, !["Void", "()"].contains(returnClause.type.trimmedDescription) {
            guard let type = staticType(returnClause.type) else { return }
            returns = type
        }
        guard function.body != nil else {
            report("'\(name)' needs a body", Syntax(function))
            return
        }
        if lookup(name) != nil {
            report("invalid redeclaration of '\(name)'", Syntax(function.name))
            return
        }
        var parameters: [(label: String?, variable: VariableID)] = []
        let span = self.span(of: Syntax(function))
        for parameter in function.signature.parameterClause.parameters {
            guard parameter.defaultValue == nil, parameter.ellipsis == nil,
                !parameter.type.is(AttributedTypeSyntax.self), !parameter.type.is(FunctionTypeSyntax.self)
            else {
                report("parameters are plain values (Int, String, Bool, arrays) without defaults", Syntax(parameter))
                return
            }
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            let inner = (parameter.secondName ?? parameter.firstName).text
            guard let type = staticType(parameter.type) else { return }
            parameters.append((label, newVariable(inner, isGlobal: false, span: span, type: type)))
        }
        let body = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: function.body.map { self.span(of: Syntax($0)) }))
        bind(name, .function(FunctionDecl(name: name, body: body, parameters: parameters, returns: returns)))
    }

    /// Lowers the body of a function declared by `declareFunctions`, where the declaration stands.
    mutating func declareFunction(_ function: FunctionDeclSyntax) {
        guard isTopLevel else {
            report("declare functions at the top level of the snippet", Syntax(function))
            return
        }
        guard case .function(let declared)? = lookup(function.name.text), let body = function.body,
            blocks[declared.body.index].statements.isEmpty, !loweredFunctions.contains(declared.name)
        else { return }  // its signature was refused, or a twin's body was lowered
        loweredFunctions.insert(declared.name)
        let previous = currentFunction
        currentFunction = declared.name
        scopes.append([:])
        for parameter in declared.parameters where variables[parameter.variable.index].name != "_" {
            bind(variables[parameter.variable.index].name, .variable(parameter.variable))
        }
        blocks[declared.body.index].statements = lowerItems(body.statements)
        scopes.removeLast()
        let isOneExpression = body.statements.count == 1 && body.statements.first?.item.as(ExprSyntax.self) != nil
        if let type = declared.returns, !Self.alwaysReturns(body.statements), !isOneExpression {
            report("missing return in global function expected to return '\(type)'", Syntax(body.rightBrace))
        }
        currentFunction = previous
    }

    mutating func lowerFunctionCall(_ function: FunctionDecl, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        if let closure = call.trailingClosure {
            report("'\(function.name)' takes no closure", Syntax(closure))
            return nil
        }
        if function.name == currentFunction || calls(function.name, from: currentFunction) {
            report("recursion is outside the supported subset", Syntax(call))
            return nil
        }
        let labels = call.arguments.map { $0.label?.text }
        guard labels == function.parameters.map(\.label) else {
            let expected = function.parameters.map { ($0.label ?? "_") + ":" }.joined()
            report("call '\(function.name)(\(expected))' with its parameters' labels, in order", Syntax(call))
            return nil
        }
        var arguments: [FunctionCall.Argument] = []
        for (argument, parameter) in zip(call.arguments, function.parameters) {
            guard let value = lowerExpression(argument.expression), let expected = variableTypes[parameter.variable],
                expect(expected, value, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(expected)'" })
            else { return nil }
            arguments.append(FunctionCall.Argument(parameter: parameter.variable, value: value))
        }
        if let caller = currentFunction { callGraph[caller, default: []].insert(function.name) }
        return Statement(.call(FunctionCall(name: function.name, body: function.body, arguments: arguments)), at: span)
    }

    /// Whether `callee`'s body (as lowered so far) reaches a call of `caller`: calling it from
    /// `caller` would close a cycle.
    private func calls(_ callee: String, from caller: String?) -> Bool {
        guard let caller else { return false }
        var seen: Set<String> = []
        var frontier = [callee]
        while let next = frontier.popLast() {
            if next == caller { return true }
            guard seen.insert(next).inserted else { continue }
            frontier += callGraph[next] ?? []
        }
        return false
    }
}
