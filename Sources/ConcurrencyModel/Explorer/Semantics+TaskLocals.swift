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
            var bindings = taskLocalBindings(of: site.thread, in: state)
            bindings.append(TaskLocalBinding(local: local.index, value: value))
            setTaskLocalBindings(bindings, of: site, in: &state)
            return .moves(.bindsTaskLocal(local, value), advancesPC: true)
        case .unbind(let local):
            var bindings = taskLocalBindings(of: site.thread, in: state)
            guard bindings.last?.local == local.index else { throw .undefined("a task-local binding ended out of order") }
            bindings.removeLast()
            setTaskLocalBindings(bindings, of: site, in: &state)
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

    /// Sets the bindings where `taskLocalBindings` reads them.
    private func setTaskLocalBindings(_ bindings: [TaskLocalBinding], of site: StepSite, in state: inout MachineState) {
        if let task = site.thread.task {
            state.tasks[task].taskLocals = bindings
        } else {
            state.threads[site.index].taskLocals = bindings
        }
    }
}

/// One `withValue` binding in force: the task-local (`TaskLocalID.index`) and its value.
struct TaskLocalBinding: Hashable {
    var local: Int
    var value: Value
}
