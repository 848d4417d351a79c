import ConcurrencyModel

/// libFuzzer's callback: one input, as a snippet file's bytes, through everything the model does
/// with a snippet before and after parsing. A trap anywhere is a bug; problems are the expected
/// answer to most inputs. The state and memory budgets are small so that every input finishes
/// in milliseconds: the fuzzer looks for crashes and hangs of the front end, not for big searches.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data else { return 0 }
    let source = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    switch SnippetCompiler.compile(source, fileName: "fuzz.swift") {
    case .success(let program):
        let exploration = Explorer(stateBudget: 2_000, memoryBudget: 64 << 20).explore(program)
        _ = exploration.outcomes.count
    case .failure(let problems):
        // Every problem must say where it is, and render without trapping.
        for problem in problems.problems {
            precondition(problem.location != nil, "a problem without a place: \(problem)")
            _ = problem.description
        }
    }
    return 0
}
