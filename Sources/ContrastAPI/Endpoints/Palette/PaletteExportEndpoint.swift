import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/palette/export`: the palette of `/v1/palette/dark` (light, dark, increased
/// contrast) as a file for a platform.
///
/// Request: the `/v1/palette/dark` body (`PaletteRequest`) plus `"format"` (also `?format=`):
/// - `xcassets` (alias `xcode`): a zip of `<name>.xcassets/` with one `<color>.colorset/
///   Contents.json` per color: Any, Dark, High Contrast and Dark + High Contrast entries, as
///   Xcode writes them (`application/zip`);
/// - `swift` (aliases `swiftui`, `uikit`): a Swift file, one enum of dynamic `UIColor`s and
///   their SwiftUI `Color`s, choosing the variant from the trait collection (elevated dark values
///   included) and keeping Apple system color names as the system colors (`text/x-swift`);
/// - `css`: custom properties in `:root`, with `prefers-color-scheme: dark`,
///   `prefers-contrast: more` and combined blocks (`text/css`);
/// - `tokens` (aliases `dtcg`, `design-tokens`): W3C Design Tokens Community Group JSON
///   (Format 2025.10): `$type: color`, `$value` the light color as a DTCG color object, and the
///   four modes in `$extensions.mode` (`application/json`);
/// - `android`: a zip of `res/values/colors.xml` and `res/values-night/colors.xml`, each with
///   the standard color and a `<name>_high_contrast` color (`application/zip`);
/// - `svg`: a swatch sheet (`image/svg+xml`).
/// Options: `"colorSpace"`: `srgb` (default) or `display-p3` (components of the same colors
/// expressed in Display P3; xcassets, swift, css, tokens); `"name"`: the catalog / file name (default
/// `Palette`; letters, digits, space, `-`, `_`, `.`; 1–64 bytes).
///
/// The response carries `X-Palette-Passes: true|false` (whether every variant meets its
/// target); files list failing colors in comments or descriptions.
struct PaletteExportEndpoint {
    let maxPaletteSize: Int

    enum Format: String, CaseIterable { case xcassets, swift, css, tokens, android, svg }

    static let formatAliases: [String: Format] = ["xcode": .xcassets, "dtcg": .tokens, "design-tokens": .tokens, "w3c": .tokens,
                                                  "swiftui": .swift, "uikit": .swift]

    /// `darkSelector` (CSS only): the selector that switches the theme to dark (`.dark`,
    /// `[data-theme="dark"]`), up to 128 characters of selector text (letters, digits and
    /// `-_.#[]=:()'"` and spaces: no braces, semicolons, comments or escapes that could end
    /// the rule), or nil for the `prefers-color-scheme` media queries.
    static func darkSelector(_ f: Fields, format: Format) throws(Problem) -> String? {
        guard let s = try f.string("darkSelector", maxLength: 128) else { return nil }
        let path = f.field("darkSelector")
        guard format == .css else {
            throw Problem.contradictory(path, f.field("format"), "\(path.display) chooses how the CSS file switches to dark; \(format.rawValue) files switch by their platform's appearance: drop \(path.display)")
        }
        let t = s.trimmingCharacters(in: .whitespaces)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.#[]=:()'\" ".unicodeScalars)
        let example = "a selector such as \".dark\" or \"[data-theme=dark]\""
        guard !t.isEmpty, t.unicodeScalars.allSatisfy(allowed.contains) else {
            throw Problem.invalidField(path, "\(path.display) is \(example) (letters, digits, -_.#[]=:()'\" and spaces), got \(ClientText.quoted(s))")
        }
        // Brackets and quotes balanced, so the rule the file writes is closed (a hostile pass:
        // `[data-theme="dark"` left the rest of the file inside an open bracket).
        var open: [Unicode.Scalar] = [], quote: Unicode.Scalar? = nil
        for c in t.unicodeScalars {
            if let q = quote { if c == q { quote = nil }; continue }
            switch c {
            case "\"", "'": quote = c
            case "(", "[": open.append(c)
            case ")", "]":
                guard let last = open.popLast(), (last == "(") == (c == ")") else {
                    throw Problem.invalidField(path, "\(path.display): '\(c)' closes nothing in \(ClientText.quoted(s)); give \(example)")
                }
            default: break
            }
        }
        guard open.isEmpty, quote == nil else {
            throw Problem.invalidField(path, "\(path.display): \(ClientText.quoted(s)) leaves a bracket or quote open; give \(example)")
        }
        // Something a page switches on: a class, an id or an attribute (`:root` alone would make
        // the page always dark, a bare `html` never, by specificity: a hostile pass).
        let scalars = Array(t.unicodeScalars)
        let switchable = scalars.indices.contains { i in
            let c = scalars[i]
            guard c == "." || c == "#" || c == "[" else { return false }
            guard i + 1 < scalars.count else { return false }
            let next = scalars[i + 1]
            return c == "[" || next.properties.isAlphabetic || next == "_" || next == "-"
        }
        guard switchable else {
            throw Problem.invalidField(path, "\(path.display): \(ClientText.quoted(s)) names no class, id or attribute that switches the theme; give \(example)")
        }
        // A selector a browser reads (Selectors Level 4 grammar, over the characters allowed):
        // one it cannot read drops the whole rule, and the dark theme with it (a hostile pass:
        // `[=]`, `.-` and `.a:is("x")` were accepted).
        if let problem = Self.selectorProblem(t) {
            throw Problem.invalidField(path, "\(path.display): \(ClientText.quoted(s)) is not a selector a browser reads (\(problem)), so the dark rule would be dropped; give \(example)")
        }
        return t
    }

