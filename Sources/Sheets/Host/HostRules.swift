import ConcurrencyModel

/// What every trace question's answer depends on besides its own code: the prelude the host puts
/// in front of it and the host's rules (the main thread serves the main queue once the top-level
/// code ends; what "deadlock" covers). A printed sheet states them once at its top; an export
/// states them in every trace question, since an LMS or a flashcard shows a question alone.
public enum HostRules {
    /// The prelude, as the snippet runs after it.
    public static let prelude = Prelude.source

    /// The host's rules in one paragraph: how a snippet runs and what an outcome is.
    public static let paragraph = """
        Each snippet runs after this prelude, as the top-level code of a program on the main \
        thread. When the top-level code ends, the main thread serves the main queue \
        (DispatchQueue.main, OperationQueue.main) until no work is left anywhere, as a \
        Playground or dispatchMain() does: work sent to the main queue does run. An outcome is \
        the lines printed, in order, then how the run ends: finished when every piece of \
        submitted work ran to completion, or deadlock where it stops — a trap (such as a sync \
        onto the serial queue the thread is already running, which crashes the process at once) \
        or work that can never run (threads waiting on each other, a semaphore nobody signals, \
        a group that never empties). Answers are for a machine with enough CPU cores that no \
        block waits for a worker thread; an outcome only a machine with fewer cores (or only \
        Apple's or Linux's Foundation) shows is marked so, and neither needed nor wrong.
        """

    /// The rules Swift-concurrency snippets add (README, "Swift concurrency (the model side)"):
    /// the language mode, where tasks and actors run, and what keeps the run going.
    public static let swiftConcurrencyParagraph = """
        A snippet that uses Swift concurrency compiles in Swift 6 mode, where the top-level code \
        runs on the main actor: main-actor jobs and main-queue blocks wait in one line, served \
        in order by the main thread. Tasks not isolated to an actor run on the global executor, \
        a pool of threads as wide as the cores; an actor runs one job at a time and is free \
        again at each await. The run goes on until no task, job, timer or queue item is left; \
        a task that can never resume (a continuation nobody resumes, a pool whose every thread \
        is blocked) is a deadlock, and a continuation resumed twice traps.
        """

    /// The host's rules for trace questions: the Swift-concurrency rules are added when one of
    /// them uses Swift concurrency (its program runs tasks), since only those answers depend on them.
    public static func paragraph(swiftConcurrency: Bool) -> String {
        swiftConcurrency ? paragraph + " " + swiftConcurrencyParagraph : paragraph
    }

    /// How to write an answer on paper.
    public static let notation = """
        Write an outcome as the lines it prints, in order, then how the run ends: finished, or \
        deadlock where it stops.
        """
}
