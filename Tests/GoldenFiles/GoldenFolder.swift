import Foundation
import Testing

/// A folder of reference files that tests compare their output with, byte for byte, after
/// swift-openapi-generator's file-based reference tests: the files are the contract, a change
/// shows as a diff, and one documented command (`make golden`, i.e. `GCDQUIZ_RECORD_GOLDEN=1`)
/// re-records them after a deliberate change.
public struct GoldenFolder: Sendable {
    public let url: URL
    /// The extension of the files this folder holds ("json", "txt").
    public let fileExtension: String

    /// True while `make golden` runs: tests write what they produce instead of comparing it.
    public static let isRecording = ProcessInfo.processInfo.environment["GCDQUIZ_RECORD_GOLDEN"] == "1"

    /// `path` is relative to the `Tests` folder, e.g. `Golden/solve`.
    public init(_ path: String, fileExtension: String) {
        url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(path)
        self.fileExtension = fileExtension
    }

    /// Compares `actual` with the reference file `name`, or records it while recording. `change`
    /// says what a difference means ("the model's answer to X changed").
    public func check(
        _ actual: String, named name: String, change: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let file = url.appendingPathComponent("\(name).\(fileExtension)")
        if Self.isRecording {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no reference file \(file.lastPathComponent): record it with `make golden`", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "\(change); if on purpose, `make golden` and review the diff", sourceLocation: sourceLocation)
    }

    /// Every reference file must belong to something a test still checks: a stale file would
    /// pin nothing and mislead whoever reads it.
    public func expectNoStrayFiles(besides names: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard !Self.isRecording else { return }
        let suffix = "." + fileExtension
        for file in try FileManager.default.contentsOfDirectory(atPath: url.path) where file.hasSuffix(suffix) {
            let name = String(file.dropLast(suffix.count))
            #expect(names.contains(name), "\(url.lastPathComponent)/\(file) is checked by no test: delete it", sourceLocation: sourceLocation)
        }
    }
}
