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
        guard let text = read("stat", of: id) else { return nil }
        // "pid (command) S …": the command may hold spaces and parentheses; the state follows
        // the last ')'.
        guard let close = text.lastIndex(of: UInt8(ascii: ")")), close + 2 < text.endIndex else { return nil }
        return text[close + 2]
    }

    /// `/proc/self/task/ID/FILE`, or nil if the thread is gone.
    static func read(_ file: String, of id: Int32) -> ArraySlice<UInt8>? {
        let descriptor = open("/proc/self/task/\(id)/\(file)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = Foundation.read(descriptor, &buffer, buffer.count)
        return count > 0 ? buffer[..<count] : nil
    }
}

/// How long the machine has kept each of this process's threads from a core while it could run
/// (the kernel's run-queue delay, `/proc/self/task/*/schedstat`), looked at again and again: what
/// a thread waited since the last look, added to what it waited before when it waited through
/// most of that time, so that a hold longer than the gap between looks adds up. The model's clock
/// lets no runnable work wait while a sleep or a timer runs out: a long hold makes a run late.
struct RunQueueHolds {
    private var waited: [Int32: (delay: UInt64, streak: UInt64)] = [:]

    /// The longest hold of any thread but `except`, in nanoseconds, `window` nanoseconds after
    /// the last look.
    mutating func longest(except thread: Int32, window: UInt64) -> UInt64 {
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var longest: UInt64 = 0
        var seen: [Int32: (delay: UInt64, streak: UInt64)] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let id = Int32(name), id != thread, let delay = Self.delay(of: id) else { continue }
            let before = waited[id]
            let held = delay - min(delay, before?.delay ?? delay)
            let streak = held * 2 >= window ? (before?.streak ?? 0) + held : held
            seen[id] = (delay, streak)
            longest = max(longest, streak)
        }
        waited = seen
        return longest
    }

    /// The nanoseconds thread `id` has spent waiting for a core, or nil if it is gone.
    static func delay(of id: Int32) -> UInt64? {
        guard let text = ThreadStates.read("schedstat", of: id) else { return nil }
        // "ran waited slices": nanoseconds on a core, nanoseconds waiting for one, turns.
        let fields = text.split(separator: UInt8(ascii: " "))
        guard fields.count >= 2 else { return nil }
        return UInt64(String(decoding: fields[1], as: UTF8.self))
    }
}
