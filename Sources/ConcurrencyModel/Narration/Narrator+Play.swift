/// The words for the scheduler's seat: the moves offered, who runs where, what each queue holds,
/// the goal and where it stands.
extension Narrator {
    // MARK: Moves

    /// Who makes a move: "main", "worker 2", "timer", "clock".
    public func mover(_ move: PlayMove) -> String {
        if let step = move.step { return thread(step.thread) }
        switch move.kind {
        case .step(let id): return thread(id)
        case .start(let queue): return name(queue)
        case .fire, .wake: return thread(.timer)
        case .advance: return thread(.clock)
        case .spareThread: return thread(.libdispatch)
        }
    }

    /// What a move does, as a witness step says it: "prints 2", "starts the next item of
    /// serialQueue"; for a move gcdquiz cannot take, why.
    public func action(_ move: PlayMove) -> String {
        if let step = move.step { return action(step) }
        return move.limit.map { "cannot be taken: \($0.description)" } ?? "cannot be taken"
    }

    // MARK: Runners and executors

    /// A thread's row: "main, at line 4: next, print 2", "main waits in serialQueue.sync at line 5
    /// for its turn", "main is idle: it serves the main queue".
    public func words(for runner: Runner) -> String {
        let who = thread(runner.thread)
        let context = runner.queue.map { ", on \(name($0))" } ?? ""
        switch runner.activity {
        case .idle:
            return runner.kind == .mainThread ? "\(who) is idle: it serves the main queue" : "\(who) is idle"
        case .waits(let wait):
            return waiting(wait, thread: who + (context.isEmpty ? "" : context + ","), line: runner.line ?? 0)
        case .next(let statement, let printed, let phase):
            let at = runner.line.map { ", at line \($0)" } ?? ""
            return "\(who)\(context)\(at): next, \(next(statement, printed: printed, phase: phase))"
        }
    }

    /// The next step of a statement, as an instruction.
    private func next(_ statement: Statement, printed: String?, phase: Runner.Phase) -> String {
        switch phase {
        case .starts: doing(statement, printed: printed)
        case .writes:
            if case .assign(let assignment) = statement.action { "write \(name(assignment.target)) (it has read and computed the value)" } else { doing(statement) }
        case .wakes: "wake up"
        case .endsWait: "return from the wait"
        }
    }

    /// An executor's name and kind: "serialQueue (serial queue)", "queue (OperationQueue, at most 1
    /// at a time)".
    public func title(of executor: Executor) -> String {
        var traits: [String]
        switch executor.kind {
        case .queue(let queue):
            traits = [Self.kind(program[queue].kind)]
            if executor.inactive { traits.append("inactive: nothing starts until activate()") }
            return "\(name(queue)) (\(traits.joined(separator: ", ")))"
        case .operationQueue(let queue):
            traits = ["OperationQueue"]
            if let limit = executor.limit { traits.append("at most \(limit) at a time") }
            if executor.suspended { traits.append("suspended") }
            return "\(name(queue)) (\(traits.joined(separator: ", ")))"
        }
    }

    private static func kind(_ kind: QueueKind) -> String {
        switch kind {
        case .main: "main queue"
        case .serial: "serial queue"
        case .concurrent: "concurrent queue"
        case .global: "global queue"
        case .cooperative: "the global concurrent executor"
        case .actor: "actor"
        }
    }

    /// What runs on an executor and what waits in it: "runs worker 1; waiting: the block at line 5".
    public func contents(of executor: Executor) -> String {
        var parts: [String] = []
        if let drained = executor.drains {
            parts.append("drains \(name(drained)), which targets it, one block at a time")
        }
        if !executor.running.isEmpty {
            parts.append((executor.barrierRunning ? "runs a barrier block alone on " : "runs on ") + executor.running.map(thread).joined(separator: ", "))
        }
        parts.append(executor.pending.isEmpty ? "nothing waiting" : "waiting: " + executor.pending.map(words(for:)).joined(separator: ", "))
        return parts.joined(separator: "; ")
    }

    /// One waiting piece of work: "the block at line 5", "main's sync (line 9)", "b (its
    /// dependencies have not finished)".
    public func words(for work: PendingWork) -> String {
        switch work {
        case .block(let line, let barrier):
            return (barrier ? "the barrier block" : "the block") + (line.map { " at line \($0)" } ?? "")
        case .workItem(let item, let barrier):
            return "\(name(item))" + (barrier ? " (a barrier)" : "")
        case .sync(let waiter, let line, let barrier):
            return "\(thread(waiter))'s \(barrier ? "barrier " : "")sync" + (line.map { " (line \($0))" } ?? "")
        case .operation(let operation, let ready):
            return name(operation) + (ready ? "" : " (its dependencies have not finished)")
        case .helper:
            return "a concurrentPerform helper"
        case .job(let task):
            return "the job of \(self.task(task))"
        case .targetedQueue(let queue):
            return "\(name(queue)), which targets this queue, with its blocks"
        }
    }

