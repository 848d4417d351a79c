import SwiftSyntax

/// `AsyncStream`: `let s = AsyncStream<Int> { continuation in … }` (or `AsyncStream(Int.self)`),
/// `let (s, c) = AsyncStream.makeStream(of: Int.self)`, `continuation.yield(v)`,
/// `continuation.finish()` from wherever the continuation is handed (a queue's block, a task),
/// and `for await v in s { … }` in async code. The build closure runs at once, where the stream
/// is made. `AsyncThrowingStream<Int, Error>` (or `AsyncThrowingStream(Int.self)`,
/// `AsyncThrowingStream.makeStream(of: Int.self)`) the same, with `finish(throwing: e)` and
/// `for try await`.
extension Lowering {
    /// A stream made by a call: its element type, and whether it is an AsyncThrowingStream.
    struct StreamKind {
        var element: StaticType
        var throwing: Bool
        var policy: StreamBufferingPolicy = .unbounded
    }

    /// A stream's arguments other than `bufferingPolicy:`, which goes with every form.
    private static func argumentsBesidesPolicy(_ call: FunctionCallExprSyntax) -> [LabeledExprSyntax] {
        call.arguments.filter { $0.label?.text != "bufferingPolicy" }
    }

    /// `.unbounded`, `.bufferingNewest(1)`, `.bufferingOldest(2)`: the limit a literal, 0 or more.
    private mutating func bufferingPolicy(_ expression: ExprSyntax) -> StreamBufferingPolicy? {
        if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.baseName.text == "unbounded" {
            return .unbounded
        }
        guard let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base == nil, ["bufferingNewest", "bufferingOldest"].contains(member.declName.baseName.text),
            call.arguments.count == 1, call.arguments.first?.label == nil, call.trailingClosure == nil
        else {
            report("a buffering policy here is .unbounded, .bufferingNewest(n) or .bufferingOldest(n)", Syntax(expression))
            return nil
        }
        guard let literal = call.arguments.first?.expression.as(IntegerLiteralExprSyntax.self),
            let limit = Int(String(literal.literal.text.filter { $0 != "_" }))
        else {
            report("the buffer's limit here is a whole number written out: .\(member.declName.baseName.text)(1)", Syntax(call.arguments.first!.expression))
            return nil
        }
        return member.declName.baseName.text == "bufferingNewest" ? .bufferingNewest(limit) : .bufferingOldest(limit)
    }

