import SwiftSyntax

/// Walks a folded syntax tree and builds the IR. Each construct it does not know becomes a problem
/// at the construct's first character; lowering goes on so that every problem is reported at once.
struct Lowering {
    let converter: SourceLocationConverter
    let makeProblem: (String, Syntax) -> Problem

    private(set) var problems: [Problem] = []
    private var queues: [QueueDecl] = Prelude.queues
    private var queueNames: [String: QueueID] = [:]
    private var blocks: [Block] = []

    init(converter: SourceLocationConverter, makeProblem: @escaping (String, Syntax) -> Problem) {
        self.converter = converter
        self.makeProblem = makeProblem
        for (index, queue) in Prelude.queues.enumerated() where queue.kind != .main {
            queueNames[queue.name] = QueueID(index: index)
        }
    }

    mutating func lower(_ file: SourceFileSyntax) -> Program {
        let entry = lowerBlock(file.statements, span: nil, isTopLevel: true)
        return Program(queues: queues, blocks: blocks, entry: entry)
    }

    // MARK: Blocks and statements

    private mutating func lowerBlock(_ items: CodeBlockItemListSyntax, span: SourceSpan?, isTopLevel: Bool) -> BlockID {
        let id = BlockID(index: blocks.count)
        blocks.append(Block(statements: [], span: span))
        var statements: [Statement] = []
        for item in items {
            switch item.item {
            case .decl(let decl):
                if let variable = decl.as(VariableDeclSyntax.self) {
                    declare(variable, isTopLevel: isTopLevel)
                } else {
                    unsupported(Syntax(decl))
                }
            case .expr(let expr):
                if let statement = lowerStatement(expr) {
                    statements.append(statement)
                }
            case .stmt(let stmt):
                unsupported(Syntax(stmt))
            }
        }
        blocks[id.index].statements = statements
        return id
    }

