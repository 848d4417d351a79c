extension Grade {
    /// The grade as the learner reads it: "right", "incomplete", "partly right", "wrong",
    /// "skipped", "out of time".
    public var spoken: String {
        switch self {
        case .exact, .right: "right"
        case .incomplete: "incomplete"
        case .partial: "partly right"
        case .wrong: "wrong"
        case .skipped: "skipped"
        case .unanswered: "out of time"
        case .reached: "reached"
        case .gaveUp: "gave up"
        }
    }
}
