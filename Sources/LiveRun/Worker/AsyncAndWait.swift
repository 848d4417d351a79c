import Dispatch

/// `dispatch_async_and_wait_f`, which swift-corelibs-libdispatch exports but its Swift overlay
/// does not wrap (`DispatchQueue` has no `asyncAndWait` on Linux): the live interpreter calls
/// the C function itself, so that the block runs where real libdispatch runs it.
@_silgen_name("dispatch_async_and_wait_f")
private func dispatchAsyncAndWaitF(_ queue: OpaquePointer, _ context: UnsafeMutableRawPointer,
                                   _ work: @convention(c) (UnsafeMutableRawPointer?) -> Void)

extension DispatchQueue {
    /// The C queue of a `DispatchQueue`: on Linux the overlay's class keeps it as its first
    /// stored property (`__wrapped`), right after the object header.
    private var cQueue: OpaquePointer {
        Unmanaged.passUnretained(self).toOpaque().load(fromByteOffset: 2 * MemoryLayout<Int>.size, as: OpaquePointer.self)
    }

    /// `asyncAndWait(execute:)` as Apple's overlay has it: `dispatch_async_and_wait` with the block.
    func liveAsyncAndWait<T>(execute work: () -> T) -> T {
        withoutActuallyEscaping(work) { work in
            var result: T?
            var body: () -> Void = { result = work() }
            withUnsafeMutablePointer(to: &body) { pointer in
                dispatchAsyncAndWaitF(cQueue, UnsafeMutableRawPointer(pointer)) { context in
                    context!.assumingMemoryBound(to: (() -> Void).self).pointee()
                }
            }
            return result!
        }
    }
}
