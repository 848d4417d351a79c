/// The model's rules for task-local values (swiftlang/swift `TaskLocal.swift`, `TaskLocal.cpp`,
/// and swiftc runs pinned in `TaskLocalTests`): `withValue` pushes a binding on the running
/// task's stack (outside any task, on the thread's: the runtime's thread-local fallback) and its
/// end pops it; a read takes the innermost binding of that key, else the default. A task copies
/// its creator's bindings when it is made (`spawnStep`), except `Task.detached`.
extension Semantics {
    func taskLocalStep(_ action: TaskLocalAction, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        switch action {
        case .bind(let local, let expression):
            let value = try evaluate(expression, for: site.thread, in: state)
            let binding = TaskLocalBinding(local: local.index, value: value)
            if let task = site.thread.task {
                state.tasks[task].taskLocals.append(binding)
            } else {
                state.threads[site.index].taskLocals.append(binding)
            }
            return .moves(.bindsTaskLocal(local, value), advancesPC: true)
        case .unbind(let local):
            if let task = site.thread.task {
                guard state.tasks[task].taskLocals.last?.local == local.index else { throw .undefined("a task-local binding ended out of order") }
                state.tasks[task].taskLocals.removeLast()
            } else {
                guard state.threads[site.index].taskLocals.last?.local == local.index else { throw .undefined("a task-local binding ended out of order") }
                state.threads[site.index].taskLocals.removeLast()
            }
            return .moves(.unbindsTaskLocal(local), advancesPC: true)
        case .read(let local, let variable):
            let value = taskLocalBindings(of: site.thread, in: state).last { $0.local == local.index }?.value
                ?? program.taskLocals[local.index].initial
            assign(variable, value, thread: site.index, in: &state)
            return .moves(.readsTaskLocal(local, value), advancesPC: true)
        }
    }

    /// The bindings code on `thread` sees: its task's, or (outside any task) the thread's own.
    func taskLocalBindings(of thread: ThreadState, in state: MachineState) -> [TaskLocalBinding] {
        thread.task.map { state.tasks[$0].taskLocals } ?? thread.taskLocals
    }
}

/// One `withValue` binding in force: the task-local (`TaskLocalID.index`) and its value.
struct TaskLocalBinding: Hashable {
    var local: Int
    var value: Value
}
