import ConcurrencyModel
import Quiz

/// The suggested points per question and the rule to award them: full marks for the exact
/// answer, part marks for part of it with nothing wrong.
extension Scoring {
    static func traceWritten(_ trace: TraceAnswer) -> Scoring {
        let count = trace.outcomes.count
        if count == 1 {
            return Scoring(points: 4, rule: "4 points for this one outcome, with how the run ends; 0 for anything else.")
        }
        return Scoring(points: 4, rule: "4 points for exactly these \(count) outcomes, each with how the run ends; 2 for some of them and nothing impossible; 0 if any outcome written cannot happen.")
    }

    /// Ticking the outcomes that can happen: `TickScoring`, for the options as the variant shows them.
    static func traceSelected(_ options: [TraceOption]) -> (Scoring, TickScoring) {
        let letters = options.indices.map(Letters.letter)
        let tick = options.indices.filter { options[$0].canHappen }.map { letters[$0] }
        let leave = options.indices.filter { !options[$0].canHappen }.map { letters[$0] }
        let ticks = TickScoring(right: tick.count, wrong: leave.count, points: 4)
        return (Scoring(points: ticks.points, rule: ticks.rule(tick: tick, leave: leave)), ticks)
    }

    /// - Parameter order: the options as the variant shows them, so the rule names its letters.
    ///   With one correct option, full marks for it alone; with several, `TickScoring`.
    static func choice(_ choice: ChoiceAnswer, order: [Int], optionCount: Int) -> (Scoring, TickScoring?) {
        let correct = Letters.of(choice.correct, in: order)
        if choice.isSingle {
            return (Scoring(points: 2, rule: "2 points for \(correct[0]) alone; 0 otherwise."), nil)
        }
        let wrong = Letters.of(Array(0..<optionCount).filter { !choice.correct.contains($0) }, in: order)
        let ticks = TickScoring(right: correct.count, wrong: wrong.count, points: 2)
        return (Scoring(points: ticks.points, rule: ticks.rule(tick: correct, leave: wrong)), ticks)
    }

    static func short(_ short: ShortAnswer) -> Scoring {
        let count = short.keyIdeas.count
        switch count {
        case 0: return Scoring(points: 2, rule: "2 points for an answer that says what the model answer says; 1 for part of it.")
        case 1: return Scoring(points: 2, rule: "2 points for an answer that states the key idea in any words; 0 otherwise.")
        default: return Scoring(points: count, rule: "1 point for each of the \(count) key ideas the answer states, in any words.")
        }
    }
}

/// Option letters: a, b, c… in the order shown.
enum Letters {
    static func letter(_ position: Int) -> String {
        String(UnicodeScalar(UInt8(97 + position % 26)))
    }

    /// The letters of `indices` (into the file's options) when shown in `order`, alphabetical.
    static func of(_ indices: [Int], in order: [Int]) -> [String] {
        indices.compactMap { order.firstIndex(of: $0) }.sorted().map(letter)
    }
}
