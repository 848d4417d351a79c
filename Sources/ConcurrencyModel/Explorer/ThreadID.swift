/// A thread of the model, as its facts name it: the main thread, or a worker numbered in the
/// order it started. Typed, so that a fact says which thread and only the narrator says it in words.
public enum ThreadID: Hashable, Sendable {
    case main
    case worker(Int)
    /// libdispatch itself, taking a cancelled work item off its queue (a witness step's actor).
    case libdispatch
    /// Foundation itself, finishing a cancelled or empty operation without running it.
    case foundation
    /// An `asyncAfter` timer that fires.
    case timer
    /// The logical clock, moving on.
    case clock

    /// The model's own numbering (`MachineState.mainThreadID` is the main thread).
    init(_ number: Int) {
        self = number == MachineState.mainThreadID ? .main : .worker(number)
    }
}
