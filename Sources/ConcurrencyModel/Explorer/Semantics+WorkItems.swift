/// The model's rules for `DispatchWorkItem`: submit, cancel, wait, notify, perform.
extension Semantics {
    func workItemStep(_ item: WorkItemID, _ action: WorkItemAction, at site: StepSite, in state: inout MachineState) -> StepEffect {
        let decl = program.workItems[item.index]
        switch action {
        case .submit(let queue, let group):
            state.enqueue(on: queue, .async(decl.body, captures: [:], barrier: decl.barrier, group: group, task: .workItem(item)))
            if let group { state.groups[group.index].count += 1 }
            return .moves(.enqueued(queue: queue), advancesPC: true)
        case .cancel:
            state.globals[decl.cancelled.index] = .bool(true)
            return .moves(.workItemCancel(item: item), advancesPC: true)
        case .wait:
            return .moves(.workItemWaitReturns(item: item), advancesPC: true)
        case .notify(let queue, let body):
            let entry = NotifyEntry(queue: queue, body: body, captures: visibleLocals(of: site.thread))
            if state.workItems[item.index].executed {
                submit([entry], in: &state)
            } else {
                state.workItems[item.index].notify.append(entry)
            }
            return .moves(.workItemNotify(item: item, queue: queue), advancesPC: true)
        case .perform:
            if state.globals[decl.cancelled.index] == .bool(true) {
                executed(item, in: &state)
                return .moves(.workItemPerform(item: item), advancesPC: true)
            }
            state.threads[site.index].frames[site.frameIndex].pc += 1
            state.threads[site.index].frames.append(Frame(block: decl.body, role: .branch, task: .workItem(item)))
            return .moves(.workItemPerform(item: item), advancesPC: false)
        }
    }

    /// A work item has run (or been skipped, cancelled): its notify blocks are submitted.
    func executed(_ item: WorkItemID, in state: inout MachineState) {
        state.workItems[item.index].executed = true
        submit(state.workItems[item.index].notify, in: &state)
        state.workItems[item.index].notify.removeAll()
    }
}
