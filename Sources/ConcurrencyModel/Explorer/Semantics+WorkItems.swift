/// The model's rules for `DispatchWorkItem`: submit, cancel, wait, notify, perform, following
/// libdispatch (queue.c: `_dispatch_block_async_invoke2`, `dispatch_block_wait`,
/// `dispatch_block_notify`): an item counts its runs, remembers a `perform()` and a submission
/// not yet run, and crashes the process when it is waited for twice, or run more than once and
/// waited for or observed.
extension Semantics {
    func workItemStep(_ item: WorkItemID, _ action: WorkItemAction, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        let decl = program.workItems[item.index]
        switch action {
        case .submit(let queue, let group):
            state.enqueue(on: queue, .async(decl.body, captures: [:], barrier: decl.barrier, group: group, task: .workItem(item)))
            state.workItems[item.index].submissionPending = true
            if let group { state.groups[group.index].count += 1 }
            return .moves(.enqueued(queue: queue), advancesPC: true)
        case .submitAfter(let queue, let delay):
            let microseconds = try self.microseconds(delay, for: site.thread, in: state)
            // dispatch_after records the queue on the item as it is called (its continuation is
            // made then), and the timer submits the item when due.
            state.workItems[item.index].submissionPending = true
            state.timers.append(TimerEntry(due: state.later(by: microseconds), queue: queue, body: decl.body, captures: [:], workItem: item))
            return .moves(.schedules(queue: queue, microseconds: microseconds), advancesPC: true)
        case .cancel:
            state.globals[decl.cancelled.index] = .bool(true)
            return .moves(.workItemCancel(item: item), advancesPC: true)
        case .wait:
            return waitStep(item, at: site, in: &state)
        case .notify(let queue, let body):
            if state.workItems[item.index].runs > 1 {
                return .ends(misuse(.runMoreThanOnceAndObserved, item, at: site, in: state))
            }
            let entry = NotifyEntry(queue: queue, body: body, captures: visibleLocals(of: site.thread))
            if state.workItems[item.index].executed {
                submit([entry], in: &state)
            } else {
                state.workItems[item.index].notify.append(entry)
            }
            return .moves(.workItemNotify(item: item, queue: queue), advancesPC: true)
        case .perform:
            if state.workItems[item.index].waitReturned {
                return .ends(misuse(.runMoreThanOnceAndWaited, item, at: site, in: state))
            }
            state.workItems[item.index].performedDirectly = true
            if state.globals[decl.cancelled.index] == .bool(true) {
                executed(item, fromQueue: false, in: &state)
                return .moves(.workItemPerform(item: item), advancesPC: true)
            }
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.threads[site.index].frames.append(Frame(block: decl.body, role: .branch, task: .workItem(item)))
            return .moves(.workItemPerform(item: item), advancesPC: false)
        }
    }

    /// `item.wait()`: libdispatch checks for misuse as the call begins (a second wait; an item
    /// run twice, or performed and also waiting in a queue), then waits until the item has run.
    /// An item that has run already returns at once, in one step.
    private func waitStep(_ item: WorkItemID, at site: StepSite, in state: inout MachineState) -> StepEffect {
        if site.thread.waitsForWorkItem {
            state.threads[site.index].waitsForWorkItem = false
            state.workItems[item.index].waitReturned = true
            return .moves(.workItemWaitReturns(item: item), advancesPC: true)
        }
        let current = state.workItems[item.index]
        if current.waitCalled {
            return .ends(misuse(.waitedTwice, item, at: site, in: state))
        }
        if current.runs > 1 || (current.performedDirectly && current.submissionPending) {
            return .ends(misuse(.runMoreThanOnceAndWaited, item, at: site, in: state))
        }
        state.workItems[item.index].waitCalled = true
        state.workItems[item.index].submissionPending = false
        if current.executed {
            state.workItems[item.index].waitReturned = true
            return .moves(.workItemWaitReturns(item: item), advancesPC: true)
        }
        state.threads[site.index].waitsForWorkItem = true
        return .moves(.workItemWaitStarts(item: item), advancesPC: false)
    }

    private func misuse(_ misuse: WorkItemMisuse, _ item: WorkItemID, at site: StepSite, in state: MachineState) -> Result {
        let reason = DeadlockReason.workItemMisuse(thread: site.thread.threadID, item: item, misuse: misuse, at: site.statement.span)
        return site.trapped(state, .crashes(reason), reason)
    }

    /// A work item has run (or been skipped, cancelled): its notify blocks are submitted.
    /// A run from a queue takes the submission libdispatch recorded on the item.
    func executed(_ item: WorkItemID, fromQueue: Bool, in state: inout MachineState) {
        state.workItems[item.index].executed = true
        state.workItems[item.index].runs = min(state.workItems[item.index].runs + 1, 2)
        if fromQueue { state.workItems[item.index].submissionPending = false }
        submit(state.workItems[item.index].notify, in: &state)
        state.workItems[item.index].notify.removeAll()
    }
}
