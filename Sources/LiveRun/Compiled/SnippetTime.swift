import DispatchModel

/// How much time a snippet's own sleeps, timers and timeouts take, read from the IR: each of them
/// counted as if they ran one after another (loops multiplied out, the longer branch of an `if`),
/// so that no run takes longer by its own doing. Code itself takes no time (the model's rule).
public enum SnippetTime {
    /// In microseconds, of the snippet's own clock (before the live runner's time scale).
    public static func upperBound(of program: Program) -> Int {
        time(of: program.entry, in: program, depth: 0)
    }

    /// Deeper than this, calls are not followed (the subset has no recursion; this is a guard).
    private static let deepest = 64

    private static func time(of block: BlockID, in program: Program, depth: Int) -> Int {
        guard depth < deepest else { return 0 }
        func inner(_ body: BlockID) -> Int { time(of: body, in: program, depth: depth + 1) }
        var total = 0
        for statement in program[block].statements {
            let bodies = program.bodies(of: statement.action).map(inner)
            let once = bodies.reduce(0, add)
            let time: Int
            switch statement.action {
            case .sleep(let microseconds), .timedWait(_, let microseconds, _):
                time = max(microseconds, 0)
            case .dispatchAfter(_, let microseconds, _):
                time = add(max(microseconds, 0), once)
            case .loop(let loop):
                time = multiply(iterations(of: loop), once)
            case .branch:
                time = bodies.max() ?? 0
            case .concurrentPerform(let perform):
                time = multiply(perform.iterations, once)
            case .print, .assign, .dispatch, .group, .semaphore, .activate, .precondition, .workItem, .call, .operation,
                 .operationQueue:
                // Its bodies (a sync or async body, a notify block, a function, a work item, an
                // operation's blocks), if any, each run once.
                time = once
            }
            total = add(total, time)
        }
        return total
    }

    /// A loop's iterations when its bounds are written as numbers; otherwise one (a bound the
    /// snippet computes is not known before it runs).
    static func iterations(of loop: Loop) -> Int {
        guard case .literal(.int(let first)) = loop.from, case .literal(.int(let bound)) = loop.to else { return 1 }
        let (span, overflow) = bound.subtractingReportingOverflow(first)
        if overflow { return .max }
        return max(loop.inclusive ? add(span, 1) : span, 0)
    }

    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    private static func multiply(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = max(a, 0).multipliedReportingOverflow(by: b)
        return overflow ? .max : product
    }
}