    private mutating func lowerStatement(_ expr: ExprSyntax) -> Statement? {
        guard let call = expr.as(FunctionCallExprSyntax.self) else {
            unsupported(Syntax(expr))
            return nil
        }
        let span = self.span(of: Syntax(call))
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == "print" {
            guard let text = printedText(call) else { return nil }
            return Statement(.print(text), at: span)
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
            let mode = DispatchMode(rawValue: member.declName.baseName.text),
            !isDispatchQueueType(base)
        {
            guard let queue = resolveQueue(base) else { return nil }
            guard let body = dispatchedClosure(call, method: mode.rawValue) else { return nil }
            return Statement(.dispatch(queue: queue, mode: mode, body: body), at: span)
        }
        unsupported(Syntax(call))
        return nil
    }

    // MARK: Dispatch calls

    /// The closure of `q.sync { }`, `q.async { }` or `q.async(execute: { })`, lowered to a block.
    private mutating func dispatchedClosure(_ call: FunctionCallExprSyntax, method: String) -> BlockID? {
        var closure: ClosureExprSyntax?
        for argument in call.arguments {
            let label = argument.label?.text
            if label == "execute", let literal = argument.expression.as(ClosureExprSyntax.self) {
                closure = literal
            } else if let label {
                report("the '\(label):' argument of \(method) is outside the supported subset", Syntax(argument))
                return nil
            } else {
                report("\(method) takes a closure here: write '\(method) { … }' or '\(method)(execute: { … })'", Syntax(argument))
                return nil
            }
        }
        if let trailing = call.trailingClosure {
            closure = trailing
        }
        if let extra = call.additionalTrailingClosures.first {
            report("more than one trailing closure is outside the supported subset", Syntax(extra))
            return nil
        }
        guard let closure else {
            report("\(method) needs a closure: write '\(method) { … }'", Syntax(call))
            return nil
        }
        if let signature = closure.signature {
            report("closure parameters and captures are outside the supported subset", Syntax(signature))
            return nil
        }
        return lowerBlock(closure.statements, span: span(of: Syntax(closure)), isTopLevel: false)
    }

    // MARK: Queues

    private mutating func declare(_ variable: VariableDeclSyntax, isTopLevel: Bool) {
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else {
            unsupported(Syntax(variable))
            return
        }
        guard let value = binding.initializer?.value else {
            report("'\(name)' needs a value: only queues can be declared, as 'let \(name) = DispatchQueue(label: \"…\")'", Syntax(binding))
            return
        }
        guard isQueueExpression(value) else {
            report("variables other than queues are outside the supported subset; declare a queue with 'let \(name) = DispatchQueue(label: \"…\")'", Syntax(variable))
            return
        }
        guard isTopLevel else {
            report("declare queues at the top level of the snippet, not inside a closure", Syntax(variable))
            return
        }
        if queueNames[name] != nil {
            let owner = Prelude.queues.contains { $0.name == name } ? "the prelude" : "the snippet"
            report("invalid redeclaration of '\(name)': \(owner) already declares it", Syntax(binding.pattern))
            return
        }
        if let call = value.as(FunctionCallExprSyntax.self), isDispatchQueueType(call.calledExpression) {
            guard let decl = newQueue(call, name: name) else { return }
            queues.append(decl)
            queueNames[name] = QueueID(index: queues.count - 1)
        } else if let existing = resolveQueue(value) {
            queueNames[name] = existing
        }
    }

    private func isDispatchQueueType(_ expr: some SyntaxProtocol) -> Bool {
        expr.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchQueue"
    }

    private func isQueueExpression(_ expr: ExprSyntax) -> Bool {
        if let call = expr.as(FunctionCallExprSyntax.self) {
            if isDispatchQueueType(call.calledExpression) { return true }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base {
                return isDispatchQueueType(base)
            }
            return false
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base {
            return isDispatchQueueType(base)
        }
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            return queueNames[reference.baseName.text] != nil
        }
        return false
    }

    /// `DispatchQueue(label: "…", qos: .x, attributes: .concurrent)`.
    private mutating func newQueue(_ call: FunctionCallExprSyntax, name: String) -> QueueDecl? {
        var label: String?
        var qos: String?
        var kind = QueueKind.serial
        for argument in call.arguments {
            switch argument.label?.text {
            case "label":
                guard let text = stringLiteral(argument.expression) else {
                    report("the queue's label must be a string literal", Syntax(argument.expression))
                    return nil
                }
                label = text
            case "qos":
                guard let value = qosName(argument.expression) else { return nil }
                qos = value
            case "attributes":
                guard let attributes = queueAttributes(argument.expression) else { return nil }
                if attributes.contains("concurrent") { kind = .concurrent }
            case "autoreleaseFrequency":
                break  // no effect on order: accepted, as in real code
            case let other:
                report("the '\(other ?? "_"):' argument of DispatchQueue(…) is outside the supported subset", Syntax(argument))
                return nil
            }
        }
        guard let label else {
            report("DispatchQueue(…) needs a label: 'DispatchQueue(label: \"\(name)\")'", Syntax(call))
            return nil
        }
        return QueueDecl(name: name, label: label, kind: kind, qos: qos, span: span(of: Syntax(call)))
    }

    private mutating func queueAttributes(_ expr: ExprSyntax) -> Set<String>? {
        var elements: [ExprSyntax] = []
        if let array = expr.as(ArrayExprSyntax.self) {
            elements = array.elements.map(\.expression)
        } else {
            elements = [expr]
        }
        var names: Set<String> = []
        for element in elements {
            guard let member = element.as(MemberAccessExprSyntax.self), member.base == nil else {
                report("queue attributes are written '.concurrent' or '[.concurrent]'", Syntax(element))
                return nil
            }
            let name = member.declName.baseName.text
            guard name == "concurrent" else {
                report("the queue attribute '.\(name)' is outside the supported subset", Syntax(element))
                return nil
            }
            names.insert(name)
        }
        return names
    }

    private static let qosClasses = ["userInteractive", "userInitiated", "default", "utility", "background", "unspecified"]

    private mutating func qosName(_ expr: ExprSyntax) -> String? {
        guard let member = expr.as(MemberAccessExprSyntax.self), member.base == nil else {
            report("a QoS class is written like '.userInitiated'", Syntax(expr))
            return nil
        }
        let name = member.declName.baseName.text
        guard Self.qosClasses.contains(name) else {
            report("'.\(name)' is not a QoS class (one of \(Self.qosClasses.map { "." + $0 }.joined(separator: ", ")))", Syntax(expr))
            return nil
        }
        return name
    }

    /// A queue the snippet names: a declared variable, `DispatchQueue.main`, or a global queue.
    private mutating func resolveQueue(_ expr: ExprSyntax) -> QueueID? {
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if let queue = queueNames[name] { return queue }
            report("cannot find queue '\(name)' in scope", Syntax(expr))
            return nil
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, isDispatchQueueType(base) {
            if member.declName.baseName.text == "main" { return Program.mainQueueID(in: queues) }
            report("'DispatchQueue.\(member.declName.baseName.text)' is outside the supported subset", Syntax(expr))
            return nil
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            let base = member.base, isDispatchQueueType(base), member.declName.baseName.text == "global"
        {
            var qos = "default"
            for argument in call.arguments {
                guard argument.label?.text == "qos" else {
                    report("DispatchQueue.global takes only 'qos:'", Syntax(argument))
                    return nil
                }
                guard let name = qosName(argument.expression) else { return nil }
                qos = name
            }
            return globalQueue(qos: qos)
        }
        report("'\(expr.trimmedDescription)' is not a queue the supported subset knows: use a declared queue, DispatchQueue.main or DispatchQueue.global()", Syntax(expr))
        return nil
    }

    private mutating func globalQueue(qos: String) -> QueueID {
        let name = qos == "default" ? "DispatchQueue.global()" : "DispatchQueue.global(qos: .\(qos))"
        if let index = queues.firstIndex(where: { $0.kind == .global && $0.qos == qos }) {
            return QueueID(index: index)
        }
        queues.append(QueueDecl(name: name, label: "com.apple.root.\(qos)-qos", kind: .global, qos: qos))
        return QueueID(index: queues.count - 1)
    }

    // MARK: print

    private mutating func printedText(_ call: FunctionCallExprSyntax) -> String? {
        if let closure = call.trailingClosure {
            report("print does not take a closure", Syntax(closure))
            return nil
        }
        var items: [String] = []
        for argument in call.arguments {
            if let label = argument.label?.text {
                report("print's '\(label):' argument is outside the supported subset", Syntax(argument))
                return nil
            }
            guard let text = literalText(argument.expression) else { return nil }
            items.append(text)
        }
        return items.joined(separator: " ")
    }

    /// The text `print` shows for a literal: integers, booleans, and strings whose interpolations
    /// are literals themselves.
    private mutating func literalText(_ expr: ExprSyntax) -> String? {
        if let integer = expr.as(IntegerLiteralExprSyntax.self) {
            return integerValue(integer.literal.text).map(String.init) ?? {
                report("integer literal out of range", Syntax(expr))
                return nil
            }()
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            let integer = prefix.expression.as(IntegerLiteralExprSyntax.self), let value = integerValue(integer.literal.text)
        {
            return String(-value)
        }
        if let boolean = expr.as(BooleanLiteralExprSyntax.self) {
            return boolean.literal.text
        }
        if expr.is(StringLiteralExprSyntax.self) {
            return stringLiteral(expr) ?? {
                report("only string literals with literal interpolations can be printed here", Syntax(expr))
                return nil
            }()
        }
        report("print of '\(expr.trimmedDescription)' is outside the supported subset: print integer or string literals", Syntax(expr))
        return nil
    }

    private func integerValue(_ text: String) -> Int? {
        let digits = String(text.filter { $0 != "_" })
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            return Int(digits.dropFirst(2), radix: radix)
        }
        return Int(digits)
    }

    /// The value of a string literal, or nil when it is not made of literals only.
    private func stringLiteral(_ expr: ExprSyntax) -> String? {
        guard let literal = expr.as(StringLiteralExprSyntax.self), literal.openingPounds == nil else { return nil }
        var text = ""
        for segment in literal.segments {
            switch segment {
            case .stringSegment(let piece):
                guard let unescaped = Self.unescape(piece.content.text) else { return nil }
                text += unescaped
            case .expressionSegment(let interpolation):
                guard interpolation.expressions.count == 1, let inner = interpolation.expressions.first,
                    inner.label == nil
                else { return nil }
                var scratch = self
                guard let value = scratch.literalText(inner.expression), scratch.problems.count == problems.count else {
                    return nil
                }
                text += value
            }
        }
        if literal.openingQuote.tokenKind == .multilineStringQuote, text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }

    private static func unescape(_ raw: String) -> String? {
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "\"": result.append("\"")
            case "'": result.append("'")
            default: return nil
            }
        }
        return result
    }

