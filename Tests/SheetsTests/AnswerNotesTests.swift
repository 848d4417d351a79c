import ConcurrencyModel
import Quiz
import Testing
@testable import Sheets

@Suite struct AnswerNotesTests {
    /// Every question a variant asks has one note, named by that variant's key, in the order the
    /// questions were chosen; the notes carry every near miss any variant offers.
    @Test(arguments: [TraceForm.write, .select])
    func everyItemOfEveryVariantHasItsNote(_ form: TraceForm) throws {
        let sheet = try Fixtures.sheet(variants: 6, form: form)
        let notes = AnswerNotes(sheet)
        #expect(notes.shared.map(\.item.question.id) == Fixtures.mixedIDs)
        #expect(notes.shared.map(\.number) == Array(1...Fixtures.mixedIDs.count))
        for variant in sheet.variants {
            for item in variant.items {
                let number = try #require(notes.noteNumber(variant: variant.number, item: item.number))
                #expect(!notes.isOwn(variant: variant.number, item: item.number))
                #expect(notes.ownNotes(of: variant.number).isEmpty)
                let note = notes.shared[number - 1]
                #expect(note.item.question == item.question)
                #expect(note.variantIDs == sheet.variants.map(\.id))
                for distractor in item.distractors {
                    #expect(note.distractors.contains { $0.outcome == distractor.outcome }, "\(item.question.id): a near miss is missing from its note")
                }
            }
        }
        let offered = Set(sheet.variants.flatMap { $0.items.flatMap { $0.distractors.map(\.outcome) } })
        #expect(Set(notes.shared.flatMap { $0.distractors.map(\.outcome) }) == offered, "a note lists a near miss no variant offers")
        #expect(notes.shared.allSatisfy { Set($0.distractors.map(\.outcome)).count == $0.distractors.count }, "a near miss is listed twice")
    }

    /// A question replaced per variant is a question per variant: each twin has its own note, at
    /// the end of the key of the variant that asks it, numbered after the shared notes.
    @Test func eachTwinHasItsNoteInItsVariantsKey() throws {
        let sheet = try SheetPlanner(title: "t", seed: 1, variantCount: 3, traceForm: .write)
            .plan(try Fixtures.questions(["barrier-purpose", "serial-async-async", "semaphore-basics"]), answers: AnswerBook(bank: Fixtures.bank),
                  provider: Fixtures.printingTwins)
        let notes = AnswerNotes(sheet)
        #expect(notes.shared.map(\.item.question.id) == ["barrier-purpose", "semaphore-basics"])
        let files = SheetRenderer(format: .md, paper: .a4).render(sheet)
        let notesFile = Fixtures.text(try #require(files.last))
        for variant in sheet.variants {
            let item = try #require(variant.items.first { $0.bankQuestionID == "serial-async-async" })
            #expect(notes.noteNumber(variant: variant.number, item: item.number) == 3)
            #expect(notes.isOwn(variant: variant.number, item: item.number))
            let own = notes.ownNotes(of: variant.number)
            #expect(own.map(\.number) == [3])
            #expect(own.map(\.item.question.code) == ["print(\(variant.number))\n"])
            #expect(own.map(\.variantIDs) == [[variant.id]])
            let key = Fixtures.text(try #require(files.first { $0.name == "key-\(variant.id).md" }))
            #expect(key.contains("· note 3 (below)"))
            let ownPart = try #require(key.components(separatedBy: "**Notes on the questions only this variant asks**").last)
            #expect(ownPart.contains("1 │ print(\(variant.number))"))
            #expect(!notesFile.contains("print(\(variant.number))"), "a twin's note is in the notes file")
        }
        #expect(notesFile.contains("2 questions") && notesFile.contains("end of that variant's key"))
    }

    /// A sheet of one variant keeps every note in the notes file, twins included.
    @Test func oneVariantKeepsEveryNoteInTheNotes() throws {
        let sheet = try SheetPlanner(title: "t", seed: 1, variantCount: 1, traceForm: .write)
            .plan(try Fixtures.questions(["barrier-purpose", "serial-async-async"]), answers: AnswerBook(bank: Fixtures.bank),
                  provider: Fixtures.printingTwins)
        let notes = AnswerNotes(sheet)
        #expect(notes.shared.count == 2 && notes.ownNotes(of: 1).isEmpty)
    }

    /// The combined key is every variant's key, then the notes once.
    @Test func theCombinedKeyEndsWithTheNotesOnce() throws {
        let files = SheetRenderer(format: .html, paper: .a4).render(try Fixtures.sheet(variants: 3))
        let keys = Fixtures.text(try #require(files.first { $0.name == "keys.html" }))
        #expect(keys.components(separatedBy: "<section class=\"variant key\"").count == 4)
        #expect(keys.components(separatedBy: "<section class=\"variant notes\"").count == 2)
        let lastKey = try #require(keys.range(of: "id=\"key-3\""))
        let notes = try #require(keys.range(of: "id=\"notes\""))
        #expect(lastKey.upperBound < notes.lowerBound)
    }
}
