import HTTPServer
import JSONValue

/// An RFC 9457 problem: the one error shape of the API (`application/problem+json`).
///
/// Body: `{"type", "title", "status", "detail", "pointer"?, "parameter"?, ...}` where `pointer`
/// is the RFC 6901 JSON pointer of the offending member of a JSON body (e.g. `/foreground`),
/// and `parameter` names the offending query parameter of a GET request.
///
/// Client text (member and parameter names, colors, names) reaches a problem only through
/// `ClientText` and `FieldPath`, which cut it to `ClientText.limit` characters: a 1 MB member
/// name must not make a 2 MB answer.
public struct Problem: Error, Sendable, Equatable {
    /// HTTP status `400...599`.
    public var status: Int
    /// Stable problem kind; `type` is `/problems/<kind>` relative to the service (every kind: docs/api/errors.md).
    public var kind: String
    /// Short, stable summary of the kind.
    public var title: String
    /// What exactly is wrong, for a person.
    public var detail: String
    /// JSON pointer of the bad body member, if any.
    public var pointer: String?
    /// Name of the bad query parameter, if any.
    public var parameter: String?
    /// Extra members (e.g. `limit`).
    public var extra: [(String, JSON)] = []

    public init(status: Int, kind: String, title: String, detail: String,
                pointer: String? = nil, parameter: String? = nil, extra: [(String, JSON)] = []) {
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.pointer = pointer
        self.parameter = parameter
        self.extra = extra
    }

    /// Not a problem: the request costs too much for an HTTP worker thread and moves to the
    /// heavy-work pool (``HTTPResponse/moveToHeavyPool``); thrown only for a request with
    /// ``HTTPRequest/mayMoveToHeavyPool``, turned into that answer by `ContrastService.jsonBytes`.
    static let moveToHeavyPool = Problem(status: 500, kind: "move-to-heavy-pool", title: "Moved to the heavy-work pool",
                                         detail: "this request runs on the heavy-work pool")

    public static func == (a: Problem, b: Problem) -> Bool {
        a.status == b.status && a.kind == b.kind && a.detail == b.detail && a.pointer == b.pointer
            && a.parameter == b.parameter
    }

    /// The problem as JSON (member order: type, title, status, detail, pointer/parameter, extra).
    public var json: JSON {
        var o = JSONObject()
        o.append("type", .string("/problems/\(kind)"))
        o.append("title", .string(title))
        o.append("status", .number(Double(status)))
        // Client text anywhere in the detail (a member's or mode's name, a token's) shows its
        // control and format characters as `\uXXXX` (`ClientText.visible`): the pointer keeps
        // them, as it must resolve in the client's own document (a hostile pass: bidi overrides
        // came back raw in the details of unknown members, modes and custom properties).
        o.append("detail", .string(ClientText.visible(detail)))
        if let pointer { o.append("pointer", .string(pointer)) }
        if let parameter { o.append("parameter", .string(parameter)) }
        for (k, v) in extra { o.set(k, v) }
        return .object(o)
    }

    /// The HTTP response carrying this problem.
    public var response: HTTPResponse {
        HTTPResponse(status: status,
                     headers: [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")],
                     body: json.serialized())
    }
}

extension Problem {
    /// A problem about one field: `pointer` or `parameter` from `field` (each client-given name in
    /// it cut by `ClientText`); when one was cut, `pointerShortened` or `parameterShortened` is
    /// true, since the shortened pointer no longer resolves (docs/api/errors.md).
    init(status: Int, kind: String, title: String, detail: String, field: FieldPath, extra: [(String, JSON)] = []) {
        self.init(status: status, kind: kind, title: title, detail: detail,
                  pointer: field.pointer, parameter: field.parameter, extra: extra)
        if field.isShortened {
            self.extra.insert((field.parameter == nil ? "pointerShortened" : "parameterShortened", .bool(true)), at: 0)
        }
    }

    /// 400: the body is not JSON or not the JSON expected.
    static func malformedJSON(_ detail: String) -> Problem {
        Problem(status: 400, kind: "malformed-json", title: "Request body is not valid JSON", detail: detail)
    }

    /// 400: a field is missing, has the wrong type, or an invalid value.
    static func invalidField(_ field: FieldPath, _ detail: String) -> Problem {
        Problem(status: 400, kind: "invalid-field", title: "Invalid request field", detail: detail, field: field)
    }

    /// 400: a color string is not a valid CSS color.
    static func invalidColor(_ field: FieldPath, _ detail: String) -> Problem {
        Problem(status: 400, kind: "invalid-color", title: "Invalid color", detail: detail, field: field)
    }

    /// 422: valid CSS that this service cannot evaluate (document-dependent colors, a visible
    /// text shadow: the title says "cannot judge", not "syntax", since a shadow is no color syntax).
    static func unsupportedColor(_ field: FieldPath, _ detail: String) -> Problem {
        Problem(status: 422, kind: "unsupported-color", title: "Color input the service cannot judge", detail: detail, field: field)
    }

    /// 413/422: an input passes a configured limit where no one request field names it (an
    /// image's bytes, pixels or rows): `limit` and what the input measures in `extra`.
    static func limitExceeded(status: Int = 422, _ detail: String, parameter: String? = nil, limit: Int,
                              _ measured: [(String, Int)]) -> Problem {
        Problem(status: status, kind: "limit-exceeded", title: "Input exceeds a configured limit", detail: detail,
                parameter: parameter, extra: [("limit", .number(Double(limit)))] + measured.map { ($0.0, .number(Double($0.1))) })
    }