    /// The stream `call` makes, or nil when it makes none. Reports an element type outside the
    /// subset (then `.some(nil)`). `inferred`: the type a function returning the stream declares,
    /// which a bare `AsyncStream { continuation in … }` takes.
    private mutating func streamKind(_ call: FunctionCallExprSyntax, inferred: StreamKind? = nil) -> StreamKind?? {
        let names = ["AsyncStream", "AsyncThrowingStream"]
        // `bufferingPolicy:` goes with any of the forms below; the others are read without it.
        let arguments = Self.argumentsBesidesPolicy(call)
        var typeName: String?
        var stream = ""
        // `AsyncStream<Int> { … }`, or `AsyncStream<Int>.makeStream()`.
        let specialized = call.calledExpression.as(GenericSpecializationExprSyntax.self)
            ?? call.calledExpression.as(MemberAccessExprSyntax.self).flatMap { member in
                member.declName.baseName.text == "makeStream" && arguments.isEmpty ? member.base?.as(GenericSpecializationExprSyntax.self) : nil
            }
        if let generic = specialized,
            let name = generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text, names.contains(name) {
            stream = name
            let arguments = generic.genericArgumentClause.arguments.map(\.argument.sourceText)
            let fits = name == "AsyncStream" ? arguments.count == 1 : arguments.count == 2 && ["Error", "any Error"].contains(arguments[1])
            guard fits else { report(Self.streamUsage(name), Syntax(call)); return .some(nil) }
            typeName = arguments[0]
        } else if let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, names.contains(name) {
            stream = name
        } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base?.sourceText,
            names.contains(base), member.declName.baseName.text == "makeStream" {
            stream = base
        } else {
            return nil
        }
        var policy = StreamBufferingPolicy.unbounded
        if let argument = call.arguments.first(where: { $0.label?.text == "bufferingPolicy" }) {
            guard let written = bufferingPolicy(argument.expression) else { return .some(nil) }
            policy = written
        }
        if typeName == nil, var inferred, arguments.isEmpty, call.trailingClosure != nil,
            stream == (inferred.throwing ? "AsyncThrowingStream" : "AsyncStream") {
            inferred.policy = policy
            return .some(inferred)
        }
        if typeName == nil {
            // `(Int.self)`, `(of: Int.self)`, and for a throwing one `throwing: Error.self` after it.
            let rest = arguments.dropFirst().map { "\($0.label?.text ?? "_"): \($0.expression.sourceText)" }
            guard let argument = arguments.first, let member = argument.expression.as(MemberAccessExprSyntax.self),
                member.declName.baseName.text == "self", let base = member.base,
                rest.isEmpty || (stream == "AsyncThrowingStream" && ["throwing: Error.self", "throwing: (any Error).self"].contains(rest.joined()))
            else { report(Self.streamUsage(stream), Syntax(call)); return .some(nil) }
            typeName = base.sourceText
        }
        guard let typeName, ["Int", "String", "Bool"].contains(typeName) else {
            report("an \(stream)'s elements here are Int, String or Bool", Syntax(call))
            return .some(nil)
        }
        guard let element = staticType(TypeSyntax(IdentifierTypeSyntax(name: .identifier(typeName))), at: Syntax(call)) else { return .some(nil) }
        return .some(StreamKind(element: element, throwing: stream == "AsyncThrowingStream", policy: policy))
    }

    static func streamTypeName(_ kind: StreamKind) -> String {
        kind.throwing ? "AsyncThrowingStream<\(kind.element), Error>" : "AsyncStream<\(kind.element)>"
    }

    private static func streamUsage(_ stream: String) -> String {
        stream == "AsyncStream" ? "write AsyncStream<Int> { continuation in … } or AsyncStream.makeStream(of: Int.self)"
            : "write AsyncThrowingStream<Int, Error> { continuation in … } or AsyncThrowingStream.makeStream(of: Int.self)"
    }

    /// A stream declared under `name`: the snippet now uses Swift concurrency (its top-level
    /// code runs as a task, which `for await` needs).
    private mutating func newStream(_ name: String, continuation: String, kind: StreamKind, span: SourceSpan) -> StreamID {
        let element = kind.element
        cooperativeQueue()
        streams.append(StreamDecl(name: memberName(name), continuationName: continuation, span: span, throwing: kind.throwing, policy: kind.policy))
        let id = StreamID(index: streams.count - 1)
        bind(name, .stream(id, element: element))
        return id
    }

