/// The words for data races: which variable, which accesses, on which threads.
extension Narrator {
    /// The race in one sentence, as sheets and exports print it: "data race on num: write at
    /// line 4 (worker 1) and read at line 6 (main) can happen at the same time".
    public func words(for race: DataRace) -> String {
        subject(of: race) + ": " + accesses(of: race)
    }

    /// What the race is on, to head its sentence: "data race on num".
    public func subject(of race: DataRace) -> String {
        "data race on \(name(race.variable))"
    }

    /// The two accesses that meet: "write at line 4 (worker 1) and read at line 6 (main) can
    /// happen at the same time"; with `articles`, "a write … and a read …", as the terminal says
    /// it; without `threads`, no thread named, as a generated puzzle's explanation says it.
    public func accesses(of race: DataRace, articles: Bool = false, threads: Bool = true) -> String {
        func describe(_ access: DataRace.Access) -> String {
            let kind = access.isWrite ? "write" : "read"
            return "\(articles ? "a " + kind : kind) at line \(access.span.line)" + (threads ? " (\(thread(access.thread)))" : "")
        }
        return "\(describe(race.first)) and \(describe(race.second)) can happen at the same time"
    }
}
