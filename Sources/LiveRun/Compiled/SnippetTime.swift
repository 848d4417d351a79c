import ConcurrencyModel

/// How much time a snippet's own sleeps, timers and timeouts take, read from the IR: each of them
/// counted as if they ran one after another (loops multiplied out, the longer branch of an `if`),
/// so that no run takes longer by its own doing. Code itself takes no time (the model's rule).
public enum SnippetTime {
    /// In microseconds, of the snippet's own clock (before the live runner's time scale).
    public static func upperBound(of program: Program) -> Int {
        time(of: program.entry, in: program, depth: 0)
    }

    /// The shortest of the snippet's own delays written as numbers (sleeps, `asyncAfter`, timers,
    /// timeouts), in microseconds; nil when it has none above zero. It is the grain of the
    /// model's clock for this snippet: a thread the machine held about that long may change
    /// which of two timed events comes first.
    public static func shortestDelay(of program: Program) -> Int? {
        var shortest: Int?
        func note(_ delay: Delay) {
            guard let constant = delay.constant, constant > 0 else { return }
            shortest = min(shortest ?? constant, constant)
        }
        program.walk { statement, _ in
            switch statement.action {
            case .sleep(let delay), .timedWait(_, let delay, _), .suspend(.sleep(let delay)), .dispatchAfter(_, let delay, _),
                 .workItem(_, .submitAfter(_, let delay)):
                note(delay)
            case .timer(_, .schedule(let deadline, let repeating)):
                note(deadline)
                repeating.map(note)
            case .print, .assign, .dispatch, .group, .semaphore, .activate, .queueSetting, .precondition, .workItem, .call, .operation,
                 .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream,
                 .throwing, .handles, .loop, .whileLoop, .branch, .concurrentPerform, .timer:
                break
            }
        }
        return shortest
    }

    /// The periods of a repeating timer the grace period allows for.
    static let timerPeriods = 10

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
            case .sleep(let delay), .timedWait(_, let delay, _), .suspend(.sleep(let delay)):
                time = longest(delay, in: program)
            case .dispatchAfter(_, let delay, _), .workItem(_, .submitAfter(_, let delay)):
                time = add(longest(delay, in: program), once)
            case .loop(let loop):
                time = multiply(iterations(of: loop), once)
            case .whileLoop(let loop):
                // How many times it runs is known only when it runs: counted as a repeating
                // timer's periods (a body that takes no time takes none however often).
                time = loop.entersUntested ? 0 : multiply(timerPeriods, once)
            case .branch:
                time = bodies.max() ?? 0
            case .concurrentPerform(let perform):
                time = multiply(perform.iterations, once)
            case .timer(_, .schedule(let deadline, let repeating)):
                // A repeating timer counted as `timerPeriods` periods: how many times it fires is
                // known only when it runs (its handler cancels it).
                time = add(longest(deadline, in: program), repeating.map { multiply(timerPeriods, longest($0, in: program)) } ?? 0)
            case .timer(_, .setEventHandler):
                time = multiply(timerPeriods, once)
            case .timer(_, .setCancelHandler), .timer(_, .activate), .timer(_, .cancel):
                time = once
            case .print, .assign, .dispatch, .group, .semaphore, .activate, .queueSetting, .precondition, .workItem, .call, .operation,
                 .operationQueue, .returns, .exitLoop, .spawn, .suspend, .hop, .withTaskGroup, .cancellation, .taskLocal, .continuation, .stream, .throwing, .handles:
                // Its bodies (a sync or async body, a notify block, a function, a work item, an
                // operation's blocks), if any, each run once.
                time = once
            }
            total = add(total, time)
        }
        return total
    }

    /// A delay's length when it is written as a number; a computed one (`TimeInterval(i) / 10`)
    /// at its largest over the loops' ranges, or, past what that tells, a minute.
    private static func longest(_ delay: Delay, in program: Program) -> Int {
        if let constant = delay.constant { return max(constant, 0) }
        return DelayBound.largest(delay.microseconds, in: program) ?? 60_000_000
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

/// The largest value a computed delay can take, by interval arithmetic over the ranges of the
/// loop and `concurrentPerform` variables it reads (their bounds written as numbers); nil when it
/// reads anything else.
enum DelayBound {
    static func largest(_ expression: Expression, in program: Program) -> Int? {
        var ranges: [VariableID: ClosedRange<Int>] = [:]
        program.walk { statement, _ in
            if case .loop(let loop) = statement.action, let variable = loop.variable, case .int(let first)? = loop.from.constantValue,
                case .int(let bound)? = loop.to.constantValue, let values = try? loop.values(from: .int(first), to: .int(bound)) {
                ranges[variable] = values
            }
            if case .concurrentPerform(let perform) = statement.action, let variable = perform.variable, perform.iterations > 0 {
                ranges[variable] = 0...(perform.iterations - 1)
            }
        }
        return interval(of: expression, ranges)?.upperBound
    }

    private static func interval(of expression: Expression, _ ranges: [VariableID: ClosedRange<Int>]) -> ClosedRange<Int>? {
        switch expression {
        case .literal(.int(let value)): return value...value
        case .variable(let id): return ranges[id]
        case .binary(let op, let left, let right):
            guard let a = interval(of: left, ranges), let b = interval(of: right, ranges) else { return nil }
            let corners: [(Int, Int)] = [(a.lowerBound, b.lowerBound), (a.lowerBound, b.upperBound), (a.upperBound, b.lowerBound), (a.upperBound, b.upperBound)]
            let values: [Int?] = corners.map { x, y in
                switch op {
                case .add: x.addingReportingOverflow(y).overflow ? nil : x + y
                case .subtract: x.subtractingReportingOverflow(y).overflow ? nil : x - y
                case .multiply: x.multipliedReportingOverflow(by: y).overflow ? nil : x * y
                case .divide: b.contains(0) ? nil : x / y
                case .remainder, .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .and, .or: nil
                }
            }
            guard values.allSatisfy({ $0 != nil }) else { return nil }
            let known = values.compactMap { $0 }
            return known.min()!...known.max()!
        default:
            return nil
        }
    }
}
