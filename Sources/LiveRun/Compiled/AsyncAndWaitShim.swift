/// swift-corelibs-libdispatch exports `dispatch_async_and_wait` but its Swift overlay has no
/// `DispatchQueue.asyncAndWait` (swiftc on Linux: "value of type 'DispatchQueue' has no member
/// 'asyncAndWait'"). A snippet that uses it is compiled with this extension after the prelude:
/// it calls the C function, so the compiled program runs on real libdispatch's
/// `dispatch_async_and_wait`. On Apple's platforms the overlay's own method is used.
public enum AsyncAndWaitShim {
    /// The code to put between the prelude and the snippet ("" when the snippet does not need it).
    public static func source(for code: String) -> String {
        code.contains("asyncAndWait") ? text : ""
    }

    static let text = """
        #if os(Linux)
        @_silgen_name("dispatch_async_and_wait_f")
        private func _gcdquiz_dispatch_async_and_wait_f(_ queue: OpaquePointer, _ context: UnsafeMutableRawPointer, _ work: @convention(c) (UnsafeMutableRawPointer?) -> Void)
        extension DispatchQueue {
            func asyncAndWait<T>(execute work: () throws -> T) rethrows -> T {
                let queue = Unmanaged.passUnretained(self).toOpaque().load(fromByteOffset: 2 * MemoryLayout<Int>.size, as: OpaquePointer.self)
                return try withoutActuallyEscaping(work) { work in
                    var result: Result<T, Error>?
                    var body: () -> Void = { result = Result { try work() } }
                    withUnsafeMutablePointer(to: &body) { pointer in
                        _gcdquiz_dispatch_async_and_wait_f(queue, UnsafeMutableRawPointer(pointer)) { context in
                            context!.assumingMemoryBound(to: (() -> Void).self).pointee()
                        }
                    }
                    return try result!.get()
                }
            }
        }
        #endif

        """
}
