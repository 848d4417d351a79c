import Foundation
import ConcurrencyModel

/// A Swift-concurrency snippet compiled once by swiftc into a harness that runs it live many
/// times: its `main` is the snippet's top-level code, and a fork server that starts before it
/// forks one child per run before any thread or task exists. Each child runs the snippet on the
/// real concurrency runtime and ends when nothing is left to run (no unstructured task alive, no
/// dispatch timer pending, every thread idle: finished) or when what is left can never move
/// (a thread blocked for good, a task suspended for good: a hang). `LiveRunner.run(_:options:)`
/// drives it as it drives the interpreter's workers.
///
/// Harnesses are kept in `cacheRoot`, one directory per content hash of everything compiled
/// (the snippet, the runtime, the language mode, the compiler), so that compiling costs seconds
/// once per snippet and nothing after.
public struct CompiledHarness: Sendable {
    public let executable: URL
    public let mode: LanguageMode
    /// Its runs end the moment the top-level code and the last task have (no thread read): see
    /// `HarnessProgram.endsWithLastTask(code:program:)`.
    public var endsWithLastTask = false

    /// `$XDG_CACHE_HOME/gcdquiz/live` or `~/.cache/gcdquiz/live`; `GCDQUIZ_CACHE` overrides it.
    /// Where that folder cannot be made or written (a read-only home), a folder of the system's
    /// temporary directory serves instead: a live run must not fail for want of a cache.
    public static var cacheRoot: URL {
        let environment = ProcessInfo.processInfo.environment
        let preferred: URL
        if let root = environment["GCDQUIZ_CACHE"], !root.isEmpty {
            preferred = URL(fileURLWithPath: root).appendingPathComponent("live")
        } else if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            preferred = URL(fileURLWithPath: cache).appendingPathComponent("gcdquiz/live")
        } else {
            preferred = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/gcdquiz/live")
        }
        if (try? FileManager.default.createDirectory(at: preferred, withIntermediateDirectories: true)) != nil,
            FileManager.default.isWritableFile(atPath: preferred.path)
        {
            return preferred
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("gcdquiz-live-\(getuid())")
    }

    /// Clang's module cache for every swiftc gcdquiz starts, beside the harnesses: swiftc's
    /// default is under $XDG_CACHE_HOME, which may be the unwritable folder `cacheRoot` fell
    /// back from.
    public static func moduleCache(in root: URL = cacheRoot) -> String {
        root.appendingPathComponent("module-cache").path
    }

    /// The harness for `code`, if it was compiled already.
    public static func cached(code: String, mode: LanguageMode, in root: URL = cacheRoot) -> CompiledHarness? {
        let executable = directory(code: code, mode: mode, in: root).appendingPathComponent(executableName)
        return FileManager.default.isExecutableFile(atPath: executable.path) ? CompiledHarness(executable: executable, mode: mode) : nil
    }

    /// The cached harness, or a new one compiled with swiftc (seconds). A snippet that does not
    /// compile is a `ProblemList` with swiftc's diagnostics, at the snippet's own lines.
    public static func prepare(code: String, mode: LanguageMode, in root: URL = cacheRoot) throws -> CompiledHarness {
        if let harness = cached(code: code, mode: mode, in: root) { return harness }
        let final = directory(code: code, mode: mode, in: root)
        let work = root.appendingPathComponent("building-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let main = work.appendingPathComponent("main.swift"), support = work.appendingPathComponent("harness.swift")
        let cFile = work.appendingPathComponent("harness.c"), object = work.appendingPathComponent("harness.o")
        try HarnessProgram.mainSource(for: code).write(to: main, atomically: true, encoding: .utf8)
        try HarnessRuntime.swiftSource.write(to: support, atomically: true, encoding: .utf8)
        try HarnessRuntime.cSource.write(to: cFile, atomically: true, encoding: .utf8)
        try compile(Toolchain.clang, ["-O2", "-c", cFile.path, "-o", object.path], what: "clang")
        let executable = work.appendingPathComponent(executableName)
        try compile(Toolchain.swiftc, ["-O", "-module-name", "snippet", "-module-cache-path", moduleCache(in: root)] + mode.swiftcArguments
            + [main.path, support.path, object.path, "-o", executable.path]
            + ["dispatch_after", "dispatch_after_f"].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }
            // Symbols bound once in the server, not lazily again in every forked child.
            + ["-Xlinker", "-z", "-Xlinker", "now"], what: "swiftc")
        // Another gcdquiz may have built the same harness meanwhile: either copy is good.
        try? FileManager.default.removeItem(at: final)
        do {
            try FileManager.default.moveItem(at: work, to: final)
        } catch where cached(code: code, mode: mode, in: root) != nil {
        }
        return CompiledHarness(executable: final.appendingPathComponent(executableName), mode: mode)
    }

    static let executableName = "harness"

    private static func directory(code: String, mode: LanguageMode, in root: URL) -> URL {
        var hash = FNV64()
        hash.add("\(HarnessRuntime.version)\u{0}\(mode.swiftcArguments)\u{0}\(Toolchain.identity)\u{0}")
        hash.add(HarnessRuntime.cSource)
        hash.add(HarnessRuntime.swiftSource)
        hash.add(HarnessProgram.mainSource(for: code))
        return root.appendingPathComponent(String(hash.value, radix: 16))
    }

    private static func compile(_ tool: String, _ arguments: [String], what: String) throws {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw ProblemList([Problem(.error, "\(what) not found (\(tool)): live runs of Swift-concurrency snippets compile them, "
                + "so the Swift toolchain must be on PATH", at: nil)])
        }
        let result = try ProcessRun.execute(tool, arguments)
        guard result.death == .exited(0) else {
            let output = (result.stdout + result.stderr).split(separator: "\n").prefix(40).joined(separator: "\n")
            throw ProblemList([Problem(.error, "\(what) could not compile the snippet for live runs:\n\(output)", at: nil)])
        }
    }
}

/// swiftc and the clang beside it (every Swift toolchain for Linux has one).
enum Toolchain {
    static let swiftc: String = find("swiftc") ?? "/usr/bin/swiftc"

    static var clang: String {
        let beside = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("clang").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : (find("clang") ?? "/usr/bin/clang")
    }

    /// Which compiler: its path and modification time (a new toolchain makes new harnesses).
    static var identity: String {
        let path = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().path
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path)@\(modified)"
    }

    private static func find(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

/// FNV-1a, 64 bits: a content hash for cache keys (no cryptography needed).
struct FNV64 {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }
}
