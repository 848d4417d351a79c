import Foundation
import Synchronization

/// Standard output or standard error.
enum StandardStream {
    case standardOutput, standardError

    var descriptor: Int32 { self == .standardOutput ? STDOUT_FILENO : STDERR_FILENO }
}

/// Every byte gcdquiz writes to standard output or standard error goes through here, so that a
/// failed write is handled in one place instead of trapping (Foundation's `FileHandle.write`) or
/// vanishing in a stdio buffer:
///
/// - standard output's reader gone (EPIPE: `gcdquiz … | head -1`): the program ends at once and
///   quietly, killed by SIGPIPE as `cat` or `seq` are (status 141 in a shell);
/// - standard output closed (`>&-`) or failing (ENOSPC: `> /dev/full`, EIO…): a one-line message
///   on standard error and exit 2;
/// - standard error closed or failing: the diagnostic is lost, nothing else changes.
///
/// Writes are unbuffered (one `write(2)` per call), so standard output and standard error stay
/// in order, and a drill whose reader is gone stops at its next line.
enum Output {
    /// Serialises writers, so that two threads' lines do not interleave.
    private static let lock = Mutex(())

    /// The standard descriptors that were closed when the program started (see `protectStandardDescriptors`).
    nonisolated(unsafe) private static var closedAtStart: Set<Int32> = []

    static func write(_ text: String, to stream: StandardStream = .standardOutput) {
        write(Data(text.utf8), to: stream)
    }

    static func write(_ data: Data, to stream: StandardStream = .standardOutput) {
        guard !data.isEmpty else { return }
        let failure: Int32? = lock.withLock { _ in
            if closedAtStart.contains(stream.descriptor) { return EBADF }
            return data.withUnsafeBytes { writeFully(stream.descriptor, $0) }
        }
        guard let failure, stream == .standardOutput else { return }
        outputFailed(failure)
    }

    /// Before anything else opens a file: a standard descriptor the program was started without
    /// (`2>&-`) is pointed at /dev/null, so that no file opened later (the history, a database)
    /// takes its number and receives what was meant for the terminal. Writes to a stream that
    /// was closed then fail as they would have. SIGPIPE is ignored so that a reader gone is
    /// seen as EPIPE here, whichever command runs.
    static func protectStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            closedAtStart.insert(descriptor)
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes every byte, through interrupted and partial writes; nil when done, else the errno.
    private static func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count > 0 {
                offset += count
                continue
            }
            let error = count < 0 ? errno : EIO
            switch error {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // Someone made the descriptor non-blocking (a shared terminal): wait until it drains.
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 100)
            default:
                return error
            }
        }
        return nil
    }

    /// Standard output cannot take what the program writes: end now, as the header says.
    private static func outputFailed(_ error: Int32) -> Never {
        if error == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            _exit(128 + SIGPIPE)  // SIGPIPE blocked on this thread: the same status, by hand
        }
        let reason = error == EBADF ? "it is closed" : String(cString: strerror(error))
        write("gcdquiz: cannot write standard output: \(reason)\n", to: .standardError)
        exit(2)
    }
}

/// Swift's `print`, routed through `Output`: every `print` in this module lands here, so no
/// command can write standard output around it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Output.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
