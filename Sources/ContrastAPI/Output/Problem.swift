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

    /// `text` with the characters hidden where they stand (`hiddenFlags`) as `\uXXXX`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mayHide) else { return text }
        var out = ""
        for (c, hidden) in zip(text.unicodeScalars, hiddenFlags(text)) {
            if hidden { out += escaped(c) } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// Whether `c` is hidden (`isHidden`) or may be, depending on its neighbors (`hiddenFlags`):
    /// the zero-width joiner and non-joiner and the variation selectors.
    static func mayHide(_ c: Unicode.Scalar) -> Bool {
        isHidden(c) || c.value == 0x200C || c.value == 0x200D || (0xFE00...0xFE0F).contains(c.value)
            || (0xE0100...0xE01EF).contains(c.value) || (0x180B...0x180F).contains(c.value)
    }

    /// For each scalar of `text`, whether it is hidden where it stands. `isHidden` characters
    /// are, but for a few that are part of the text in their place (hostile passes found emoji
    /// sequences and Persian words written `\u200D`, and then a joiner between Latin letters,
    /// `pri\u200Dmary`, kept raw, which made two token names look alike):
    /// - a zero-width joiner (U+200D) in an emoji sequence (👩‍💻: after an emoji, its
    ///   presentation selector or skin tone, before an emoji), or either joiner (U+200C, U+200D)
    ///   between two letters or marks of a script that joins or forms conjuncts (Arabic, Syriac,
    ///   Thaana, N'Ko, the Indic scripts, Tibetan, Myanmar, Khmer, Mongolian);
    /// - a variation selector after a character it can vary: U+FE0E and U+FE0F after an emoji
    ///   (a keycap's digit included), U+FE00–U+FE0D after a character outside ASCII that shows,
    ///   U+E0100–U+E01EF after a CJK ideograph, U+180B–U+180F after a Mongolian letter. Anywhere
    ///   else a variation selector changes nothing a reader sees, and is hidden.
    static func hiddenFlags(_ text: String) -> [Bool] {
        let s = Array(text.unicodeScalars)
        func shows(_ i: Int) -> Bool { i >= 0 && i < s.count && !isHidden(s[i]) && !s[i].properties.isWhitespace }
        func emoji(_ u: Unicode.Scalar) -> Bool { u.value >= 0x203C && u.properties.isEmoji }
        func emojiBefore(_ i: Int) -> Bool {
            var j = i - 1
            while j >= 0, s[j].value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(s[j].value) { j -= 1 }
            return j >= 0 && emoji(s[j])
        }
        func joining(_ i: Int) -> Bool {
            guard i >= 0, i < s.count else { return false }
            let v = s[i].value
            return (0x0600...0x08FF).contains(v) || (0x0900...0x0DFF).contains(v) || (0x0F00...0x109F).contains(v)
                || (0x1780...0x18AF).contains(v) || (0xA8E0...0xA8FF).contains(v) || (0xFB50...0xFDFF).contains(v)
                || (0xFE70...0xFEFF).contains(v)
        }
        func cjk(_ u: Unicode.Scalar) -> Bool {
            (0x3400...0x9FFF).contains(u.value) || (0xF900...0xFAFF).contains(u.value) || (0x20000...0x3FFFF).contains(u.value)
        }
        return s.indices.map { i in
            let v = s[i].value
            switch v {
            case 0x200D: return !((emojiBefore(i) && i + 1 < s.count && emoji(s[i + 1])) || (joining(i - 1) && joining(i + 1)))
            case 0x200C: return !(joining(i - 1) && joining(i + 1))
            case 0xFE0E, 0xFE0F: return !(i > 0 && s[i - 1].properties.isEmoji)
            case 0xFE00...0xFE0D: return !(i > 0 && s[i - 1].value >= 0x80 && shows(i - 1))
            case 0xE0100...0xE01EF: return !(i > 0 && cjk(s[i - 1]))
            case 0x180B...0x180F: return !(i > 0 && (0x1820...0x18AF).contains(s[i - 1].value))
            default: return isHidden(s[i])
            }
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
