import ColorScience
import Foundation
import HTTPServer
import JSONValue

/// Where a request value came from: a JSON pointer into the body, or a query parameter name.
///
/// The last step is kept apart and joined only when the path is read: every field a request
/// reads gets a path, but only a field in an error message needs its text.
public struct FieldPath: Sendable, Equatable {
    /// The parent's path, already joined.
    private var base: String
    private var isQuery: Bool
    /// The last step, not yet joined to `base`.
    private var last: Step?

    private enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    private init(base: String, isQuery: Bool, last: Step? = nil) {
        self.base = base
        self.isQuery = isQuery
        self.last = last
    }

    static func body(_ pointer: String) -> FieldPath { FieldPath(base: pointer, isQuery: false) }
    static func query(_ name: String) -> FieldPath { FieldPath(base: name, isQuery: true) }

    /// The RFC 6901 JSON pointer of a body member (`/colors/2/value`); nil for a query parameter.
    /// Each reference token is cut to `ClientText.limit` characters (see `isShortened`).
    public var pointer: String? { isQuery ? nil : bounded.text }
    /// The query parameter name (`colors[2]`); nil for a body member. Cut to
    /// `ClientText.limit` characters (see `isShortened`).
    public var parameter: String? { isQuery ? bounded.text : nil }
    /// Whether `pointer` or `parameter` had a client-given name cut short (it then ends in `…`
    /// where the name was cut, and no longer resolves).
    var isShortened: Bool { bounded.longest != nil }

    private var joined: String {
        switch last {
        case nil: return base
        case .key(let key)?:
            if isQuery { return base.isEmpty ? key : "\(base).\(key)" }
            return base + "/" + JSONPointer.escaped(key)
        case .index(let index)?:
            return isQuery ? "\(base)[\(index)]" : base + "/\(index)"
        }
    }

    /// `joined` with every name in it cut to `ClientText.limit` characters, and the length of
    /// the longest name that was cut (nil when none was). A query parameter is one name; a
    /// pointer is cut token by token, so `/colors/3/` stays readable before a long member name.
    private var bounded: (text: String, longest: Int?) {
        let full = joined
        if full.utf8.count <= ClientText.limit { return (full, nil) }
        if isQuery {
            let (text, length) = ClientText.cut(full)
            return (text, length)
        }
        // Split at the byte '/' (ASCII: never inside another character's UTF-8), not by
        // Characters: a name of one letter and 100,000 combining accents is one Character, and
        // splitting by Characters broke graphemes and compared each with "/" (a hostile pass: 2.3
        // s of a light thread for a 1 MB name's 400); splitting the scalars still took 0.1 s of
        // it (another pass: four clients sending 1 MB names slowed a fifth's answers). The bytes
        // are read in place: a scalar is a byte that does not continue another.
        var pointer = full
        return pointer.withUTF8 { bytes -> (text: String, longest: Int?) in
            var out = ""
            var longest: Int? = nil
            var start = 0
            while true {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
                // The first `ClientText.limit` scalars of the token, and its length in scalars.
                var cut = start, scalars = 0, escapes = 0
                for i in start..<end {
                    let b = bytes[i]
                    if b & 0xC0 != 0x80 {
                        if scalars == ClientText.limit && cut == start { cut = i }
                        scalars += 1
                    }
                    if b == UInt8(ascii: "~") { escapes += 1 }
                }
                if scalars > ClientText.limit {
                    var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cut]), as: UTF8.self)
                    // Not half an escape: `~0`/`~1` stand for one character of the name.
                    if text.hasSuffix("~") { text.removeLast() }
                    out += text + "…"
                    longest = max(longest ?? 0, scalars - escapes)
                } else {
                    out += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                }
                guard end < bytes.count else { break }
                out += "/"
                start = end + 1
            }
            return (out, longest)
        }
    }

    public static func == (a: FieldPath, b: FieldPath) -> Bool {
        a.isQuery == b.isQuery && a.joined == b.joined
    }

    /// How a field is named in every message: the JSON pointer of a body member in quotes
    /// (`'/colors/2/value'`, or `request body` for the whole body), `query parameter 'name'`
    /// for a query parameter; a name cut short is followed by its length.
    var display: String {
        let (text, longest) = bounded
        let note = longest.map { " (a name of \($0) characters, shortened)" } ?? ""
        if isQuery { return "query parameter '\(text)'\(note)" }
        return text.isEmpty ? "request body" : "'\(text)'\(note)"
    }

    /// What the fields next to this one are called in messages: `fields` or `parameters`.
    var siblingsNoun: String { isQuery ? "parameters" : "fields" }

    /// The path of the member `key` beside this one (`/target/fontSize` → `/target/fontSizeUnit`);
    /// for a path whose last step is not a member, a member below it.
    func sibling(_ key: String) -> FieldPath {
        guard case .key? = last else { return appending(key) }
        return FieldPath(base: base, isQuery: isQuery, last: .key(key))
    }

    /// The path of a member below this one.
    func appending(_ key: String) -> FieldPath {
        FieldPath(base: joined, isQuery: isQuery, last: .key(key))
    }

    /// The path of an array element below this one.
    func appending(index: Int) -> FieldPath {
        FieldPath(base: joined, isQuery: isQuery, last: .index(index))
    }
}