    // MARK: Problems

    private mutating func report(_ message: String, _ node: Syntax) {
        problems.append(makeProblem(message, node))
    }

    private mutating func unsupported(_ node: Syntax) {
        report("\(Self.describe(node)) outside the supported subset (so far: queue declarations, print, and sync/async on a queue)", node)
    }

    /// Names a construct the way a Swift programmer would, for "… is outside the subset".
    static func describe(_ node: Syntax) -> String {
        if let call = node.as(FunctionCallExprSyntax.self) {
            return "calling '\(call.calledExpression.trimmedDescription)' is"
        }
        if node.is(ForStmtSyntax.self) { return "'for' loops are" }
        if node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self) { return "loops are" }
        if node.is(GuardStmtSyntax.self) { return "'guard' is" }
        if let expression = node.as(ExpressionStmtSyntax.self) {
            return describe(Syntax(expression.expression))
        }
        if node.is(IfExprSyntax.self) { return "'if' is" }
        if node.is(SwitchExprSyntax.self) { return "'switch' is" }
        if node.is(ReturnStmtSyntax.self) { return "'return' is" }
        if node.is(FunctionDeclSyntax.self) { return "declaring functions is" }
        if node.is(ClassDeclSyntax.self) || node.is(StructDeclSyntax.self) || node.is(EnumDeclSyntax.self)
            || node.is(ExtensionDeclSyntax.self) || node.is(ProtocolDeclSyntax.self)
        {
            return "declaring types is"
        }
        if node.is(ImportDeclSyntax.self) { return "'import' (the prelude already imports Dispatch and Foundation) is" }
        if node.is(InfixOperatorExprSyntax.self) { return "'\(node.trimmedDescription)' is" }
        if node.is(VariableDeclSyntax.self) { return "this declaration is" }
        let text = node.trimmedDescription
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "'\(short)' is"
    }

    private func span(of node: Syntax) -> SourceSpan {
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourceSpan(line: location.line, column: location.column)
    }
}

extension Program {
    static func mainQueueID(in queues: [QueueDecl]) -> QueueID {
        QueueID(index: queues.firstIndex { $0.kind == .main }!)
    }
}
