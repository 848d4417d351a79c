/// The search's index of the states it has seen: node numbers in an open-addressing table, each
/// slot with its state's hash. The states themselves stay in `StateGraph`'s array, once (a
/// dictionary keyed by state would hold a second copy of each, and move them all as it grows),
/// and a state's hash is computed once, when it is looked up.
struct StateIndex {
    /// Node numbers, -1 where a slot is free; the count is a power of two.
    private var slots: [Int32]
    private var hashes: [Int]
    private var count = 0

    init() {
        slots = Array(repeating: -1, count: 1024)
        hashes = Array(repeating: 0, count: 1024)
    }

    /// The node whose state has this hash and passes `isEqual` (the caller compares states).
    func node(hash: Int, where isEqual: (Int32) -> Bool) -> Int32? {
        let mask = slots.count - 1
        var slot = Int(UInt(bitPattern: hash) & UInt(mask))
        while slots[slot] >= 0 {
            if hashes[slot] == hash && isEqual(slots[slot]) { return slots[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Records a node not in the index yet.
    mutating func insert(_ node: Int32, hash: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        place(node, hash: hash)
        count += 1
    }

    private mutating func place(_ node: Int32, hash: Int) {
        let mask = slots.count - 1
        var slot = Int(UInt(bitPattern: hash) & UInt(mask))
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = node
        hashes[slot] = hash
    }

    private mutating func grow() {
        let oldSlots = slots
        let oldHashes = hashes
        slots = Array(repeating: -1, count: oldSlots.count * 2)
        hashes = Array(repeating: 0, count: oldSlots.count * 2)
        for (slot, node) in oldSlots.enumerated() where node >= 0 { place(node, hash: oldHashes[slot]) }
    }
}
