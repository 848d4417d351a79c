/// The model's rules for dispatch groups: enter, leave, wait and notify.
extension Semantics {
    func groupStep(_ group: GroupID, _ action: GroupAction, at site: StepSite, in state: inout MachineState) -> StepEffect {
        switch action {
        case .enter:
            state.groups[group.index].count += 1
            return .moves(.groupEnter(group: group), advancesPC: true)
        case .leave:
            if let trap = leave(group, in: &state, thread: site.thread, span: site.statement.span) { return .ends(trap) }
            return .moves(.groupLeave(group: group), advancesPC: true)
        case .wait:
            return .moves(.groupWaitReturns(group: group), advancesPC: true)
        case .notify(let queue, let body):
            let entry = NotifyEntry(queue: queue, body: body, captures: visibleLocals(of: site.thread))
            if state.groups[group.index].count == 0 {
                submit([entry], in: &state)
            } else {
                state.groups[group.index].notify.append(entry)
            }
            return .moves(.groupNotify(group: group, queue: queue), advancesPC: true)
        }
    }

    /// A block leaves a group; when it empties, its notify blocks are submitted, in order.
    /// Leaving a group more often than it was entered crashes libdispatch.
    private func leave(_ group: GroupID, in state: inout MachineState, thread: ThreadState, span: SourceSpan) -> Result? {
        guard leaveGroup(group, in: &state) else {
            let reason = DeadlockReason.unbalancedLeave(thread: thread.threadID, group: group, at: span)
            return .trapped(state, ScheduleStep(thread: thread.threadID, queue: thread.currentQueue, event: .traps(reason), span: span), reason)
        }
        return nil
    }

    /// One block leaves the group; if it empties, its notify blocks are submitted. Returns false
    /// when the group had nobody in it (libdispatch crashes).
    func leaveGroup(_ group: GroupID, in state: inout MachineState) -> Bool {
        state.groups[group.index].count -= 1
        if state.groups[group.index].count < 0 { return false }
        if state.groups[group.index].count == 0 {
            submit(state.groups[group.index].notify, in: &state)
            state.groups[group.index].notify.removeAll()
        }
        return true
    }
}
