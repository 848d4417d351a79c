import ConcurrencyModel

/// Writes a generated puzzle's explanation from the rules that decide its outcomes, as a person
/// would. First what the dispatches do here: each rule `Program.rulesAtWork` names, said of this
/// code's queues, lines and labels (traps only where the exploration found one). Then which
/// orders are fixed across threads and why (the model's `Explainer` says which rule forbids
/// the swapped order), which labels are free, and how runs end.
struct ExplanationWriter {
    let tree: SnippetTree
    let program: Program
    let exploration: Exploration
    let catalog: QueueCatalog
    let facts: [DispatchFact]

    init(tree: SnippetTree, program: Program, exploration: Exploration) {
        self.tree = tree
        self.program = program
        self.exploration = exploration
        catalog = QueueCatalog(program: program)
        let zeroSemaphores = Set(program.semaphores.filter { $0.initialValue == 0 }.map(\.name))
        facts = DispatchFact.collect(tree, catalog: catalog).map { fact in
            // Only a semaphore created at 0 makes the wait after the block wait for its signal.
            var fact = fact
            if let name = fact.semaphoreWait, !zeroSemaphores.contains(name) { fact.semaphoreWait = nil }
            return fact
        }
    }

    /// Paragraphs: what the dispatches do; the fixed orders (a list when there are several);
    /// the free ones and how runs end.
    var explanation: String {
        let (fixed, free) = orderSentences()
        let paragraphs = [
            (dispatchSentences() + otherRuleSentences()).joined(separator: " "),
            fixed,
            (free + endingSentences()).joined(separator: " "),
        ]
        return paragraphs.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    // MARK: What the dispatches do

    private func dispatchSentences() -> [String] {
        var sentences: [String] = []
        let trapLines = Set(exploration.reports.compactMap { report -> Int? in
            if case .trap(_, _, let span)? = report.deadlock { span.line } else { nil }
        })
        var done: Set<Int> = []  // fact indices already said

        for (index, fact) in facts.enumerated() {
            let call = fact.call
            switch done.contains(index) ? nil : fact.role(catalog) {
            case nil:
                break
            case .asyncToWorker:
                // Every plain async from the same runner in one sentence.
                let group = facts.indices.filter { !done.contains($0) && facts[$0].role(catalog) == .asyncToWorker && facts[$0].runner == fact.runner }
                done.formUnion(group)
                if group.count == 1 {
                    sentences.append("\(call) at line \(fact.line) only queues its block and returns at once: a worker thread runs the block later, while \(fact.runner) goes on.")
                } else {
                    sentences.append("\(Self.calls(group.map { facts[$0] })) only queue their blocks and return at once: worker threads run the blocks later, while \(fact.runner) goes on.")
                }
            case .asyncToMain:
                let group = facts.indices.filter { !done.contains($0) && facts[$0].role(catalog) == .asyncToMain }
                done.formUnion(group)
                let lines = TitleWriter.list(group.map { String(facts[$0].line) })
                let which = group.count == 1 ? "The block queued on the main queue at line \(lines) runs" : "The blocks queued on the main queue (lines \(lines)) run, one at a time,"
                let fromTop = group.contains { facts[$0].fromTopLevel }
                sentences.append("\(which) on the main thread, and only once it is idle\(fromTop ? ": after the top-level code has finished" : "").")
            case .sync:
                done.insert(index)
                if trapLines.contains(fact.line) {
                    sentences.append(trapSentence(fact))
                } else if catalog.kind(of: fact.dispatch.queue) == .main {
                    sentences.append("\(call) at line \(fact.line), called on a worker, waits until the main thread is idle, runs its block there, and only then lets the worker go on.")
                } else {
                    var sentence = "\(call) at line \(fact.line) runs its block on the calling thread (\(fact.runner)) and returns only once the block is done."
                    if catalog.kind(of: fact.dispatch.queue) == .serial
                        && facts.contains(where: { $0.dispatch.queue == fact.dispatch.queue && $0.dispatch.mode == .async && $0.line < fact.line })
                    {
                        sentence += " \(fact.dispatch.queue) is serial, so the sync first waits for any block of \(fact.dispatch.queue) that is running or queued before it."
                    }
                    sentences.append(sentence)
                }
            }
            if fact.dispatch.barrier {
                sentences.append(catalog.kind(of: fact.dispatch.queue) == .global
                    ? "The `.barrier` flag at line \(fact.line) does nothing on a global queue: that block runs like any other."
                    : "With `.barrier`, the block at line \(fact.line) waits for every block queued on \(fact.dispatch.queue) before it and runs alone; blocks queued after it wait until it is done.")
            }
            if let group = fact.dispatch.group, !facts[..<index].contains(where: { $0.dispatch.group == group }) {
                let lines = facts.filter { $0.dispatch.group == group }.map { String($0.line) }
                let blocks = lines.count == 1 ? "the block at line \(lines[0]), submitted with `async(group: \(group))`, has" : "the blocks at lines \(TitleWriter.list(lines)), submitted with `async(group: \(group))`, have"
                // Said of the wait only where the code waits; a notify has its own rule below.
                var waits = false
                SnippetTree.visit(tree.statements) { if case .line(let text) = $0, text.hasPrefix("\(group).wait(") { waits = true } }
                if waits {
                    sentences.append("`\(group).wait()` returns only once \(blocks) finished.")
                } else {
                    sentences.append("The block\(lines.count == 1 ? "" : "s") at line\(lines.count == 1 ? "" : "s") \(TitleWriter.list(lines)) \(lines.count == 1 ? "belongs" : "belong") to \(group).")
                }
            }
            if let wait = fact.semaphoreWait {
                sentences.append("`\(wait).wait()` blocks \(fact.runner) until that block calls `\(wait).signal()`.")
            }
        }
        // Blocks of one serial queue, several of them queued: their order is the queue's.
        for queue in Set(facts.map(\.dispatch.queue)).sorted() where catalog.kind(of: queue) == .serial {
            let asyncs = facts.filter { $0.dispatch.queue == queue && $0.dispatch.mode == .async }
            if asyncs.count >= 2 {
                sentences.append("\(queue) is serial: it runs the blocks queued at lines \(TitleWriter.list(asyncs.map { String($0.line) })) one at a time, in the order they were queued.")
            }
        }
        return sentences
    }

    /// "`a.async` at lines 1 and 8 and `b.async` at line 5".
    private static func calls(_ facts: [DispatchFact]) -> String {
        var order: [String] = []
        var lines: [String: [Int]] = [:]
        for fact in facts {
            if lines[fact.call] == nil { order.append(fact.call) }
            lines[fact.call, default: []].append(fact.line)
        }
        return TitleWriter.list(order.map { call in
            let at = lines[call]!
            return "\(call) at line\(at.count == 1 ? "" : "s") \(TitleWriter.list(at.map(String.init)))"
        })
    }

    private func trapSentence(_ fact: DispatchFact) -> String {
        let why = catalog.kind(of: fact.dispatch.queue) == .main
            ? "on the main thread it would wait for the main thread itself"
            : "the thread calling it is already running a block of \(fact.dispatch.queue), so it would wait for itself"
        return "\(fact.call) at line \(fact.line) can never run its block: \(why). libdispatch traps (\"dispatch_sync called on queue already owned by current thread\") and the process dies on the spot, so nothing prints after that."
    }

    /// The rules at work that no dispatch sentence covers (timing, operations, work items…).
    /// Said as a teacher would add them: "Keep in mind that …", then "Also, …".
    private func otherRuleSentences() -> [String] {
        let statements = program.rulesAtWork.compactMap { rule -> String? in
            switch rule {
            case .programOrder, .syncWaitsForItsBlock, .serialOneAtATime, .serialTargetDrainsOneAtATime, .fifo, .mainQueueNeedsIdleMainThread,
                .notSubmittedYet, .trapEndsTheProcess, .alreadyPrinted, .neverPrinted, .workRemains, .allWorkDone,
                .printShowsCurrentValues:
                return nil
            case .barrierRunsAlone where facts.contains(where: \.dispatch.barrier):
                return nil
            case .groupWaitsForItsBlocks where facts.contains(where: { $0.dispatch.group != nil }):
                return nil
            case .semaphoreBlocksAtZero where facts.contains(where: { $0.semaphoreWait != nil }):
                return nil
            case .unsynchronizedAccess:
                return nil  // said with the race, at the end
            case .barrierRunsAlone, .groupWaitsForItsBlocks, .groupNotifiesWhenEmpty, .semaphoreBlocksAtZero, .timeIsLogical,
                .preconditionCrashes, .operationWaitsForDependencies, .operationQueueLimit, .cancelledOperationSkipsItsBlocks,
                .completionBlockRunsAfter, .workerPoolIsLimited, .concurrentPerformWaitsForIterations, .workItemWaitReturnsAfterItRuns,
                .spinningKeepsItsThread, .cancellationHandlersHoldTheTask:
                return rule.statement
            }
        }
        return statements.enumerated().map { index, statement in
            (index == 0 ? "Keep in mind that " : "Also, ") + statement + "."
        }
    }

    // MARK: Orders

    private func orderSentences() -> (fixed: String, free: [String]) {
        let orders = OrderFacts(exploration: exploration, labels: tree.labels)
        let explainer = Explainer(exploration: exploration)
        let threads = LabelThreads(tree)
        // Pairs with the same first label and the same reason are said together.
        var grouped: [(first: String, reason: String, seconds: [String])] = []
        for pair in orders.covering {
            let rule = orders.swapped(pair).flatMap { outcome -> Rule? in
                guard case .impossible(let impossibility) = explainer.explain(outcome) else { return nil }
                return impossibility.blockers.first?.rule
            }
            // An order the model cannot attribute to a rule is left to the outcome list.
            guard let rule else { continue }
            var reason = reasonPhrase(rule, pair)
            if threads.sameThread(pair.first, pair.second) {
                // One thread printing both in program order goes without saying, unless the first
                // is inside a sync the second waits for.
                guard let sync = facts.first(where: { fact in
                    let inside = SnippetTree(fact.dispatch.body).labels.map(\.printed)
                    return fact.dispatch.mode == .sync && inside.contains(pair.first) && !inside.contains(pair.second)
                }) else { continue }
                reason = "the sync at line \(sync.line) returns only after its block has run"
            }
            if let index = grouped.firstIndex(where: { $0.first == pair.first && $0.reason == reason }) {
                grouped[index].seconds.append(pair.second)
            } else {
                grouped.append((pair.first, reason, [pair.second]))
            }
        }
        var fixed = grouped.map { group -> (first: String, text: String) in
            let reason = group.seconds.count == 1 ? group.reason : group.reason.replacingOccurrences(of: "its block is", with: "their blocks are")
            return (group.first, "\(TitleWriter.list(group.seconds)) never \(group.seconds.count == 1 ? "comes" : "come") before \(group.first): \(reason)")
        }
        // In the order a run prints them.
        let reference = exploration.outcomes.first?.lines ?? []
        fixed.sort { (reference.firstIndex(of: $0.first) ?? .max) < (reference.firstIndex(of: $1.first) ?? .max) }
        let fixedText = switch fixed.count {
        case 0: ""
        case 1: "So \(fixed[0].text)."
        default: "So, in every run that prints both:\n" + fixed.map { "- \($0.text)." }.joined(separator: "\n")
        }
        var sentences: [String] = []
        let anywhere = orders.unordered
        if !anywhere.isEmpty {
            let names = TitleWriter.list(anywhere)
            sentences.append(anywhere.count == 1
                ? "Nothing orders \(names) against the other lines: it can come anywhere."
                : "Nothing orders \(names) against the other lines: each can come anywhere.")
        }
        var free = orders.free.filter { !anywhere.contains($0.first) && !anywhere.contains($0.second) }
        // Two blocks whose lines all come in either order: they run side by side.
        let isFree = { (a: String, b: String) in
            free.contains(OrderFacts.Pair(first: a, second: b)) || free.contains(OrderFacts.Pair(first: b, second: a))
        }
        let blocks = threads.blocks.map { $0.filter { !anywhere.contains($0) } }.filter { !$0.isEmpty }
        for (index, a) in blocks.enumerated() {
            for b in blocks[(index + 1)...] where a.count + b.count > 2 && a.allSatisfy({ x in b.allSatisfy { y in isFree(x, y) } }) {
                // Blocks drained by one serial target come in either order but never interleave.
                sentences.append(interleave(a, b)
                    ? "The block printing \(TitleWriter.list(a)) and the one printing \(TitleWriter.list(b)) run side by side on two threads: their lines can interleave in any way."
                    : "The block printing \(TitleWriter.list(a)) and the one printing \(TitleWriter.list(b)) run one after the other, in either order, never interleaved.")
                free.removeAll { (a.contains($0.first) && b.contains($0.second)) || (b.contains($0.first) && a.contains($0.second)) }
            }
        }
        if !free.isEmpty {
            let pairs = free.prefix(4).map { "\($0.first) and \($0.second)" }
            let listed = pairs.count == 1 ? pairs[0] : pairs.dropLast().joined(separator: ", for ") + ", and for " + pairs.last!
            sentences.append("Either order is possible for " + listed + (free.count > 4 ? ", among others." : "."))
        }
        return (fixedText, sentences)
    }

    /// Whether some outcome prints a line of one block between two lines of the other.
    private func interleave(_ a: [String], _ b: [String]) -> Bool {
        exploration.outcomes.contains { outcome in
            let marks = outcome.lines.compactMap { line in a.contains(line) ? 0 : b.contains(line) ? 1 : nil }
            return zip(marks, marks.dropFirst()).filter { $0 != $1 }.count > 1
        }
    }

    /// Why `pair.second` cannot come before `pair.first`, said of this code.
    private func reasonPhrase(_ rule: Rule, _ pair: OrderFacts.Pair) -> String {
        let queue = facts.last { SnippetTree($0.dispatch.body).labels.map(\.printed).contains(pair.second) }?.dispatch.queue
        switch rule {
        case .programOrder, .notSubmittedYet: return "its block is queued only after \(pair.first) has printed"
        case .syncWaitsForItsBlock: return "the sync returns only after its block has run"
        case .serialOneAtATime: return "\(queue.map { $0 + " is serial and" } ?? "a serial queue") runs one block at a time"
        case .serialTargetDrainsOneAtATime:
            return "\(queue ?? "the queue") drains through a serial target, which runs one block of its queues at a time"
        case .fifo: return "\(queue ?? "the queue") starts its blocks in the order they were queued"
        case .mainQueueNeedsIdleMainThread: return "the main queue waits for the main thread to be idle"
        case .barrierRunsAlone: return "the barrier block runs alone"
        case .groupWaitsForItsBlocks: return "the group's wait returns only after the group's blocks have run"
        case .groupNotifiesWhenEmpty: return "notify fires only once the group is empty"
        case .semaphoreBlocksAtZero: return "the semaphore holds the waiting thread until the signal"
        case .timeIsLogical: return "an earlier deadline comes first"
        case .operationWaitsForDependencies: return "an operation starts only after its dependencies have finished"
        case .operationQueueLimit: return "the OperationQueue's limit and priorities decide which operation starts next"
        case .cancelledOperationSkipsItsBlocks: return "a cancelled operation finishes without running its blocks, and only then do its dependents start"
        case .completionBlockRunsAfter: return "a completion block runs only after its operation has finished"
        case .workerPoolIsLimited: return "the worker threads are busy, and a new one comes only after the timers due first"
        case .concurrentPerformWaitsForIterations: return "concurrentPerform returns only after every iteration has run"
        case .workItemWaitReturnsAfterItRuns: return "the work item's wait returns only after the item has run"
        case .spinningKeepsItsThread: return "a loop that changes nothing keeps its thread, and the queue or actor it runs for, until something else changes what it tests"
        case .cancellationHandlersHoldTheTask: return "the task goes on past its cancellation record only after cancel() has run its onCancel handlers"
        case .printShowsCurrentValues: return "a print shows its variables' values at the moment it runs"
        case .trapEndsTheProcess, .alreadyPrinted, .neverPrinted, .workRemains, .allWorkDone, .unsynchronizedAccess,
            .preconditionCrashes:
            return rule.statement
        }
    }

    // MARK: Endings

    private func endingSentences() -> [String] {
        let count = exploration.outcomes.count
        let deadlocks = exploration.outcomes.filter { $0.end == .deadlock }.count
        var sentences: [String] = []
        if deadlocks == count {
            sentences.append("Every run ends in a deadlock; the \(count) outcomes differ in how far the other threads got first.")
        } else if deadlocks > 0 {
            sentences.append("Of the \(count) possible outcomes, \(deadlocks) end\(deadlocks == 1 ? "s" : "") in a deadlock.")
        } else {
            sentences.append("That makes \(count) possible outcomes, and every run finishes.")
        }
        if let race = exploration.races.first {
            let narrator = exploration.narrator
            let variable = narrator.name(race.variable)
            // Both places read and then write (`x += 1`, `list.append`): an update can be lost.
            var updates: Set<Int> = []
            program.walk { statement, _ in
                guard case .assign(let assignment) = statement.action, assignment.readsTarget, assignment.target == race.variable
                else { return }
                updates.insert(statement.span.line)
            }
            let lost = updates.contains(race.first.span.line) && updates.contains(race.second.span.line)
                ? ": one thread can read \(variable), the other update it, and the first then write back a value computed from the old one, so an update is lost"
                : ""
            sentences.append("There is also a \(narrator.subject(of: race)): \(narrator.accesses(of: race, articles: true, threads: false))\(lost).")
        }
        return sentences
    }
}

/// One dispatch of the code, where it is and who calls it.
struct DispatchFact {
    enum Role {
        case asyncToWorker, asyncToMain, sync
    }

