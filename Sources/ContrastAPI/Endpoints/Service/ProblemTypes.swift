import Foundation
import HTTPServer
import JSONValue

/// `GET /problems/<kind>` and `GET /problems/`: what each problem type means, as a small HTML
/// page. RFC 9457 §3.1.1: a problem's `type` URI, dereferenced, should give human-readable
/// documentation; every problem here has `"type": "/problems/<kind>"`, a reference relative to
/// the request, and had answered 404 (an iOS designer's pass).
///
/// The text is the problem-kind table of `docs/api/errors.md`, copied into the package resource
/// `Resources/problem_types.json` by `scripts/problem-types` (`--check` in CI; the tests hold the
/// resource against the table): `[{"kinds": [String], "status": "400" | "413, 422" …, "when":
/// Markdown}]`. Loaded on first use; the pages are served by the router's fallback, so the
/// routes cost nothing until asked for.
enum ProblemTypes {
    struct Row: Sendable { var kinds: [String]; var status: String; var when: String }

    /// The rows, or nil when the resource cannot be read (a packaging defect: the pages are then 404).
    static let rows: [Row]? = load()

    static func load() -> [Row]? {
        guard AppleData.bundleProblem() == nil,
              let url = Bundle.module.url(forResource: "problem_types", withExtension: "json")
                ?? Bundle.module.url(forResource: "problem_types", withExtension: "json", subdirectory: "Resources"),
              let data = try? Data(contentsOf: url),
              case .array(let items)? = try? JSONParser.parse(Array(data), maxDepth: 8) else { return nil }
        return items.compactMap { (item: JSON) -> Row? in
            guard case .array(let kinds)? = item["kinds"], case .string(let status)? = item["status"],
                  case .string(let when)? = item["when"] else { return nil }
            return Row(kinds: kinds.compactMap { if case .string(let s) = $0 { s } else { nil } }, status: status, when: when)
        }
    }

    /// The page for `path` (`/problems/`, `/problems`, `/problems/<kind>`), nil when it is none.
    static func response(for path: String) -> HTTPResponse? {
        guard path == "/problems" || path.hasPrefix("/problems/"), let rows else { return nil }
        let kind = String(path.dropFirst("/problems".count).drop { $0 == "/" })
        if kind.isEmpty {
            var body = "<h1>Problem types</h1>\n<p>Every error of this service is an RFC 9457 problem (<code>application/problem+json</code>) whose <code>type</code> is one of these.</p>\n<table>\n<tr><th>type</th><th>status</th><th>when</th></tr>\n"
            for row in rows {
                let links = row.kinds.map { "<a href=\"/problems/\(escape($0))\">/problems/\(escape($0))</a>" }.joined(separator: ", ")
                body += "<tr><td>\(links)</td><td>\(escape(row.status))</td><td>\(html(row.when))</td></tr>\n"
            }
            return page(title: "Problem types", body: body + "</table>\n")
        }
        let matching = rows.filter { $0.kinds.contains(kind) }
        guard !matching.isEmpty else { return nil }
        var body = "<h1>/problems/\(escape(kind))</h1>\n"
        for row in matching {
            let when = row.when.hasSuffix(".") ? String(row.when.dropLast()) : row.when
            body += "<p>Status <strong>\(escape(row.status))</strong>: \(html(when)).</p>\n"
        }
        body += "<p>The problem's <code>detail</code> says what was wrong in that request, and <code>pointer</code> or <code>parameter</code> names the member. <a href=\"/problems/\">All problem types</a>.</p>\n"
        return page(title: "/problems/\(kind)", body: body)
    }

    static func page(title: String, body: String) -> HTTPResponse {
        let text = "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>\(escape(title)) · ContrastService</title></head>\n<body>\n\(body)</body>\n</html>\n"
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    /// Text with `&`, `<`, `>` and `"` escaped.
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The table's Markdown as HTML: `code` spans, link texts (the links point into the docs,
    /// which the server does not serve), the rest escaped.
    static func html(_ markdown: String) -> String {
        var out = "", rest = Substring(markdown)
        while let tick = rest.firstIndex(of: "`") {
            out += links(rest[..<tick])
            let after = rest[rest.index(after: tick)...]
            guard let close = after.firstIndex(of: "`") else { rest = rest[tick...]; break }
            out += "<code>\(escape(String(after[..<close])))</code>"
            rest = after[after.index(after: close)...]
        }
        return out + links(rest)
    }

    /// `[text](target)` as its text, escaped.
    static func links(_ s: Substring) -> String {
        escape(String(s).replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression))
    }
}
