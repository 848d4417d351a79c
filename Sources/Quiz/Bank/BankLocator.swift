import Foundation

/// Finds the question bank without asking: an explicit path, then `GCDQUIZ_BANK`, then a
/// `Questions` folder in the current directory or above it, then next to the executable or above
/// it (so that `.build/release/gcdquiz` finds the checkout's bank).
public enum BankLocator {
    public static let environmentVariable = "GCDQUIZ_BANK"

    public static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                              currentDirectory: String = FileManager.default.currentDirectoryPath,
                              executable: String = CommandLine.arguments.first ?? "") -> String? {
        if let explicit { return explicit }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        let executableDirectory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().path
        for start in [currentDirectory, executableDirectory] {
            var directory = URL(fileURLWithPath: start)
            while true {
                let candidate = directory.appendingPathComponent("Questions").path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                    return candidate
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }
}
