import CProcessSupport
import Foundation

/// A worker process with its three standard streams on pipes. Spawned with `posix_spawn` (no
/// fork of a multi-threaded parent), reaped by `wait`, killed with SIGKILL if need be: never a
/// zombie, and never a stray, because the worker also asks to die with its parent.
final class ChildProcess {
    let pid: pid_t
    let output: Int32
    let errors: Int32
    private var input: Int32
    private var reaped = false

    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        // A worker that dies before reading its request must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard gcdquiz_pipe_cloexec(&inPipe) == 0, gcdquiz_pipe_cloexec(&outPipe) == 0, gcdquiz_pipe_cloexec(&errPipe) == 0 else {
            throw LiveRunError.spawnFailed("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: Ctrl-C at the terminal is for gcdquiz, not for its workers
        // (which die with gcdquiz anyway).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, gcdquiz_spawn_reset_signals(&attributes) | Int16(POSIX_SPAWN_SETPGROUP))
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            close(errPipe[0])
            throw LiveRunError.spawnFailed("\(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        input = inPipe[1]
        output = outPipe[0]
        errors = errPipe[0]
    }

    /// Writes to the process's standard input.
    func write(_ data: Data) {
        guard input >= 0 else { return }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(input, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Closes standard input: the worker sees the end of its commands.
    func closeInput() {
        if input >= 0 {
            close(input)
            input = -1
        }
    }

    func kill() {
        if !reaped { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// Waits for the process to end and closes its pipes.
    func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        if input >= 0 { close(input) }
        close(output)
        close(errors)
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    deinit {
        if !reaped {
            kill()
            _ = wait()
        }
    }
}

public enum LiveRunError: Error, CustomStringConvertible {
    case spawnFailed(String)
    case workerFailed(String)

    public var description: String {
        switch self {
        case .spawnFailed(let why): "cannot start the live runner: \(why)"
        case .workerFailed(let why): "the live runner failed: \(why)"
        }
    }
}
