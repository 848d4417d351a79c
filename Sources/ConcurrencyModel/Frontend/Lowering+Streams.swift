import SwiftSyntax

/// `AsyncStream`: `let s = AsyncStream<Int> { continuation in … }` (or `AsyncStream(Int.self)`),
/// `let (s, c) = AsyncStream.makeStream(of: Int.self)`, `continuation.yield(v)`,
/// `continuation.finish()` from wherever the continuation is handed (a queue's block, a task),
/// and `for await v in s { … }` in async code. The build closure runs at once, where the stream
/// is made.
extension Lowering {
    /// The element type a stream made by `call` gives, or nil when `call` makes no AsyncStream.
    /// Reports an element type outside the subset.
    private mutating func streamElement(_ call: FunctionCallExprSyntax) -> StaticType?? {
        let usage = "write AsyncStream<Int> { continuation in … } or AsyncStream.makeStream(of: Int.self)"
        var typeName: String?
        if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
            generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "AsyncStream" {
            guard generic.genericArgumentClause.arguments.count == 1 else { report(usage, Syntax(call)); return .some(nil) }
            typeName = generic.genericArgumentClause.arguments.first!.argument.trimmedDescription
        } else if call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "AsyncStream"
            || (call.calledExpression.as(MemberAccessExprSyntax.self).map {
                $0.base?.trimmedDescription == "AsyncStream" && $0.declName.baseName.text == "makeStream"
            } ?? false) {
            guard let argument = call.arguments.first, let member = argument.expression.as(MemberAccessExprSyntax.self),
                member.declName.baseName.text == "self", let base = member.base
            else { report(usage, Syntax(call)); return .some(nil) }
            typeName = base.trimmedDescription
        } else {
            return nil
        }
        guard let typeName, ["Int", "String", "Bool"].contains(typeName) else {
            report("an AsyncStream's elements here are Int, String or Bool", Syntax(call))
            return .some(nil)
        }
        return .some(staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(typeName))), at: Syntax(call)))
    }

    /// A stream declared under `name`: the snippet now uses Swift concurrency (its top-level
    /// code runs as a task, which `for await` needs).
    private mutating func newStream(_ name: String, continuation: String, element: StaticType, span: SourceSpan) -> StreamID {
        cooperativeQueue()
        streams.append(StreamDecl(name: memberName(name), continuationName: continuation, span: span))
        let id = StreamID(index: streams.count - 1)
        bind(name, .stream(id, element: element))
        return id
    }

    /// `let s = AsyncStream<Int> { continuation in … }`: nil when `value` makes no AsyncStream.
    mutating func declareStream(_ name: String, _ value: ExprSyntax, span: SourceSpan) -> [Statement]? {
        guard let call = value.as(FunctionCallExprSyntax.self), call.calledExpression.as(MemberAccessExprSyntax.self) == nil,
            let element = streamElement(call) else { return nil }
        guard let element else { return [] }
        guard let closure = call.trailingClosure, let signature = closure.signature, let clause = signature.parameterClause,
            call.arguments.count <= 1, call.arguments.allSatisfy({ $0.label == nil })
        else {
            report("write AsyncStream<\(element)> { continuation in … }: the build closure takes the continuation", Syntax(call))
            return []
        }
        let contName: String
        switch clause {
        case .simpleInput(let names) where names.count == 1: contName = names.first!.name.text
        case .parameterClause(let list) where list.parameters.count == 1: contName = list.parameters.first!.firstName.text
        default:
            report("the build closure takes the continuation: { continuation in … }", Syntax(clause))
            return []
        }
        let id = newStream(name, continuation: contName, element: element, span: span)
        closureContexts[closure.id] = (context(of: Syntax(call)).isolation, false)
        let outer = asyncContext
        asyncContext = nil
        let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure))) { lowering in
            lowering.bind(contName, .streamContinuation(id, element: element))
        }
        asyncContext = outer
        return [Statement(.stream(id, .start(body: body)), at: span)]
    }

    /// `let (s, c) = AsyncStream.makeStream(of: Int.self)`: nil when the declaration is not that.
    mutating func declareStreamPair(_ binding: PatternBindingSyntax, span: SourceSpan) -> [Statement]? {
        guard let tuple = binding.pattern.as(TuplePatternSyntax.self), let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "makeStream",
            let element = streamElement(call) else { return nil }
        guard let element else { return [] }
        let names = tuple.elements.map { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        guard names.count == 2, let streamName = names[0], let contName = names[1], call.trailingClosure == nil else {
            report("write let (stream, continuation) = AsyncStream.makeStream(of: \(element).self)", Syntax(binding))
            return []
        }
        let id = newStream(streamName, continuation: contName, element: element, span: span)
        bind(contName, .streamContinuation(id, element: element))
        let body = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: span))
        return [Statement(.stream(id, .start(body: body)), at: span)]
    }

    /// `continuation.yield(v)`, `continuation.finish()`; nil when `call` is not on a stream's continuation.
    mutating func lowerStreamCall(_ call: FunctionCallExprSyntax) -> Statement?? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            let base = member.base?.as(DeclReferenceExprSyntax.self),
            case .streamContinuation(let id, let element)? = lookup(base.baseName.text)
        else { return nil }
        let span = self.span(of: Syntax(call))
        switch member.declName.baseName.text {
        case "yield" where call.arguments.count == 1 && call.arguments.first?.label == nil && call.trailingClosure == nil:
            let argument = call.arguments.first!.expression
            guard let value = lowerExpression(argument),
                expect(element, value, at: Syntax(argument), { "cannot convert value of type '\($0)' to expected argument type '\(element)'" })
            else { return .some(nil) }
            return Statement(.stream(id, .yield(value)), at: span)
        case "finish" where call.arguments.isEmpty && call.trailingClosure == nil:
            return Statement(.stream(id, .finish), at: span)
        default:
            report("a stream's continuation here yields or finishes: \(base.baseName.text).yield(v), \(base.baseName.text).finish()", Syntax(call))
            return .some(nil)
        }
    }

    /// `for await v in stream { … }`; nil when the sequence is no stream.
    mutating func lowerStreamLoop(_ loop: ForStmtSyntax) -> Statement?? {
        guard let reference = loop.sequence.as(DeclReferenceExprSyntax.self),
            case .stream(let id, let element)? = lookup(reference.baseName.text)
        else { return nil }
        guard loop.whereClause == nil, loop.caseKeyword == nil, loop.tryKeyword == nil else {
            report("write for await v in \(reference.baseName.text) { … } (an AsyncStream does not throw)", Syntax(loop))
            return .some(nil)
        }
        guard context(of: Syntax(loop)).isAsync else {
            report("'async' call in a function that does not support concurrency", Syntax(loop))
            return .some(nil)
        }
        let span = self.span(of: Syntax(loop))
        let here = context(of: Syntax(loop)).isolation
        var name: String?
        if let identifier = loop.pattern.as(IdentifierPatternSyntax.self) {
            name = identifier.identifier.text
        } else if !loop.pattern.is(WildcardPatternSyntax.self) {
            report("the element is a name or '_'", Syntax(loop.pattern))
            return .some(nil)
        }
        var result: VariableID?
        let block = lowerBlock(loop.body.statements, span: self.span(of: Syntax(loop.body))) { lowering in
            if let name {
                let variable = lowering.newVariable(name, isGlobal: false, span: span, type: element)
                lowering.bind(name, .variable(variable))
                result = variable
            }
        }
        // Each element comes back to the loop's executor before the body runs.
        if here != .generic { blocks[block.index].statements.insert(Statement(.hop(here), at: span), at: 0) }
        return Statement(.suspend(.streamNext(StreamNext(stream: id, result: result, body: block, isolation: here))), at: span)
    }
}
