import Foundation
import Testing
@testable import Sheets

@Suite struct PDFOutlineTests {
    static func bookmark(_ level: Int, _ label: String, page: Int = 0) -> PDFBookmark {
        PDFBookmark(page: page, level: level, label: label, x: 42.52, y: 800)
    }

    static func labels(_ nodes: [PDFOutline.Node]) -> [String] {
        nodes.map { node in node.children.isEmpty ? node.bookmark.label : node.bookmark.label + "(" + labels(node.children).joined(separator: " ") + ")" }
    }

    /// As WeasyPrint nests them: each under the last bookmark before it of a lower level.
    @Test func bookmarksNestByLevel() {
        let tree = PDFOutline.tree([
            Self.bookmark(2, "orphan"), Self.bookmark(1, "A"), Self.bookmark(2, "a1"), Self.bookmark(3, "a1x"), Self.bookmark(2, "a2"),
            Self.bookmark(1, "B"), Self.bookmark(3, "b-deep"), Self.bookmark(2, "b1"),
        ])
        #expect(Self.labels(tree) == ["orphan", "A(a1(a1x) a2)", "B(b-deep b1)"])
        #expect(tree.map(\.size) == [1, 4, 3])
        #expect(PDFOutline.tree([]).isEmpty)
    }

    /// The update names new objects after the last one, links the items both ways, points each
    /// at its page, and keeps the catalog's and trailer's own entries.
    @Test func theUpdateAddsTheTitleAndALinkedOutline() throws {
        let inspected = """
            {"version": 2, "qpdf": [{"jsonversion": 2, "maxobjectid": 10},
             {"obj:1 0 R": {"value": {"/Type": "/Catalog", "/Pages": "2 0 R"}},
              "trailer": {"value": {"/Root": "1 0 R", "/Size": 11, "/ID": ["b:00", "b:00"]}}}],
             "pages": [{"object": "3 0 R"}, {"object": "4 0 R"}]}
            """
        let outline = PDFOutline(title: "Quiz — key \"7\"", bookmarks: [
            Self.bookmark(1, "Key", page: 0), Self.bookmark(2, "1. First", page: 0), Self.bookmark(2, "2. Second", page: 1),
            Self.bookmark(1, "Off the end", page: 2),
        ])
        let data = try #require(outline.update(forQPDFJSON: Data(inspected.utf8)))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let parts = try #require(json["qpdf"] as? [Any])
        #expect((parts[0] as? [String: Any])?["maxobjectid"] as? Int == 15)
        let objects = try #require(parts[1] as? [String: Any])
        func value(_ reference: String) -> [String: Any] { ((objects["obj:" + reference] as? [String: Any])?["value"] as? [String: Any]) ?? [:] }
        let trailer = try #require((objects["trailer"] as? [String: Any])?["value"] as? [String: Any])
        #expect(trailer["/Root"] as? String == "1 0 R" && trailer["/ID"] != nil && trailer["/Size"] as? Int == 16)
        #expect(value(try #require(trailer["/Info"] as? String))["/Title"] as? String == "u:Quiz — key \"7\"")
        let catalog = value("1 0 R")
        #expect(catalog["/Pages"] as? String == "2 0 R" && catalog["/PageMode"] as? String == "/UseOutlines")
        let outlines = value(try #require(catalog["/Outlines"] as? String))
        #expect(outlines["/Count"] as? Int == 3, "the bookmark past the last page is left out")
        let top = try #require(outlines["/First"] as? String)
        #expect(outlines["/Last"] as? String == top)
        let key = value(top)
        #expect(key["/Title"] as? String == "u:Key" && key["/Count"] as? Int == 2)
        let first = value(try #require(key["/First"] as? String))
        let second = value(try #require(key["/Last"] as? String))
        #expect(first["/Next"] as? String == key["/Last"] as? String && second["/Prev"] as? String == key["/First"] as? String)
        #expect(first["/Parent"] as? String == top && second["/Parent"] as? String == top)
        #expect((second["/Dest"] as? [Any])?.first as? String == "4 0 R")
        #expect(outline.update(forQPDFJSON: Data("{\"pages\": []}".utf8)) == nil, "JSON qpdf did not write")
    }

    @Test func theScriptsReportIsRead() {
        let entry: [String: Any] = ["pages": 2, "bookmarks": [[1, 2, "Q", 42.5, 700.25], ["bad"]]]
        #expect(PDFMaker.laidOutDocument(entry) == LaidOutDocument(pageCount: 2, bookmarks: [
            PDFBookmark(page: 1, level: 2, label: "Q", x: 42.5, y: 700.25),
        ]))
        #expect(PDFMaker.laidOutDocument(["pages": 2]) == nil)
    }
}
