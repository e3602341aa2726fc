import AppleDesign
import ColorScience
import DesignTokens
import HTTPServer
import JSONValue

/// What `POST /v1/tokens/audit` was asked: the files, how to read them, which pairs, how to judge
/// and report them. From a JSON body `{"files": [{"name", "content", "mode"?}], …}` or a raw token
/// file as the body with the options in the query.
struct TokenAuditRequest {
    /// Members of the JSON body (and query parameters of the raw form, but `files` and `rules`).
    static let fields: Set<String> = ["files", "tokenFormat", "preset", "rules", "policy", "modes", "report", "failOn", "unresolved", "suggest", "gamutMethod"]
    /// Query parameters of the raw form.
    static let queryFields: Set<String> = ["name", "tokenFormat", "preset", "policy", "modes", "report", "failOn", "unresolved", "suggest", "gamutMethod"]
    static let ruleFields: Set<String> = ["foreground", "background", "role", "fontSize", "fontSizeUnit", "fontWeight", "policy", "backdrop"]
    static let maxFiles = 64
    static let maxRules = 2000
    static let maxFileNameBytes = 256

    enum Report: String, CaseIterable { case json, junit, sarif, text }
    /// When the answer is a 422 instead of a 200: `failure`, a failing audit; `warning`, also a
    /// rule that matched no pair (a misspelt token name) or an unresolved pair reported (a CI
    /// engineer's pass, stop 38: a typo in a rule could not fail the job).
    enum FailOn: String, CaseIterable { case never, failure, warning }
    enum Unresolved: String, CaseIterable { case error, report }

    var files: [TokenFile]
    var format: TokenFormat?
    var presets: [PairPreset]
    var rules: [PairRule]
    var options: TokenAuditOptions
    var report: Report
    var failOn: FailOn
    /// What a limit of the audit's size names: `/rules` when rules are given, else the presets
    /// (`/preset` or the query parameter `preset`).
    var rulesField: FieldPath = .body("/rules")
    /// `/modes` or the query parameter `modes`.
    var modesField: FieldPath = .body("/modes")
    /// A raw token file with the options in the query (not a JSON request).
    var fromQuery: Bool

