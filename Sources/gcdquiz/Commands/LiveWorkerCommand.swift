import ArgumentParser
import LiveRun

/// The child side of `run`: gcdquiz starts itself with this hidden command to execute runs on
/// real libdispatch, so that a trap or a hang never takes the trainer down.
struct LiveWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-worker", abstract: "Internal: execute live runs requested on standard input.",
        shouldDisplay: false)

    func run() throws {
        LiveWorker.serve()
    }
}
