import Foundation

/// A program run to its end (swiftc, a compiled snippet, WeasyPrint), with a time limit: what it
/// wrote and how it ended. The same `ChildProcess` as the live workers, read with `poll` so that
/// neither pipe can fill up and block it.
public struct ProcessRun: Sendable {
    public var stdout: String
    public var stderr: String
    /// How it died, or nil when it was killed for going past its limit.
    public var death: Ending.Death?
    public var seconds: Double

    public static func execute(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
                        limit seconds: Double? = nil) throws -> ProcessRun {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let process = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
        process.closeInput()
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = seconds.map { started + UInt64(max($0, 0) * 1e9) }
        var output: [UInt8] = [], errors: [UInt8] = []
        var open = [true, true]
        var killed = false
        while open[0] || open[1] {
            var descriptors = [pollfd(fd: open[0] ? process.output : -1, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: open[1] ? process.errors : -1, events: Int16(POLLIN), revents: 0)]
            let now = DispatchTime.now().uptimeNanoseconds
            if let deadline, !killed, now >= deadline {
                process.kill()
                killed = true
            }
            let wait = deadline.map { !killed && $0 > now ? Int32(min(($0 - now) / 1_000_000 + 1, 100)) : 100 } ?? 100
            let ready = poll(&descriptors, 2, wait)
            if ready < 0 && errno != EINTR { break }
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = read(descriptor.fd, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    open[index] = false
                } else if index == 0 {
                    output += chunk[0..<count]
                } else if errors.count < 1 << 20 {
                    errors += chunk[0..<count]
                }
            }
        }
        let termination = process.wait()
        let death: Ending.Death? = killed ? nil : {
            switch termination {
            case .exited(let status): .exited(status)
            case .signaled(let signal): .signaled(signal)
            }
        }()
        return ProcessRun(
            stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self),
            death: death, seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }
}
