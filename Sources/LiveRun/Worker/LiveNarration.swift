import ConcurrencyModel

/// Words what holds a stuck live run: the one place the live runner turns its typed facts into
/// the sentences learners read, with the snippet's names for ids. Its words differ from the
/// model's `Narrator` on purpose: a live run knows only whether a thread is the main one ("the
/// main thread", "a thread"), and it says `addOperations(_:waitUntilFinished: true)`.
struct LiveNarration {
    private let names: Narrator

    init(program: Program) {
        names = Narrator(program: program)
    }

    /// The reason a hung run reports: every hold, in the order `StuckAnalysis` gives them.
    func hung(_ holds: [LiveHold]) -> String {
        sentences(holds).joined(separator: "; ")
    }

    /// One sentence per hold; a sentence said by several threads or blocks comes once, with how
    /// many ("2× a thread waits…"). Notify blocks come last, in the order of their sentences.
    func sentences(_ holds: [LiveHold]) -> [String] {
        Section.allCases.flatMap { section in
            let said = holds.filter { Section(of: $0) == section }.map(sentence)
            return Narrator.countingDuplicates(section == .notifies ? said.sorted() : said)
        }
    }

    func sentence(_ hold: LiveHold) -> String {
        switch hold {
        case .wait(let wait, let line, let onMainThread):
            "\(onMainThread ? "the main thread" : "a thread") waits in \(call(wait)) at line \(line)"
        case .block(let line, let holder):
            "the block submitted at line \(line) waits for \(words(holder))"
        case .operation(let operation, let line, let holder):
            "operation \(names.name(operation)) (line \(line)) waits for \(words(holder))"
        case .groupNotify(_, let line):
            "a group's notify block (line \(line)) waits for the group to empty"
        case .workItemNotify(_, let line):
            "a work item's notify block (line \(line)) waits for the item to run"
        }
    }

    /// The call a thread blocks in, as the snippet wrote it: "s.wait()".
    func call(_ wait: LiveWait) -> String {
        switch wait {
        case .sync(let queue): "\(names.name(queue)).sync"
        case .group(let group): "\(names.name(group)).wait()"
        case .semaphore(let semaphore): names.call(semaphore, .wait)
        case .timeout(.group(let group)): "\(names.name(group)).wait(timeout:)"
        case .timeout(.semaphore(let semaphore)): "\(names.name(semaphore)).wait(timeout:)"
        case .workItem(let item): "\(names.name(item)).wait()"
        case .operation(let operation): "\(names.name(operation)).waitUntilFinished()"
        case .allOperations(let queue): "\(names.name(queue)).waitUntilAllOperationsAreFinished()"
        case .addedOperations(let queue): "\(names.name(queue)).addOperations(_:waitUntilFinished: true)"
        }
    }

    /// What a block or operation waits for: "serialQueue, behind another block".
    func words(_ holder: LiveHolder) -> String {
        switch holder {
        case .blockedMainThread: "the main thread, which is blocked"
        case .inactiveQueue(let queue): "\(names.name(queue)), which was never activated"
        case .busySerialQueue(let queue): "\(names.name(queue)), busy with a block that cannot finish"
        case .blockAhead(let queue): "\(names.name(queue)), behind another block"
        case .runningBlocks(let queue): "\(names.name(queue)) to empty (a barrier), which it never does"
        case .runningBarrier(let queue): "a barrier on \(names.name(queue)) that cannot finish"
        case .barrierAhead(let queue): "\(names.name(queue)), behind a barrier"
        case .suspendedOperationQueue: "its queue, which is suspended"
        case .unfinishedDependency: "a dependency that never finishes"
        case .noFreeSlot(let limit): "a free slot in its queue (maxConcurrentOperationCount \(limit))"
        }
    }

    /// The report's parts, each counted on its own: blocked threads, then held work, then notifies.
    private enum Section: CaseIterable {
        case waits, held, notifies

        init(of hold: LiveHold) {
            switch hold {
            case .wait: self = .waits
            case .block, .operation: self = .held
            case .groupNotify, .workItemNotify: self = .notifies
            }
        }
    }
}
