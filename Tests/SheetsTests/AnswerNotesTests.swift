import DispatchModel
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
        #expect(notes.notes.map(\.item.question.id) == Fixtures.mixedIDs)
        #expect(notes.notes.map(\.number) == Array(1...Fixtures.mixedIDs.count))
        for variant in sheet.variants {
            for item in variant.items {
                let number = try #require(notes.noteNumber(variant: variant.number, item: item.number))
                let note = notes.notes[number - 1]
                #expect(note.item.question == item.question)
                #expect(note.variantIDs == sheet.variants.map(\.id))
                for distractor in item.distractors {
                    #expect(note.distractors.contains { $0.outcome == distractor.outcome }, "\(item.question.id): a near miss is missing from its note")
                }
            }
        }
        let offered = Set(sheet.variants.flatMap { $0.items.flatMap { $0.distractors.map(\.outcome) } })
        #expect(Set(notes.notes.flatMap { $0.distractors.map(\.outcome) }) == offered, "a note lists a near miss no variant offers")
        #expect(notes.notes.allSatisfy { Set($0.distractors.map(\.outcome)).count == $0.distractors.count }, "a near miss is listed twice")
    }

    /// A question replaced per variant is a question per variant: each twin has its own note,
    /// after the bank question's place, and says which variant asks it.
    @Test func eachTwinHasANoteOfItsOwn() throws {
        let sheet = try SheetPlanner(title: "t", seed: 1, variantCount: 3, traceForm: .write)
            .plan(try Fixtures.questions(["barrier-purpose", "serial-async-async", "semaphore-basics"]), answers: AnswerBook(bank: Fixtures.bank),
                  provider: Fixtures.printingTwins)
        let notes = AnswerNotes(sheet)
        #expect(notes.notes.map(\.item.bankQuestionID) == ["barrier-purpose", "serial-async-async", "serial-async-async", "serial-async-async", "semaphore-basics"])
        #expect(notes.notes[1...3].map(\.variantIDs) == [["1"], ["2"], ["3"]])
        #expect(notes.notes[1...3].map { $0.item.question.code } == ["print(1)\n", "print(2)\n", "print(3)\n"])
        for variant in sheet.variants {
            let item = try #require(variant.items.first { $0.bankQuestionID == "serial-async-async" })
            let number = try #require(notes.noteNumber(variant: variant.number, item: item.number))
            #expect(notes.notes[number - 1].item.question.code == "print(\(variant.number))\n")
        }
        let markdown = Fixtures.text(try #require(SheetRenderer(format: .md, paper: .a4).render(sheet).last))
        #expect(markdown.contains("asked by variant 2"))
        #expect(!markdown.contains("`barrier-purpose` · asked by"), "a note asked by every variant names them")
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
