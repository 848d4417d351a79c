import Foundation

/// A heading WeasyPrint turned into a bookmark, where it is on its document's page.
struct PDFBookmark: Sendable, Equatable {
    /// 0-based page of the document (of the PDF, once placed).
    var page: Int
    /// 1 for an `h1`, 2 for an `h2`.
    var level: Int
    var label: String
    /// Where the heading is, in PDF points from the page's bottom left.
    var x: Double
    var y: Double
}

/// What WeasyPrint made of one HTML document: its pages and its bookmarks.
struct LaidOutDocument: Sendable, Equatable {
    var pageCount: Int
    var bookmarks: [PDFBookmark]
}

/// The document title and bookmarks (the outline) of a PDF qpdf put together from pages of other
/// PDFs, which keeps neither: WeasyPrint would have written them had it written the file itself.
/// They are added with qpdf's JSON update (qpdf 11): the PDF's objects are read as JSON, and new
/// objects for the outline and the document information are given numbers after the last.
struct PDFOutline: Sendable, Equatable {
    var title: String
    var bookmarks: [PDFBookmark]

    /// One node of the outline tree: a bookmark and the bookmarks under it.
    struct Node: Equatable {
        var bookmark: PDFBookmark
        var children: [Node] = []

        /// This node and everything under it.
        var size: Int { 1 + children.map(\.size).reduce(0, +) }
    }

    /// The bookmarks as a tree: each under the last one before it of a lower level, as
    /// WeasyPrint nests them (an `h2` under its `h1`; one with no such bookmark at the top).
    static func tree(_ bookmarks: [PDFBookmark]) -> [Node] {
        var root: [Node] = []
        // The path of indices from the top to the last node added, with each one's level.
        var path: [(index: Int, level: Int)] = []
        for bookmark in bookmarks {
            while let last = path.last, last.level >= bookmark.level { path.removeLast() }
            let index = insert(Node(bookmark: bookmark), into: &root, at: path.map(\.index))
            path.append((index, bookmark.level))
        }
        return root
    }

    /// Appends `node` to the children of the node at `path` (the top when empty); its index there.
    private static func insert(_ node: Node, into nodes: inout [Node], at path: [Int]) -> Int {
        guard let first = path.first else {
            nodes.append(node)
            return nodes.count - 1
        }
        return insert(node, into: &nodes[first].children, at: Array(path.dropFirst()))
    }

    /// The update for qpdf's `--update-from-json`: the catalog with the outline, the document
    /// information, and the trailer naming both, given what `qpdf --json=2 --json-key=qpdf
    /// --json-key=pages` says of the PDF. Nil when that JSON is not what qpdf 11 writes.
    func update(forQPDFJSON data: Data) -> Data? {
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let qpdf = json["qpdf"] as? [Any], qpdf.count == 2,
              let header = qpdf[0] as? [String: Any], let maxObjectID = header["maxobjectid"] as? Int,
              let objects = qpdf[1] as? [String: Any],
              let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any],
              let root = trailer["/Root"] as? String,
              var catalog = (objects["obj:" + root] as? [String: Any])?["value"] as? [String: Any],
              let pages = json["pages"] as? [[String: Any]] else { return nil }
        let pageObjects = pages.compactMap { $0["object"] as? String }
        guard pageObjects.count == pages.count else { return nil }

        var next = maxObjectID
        let newReference = { () -> String in
            next += 1
            return "\(next) 0 R"
        }
        var updated: [String: Any] = [:]
        let information = newReference()
        updated["obj:" + information] = ["value": ["/Title": "u:" + title, "/Creator": "u:gcdquiz"]]
        let nodes = Self.tree(bookmarks.filter { pageObjects.indices.contains($0.page) })
        if !nodes.isEmpty {
            let outlines = newReference()
            let (first, last) = Self.add(nodes, parent: outlines, pageObjects: pageObjects, to: &updated, newReference: newReference)
            updated["obj:" + outlines] = ["value": ["/Type": "/Outlines", "/First": first, "/Last": last,
                                                    "/Count": nodes.map(\.size).reduce(0, +)]]
            catalog["/Outlines"] = outlines
            catalog["/PageMode"] = "/UseOutlines"
        }
        updated["obj:" + root] = ["value": catalog]
        var newTrailer = trailer
        newTrailer["/Info"] = information
        newTrailer["/Size"] = next + 1
        updated["trailer"] = ["value": newTrailer]
        let document: [String: Any] = ["qpdf": [
            ["jsonversion": 2, "pushedinheritedpageresources": false, "calledgetallpages": false, "maxobjectid": next],
            updated,
        ]]
        return try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    }

    /// Adds outline items for `nodes`, siblings under `parent`, each open (as WeasyPrint writes
    /// them); returns the first and last item.
    private static func add(_ nodes: [Node], parent: String, pageObjects: [String], to objects: inout [String: Any],
                            newReference: () -> String) -> (first: String, last: String) {
        let references = nodes.map { _ in newReference() }
        for (index, node) in nodes.enumerated() {
            let bookmark = node.bookmark
            var item: [String: Any] = [
                "/Title": "u:" + bookmark.label,
                "/Parent": parent,
                "/Dest": [pageObjects[bookmark.page], "/XYZ", rounded(bookmark.x), rounded(bookmark.y), 0],
            ]
            if index > 0 { item["/Prev"] = references[index - 1] }
            if index < nodes.count - 1 { item["/Next"] = references[index + 1] }
            if !node.children.isEmpty {
                let (first, last) = add(node.children, parent: references[index], pageObjects: pageObjects, to: &objects, newReference: newReference)
                item["/First"] = first
                item["/Last"] = last
                item["/Count"] = node.size - 1
            }
            objects["obj:" + references[index]] = ["value": item]
        }
        return (references[0], references[references.count - 1])
    }

    /// A coordinate to a hundredth of a point, the same on every machine.
    private static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
