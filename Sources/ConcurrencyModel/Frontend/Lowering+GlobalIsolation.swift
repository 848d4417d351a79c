import SwiftSyntax

/// Swift 6 puts a snippet's top-level variables on the main actor (SE-0343's top-level code is
/// main-actor isolated, and its globals with it), so code that is not isolated to the main actor
/// may not touch a top-level `var` synchronously: swiftc refuses it, and the model must refuse it
/// too rather than answer a program that does not exist. Measured with swiftc 6.3 (`-swift-version
/// 6`, the prelude in front, `-emit-sil`) on a read, a write, `+=` and `append` from each place
/// below; the wording is swiftc's.
extension Lowering {
    /// Where code that touches a top-level variable is isolated, as swiftc decides it.
    enum GlobalAccessPlace: Equatable {
        /// Top-level code, a `@MainActor` function or type, a closure given to the main queue,
        /// `MainActor.run` or a `Task { }` made there: the variable's own actor.
        case mainActor
        /// A nonisolated function or method, or a closure sent elsewhere (`Task.detached`,
        /// `addTask`, a block for another queue, `concurrentPerform`, an operation).
        case nonisolated(isAsync: Bool)
        /// Directly in an actor's method.
        case actor(isAsync: Bool)
    }

    /// A read (`mutates` false) or a write of `variable` at `node`: false, with swiftc's error, when
    /// the variable is a top-level `var` of a Swift 6 snippet and `node` is not on the main actor.
    mutating func mayTouchMainActorGlobal(_ variable: VariableID, mutates: Bool, at node: Syntax) -> Bool {
        guard globalsOnMainActor, !constants.contains(variable) else { return true }
        let name = variables[variable.index].name
        guard case .variable(let topLevel)? = scopes.first?[name], topLevel == variable, !unsafeNonisolatedGlobals.contains(name) else { return true }
        let place = Self.globalAccessPlace(of: node)
        let isolated = "main actor-isolated var '\(name)'"
        switch (place, mutates) {
        case (.mainActor, _):
            return true
        case (.actor, true):
            report("\(isolated) can not be mutated on a different actor instance", node)
        case (.nonisolated, true):
            report("\(isolated) can not be mutated from a nonisolated context", node)
        case (.actor(isAsync: false), false):
            report("\(isolated) can not be referenced on a different actor instance", node)
        case (.nonisolated(isAsync: false), false):
            report("\(isolated) can not be referenced from a nonisolated context", node)
        case (.actor(isAsync: true), false), (.nonisolated(isAsync: true), false):
            report("\(isolated) cannot be accessed from outside of the actor", node)
        }
        return false
    }

    /// `counter.value` or `counter.increment()` of a top-level instance off the main actor in a
    /// Swift 6 snippet: false, with swiftc's error, for a class that is not `Sendable` (it may not
    /// leave the main actor) or a `@MainActor` one reached without `await`.
    mutating func mayUseTopLevelInstance(through member: MemberAccessExprSyntax, mutates: Bool = false) -> Bool {
        guard globalsOnMainActor, let base = member.base?.as(DeclReferenceExprSyntax.self) else { return true }
        let name = base.baseName.text
        guard case .instance(let instance)? = lookup(name), instance == name, case .instance(name)? = scopes.first?[name] else { return true }
        let place = Self.globalAccessPlace(of: Syntax(base))
        if place == .mainActor { return true }
        let isAsync = place == .nonisolated(isAsync: true) || place == .actor(isAsync: true)
        if let owner = topLevelNonSendable[name] {
            report(isAsync ? "non-Sendable type '\(owner.type)' of \(owner.specifier) '\(name)' cannot exit main actor-isolated context"
                           : "main actor-isolated \(owner.specifier) '\(name)' can not be referenced from a nonisolated context", Syntax(base))
            return false
        }
        guard topLevelMainActorInstances.contains(name) else { return true }
        // Through `await`, a read or a call hops to the main actor (a write never may).
        if !mutates && Self.isAwaited(member) { return true }
        let memberName = member.declName.baseName.text
        let isCall = member.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == member.id
        let message: String
        switch (isCall, mutates, isAsync) {
        case (true, _, true): message = "main actor-isolated instance method '\(memberName)()' cannot be called from outside of the actor"
        case (true, _, false): message = "call to main actor-isolated instance method '\(memberName)()' in a synchronous nonisolated context"
        case (false, true, _): message = "main actor-isolated property '\(memberName)' can not be mutated from a nonisolated context"
        case (false, false, true): message = "main actor-isolated property '\(memberName)' cannot be accessed from outside of the actor"
        case (false, false, false): message = "main actor-isolated property '\(memberName)' can not be referenced from a nonisolated context"
        }
        report(message, Syntax(member))
        return false
    }

