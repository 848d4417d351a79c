import Dispatch
import Foundation
import Sheets

/// Ctrl-C, SIGTERM and SIGHUP while sheets are written: stop the helper processes (WeasyPrint,
/// qpdf: each runs in a process group of its own, so the terminal's Ctrl-C does not reach them),
/// remove every staging folder, then die of the signal as if nothing had caught it (exit status
/// 128 + n in a shell).
enum InterruptCleanup {
    private static let lock = NSLock()
    /// Kept alive for the rest of the process.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers, once.
    static func install() {
        lock.withLock {
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    stopChildren()
                    StagedOutput.discardEveryStaging()
                    // Die of the signal: its default action, unblocked on this thread (whoever
                    // started us may have blocked it), raised here; should it not kill, exit as
                    // a shell would report it.
                    signal(signalNumber, SIG_DFL)
                    var only = sigset_t()
                    sigemptyset(&only)
                    sigaddset(&only, signalNumber)
                    pthread_sigmask(SIG_UNBLOCK, &only, nil)
                    raise(signalNumber)
                    exit(128 + signalNumber)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Kills this process's children, found in /proc (Linux) by their parent's id.
    private static func stopChildren() {
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries {
            guard let pid = pid_t(entry), pid != me,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (name) state ppid …": the name may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == me { kill(pid, SIGKILL) }
        }
    }
}
