import SwiftSyntax

/// `while condition { … }` and `repeat { … } while condition`, with `break` and `continue`
/// (`WhileLoop`). The condition is tested before each run of the body (after it, for `repeat`).
/// A condition that needs statements of its own first (a call, `Task.isCancelled`) has them run
/// at each test: the loop is `while true { those; if !condition { break }; body }`.
extension Lowering {
    mutating func lowerWhile(_ loop: WhileStmtSyntax) -> [Statement] {
        let span = self.span(of: Syntax(loop))
        let outerHoisted = hoisted
        hoisted = []
        let condition = lowerWhileCondition(loop.conditions)
        let before = hoisted
        hoisted = outerHoisted
        guard let condition else { return [] }
        let body = lowerLoopBody(loop.body)
        if before.isEmpty {
            return [Statement(.whileLoop(WhileLoop(condition: condition, body: body)), at: span)]
        }
        let conditionSpan = self.span(of: Syntax(loop.conditions))
        let leave = BlockID(index: blocks.count)
        blocks.append(Block(statements: [Statement(.exitLoop(.breaks), at: conditionSpan)], span: conditionSpan))
        blocks[body.index].statements = before + [Statement(.branch(condition: .not(condition), then: leave, otherwise: nil), at: conditionSpan)]
            + blocks[body.index].statements
        return [Statement(.whileLoop(WhileLoop(condition: .literal(.bool(true)), body: body)), at: span)]
    }

    mutating func lowerRepeat(_ loop: RepeatStmtSyntax) -> [Statement] {
        let span = self.span(of: Syntax(loop))
        let body = lowerLoopBody(loop.body)
        let outerHoisted = hoisted
        hoisted = []
        let condition = lowerCondition(loop.condition)
        let before = hoisted
        hoisted = outerHoisted
        guard let condition else { return [] }
        guard before.isEmpty else {
            // `continue` goes to the test: the statements it needs would have to run there too.
            report("a 'repeat' loop's condition that calls a function or reads Task.isCancelled is outside the supported subset: read it into a variable at the end of the body",
                   Syntax(loop.condition))
            return []
        }
        let test = self.span(of: Syntax(loop.whileKeyword))
        return [Statement(.whileLoop(WhileLoop(condition: condition, body: body, entersUntested: true)), at: span),
                Statement(.whileLoop(WhileLoop(condition: condition, body: body)), at: test)]
    }

    /// A `while`'s conditions, joined with `&&`: Bool tests only (`while let` binds an optional,
    /// which the subset has only as `await group.next()`, lowered before this).
    private mutating func lowerWhileCondition(_ conditions: ConditionElementListSyntax) -> Expression? {
        var parts: [Expression] = []
        for element in conditions {
            guard case .expression(let test) = element.condition else {
                report("a 'while' condition is a Bool here (use && to combine); 'while let' binds only 'await group.next()'", Syntax(element))
                return nil
            }
            guard let part = lowerCondition(test) else { return nil }
            parts.append(part)
        }
        guard let first = parts.first else { return nil }
        return parts.dropFirst().reduce(first) { .binary(.and, $0, $1) }
    }

    /// The body, run an unknown number of times: no object may be made in it (as in a `for`
    /// loop whose bounds are not constants).
    private mutating func lowerLoopBody(_ body: CodeBlockSyntax) -> BlockID {
        let enclosing = loopIterations
        loopIterations = .max
        defer { loopIterations = enclosing }
        return lowerBlock(body.statements, span: span(of: Syntax(body)))
    }
}
