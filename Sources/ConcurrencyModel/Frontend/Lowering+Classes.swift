import SwiftSyntax

/// Classes and structs the snippet declares (`final class Counter { … }`, `class Job: Operation
/// { override func main() { … } }`), lowered by instance: each `let c = Counter(…)` made where
/// objects may be made (the top level, or a function that makes objects) gets its own stored
/// properties (shared variables named `c.count`, and the queues, locks, groups it makes), and
/// each of its methods and computed properties is lowered at each call with that instance's
/// members in scope (as specialized functions are: `Lowering+Functions`). An instance of an
/// `Operation` subclass is an operation whose block is its `main()`.
///
/// An instance is one object for the whole run, as a class instance the snippet never copies is;
/// instances made in loops, kept in arrays or passed around are refused with the way round it.
extension Lowering {
    /// A type the snippet declares, its members read once.
    struct TypeDeclaration {
        var name: String
        var isOperation: Bool
        var isStruct: Bool
        var storedProperties: [VariableDeclSyntax]
        var computedProperties: [(name: String, type: TypeSyntax, body: CodeBlockItemListSyntax, node: Syntax)]
        var methods: [FunctionDeclSyntax]
        var initializer: InitializerDeclSyntax?
        var main: FunctionDeclSyntax?
        /// A struct, or a class that says it is `Sendable` (or an Operation, which Foundation
        /// marks so): Swift 6 lets its instances leave the main actor.
        var isSendable = false
        /// `@MainActor class`: its members are the main actor's (and its instances Sendable).
        var isMainActor = false
    }

    /// The classes, structs and actors declared at the top level of the file.
    static func declaredTypeNames(in items: CodeBlockItemListSyntax) -> Set<String> {
        Set(items.compactMap { item -> String? in
            guard case .decl(let decl) = item.item else { return nil }
            return decl.as(ClassDeclSyntax.self)?.name.text ?? decl.as(StructDeclSyntax.self)?.name.text ?? decl.as(ActorDeclSyntax.self)?.name.text
        })
    }

    /// Reads every top-level class and struct of the file before the code is lowered, so that an
    /// instance may be made above the declaration, as in a Swift main file.
    mutating func declareTypes(in items: CodeBlockItemListSyntax) {
        for item in items {
            guard case .decl(let decl) = item.item else { continue }
            if let declaration = decl.as(ClassDeclSyntax.self) {
                declareType(name: declaration.name.text, inherited: declaration.inheritanceClause, generics: declaration.genericParameterClause != nil,
                            members: declaration.memberBlock, isStruct: false, node: Syntax(declaration))
            } else if let declaration = decl.as(StructDeclSyntax.self),
                declaration.inheritanceClause?.inheritedTypes.contains(where: { $0.type.sourceText == "Error" }) == true {
                declareErrorStruct(declaration)
            } else if let declaration = decl.as(StructDeclSyntax.self) {
                declareType(name: declaration.name.text, inherited: declaration.inheritanceClause, generics: declaration.genericParameterClause != nil,
                            members: declaration.memberBlock, isStruct: true, node: Syntax(declaration))
            } else if let declaration = decl.as(EnumDeclSyntax.self), declaration.inheritanceClause == nil,
                !declaration.memberBlock.members.isEmpty,
                declaration.memberBlock.members.allSatisfy({
                    ($0.decl.as(FunctionDeclSyntax.self)?.modifiers ?? $0.decl.as(VariableDeclSyntax.self).flatMap { Self.isTaskLocal(DeclSyntax($0)) ? $0.modifiers : nil })?
                        .contains { $0.name.tokenKind == .keyword(.static) } == true
                }) {
                // `enum API { static func fetch() async -> Int { … } }`: a namespace of functions
                // (and of task-locals: `enum Ctx { @TaskLocal static var id = 0 }`).
                for member in declaration.memberBlock.members {
                    if let function = member.decl.as(FunctionDeclSyntax.self) {
                        declareStaticFunction(function, of: declaration.name.text)
                    } else {
                        declareTaskLocal(member.decl, of: declaration.name.text)
                    }
                }
            } else if let declaration = decl.as(EnumDeclSyntax.self), Self.isPlainEnum(declaration) {
                declarePlainEnum(declaration)
            } else if let declaration = decl.as(EnumDeclSyntax.self) {
                declareErrorEnum(declaration)
            }
        }
    }