    /// Under an `await` of the same expression.
    static func isAwaited(_ node: MemberAccessExprSyntax) -> Bool {
        var current = node.parent
        while let here = current, !here.is(CodeBlockItemSyntax.self), !here.is(ClosureExprSyntax.self) {
            if here.is(AwaitExprSyntax.self) { return true }
            current = here.parent
        }
        return false
    }

    /// Walks out from `node` to the first closure or declaration that fixes its isolation.
    static func globalAccessPlace(of node: Syntax) -> GlobalAccessPlace {
        var current = node.parent
        /// The innermost closure, if any, and whether it is async (a `Task { }`'s).
        var innermostClosureIsAsync: Bool?
        while let here = current {
            if let closure = here.as(ClosureExprSyntax.self) {
                if closure.signature.map({ isMainActor($0.attributes) }) == true { return .mainActor }
                if isKeptClosure(closure) && isSendableKeptClosure(closure) { return .nonisolated(isAsync: false) }
                if let call = call(passing: closure) {
                    switch closureIsolation(givenTo: call) {
                    case .mainActor: return .mainActor
                    case .sent(let isAsync): return .nonisolated(isAsync: isAsync)
                    case .inherited: break
                    }
                }
                if innermostClosureIsAsync == nil {
                    innermostClosureIsAsync = call(passing: closure)?.calledExpression.sourceText == "Task"
                        || closure.signature?.effectSpecifiers?.asyncSpecifier != nil
                }
            }
            if let function = here.as(FunctionDeclSyntax.self) {
                if isMainActor(function.attributes) || inMainActorType(function) { return .mainActor }
                let isAsync = innermostClosureIsAsync ?? (function.signature.effectSpecifiers?.asyncSpecifier != nil)
                let inActor = enclosingType(of: here)?.is(ActorDeclSyntax.self) == true
                    && !function.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) }
                // In a closure that inherits an actor's isolation swiftc words it as nonisolated.
                return inActor && innermostClosureIsAsync == nil ? .actor(isAsync: isAsync) : .nonisolated(isAsync: isAsync)
            }
            if here.is(InitializerDeclSyntax.self) || here.is(AccessorBlockSyntax.self) {
                if let type = enclosingType(of: here), isMainActor(type.attributes) { return .mainActor }
                return .nonisolated(isAsync: false)
            }
            current = here.parent
        }
        return .mainActor
    }

    enum ClosureIsolation {
        case mainActor
        /// `@Sendable` and not inheriting: it runs nonisolated (an async one for a task).
        case sent(isAsync: Bool)
        /// Synchronous and not sent (`q.sync`, `withLock`, a continuation's body), or a
        /// `Task { }`'s: isolated as the code around it.
        case inherited
    }

    /// What a closure given to `call` is isolated to. Measured: `DispatchQueue.main.async`,
    /// `.asyncAfter` and `notify(queue: .main)` closures are on the main actor; `serialQueue.async`,
    /// `DispatchQueue.global().async`, `concurrentPerform`, `addOperation` and `BlockOperation { }`
    /// closures are nonisolated; `Task.detached` and `addTask` ones nonisolated and async;
    /// `q.sync`, `withLock`, `DispatchWorkItem { }`, continuation and `AsyncStream` bodies inherit.
    static func closureIsolation(givenTo call: FunctionCallExprSyntax) -> ClosureIsolation {
        let callee = call.calledExpression.sourceText
        if ["MainActor.run", "MainActor.assumeIsolated"].contains(callee) { return .mainActor }
        if callee == "Task.detached" { return .sent(isAsync: true) }
        if callee == "DispatchQueue.concurrentPerform" || callee == "BlockOperation" { return .sent(isAsync: false) }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return .inherited }
        let base = member.base?.sourceText
        switch member.declName.baseName.text {
        case "addTask", "addTaskUnlessCancelled":
            return .sent(isAsync: true)
        case "async", "asyncAfter":
            return base == "DispatchQueue.main" ? .mainActor : .sent(isAsync: false)
        case "notify":
            let queue = call.arguments.first { $0.label?.text == "queue" }?.expression.sourceText
            return queue == ".main" || queue == "DispatchQueue.main" ? .mainActor : .sent(isAsync: false)
        case "addOperation", "addBarrierBlock":
            return .sent(isAsync: false)
        default:
            return .inherited
        }
    }

    /// The class, struct, enum or actor a declaration is in.
    static func enclosingType(of node: Syntax) -> DeclGroupSyntax? {
        var current = node.parent
        while let here = current {
            if let group = here.asProtocol(DeclGroupSyntax.self) { return group }
            current = here.parent
        }
        return nil
    }
}
