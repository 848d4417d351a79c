import ConcurrencyModel

/// The ways a learner who half-knows the rules gets an outcome wrong: each turns a possible
/// outcome into one that looks just as plausible.
public enum NearMiss: String, Sendable, Hashable, CaseIterable, Codable {
    /// A line printed after a `sync` put before the line its block prints (or a line printed
    /// before the `sync` put after it): forgetting that `sync` waits for its block.
    case movedAcrossSync
    /// Two neighbouring lines in the other order.
    case swappedLines
    /// The same lines, but the run finishes where it can only deadlock.
    case missingDeadlock
    /// A deadlock where every schedule goes on or finishes.
    case addedDeadlock
    /// One line left out, as if a block never ran.
    case droppedLine
    /// One line printed twice.
    case repeatedLine

    /// In words, for the key.
    public var summary: String {
        switch self {
        case .movedAcrossSync: "a line moved across a sync"
        case .swappedLines: "two adjacent lines swapped"
        case .missingDeadlock: "a missing deadlock"
        case .addedDeadlock: "a deadlock where none can happen"
        case .droppedLine: "a line left out"
        case .repeatedLine: "a line printed twice"
        }
    }
}

/// A near miss of one possible outcome that no schedule produces.
public struct NearMissCandidate: Sendable, Hashable {
    public var outcome: Outcome
    public var kind: NearMiss
    /// The possible outcome it was made from.
    public var source: Outcome
}

/// Makes near misses from the model's outcomes and keeps those the model proves impossible.
/// Never a random string: each is one small edit of an outcome that can happen.
enum NearMissFinder {
    /// How many candidates of each kind to keep: enough to vary them across variants.
    static let limitPerKind = 48

    /// Every kind's candidates, in a fixed order (the model's order of outcomes, then position).
    static func candidates(for exploration: Exploration) -> [NearMissCandidate] {
        let possible = Set(exploration.outcomes)
        let boundaries = SyncBoundary.all(in: exploration.program)
        var found: [NearMissCandidate] = []
        var seen: Set<Outcome> = []
        var perKind: [NearMiss: Int] = [:]

        func offer(_ outcome: Outcome, _ kind: NearMiss, from source: Outcome) {
            // Impossible on every machine explored: an outcome only fewer cores show is no near miss.
            guard perKind[kind, default: 0] < limitPerKind, !possible.contains(outcome), seen.insert(outcome).inserted,
                exploration.label(of: outcome) == nil
            else { return }
            perKind[kind, default: 0] += 1
            found.append(NearMissCandidate(outcome: outcome, kind: kind, source: source))
        }

        for source in exploration.outcomes {
            let lines = source.lines
            for boundary in boundaries {
                for moved in boundary.moves(in: lines) {
                    offer(Outcome(lines: moved, end: source.end), .movedAcrossSync, from: source)
                }
            }
            for index in lines.indices.dropLast() where lines[index] != lines[index + 1] {
                var swapped = lines
                swapped.swapAt(index, index + 1)
                offer(Outcome(lines: swapped, end: source.end), .swappedLines, from: source)
            }
            switch source.end {
            case .deadlock:
                offer(Outcome(lines: lines, end: .finished), .missingDeadlock, from: source)
            case .finished:
                // Stopping after the whole output, or part-way.
                for length in stride(from: lines.count, through: 0, by: -1) {
                    offer(Outcome(lines: Array(lines.prefix(length)), end: .deadlock), .addedDeadlock, from: source)
                }
            }
            for index in lines.indices {
                var dropped = lines
                dropped.remove(at: index)
                offer(Outcome(lines: dropped, end: source.end), .droppedLine, from: source)
            }
            for index in lines.indices {
                var repeated = lines
                repeated.insert(lines[index], at: index + 1)
                offer(Outcome(lines: repeated, end: source.end), .repeatedLine, from: source)
            }
        }
        return found
    }
}

/// A `sync` call and the lines whose order it fixes, when the snippet prints them literally: the
/// lines its block prints, and the lines its caller prints before and after it.
struct SyncBoundary: Equatable {
    var before: [String]
    var inside: [String]
    var after: [String]

    static func all(in program: Program) -> [SyncBoundary] {
        var boundaries: [SyncBoundary] = []
        program.walk { statement, location in
            guard case .dispatch(_, .sync, let body, _) = statement.action else { return }
            let siblings = program[location.block].statements
            let boundary = SyncBoundary(
                before: siblings[..<location.index].flatMap { literalLines($0, in: program) },
                inside: program[body].statements.flatMap { literalLines($0, in: program) },
                after: siblings[(location.index + 1)...].flatMap { literalLines($0, in: program) })
            if !boundary.inside.isEmpty && !(boundary.before.isEmpty && boundary.after.isEmpty) {
                boundaries.append(boundary)
            }
        }
        return boundaries
    }

    /// The lines a statement prints for certain, known without running it: literal prints, and
    /// those of the blocks it runs synchronously.
    static func literalLines(_ statement: Statement, in program: Program) -> [String] {
        switch statement.action {
        case .print(let items):
            var words: [String] = []
            for item in items {
                guard case .literal(let value) = item else { return [] }
                words.append(value.description)
            }
            return words.joined(separator: " ").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .dispatch(_, let mode, let body, _):
            switch mode {
            case .sync:
                // Up to a statement that may return: what follows it may not run.
                let certain = program[body].statements.prefix { !program.mayReturn($0) }
                return certain.flatMap { literalLines($0, in: program) }
            case .async: return []
            }
        case .branch, .loop, .whileLoop, .call, .workItem, .concurrentPerform, .spawn, .withTaskGroup, .continuation, .stream, .timer, .handles:
            // Their blocks run or not, once or many times, or on another thread: not certain
            // enough to fix an order by.
            return []
        case .assign, .group, .semaphore, .dispatchAfter, .sleep, .timedWait, .activate, .queueSetting, .precondition, .operation,
            .operationQueue, .returns, .exitLoop, .suspend, .hop, .cancellation, .taskLocal, .throwing:
            // Print nothing themselves.
            return []
        }
    }

    /// The outcome's lines with one line moved across this boundary: a line printed after the
    /// `sync` put just before the first line of its block, or a line printed before it put just
    /// after the block's last line. Only lines that occur once are moved, so the move is clear.
    func moves(in lines: [String]) -> [[String]] {
        func unique(_ line: String) -> Int? {
            let places = lines.indices.filter { lines[$0] == line }
            return places.count == 1 ? places[0] : nil
        }
        let insidePlaces = inside.compactMap(unique)
        guard let first = insidePlaces.min(), let last = insidePlaces.max() else { return [] }
        var moved: [[String]] = []
        for line in after {
            guard let place = unique(line), place > last else { continue }
            var copy = lines
            copy.remove(at: place)
            copy.insert(line, at: first)
            moved.append(copy)
        }
        for line in before {
            guard let place = unique(line), place < first else { continue }
            var copy = lines
            copy.remove(at: place)
            copy.insert(line, at: last)
            moved.append(copy)
        }
        return moved
    }
}
