import DispatchModel

/// Grades a prediction of a trace puzzle against every outcome the model allows.
public struct TraceGrader: Sendable {
    public let exploration: Exploration
    /// What the snippet's prints can produce: a word outside it makes an answer unreadable.
    public let printable: PrintableLines

    public init(exploration: Exploration) {
        self.exploration = exploration
        printable = PrintableLines(exploration: exploration)
    }

    /// Reads outcomes written in the notation, against what this snippet can print.
    public func read(_ text: String) throws(AnswerError) -> [Outcome] {
        try AnswerNotation.parse(text, lines: printable)
    }

    /// Throws, without grading, when the answer cannot be read.
    public func grade(_ answer: String) throws(AnswerError) -> TraceGrade {
        grade(try read(answer))
    }

    public func grade(_ predicted: [Outcome]) -> TraceGrade {
        let possible = exploration.outcomes
        let possibleSet = Set(possible)
        let right = predicted.filter(possibleSet.contains)
        let missing = possible.filter { !predicted.contains($0) }
        let verdict: TraceVerdict
        if let impossible = predicted.first(where: { !possibleSet.contains($0) }) {
            guard case .impossible(let why) = Explainer(exploration: exploration).explain(impossible) else {
                preconditionFailure("an outcome outside the set cannot be possible")
            }
            verdict = .wrong(why)
        } else if missing.isEmpty {
            verdict = .exact
        } else {
            verdict = .incomplete(missing: missing)
        }
        return TraceGrade(verdict: verdict, predicted: predicted, right: right, missing: missing, possible: possible)
    }
}

public enum TraceVerdict: Sendable {
    /// Every possible outcome, and nothing else.
    case exact
    /// Everything predicted can happen, but these outcomes can too.
    case incomplete(missing: [Outcome])
    /// The first predicted outcome that cannot happen, and why.
    case wrong(Impossibility)

    /// The name scripts see in `check --json`.
    public var name: String {
        switch self {
        case .exact: "exact"
        case .incomplete: "incomplete"
        case .wrong: "wrong"
        }
    }
}

public struct TraceGrade: Sendable {
    public var verdict: TraceVerdict
    public var predicted: [Outcome]
    /// The predicted outcomes that can happen.
    public var right: [Outcome]
    /// The possible outcomes the prediction left out.
    public var missing: [Outcome]
    public var possible: [Outcome]

    public var isExact: Bool {
        if case .exact = verdict { return true }
        return false
    }
}
