import ConcurrencyModel

/// Fresh Swift-concurrency puzzles (Swift 6 mode) from a small grammar of what the model takes:
/// two or three tasks made at the top level (`Task {}` on the main actor, `Task.detached`,
/// `Task(priority:)`), main-queue blocks and top-level prints between them, and in the tasks
/// prints, `await Task.yield()`, `await MainActor.run {}` and calls of an actor's method that may
/// suspend in the middle (reentrancy). The focus decides what every puzzle has: an actor for
/// `actors`, the main actor's FIFO for `main-actor`.
///
/// No `Task.sleep`: the model's clock takes code to cost nothing, so a 10 ms gap between two
/// deadlines orders their tasks, and on a loaded two-core machine swiftc runs of generated
/// puzzles broke such orders (5 and 2 of 100 runs). A bank puzzle can be written around that;
/// a puzzle no real run checks must not lean on it.
struct TaskGrammar {
    enum Focus: Sendable {
        case tasks, actors, mainActor

        /// The topic the focus is named after in a puzzle's source.
        var tag: String {
            switch self {
            case .tasks: "tasks"
            case .actors: "actors"
            case .mainActor: "main-actor"
            }
        }

        /// The focus a generation asked for by tag; nil when no tag is a Swift-concurrency one.
        init?(tags: [String]) {
            if tags.contains("actors") {
                self = .actors
            } else if tags.contains("main-actor") {
                self = .mainActor
            } else if tags.contains("tasks") {
                self = .tasks
            } else {
                return nil
            }
        }
    }

    let level: Int
    let focus: Focus

    /// The actor a puzzle declares: its name, the method tasks call, and whether the method
    /// suspends between reading and writing its state.
    struct ActorShape {
        var type: String
        var instance: String
        var method: String
        /// `await Task.yield()` between the read and the write; nil: no suspension.
        var suspension: String?
    }

    /// A random program of the grammar, labels numbered in code order.
    func tree(random: inout SeededRandom) -> SnippetTree {
        var statements: [Statement] = []
        let actor: ActorShape? = focus == .actors || (level >= 2 && random.percent(40)) ? randomActor(random: &random) : nil
        if let actor { statements += declaration(of: actor) }

        var nextLabel = 1
        var nextCaller = 0
        func label() -> Statement {
            defer { nextLabel += 1 }
            return .print(.number(nextLabel))
        }
        func caller() -> String {
            defer { nextCaller += 1 }
            return String(["A", "B", "C", "D", "E", "F"][nextCaller % 6])
        }

        let starters = random.int(level <= 1 ? 2...2 : 2...3)
        // Tasks that call the actor: two of them make its calls race (and interleave at a suspension).
        var callers = 0
        for index in 0..<starters {
            // Between tasks, now and then a main-queue block or a line of the top-level code.
            if random.percent(focus == .mainActor ? 60 : 25) {
                statements.append(.dispatch(Dispatch(queue: QueueCatalog.main, mode: .async, body: [label()])))
            } else if index > 0 && random.percent(20) {
                statements.append(label())
            }
            let starter = randomStarter(random: &random)
            // `MainActor.run` only off the main actor: from a main-actor task it hops off and back
            // in real Swift 6 (200 of 200 swiftc runs let another main-actor job in) where the
            // model runs it inline, so the grammar keeps clear of it until the model follows.
            let mayRun = starter.header == "Task.detached"
            var body: [Statement] = []
            let steps = random.int(level <= 1 ? 1...2 : 2...3)
            for step in 0..<steps {
                // Every task prints or calls the actor; the steps between may suspend.
                let mustAct = step == steps - 1 && !body.contains(where: Self.acts)
                var choices = ["print", "print"]
                if actor != nil { choices += ["call", "call"] }
                if !mustAct { choices += ["yield"] }
                if mayRun && (level >= 2 || focus == .mainActor) { choices += ["run"] }
                switch random.pick(choices) {
                case "call":
                    body.append(.line("await \(actor!.instance).\(actor!.method)(\"\(caller())\")"))
                case "yield":
                    body.append(.line("await Task.yield()"))
                case "run":
                    body.append(.compound([Clause(header: "await MainActor.run", body: [label()])], trailer: ""))
                default:
                    body.append(label())
                }
            }
            // An actor puzzle has calls of the actor from at least two tasks.
            if let actor, callers < 2 && index >= starters - 2 + callers && !body.contains(where: Self.callsActor) {
                body.insert(.line("await \(actor.instance).\(actor.method)(\"\(caller())\")"), at: random.below(body.count + 1))
            }
            if body.contains(where: Self.callsActor) { callers += 1 }
            statements.append(.compound([Clause(header: starter.header, parameters: starter.parameters, body: body)], trailer: ""))
        }
        if random.percent(50) { statements.append(label()) }
        return SnippetTree(statements)
    }

    /// Whether a task's step is seen: a print, a `MainActor.run` that prints, an actor call.
    private static func acts(_ statement: Statement) -> Bool {
        switch statement {
        case .print, .compound: true
        case .line(let text): text.hasPrefix("await ") && !text.hasPrefix("await Task.")
        case .dispatch: false
        }
    }

    private static func callsActor(_ statement: Statement) -> Bool {
        if case .line(let text) = statement { text.hasPrefix("await ") && !text.hasPrefix("await Task.") } else { false }
    }

