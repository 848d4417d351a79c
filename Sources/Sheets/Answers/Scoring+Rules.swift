import DispatchModel
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

    static func traceSelected(_ options: Int) -> Scoring {
        Scoring(points: options, rule: "1 point per option: ticked if it can happen, left blank if it cannot.")
    }

    /// - Parameter order: the options as the variant shows them, so the rule names its letters.
    static func choice(_ choice: ChoiceAnswer, order: [Int]) -> Scoring {
        let letters = Letters.of(choice.correct, in: order).joined(separator: ", ")
        if choice.isSingle {
            return Scoring(points: 2, rule: "2 points for \(letters); 0 otherwise.")
        }
        return Scoring(points: 2, rule: "2 points for exactly \(letters); 1 for some of them and no wrong option; 0 otherwise.")
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