    private mutating func declareType(name: String, inherited: InheritanceClauseSyntax?, generics: Bool, members: MemberBlockSyntax, isStruct: Bool, node: Syntax) {
        if generics {
            report("generic types are outside the supported subset", node)
            return
        }
        if typeDeclarations[name] != nil || lookup(name) != nil {
            report("invalid redeclaration of '\(name)'", node)
            return
        }
        var isOperation = false
        for type in inherited?.inheritedTypes ?? [] {
            switch type.type.sourceText {
            case "Operation" where !isStruct: isOperation = true
            case "Sendable", "@unchecked Sendable": break
            default:
                report("inheriting from '\(type.type.sourceText)' is outside the supported subset: a class may subclass Operation", Syntax(type))
                return
            }
        }
        var declaration = TypeDeclaration(name: name, isOperation: isOperation, isStruct: isStruct, storedProperties: [], computedProperties: [],
                                          methods: [], initializer: nil, main: nil)
        declaration.isMainActor = node.asProtocol(DeclGroupSyntax.self).map { Self.isMainActor($0.attributes) } ?? false
        declaration.isSendable = isStruct || isOperation || declaration.isMainActor
            || inherited?.inheritedTypes.contains { ["Sendable", "@unchecked Sendable"].contains($0.type.sourceText) } == true
        for member in members.members {
            let decl = member.decl
            if decl.asProtocol((any WithModifiersSyntax).self)?.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) == true {
                if let function = decl.as(FunctionDeclSyntax.self) {
                    declareStaticFunction(function, of: name)
                } else if Self.isTaskLocal(decl) {
                    declareTaskLocal(decl, of: name)
                } else {
                    report("static members other than functions are outside the supported subset: use a top-level variable", Syntax(decl))
                }
                continue
            }
            if let variable = decl.as(VariableDeclSyntax.self) {
                guard variable.bindings.count == 1, let binding = variable.bindings.first,
                    let propertyName = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                else {
                    unsupported(Syntax(variable))
                    continue
                }
                if let accessors = binding.accessorBlock {
                    guard case .getter(let body) = accessors.accessors, let type = binding.typeAnnotation?.type else {
                        report("a computed property is written 'var name: Type { … }' (get only)", Syntax(accessors))
                        continue
                    }
                    declaration.computedProperties.append((propertyName, type, body, Syntax(variable)))
                } else {
                    declaration.storedProperties.append(variable)
                }
            } else if let function = decl.as(FunctionDeclSyntax.self) {
                if isOperation && function.name.text == "main" && function.signature.parameterClause.parameters.isEmpty {
                    declaration.main = function
                } else if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
                    report("overriding '\(function.name.text)' is outside the supported subset: an Operation subclass overrides main()", Syntax(function))
                } else {
                    declaration.methods.append(function)
                }
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                guard declaration.initializer == nil else {
                    report("one init per type: several are outside the supported subset", Syntax(initializer))
                    continue
                }
                declaration.initializer = initializer
            } else {
                report("this member is outside the supported subset: a type has stored and computed properties, methods and one init", Syntax(decl))
            }
        }
        typeDeclarations[name] = declaration
    }

    /// `static func fetch()` of a type (or of an enum used as a namespace): a function called as
    /// `API.fetch()`, its body lowered at its first call.
    private mutating func declareStaticFunction(_ function: FunctionDeclSyntax, of type: String) {
        declaringStaticOf = type
        defer { declaringStaticOf = nil }
        declareSignature(function, as: "\(type).\(function.name.text)")
    }

    /// `await VM()` where nothing is awaited: a type of the snippet made on the main actor, or
    /// one not isolated to it; its instantiation without the `await`.
    func instantiationAwaitedInPlace(_ value: ExprSyntax) -> ExprSyntax? {
        guard let awaited = value.as(AwaitExprSyntax.self), let type = instantiatedType(awaited.expression),
            !type.isMainActor || context(of: Syntax(value)).isolation == .mainActor
        else { return nil }
        return awaited.expression
    }

    /// Whether `value` makes an instance of a type the snippet declares: `Counter()`.
    func instantiatedType(_ value: ExprSyntax) -> TypeDeclaration? {
        guard let call = value.as(FunctionCallExprSyntax.self), let type = call.calledExpression.as(DeclReferenceExprSyntax.self) else { return nil }
        return typeDeclarations[type.baseName.text]
    }

    /// `let c = Counter(…)`: the instance's stored properties (their initial values in order),
    /// then its init with the call's arguments, as Swift runs them; each a statement of the
    /// thread that makes it.
    mutating func instantiate(_ name: String, _ type: TypeDeclaration, _ call: FunctionCallExprSyntax, span: SourceSpan, declaration: Syntax) -> [Statement] {
        guard mayDeclareObjects, loopIterations == 1 else {
            report("make instances of '\(type.name)' at the top level of the snippet (or of a function), once each: gcdquiz follows each instance by its name", declaration)
            return []
        }
        if let closure = call.trailingClosure {
            report("'\(type.name)(…)' takes no closure", Syntax(closure))
            return []
        }
        var statements: [Statement] = []
        let saved = (depth: objectScopeDepth, prefix: memberPrefix)
        scopes.append([:])
        objectScopeDepth = scopes.count
        memberPrefix = name
        bind("self", .instance(name))
        if type.isOperation {
            let cancelled = newVariable("\(name).isCancelled", isGlobal: true, span: span, type: .bool, synchronized: true)
            let id = OperationID(index: operations.count)
            operations.append(OperationDecl(name: name, blocks: [], cancelled: cancelled, span: span))
            bind("isCancelled", .variable(cancelled))
            statements.append(Statement(.operation(id, .create), at: span))
            instanceOperations[name] = id
        }
        // Stored properties: those with a value get it now; the others are set by the init.
        var unset: [(name: String, id: VariableID, isLet: Bool, node: Syntax)] = []
        for property in type.storedProperties {
            guard let binding = property.bindings.first, let propertyName = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            // An optional `var` without a value starts as nil (`declare` says so).
            if binding.initializer != nil || property.bindingSpecifier.tokenKind == .keyword(.var) && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true {
                statements += declare(property)
                continue
            }
            guard let annotation = binding.typeAnnotation, let propertyType = staticType(annotation.type) else {
                if binding.typeAnnotation == nil { report("'\(propertyName)' needs a type or an initial value", Syntax(binding)) }
                continue
            }
            let id = newVariable("\(name).\(propertyName)", isGlobal: true, span: self.span(of: Syntax(property)), type: propertyType, constant: false)
            bind(propertyName, .variable(id))
            unset.append((propertyName, id, property.bindingSpecifier.tokenKind == .keyword(.let), Syntax(binding)))
        }
        for method in type.methods {
            declareMethod(method, of: name)
        }
        for property in type.computedProperties {
            declareComputedProperty(property, of: name)
        }
        statements += initialize(name, type, call, unset: unset, span: span)
        for property in unset where property.isLet { constants.insert(property.id) }
        if let main = type.main, let body = main.body, let id = instanceOperations[name] {
            bind("main", .function(FunctionDecl(name: "\(name).main", body: BlockID(index: blocks.count), parameters: [], returns: nil, instance: name)))
            let saved = currentFunction
            currentFunction = "\(name).main"
            operations[id.index].blocks = [lowerBlock(body.statements, span: self.span(of: Syntax(body)))]
            currentFunction = saved
        }
        instanceScopes[name] = scopes.removeLast()
        objectScopeDepth = saved.depth
        memberPrefix = saved.prefix
        // An operation made from a subclass is an operation wherever one is expected (queues,
        // dependencies, start()); its own members are found through `instanceName(of:)`.
        bind(name, instanceOperations[name].map { .operation($0) } ?? .instance(name))
        return statements
    }

    /// The init's parameters from the call's arguments, then its body (a struct without an init
    /// takes its unset properties by label, in order, as Swift's memberwise init does).
    private mutating func initialize(_ name: String, _ type: TypeDeclaration, _ call: FunctionCallExprSyntax,
                                     unset: [(name: String, id: VariableID, isLet: Bool, node: Syntax)], span: SourceSpan) -> [Statement] {
        guard let initializer = type.initializer else {
            let expected = type.isStruct ? unset.map(\.name) : []
            guard call.arguments.map({ $0.label?.text }) == expected.map(Optional.some) else {
                let labels = expected.map { $0 + ":" }.joined()
                report("call '\(type.name)(\(labels))'" + (type.isStruct ? " with its properties' labels, in order" : ": it has no init that takes arguments"), Syntax(call))
                return []
            }
            if !type.isStruct, let first = unset.first {
                report("class '\(type.name)' has no initializers: '\(first.name)' needs an initial value", first.node)
            }
            var statements: [Statement] = []
            for (argument, property) in zip(call.arguments, unset) {
                guard let value = lowerExpression(argument.expression),
                    checkAssignment(.set, to: property.id, value, at: Syntax(argument.expression))
                else { continue }
                statements.append(Statement(.assign(Assignment(target: property.id, operation: .set, value: value)), at: span))
            }
            return statements
        }
        let parameters = initializer.signature.parameterClause.parameters
        let labels = call.arguments.map { $0.label?.text }
        guard labels == parameters.map({ $0.firstName.text == "_" ? nil : $0.firstName.text }) else {
            let expected = parameters.map { $0.firstName.text + ":" }.joined()
            report("call '\(type.name)(\(expected))' with its parameters' labels, in order", Syntax(call))
            return []
        }
        guard initializer.signature.effectSpecifiers == nil, initializer.optionalMark == nil, let body = initializer.body else {
            report("a plain init { … } is supported (not failable, throwing or async)", Syntax(initializer))
            return []
        }
        var statements: [Statement] = []
        scopes.append([:])
        for (argument, parameter) in zip(call.arguments, parameters) {
            guard let type = staticType(parameter.type), let value = lowerExpression(argument.expression) else { continue }
            let inner = (parameter.secondName ?? parameter.firstName).text
            let id = newVariable(inner, isGlobal: false, span: span, type: type)
            guard expect(type, value, at: Syntax(argument.expression), { "cannot convert value of type '\($0)' to expected argument type '\(type)'" }) else { continue }
            bind(inner, .variable(id))
            statements.append(Statement(.assign(Assignment(target: id, operation: .set, value: value)), at: span))
        }
        let saved = currentFunction
        currentFunction = "\(name).init"
        statements += lowerItems(body.statements)
        currentFunction = saved
        scopes.removeLast()
        return statements
    }

    /// A method, bound in the instance's scope: a function lowered at each call, with the
    /// instance's members in scope.
    private mutating func declareMethod(_ method: FunctionDeclSyntax, of instance: String) {
        let qualified = "\(instance).\(method.name.text)"
        declareSignature(method, as: qualified, instance: instance)
    }

    /// `var value: Int { … }`: read as a call of a method without parameters.
    private mutating func declareComputedProperty(_ property: (name: String, type: TypeSyntax, body: CodeBlockItemListSyntax, node: Syntax), of instance: String) {
        guard let returns = staticType(property.type) else { return }
        let qualified = "\(instance).\(property.name)"
        memberBodies[qualified] = property.body
        bind(property.name, .function(FunctionDecl(name: qualified, body: BlockID(index: 0), parameters: [], returns: returns, instance: instance, isProperty: true)))
    }

    /// What a name, or a member of an instance (`self.count`, `counter.queue`), stands for.
    func binding(of expr: ExprSyntax) -> Binding? {
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            let found = lookup(reference.baseName.text)
            if case .function(let function)? = found, let candidates = overloads[reference.baseName.text],
                candidates.contains(where: { $0.name == function.name }),
                let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id {
                return overload(among: candidates, for: call).map { .function($0) } ?? found
            }
            return found
        }
        // `item?` and `item!` of a work item declared optional and set at once: the item.
        if let inner = expr.as(OptionalChainingExprSyntax.self)?.expression ?? expr.as(ForceUnwrapExprSyntax.self)?.expression,
            case .workItem(let id)? = binding(of: inner), optionalWorkItems.contains(id) {
            return .workItem(id)
        }
        // `API.fetch`: a static function of a type the snippet declares.
        if let member = expr.as(MemberAccessExprSyntax.self), let type = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let function = staticFunctions[type]?[member.declName.baseName.text] {
            return .function(function)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            case .actor(let instance)? = lookup(base.baseName.text),
            let method = actorMethods["\(instance.queue.index).\(member.declName.baseName.text)"], method.isolation == nil {
            return .function(method)
        }
        if let property = ownActorProperty(expr) { return .variable(property) }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, let instance = instanceName(of: base) {
            return (instanceScopes[instance] ?? instanceScope(beingMade: instance))?[member.declName.baseName.text]
        }
        return nil
    }

    /// The instance `expr` names: `self`, `counter`, or an operation made from a subclass.
    func instanceName(of expr: ExprSyntax) -> String? {
        switch binding(of: expr) {
        case .instance(let name)?: return name
        case .operation(let id)?: return instanceOperations.first { $0.value == id }?.key
        default: return nil
        }
    }

    /// The scope of the instance being made, while its properties and init are lowered.
    func instanceScope(beingMade instance: String) -> [String: Binding]? {
        scopes.last { if case .instance(instance)? = $0["self"] { true } else { false } }
    }

    /// `self.count`, `counter.value`: a member of an instance, not a property of a library object.
    func isInstanceMember(_ member: MemberAccessExprSyntax) -> Bool {
        if ownActorProperty(ExprSyntax(member)) != nil { return true }
        guard let base = member.base, let instance = instanceName(of: base) else { return false }
        if case .instance? = binding(of: base) { return true }
        // An operation's own members; `completionBlock`, `isFinished`… are the library's.
        return (instanceScopes[instance] ?? instanceScope(beingMade: instance))?[member.declName.baseName.text] != nil
    }

    /// A member a snippet names that its type does not have.
    mutating func reportMissingMember(_ member: MemberAccessExprSyntax) -> Bool {
        guard let base = member.base, case .instance(let instance)? = binding(of: base) else { return false }
        report("value of '\(instance)' has no member '\(member.declName.baseName.text)'", Syntax(member.declName))
        return true
    }

    /// `counter.value`: the computed property's body runs just before the statement that reads it
    /// (as a call inside an expression does), its value in a hidden variable.
    mutating func lowerPropertyRead(_ property: FunctionDecl, _ node: some SyntaxProtocol) -> Expression? {
        guard let type = property.returns else { return nil }
        if property.name == currentFunction || specializing.contains(property.name) {
            report("recursion is outside the supported subset", Syntax(node))
            return nil
        }
        let span = self.span(of: Syntax(node))
        let body = specialize(property, objects: [], callerIsolation: context(of: Syntax(node)).isolation)
        var call = FunctionCall(name: property.name, body: body, arguments: [])
        call.result = newVariable(property.name, isGlobal: false, span: span, type: type)
        hoisted.append(Statement(.call(call), at: span))
        return .variable(call.result!)
    }
}
