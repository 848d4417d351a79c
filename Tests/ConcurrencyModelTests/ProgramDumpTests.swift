import ConcurrencyModel
import Foundation
import GoldenFiles
import Testing

/// Golden dumps of the IR (`Program.dump()`) for small snippets: what the front end lowers each
/// construct to, pinned in `Tests/Golden/dump/NAME.txt`. A change of the lowering shows as a diff.
///
/// Re-record after a deliberate change, then read the diff before committing: `make golden`
/// (that is, `GCDQUIZ_RECORD_GOLDEN=1 swift test --filter ProgramDumpTests`).
@Suite struct ProgramDumpTests {
    static let folder = GoldenFolder("Golden/dump", fileExtension: "txt")

    static let snippets: [(name: String, source: String)] = [
        ("sync-inside-async", """
            print("A")
            serialQueue.async {
                print("B")
                DispatchQueue.main.sync { print("C") }
            }
            concurrentQueue.async(flags: .barrier) { print("D") }
            print("E")
            """),
        ("loop-branch-function", """
            var total = 0
            func add(_ amount: Int, label: String) {
                total += amount
                print(label, total)
            }
            for i in 1...3 {
                if i % 2 == 1 {
                    add(i, label: "odd \\(i)")
                } else {
                    print("even")
                }
            }
            """),
        ("while-repeat", """
            var n = 0
            while n < 3 {
                n += 1
                if n == 2 { continue }
                print(n)
            }
            repeat {
                n -= 1
                if n == 1 { break }
            } while n > 0
            """),
        ("group-semaphore-timing", """
            let g = DispatchGroup()
            let s = DispatchSemaphore(value: 0)
            concurrentQueue.async(group: g) {
                sleep(1)
                s.signal()
            }
            g.notify(queue: serialQueue) { print("notified") }
            s.wait()
            if g.wait(timeout: .now() + 0.1) == .timedOut { print("timedOut") } else { print("success") }
            serialQueue.asyncAfter(deadline: .now() + 0.5) { print("later") }
            """),
        ("work-item", """
            let item = DispatchWorkItem { print("work") }
            item.notify(queue: serialQueue) { print("notified") }
            concurrentQueue.async(execute: item)
            item.cancel()
            item.wait()
            DispatchQueue.concurrentPerform(iterations: 2) { i in print(i) }
            """),
        ("operations", """
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let load = BlockOperation { print("load") }
            let show = BlockOperation { print("show") }
            show.addDependency(load)
            show.completionBlock = { print("shown") }
            queue.addOperations([load, show], waitUntilFinished: true)
            queue.addOperation { print("last") }
            queue.waitUntilAllOperationsAreFinished()
            """),
        ("locks", """
            import Synchronization
            let lock = NSRecursiveLock()
            let hits = Mutex(0)
            concurrentQueue.async {
                lock.lock()
                lock.lock()
                hits.withLock { $0 += 1 }
                lock.unlock()
                lock.unlock()
            }
            print(hits.withLock { $0 })
            """),
        ("timer-source", """
            var ticks = 0
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + 0.1, repeating: .milliseconds(100))
            timer.setEventHandler {
                ticks += 1
                if ticks == 2 { timer.cancel() }
            }
            timer.setCancelHandler { print(ticks) }
            timer.resume()
            serialQueue.asyncAndWait { print("waited") }
            """),
    ]

    @Test(arguments: snippets.map(\.name))
    func dumpMatchesTheGoldenFile(_ name: String) throws {
        let source = try #require(Self.snippets.first { $0.name == name }?.source)
        let program: Program
        switch SnippetCompiler.compile(source) {
        case .success(let compiled): program = compiled
        case .failure(let problems):
            Issue.record("snippet \(name) did not compile: \(problems)")
            return
        }
        try Self.folder.check(program.dump(), named: name, change: "the lowering of \(name) changed")
    }

    @Test func everyGoldenDumpBelongsToASnippet() throws {
        try Self.folder.expectNoStrayFiles(besides: Set(Self.snippets.map(\.name)))
    }

    /// Every body of these snippets hangs under the statement that runs or submits it:
    /// `Program.bodies(of:)` misses no construct they use, so no block is left unreached.
    @Test func everyBlockIsReachedFromTheEntry() throws {
        for (name, source) in Self.snippets {
            guard case .success(let program) = SnippetCompiler.compile(source) else {
                Issue.record("snippet \(name) did not compile")
                continue
            }
            #expect(!program.dump().contains("Unreached"), "\(name): a block is not reached from the entry")
        }
    }
}
