/// The model's rules for variables: what a thread sees, and what an assignment reads and writes.
extension Semantics {
    /// A variable's value as the thread sees it: its closure's locals, or the shared globals.
    func value(of variable: VariableID, for thread: ThreadState, in state: MachineState) -> Value? {
        if program[variable].isGlobal { return state.globals[variable.index] }
        return local(variable, of: thread)
    }

    /// A local's value as the thread sees it: its closure's frames, innermost first.
    func local(_ variable: VariableID, of thread: ThreadState) -> Value? {
        // Frames are read in place (a copy of each would retain its dictionary and role).
        var index = thread.frames.count - 1
        while index >= 0 {
            if let value = thread.frames[index].locals[variable] { return value }
            if thread.frames[index].role.isClosureRoot { break }
            index -= 1
        }
        return nil
    }

    /// Every local the thread can see, innermost first: what a closure submitted now captures.
    func visibleLocals(of thread: ThreadState) -> [VariableID: Value] {
        var index = thread.frames.count - 1
        // Most closures see the locals of one frame: share its dictionary.
        if index >= 0 && thread.frames[index].role.isClosureRoot { return thread.frames[index].locals }
        var locals: [VariableID: Value] = [:]
        while index >= 0 {
            for (key, value) in thread.frames[index].locals where locals[key] == nil { locals[key] = value }
            if thread.frames[index].role.isClosureRoot { break }
            index -= 1
        }
        return locals
    }

    func setLocal(_ variable: VariableID, _ value: Value, thread t: Int, in state: inout MachineState) {
        var index = state.threads[t].frames.count - 1
        while index >= 0 {
            if state.threads[t].frames[index].locals[variable] != nil { break }
            if state.threads[t].frames[index].role.isClosureRoot { index = -1; break }
            index -= 1
        }
        let target = index >= 0 ? index : state.threads[t].frames.count - 1
        state.threads[t].frames[target].locals[variable] = value
    }

    func evaluate(_ expression: Expression, for thread: ThreadState, in state: MachineState) throws(EvaluationError) -> Value {
        // The lookup captures the globals and the thread, not the whole state: a closure over the
        // state would copy it, array by array, at every evaluation. It reaches the program through
        // `self` (a copy of the `Program` struct would retain each of its arrays, every time).
        // Nor the thread: the closure's captures are passed along at each nested evaluation, and a
        // `ThreadState` is ten fields to copy each time.
        let globals = state.globals
        let frames = thread.frames
        let specifics = state.specifics
        let threadID = thread.id
        return try expression.evaluate({ variable in
            if self.program.variables[variable.index].reflects == .specificKey {
                let current = frames.last { $0.role.queue != nil }?.role.queue
                return Semantics.specificValue(variable, currentQueue: current, threadID: threadID, program: self.program, specifics: specifics)
            }
            if self.program.variables[variable.index].isGlobal { return globals[variable.index] }
            var index = frames.count - 1
            while index >= 0 {
                if let value = frames[index].locals[variable] { return value }
                if frames[index].role.isClosureRoot { break }
                index -= 1
            }
            return nil
        }, isMainThread: thread.id == MachineState.mainThreadID && !state.mainThreadLeft)
    }

    /// The value an assignment writes, computed from what it reads.
    func assignedValue(_ assignment: Assignment, for thread: ThreadState, in state: MachineState) throws(EvaluationError) -> Value {
        try assignment.result(
            current: value(of: assignment.target, for: thread, in: state),
            operand: evaluate(assignment.value, for: thread, in: state),
            position: assignment.index.map { index throws(EvaluationError) in try evaluate(index, for: thread, in: state) })
    }

    /// Whether an assignment is a read step and then a separate write step: it writes a shared
    /// variable from something it reads (`x += 1`, `x = y`), so other threads can come between.
    func isTwoPhase(_ assignment: Assignment) -> Bool { Self.isTwoPhase(assignment, in: program) }

    static func isTwoPhase(_ assignment: Assignment, in program: Program) -> Bool {
        program[assignment.target].isGlobal
            && (assignment.readsTarget || assignment.operandsRead.contains { program[$0].isGlobal })
    }

    /// A two-phase assignment reads in one step and writes in the next; the statement is done
    /// only after the write.
    func assignStep(_ assignment: Assignment, at site: StepSite, in state: inout MachineState) throws(EvaluationError) -> StepEffect {
        // `list[i] op= v` reads the element and writes it back in place, into the array as it is
        // then (another thread's write to another element is not lost). A dictionary's entry is
        // a read of the whole dictionary and a write of it back, as Swift's copy-on-write does.
        if let indexExpression = assignment.index, !assignment.keyed, isTwoPhase(assignment) {
            if site.thread.pendingWrite == nil {
                guard case .int(let position) = try evaluate(indexExpression, for: site.thread, in: state),
                    case .list(let items)? = value(of: assignment.target, for: site.thread, in: state)
                else { throw .undefined("a subscript of a value that is not an array") }
                guard items.indices.contains(position) else { throw .runtime(.indexOutOfRange) }
                let element = Assignment(target: assignment.target, operation: assignment.operation, value: assignment.value)
                state.threads[site.index].pendingWrite = try element.result(current: items[position], operand: evaluate(assignment.value, for: site.thread, in: state))
                state.threads[site.index].pendingIndex = position
                return .moves(.reads(variable: assignment.target), advancesPC: false)
            }
            guard case .list(var items)? = state.globals[assignment.target.index], let position = site.thread.pendingIndex, let element = site.thread.pendingWrite
            else { throw .undefined("a subscript of a value that is not an array") }
            guard items.indices.contains(position) else { throw .runtime(.indexOutOfRange) }
            items[position] = element
            state.threads[site.index].pendingWrite = nil
            state.threads[site.index].pendingIndex = nil
            state.globals[assignment.target.index] = .list(items)
            return .moves(.writes(variable: assignment.target, value: .list(items)), advancesPC: true)
        }
        if isTwoPhase(assignment) && site.thread.pendingWrite == nil {
            state.threads[site.index].pendingWrite = try assignedValue(assignment, for: site.thread, in: state)
            return .moves(.reads(variable: assignment.target), advancesPC: false)
        }
        let value: Value
        if let pending = site.thread.pendingWrite {
            value = pending
        } else {
            value = try assignedValue(assignment, for: site.thread, in: state)
        }
        state.threads[site.index].pendingWrite = nil
        if program[assignment.target].isGlobal {
            state.globals[assignment.target.index] = value
        } else {
            setLocal(assignment.target, value, thread: site.index, in: &state)
        }
        return .moves(.writes(variable: assignment.target, value: value), advancesPC: true)
    }
}
