import ConcurrencyModel

/// The answer in the other mode, where the upcoming feature NonisolatedNonsendingByDefault
/// (SE-0461; on in Xcode 26's Approachable Concurrency setting) would change it: a learner whose
/// project turns it on sees another order, and `solve` says so beside the answer.
public struct ModeAlternative: Sendable {
    public var mode: LanguageMode
    public var exploration: Exploration
}

extension Puzzle {
    /// The answer with NonisolatedNonsendingByDefault turned on, when the snippet declares a plain
    /// nonisolated `async` function, the feature is off, and the outcomes differ; nil otherwise.
    public func nonsendingAlternative(to answer: Exploration, explorer: Explorer, machine: Machine) -> ModeAlternative? {
        guard program.dependsOnNonsendingDefault, !(program.mode?.runsNonisolatedAsyncOnCaller ?? false) else { return nil }
        var mode = program.mode ?? LanguageMode(swiftVersion: 6)
        mode.upcomingFeatures.append(LanguageMode.nonisolatedNonsendingByDefault)
        guard case .success(let other) = SnippetCompiler.compile(code, fileName: name, mode: mode) else { return nil }
        let exploration = explorer.explore(other, for: machine)
        guard exploration.isComplete, answer.isComplete, Set(exploration.outcomes) != Set(answer.outcomes) else { return nil }
        return ModeAlternative(mode: mode, exploration: exploration)
    }
}