    var dispatch: Dispatch
    var line: Int
    /// Called by the top-level code (not from a block).
    var fromTopLevel: Bool
    /// "the main thread", "the worker running the block at line 2".
    var runner: String
    /// The semaphore a `wait()` right after this block waits on, when the block signals it.
    var semaphoreWait: String?

    var call: String { "`\(dispatch.queue).\(dispatch.mode.rawValue)`" }

    func role(_ catalog: QueueCatalog) -> Role {
        switch dispatch.mode {
        case .sync: .sync
        case .async: catalog.kind(of: dispatch.queue) == .main ? .asyncToMain : .asyncToWorker
        }
    }

    static func collect(_ tree: SnippetTree, catalog: QueueCatalog) -> [DispatchFact] {
        var facts: [DispatchFact] = []
        var line = 1
        walk(tree.statements, fromTopLevel: true, runner: "the main thread", catalog: catalog, line: &line, into: &facts)
        return facts
    }

    private static func walk(_ statements: [Statement], fromTopLevel: Bool, runner: String, catalog: QueueCatalog,
                             line: inout Int, into facts: inout [DispatchFact]) {
        for (index, statement) in statements.enumerated() {
            let start = line
            switch statement {
            case .print, .line:
                line += 1
            case .compound(let clauses, _):
                // `if`, `for` and `else` bodies run on the same thread; other closures elsewhere.
                let inline = ["if ", "for ", "else", "while "].contains { clauses[0].header.hasPrefix($0) }
                line += 1
                for clause in clauses {
                    walk(clause.body, fromTopLevel: inline && fromTopLevel,
                         runner: inline ? runner : "the thread running the block at line \(start)",
                         catalog: catalog, line: &line, into: &facts)
                    line += 1
                }
            case .dispatch(let dispatch):
                var semaphore: String?
                if dispatch.body.contains(where: { if case .line(let text) = $0 { text.hasSuffix(".signal()") } else { false } }),
                    case .line(let text)? = statements.dropFirst(index + 1).first, text.hasSuffix(".wait()")
                {
                    semaphore = String(text.dropLast(".wait()".count))
                }
                facts.append(DispatchFact(dispatch: dispatch, line: start, fromTopLevel: fromTopLevel, runner: runner, semaphoreWait: semaphore))
                line += 1
                let innerRunner: String
                switch (dispatch.mode, catalog.kind(of: dispatch.queue)) {
                case (_, .main?): innerRunner = "the main thread"
                case (.async, _): innerRunner = "the worker running the block at line \(start)"
                case (.sync, _): innerRunner = runner
                }
                walk(dispatch.body, fromTopLevel: false, runner: innerRunner, catalog: catalog, line: &line, into: &facts)
                line += 1
            }
        }
    }
}

/// Which labels one thread prints one after another: those in the same block, counting the
/// bodies of its syncs as its own.
struct LabelThreads {
    private var owner: [String: Int] = [:]
    /// The labels in code order.
    private var sequence: [String] = []

