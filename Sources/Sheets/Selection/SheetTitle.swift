import Quiz

/// The title a sheet gets when the instructor gives none: what its questions are about, so that
/// a sheet of actor questions is not headed "GCD and OperationQueue".
public enum SheetTitle {
    public static func `default`(for questions: [Question]) -> String {
        let swift = questions.filter { !Set($0.tags).isDisjoint(with: Topic.swiftConcurrency) }.count
        if swift == 0 { return "GCD and OperationQueue quiz" }
        if swift == questions.count { return "Swift concurrency quiz" }
        return "Concurrency quiz"
    }
}
