actor Pool {
    var tasks: [Task<Int, Never>] = []
    func add(_ n: Int) { tasks.append(Task { n * 2 }) }
    func total() async -> Int {
        var sum = 0
        for t in tasks { sum += await t.value }
        return sum
    }
}
let p = Pool()
await p.add(1)
await p.add(2)
print(await p.total())
