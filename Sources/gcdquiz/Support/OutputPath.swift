import Foundation

/// What is wrong with a path a command is asked to write a file to, said as the other commands
/// say it: which path, and why.
enum OutputPath {
    /// Nil when `file` can be written as far as can be told beforehand.
    static func problem(writing file: String) -> String? {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
            return "cannot write \(file): it is a folder; give a file name in it, e.g. \((file as NSString).appendingPathComponent("progress.html"))"
        }
        let folder = (file as NSString).deletingLastPathComponent.isEmpty ? "." : (file as NSString).deletingLastPathComponent
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder) else {
            return "cannot write \(file): the folder \(folder) does not exist"
        }
        guard isFolder.boolValue else { return "cannot write \(file): \(folder) is not a folder" }
        guard manager.isWritableFile(atPath: folder) else { return "cannot write \(file): no permission to write in \(folder)" }
        return nil
    }

    /// The system's reason for a failed write ("No space left on device"), not Foundation's
    /// "(NSCocoaErrorDomain error 512.)".
    static func reason(_ error: Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        return error.localizedDescription
    }
}
