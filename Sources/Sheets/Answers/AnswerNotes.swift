import ConcurrencyModel
import Quiz

/// The answer notes of a sheet: what would otherwise be repeated in every variant's key — the
/// question, every outcome and how it ends, why each near miss cannot happen, why each wrong
/// option is wrong, the model answer, the explanation — once per question, numbered. A variant's
/// key then gives only what differs between variants (its order, its letters, the points and the
/// rule) and names the note; the shared notes are laid out once however many variants there are.
/// A question only one variant asks (a generated twin) has its note at the end of that variant's
/// key instead, where the grader of that variant looks.
public struct AnswerNotes: Sendable {
    public struct Note: Sendable {
        /// 1-based: the shared notes first, then each variant's own after them.
        public var number: Int
        /// The question as the first variant that asks it asks it (options in the file's order
        /// are taken from `item.question`, not from this variant's order).
        public var item: SheetItem
        /// The variants that ask this question: every variant, unless it is a generated twin.
        public var variantIDs: [String]
        /// Every near miss a variant offers (or, written, a grader is warned of), once each, in
        /// the order the variants first meet them.
        public var distractors: [Distractor]
    }

    /// The notes of questions several variants ask (every question of a sheet of one variant),
    /// in the order the questions were chosen: the notes file.
    public var shared: [Note]
    /// Per variant number, the notes of the questions only that variant asks, in its order.
    private var own: [Int: [Note]]
    private var numbers: [Place: Int]

    private struct Place: Hashable {
        var variant: Int
        var item: Int
    }

    /// One note per distinct question (a generated twin is a question of its own).
    public init(_ sheet: Sheet) {
        var groups: [Group] = []
        var groupOf: [AnswerKey: Int] = [:]
        for variant in sheet.variants {
            for item in variant.items {
                let key = AnswerKey(item.question)
                let index = groupOf[key] ?? groups.count
                if index == groups.count {
                    groupOf[key] = index
                    groups.append(Group(first: item))
                }
                groups[index].variantIDs.append(variant.id)
                groups[index].places.append(Place(variant: variant.number, item: item.number))
                for distractor in item.distractors where !groups[index].distractors.contains(where: { $0.outcome == distractor.outcome }) {
                    groups[index].distractors.append(distractor)
                }
            }
        }
        let isOwn = { (group: Group) in sheet.variants.count > 1 && group.places.count == 1 }
        // Groups are in the order variants first ask them; a stable sort by the order the
        // questions were chosen in keeps questions that share a bank question in variant order.
        let position = Dictionary(sheet.questionIDs.enumerated().map { ($1, $0) }) { first, _ in first }
        let sharedGroups = groups.filter { !isOwn($0) }.enumerated().sorted { left, right in
            let leftPosition = position[left.element.first.bankQuestionID] ?? .max
            let rightPosition = position[right.element.first.bankQuestionID] ?? .max
            return leftPosition == rightPosition ? left.offset < right.offset : leftPosition < rightPosition
        }.map(\.element)
        var numbers: [Place: Int] = [:]
        let note = { (group: Group, number: Int) -> Note in
            for place in group.places { numbers[place] = number }
            return Note(number: number, item: group.first, variantIDs: group.variantIDs, distractors: group.distractors)
        }
        shared = sharedGroups.enumerated().map { index, group in note(group, index + 1) }
        var own: [Int: [Note]] = [:]
        for group in groups where isOwn(group) {
            let variant = group.places[0].variant
            own[variant, default: []].append(note(group, shared.count + (own[variant]?.count ?? 0) + 1))
        }
        self.own = own
        self.numbers = numbers
    }

    /// The variants asking one question, while the notes are gathered.
    private struct Group {
        var first: SheetItem
        var variantIDs: [String] = []
        var places: [Place] = []
        var distractors: [Distractor] = []
    }

    /// The number of the note on the question a variant asks as its item `item` (both 1-based).
    public func noteNumber(variant: Int, item: Int) -> Int? {
        numbers[Place(variant: variant, item: item)]
    }

    /// Whether that note ends the variant's key (it is on a question only that variant asks).
    public func isOwn(variant: Int, item: Int) -> Bool {
        numbers[Place(variant: variant, item: item)].map { $0 > shared.count } ?? false
    }

    /// The notes that end a variant's key, in its order.
    public func ownNotes(of variant: Int) -> [Note] {
        own[variant] ?? []
    }
}