    /// `let s = AsyncStream<Int> { continuation in … }`: nil when `value` makes no AsyncStream.
    mutating func declareStream(_ name: String, _ value: ExprSyntax, span: SourceSpan, inferred: StreamKind? = nil) -> [Statement]? {
        if let call = value.as(FunctionCallExprSyntax.self), let made = callStreamFunction(call, as: name, span: span) {
            guard let made else { return [] }
            bind(name, .stream(made.stream, element: made.element))
            return made.statements
        }
        guard let call = value.as(FunctionCallExprSyntax.self), call.calledExpression.as(MemberAccessExprSyntax.self) == nil,
            let found = streamKind(call, inferred: inferred) else { return nil }
        if let inferred, let found = found ?? nil, found.element != inferred.element || found.throwing != inferred.throwing {
            report("cannot convert return expression of type '\(Self.streamTypeName(found))' to return type '\(Self.streamTypeName(inferred))'", Syntax(call))
            return []
        }
        guard let kind = found else { return [] }
        let element = kind.element
        let others = Self.argumentsBesidesPolicy(call)
        guard let closure = call.trailingClosure, let signature = closure.signature, let clause = signature.parameterClause,
            others.count <= 1, others.allSatisfy({ $0.label == nil })
        else {
            report("write \(kind.throwing ? "AsyncThrowingStream<\(element), Error>" : "AsyncStream<\(element)>") { continuation in … }: the build closure takes the continuation", Syntax(call))
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
        let id = newStream(name, continuation: contName, kind: kind, span: span)
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
            let found = streamKind(call) else { return nil }
        guard let kind = found else { return [] }
        let element = kind.element
        let names = tuple.elements.map { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        guard names.count == 2, let streamName = names[0], let contName = names[1], call.trailingClosure == nil else {
            report("write let (stream, continuation) = \(kind.throwing ? "AsyncThrowingStream" : "AsyncStream").makeStream(of: \(element).self)", Syntax(binding))
            return []
        }
        let id = newStream(streamName, continuation: contName, kind: kind, span: span)
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
        case "finish" where streams[id.index].throwing && call.arguments.count == 1 && call.arguments.first?.label?.text == "throwing"
            && call.trailingClosure == nil:
            let argument = call.arguments.first!.expression
            guard let error = lowerExpression(argument) else { return .some(nil) }
            guard type(of: error) == .error else {
                report("argument type '\(type(of: error).map { "\($0)" } ?? "?")' does not conform to 'Error'", Syntax(argument))
                return .some(nil)
            }
            return Statement(.stream(id, .fail(error)), at: span)
        default:
            let finishing = streams[id.index].throwing ? ", \(base.baseName.text).finish(throwing: error)" : ""
            report("a stream's continuation here yields or finishes: \(base.baseName.text).yield(v), \(base.baseName.text).finish()\(finishing)", Syntax(call))
            return .some(nil)
        }
    }

    /// `for await v in stream { … }`; nil when the sequence is no stream.
    mutating func lowerStreamLoop(_ loop: ForStmtSyntax) -> Statement?? {
        // `for await v in numbers()`: the function makes the stream first, then the loop takes it.
        if let call = loop.sequence.as(FunctionCallExprSyntax.self), let made = callStreamFunction(call, as: call.sourceText, span: span(of: Syntax(call))) {
            guard let made, let next = lowerStreamLoop(loop, over: made.stream, element: made.element, named: call.sourceText) else { return .some(nil) }
            let block = BlockID(index: blocks.count)
            blocks.append(Block(statements: made.statements + [next], span: span(of: Syntax(loop))))
            return Statement(.branch(condition: .literal(.bool(true)), then: block, otherwise: nil), at: span(of: Syntax(loop)))
        }
        guard let reference = loop.sequence.as(DeclReferenceExprSyntax.self),
            case .stream(let id, let element)? = lookup(reference.baseName.text)
        else { return nil }
        return .some(lowerStreamLoop(loop, over: id, element: element, named: reference.baseName.text))
    }

    /// `for await v in s { … }` over the stream `id`, which the snippet calls `name`.
    private mutating func lowerStreamLoop(_ loop: ForStmtSyntax, over id: StreamID, element: StaticType, named streamName: String) -> Statement? {
        let throwing = streams[id.index].throwing
        guard loop.whereClause == nil, loop.caseKeyword == nil, (loop.tryKeyword != nil) == throwing else {
            report(throwing ? "write for try await v in \(streamName) { … } (an AsyncThrowingStream throws)"
                : "write for await v in \(streamName) { … } (an AsyncStream does not throw)", Syntax(loop))
            return nil
        }
        if throwing, !checkHandled(Syntax(loop)) { return nil }
        guard context(of: Syntax(loop)).isAsync else {
            report("'async' call in a function that does not support concurrency", Syntax(loop))
            return nil
        }
        let span = self.span(of: Syntax(loop))
        let here = context(of: Syntax(loop)).isolation
        var name: String?
        if let identifier = loop.pattern.as(IdentifierPatternSyntax.self) {
            name = identifier.identifier.text
        } else if !loop.pattern.is(WildcardPatternSyntax.self) {
            report("the element is a name or '_'", Syntax(loop.pattern))
            return nil
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