    init(_ tree: SnippetTree) {
        var next = 0
        func walk(_ statements: [Statement], block: Int) {
            for statement in statements {
                switch statement {
                case .print(let label):
                    owner[label.printed] = block
                    sequence.append(label.printed)
                case .line: break
                case .dispatch(let dispatch):
                    if dispatch.mode == .sync {
                        walk(dispatch.body, block: block)
                    } else {
                        next += 1
                        walk(dispatch.body, block: next)
                    }
                case .compound(let clauses, _):
                    for clause in clauses {
                        next += 1
                        walk(clause.body, block: next)
                    }
                }
            }
        }
        walk(tree.statements, block: 0)
    }

    func sameThread(_ a: String, _ b: String) -> Bool {
        owner[a] != nil && owner[a] == owner[b]
    }

    /// The labels of each block, in code order: those one thread prints one after another.
    var blocks: [[String]] {
        var order: [Int] = []
        var labels: [Int: [String]] = [:]
        for label in sequence where labels[owner[label]!]?.contains(label) != true {
            let block = owner[label]!
            if labels[block] == nil { order.append(block) }
            labels[block, default: []].append(label)
        }
        return order.map { labels[$0]! }
    }
}

/// The orders between labels that the outcomes show: pairs always in one order (kept only
/// where no third label sits between them), pairs seen both ways, and labels free of all.
struct OrderFacts {
    struct Pair: Hashable {
        var first: String
        var second: String
    }

