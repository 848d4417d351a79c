import Foundation

/// Every answer the drill grades is recorded in a progress database: a test that does not choose
/// where (with `GCDQUIZ_PROGRESS`, `XDG_DATA_HOME` or a `HOME` of its own) gets a database of its
/// own, so that no test reads another's answers (a returning learner's drill starts with what is
/// due) or writes into the real home folder.
struct IsolatedProgress {
    let path: String?

    /// `environment` as the child will see it, with a fresh database when it chose none.
    init(_ environment: inout [String: String]) {
        let real = ProcessInfo.processInfo.environment
        let chosen = environment["GCDQUIZ_PROGRESS"] != real["GCDQUIZ_PROGRESS"] || environment["XDG_DATA_HOME"] != real["XDG_DATA_HOME"]
            || environment["HOME"] != real["HOME"]
        guard !chosen else {
            path = nil
            return
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-e2e-progress-\(UUID().uuidString).sqlite").path
        environment["GCDQUIZ_PROGRESS"] = path
        self.path = path
    }

    /// Removes the database and its WAL companions.
    func remove() {
        guard let path else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
