/// The model's rules for dispatch groups: enter, leave, wait and notify.
extension Semantics {
    func groupStep(_ group: GroupID, _ action: GroupAction, at site: StepSite, in state: inout MachineState) -> StepEffect {
        let name = program.groups[group.index].name
        switch action {
        case .enter:
            state.groups[group.index].count += 1
            return .moves(.groupEnter(group: name), advancesPC: true)
        case .leave:
            if let trap = leave(group, in: &state, thread: site.thread, span: site.statement.span) { return .ends(trap) }
            return .moves(.groupLeave(group: name), advancesPC: true)
        case .wait:
            return .moves(.groupWaitReturns(group: name), advancesPC: true)
        case .notify(let queue, let body):
            let entry = NotifyEntry(queue: queue, body: body, captures: visibleLocals(of: site.thread))
            if state.groups[group.index].count == 0 {
                submit([entry], in: &state)
            } else {
                state.groups[group.index].notify.append(entry)
            }
            return .moves(.groupNotify(group: name, queue: program[queue].name), advancesPC: true)
        }
    }

    /// A block leaves a group; when it empties, its notify blocks are submitted, in order.
    /// Leaving a group more often than it was entered crashes libdispatch.
    private func leave(_ group: GroupID, in state: inout MachineState, thread: ThreadState, span: SourceSpan) -> Result? {
        guard leaveGroup(group, in: &state) else {
            let name = program.groups[group.index].name
            let step = ScheduleStep(thread: thread.name, queue: thread.currentQueue.map { program[$0].name }, event: .traps(queue: name), span: span)
            return .trapped(state, step, .unbalancedLeave(thread: thread.threadID, group: group, at: span))
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
