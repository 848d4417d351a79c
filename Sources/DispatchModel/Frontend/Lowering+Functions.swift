import SwiftSyntax

/// Functions the snippet declares: `func work(_ n: Int) { … }`, called as statements. They take
/// values of the subset's types and return nothing; a call runs the body on the calling thread.
extension Lowering {
    mutating func declareFunction(_ function: FunctionDeclSyntax) {
        let name = function.name.text
        guard isTopLevel else {
            report("declare functions at the top level of the snippet", Syntax(function))
            return
        }
        if function.genericParameterClause != nil || function.signature.effectSpecifiers != nil {
            report("generic, async and throwing functions are outside the supported subset", Syntax(function.signature))
            return
        }
        if let returnClause = function.signature.returnClause, returnClause.type.trimmedDescription != "Void" {
            report("functions return nothing in the supported subset: print or set a variable instead", Syntax(returnClause))
            return
        }
        guard let body = function.body else {
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
        let declared = parameters
        let previous = currentFunction
        currentFunction = name
        let block = lowerBlock(body.statements, span: self.span(of: Syntax(body))) { lowering in
            for parameter in declared where lowering.variables[parameter.variable.index].name != "_" {
                lowering.bind(lowering.variables[parameter.variable.index].name, .variable(parameter.variable))
            }
        }
        currentFunction = previous
        bind(name, .function(FunctionDecl(name: name, body: block, parameters: parameters)))
    }

    mutating func lowerFunctionCall(_ function: FunctionDecl, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        if let closure = call.trailingClosure {
            report("'\(function.name)' takes no closure", Syntax(closure))
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
        return Statement(.call(FunctionCall(name: function.name, body: function.body, arguments: arguments)), at: span)
    }
}