    /// The pseudo-classes `selectorProblem` accepts (Selectors Level 4 and HTML's): without an
    /// argument; taking selectors; taking An+B; and every one that takes an argument.
    static let plainPseudoClasses: Set<String> = [
        "root", "hover", "focus", "focus-within", "focus-visible", "active", "visited", "link", "any-link",
        "checked", "disabled", "enabled", "first-child", "last-child", "only-child", "first-of-type",
        "last-of-type", "only-of-type", "empty", "target", "defined", "placeholder-shown", "read-only",
        "read-write", "required", "optional", "valid", "invalid", "in-range", "out-of-range",
        "indeterminate", "default", "fullscreen", "modal", "popover-open", "open", "autofill", "scope",
    ]
    static let selectorPseudoClasses: Set<String> = ["is", "where", "not", "has"]
    static let nthPseudoClasses: Set<String> = ["nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type"]
    static let functionalPseudoClasses = selectorPseudoClasses.union(nthPseudoClasses).union(["lang", "dir"])

    /// Why `text` is no complex selector (Selectors Level 4 §3: compound selectors of a type,
    /// classes, ids, attribute selectors `[name]`, `[name=value]` and pseudo-classes, joined by
    /// descendant spaces; `:is()`, `:where()`, `:not()` and `:has()` holding selectors), or nil.
    /// Only the characters `darkSelector` allows are seen here.
    static func selectorProblem(_ text: String) -> String? {
        let c = Array(text.unicodeScalars)
        var i = 0
        func isNameStart(_ u: Unicode.Scalar) -> Bool { u.properties.isAlphabetic || u == "_" || u.value >= 0x80 }
        func isName(_ u: Unicode.Scalar) -> Bool { isNameStart(u) || ("0"..."9").contains(u) || u == "-" }
        /// An identifier (CSS Syntax §4.3.9: `-`? then a name start, or `--`), or nil.
        func ident() -> String? {
            let start = i
            if i < c.count, c[i] == "-" {
                i += 1
                if i < c.count, c[i] == "-" { i += 1 } else if !(i < c.count && isNameStart(c[i])) { i = start; return nil }
            } else if !(i < c.count && isNameStart(c[i])) { return nil }
            while i < c.count, isName(c[i]) { i += 1 }
            return String(String.UnicodeScalarView(c[start..<i]))
        }
        func spaces() { while i < c.count, c[i] == " " { i += 1 } }
        func string() -> Bool {
            guard i < c.count, c[i] == "\"" || c[i] == "'" else { return false }
            let q = c[i]
            i += 1
            while i < c.count, c[i] != q { i += 1 }
            guard i < c.count else { return false }
            i += 1
            return true
        }
        func compound() -> String? {
            let start = i
            _ = ident()   // a type selector
            while i < c.count {
                switch c[i] {
                case ".", "#":
                    let what = c[i] == "." ? "a class" : "an id"
                    i += 1
                    guard ident() != nil else { return "\(what) needs a name after its '\(c[i - 1])'" }
                case "[":
                    i += 1; spaces()
                    guard ident() != nil else { return "an attribute selector needs a name" }
                    spaces()
                    if i < c.count, c[i] == "=" {
                        i += 1; spaces()
                        guard string() || ident() != nil else { return "an attribute's value is a name or a quoted string" }
                        spaces()
                        if i < c.count, c[i] == "i" || c[i] == "s" { i += 1; spaces() }
                    }
                    guard i < c.count, c[i] == "]" else { return "an attribute selector ends with ']'" }
                    i += 1
                case ":":
                    i += 1
                    if i < c.count, c[i] == ":" { return "a pseudo-element matches no element to switch" }
                    guard let rawName = ident() else { return "a pseudo-class needs a name" }
                    let name = rawName.lowercased()
                    let functional = i < c.count && c[i] == "("
                    // Pseudo-classes browsers know (Selectors Level 4 and HTML's): an unknown one
                    // (`:hovr`, `:-webkit-any()`) drops the rule, `:before` and its kind are the
                    // old spelling of pseudo-elements, `:host` matches outside no shadow tree (a
                    // hostile pass: all were accepted).
                    if ["before", "after", "first-line", "first-letter"].contains(name) { return ":\(rawName) is a pseudo-element, which matches no element to switch" }
                    if name == "host" { return ":host matches only inside a shadow tree" }
                    guard functional else {
                        if Self.plainPseudoClasses.contains(name) { continue }
                        return Self.functionalPseudoClasses.contains(name)
                            ? ":\(rawName) needs its argument in parentheses" : ":\(rawName) is no pseudo-class a browser knows"
                    }
                    guard Self.functionalPseudoClasses.contains(name) else {
                        return ":\(rawName)() is no functional pseudo-class a browser knows"
                    }
                    i += 1; spaces()
                    if Self.selectorPseudoClasses.contains(name) {
                        if let p = complex() { return p }
                    } else if Self.nthPseudoClasses.contains(name) {
                        // An+B (CSS Syntax §6): `odd`, `even`, `3`, `-n+2`, `2n + 1`.
                        let argStart = i
                        while i < c.count, c[i] != ")" { i += 1 }
                        let arg = String(String.UnicodeScalarView(c[argStart..<i])).replacingOccurrences(of: " ", with: "").lowercased()
                        guard arg == "odd" || arg == "even" || arg.range(of: #"^([+-]?[0-9]*n([+-][0-9]+)?|[+-]?[0-9]+)$"#, options: .regularExpression) != nil else {
                            return ":\(rawName)() takes An+B (odd, even, 3, 2n+1)"
                        }
                    } else {
                        // `:lang(en)`, `:dir(rtl)`: a name.
                        guard let arg = ident() else { return ":\(rawName)() needs a name" }
                        if name == "dir" && !["ltr", "rtl"].contains(arg.lowercased()) { return ":dir() takes ltr or rtl" }
                    }
                    spaces()
                    guard i < c.count, c[i] == ")" else { return ":\(name)( is closed by ')' after its argument" }
                    i += 1
                default:
                    return i == start ? "'\(c[i])' starts no selector" : nil
                }
            }
            return i == start ? "a selector is empty" : nil
        }
        func complex() -> String? {
            spaces()
            if let p = compound() { return p }
            while i < c.count, c[i] == " " {
                spaces()
                if i >= c.count || c[i] == ")" { break }
                if let p = compound() { return p }
            }
            return nil
        }
        if let p = complex() { return p }
        return i < c.count ? "'\(c[i])' is not expected there" : nil
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        do throws(Problem) {
            let f = try Fields.body(request, allowedQuery: ["format"])
            var format = try f.appleChoice("format", Format.self, what: "export format", aliases: Self.formatAliases)
            if let q = request.queryValue("format") {
                let qf = try Fields(object: JSONObject([("format", .string(q))]), path: .query(""), fromQuery: true)
                    .appleChoice("format", Format.self, what: "export format", aliases: Self.formatAliases)!
                if let format, format != qf {
                    throw Problem.contradictory(.query("format"), f.field("format"), "\(FieldPath.query("format").display) (\(qf.rawValue)) contradicts \(f.field("format").display) (\(format.rawValue)) of the body")
                }
                format = qf
            }
            guard let format else {
                throw Problem.invalidField(f.field("format"), "\(f.field("format").display) is required (in the body, or as \(FieldPath.query("format").display)): one of \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let space = try f.choice("colorSpace", ExportColorSpace.self) ?? .srgb
            if space == .displayP3 && (format == .android || format == .svg) {
                throw Problem.contradictory(f.field("colorSpace"), f.field("format"), "\(format.rawValue) files hold sRGB colors; drop \(f.field("colorSpace").display) or choose xcassets, swift, css or tokens")
            }
            let name = try Self.fileName(f)
            let darkSelector = try Self.darkSelector(f, format: format)
            let req = try PaletteRequest.parse(f, limit: maxPaletteSize, extraFields: ["format", "colorSpace", "name", "darkSelector"])
            let results = try req.generate()
            var export = PaletteExport(name: name, request: req, results: results, colorSpace: space)
            // A Display P3 export writes colors given outside sRGB as themselves: their rows are
            // measured again with those (`markDisplayP3Misses`), and a miss fails the palette and
            // is named in the files as well as in the headers.
            let p3Misses = export.markDisplayP3Misses()
            let passes = export.results.allSatisfy(\.passes)
            // Archives download; the text formats show inline but still name the file to save.
            let (type, body, disposition): (String, [UInt8], String)
            switch format {
            case .xcassets:
                (type, body, disposition) = ("application/zip", try zip(export.xcassets()), "attachment; filename=\"\(name).xcassets.zip\"")
            case .android:
                (type, body, disposition) = ("application/zip", try zip(export.android()), "attachment; filename=\"\(name)-android-res.zip\"")
            case .swift:
                (type, body, disposition) = ("text/x-swift; charset=utf-8", Array(export.swift().utf8), "inline; filename=\"\(name).swift\"")
            case .css:
                (type, body, disposition) = ("text/css; charset=utf-8", Array(export.css(darkSelector: darkSelector).utf8), "inline; filename=\"\(name).css\"")
            case .tokens:
                (type, body, disposition) = ("application/json", export.tokens().serializedForFiles(), "inline; filename=\"\(name).tokens.json\"")
            case .svg:
                (type, body, disposition) = ("image/svg+xml; charset=utf-8", Array(export.svg().utf8), "inline; filename=\"\(name).svg\"")
            }
            var headers = [("Content-Type", type), ("X-Palette-Passes", passes ? "true" : "false"), ("Content-Disposition", disposition)]
            if let first = p3Misses.first {
                headers.append(("X-Palette-Warning", ClientText.headerValue(p3Misses.count == 1
                    ? "1 measurement fails as exported in Display P3 (the palette measured the sRGB mapping): \(first)"
                    : "\(p3Misses.count) measurements (a variant on a surface in a context each) fail as exported in Display P3 (the palette measured the sRGB mapping); the first: \(first)")))
            }
            return HTTPResponse(status: 200, headers: headers, body: body)
        } catch {
            return error.response
        }
    }

    /// The `name` member: 1–64 bytes of letters, digits, space, `-`, `_`, `.`, not starting
    /// with `.` (it becomes a folder and file name).
    static func fileName(_ f: Fields) throws(Problem) -> String {
        guard let s = try f.string("name", maxLength: 64) else { return "Palette" }
        let ok = !s.isEmpty && !s.hasPrefix(".") && s.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || " -_.".unicodeScalars.contains($0))
        }
        guard ok else {
            throw Problem.invalidField(f.field("name"), "\(f.field("name").display) must be 1–64 ASCII letters (A–Z, a–z), digits, spaces, '-', '_' or '.', not starting with '.' (it names files in archives and Content-Disposition)")
        }
        return s
    }

    func zip(_ entries: [ZipArchive.Entry]) throws(Problem) -> [UInt8] {
        do throws(ZipArchive.Failure) {
            return try ZipArchive.build(entries)
        } catch {
            throw Problem(status: 500, kind: "archive-failed", title: "Archive could not be built",
                          detail: "libzip could not build the archive: \(error.description)")
        }
    }
}