    /// 413/422: an input is larger than a configured limit.
    static func tooLarge(_ field: FieldPath, _ detail: String, limit: Int, status: Int = 413) -> Problem {
        Problem(status: status, kind: "limit-exceeded", title: "Input exceeds a configured limit", detail: detail,
                field: field, extra: [("limit", .number(Double(limit)))])
    }

    /// 415: the body's media type is not accepted.
    static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(status: 415, kind: "unsupported-media-type", title: "Unsupported Media Type", detail: detail)
    }
}

/// Client text quoted in a problem's `detail`, bounded: at most `limit` characters (Unicode
/// scalars) are echoed, a longer text is cut there with `…` and its length is said, so what a
/// client sends can be recognised without being sent back whole (docs/api/errors.md,
/// "Client text in problems"). Every echo of client text goes through here.
enum ClientText {
    /// Characters of client text echoed at most.
    static let limit = 64

    /// `text` cut to `limit` characters with `…` appended, and its length in characters when
    /// it was cut (nil when it is whole).
    static func cut<S: StringProtocol>(_ text: S) -> (text: String, length: Int?) {
        var end = text.unicodeScalars.startIndex
        var n = 0
        while n < limit, end != text.unicodeScalars.endIndex {
            text.unicodeScalars.formIndex(after: &end)
            n += 1
        }
        if end == text.unicodeScalars.endIndex { return (String(text), nil) }
        // Counted by scalars, not Characters: one Character can hold any number of scalars;
        // a scalar is a UTF-8 byte that does not continue another (counting them so is a tenth
        // of the cost of walking the scalars of a 1 MB name).
        var length = n
        for b in text.utf8[end...] where b & 0xC0 != 0x80 { length += 1 }
        return (String(String.UnicodeScalarView(text.unicodeScalars[..<end])) + "…", length)
    }

    /// `text` as a header field's value: printable ASCII only, any other character (CR and LF
    /// included) written `\u00E9` as `escaped` writes it (a hostile pass read `?` for each
    /// letter of a name beyond ASCII), at most 512 characters (cut with `...`).
    static func headerValue(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if out.utf8.count >= 503 { return out + "..." }
            if (0x20...0x7E).contains(c.value) { out.unicodeScalars.append(c) } else { out += escaped(c) }
        }
        return out
    }

    /// `'text'`, or `'first 64 characters…' (N characters, shortened)` for a longer text.
    /// Control and invisible format characters (bidi overrides, zero-width spaces, byte-order
    /// marks) are written as `\u202E`, as the text reports show them: echoed raw, a U+202E
    /// reordered the rest of the message where a terminal or a log viewer shows it (a hostile pass).
    static func quoted<S: StringProtocol>(_ text: S) -> String {
        let (t, length) = cut(text)
        return "'\(visible(t))'" + (length.map { " (\($0) characters, shortened)" } ?? "")
    }

    /// `text` with its hidden characters (`isHidden`) as `\uXXXX`, but a joiner that joins
    /// (`hiddenFlags`).
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var out = ""
        for (c, hidden) in zip(text.unicodeScalars, hiddenFlags(text)) {
            if hidden { out += escaped(c) } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// For each scalar of `text`, whether it is hidden (`isHidden`) where it stands: a zero-width
    /// joiner or non-joiner (U+200D, U+200C) between two characters that show is part of the
    /// text, not hidden (an emoji sequence 👩‍💻, a Persian word: a hostile pass found them written
    /// `\u200D` in reports and exports); anywhere else it is.
    static func hiddenFlags(_ text: String) -> [Bool] {
        let scalars = Array(text.unicodeScalars)
        func shows(_ i: Int) -> Bool { i >= 0 && i < scalars.count && !isHidden(scalars[i]) && !scalars[i].properties.isWhitespace }
        return scalars.indices.map { i in
            guard isHidden(scalars[i]) else { return false }
            return !((scalars[i].value == 0x200C || scalars[i].value == 0x200D) && shows(i - 1) && shows(i + 1))
        }
    }

    /// A character client text must not carry raw into an answer, a report or a generated file:
    /// a control character (C0, DEL, C1), a line or paragraph separator (U+2028, U+2029), or a
    /// format character (bidi overrides and isolates, zero-width spaces, U+FEFF: the "Trojan
    /// Source" reordering of what a reader sees; hostile passes).
    /// One definition with the JSON writer's escapes (`JSON.isHidden`).
    static func isHidden(_ c: Unicode.Scalar) -> Bool { JSON.isHidden(c) }

    /// `c` as `\u202E` (at least four uppercase hex digits).
    static func escaped(_ c: Unicode.Scalar) -> String {
        let hex = String(c.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
    }
}

extension Problem {
    /// The problems the HTTP layer answers itself (404, 405, 413, 414, 429, 431, 501, 503,
    /// framing 400s) in the API's one shape: `type` `/problems/<kind>` and `limit` a JSON number.
    /// Given to the router, the static files and the server, so every problem is written once.
    static let renderer = ProblemRenderer { p in
        Problem(status: p.status, kind: p.kind, title: p.title, detail: p.detail,
                extra: p.limit.map { [("limit", .number(Double($0)))] } ?? []).json.serialized()
    }
}
