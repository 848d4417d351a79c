import Foundation

/// Records a session's answers without ever stopping the session: when the store is missing or a
/// write fails, the answer is dropped and the learner is told once.
public final class ProgressRecorder: @unchecked Sendable {
    public let store: ProgressStore?
    private let lock = NSLock()
    private var hasWarned: Bool

    /// `opening`'s notices are the caller's to show; a store that cannot record counts as warned.
    public init(_ opening: StoreOpening) {
        store = opening.store
        hasWarned = !opening.isRecording
    }

    public var isRecording: Bool { store?.isWritable == true }

    /// Records `review`. Returns a sentence for the learner the first time recording fails; nil
    /// when it was recorded, or when the learner was already told.
    @discardableResult
    public func record(_ review: Review) -> String? {
        write { try $0.record(review) }
    }

    /// Replaces a recorded review's grade (an overrule); like `record`, never stops the session.
    @discardableResult
    public func regrade(_ review: Review) -> String? {
        write { try $0.regrade(review) }
    }

    private func write(_ change: (ProgressStore) throws -> Void) -> String? {
        guard let store, store.isWritable else { return nil }
        do {
            try change(store)
            return nil
        } catch {
            lock.lock()
            defer { lock.unlock() }
            guard !hasWarned else { return nil }
            hasWarned = true
            return "cannot record progress in \(store.path) (\(ProgressStore.reason(error, path: store.path))): the session goes on without recording"
        }
    }
}
