import SwiftSyntax

/// Timer sources: `let timer = DispatchSource.makeTimerSource(queue: q)`, then
/// `timer.schedule(deadline:repeating:)`, `setEventHandler { }`, `setCancelHandler { }`,
/// `resume()` or `activate()`, and `cancel()` (`IR/TimerSources.swift`, Semantics+TimerSources).
extension Lowering {
    /// `DispatchSource.makeTimerSource(queue: q)` (also with `flags: []`, or with no queue: a
    /// global one, as libdispatch's default target); nil when the value is no dispatch source.
    /// Other sources (read, write, signal, process, user data) are refused.
    mutating func declareTimerSource(_ name: String, _ value: ExprSyntax, span: SourceSpan, declaration: Syntax) -> [Statement]? {
        guard let call = value.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "DispatchSource"
        else { return nil }
        guard member.declName.baseName.text == "makeTimerSource" else {
            report("'DispatchSource.\(member.declName.baseName.text)' is outside the supported subset: of the dispatch sources, only timers (DispatchSource.makeTimerSource(queue:)) are modelled", Syntax(call))
            return []
        }
        guard mayDeclareObjects, isTopLevel else {
            report("make a timer source at the top level of the snippet", declaration)
            return []
        }
        var target: QueueID?
        for argument in call.arguments {
            switch argument.label?.text {
            case "queue":
                guard let queue = resolveQueue(argument.expression) else { return [] }
                switch queues[queue.index].kind {
                case .serial, .main, .global:
                    target = queue
                case .concurrent:
                    report("a timer source on a custom concurrent queue is outside the supported subset: give it a serial queue, .main or a global queue", Syntax(argument.expression))
                    return []
                case .cooperative, .actor:
                    report("'\(argument.expression.sourceText)' is not a dispatch queue", Syntax(argument.expression))
                    return []
                }
            case "flags":
                guard let array = argument.expression.as(ArrayExprSyntax.self), array.elements.isEmpty else {
                    report("timer flags (.strict) are outside the supported subset: write makeTimerSource(queue: q)", Syntax(argument))
                    return []
                }
            default:
                report("write DispatchSource.makeTimerSource(queue: q)", Syntax(argument))
                return []
            }
        }
        guard call.trailingClosure == nil else {
            report("write DispatchSource.makeTimerSource(queue: q)", Syntax(call))
            return []
        }
        let target_ = target ?? globalQueue(qos: .default)
        let id = TimerSourceID(index: timerSources.count)
        queues.append(QueueDecl(name: name, label: "timer source \(name)", kind: .serial, span: span, initiallyInactive: true, target: target_))
        timerSources.append(TimerSourceDecl(name: name, queue: QueueID(index: queues.count - 1), target: target_, span: span))
        bind(name, .timerSource(id))
        return []
    }

    /// A timer's methods.
    mutating func lowerTimerCall(_ source: TimerSourceID, method: String, call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        let name = timerSources[source.index].name
        switch method {
        case "schedule":
            return lowerSchedule(source, call, span: span)
        case "setEventHandler", "setCancelHandler":
            var closure = call.trailingClosure
            if closure == nil, call.arguments.count == 1, let argument = call.arguments.first, argument.label?.text == "handler" {
                closure = argument.expression.as(ClosureExprSyntax.self)
            }
            guard let closure, closure.signature == nil || closure.signature?.parameterClause == nil,
                call.arguments.isEmpty || call.trailingClosure == nil
            else {
                report("write \(name).\(method) { … } with a closure (qos: and flags: are outside the supported subset)", Syntax(call))
                return nil
            }
            let body = lowerBlock(closure.statements, span: self.span(of: Syntax(closure)))
            return Statement(.timer(source, method == "setEventHandler" ? .setEventHandler(body) : .setCancelHandler(body)), at: span)
        case "resume", "activate":
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("\(method)() takes no arguments", Syntax(call))
                return nil
            }
            // A second resume() over-resumes the source (libdispatch traps); once, at the top
            // level, keeps the subset to sources that start once.
            guard isTopLevel, loopIterations == 1, !resumedTimers.contains(source) else {
                report("resume (or activate) a timer source once, at the top level of the snippet: suspend() and resuming again are outside the supported subset", Syntax(call))
                return nil
            }
            resumedTimers.insert(source)
            return Statement(.timer(source, .activate), at: span)
        case "cancel":
            guard call.arguments.isEmpty, call.trailingClosure == nil else {
                report("cancel() takes no arguments", Syntax(call))
                return nil
            }
            cancelledTimers.insert(source)
            return Statement(.timer(source, .cancel), at: span)
        default:
            report("DispatchSourceTimer's '\(method)' is outside the supported subset (schedule, setEventHandler, setCancelHandler, resume, activate, cancel)", Syntax(call))
            return nil
        }
    }

    /// `schedule(deadline: .now() + d)`, with `repeating: i` (seconds or a
    /// `DispatchTimeInterval`; `.never` is once) and `leeway:`, which the model ignores.
    private mutating func lowerSchedule(_ source: TimerSourceID, _ call: FunctionCallExprSyntax, span: SourceSpan) -> Statement? {
        var deadline: Delay?
        var repeating: Delay?
        for argument in call.arguments {
            switch argument.label?.text {
            case "deadline", "wallDeadline":
                // `.now()` alone: due at once.
                if let now = argument.expression.as(FunctionCallExprSyntax.self), now.arguments.isEmpty,
                    let member = now.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "now",
                    member.base == nil || ["DispatchTime", "DispatchWallTime"].contains(member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text ?? "")
                {
                    deadline = Delay(microseconds: .literal(.int(0)))
                    continue
                }
                guard let value = self.deadline(argument.expression) else { return nil }
                deadline = value
            case "repeating":
                if let member = argument.expression.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.baseName.text == "never" {
                    continue
                }
                guard let value = interval(argument.expression) else { return nil }
                if let constant = value.constant, constant <= 0 {
                    report("a repeating interval must be above zero", Syntax(argument.expression))
                    return nil
                }
                repeating = value
                repeatingTimers.append((source, Syntax(call)))
            case "leeway":
                break  // lets the system fire later; the model's code takes no time
            default:
                report("write \(timerSources[source.index].name).schedule(deadline: .now() + 0.1, repeating: 0.1)", Syntax(argument))
                return nil
            }
        }
        guard let deadline, call.trailingClosure == nil else {
            report("write \(timerSources[source.index].name).schedule(deadline: .now() + 0.1) or with repeating:", Syntax(call))
            return nil
        }
        return Statement(.timer(source, .schedule(deadline: deadline, repeating: repeating)), at: span)
    }

    /// A repeating timer nobody cancels fires for ever: the model explores until every timer
    /// has stopped, so the snippet must cancel it somewhere.
    mutating func checkRepeatingTimers() {
        for (source, node) in repeatingTimers where !cancelledTimers.contains(source) {
            report("a repeating timer that is never cancelled fires for ever: call \(timerSources[source.index].name).cancel() (in its event handler, after some fires)", node)
        }
    }
}