    let outcomes: [Outcome]
    private(set) var covering: [Pair] = []
    private(set) var free: [Pair] = []
    /// Labels that come in either order with every other label they share a run with.
    private(set) var unordered: [String] = []

    init(exploration: Exploration, labels: [Label]) {
        outcomes = exploration.outcomes
        // Labels printed by one print only: their order is a fact about that print.
        let counts = Dictionary(labels.map { ($0.printed, 1) }, uniquingKeysWith: +)
        let names = labels.map(\.printed).filter { counts[$0] == 1 }
        var before: Set<Pair> = []
        var together: Set<Pair> = []
        for outcome in outcomes {
            let position = Dictionary(outcome.lines.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
            for a in names {
                for b in names where a != b {
                    guard let i = position[a], let j = position[b] else { continue }
                    together.insert(Pair(first: a, second: b))
                    if i < j { before.insert(Pair(first: a, second: b)) }
                }
            }
        }
        func always(_ a: String, _ b: String) -> Bool {
            before.contains(Pair(first: a, second: b)) && !before.contains(Pair(first: b, second: a))
        }
        for (index, a) in names.enumerated() {
            for b in names[(index + 1)...] where together.contains(Pair(first: a, second: b)) {
                if always(a, b) || always(b, a) {
                    let (x, y) = always(a, b) ? (a, b) : (b, a)
                    if !names.contains(where: { $0 != x && $0 != y && always(x, $0) && always($0, y) }) {
                        covering.append(Pair(first: x, second: y))
                    }
                } else {
                    free.append(Pair(first: a, second: b))
                }
            }
        }
        if names.count > 2 {
            unordered = names.filter { a in
                let partners = names.filter { $0 != a && together.contains(Pair(first: a, second: $0)) }
                return partners.count >= 2 && partners.allSatisfy { b in !always(a, b) && !always(b, a) }
            }
        }
    }

    /// A run that prints `pair` the other way round: a possible outcome with the second label
    /// moved just before the first. Nil if no outcome prints both.
    func swapped(_ pair: Pair) -> Outcome? {
        guard let outcome = outcomes.first(where: { $0.lines.contains(pair.first) && $0.lines.contains(pair.second) }) else { return nil }
        var lines = outcome.lines
        lines.removeAll { $0 == pair.second }
        let index = lines.firstIndex(of: pair.first)!
        lines.insert(pair.second, at: index)
        return Outcome(lines: lines, end: outcome.end)
    }
}
