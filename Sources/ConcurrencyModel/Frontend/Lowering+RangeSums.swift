import SwiftSyntax

/// `(1...100000).reduce(0, +)`: the sum of a range of Int written in place, with constant
/// bounds and a constant start, computed while lowering. Swift adds one element at a time
/// and traps where a partial sum leaves Int's range ("arithmetic overflow"), even if the final
/// sum would fit; the partial sums `s + a + (a+1) + …` grow by increasing steps, so the
/// smallest is where the negative elements end and the largest is the first or the last:
/// those two decide. A sum that traps is an addition that overflows when it runs. A reduce with
/// a closure is `Lowering+SequenceOps`' loop.
extension Lowering {
    func isRangeReduce(_ call: FunctionCallExprSyntax) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "reduce",
            let base = member.base, call.trailingClosure == nil, !call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) })
        else { return false }
        return rangeSyntax(base) != nil
    }

    mutating func lowerRangeReduce(_ call: FunctionCallExprSyntax) -> Expression? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
            let range = rangeSyntax(base)
        else { return nil }
        let arguments = Array(call.arguments)
        guard call.trailingClosure == nil, arguments.count == 2, arguments.allSatisfy({ $0.label == nil }),
            arguments[1].expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "+"
        else {
            report("a range's reduce is supported as a sum: (1...n).reduce(0, +)", Syntax(call))
            return nil
        }
        guard let bounds = lowerRangeBounds(range, at: Syntax(base)), let start = lowerExpression(arguments[0].expression) else { return nil }
        guard case .int(let first)? = bounds.from.constantValue, case .int(let bound)? = bounds.to.constantValue,
            case .int(let initial)? = start.constantValue
        else {
            report("a range's sum is supported with constant bounds and start: (1...100).reduce(0, +)", Syntax(call))
            return nil
        }
        guard first <= bound else {
            // Swift traps where the range is made: the empty loop over it that traps so, just
            // before the statement.
            let span = self.span(of: Syntax(base))
            let check = lowerBlock(CodeBlockItemListSyntax([]), span: span) { _ in }
            hoisted.append(Statement(.loop(Loop(variable: nil, from: bounds.from, to: bounds.to, inclusive: range.inclusive, body: check)), at: span))
            return start
        }
        let last = range.inclusive ? Int128(bound) : Int128(bound) - 1
        let count = last - Int128(first) + 1
        guard count <= 1 << 40 else {
            report("a sum over more than 2^40 values is outside the supported subset", Syntax(call))
            return nil
        }
        /// The sum of the first j elements, added to the start.
        func partial(_ j: Int128) -> Int128 { Int128(initial) + j * Int128(first) + j * (j - 1) / 2 }
        let lowest = partial(min(max(-Int128(first), 0), count))
        let final = partial(count)
        guard lowest >= Int128(Int.min), final <= Int128(Int.max) else {
            // An addition that overflows where the statement runs, as the `+` that traps does.
            return lowest < Int128(Int.min)
                ? .binary(.add, .literal(.int(.min)), .literal(.int(-1)))
                : .binary(.add, .literal(.int(.max)), .literal(.int(1)))
        }
        return .literal(.int(Int(final)))
    }
}
