import ConcurrencyModel

/// A witness schedule as a numbered table: which thread did what, on which queue, at which line.
/// Each row is wrapped at the terminal's width under its own action column, never mid-word.
enum ScheduleRenderer {
    static func render(_ steps: [ScheduleStep], narrator: Narrator, style: TerminalStyle, indent: String = "  ") -> String {
        guard !steps.isEmpty else { return indent + style.dim("(no step: nothing runs)") + "\n" }
        let who = steps.map(narrator.who)
        let whoWidth = who.map(\.count).max() ?? 0
        let numberWidth = String(steps.count).count
        // On a narrow terminal a long "who" column would leave no room: the action goes below it.
        let prefixWidth = indent.count + numberWidth + 2 + whoWidth + 2
        let actionBelow = style.width.map { prefixWidth > $0 / 2 } ?? false
        var text = ""
        for (index, step) in steps.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: numberWidth - number.count) + number
            let place = step.span.map { style.dim("(line \($0.line))") }
            let action = [self.action(step, narrator: narrator, style: style), place].compactMap { $0 }.joined(separator: "  ")
            let head = "\(indent)\(style.dim(padded + ".")) "
            if actionBelow {
                text += head + who[index] + "\n"
                let hanging = indent.count + numberWidth + 4
                text += style.wrapped(String(repeating: " ", count: hanging) + action, firstLineWidth: 0, indent: hanging) + "\n"
            } else {
                let row = head + who[index].padding(toLength: whoWidth, withPad: " ", startingAt: 0) + "  " + action
                text += style.wrapped(row, firstLineWidth: 0, indent: prefixWidth) + "\n"
            }
        }
        return text
    }

    /// The schedule in one sentence of what was printed, by whom: "main prints 2, then worker 1
    /// on serialQueue prints 1, …", ending with a trap or crash if the run ends in one. Short
    /// enough to sit under a verdict; `:more` shows the whole table.
    static func summary(_ steps: [ScheduleStep], narrator: Narrator, style: TerminalStyle) -> String {
        var parts: [String] = []
        for step in steps {
            guard let seen = seen(step.event) else { continue }
            let who = narrator.who(step)
            switch seen {
            case .printed(let line): parts.append("\(who) prints \(style.bold(line))")
            case .traps: parts.append(who + " " + style.red("traps: libdispatch kills the process"))
            case .crashes(let reason): parts.append(who + " " + style.red("crashes: " + narrator.crash(reason)))
            }
        }
        guard !parts.isEmpty else { return "nothing is printed" }
        return parts.joined(separator: ", then ")
    }

    private static func action(_ step: ScheduleStep, narrator: Narrator, style: TerminalStyle) -> String {
        switch seen(step.event) {
        case .printed(let line): "prints " + style.bold(line)
        case .traps, .crashes: style.red(narrator.action(step))
        case nil: narrator.action(step)
        }
    }

    /// What a learner sees of a step from outside the process: a printed line, or the process dying.
    private enum Seen {
        case printed(String)
        case traps
        case crashes(DeadlockReason)
    }

    /// nil for the machinery in between, which the one-sentence summary leaves out and the table
    /// does not highlight. Every event is listed, so a new one is placed here on purpose.
    private static func seen(_ event: ScheduleStep.Event) -> Seen? {
        switch event {
        case .printed(let line): .printed(line)
        case .traps: .traps
        case .crashes(let reason): .crashes(reason)
        case .enqueued, .waits, .startsItem, .startsItemOnAddedThread, .entersSync, .reads, .readsForPrint, .writes, .loops, .branches, .testsWhile, .groupEnter,
            .groupLeave, .groupWaitReturns, .groupNotify, .semaphoreWaitReturns, .semaphoreSignal, .lockTakenAgain, .lockStillHeld,
            .unlockIgnored, .schedules, .asyncAndWaitRunsHere, .asyncAndWaitWaits, .runsAsyncAndWait,
            .timerFires, .timerScheduled, .timerHandlerSet, .timerActivated, .timerCancelled, .timerSourceFires, .timerSourceMerges,
            .timerHandlerSkipped, .clock, .clockWhileWaitingForWorker, .sleeps, .wakes, .waitsWithTimeout, .waitEnds,
            .activates, .setsQueue, .drainsTargetedQueue, .preconditionHolds, .performs, .takesIteration, .helpsPerform, .leavesPerform, .performReturns,
            .workItemCancel, .workItemWaitReturns, .workItemWaitStarts, .exitsLoop, .monitorAddsSpareThread, .workItemNotify, .workItemPerform, .workItemSkipped, .calls,
            .operationCreated, .operationBlockAdded, .dependencyAdded, .completionSet, .priorityChanged,
            .operationCancel, .operationWaitReturns, .operationsAdded, .operationLimit, .operationQueueSuspended,
            .operationCancelAll, .operationWaitAllReturns, .operationsWaitReturns, .startsOperation,
            .operationSkipped, .operationFinishes, .operationStartedHere, .operationStartReturns, .returns,
            .spawnsTask, .addsNoChild, .runsTask, .runsTaskAhead, .passesTask, .blockReturns, .yields, .sleepsTask, .taskWakes, .awaitsTask, .getsValue, .switchesTo,
            .hopsTo, .staysOn, .startsTaskGroup, .takesChild, .groupDrained, .awaitsGroup, .cancels, .readsCancelled, .registersCancellationHandler, .removesCancellationHandler, .runsCancellationHandlers, .bindsTaskLocal, .unbindsTaskLocal, .readsTaskLocal, .throwsError, .entersDo, .throwsNothing,
            .startsContinuation, .resumesContinuation, .skipsNilResume, .awaitsContinuation, .continuationReturns, .startsStream, .streamYields,
            .streamFinishes, .streamFails, .takesElement, .streamEnds, .streamThrows, .awaitsStream: nil
        }
    }
}
