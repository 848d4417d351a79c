import SwiftSyntax

/// Swift 6's checks on a local `var` captured by a closure that leaves its function's isolation,
/// which swiftc makes as errors and the model must too (it would otherwise answer a program that
/// does not compile). Measured with swiftc 6.3 (`-swift-version 6`, `-emit-sil`: the sending
/// checks are a SIL pass):
/// - a `@Sendable` block for another queue (`serialQueue.async { }`, `concurrentPerform`, …)
///   may not name a captured `var` at all: "mutation of captured var 'x' in concurrently-executing
///   code", or "reference to captured var 'x' …" where it only reads it;
/// - a `sending` closure (`Task.detached`, `addTask`, and `Task { }` made off the main actor)
///   takes the variable's box with it: it is an error once both sides may use it — the closure
///   writes it and the function (or another closure) names it after, or the function writes it
///   after, or the closure that writes it is made in a loop. A closure that only reads a `var`
///   nobody writes after gets a copy, and compiles.
struct SentCaptures {
    struct Finding {
        var message: String
        var node: Syntax
    }

    /// The findings of a whole snippet.
    static func findings(in file: SourceFileSyntax) -> [Finding] {
        let visitor = ClosureVisitor(viewMode: .sourceAccurate)
        visitor.walk(file)
        return visitor.closures.flatMap { findings(for: $0) + selfFindings(for: $0) }
    }

