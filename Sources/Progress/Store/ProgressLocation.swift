import Foundation

/// Where the progress database lives, found without asking: an explicit path (`--progress`),
/// then `GCDQUIZ_PROGRESS`, then `$XDG_DATA_HOME/gcdquiz/progress.sqlite`, then
/// `~/.local/share/gcdquiz/progress.sqlite`.
public enum ProgressLocation {
    public static let environmentVariable = "GCDQUIZ_PROGRESS"
    public static let fileName = "progress.sqlite"

    /// The path, or nil when neither a path, `XDG_DATA_HOME` nor `HOME` is set.
    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/gcdquiz/" + fileName }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/gcdquiz/" + fileName }
        return nil
    }
}
