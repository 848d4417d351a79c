import SwiftSyntax

/// Queues: declarations, attributes, and the queue an expression names.
extension Lowering {
    func isDispatchQueueType(_ expr: some SyntaxProtocol) -> Bool {
        expr.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchQueue"
    }

    func isQueueExpression(_ expr: ExprSyntax) -> Bool {
        if case .queue? = binding(of: expr) { return true }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            if isDispatchQueueType(call.calledExpression) { return true }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base {
                // `DispatchQueue.getSpecific(key:)` gives a value, not a queue.
                return isDispatchQueueType(base) && member.declName.baseName.text != "getSpecific"
            }
            return false
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base {
            return isDispatchQueueType(base)
        }
        return false
    }

    /// `DispatchQueue(label: "…", qos: .x, attributes: .concurrent)`.
    mutating func newQueue(_ call: FunctionCallExprSyntax, name: String) -> QueueDecl? {
        var label: String?
        var qos: QoSClass?
        var kind = QueueKind.serial
        var inactive = false
        var target: QueueID?
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
                inactive = attributes.contains("initiallyInactive")
            case "target":
                guard let queue = lowerTarget(argument.expression) else { return nil }
                target = queue
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
        return QueueDecl(name: name, label: label, kind: kind, qos: qos, span: span(of: Syntax(call)), initiallyInactive: inactive, target: target)
    }

    mutating func queueAttributes(_ expr: ExprSyntax) -> Set<String>? {
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
            guard name == "concurrent" || name == "initiallyInactive" else {
                report("the queue attribute '.\(name)' is outside the supported subset", Syntax(element))
                return nil
            }
            names.insert(name)
        }
        return names
    }

    mutating func qosName(_ expr: ExprSyntax) -> QoSClass? {
        guard let member = expr.as(MemberAccessExprSyntax.self), member.base == nil else {
            report("a QoS class is written like '.userInitiated'", Syntax(expr))
            return nil
        }
        let name = member.declName.baseName.text
        guard let qos = QoSClass(rawValue: name) else {
            report("'.\(name)' is not a QoS class (one of \(QoSClass.allCases.map { "." + $0.rawValue }.joined(separator: ", ")))", Syntax(expr))
            return nil
        }
        return qos
    }

    /// A queue the snippet names: a declared variable, `DispatchQueue.main`, or a global queue.
    mutating func resolveQueue(_ expr: ExprSyntax) -> QueueID? {
        if case .queue(let queue)? = binding(of: expr) { return queue }
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if case .queue(let queue)? = lookup(name) { return queue }
            report(lookup(name) == nil ? "cannot find queue '\(name)' in scope" : "'\(name)' is not a queue", Syntax(expr))
            return nil
        }
        // `DispatchQueue.main`, or `.main` where a queue is expected (Swift's implicit member).
        if let member = expr.as(MemberAccessExprSyntax.self), member.base.map(isDispatchQueueType) ?? true {
            if member.declName.baseName.text == "main" { return Program.mainQueueID(in: queues) }
            report("'\(member.sourceText)' is outside the supported subset: use a declared queue, .main or .global()", Syntax(expr))
            return nil
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base.map(isDispatchQueueType) ?? true, member.declName.baseName.text == "global"
        {
            var qos = QoSClass.default
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
        report("'\(expr.sourceText)' is not a queue the supported subset knows: use a declared queue, DispatchQueue.main or DispatchQueue.global()", Syntax(expr))
        return nil
    }

    mutating func globalQueue(qos: QoSClass) -> QueueID {
        let name = qos == .default ? "DispatchQueue.global()" : "DispatchQueue.global(qos: .\(qos.rawValue))"
        if let index = queues.firstIndex(where: { $0.kind == .global && $0.qos == qos }) {
            return QueueID(index: index)
        }
        queues.append(QueueDecl(name: name, label: "com.apple.root.\(qos.rawValue)-qos", kind: .global, qos: qos))
        return QueueID(index: queues.count - 1)
    }

}
