import CProcessSupport
import Foundation

/// Runs gcdquiz with its standard streams as a hostile shell may leave them: a pipe whose reader
/// is gone (`| true`), a full disk (`> /dev/full`), a stream closed (`2>&-`). Unlike `Binary.run`,
/// it tells a death by signal from an exit.
final class SpawnedProcess {
    enum Stream {
        /// A pipe the test reads (standard output, error) or writes (standard input).
        case pipe
        /// A pipe whose other end is closed before the program starts.
        case pipeWithoutReader
        case file(String)
        case closed
    }

    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    let pid: pid_t
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var error: Int32 = -1
    private(set) var standardOutput = Data()
    private(set) var standardError = Data()
    private var ending: Ending?
    private var progress: IsolatedProgress?
    /// The most memory the process held (its peak resident set, in kilobytes), once it ended.
    private(set) var peakKilobytes: Int?

    init(_ arguments: [String], environment extra: [String: String] = [:],
         stdin: Stream = .file("/dev/null"), stdout: Stream = .pipe, stderr: Stream = .pipe) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        func arrange(_ stream: Stream, as descriptor: Int32) throws -> Int32 {
            switch stream {
            case .closed:
                posix_spawn_file_actions_addclose(&actions, descriptor)
                return -1
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
                return -1
            case .pipe, .pipeWithoutReader:
                var ends: [Int32] = [-1, -1]
                guard gcdquiz_pipe_cloexec(&ends) == 0 else { throw PseudoTerminalError("pipe: \(String(cString: strerror(errno)))") }
                let (ours, theirs) = descriptor == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
                posix_spawn_file_actions_adddup2(&actions, theirs, descriptor)
                childEnds.append(theirs)
                if case .pipeWithoutReader = stream {
                    close(ours)
                    return -1
                }
                return ours
            }
        }
        input = try arrange(stdin, as: 0)
        output = try arrange(stdout, as: 1)
        error = try arrange(stderr, as: 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, gcdquiz_spawn_reset_signals(&attributes))
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // The repository's bank, wherever the test runs from.
        environment["GCDQUIZ_BANK"] = Binary.packageRoot.appendingPathComponent("Questions").path
        for (key, value) in extra { environment[key] = value }
        progress = IsolatedProgress(&environment)
        defer { childEnds.forEach { close($0) } }
        pid = try Self.spawn(arguments, environment: environment, actions: &actions, attributes: &attributes)
    }

    /// Starts the built gcdquiz with `arguments`, exactly `environment`, and the given file
    /// actions and attributes.
    static func spawn(_ arguments: [String], environment: [String: String],
                      actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t) throws -> pid_t {
        let argv = ([Binary.url.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, Binary.url.path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw PseudoTerminalError("posix_spawn: \(String(cString: strerror(status)))") }
        return child
    }

    /// Writes to the program's standard input; false when it is no longer read.
    @discardableResult
    func type(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) } == bytes.count
    }

    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Reads standard output until it holds a line, or the timeout passes; the first line.
    func firstLine(timeout: Double = 60) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let newline = standardOutput.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: standardOutput[..<newline], as: UTF8.self)
            }
            readAvailable(waitMilliseconds: 50)
        }
        return nil
    }

    /// Reads standard output until it contains `text` `times` times, or the timeout passes.
    func waitForOutput(_ text: String, times: Int = 1, timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let found = { self.stdout.components(separatedBy: text).count > times }
        while Date() < deadline {
            if found() { return true }
            readAvailable(waitMilliseconds: 50)
        }
        return found()
    }

    /// Closes the test's end of standard output, as `head -1` does once it has its line.
    func stopReadingOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    /// Reads what is left and waits for the end; nil when the program is still running at the
    /// timeout (it is then killed).
    func finish(timeout: Double = 120) -> Ending? {
        defer { closeInput() }
        let deadline = Date().addingTimeInterval(timeout)
        while ending == nil && Date() < deadline {
            readAvailable(waitMilliseconds: 20)
            var status: Int32 = 0
            var usage = rusage()
            if wait4(pid, &status, WNOHANG, &usage) == pid {
                ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
                peakKilobytes = usage.ru_maxrss
            }
        }
        guard ending != nil else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return nil
        }
        // Whatever is still in the pipes (their writers are gone: this does not block).
        while readAvailable(waitMilliseconds: 0) {}
        return ending
    }

    var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    var stderr: String { String(decoding: standardError, as: UTF8.self) }

    /// Reads what is ready on standard output and error; whether anything was read.
    @discardableResult
    private func readAvailable(waitMilliseconds: Int32) -> Bool {
        var descriptors = [output, error].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard !descriptors.isEmpty, poll(&descriptors, nfds_t(descriptors.count), waitMilliseconds) > 0 else { return false }
        var any = false
        for descriptor in descriptors where descriptor.revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor.fd, &buffer, buffer.count)
            guard count > 0 else {
                close(descriptor.fd)
                if descriptor.fd == output { output = -1 } else { error = -1 }
                continue
            }
            any = true
            if descriptor.fd == output {
                standardOutput.append(contentsOf: buffer[0..<count])
            } else {
                standardError.append(contentsOf: buffer[0..<count])
            }
        }
        return any
    }

    deinit {
        if ending == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        [input, output, error].filter { $0 >= 0 }.forEach { close($0) }
        progress?.remove()
    }
}