/// Typed, validated access to one JSON object of a request (or to the query of a GET request,
/// whose values are strings and are converted as the field's type asks).
///
/// Every accessor throws a `Problem` (400) naming the field and why it is wrong.
public struct Fields: Sendable {
    let object: JSONObject
    let path: FieldPath
    let fromQuery: Bool

    init(object: JSONObject, path: FieldPath, fromQuery: Bool) {
        self.object = object
        self.path = path
        self.fromQuery = fromQuery
    }

    /// The body of a POST request as an object. Query parameters other than `allowedQuery`
    /// (each at most once) are a 400: a POST endpoint reads its input from the body, and a
    /// parameter it would ignore must not look accepted.
    static func body(_ request: HTTPRequest, allowedQuery: Set<String> = [], maxDepth: Int = 32) throws(Problem) -> Fields {
        try rejectMalformedQuery(request)
        var seen: Set<String> = []
        for item in request.query {
            guard allowedQuery.contains(item.name) else {
                let also = allowedQuery.isEmpty ? "" : " (only \(allowedQuery.sorted().joined(separator: ", ")) may be given in the query)"
                let path = FieldPath.query(item.name)
                // Name the member to write instead (a new user's pass: `?report=text` beside a JSON
                // body was told to "send the input in the JSON body", which they had).
                let member = String(decoding: JSON.object(JSONObject([(item.name, .string(item.value ?? ""))])).serialized(), as: UTF8.self)
                throw Problem.invalidField(path,
                    "\(path.display) is not accepted by \(request.method) \(request.path) with a JSON body: give it in the body as a member (\(ClientText.quoted(member)))\(also)")
            }
            if !seen.insert(item.name).inserted {
                throw Problem.invalidField(.query(item.name), "\(FieldPath.query(item.name).display) is given more than once")
            }
        }
        // The usual exact "application/json" needs no lower-casing (a copy for 16 bytes).
        if let raw = request.header("content-type"), raw != "application/json" {
            let type = raw.lowercased()
            // Split at the first ';' only when there is one (the usual "application/json" has none).
            let semicolon = type.utf8.firstIndex(of: UInt8(ascii: ";"))
            let media = semicolon.map { type[..<$0].trimmingWhitespace(newlines: false) } ?? type.trimmingWhitespace(newlines: false)
            // A structured-syntax suffix needs a real type and subtype before it (`application/vnd.x+json`).
            let slash = media.firstIndex(of: "/")
            let isJSONSuffix = media.hasSuffix("+json") && slash.map { $0 > media.startIndex
                && media.distance(from: media.index(after: $0), to: media.endIndex) > 5 } == true
            let accepted = media == "application/json" || isJSONSuffix || media == "text/plain"
                || media == "application/x-www-form-urlencoded" || media.isEmpty
            if !accepted {
                throw Problem.unsupportedMediaType("send the request body as application/json, not \(ClientText.quoted(media))")
            }
            if let semicolon {
                for parameter in type[type.index(after: semicolon)...].split(separator: ";") {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace(newlines: false) }
                    guard pair.count == 2, pair[0] == "charset" else { continue }
                    let charset = pair[1].trimmingCharacters(in: ["\""])
                    if charset != "utf-8" && charset != "utf8" {
                        throw Problem.unsupportedMediaType("JSON request bodies are UTF-8 (RFC 8259 §8.1), not charset \(ClientText.quoted(charset))")
                    }
                }
            }
        }
        let json: JSON
        do {
            json = try Self.parseJSON(request.body, maxDepth: maxDepth)
        } catch where error.isNumberOutOfRange {
            // Valid JSON whose number no double holds: the member is refused, by name.
            let path = FieldPath.body(error.pointer)
            throw Problem.invalidField(path, "\(path.display): \(error.reason) (at most ±1.7976931348623157e308)")
        } catch where error.isInexactWholeNumber {
            // A fraction no double holds, read as a whole number (a hostile pass: a font weight of
            // 699.99999999999999999 read as 700, bold, and passed AA large text).
            let path = FieldPath.body(error.pointer)
            throw Problem.invalidField(path, "\(path.display): \(error.reason)")
        } catch {
            // Form fields (`curl -d 'foreground=%23000&background=white'`) are not JSON: say what
            // to send instead (a hostile pass got only "invalid literal at byte 0").
            let body = request.body
            if request.header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
               let first = body.first, first != UInt8(ascii: "{"), first != UInt8(ascii: "["),
               body.prefix(256).contains(UInt8(ascii: "=")) {
                throw Problem.malformedJSON("request body is not valid JSON: it looks like form fields (name=value&…), as curl -d sends them; send a JSON object ('{\"foreground\": \"#000\", \"background\": \"white\"}') with -H 'content-type: application/json', or the fields as query parameters of the GET form where there is one")
            }
            throw Problem.malformedJSON("request body is not valid JSON: \(error.description)")
        }
        guard case .object(var o) = json else {
            throw Problem.invalidField(.body(""), "request body must be a JSON object, not \(json.typeName)")
        }
        // Only a body whose bytes name `variables` has a slot bound (CSSRequestScope.run).
        if CSSRequestScope.slot != nil { try CSSRequestScope.take(from: &o, at: .body("")) }
        return Fields(object: o, path: .body(""), fromQuery: false)
    }

    /// `body` parsed as JSON, one UTF-8 byte-order mark before it ignored: Windows tools write
    /// one, and RFC 8259 §8.1 lets a parser ignore it (a plugin author's pass got "unexpected
    /// character '\xef' at byte 0"). Looked for only once parsing failed, so the plain request
    /// pays nothing; an error after the mark is placed in the body as sent (a hostile pass: a
    /// second mark, at byte 3, was said to be at byte 0).
    static func parseJSON(_ body: [UInt8], maxDepth: Int) throws(JSONParseError) -> JSON {
        do {
            return try JSONParser.parse(body, maxDepth: maxDepth, refusingInexactWholeNumbers: true)
        } catch {
            guard body.starts(with: byteOrderMark) else { throw error }
            do {
                return try JSONParser.parse(Array(body.dropFirst(byteOrderMark.count)), maxDepth: maxDepth, refusingInexactWholeNumbers: true)
            } catch var after {
                after.offset += byteOrderMark.count
                throw after
            }
        }
    }

    /// The UTF-8 byte-order mark, of which one is ignored before a JSON body (RFC 8259 §8.1).
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A query argument that is not valid percent-encoded UTF-8 is a 400 naming it, instead of
    /// reaching a parser as U+FFFD or a stray `%` (`%ZZ` was "'%' is not a CSS color").
    static func rejectMalformedQuery(_ request: HTTPRequest) throws(Problem) {
        if let name = request.malformedQueryParameter {
            let path = FieldPath.query(name)
            throw Problem.invalidField(path, "\(path.display) is not valid percent-encoded UTF-8: "
                + "every % must start an escape of two hex digits (%25 for % itself), %00 is refused, and the decoded bytes must be UTF-8")
        }
    }

    /// The query of a GET request as an object of strings (repeated names are refused).
    static func query(_ request: HTTPRequest) throws(Problem) -> Fields {
        try rejectMalformedQuery(request)
        var o = JSONObject()
        for item in request.query {
            if o[item.name] != nil {
                throw Problem.invalidField(.query(item.name), "\(FieldPath.query(item.name).display) is given more than once")
            }
            o.append(item.name, .string(item.value ?? ""))
        }
        return Fields(object: o, path: .query(""), fromQuery: true)
    }

    /// The request's fields: the JSON body for POST, the query for GET and HEAD. A GET or HEAD
    /// with a body is a 400 `malformed-request`: its body would be ignored, so options sent
    /// there (`curl -X GET -d '{…}'`) were silently left out of the answer (a hostile pass).
    /// RFC 9110 §9.3.1: content in a GET has no defined meaning.
    static func from(_ request: HTTPRequest) throws(Problem) -> Fields {
        if request.method == "POST" { return try body(request) }
        if !request.body.isEmpty {
            let post = request.method == "GET" ? "send it with POST where the route takes POST, or " : ""
            throw Problem(status: 400, kind: "malformed-request", title: "Bad Request",
                          detail: "\(request.method) \(request.path) reads its input from the query string, and this request has a body (\(request.body.count) bytes), which would be ignored: \(post)give the fields as query parameters (curl -G --data-urlencode 'name=value')")
        }
        return try query(request)
    }

    func field(_ key: String) -> FieldPath { path.appending(key) }

    /// Refuses members other than `allowed`, so a misspelt option is not silently ignored.
    /// `listed` (default `allowed`) is what the message names as known, with the closest
    /// match first when the member looks misspelt (`fontsize`: did you mean 'fontSize'?).
    func rejectUnknown(_ allowed: Set<String>, listing listed: Set<String>? = nil) throws(Problem) {
        // A name longer than any member is unknown without hashing it: a Set lookup hashes the
        // normalized text, and a hostile pass's name of one letter and 520,000 combining accents
        // (1 MB) took 2.3 s of a light thread to refuse.
        for member in object.storage where member.key.utf8.count > Self.longestMemberName || !allowed.contains(member.key) {
            throw unknownMember(member.key, known: listed ?? allowed)
        }
    }

    /// Bytes of the longest member name any request takes (names are ASCII, at most 40 bytes);
    /// longer names are unknown and get no suggestion, so no work in their length is done.
    static let longestMemberName = 64

    /// Names of a box's coordinates that belong inside `region` where a request takes one.
    static let regionWords: Set<String> = ["x", "y", "w", "h", "width", "height", "left", "top", "rect", "bounds"]

    /// The 400 for the unknown member `key` (kept out of `rejectUnknown`, which every request
    /// runs: its loop stays as small as it was).
    @inline(never)
    private func unknownMember(_ key: String, known: Set<String>) -> Problem {
        let path = field(key)
        // Every JSON body also takes `variables` (read before the endpoint sees the body:
        // `CSSRequestScope`); a new user's pass found it missing from the list.
        var known = known
        if !fromQuery && self.path == .body("") { known.insert("variables") }
        let names = known.sorted()
        // A known name the unknown one begins (`w` for `width`: a new user's pass had been
        // offered `x`), else the nearest by spelling.
        let short = key.utf8.count <= Self.longestMemberName
        let lowered = short ? key.lowercased() : ""
        let close = !short ? nil : names.first { !lowered.isEmpty && $0.lowercased().hasPrefix(lowered) }
            ?? NameSuggestions.suggestions(for: key, among: names, limit: 1).first
        var hint = close.map { "; did you mean '\($0)'?" } ?? ""
        // A box's coordinates given one by one where one `region` holds them (a hostile pass:
        // `x=&y=&w=&h=` on the image route was offered `textColor`, and `x` at the body's root).
        // Before a prefix match: `h` is no `heatmap`.
        if known.contains("region"), Self.regionWords.contains(lowered) {
            hint = fromQuery ? "; the text's box is one parameter, region=x,y,width,height in pixels (e.g. region=0,0,200,80)"
                             : "; the text's box is one member, \"region\": {\"x\", \"y\", \"width\", \"height\"}"
        }
        // Custom properties are read from a JSON body only (a new user's pass, stop 43:
        // `?variables=tailwind` was just "unknown").
        if fromQuery && key == "variables" {
            hint = "; custom properties are read from a JSON body only: POST the request with \"variables\" in it (e.g. {\"variables\": \"tailwind\"})"
        }
        // After a question, a new sentence (a new user's pass: "did you mean 'fontSize'?; known").
        let lead = hint.hasSuffix("?") ? " Known" : "; known"
        return Problem.invalidField(path, "\(path.display) is unknown\(hint)\(lead) \(path.siblingsNoun): \(names.joined(separator: ", "))")
    }

    /// The raw value of `key`, treating JSON `null` as absent.
    func value(_ key: String) -> JSON? {
        guard let v = object[key] else { return nil }
        if case .null = v { return nil }
        return v
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    /// A string member; nil when absent and not `required`.
    func string(_ key: String, required: Bool = false, maxLength: Int = 1024) throws(Problem) -> String? {
        guard let v = value(key) else {
            if required { throw Problem.invalidField(field(key), "\(field(key).display) is required") }
            return nil
        }
        guard case .string(let s) = v else {
            throw Problem.invalidField(field(key), "\(field(key).display) must be a string, not \(v.typeName)")
        }
        if s.utf8.count > maxLength {
            throw Problem.invalidField(field(key), "\(field(key).display) is longer than \(maxLength) bytes")
        }
        return s
    }

    /// A name member (a color's, a gradient's, a file's): a string of at most `maxLength` bytes
    /// that shows something. Empty, or only whitespace and invisible characters (a space,
    /// U+200B, U+3164), is a 400: such a name keys an answer's rows, a column or every message
    /// of a report by nothing a reader can see (hostile passes: `"name": ""` and `"name": " "`
    /// were taken for a matrix's gradient and a token file). nil when absent and not `required`.
    func name(_ key: String, required: Bool = false, maxLength: Int) throws(Problem) -> String? {
        guard let s = try string(key, required: required, maxLength: maxLength) else { return nil }
        if s.isEmpty { throw Problem.invalidField(field(key), "\(field(key).display) must not be empty") }
        if s.unicodeScalars.allSatisfy(Fields.showsNothing) {
            throw Problem.invalidField(field(key), "\(field(key).display) must show something: \(ClientText.quoted(s)) is only whitespace or invisible characters")
        }
        return s
    }

    /// Whether `c` shows nothing by itself: whitespace, a default-ignorable or hidden character,
    /// a combining mark (which marks the character before it: alone it marks nothing; a hostile
    /// pass named a color U+0301), or a blank (U+2800 BRAILLE PATTERN BLANK, U+1D159).
    static func showsNothing(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: break
        }
        return c.properties.isWhitespace || c.properties.isDefaultIgnorableCodePoint || ClientText.isHidden(c)
            || c.value == 0x2800 || c.value == 0x1D159
    }

    /// A finite number member within `range`; query strings are parsed as decimal numbers.
    func number(_ key: String, in range: ClosedRange<Double>, required: Bool = false) throws(Problem) -> Double? {
        guard let v = value(key) else {
            if required { throw Problem.invalidField(field(key), "\(field(key).display) is required") }
            return nil
        }
        let d: Double
        switch v {
        case .number(let n): d = n
        case .string(let s) where fromQuery:
            guard let n = Fields.decimal(s) else {
                throw Problem.invalidField(field(key), "\(field(key).display) must be a number, got \(ClientText.quoted(s))")
            }
            // As in a JSON body: a fraction that reads as a whole number is refused.
            if n == n.rounded(.towardZero), !JSONParser.isWholeNumberLiteral(s.trimmingWhitespace(newlines: false)) {
                throw Problem.invalidField(field(key), "\(field(key).display): \(JSONParser.inexactWholeNumberReason(ClientText.quoted(s), n))")
            }
            d = n
        default:
            throw Problem.invalidField(field(key), "\(field(key).display) must be a number, not \(v.typeName)")
        }
        guard range.contains(d) else {
            throw Problem.invalidField(field(key), "\(field(key).display) must be between \(Fields.format(range.lowerBound)) and \(Fields.format(range.upperBound)), got \(Fields.format(d))")
        }
        return d
    }

    /// An integer member within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>, required: Bool = false) throws(Problem) -> Int? {
        guard let d = try number(key, in: Double(range.lowerBound)...Double(range.upperBound), required: required) else { return nil }
        guard d == d.rounded() else {
            throw Problem.invalidField(field(key), "\(field(key).display) must be a whole number, got \(Fields.format(d))")
        }
        return Int(d)
    }

    /// A boolean member; query strings accept `true`/`false`, `1`/`0` and `yes`/`no`, in any case.
    func bool(_ key: String) throws(Problem) -> Bool? {
        guard let v = value(key) else { return nil }
        switch v {
        case .bool(let b): return b
        case .string(let s) where fromQuery:
            switch s.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: break
            }
            // The message lists every spelling read (a hostile pass found `yes` read, unlisted).
            throw Problem.invalidField(field(key), "\(field(key).display) must be true or false (or 1/0, yes/no), got \(ClientText.quoted(s))")
        default:
            throw Problem.invalidField(field(key), "\(field(key).display) must be a boolean, not \(v.typeName)")
        }
    }

    /// One of the raw values of `E` (case-insensitive), e.g. an algorithm name.
    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(Problem) -> E? where E.RawValue == String {
        guard let s = try string(key) else { return nil }
        if let e = E.allCases.first(where: { $0.rawValue.lowercased() == s.lowercased() }) { return e }
        let all = E.allCases.map(\.rawValue)
        // The closest choice when the value looks like a misspelling or a shortening
        // (`tokenFormat=figma`: 'figma-variables'; stop 49's new user had a bare list).
        let hint = s.utf8.count <= 64 ? NameSuggestions.suggestions(for: s, among: all, limit: 1).first.map { "; did you mean '\($0)'?" } ?? "" : ""
        throw Problem.invalidField(field(key), "\(field(key).display) must be one of \(all.joined(separator: ", ")), got \(ClientText.quoted(s))\(hint)")
    }

    /// A nested object member.
    func object(_ key: String, required: Bool = false) throws(Problem) -> Fields? {
        guard let v = value(key) else {
            if required { throw Problem.invalidField(field(key), "\(field(key).display) is required") }
            return nil
        }
        guard case .object(let o) = v else {
            throw Problem.invalidField(field(key), "\(field(key).display) must be an object, not \(v.typeName)")
        }
        return Fields(object: o, path: field(key), fromQuery: fromQuery)
    }

    /// An array member with at most `maxCount` elements.
    func array(_ key: String, required: Bool = false, maxCount: Int) throws(Problem) -> [JSON]? {
        guard let v = value(key) else {
            if required { throw Problem.invalidField(field(key), "\(field(key).display) is required") }
            return nil
        }
        if fromQuery, case .string(let s) = v {
            // GET: comma-separated list is not supported for colors (commas occur inside rgb()).
            return [.string(s)]
        }
        guard case .array(let items) = v else {
            throw Problem.invalidField(field(key), "\(field(key).display) must be an array, not \(v.typeName)")
        }
        if items.count > maxCount {
            throw Problem.tooLarge(field(key), "\(field(key).display) has \(items.count) elements; the limit is \(maxCount)", limit: maxCount)
        }
        return items
    }

    /// A list of names from a fixed set, read alike from a body and a query: a JSON string or
    /// an array of strings in a body, a comma-separated list in a query (`to=oklch,hex`). At most
    /// `maxCount` entries, each trimmed of whitespace; a blank entry or an unknown name is a 400
    /// naming the entry (`/to/2`; in a query the parameter, with the entry's place in the list),
    /// as is a longer list (with `limit`). `resolve` maps a name to its value (nil: unknown).
    func names<T>(_ key: String, what: String, maxCount: Int, known: [String],
                  resolve: (String) -> T?) throws(Problem) -> [T]? {
        guard let v = value(key) else { return nil }
        let path = field(key)
        func tooMany(_ count: Int) -> Problem {
            var p = Problem.invalidField(path, "\(path.display) lists \(count) \(what)s; at most \(maxCount)")
            p.extra.append(("limit", .number(Double(maxCount))))
            return p
        }
        // Each entry with the path a problem names and how a message names it.
        var entries: [(text: Substring, path: FieldPath, display: String)] = []
        switch v {
        case .string(let s) where fromQuery:
            // Counted before splitting: a list of 1,000 entries is refused without making them.
            let count = s.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
            guard count <= maxCount else { throw tooMany(count) }
            let parts = s.split(separator: ",", omittingEmptySubsequences: false)
            for (i, part) in parts.enumerated() {
                entries.append((part, path, parts.count == 1 ? path.display : "\(path.display) (entry \(i + 1) of \(parts.count))"))
            }
        case .string(let s):
            entries = [(Substring(s), path, path.display)]
        case .array(let items):
            guard items.count <= maxCount else { throw tooMany(items.count) }
            if items.isEmpty { throw Problem.invalidField(path, "\(path.display) is an empty list; give at least one \(what)") }
            for (i, item) in items.enumerated() {
                let itemPath = path.appending(index: i)
                guard case .string(let s) = item else {
                    throw Problem.invalidField(itemPath, "\(itemPath.display) must be a string (a \(what)), not \(item.typeName)")
                }
                entries.append((Substring(s), itemPath, itemPath.display))
            }
        default:
            throw Problem.invalidField(path, "\(path.display) must be a \(what) or a list of them, not \(v.typeName)")
        }
        var values: [T] = []
        values.reserveCapacity(entries.count)
        for entry in entries {
            let name = entry.text.trimmingWhitespace(newlines: false)
            if name.isEmpty {
                throw Problem.invalidField(entry.path, "\(entry.display) is blank; give a \(what)")
            }
            guard let value = resolve(name) else {
                throw Problem.invalidField(entry.path, "\(entry.display): unknown \(what) \(ClientText.quoted(name)); known: \(known.joined(separator: ", "))")
            }
            values.append(value)
        }
        return values
    }

    /// Decimal number syntax for query values: optional sign, digits, fraction, exponent.
    static func decimal(_ s: String) -> Double? {
        let t = s.trimmingWhitespace(newlines: false)
        guard !t.isEmpty, t.utf8.count <= 64,
            t.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65 || $0 == 0x45 }),
            let d = Double(t), d.isFinite
        else { return nil }
        return d
    }

    /// A number for messages: integers without a fraction.
    static func format(_ d: Double) -> String {
        JSON.number(d).serializedString
    }

    /// `d` to at most two decimals, for sizes and levels computed in a message or basis
    /// (`21.33`, not `21.333333333333332`).
    static func rounded(_ d: Double) -> String {
        format((d * 100).rounded() / 100)
    }
}
