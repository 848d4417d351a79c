import Foundation

/// Finds the question bank without asking: an explicit path, then `GCDQUIZ_BANK`, then a
/// `Questions` folder in the current directory or above it, then the installed bank
/// (`PREFIX/share/gcdquiz/Questions` for `PREFIX/bin/gcdquiz`, as `make install` lays it out),
/// then next to the executable or above it (so that `.build/release/gcdquiz` finds the
/// checkout's bank).
public enum BankLocator {
    public static let environmentVariable = "GCDQUIZ_BANK"

    /// Where `make install PREFIX=…` puts the bank, relative to the folder of the binary.
    public static let installedRelativePath = "../share/gcdquiz/Questions"

    public static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                              currentDirectory: String = FileManager.default.currentDirectoryPath,
                              executable: String = CommandLine.arguments.first ?? "") -> String? {
        if let explicit { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        if let found = searchUpwards(from: currentDirectory) { return found }
        let executableDirectory = URL(fileURLWithPath: executablePath(executable)).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = executableDirectory.appendingPathComponent(installedRelativePath).standardized.path
        if isDirectory(installed) { return installed }
        return searchUpwards(from: executableDirectory.path)
    }

    /// A bare name (`gcdquiz` found on `PATH`) is the running executable; `/proc/self/exe` says
    /// where it is on Linux.
    private static func executablePath(_ argument: String) -> String {
        if argument.contains("/") { return argument }
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return Bundle.main.executablePath ?? argument
    }

    private static func searchUpwards(from start: String) -> String? {
        var directory = URL(fileURLWithPath: start)
        while true {
            let candidate = directory.appendingPathComponent("Questions").path
            if isDirectory(candidate) { return candidate }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
