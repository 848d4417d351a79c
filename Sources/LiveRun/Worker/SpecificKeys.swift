import ConcurrencyModel
import Dispatch
import Foundation

/// The real `DispatchSpecificKey`s of a live run, one per key the snippet declares (its hidden
/// variable). Made once per process and kept: libdispatch compares keys by address, and a value
/// set on a queue must be found again by the same key.
final class SpecificKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [VariableID: DispatchSpecificKey<Value>] = [:]

    func key(for variable: VariableID) -> DispatchSpecificKey<Value> {
        lock.withLock {
            if let key = keys[variable] { return key }
            let key = DispatchSpecificKey<Value>()
            keys[variable] = key
            return key
        }
    }
}
