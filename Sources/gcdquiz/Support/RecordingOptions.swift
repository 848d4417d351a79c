import ArgumentParser
import Foundation
import Progress
import Quiz

/// `--progress`, `--retention` and `--no-progress`: the options of the commands that ask
/// questions (the drill, `review`, `interview`), which record every scored answer as it is graded.
struct RecordingOptions: ParsableArguments {
    @OptionGroup var store: ProgressOptions

    @Flag(name: .customLong("no-progress"), help: "Record nothing this session (what is recorded already still decides what is due).")
    var noProgress = false

    /// The session's memory: what was recorded before (to plan it) and where its answers go. Never
    /// fails: a database that cannot be found or written is said once, and the session goes on
    /// without recording.
    func begin(mode: Mode, seed: UInt64) -> SessionMemory {
        let path: String
        do {
            path = try store.path()
        } catch {
            Output.write("gcdquiz: \((error as? CommandFailure)?.message ?? "\(error)"): this session records nothing\n", to: .standardError)
            return SessionMemory(recorder: nil, history: ProgressHistory(reviews: []), mode: mode, seed: seed)
        }
        if noProgress && !FileManager.default.fileExists(atPath: path) {
            return SessionMemory(recorder: nil, history: ProgressHistory(reviews: [], scheduler: store.scheduler), mode: mode, seed: seed)
        }
        let opening = ProgressStore.open(at: path)
        opening.notices.forEach(ProgressOptions.say)
        var history = ProgressHistory(reviews: [], scheduler: store.scheduler)
        if let opened = opening.store {
            do {
                history = try opened.history(scheduler: store.scheduler)
            } catch {
                Output.write("gcdquiz: cannot read the progress database \(opened.path) (\(error)): this session starts from nothing\n", to: .standardError)
            }
        }
        let recorder = noProgress ? nil : ProgressRecorder(opening)
        return SessionMemory(recorder: recorder, history: history, mode: mode, seed: seed)
    }
}
