import ArgumentParser
import Foundation
import Progress

/// `--progress PATH` and `--retention R`, shared by the commands that read or record progress.
struct ProgressOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The progress database (default: $GCDQUIZ_PROGRESS, or $XDG_DATA_HOME/gcdquiz/progress.sqlite, ~/.local/share/gcdquiz/progress.sqlite).", valueName: "path"))
    var progress: String?

    @Option(name: .long, help: ArgumentHelp("The desired retention the schedule aims at: a question is due when the chance of recalling it falls below this (0.70–0.99).", valueName: "r"))
    var retention = 0.9

    func validate() throws {
        if !(0.7...0.99).contains(retention) { throw ValidationError("--retention must be between 0.70 and 0.99") }
    }

    /// Where the database is, or a clear error when no location can be found.
    func path() throws -> String {
        guard let path = ProgressLocation.resolve(explicit: progress) else {
            throw CommandFailure.badInput("no place for the progress database: pass --progress PATH, or set \(ProgressLocation.environmentVariable), XDG_DATA_HOME or HOME")
        }
        return path
    }

    var scheduler: CardScheduler { CardScheduler(desiredRetention: retention) }

    /// Opens the database, creating it if needed; notices (a file set aside, a read-only file) go
    /// to standard error.
    func open() throws -> StoreOpening {
        let opening = ProgressStore.open(at: try path())
        opening.notices.forEach(Self.say)
        return opening
    }

    /// Opens a database that is there, to read it: when nothing of it can be read (a FIFO at the
    /// path, a newer gcdquiz's file, a damaged file that cannot be moved aside), the reason is
    /// the failure, rather than a report of no answers.
    func openToRead() throws -> ProgressStore {
        let opening = ProgressStore.open(at: try path())
        guard let store = opening.store else {
            throw CommandFailure.badInput(opening.notices.isEmpty ? "cannot read the progress database \(try path())" : opening.notices.joined(separator: "\ngcdquiz: "))
        }
        opening.notices.forEach(Self.say)
        return store
    }

    /// A notice about the progress file on standard error, wrapped at a terminal's width (the
    /// paths make it long).
    static func say(_ notice: String) {
        Output.write(TerminalStyle.current(for: .standardError).wrappedLines("gcdquiz: " + notice) + "\n", to: .standardError)
    }

    /// Every card's state, with the reviews of the last `days` days: none when there is no
    /// database yet (reading does not create one).
    func history(days: Int) throws -> ProgressHistory {
        let path = try path()
        guard FileManager.default.fileExists(atPath: path) else { return ProgressHistory(reviews: [], scheduler: scheduler) }
        let since = Date().addingTimeInterval(-Double(days) * 86_400)
        // Reading alone needs neither a writable connection nor the check of every page; a file
        // that is not sound and current as it is (damaged where read, card states to derive again,
        // to migrate) takes the full opening, which sets a bad file aside.
        if let history = ProgressStore.currentHistory(at: path, scheduler: scheduler, reviewsSince: since) { return history }
        let store = try openToRead()
        do {
            return try store.history(scheduler: scheduler, reviewsSince: since)
        } catch {
            throw CommandFailure.unexpected("cannot read the progress database \(store.path): \(error)")
        }
    }

    /// Every recorded review, oldest first: none when there is no database yet (reading does not
    /// create one).
    func reviews() throws -> [Review] {
        guard FileManager.default.fileExists(atPath: try path()) else { return [] }
        let store = try openToRead()
        do {
            return try store.reviews()
        } catch {
            throw CommandFailure.unexpected("cannot read the progress database \(store.path): \(error)")
        }
    }
}
