import Foundation

/// What the kernel says about this process's threads (`/proc/self/task/*/stat`). A thread the
/// books call blocked may in truth have been woken a moment ago and not yet been scheduled; the
/// kernel shows it as runnable. libdispatch's own thread pool counts runnable workers this way.
enum ThreadStates {
    /// True when every thread but `except` is asleep (state S) or gone (Z, X): none is running,
    /// runnable, or in the middle of something the kernel does for it.
    static func allAsleep(except thread: Int32) -> Bool {
        guard let directory = opendir("/proc/self/task") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let id = Int32(name), id != thread else { continue }
            guard let state = state(of: id) else { continue }  // the thread ended meanwhile
            if ![UInt8(ascii: "S"), UInt8(ascii: "Z"), UInt8(ascii: "X")].contains(state) { return false }
        }
        return true
    }

    /// The one-letter state of thread `id`, or nil if it is gone.
    static func state(of id: Int32) -> UInt8? {
        let descriptor = open("/proc/self/task/\(id)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        // "pid (command) S …": the command may hold spaces and parentheses; the state follows
        // the last ')'.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")), close + 2 < count else { return nil }
        return buffer[close + 2]
    }
}
