import Foundation
import Testing
import JSONValue
@testable import ContrastAPI
import TestSupport

/// `GET /problems/<kind>`: every problem `type` resolves to a page saying what it means
/// (RFC 9457 §3.1.1; an iOS designer's pass found them 404), from the table of
/// docs/api/errors.md as `scripts/problem-types` copies it into the resource.
struct ProblemTypesTests {
    /// The table's rows as the script reads them: `| \`kind\`[, \`kind\`] | status | when |`.
    static func tableRows() throws -> [(kinds: [String], status: String, when: String)] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/api/errors.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), line.hasSuffix(" |") else { return nil }
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            guard cells.count >= 3, cells[0].range(of: #"^`[a-z-]+`((, | / )`[a-z-]+`)*$"#, options: .regularExpression) != nil,
                  cells[1].range(of: #"^[0-9, ]+$"#, options: .regularExpression) != nil else { return nil }
            let status = cells[1]
            let kinds = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            return (kinds, status, cells.dropFirst(2).joined(separator: " | "))
        }
    }

    @Test("the resource is the errors.md table (run scripts/problem-types after editing it)")
    func resourceMatchesTheDocs() throws {
        let rows = try #require(ProblemTypes.rows, "problem_types.json could not be read")
        let table = try Self.tableRows()
        #expect(table.count >= 20)
        #expect(rows.map(\.kinds) == table.map(\.kinds))
        #expect(rows.map(\.status) == table.map(\.status))
        #expect(rows.map(\.when) == table.map(\.when))
    }

    @Test("every kind's type resolves to a page; the index lists them; others are 404")
    func everyTypeResolves() throws {
        let live = try LiveServer()
        let kinds = try Self.tableRows().flatMap(\.kinds)
        for kind in Set(kinds) {
            let r = try live.request("GET", "/problems/\(kind)")
            #expect(r.status == 200 && r.headers["content-type"] == "text/html; charset=utf-8", "\(kind): \(r.status)")
            #expect(r.text.contains("<h1>/problems/\(kind)</h1>") && r.text.contains("<p>Status <strong>"), "\(r.text)")
        }
        // A problem's own type, followed as a client would.
        let bad = try live.request("POST", "/v1/contrast", body: #"{"foreground": 1}"#)
        let type = try #require(bad.json["type"]?.string)
        #expect(try live.request("GET", type).status == 200)
        let index = try live.request("GET", "/problems/")
        #expect(index.status == 200 && kinds.allSatisfy { index.text.contains("href=\"/problems/\($0)\"") })
        // Markdown becomes HTML: code spans, link texts; nothing unescaped.
        let field = try live.request("GET", "/problems/invalid-color")
        #expect(field.text.contains("<code>suggestions</code>") && !field.text.contains("](") && !field.text.contains("`"), "\(field.text)")
        #expect(try live.request("GET", "/problems/nope").status == 404)
        #expect(try live.request("GET", "/problems/%3Cscript%3E").status == 404)
    }

    @Test func markdownToHTML() {
        #expect(ProblemTypes.html("a `<b>` [c](d.md#e) & `f") == "a <code>&lt;b&gt;</code> c &amp; `f")
    }
}