    /// "serialQueue.asyncAfter block at line 3, due at 1 s".
    public func words(for timer: PendingTimer) -> String {
        "\(name(timer.queue)).asyncAfter block" + (timer.line.map { " at line \($0)" } ?? "") + ", due at \(Self.seconds(timer.due))"
    }

    /// "g: 1 block inside", "s: count 0", "lock: held".
    public func words(for object: SyncObjectState) -> String {
        switch object {
        case .group(let group, let inside, let notify):
            "\(name(group)): \(inside) block\(inside == 1 ? "" : "s") inside" + (notify > 0 ? ", \(notify) notify block\(notify == 1 ? "" : "s") waiting" : "")
        case .semaphore(let semaphore, let count) where isLock(semaphore):
            "\(name(semaphore)): \(count > 0 ? "free" : "held")"
        case .semaphore(let semaphore, let count):
            "\(name(semaphore)): count \(count)"
        }
    }

    /// The logical clock: "clock 1 s".
    public func clock(_ microseconds: Int) -> String {
        "clock \(Self.seconds(microseconds))"
    }

    // MARK: Endings and goals

    /// How the run ended: "the run finished: every submitted block has run", a trap, what holds a
    /// stuck run.
    public func words(for ending: PlayEnding) -> String {
        switch ending {
        case .finished: "the run finished: every submitted block has run"
        case .stuck(let facts): words(for: DeadlockReason.stuck(facts))
        case .died(let reason): words(for: reason)
        }
    }

    /// A goal as a task: "make it print 2 1 4 3 and finish", "make it deadlock".
    public func words(for goal: PlayGoal) -> String {
        switch goal {
        case .outcome(let outcome):
            let lines = outcome.lines.isEmpty ? "print nothing" : "print " + outcome.lines.joined(separator: " ")
            return "make it \(lines) and " + (outcome.end == .finished ? "finish" : "then deadlock")
        case .deadlock: return "make it deadlock (a trap counts)"
        case .crash: return "make the process die (a trap or a crash)"
        case .race: return "bring two threads to one variable at once, one of them writing (a data race)"
        }
    }

    /// Where the goal stands, in one sentence; the reasons of an out-of-reach goal come apart
    /// (`reasons(for:)`).
    public func words(for status: GoalStatus) -> String {
        switch status {
        case .none: return "no goal: pick moves and see what the run does"
        case .unguided: return "the model did not finish exploring this snippet: it cannot tell whether the goal is still reachable"
        case .open: return "not reached yet"
        case .reached(let move): return "reached at move \(move)"
        case .outOfReach(let move, let why):
            let when = move == 0 ? "from the start" : "since move \(move)"
            switch why {
            case .printedInstead(let printed, let wanted):
                return "out of reach \(when): \(printed) was printed where the goal wants \(wanted) next"
            case .cannotComeNext(let prefix, _, let wanted, _, let proved):
                let place = prefix.isEmpty ? "first" : "right after " + prefix.joined(separator: " ")
                return proved
                    ? "no schedule does it: \(noun(wanted)) never comes \(place)"
                    : "out of reach \(when): from here \(noun(wanted)) cannot come \(place) (another schedule gets further)"
            case .noSchedule(let fromStart):
                return fromStart ? "no schedule of this snippet does it" : "out of reach \(when): no schedule from here does it"
            }
        }
    }

    /// The next event of an outcome as a noun: "3", "the end of the run", "a deadlock".
    private func noun(_ event: NextEvent) -> String {
        switch event {
        case .line(let text): text
        case .end(.finished): "the end of the run"
        case .end(.deadlock): "a deadlock"
        }
    }

    /// The reasons an out-of-reach goal cannot come, each with the rule at work.
    public func reasons(for status: GoalStatus) -> [(reason: String, rule: Rule)] {
        guard case .outOfReach(_, .cannotComeNext(_, _, _, let blockers, _)) = status else { return [] }
        return blockers.map { (words(for: $0), $0.rule) }
    }

    /// A hint as a sentence: "take move 2 (worker 1 prints 1): it keeps the goal reachable".
    public func words(for hint: Hint) -> String {
        switch hint {
        case .move(let move, let reachable):
            let what = "\(mover(move)): \(action(move))"
            return reachable
                ? "take move \(move.number) (\(what)): it keeps the goal reachable"
                : "no schedule reaches the goal; move \(move.number) (\(what)) goes as far along it as any schedule does"
        case .undoTo(let move):
            return "undo back to move \(move): from there the goal was still reachable"
        case .nothing:
            return "no hint here"
        }
    }
}