    /// Reads the request.
    static func parse(_ request: HTTPRequest) throws(Problem) -> TokenAuditRequest {
        let f: Fields
        var files: [TokenFile] = []
        if Self.isJSONRequest(request) {
            f = try Fields.body(request, maxDepth: 64)
            try f.rejectUnknown(fields)
            guard let items = try f.array("files", maxCount: maxFiles) else {
                throw Problem.invalidField(f.field("files"), "\(f.field("files").display) is required: [{\"name\": \"tokens.json\", \"content\": \"<the file's text>\"}] (or send one token file as the body, options in the query)")
            }
            if items.isEmpty { throw Problem.invalidField(f.field("files"), "\(f.field("files").display) is empty: give at least one file") }
            var names = Set<String>()
            for (i, item) in items.enumerated() {
                let path = f.field("files").appending(index: i)
                guard case .object(let o) = item else {
                    throw Problem.invalidField(path, "\(path.display) must be an object {\"name\", \"content\", \"mode\"?}, not \(item.typeName)")
                }
                let ff = Fields(object: o, path: path, fromQuery: false)
                try ff.rejectUnknown(["name", "content", "mode"])
                let name = try ff.name("name", required: true, maxLength: maxFileNameBytes)!
                if !names.insert(name).inserted { throw Problem.invalidField(ff.field("name"), "\(ff.field("name").display): \(ClientText.quoted(name)) is given twice") }
                let content = try ff.string("content", required: true, maxLength: Int.max)!
                let mode = try ff.string("mode", maxLength: 128)
                files.append(TokenFile(name: name, content: content, mode: mode))
            }
        } else {
            try Fields.rejectMalformedQuery(request)
            f = try Fields.query(request)
            try f.rejectUnknown(queryFields)
            guard let text = String(validating: request.body, as: UTF8.self) else {
                throw Problem.invalidField(.body(""), "the token file in the body is not UTF-8 text")
            }
            if text.isEmpty {
                throw Problem.invalidField(.body(""), "the body is empty: send a token file (or a JSON request {\"files\": […]})")
            }
            // Every message and report location names the file by it: `name=` would name none.
            let name = try f.name("name", maxLength: maxFileNameBytes)
            files = [TokenFile(name: name ?? "tokens", content: text)]
        }
        var format: TokenFormat? = nil
        if f.has("tokenFormat") { format = try f.choice("tokenFormat", TokenFormat.self) }
        var presets: [PairPreset] = []
        if let v = f.value("preset") {
            let names: [String]
            switch v {
            case .string(let s): names = s.split(separator: ",").map { $0.trimmingWhitespace() }
            case .array(let a):
                names = try a.enumerated().map { (i, e) throws(Problem) -> String in
                    guard case .string(let s) = e else { throw Problem.invalidField(f.field("preset").appending(index: i), "\(f.field("preset").appending(index: i).display) must be a preset name") }
                    return s
                }
            default: throw Problem.invalidField(f.field("preset"), "\(f.field("preset").display) must be a preset name or a list of them")
            }
            for n in names {
                guard let p = PairPreset(rawValue: n.lowercased()) else {
                    throw Problem.invalidField(f.field("preset"), "\(f.field("preset").display): unknown preset \(ClientText.quoted(n)); presets: \(PairPreset.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if !presets.contains(p) { presets.append(p) }
            }
        }
        var rules: [PairRule] = []
        if let items = try f.array("rules", maxCount: maxRules) {
            for (i, item) in items.enumerated() {
                let path = f.field("rules").appending(index: i)
                guard case .object(let o) = item else { throw Problem.invalidField(path, "\(path.display) must be an object {\"foreground\", \"background\", …}") }
                let rf = Fields(object: o, path: path, fromQuery: false)
                try rf.rejectUnknown(ruleFields)
                func pattern(_ key: String, required: Bool) throws(Problem) -> TokenPattern? {
                    guard let s = try rf.string(key, required: required, maxLength: TokenPattern.maximumLength) else { return nil }
                    if s.isEmpty { throw Problem.invalidField(rf.field(key), "\(rf.field(key).display) must not be empty") }
                    do throws(TokenError) { return try TokenPattern(s) } catch {
                        throw Problem.invalidField(rf.field(key), "\(rf.field(key).display): \(error.reason)")
                    }
                }
                let fg = try pattern("foreground", required: true)!
                let bg = try pattern("background", required: true)!
                let backdrop = try pattern("backdrop", required: false)
                let role = try rf.choice("role", PairRole.self) ?? .text
                // CSS px, as token files and stylesheets give sizes; `fontSizeUnit: "pt"` takes
                // the points every other route takes (a new user's pass: 18 copied from
                // /v1/contrast, where it is 18 pt and large, was 18 px and small here).
                let unit: FontSizeUnit
                do { unit = try rf.choice("fontSizeUnit", FontSizeUnit.self) ?? .px } catch { try TextSpec.cssLikeSizeAndWeight(rf, failed: "fontSizeUnit"); throw error }
                if !rf.has("fontSize"), rf.has("fontSizeUnit") {
                    throw Problem.invalidField(rf.field("fontSizeUnit"), "\(rf.field("fontSizeUnit").display) needs \(rf.field("fontSize").display)")
                }
                let given: Double?, weight: Int?
                do { given = try rf.number("fontSize", in: 1...1000) } catch { try TextSpec.cssLikeSizeAndWeight(rf, failed: "fontSize"); throw error }
                do { weight = try rf.number("fontWeight", in: 100...900).map { Int($0) } } catch { try TextSpec.cssLikeSizeAndWeight(rf, failed: "fontWeight"); throw error }
                let size = given.map { unit.cssPixels($0) }
                let policy = try rf.choice("policy", TokenPolicy.self)
                // A size that is not large text contradicts role large-text (it had been judged
                // as small text without a word: a CI engineer's pass, stop 38); a size on a role
                // that is not text says nothing.
                if let size {
                    if role == .largeText, !WCAG.isLargeText(points: size * 0.75, weight: weight ?? 400) {
                        throw Problem.contradictory(rf.field("fontSize"), rf.field("role"), "\(rf.field("fontSize").display) \(Fields.format(given ?? size)) \(unit.rawValue) at weight \(weight ?? 400) is not large text (WCAG 2.2: at least 24 px = 18 pt, or 18.67 px = 14 pt at weight 700), but \(rf.field("role").display) is large-text; drop \(rf.field("fontSize").display) or give a large size")
                    }
                    if role == .icon || role == .nonText {
                        throw Problem.contradictory(rf.field("fontSize"), rf.field("role"), "\(rf.field("fontSize").display) gives a text size, but \(rf.field("role").display) \(role.rawValue) is not text; use role text or large-text, or drop \(rf.field("fontSize").display)")
                    }
                }
                rules.append(PairRule(foreground: fg, background: bg, role: role, fontSize: size, fontWeight: weight,
                                      policy: policy, backdrop: backdrop, source: "rules[\(i)]"))
            }
        }
        if presets.isEmpty && rules.isEmpty {
            let presetList = PairPreset.allCases.map { "\($0.rawValue) (\($0.source))" }.joined(separator: ", ")
            let example = "[{\"foreground\": \"color.text.*\", \"background\": \"color.surface.*\"}]"
            // Rules are JSON objects: a raw file's query has no `rules`, so the query form names
            // what works there (a preset) and the JSON request that takes rules.
            let how = f.fromQuery
                ? "give \(f.field("preset").display), one of \(presetList); or, for rules of your own, send a JSON request {\"files\": [{\"name\": …, \"content\": …}], \"rules\": \(example)} (rules are not a query parameter)"
                : "give \(f.field("rules").display) (\(example)) or \(f.field("preset").display), one of \(presetList)"
            throw Problem.invalidField(f.field("preset"), "say which pairs to check: \(how); pairs are never guessed (docs/api/tokens.md, \"Pair rules and presets\")")
        }
        var options = TokenAuditOptions()
        options.policy = try f.choice("policy", TokenPolicy.self) ?? .wcagAA
        if let v = f.value("modes") {
            switch v {
            case .string(let s): options.modes = s.split(separator: ",").map { $0.trimmingWhitespace() }
            case .array(let a):
                options.modes = try a.enumerated().map { (i, e) throws(Problem) -> String in
                    guard case .string(let s) = e else { throw Problem.invalidField(f.field("modes").appending(index: i), "\(f.field("modes").appending(index: i).display) must be a mode name") }
                    return s
                }
            default: throw Problem.invalidField(f.field("modes"), "\(f.field("modes").display) must be a list of mode names")
            }
            // Modes are named in at most 128 characters (longer selectors are cut so): a longer
            // name matches none, and is not echoed whole (a hostile pass: a 4 MB name came back
            // in a 4 MB problem).
            var isList = false
            if case .array = v { isList = true }
            for (i, m) in (options.modes ?? []).enumerated() where m.unicodeScalars.count > 128 {
                let path = isList ? f.field("modes").appending(index: i) : f.field("modes")
                throw Problem.invalidField(path, "\(path.display) names a mode of \(m.unicodeScalars.count) characters, \(ClientText.quoted(m)); mode names are at most 128 characters (longer selectors are cut so in the files)")
            }
        }
        options.reportUnresolved = (try f.choice("unresolved", Unresolved.self) ?? .error) == .report
        if f.has("suggest") { options.suggest = try f.bool("suggest") ?? true }
        options.gamutMethod = try f.choice("gamutMethod", GamutMapping.Method.self) ?? .css4
        let report = try f.choice("report", Report.self) ?? request.preferred(byAccept: Self.acceptedTypes) ?? .json
        let failOn = try f.choice("failOn", FailOn.self) ?? .never
        let rulesField = rules.isEmpty ? f.field("preset") : f.field("rules")
        for p in presets { rules += p.rules }
        return TokenAuditRequest(files: files, format: format, presets: presets, rules: rules, options: options, report: report, failOn: failOn,
                                 rulesField: rulesField, modesField: f.field("modes"), fromQuery: f.fromQuery)
    }

    /// A JSON request (`{"files": …}`) rather than a raw token file: a JSON object body whose
    /// first member is `files`, or that has a `files` array, is a request.
    static func isJSONRequest(_ request: HTTPRequest) -> Bool {
        let type = request.header("content-type")?.lowercased() ?? ""
        if type.hasPrefix("text/css") { return false }
        // One UTF-8 byte-order mark is ignored, as `Fields.body` ignores it (a designer's pass: a
        // request written by a Windows tool was read as a raw token file and asked for a preset).
        let body = request.body.starts(with: Fields.byteOrderMark) ? Array(request.body.dropFirst(Fields.byteOrderMark.count)) : request.body
        guard let json = try? JSONParser.parse(body, maxDepth: 64), case .object(let o) = json else { return false }
        if case .array? = o["files"] { return true }
        // `files` given as one file object, or beside `rules`: a JSON request written wrong,
        // answered so (a new user's pass: `{"files": {…}, "rules": […]}` was read as a raw
        // token file and told to give a preset, rules not being a query parameter).
        if case .object(let file)? = o["files"], file["content"] != nil { return true }
        return o["files"] != nil && o["rules"] != nil
    }

    /// The media types `Accept` may name a report by (`HTTPRequest.preferred(byAccept:)`; a
    /// hostile pass: `application/json;q=0, text/plain` had been answered with JSON), in order
    /// of preference for a range (`application/*` is JSON, `text/*` plain text).
    static let acceptedTypes: KeyValuePairs<String, Report> = ["application/json": .json, "application/sarif+json": .sarif, "application/junit+xml": .junit,
                                                  "application/xml": .junit, "text/plain": .text, "text/xml": .junit]
}
