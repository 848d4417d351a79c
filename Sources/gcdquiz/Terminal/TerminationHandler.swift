import Foundation

/// SIGTERM caught instead of dying on the spot, for a command that can stop cleanly: `run` stops
/// its runs, ends its progress line and prints what was seen, as Ctrl-C does, then dies of
/// SIGTERM as it was asked to (status 143 in a shell), so that whoever sent it sees it obeyed.
enum TerminationHandler {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in TerminationHandler.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
    }

    static var wasTerminated: Bool { flag != 0 }

    /// Flushes standard output, then dies of SIGTERM.
    static func dieAsAsked() -> Never {
        fflush(nil)  // every output stream: standard output holds the histogram
        signal(SIGTERM, SIG_DFL)
        var terminate = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &terminate, nil)
        raise(SIGTERM)
        exit(128 + SIGTERM)
    }
}
