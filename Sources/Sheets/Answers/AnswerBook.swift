import ConcurrencyModel
import LiveRun
import Quiz

/// Computes each question's answer once per sheet and keeps it while the sheet is written: a
/// trace puzzle is explored once however many variants ask it, and each near miss is explained
/// once however many variants offer it.
public final class AnswerBook {
    /// Runs trace puzzles live for the key (`--live`); nil for none.
    public var live: LiveRunning?
    private let bank: Bank?
    private var answers: [AnswerKey: QuestionAnswer] = [:]
    private var explanations: [AnswerKey: [Outcome: Impossibility]] = [:]
    /// Generated puzzles' programs and complete explorations, made by the generator's checks.
    private var adopted: [AnswerKey: (program: Program, exploration: Exploration)] = [:]

    /// - Parameter bank: the bank the questions come from, whose compiled programs are reused.
    public init(bank: Bank?, live: LiveRunning? = nil) {
        self.bank = bank
        self.live = live
    }

    /// The question's answer, computed on first use.
    public func answer(for question: Question) throws(SheetError) -> QuestionAnswer {
        let key = AnswerKey(question)
        if let known = answers[key] { return known }
        let answer: QuestionAnswer
        switch question.kind {
        case .trace:
            answer = .trace(try traceAnswer(for: question))
        case .choice:
            answer = .choice(ChoiceAnswer(correct: question.options.indices.filter { question.options[$0].isCorrect }))
        case .short:
            answer = .short(ShortAnswer(modelAnswer: question.modelAnswer ?? "", keyIdeas: question.keyIdeas))
        case .schedule:
            throw QuestionFilter.playedAtATerminal(question.id)
        case .line:
            // Sheets and exports ask a line question as the choice question it becomes.
            let choice = try LineQuestions.asChoice(question)
            answer = .choice(ChoiceAnswer(correct: choice.options.indices.filter { choice.options[$0].isCorrect }))
        }
        answers[key] = answer
        return answer
    }

    /// Takes a generated puzzle's program and exploration as its answer's, so that it is not
    /// explored twice; ignored unless the exploration is complete.
    public func adopt(_ question: Question, program: Program, exploration: Exploration) {
        guard exploration.isComplete else { return }
        adopted[AnswerKey(question)] = (program, exploration)
    }

    /// The trace answer of a trace question (a convenience for callers that know the kind).
    public func traceAnswer(for question: Question) throws(SheetError) -> TraceAnswer {
        if case .trace(let known)? = answers[AnswerKey(question)] { return known }
        let (program, exploration) = try explored(question)
        var live: LiveComparison?
        if let runner = self.live {
            do {
                live = LiveComparison(histogram: try runner.histogram(of: program, code: question.code ?? ""), exploration: exploration)
            } catch {
                throw .internalFailure("live runs of '\(question.id)' failed: \(error)")
            }
        }
        let answer = TraceAnswer(exploration: exploration, nearMisses: NearMissFinder.candidates(for: exploration), live: live)
        answers[AnswerKey(question)] = .trace(answer)
        return answer
    }

    /// The question's program and its complete exploration: adopted, or computed now.
    private func explored(_ question: Question) throws(SheetError) -> (Program, Exploration) {
        if let known = adopted[AnswerKey(question)] { return known }
        let program: Program
        switch bank?.program(of: question) ?? question.program() {
        case .success(let compiled): program = compiled
        case .failure(let problems):
            throw .badInput("'\(question.id)' does not compile: " + problems.problems.map(\.message).joined(separator: "; "))
        }
        let exploration = Explorer().explore(program)
        guard let stop = exploration.stop else { return (program, exploration) }
        // A key never lists a partial answer: the question is named, for the instructor to leave it out.
        throw .badInput("'\(question.id)': \(stop), so its key would not list every outcome: leave it out (--ids) or make it smaller")
    }

    /// Why the model rules out one near miss of a trace question: the explainer's answer, kept.
    /// Nil if, against expectation, a schedule does produce it.
    func explain(_ candidate: NearMissCandidate, of question: Question, in answer: TraceAnswer) -> Distractor? {
        let key = AnswerKey(question)
        if let why = explanations[key]?[candidate.outcome] { return Distractor(candidate: candidate, why: why) }
        guard case .impossible(let why) = Explainer(exploration: answer.exploration).explain(candidate.outcome) else { return nil }
        explanations[key, default: [:]][candidate.outcome] = why
        return Distractor(candidate: candidate, why: why)
    }
}

/// Runs a program live on libdispatch for the key: the executable passes its self-hosted runner.
public protocol LiveRunning {
    /// `code` decides how the runs run (`LiveRoute`): Swift-concurrency snippets compiled.
    func histogram(of program: Program, code: String) throws -> LiveHistogram
}

/// The live runner with the run count the key asks for: 200 runs, or 30 for snippets that sleep
/// (their runs take real time).
public struct KeyLiveRuns: LiveRunning {
    public var runner: LiveRunner
    public var seed: UInt64

    public init(runner: LiveRunner, seed: UInt64) {
        self.runner = runner
        self.seed = seed
    }

    public func histogram(of program: Program, code: String) throws -> LiveHistogram {
        try runner.run(code: code, program: program, options: LiveRunner.Options(runs: program.usesTime ? 30 : 200, seed: seed))
    }
}

/// Identifies a question's content: a generated variant shares its id with the puzzle it came
/// from but not its code.
struct AnswerKey: Hashable {
    var id: String
    var code: String?

    init(_ question: Question) {
        id = question.id
        code = question.code
    }
}