    /// How a task is made: on the main actor (most often), detached, or with a priority; the
    /// closure's parameters for `Task { @MainActor in … }`, isolated by its closure.
    private func randomStarter(random: inout SeededRandom) -> (header: String, parameters: String?) {
        var starters: [(header: String, parameters: String?)] = [("Task", nil), ("Task", nil), ("Task.detached", nil)]
        switch focus {
        case .tasks: starters += [("Task.detached", nil), ("Task(priority: .high)", nil), ("Task(priority: .background)", nil)]
        case .actors: starters += [("Task.detached", nil), ("Task.detached", nil), ("Task(priority: .high)", nil)]
        case .mainActor: starters += [("Task.detached", nil), ("Task", "@MainActor in"), ("Task(priority: .high)", nil)]
        }
        return random.pick(starters)
    }

    private func randomActor(random: inout SeededRandom) -> ActorShape {
        let (type, instance) = random.pick([("Counter", "counter"), ("Ledger", "ledger"), ("Tally", "tally")])
        let suspension: String? = random.pick([nil, "await Task.yield()", "await Task.yield()"])
        return ActorShape(type: type, instance: instance, method: random.pick(["bump", "record", "add"]), suspension: suspension)
    }

    /// The actor's declaration and its one instance: the method prints what it reads of the
    /// state before and after its suspension, so that reentrancy shows in the output.
    private func declaration(of actor: ActorShape) -> [Statement] {
        var method: [Statement] = []
        if let suspension = actor.suspension {
            method = [
                .line("print(\"\\(id) reads \\(value)\")"),
                .line(suspension),
                .line("value += 1"),
                .line("print(\"\\(id) writes \\(value)\")"),
            ]
        } else {
            method = [.line("value += 1"), .line("print(\"\\(id) \\(value)\")")]
        }
        let header = "func \(actor.method)(_ id: String)" + (actor.suspension == nil ? "" : " async")
        return [
            .compound([Clause(header: "actor \(actor.type)", body: [
                .line("var value = 0"),
                .compound([Clause(header: header, body: method)], trailer: ""),
            ])], trailer: ""),
            .line("let \(actor.instance) = \(actor.type)()"),
        ]
    }

    /// A title in the bank's manner, from what the code makes: "Three tasks, one detached, with an
    /// actor that suspends".
    static func title(_ tree: SnippetTree) -> String {
        let starters = tree.statements.compactMap { statement -> String? in
            if case .compound(let clauses, _) = statement, clauses[0].header.hasPrefix("Task") { clauses[0].header } else { nil }
        }
        let detached = starters.filter { $0 == "Task.detached" }.count
        let counts = ["no", "one", "two", "three", "four", "five"]
        var title = "\(counts[min(starters.count, 5)].capitalized) task\(starters.count == 1 ? "" : "s")"
        if detached > 0 && detached < starters.count { title += ", \(counts[min(detached, 5)]) detached," }
        if detached > 0 && detached == starters.count { title = "\(counts[min(detached, 5)].capitalized) detached task\(detached == 1 ? "" : "s")" }
        let source = tree.source
        var parts: [String] = []
        if source.contains("actor ") {
            // The method prints what it reads before a suspension only when it has one.
            parts.append(source.contains(" reads ") ? "an actor that suspends" : "an actor")
        }
        if source.contains("MainActor.run") { parts.append("MainActor.run") }
        if source.contains("DispatchQueue.main.async") { parts.append("main-queue blocks") }
        if parts.isEmpty && source.contains("Task.yield()") { parts.append("yields") }
        // As many of the parts as fit on the drill's title line, most telling first.
        while !parts.isEmpty && title.count + 6 + TitleWriter.list(parts).count > PuzzleGenerator.titleLength {
            parts.removeLast()
        }
        if !parts.isEmpty {
            title += " with " + TitleWriter.list(parts)
        }
        return title
    }
}

extension TaskGrammar {
    /// The rules of Swift concurrency (Swift 6 mode) this code uses, in the model's terms, one
    /// paragraph said before the generic explanation of which line comes before which.
    static func rules(_ tree: SnippetTree) -> String {
        let source = tree.source
        var rules: [String] = []
        if source.contains("Task {") || source.contains("Task(priority:") {
            rules.append("A `Task {}` made by top-level code inherits its isolation, the main actor: its first job is queued "
                + "on the main queue when it is made and runs once the main thread is free, after the top-level code.")
        }
        if source.contains("Task(priority:") {
            rules.append("The main actor is the main queue, one FIFO: a task's priority does not reorder it.")
        }
        if source.contains("Task.detached") {
            rules.append("`Task.detached` has no isolation: its job runs on the global executor (the cooperative pool), "
                + "beside the main thread.")
        }
        if source.contains("DispatchQueue.main.async") {
            rules.append("`DispatchQueue.main.async` blocks and main-actor jobs wait in the same FIFO, in the order they were queued.")
        }
        if source.contains("actor ") {
            rules.append("An actor runs one job at a time on a pool thread; a call from another executor hops onto it "
                + "(from the main actor the call is queued, and the main actor is free until it comes back).")
        }
        if source.contains(" reads ") {
            rules.append("At the `await` inside the actor's method the call suspends and gives the actor up: another call "
                + "may run in between (reentrancy), so what it read before the `await` may be stale after it.")
        }
        if source.contains("Task.yield()") {
            rules.append("A task that yields resumes through a job on the global executor, "
                + "which then moves it back to the main actor or its actor, behind whatever is queued there by then.")
        }
        if source.contains("MainActor.run") {
            rules.append("`await MainActor.run {}` in a detached task queues its closure on the main queue, behind what "
                + "waits there already, and the task goes on only after the closure has run.")
        }
        return rules.joined(separator: " ")
    }
}

extension Program {
    /// Whether the program makes tasks, awaits or calls an actor: the generator's reality checks
    /// cannot run such a program yet.
    var usesSwiftConcurrency: Bool {
        containsStatement { statement in
            if case .spawn = statement.action { return true }
            if case .suspend = statement.action { return true }
            if case .hop = statement.action { return true }
            return false
        }
    }
}