    /// A task closure made in a method of a class that is not `Sendable` and using `self` (its
    /// members, named with or without `self.`): `self` is the caller's, and sending it races.
    /// swiftc 6.3 words it by the method's isolation: from a `@MainActor` method "sending 'self'
    /// risks causing data races" at the use, from a nonisolated one "passing closure as a
    /// 'sending' parameter …" at the task (outside sc-08; probes s1–s4).
    private static func selfFindings(for closure: ClosureExprSyntax) -> [Finding] {
        guard let call = Lowering.call(passing: closure), let task = taskMade(by: call) else { return [] }
        let name: Syntax
        switch task {
        case .task(let callee), .groupChild(let callee): name = callee
        case .sendable: return []
        }
        var current = closure.parent
        while let here = current, !here.is(FunctionDeclSyntax.self) { current = here.parent }
        guard let method = current?.as(FunctionDeclSyntax.self), let type = Lowering.enclosingType(of: Syntax(method))?.as(ClassDeclSyntax.self),
            !Lowering.isMainActor(type.attributes),
            type.inheritanceClause?.inheritedTypes.contains(where: { ["Sendable", "@unchecked Sendable"].contains($0.type.sourceText) }) != true
        else { return [] }
        let members = Set(type.memberBlock.members.flatMap { member -> [String] in
            if let function = member.decl.as(FunctionDeclSyntax.self) { return [function.name.text] }
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                return variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
            }
            return []
        })
        let uses = closure.statements.tokens(viewMode: .sourceAccurate).compactMap { token -> Syntax? in
            if case .keyword(.self) = token.tokenKind { return Syntax(token) }
            guard case .identifier(let text) = token.tokenKind, members.contains(text),
                let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return nil }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { return nil }
            return Syntax(reference)
        }
        guard let first = uses.first else { return [] }
        if Lowering.isMainActor(method.attributes) {
            return [Finding(message: "sending 'self' risks causing data races", node: first)]
        }
        return [Finding(message: "passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure",
                        node: name)]
    }

    private final class ClosureVisitor: SyntaxVisitor {
        var closures: [ClosureExprSyntax] = []
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            closures.append(node)
            return .visitChildren
        }
    }

    private enum Sending {
        /// A `@Sendable` block that runs elsewhere.
        case sendable
        /// A `sending` task closure; `callee` is where swiftc puts its error.
        case task(callee: Syntax)
        case groupChild(callee: Syntax)
    }

    /// The task (or group child) a closure is the body of: `Task { }`, `Task.detached { }`,
    /// `group.addTask { }`; `callee` is where swiftc puts its errors.
    private static func taskMade(by call: FunctionCallExprSyntax) -> Sending? {
        let callee = call.calledExpression
        let name = callee.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(callee)
        if ["Task", "Task.detached"].contains(callee.sourceText) { return .task(callee: name) }
        if let member = callee.as(MemberAccessExprSyntax.self), ["addTask", "addTaskUnlessCancelled"].contains(member.declName.baseName.text) {
            return .groupChild(callee: name)
        }
        return nil
    }

    private static func sending(of closure: ClosureExprSyntax) -> Sending? {
        guard let call = Lowering.call(passing: closure) else { return nil }
        if let task = taskMade(by: call) {
            // A `Task { }` made on the main actor stays in its region; anywhere else it is sent.
            let inherits = call.calledExpression.sourceText == "Task"
            return inherits && Lowering.globalAccessPlace(of: Syntax(call)) == .mainActor ? nil : task
        }
        if case .sent(isAsync: false) = Lowering.closureIsolation(givenTo: call) { return .sendable }
        return nil
    }

    private static func findings(for closure: ClosureExprSyntax) -> [Finding] {
        guard let sending = sending(of: closure) else { return [] }
        var found: [Finding] = []
        for (name, declaringBlock, statement) in capturedVars(of: closure) {
            let uses = references(to: name, in: Syntax(closure.statements))
            guard !uses.isEmpty else { continue }
            let written = uses.contains(where: isWrite)
            switch sending {
            case .sendable:
                let first = uses.first(where: isWrite) ?? uses[0]
                found.append(Finding(message: "\(written ? "mutation of" : "reference to") captured var '\(name)' in concurrently-executing code",
                                     node: first))
                continue
            case .task, .groupChild:
                break
            }
            // Named after the closure, in its own statement or a later one.
            let later = references(to: name, in: Syntax(declaringBlock)).filter { $0.position >= closure.endPosition }
            let shared = (written && !later.isEmpty) || later.contains(where: isWrite) || (written && isInLoop(closure, below: statement))
            guard shared else { continue }
            switch sending {
            case .task(let callee):
                found.append(Finding(message: "sending value of non-Sendable type '() async -> ()' risks causing data races", node: callee))
            case .groupChild(let callee):
                found.append(Finding(message: "passing closure as a 'sending' parameter risks causing data races between code in the current task and concurrent execution of the closure",
                                     node: callee))
            case .sendable:
                break
            }
            break
        }
        return found
    }

    /// The local `var`s declared before the closure in the blocks around it (not the file's own,
    /// which are globals), each with its block and the statement of that block the closure is in.
    private static func capturedVars(of closure: ClosureExprSyntax) -> [(name: String, block: CodeBlockItemListSyntax, statement: CodeBlockItemSyntax)] {
        let declaredInside = Set(declaredNames(in: Syntax(closure.statements)))
        var result: [(String, CodeBlockItemListSyntax, CodeBlockItemSyntax)] = []
        var child = Syntax(closure)
        var current = closure.parent
        while let here = current {
            if let item = child.as(CodeBlockItemSyntax.self), let block = here.as(CodeBlockItemListSyntax.self), !(block.parent?.is(SourceFileSyntax.self) ?? true) {
                for earlier in block where earlier.position < item.position {
                    guard let declaration = earlier.item.as(VariableDeclSyntax.self), declaration.bindingSpecifier.tokenKind == .keyword(.var) else { continue }
                    for binding in declaration.bindings {
                        if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, !declaredInside.contains(name),
                            !result.contains(where: { $0.0 == name }) {
                            result.append((name, block, item))
                        }
                    }
                }
            }
            child = here
            current = here.parent
        }
        return result
    }

    private static func declaredNames(in node: Syntax) -> [String] {
        node.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierPatternSyntax.self) == true else { return nil }
            return name
        }
    }

    /// The places `name` is named as a value in `node`.
    private static func references(to name: String, in node: Syntax) -> [Syntax] {
        node.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .identifier(let text) = token.tokenKind, text == name, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return nil }
            // `x.y` names x; `a.x` names a's member.
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { return nil }
            return Syntax(reference)
        }
    }

    static let mutatingMethods: Set<String> = ["append", "removeAll", "removeFirst", "removeLast", "insert", "remove", "sort", "reverse", "shuffle"]

    /// Whether a reference is written: the left of `=` or `op=`, `x[i] = …`, or a mutating method.
    private static func isWrite(_ reference: Syntax) -> Bool {
        var target = reference
        while let parent = target.parent, let subscripted = parent.as(SubscriptCallExprSyntax.self), subscripted.calledExpression.id == target.id {
            target = parent
        }
        if let infix = target.parent?.as(InfixOperatorExprSyntax.self), infix.leftOperand.id == target.id {
            if infix.operator.is(AssignmentExprSyntax.self) { return true }
            if let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, op.count >= 2, op.hasSuffix("="),
                !["==", "!=", "<=", ">=", "==="].contains(op) { return true }
        }
        if let member = target.parent?.as(MemberAccessExprSyntax.self), member.base?.id == target.id,
            mutatingMethods.contains(member.declName.baseName.text), member.parent?.is(FunctionCallExprSyntax.self) == true {
            return true
        }
        return target.parent?.is(InOutExprSyntax.self) == true
    }

    /// The closure is made in a loop inside `statement` (the declaring block's statement).
    private static func isInLoop(_ closure: ClosureExprSyntax, below statement: CodeBlockItemSyntax) -> Bool {
        var current = closure.parent
        while let here = current, here.id != statement.id {
            if here.is(ForStmtSyntax.self) || here.is(WhileStmtSyntax.self) || here.is(RepeatStmtSyntax.self) { return true }
            current = here.parent
        }
        return false
    }
}
