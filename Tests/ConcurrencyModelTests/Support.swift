import ConcurrencyModel
import Testing

/// Compiles a snippet and explores it, failing the test with the problems if it does not compile.
func explore(_ source: String, on machine: Machine = .interview, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Exploration {
    switch SnippetCompiler.compile(source) {
    case .success(let program):
        return Explorer().explore(program, for: machine)
    case .failure(let problems):
        Issue.record("snippet did not compile: \(problems)", sourceLocation: sourceLocation)
        throw problems
    }
}

/// Outcomes written as in the answer notation, e.g. "1 2 3 4" or "1 4 deadlock".
func outcomeSet(_ exploration: Exploration) -> Set<String> {
    Set(exploration.outcomes.map(notation))
}

func notation(_ outcome: Outcome) -> String {
    (outcome.lines + (outcome.end == .deadlock ? ["deadlock"] : [])).joined(separator: " ")
}

/// The outcomes on a machine of `cores` cores, in the notation.
func outcomeSet(_ source: String, cores: Int?, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Set<String> {
    outcomeSet(try explore(source, on: Machine(cores: cores), sourceLocation: sourceLocation))
}

/// Each outcome of every machine, in the notation, with the core counts it needs as the label
/// says them: "1", "2-3", "4+".
func coreLabels(_ exploration: Exploration) -> [String: String] {
    var labels: [String: String] = [:]
    for report in exploration.reports + exploration.elsewhere {
        labels[notation(report.outcome)] = report.machines.coreRanges.map { range in
            range.max == nil ? "\(range.min)+" : range.min == range.max ? "\(range.min)" : "\(range.min)-\(range.max!)"
        }.joined(separator: ",")
    }
    return labels
}

/// The problems of a snippet that must not compile.
func problems(_ source: String) -> [Problem] {
    switch SnippetCompiler.compile(source, fileName: "t.swift") {
    case .success: return []
    case .failure(let list): return list.problems
    }
}

/// A snippet with position markers (1️⃣, 2️⃣, …, as in swift-format's rule tests) taken out, and
/// the line and column each marker stood at.
struct MarkedSource {
    static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

    var source = ""
    var positions: [String: ConcurrencyModel.SourceLocation] = [:]

    init(_ marked: String, file: String = "t.swift") {
        var line = 1
        var column = 1
        var rest = Substring(marked)
        while !rest.isEmpty {
            if let marker = Self.markers.first(where: { rest.hasPrefix($0) }) {
                positions[marker] = ConcurrencyModel.SourceLocation(file: file, line: line, column: column)
                rest = rest.dropFirst(marker.count)
                continue
            }
            let character = rest.removeFirst()
            source.append(character)
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.utf8.count
            }
        }
    }
}

/// Compiles a marked snippet and checks that it fails with exactly one problem at each marker,
/// whose message contains the expected text.
func expectDiagnostics(_ marked: String, _ expected: [String: String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let marked = MarkedSource(marked)
    let found = problems(marked.source)
    #expect(found.count == expected.count, "\(found)", sourceLocation: sourceLocation)
    for (marker, text) in expected {
        let problem = found.first { $0.location == marked.positions[marker] }
        #expect(problem != nil, "no problem at \(marker) \(marked.positions[marker]?.description ?? "?"); found \(found)", sourceLocation: sourceLocation)
        #expect(problem?.message.contains(text) == true, "\(marker): '\(problem?.message ?? "")' does not say '\(text)'", sourceLocation: sourceLocation)
    }
}

/// A why-not reason as the learner reads it: its rule, its place and the narrator's words.
struct Said {
    var rule: Rule
    var span: SourceSpan?
    var detail: String

    init(_ blocker: Blocker, _ why: Impossibility) {
        rule = blocker.rule
        span = blocker.span
        detail = why.narrator.words(for: blocker)
    }
}
