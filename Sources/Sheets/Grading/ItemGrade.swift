import ConcurrencyModel
import Quiz

/// One student's answer to one question, graded against the question as that student's variant
/// asked it: a trace puzzle by `TraceGrader` (what `check` uses), choice letters in the variant's
/// own order, a short answer by its key ideas; points by the key's rule.
public struct ItemGrade: Sendable {
    public enum Verdict: String, Sendable, Codable {
        /// Full marks.
        case right
        /// Some of the points.
        case partial
        case wrong
        /// Nothing written.
        case blank
        /// Written, but not in the notation the sheet asks for (a word no print produces, a
        /// letter the question does not offer).
        case unreadable
    }

    /// A wrong outcome or option a student gave, with the rule it breaks: what the class report
    /// counts.
    public struct Mistake: Sendable, Hashable {
        /// The outcome in the notation, or the option's text.
        public var answer: String
        /// The rule it breaks (a trace puzzle), or why the option is wrong (a choice).
        public var rule: String
    }

    public var item: SheetItem
    public var answer: String
    public var points: Double
    public var verdict: Verdict
    /// What was wrong and why, in the key's words; empty for full marks.
    public var feedback: [String]
    public var mistakes: [Mistake]

    public var maxPoints: Int { item.scoring.points }

    /// Grades `answer` (empty for none) against `item`.
    public init(_ answer: String, for item: SheetItem) {
        self.item = item
        self.answer = answer
        points = 0
        feedback = []
        mistakes = []
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            verdict = .blank
            feedback = ["No answer."]
            return
        }
        verdict = .wrong
        switch item.answer {
        case .trace(let trace):
            if item.traceOptions.isEmpty {
                gradeWritten(text, trace: trace)
            } else {
                gradeTicked(text, trace: trace)
            }
        case .choice:
            gradeChoice(text)
        case .short:
            gradeShort(text)
        }
        // Hundredths, as the key writes a share: a class's totals add up the same on every machine.
        points = (points * 100).rounded() / 100
        if points >= Double(maxPoints) {
            verdict = .right
        } else if points > 0 {
            verdict = .partial
        } else if verdict != .unreadable {
            verdict = .wrong
        }
    }

    /// Every possible outcome, and nothing impossible: full marks; some of them and nothing
    /// impossible: half; anything impossible: 0 (the key's rule).
    private mutating func gradeWritten(_ text: String, trace: TraceAnswer) {
        let grader = TraceGrader(exploration: trace.exploration)
        let grade: TraceGrade
        do {
            grade = try grader.grade(text)
        } catch {
            verdict = .unreadable
            feedback = ["Not read as outcomes: \(error.message)"]
            return
        }
        switch grade.verdict {
        case .exact:
            points = Double(maxPoints)
        case .incomplete(let missing):
            points = Double(maxPoints) / 2
            feedback = ["Every outcome written can happen, but \(missing.count) more can too: " + missing.map(AnswerNotation.render).joined(separator: "; ") + "."]
        case .wrong:
            let impossible = grade.predicted.filter { !trace.outcomes.contains($0) }
            for outcome in impossible {
                guard case .wrong(let why) = grader.grade([outcome]).verdict else { continue }
                feedback.append(Self.words(why))
                mistakes.append(Mistake(answer: AnswerNotation.render(outcome), rule: Self.rule(why)))
            }
            if !grade.missing.isEmpty {
                feedback.append("Left out: " + grade.missing.map(AnswerNotation.render).joined(separator: "; ") + ".")
            }
        }
    }

    /// Letters of the outcomes offered, scored by `TickScoring`; each ticked outcome that cannot
    /// happen is explained by `TraceGrader`.
    private mutating func gradeTicked(_ text: String, trace: TraceAnswer) {
        let options = item.traceOptions.map { ChoiceOption(text: AnswerNotation.render($0.outcome), isCorrect: $0.canHappen, why: nil) }
        let chosen: [Int]
        do {
            chosen = try ChoiceGrader.grade(text, options: options, order: Array(options.indices)).chosen
        } catch {
            verdict = .unreadable
            feedback = ["Not read as letters: \(error.message)"]
            return
        }
        let grader = TraceGrader(exploration: trace.exploration)
        for index in chosen where !item.traceOptions[index].canHappen {
            let outcome = item.traceOptions[index].outcome
            guard case .wrong(let why) = grader.grade([outcome]).verdict else { continue }
            feedback.append("\(Letters.letter(index)) was ticked: " + Self.words(why))
            mistakes.append(Mistake(answer: AnswerNotation.render(outcome), rule: Self.rule(why)))
        }
        let missed = item.traceOptions.indices.filter { item.traceOptions[$0].canHappen && !chosen.contains($0) }
        if !missed.isEmpty {
            feedback.append("Not ticked, but can happen: " + missed.map { "\(Letters.letter($0)) \(AnswerNotation.render(item.traceOptions[$0].outcome))" }.joined(separator: "; ") + ".")
        }
        let offered = item.traceOptions
        score(chosen: chosen, right: { offered[$0].canHappen })
    }

    /// Letters as the student's variant printed them.
    private mutating func gradeChoice(_ text: String) {
        let question = item.question
        let order = item.optionOrder
        let grade: ChoiceGrader.Grade
        do {
            grade = try ChoiceGrader.grade(text, options: question.options, order: item.optionOrder)
        } catch {
            verdict = .unreadable
            feedback = ["Not read as letters: \(error.message)"]
            return
        }
        let letter = { (index: Int) in Letters.letter(order.firstIndex(of: index) ?? 0) }
        for index in grade.chosen where !question.options[index].isCorrect {
            let why = question.options[index].why ?? "it is not a correct option."
            feedback.append("\(letter(index)) is wrong: \(why)")
            mistakes.append(Mistake(answer: question.options[index].text, rule: why))
        }
        let missed = grade.correct.filter { !grade.chosen.contains($0) }
        if !missed.isEmpty {
            feedback.append("Correct but not chosen: " + missed.map(letter).sorted().joined(separator: ", ") + ".")
        }
        let positions = grade.chosen.compactMap { order.firstIndex(of: $0) }
        score(chosen: positions, right: { question.options[order[$0]].isCorrect })
    }

    /// The tick rule when the item has one; otherwise the one correct option alone earns full marks.
    private mutating func score(chosen: [Int], right: (Int) -> Bool) {
        let rightTicked = chosen.filter(right).count
        let wrongTicked = chosen.count - rightTicked
        if let ticks = item.tickScoring {
            points = ticks.score(rightTicked: rightTicked, wrongTicked: wrongTicked)
        } else {
            points = rightTicked == 1 && wrongTicked == 0 ? Double(maxPoints) : 0
        }
    }

    /// A point per key idea stated (or all of them for a question of one idea).
    private mutating func gradeShort(_ text: String) {
        let ideas = item.question.keyIdeas
        guard !ideas.isEmpty, let grade = try? ShortAnswerGrader.grade(text, ideas: ideas) else {
            feedback = ["This question has no key ideas to grade by: a person must read it."]
            return
        }
        points = ideas.count == 1 ? (grade.found.isEmpty ? 0 : Double(maxPoints)) : Double(grade.found.count) * Double(maxPoints) / Double(ideas.count)
        if !grade.missing.isEmpty {
            feedback.append("Not said: " + grade.missing.map(\.idea).joined(separator: "; ") + ".")
        }
    }

    /// Why an outcome cannot happen, as the notes word it.
    static func words(_ why: Impossibility) -> String {
        let outcome = AnswerNotation.render(why.outcome)
        let next = why.couldComeNext.map(\.description)
        let list = next.count <= 1 ? next.joined() : next.dropLast().joined(separator: ", ") + " or " + next[next.count - 1]
        var sentence = "\(outcome) cannot happen: "
        if why.longestPrefix.isEmpty {
            sentence += "no schedule starts with \(why.wanted.description)" + (next.isEmpty ? "." : ": the run starts with \(list).")
        } else {
            sentence += "a schedule can print \(why.longestPrefix.joined(separator: " ")), but then "
                + (next.isEmpty ? "nothing comes" : "only \(list) can come") + ", not \(why.wanted.description)."
        }
        for blocker in why.blockers.prefix(2) {
            sentence += " \(why.narrator.words(for: blocker)) (rule: \(blocker.rule.statement))"
        }
        return sentence
    }

    /// The rule an impossible outcome breaks, for counting mistakes alike.
    static func rule(_ why: Impossibility) -> String {
        why.blockers.first?.rule.statement ?? "no schedule reaches it"
    }
}
