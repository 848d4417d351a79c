import DispatchModel
import Testing

/// Compiles a snippet and explores it, failing the test with the problems if it does not compile.
func explore(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Exploration {
    switch SnippetCompiler.compile(source) {
    case .success(let program):
        return Explorer().explore(program)
    case .failure(let problems):
        Issue.record("snippet did not compile: \(problems)", sourceLocation: sourceLocation)
        throw problems
    }
}

/// Outcomes written as in the answer notation, e.g. "1 2 3 4" or "1 4 deadlock".
func outcomeSet(_ exploration: Exploration) -> Set<String> {
    Set(exploration.outcomes.map { outcome in
        (outcome.lines + (outcome.end == .deadlock ? ["deadlock"] : [])).joined(separator: " ")
    })
}

/// The problems of a snippet that must not compile.
func problems(_ source: String) -> [Problem] {
    switch SnippetCompiler.compile(source, fileName: "t.swift") {
    case .success: return []
    case .failure(let list): return list.problems
    }
}
