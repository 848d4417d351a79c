import ConcurrencyModel

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

    /// Grades against the outcomes of the machine the exploration answers for. On the interview's
    /// machine (no `--cores`), an outcome only fewer cores (or the other platform) show is not
    /// wrong: it is set apart, with its label, and never counted as missing when left out.
    public func grade(_ predicted: [Outcome]) -> TraceGrade {
        var right: [Outcome] = []
        var elsewhere: [Outcome] = []
        var impossible: Outcome?
        for outcome in predicted {
            if exploration.contains(outcome) {
                if !right.contains(outcome) { right.append(outcome) }
            } else if exploration.requested.cores == nil, exploration.label(of: outcome) != nil {
                if !elsewhere.contains(outcome) { elsewhere.append(outcome) }
            } else if impossible == nil {
                impossible = outcome
            }
        }
        let possible = exploration.outcomes
        let missing = possible.filter { !predicted.contains($0) }
        let missingCount = exploration.outcomeCount - UInt64(right.count)
        let verdict: TraceVerdict
        if let impossible {
            guard case .impossible(let why) = Explainer(exploration: exploration).explain(impossible) else {
                preconditionFailure("an outcome outside the set cannot be possible")
            }
            verdict = .wrong(why)
        } else if missingCount == 0 {
            verdict = .exact
        } else {
            verdict = .incomplete(missing: missing)
        }
        return TraceGrade(verdict: verdict, predicted: predicted, right: right, missing: missing, possible: possible,
                          possibleCount: exploration.outcomeCount, missingCount: missingCount, elsewhere: elsewhere)
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
    /// The predicted outcomes that can happen (each once).
    public var right: [Outcome]
    /// The possible outcomes the prediction left out (when the outcomes are listed).
    public var missing: [Outcome]
    /// Every possible outcome, when they are few enough to list.
    public var possible: [Outcome]
    /// How many outcomes can happen, and how many of them the prediction left out: also when
    /// they are too many to list.
    public var possibleCount: UInt64
    public var missingCount: UInt64
    /// Predicted outcomes that only other machines show (fewer cores, another platform): not
    /// counted against the prediction.
    public var elsewhere: [Outcome] = []

    public var isExact: Bool {
        if case .exact = verdict { return true }
        return false
    }
}
