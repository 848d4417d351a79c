/// A hash of a closure's locals or captures that does not depend on the dictionary's order, for
/// states' hashes (`Frame`, `PendingItem`): each entry is mixed on its own and the results
/// added, where `Dictionary.hash(into:)` seeds and finalizes a whole hasher per entry. Equal
/// dictionaries give equal sums; states are still compared in full, so a collision costs only
/// a comparison.
func bindingsHash(_ bindings: [VariableID: Value]) -> Int {
    var sum: UInt64 = 0
    for (variable, value) in bindings {
        sum &+= mix(UInt64(UInt(bitPattern: variable.index)) &* 0x9E37_79B9_7F4A_7C15 ^ valueHash(value))
    }
    return Int(bitPattern: UInt(truncatingIfNeeded: sum))
}

/// A value's hash: integers and booleans mixed directly, strings and arrays through `Hasher`.
func valueHash(_ value: Value) -> UInt64 {
    switch value {
    case .int(let number): mix(UInt64(UInt(bitPattern: number)))
    case .bool(let flag): flag ? 0x5bd1_e995 : 0x27d4_eb2d
    case .nilValue: 0x1b87_3593
    case .double(let number): mix(number == 0 ? 0 : number.bitPattern)  // 0.0 == -0.0
    case .continuation(let index): mix(UInt64(UInt(bitPattern: index)) ^ 0xC2B2_AE3D_27D4_EB4F)
    case .string, .list, .error, .enumCase: UInt64(UInt(bitPattern: value.hashValue))
    }
}

/// splitmix64's finalizer: every input bit reaches every output bit.
private func mix(_ input: UInt64) -> UInt64 {
    var x = input
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return x ^ (x >> 31)
}
