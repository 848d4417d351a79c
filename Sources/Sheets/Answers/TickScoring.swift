import Foundation

/// The one rule for a question answered by ticking boxes, on paper and in Moodle alike: each box
/// that should be ticked earns an equal share of the points, each box ticked that should not be
/// takes an equal share off, and a question never goes below 0. A blank question earns 0, and
/// so does ticking every box; ticking at random earns 0 on average. Moodle's multiple-answer
/// questions grade the same way with the fractions the export gives them (right answers share
/// 100%, wrong ones −100%, the total kept between 0 and 100%).
public struct TickScoring: Sendable, Equatable {
    /// How many boxes should be ticked, and how many should not.
    public var right: Int
    public var wrong: Int
    public var points: Int

    public init(right: Int, wrong: Int, points: Int) {
        self.right = right
        self.wrong = wrong
        self.points = points
    }

    /// The points for ticking `rightTicked` of the right boxes and `wrongTicked` of the wrong ones.
    public func score(rightTicked: Int, wrongTicked: Int) -> Double {
        let earned = right == 0 ? 0 : Double(rightTicked) / Double(right)
        let lost = wrong == 0 ? 0 : Double(wrongTicked) / Double(wrong)
        return Double(points) * min(1, max(0, earned - lost))
    }

    /// What one right box earns and one wrong box takes off, in points.
    public var shareOfRight: Double { right == 0 ? 0 : Double(points) / Double(right) }
    public var shareOfWrong: Double { wrong == 0 ? 0 : Double(points) / Double(wrong) }

    /// The rule for a key, naming the letters.
    func rule(tick: [String], leave: [String]) -> String {
        let gain = "\(Self.number(shareOfRight)) for each of \(tick.joined(separator: ", ")) ticked"
        guard !leave.isEmpty else { return gain + " (\(points) in all)." }
        return gain + "; \(Self.number(shareOfWrong)) off for each of \(leave.joined(separator: ", ")) ticked; never below 0 (a blank or every box ticked: 0)."
    }

    /// The rule as the sheet states it, once.
    public static let sheetRule = """
        Questions answered by ticking boxes: each box that should be ticked earns its share of the \
        question's points, each box ticked that should not be takes its share off, and a question \
        never goes below 0, so a blank question, or every box ticked, earns nothing.
        """

    /// A number of points as a key writes it: at most two decimals, none when whole.
    public static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
