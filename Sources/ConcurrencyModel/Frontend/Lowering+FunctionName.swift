import SwiftSyntax

/// `#function`: the name of the declaration around it as Swift spells it (`fetch()`,
/// `load(id:)`, `one(_:and:)`, `init(x:)`, a computed property's `p`), a constant string.
/// A closure takes the name of the function it is written in. At the top level it is the
/// module's name, which depends on how the file is compiled (swiftc names the module after
/// the file), and in a stored property's initial value the type's name: both refused.
extension Lowering {
    func isFunctionNameMacro(_ expr: ExprSyntax) -> Bool {
        guard let macro = expr.as(MacroExpansionExprSyntax.self) else { return false }
        return macro.macroName.text == "function"
    }

    mutating func lowerFunctionName(_ expr: ExprSyntax) -> Expression? {
        guard let macro = expr.as(MacroExpansionExprSyntax.self), macro.arguments.isEmpty, macro.trailingClosure == nil else {
            report("'#function' takes no arguments", Syntax(expr))
            return nil
        }
        guard let name = Self.enclosingDeclarationName(of: Syntax(expr)) else {
            report("'#function' outside a function (at the top level it is the module's name, which depends on how the file is compiled) is outside the supported subset: use it inside a function", Syntax(expr))
            return nil
        }
        return .literal(.string(name))
    }

    /// The name `#function` gives at `node`: its nearest enclosing function, initializer,
    /// subscript or computed property (closures are looked through); nil at the top level.
    static func enclosingDeclarationName(of node: Syntax) -> String? {
        var current = node.parent
        while let here = current {
            if let function = here.as(FunctionDeclSyntax.self) {
                return function.name.text + labels(function.signature.parameterClause.parameters)
            }
            if let initializer = here.as(InitializerDeclSyntax.self) {
                return "init" + labels(initializer.signature.parameterClause.parameters)
            }
            if here.is(DeinitializerDeclSyntax.self) { return "deinit" }
            if let subscriptDecl = here.as(SubscriptDeclSyntax.self) {
                // A subscript's parameters have no argument label unless they spell one.
                return "subscript(" + subscriptDecl.parameterClause.parameters.map { "\($0.secondName == nil ? "_" : $0.firstName.text):" }.joined() + ")"
            }
            if let binding = here.as(PatternBindingSyntax.self), binding.accessorBlock != nil,
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                return name  // a computed property's getter is named after the property
            }
            if here.is(PatternBindingSyntax.self) {
                // A stored property's initial value: swiftc gives the type's name there, not
                // a function's; left out rather than guessed.
                return nil
            }
            current = here.parent
        }
        return nil
    }

    /// `(id:)`, `(_:and:)`, `()`: each parameter's argument label, `_` where it has none.
    private static func labels(_ parameters: FunctionParameterListSyntax) -> String {
        "(" + parameters.map { "\($0.firstName.text):" }.joined() + ")"
    }
}
