import ColorScience
import Foundation
import JSONValue

/// Which format submitted token files are in, and reading them with the right reader.
///
/// Detection looks at content, not names (except Tokens Studio's `$themes.json` and
/// `$metadata.json`): Figma's REST answer has `meta.variableCollections`; Material Theme Builder
/// exports have DSP `entities`, flat `md.…` keys or `schemes`; Tokens Studio has `$themes` /
/// `$metadata`; DTCG has `$value` (or is a 2025.10 resolver document); objects with `value` are
/// Tokens Studio when every one has a `type` and nothing Style-Dictionary-only is present, else
/// Style Dictionary; text that is not JSON is CSS (Tailwind when it has `@theme`).
public enum TokenFormats {
    /// Most tokens read from one request's files (readers also stop collecting a file's entries
    /// there, before they reach the table).
    public static let maximumTokens = 20_000
    /// Most values a read may hold across tokens and modes (each token's value in each mode;
    /// a hostile pass: 19,900 tokens in 64 Tokens Studio themes held 420 MB for one request, and
    /// four at once 929 MB). A large real system (5,000 variables in 10 modes) holds 50,000.
    public static let maximumModeValues = 200_000
    /// Deepest nesting of JSON arrays and objects accepted (groups in groups in …).
    public static let maximumDepth = 64
    /// Most modes (themes, resolver contexts, collection modes) one request may define.
    public static let maximumModes = 64
    /// Object nodes detection looks at per file before deciding on what it saw.
    static let detectionNodeBudget = 4_096

    /// The format of `files`, or nil when it cannot be told (mixed JSON and CSS, JSON of no
    /// known shape, no files).
    public static func detect(_ files: [TokenFile]) -> TokenFormat? {
        guard !files.isEmpty else { return nil }
        let jsonFiles = files.filter(JSONTokenDocument.looksLikeJSON)
        if jsonFiles.isEmpty { return detectCSS(files) }
        guard jsonFiles.count == files.count else { return nil }
        var documents: [JSONTokenDocument] = []
        for file in files {
            guard let document = try? JSONTokenDocument.parse(file) else { return nil }
            documents.append(document)
        }
        return detect(documents: documents)
    }

    /// The tokens of `files` in `format` (detected when nil).
    /// - Throws: `TokenError` when the format cannot be told or the files are not in it, and the
    ///   reader's errors (malformed input, unknown structure, the limits above), each naming the
    ///   file, the token and the line.
    public static func read(_ files: [TokenFile], format: TokenFormat?) throws(TokenError) -> TokenSet {
        let set = try readFormat(files, format: format)
        for t in set.tokens where t.path.utf8.count > maximumNameBytes {
            throw TokenError(file: t.location.file, path: t.path, location: t.location,
                             reason: "the token name is \(t.path.utf8.count) bytes long; the limit is \(maximumNameBytes) bytes (the longest pattern a rule can give)")
        }
        return set
    }

    /// The files `@import` rules in `files` name (`@import url(a.css)`, `@import "a.css"`), in
    /// order, at most 16: what a stylesheet without tokens points to.
    static func importedFiles(_ files: [TokenFile]) -> [String] {
        var found: [String] = []
        for file in files {
            var rest = Substring(file.content)
            while found.count < 16, let at = rest.range(of: "@import") {
                rest = rest[at.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                var target = rest
                if target.hasPrefix("url(") { target = target.dropFirst(4).drop { $0 == " " } }
                guard let quote = target.first else { break }
                let closing: Character = quote == "\"" || quote == "'" ? quote : ")"
                if closing == quote { target = target.dropFirst() }
                guard let end = target.prefix(512).firstIndex(where: { $0 == closing || $0 == ")" || $0 == ";" || $0 == "\n" }) else { continue }
                let name = target[..<end].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, !found.contains(name) { found.append(name) }
                rest = target[end...]
            }
        }
        return found
    }

    /// Longest token name (path) read, in UTF-8 bytes: a rule's exact pattern can name any token.
    public static let maximumNameBytes = TokenPattern.maximumLength

    static func readFormat(_ files: [TokenFile], format: TokenFormat?) throws(TokenError) -> TokenSet {
        guard !files.isEmpty else { throw TokenError(reason: "no token files were given") }
        let named = TokenFormat.allCases.map(\.rawValue).joined(separator: ", ")
        var chosen = format
        var documents: [JSONTokenDocument]? = nil
        if chosen == nil {
            let jsonFiles = files.filter(JSONTokenDocument.looksLikeJSON)
            if jsonFiles.isEmpty {
                chosen = detectCSS(files)
            } else if jsonFiles.count != files.count {
                let css = files.first { !JSONTokenDocument.looksLikeJSON($0) }!
                throw TokenError(file: css.name, reason: "\(jsonFiles[0].name) is JSON but \(css.name) is not: send the files of one format per request")
            } else {
                let parsed = try parseAll(files)
                documents = parsed
                chosen = detect(documents: parsed)
            }
        }
        guard let chosen else {
            // A stylesheet of `@import`s only (Material's css/baseline.css) holds no tokens: say
            // what it imports, which is what to send (a new user's pass had only been told to name
            // a format).
            let imports = documents == nil ? importedFiles(files) : []
            if !imports.isEmpty {
                throw TokenError(file: files.count == 1 ? files[0].name : nil,
                                 reason: "no custom properties or tokens here, only @import of \(imports.prefix(4).joined(separator: ", "))\(imports.count > 4 ? ", …" : ""): imports are not fetched; send the imported files themselves (several in one request as files: [...])")
            }
            throw TokenError(file: files.count == 1 ? files[0].name : nil,
                             reason: "the token format could not be told from the content: name it with tokenFormat (one of \(named))")
        }
        switch chosen {
        case .css, .tailwind:
            return try CSSThemeReader.read(files)
        case .dtcg, .tokensStudio, .styleDictionary, .figmaVariables, .material:
            let docs: [JSONTokenDocument]
            if let documents { docs = documents } else { docs = try parseAll(files, format: chosen) }
            switch chosen {
            case .dtcg: return try DTCGReader.read(documents: docs)
            case .tokensStudio: return try TokensStudioReader.read(documents: docs)
            case .styleDictionary: return try StyleDictionaryReader.read(documents: docs)
            case .figmaVariables: return try FigmaVariablesReader.read(documents: docs)
            default: return try MaterialReader.read(documents: docs)
            }
        }
    }

    /// Every file parsed as JSON; a file that is not JSON at all is named with the format wanted.
    static func parseAll(_ files: [TokenFile], format: TokenFormat? = nil) throws(TokenError) -> [JSONTokenDocument] {
        var documents: [JSONTokenDocument] = []
        documents.reserveCapacity(files.count)
        for file in files {
            if !JSONTokenDocument.looksLikeJSON(file) {
                let what = format.map { "the \($0.rawValue) format is JSON" } ?? "expected JSON"
                throw TokenError(file: file.name, location: TokenLocation(file: file.name, line: 1, column: 1),
                                 reason: "not JSON (\(what)); CSS files are read with tokenFormat css or tailwind")
            }
            documents.append(try JSONTokenDocument.parse(file))
        }
        return documents
    }

    static func detectCSS(_ files: [TokenFile]) -> TokenFormat? {
        guard CSSThemeReader.detect(files) else { return nil }
        return files.contains { $0.content.contains("@theme") } ? .tailwind : .css
    }

    // MARK: - JSON shapes

    /// What one walk over a JSON document saw.
    struct Signals {
        var figma = false
        var material = false
        var tokensStudio = false
        var resolver = false
        var dollarValue = 0
        var valueTokens = 0
        var typedValueTokens = 0
        var styleDictionaryOnly = 0
    }

    /// The format of parsed JSON documents (see the type's documentation for the rules).
    static func detect(documents: [JSONTokenDocument]) -> TokenFormat? {
        var all = Signals()
        for document in documents {
            let s = signals(document)
            all.figma = all.figma || s.figma
            all.material = all.material || s.material
            all.tokensStudio = all.tokensStudio || s.tokensStudio
            all.resolver = all.resolver || s.resolver
            all.dollarValue += s.dollarValue
            all.valueTokens += s.valueTokens
            all.typedValueTokens += s.typedValueTokens
            all.styleDictionaryOnly += s.styleDictionaryOnly
        }
        if all.figma { return .figmaVariables }
        if all.material { return .material }
        if all.tokensStudio { return .tokensStudio }
        if all.resolver || all.dollarValue > 0 { return .dtcg }
        if all.valueTokens > 0 {
            return all.styleDictionaryOnly == 0 && all.typedValueTokens == all.valueTokens ? .tokensStudio : .styleDictionary
        }
        return nil
    }

    static func signals(_ document: JSONTokenDocument) -> Signals {
        var s = Signals()
        let base = TokenSyntax.baseName(document.name)
        if base == "$themes.json" || base == "$metadata.json" { s.tokensStudio = true }
        switch document.root {
        case .object(let root):
            if let meta = root["meta"], meta["variableCollections"] != nil { s.figma = true }
            if root["variableCollections"] != nil && root["variables"] != nil { s.figma = true }
            if case .array? = root["entities"] { s.material = true }
            if case .object? = root["schemes"], root["palettes"] != nil || root["coreColors"] != nil || root["seed"] != nil {
                s.material = true
            }
            if root.storage.contains(where: { $0.key.hasPrefix("md.") && $0.value["value"] != nil }) { s.material = true }
            if root["$themes"] != nil || root["$metadata"] != nil { s.tokensStudio = true }
            if root["resolutionOrder"] != nil { s.resolver = true }
            if case .string(let schema)? = root["$schema"], schema.contains("resolver") { s.resolver = true }
        case .array(let items):
            // `$themes.json` content under another name.
            if let first = items.first, first["selectedTokenSets"] != nil { s.tokensStudio = true }
        default:
            break
        }
        var budget = detectionNodeBudget
        walkSignals(document.root, &s, &budget)
        return s
    }

    private static func walkSignals(_ value: JSON, _ s: inout Signals, _ budget: inout Int) {
        guard budget > 0 else { return }
        switch value {
        case .object(let object):
            budget -= 1
            if object["$value"] != nil { s.dollarValue += 1; return }
            if let v = object["value"], !isTokenLike(v) {
                s.valueTokens += 1
                if case .string? = object["type"] { s.typedValueTokens += 1 }
                if object["comment"] != nil || object["attributes"] != nil { s.styleDictionaryOnly += 1 }
                if case .string(let text) = v, text.hasSuffix(".value}") { s.styleDictionaryOnly += 1 }
                return
            }
            if case .object(let sets)? = object["sets"], sets.storage.contains(where: { $0.value["value"] != nil || $0.value["sets"] != nil }) {
                s.styleDictionaryOnly += 1
                s.valueTokens += 1
                return
            }
            for member in object.storage { walkSignals(member.value, &s, &budget) }
        case .array(let items):
            for item in items { walkSignals(item, &s, &budget) }
        default:
            break
        }
    }

    /// Whether `value` (the `value` member of an object) is itself a token or group holding
    /// `value`/`$value` — then its parent is a group with a child named "value", not a token.
    static func isTokenLike(_ value: JSON) -> Bool {
        guard case .object(let o) = value else { return false }
        return o["value"] != nil || o["$value"] != nil
    }
}

// MARK: - Shared by the JSON readers

/// Token syntax the JSON formats share: `{a.b}` references, CSS color text, numbers in CSS.
enum TokenSyntax {
    /// The reference inside `{…}` when `text` is exactly one curly reference (DTCG, Tokens
    /// Studio, Style Dictionary, Material), trimmed; nil for anything else (`rgba({a}, 0.5)`).
    static func curlyReference(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return nil }
        var trimmed = Substring(text)
        if first == " " || last == " " || first == "\t" || last == "\t" {
            trimmed = trimmed.drop { $0 == " " || $0 == "\t" }
            while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
        }
        guard trimmed.hasPrefix("{"), trimmed.hasSuffix("}"), trimmed.count > 2 else { return nil }
        let inner = trimmed.dropFirst().dropLast()
        guard !inner.contains("{"), !inner.contains("}") else { return nil }
        let reference = inner.trimmingCharacters(in: .whitespaces)
        return reference.isEmpty ? nil : reference
    }

    /// Whether `text` holds a `{…}` reference inside other text (`rgba({black}, 0.5)`,
    /// `{size.base.value}px`): not a CSS color and not a whole alias.
    static func hasEmbeddedReference(_ text: String) -> Bool {
        guard let open = text.firstIndex(of: "{") else { return false }
        return text[open...].contains("}")
    }

    /// Whether `text` starts with a CSS color function (`rgba(`, `oklch(`, `color-mix(` …).
    static func startsWithColorFunction(_ text: String) -> Bool {
        let lower = text.lowercased().drop { $0 == " " }
        guard let paren = lower.firstIndex(of: "(") else { return false }
        return colorFunctions.contains(String(lower[..<paren]))
    }

    /// Whether `text` is one `{reference}` followed by two hex digits (`{color.base.ink.value}33`):
    /// a hex color given an alpha, as Style Dictionary's interpolation makes `#00000033` of it.
    static func isReferenceWithHexAlpha(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("{"), let close = t.firstIndex(of: "}"), !t[t.index(after: t.startIndex)..<close].contains("{") else { return false }
        let rest = t[t.index(after: close)...]
        return rest.count == 2 && rest.allSatisfy(\.isHexDigit)
    }

    /// `noun` with its indefinite article for messages: "an opacity", "a number".
    static func withArticle(_ noun: String) -> String {
        (noun.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + noun
    }

    static let colorFunctions: Set<String> = ["rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch",
                                              "color", "color-mix", "light-dark"]

    /// Whether `text` is a CSS color the color parser reads without a document.
    static func isCSSColor(_ text: String) -> Bool {
        if CSSColorParser.parseHexColor(text) != nil { return true }
        return (try? CSSColorParser.parse(text)) != nil
    }

    /// A Tokens Studio or Style Dictionary token typed `opacity` or `number` whose value is a
    /// number (`0.2`, `"0.2"`, `"20%"`): its text, for `{references}` embedded in a color
    /// (`rgba({core.black}, {core.opacity.20})`, as Tokens Studio writes translucent colors);
    /// the token itself is no color (`DesignToken.componentTypes`). nil for anything else.
    static func componentValue(_ json: JSON, type: String) -> TokenValue? {
        guard ["opacity", "number"].contains(type.lowercased()) else { return nil }
        // An alias of another (`{opacity.20}`), followed where a color embeds it.
        if case .string(let text) = json, var reference = curlyReference(text) {
            if reference.hasSuffix(".value") { reference.removeLast(".value".count) }
            return .alias(reference)
        }
        switch json {
        case .number(let v) where v.isFinite: return .css(number(v))
        case .string(let text):
            let t = text.trimmingCharacters(in: .whitespaces)
            guard !t.isEmpty, t.utf8.count <= 32 else { return nil }
            var body = Substring(t)
            if body.hasSuffix("%") { body = body.dropLast() }
            if body.hasPrefix("-") || body.hasPrefix("+") { body = body.dropFirst() }
            let parts = body.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.contains(where: { !$0.isEmpty }),
                  parts.allSatisfy({ $0.allSatisfy { $0 >= "0" && $0 <= "9" } }) else { return nil }
            return .css(t)
        default: return nil
        }
    }

    /// An untyped string value of a JSON format (DTCG, Tokens Studio, Style Dictionary): a
    /// color when the parser reads it as one, a gradient (`TokenValue.gradientType`), else text.
    static func untypedValue(_ text: String) -> TokenValue {
        isCSSColor(text) ? .css(text) : .other(type: CSSThemeReader.isGradient(text) ? TokenValue.gradientType : "string")
    }

    /// `value` as a CSS number: integers without a fraction, others in the shortest decimal form,
    /// never in exponent notation.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let shortest = "\(value)"
        guard shortest.contains("e") else { return shortest }
        var fixed = String(format: "%.17f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed == "-0" ? "0" : fixed
    }

    /// The last path component of a file name (`a/b/$themes.json` → `$themes.json`).
    static func baseName(_ name: String) -> String {
        if let slash = name.lastIndex(where: { $0 == "/" || $0 == "\\" }) { return String(name[name.index(after: slash)...]) }
        return name
    }

    /// `name` without a trailing `.json` / `.tokens.json` / `.tokens` extension.
    static func withoutJSONExtension(_ name: String) -> String {
        for ext in [".tokens.json", ".json", ".tokens"] where name.lowercased().hasSuffix(ext) {
            return String(name.dropLast(ext.count))
        }
        return name
    }

    /// A list for a note: at most `limit` items, then how many more.
    static func sample(_ items: [String], limit: Int = 5) -> String {
        let shown = items.prefix(limit).map { "'\($0)'" }.joined(separator: ", ")
        return items.count > limit ? "\(shown) and \(items.count - limit) more" : shown
    }
}

/// Names Swift's `String`, and so every table the readers keep, takes for one because they are
/// canonically equivalent (Unicode UAX #15: `é` written precomposed, U+00E9, and as `e` U+0065 +
/// U+0301), though CSS custom properties, JSON keys and class names compare code points and keep
/// them apart. A hostile pass (2026-12-07): `--text-é: #bbbbbb` and `--text-é: #000000` were one
/// token, the later won, and the audit passed the one a page's `var(--text-é)` reads at 1.91:1.
/// Such names are refused rather than merged, where a reader's table meets the second.
enum CanonicalNames {
    /// Whether `a` and `b` are one name to Swift but two to CSS and JSON.
    /// Compares the bytes at once (`memcmp`): the generic `elementsEqual` over the UTF-8 views
    /// took about 70 instructions a byte, and every token lookup pays this (a hostile pass: 62
    /// aliases of 400-character names under 300 tokens in 65 modes spent 9 s of a heavy worker
    /// here, 72% of the audit).
    static func differ(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        guard a.utf8.count == b.utf8.count else { return true }
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count > 0 && memcmp(x.baseAddress!, y.baseAddress!, x.count) != 0 }
        }
    }

    /// The error for `name` at `location` meeting `other`, written earlier at `otherLocation`.
    static func clash(_ what: String, _ name: String, at location: TokenLocation?, _ other: String, at otherLocation: TokenLocation?) -> TokenError {
        func scalars(_ s: String) -> String {
            s.unicodeScalars.filter { !$0.isASCII }.map(\.escapedForMessage).joined(separator: " ")
        }
        let whereOther = otherLocation.map { " at \($0.file):\($0.line)" } ?? ""
        return TokenError(file: location?.file, path: name, location: location,
                          reason: "the \(what) '\(name)' (\(scalars(name))) and '\(other)'\(whereOther) (\(scalars(other))) are different names to CSS and JSON, which compare code points, but one text to Unicode's canonical equivalence (a precomposed letter and a letter with a combining mark: NFC and NFD), so the audit would take one for the other; write both the same way, or rename one")
    }
}

/// The error for collecting more than `TokenFormats.maximumTokens` entries, at the one too many.
func tooManyTokens(_ path: String, at location: TokenLocation) -> TokenError {
    TokenError(file: location.file, path: path, location: location,
               reason: "more than \(TokenFormats.maximumTokens) tokens: audit the design system in parts")
}

/// Tokens being read: one entry per path, its base and per-mode values and where each is
/// written, the modes in the order they were met, and the limits on both.
struct TokenTable {
    private(set) var tokens: [DesignToken] = []
    private var index: [String: Int] = [:]
    /// Values set in modes so far (`TokenFormats.maximumModeValues`).
    private var modeValues = 0
    private(set) var modes: [String] = []
    private var modeSet: Set<String> = []
    /// Modes the files declare as such (themes, resolver contexts, collections, schemes, a file's
    /// mode), audited even where every token takes its base value; modes met only on tokens
    /// (`$extensions`, `sets`) are audited where some token has a color in them.
    private var declaredModes: Set<String> = []
    var notes: [String] = []

    var count: Int { tokens.count }

    subscript(path: String) -> DesignToken? {
        index[path].map { tokens[$0] }
    }

    func contains(_ path: String) -> Bool { index[path] != nil }

    /// Makes `mode` known (in order) before any value is set in it, as a mode the files declare.
    mutating func declareMode(_ mode: String, at location: TokenLocation?) throws(TokenError) {
        try addMode(mode, at: location)
        declaredModes.insert(mode)
    }

    private mutating func addMode(_ mode: String, at location: TokenLocation?) throws(TokenError) {
        guard !modeSet.contains(mode) else {
            if mode.utf8.contains(where: { $0 >= 0x80 }), let known = modes.first(where: { $0 == mode }), CanonicalNames.differ(known, mode) {
                throw CanonicalNames.clash("mode", mode, at: location, known, at: nil)
            }
            return
        }
        guard modes.count < TokenFormats.maximumModes else {
            throw TokenError(file: location?.file, location: location,
                             reason: "more than \(TokenFormats.maximumModes) modes ('\(mode)' is one too many)")
        }
        modes.append(mode)
        modeSet.insert(mode)
    }

    /// Sets the token at `path` to `value` in `mode` (the base when nil), creating it when new.
    /// A later base value replaces an earlier one and moves the token's location to it.
    /// - Throws: `TokenError` at `location` past `TokenFormats.maximumTokens` tokens or modes.
    mutating func set(_ path: String, mode: String?, value: TokenValue, at location: TokenLocation,
                      type: String?) throws(TokenError) {
        if let mode { try addMode(mode, at: location) }
        if mode != nil, index[path].map({ tokens[$0].modes[mode!] == nil }) ?? true {
            modeValues += 1
            guard modeValues <= TokenFormats.maximumModeValues else {
                throw TokenError(file: location.file, path: path, location: location,
                                 reason: "more than \(TokenFormats.maximumModeValues) values across tokens and modes (\(tokens.count) tokens so far in \(modes.count) modes): audit fewer themes or sets at once",
                                 limit: TokenFormats.maximumModeValues)
            }
        }
        if let i = index[path] {
            if CanonicalNames.differ(tokens[i].path, path) {
                throw CanonicalNames.clash("token", path, at: location, tokens[i].path, at: tokens[i].location)
            }
            if let mode {
                tokens[i].modes[mode] = value
                tokens[i].modeLocations[mode] = location
            } else {
                tokens[i].base = value
                tokens[i].location = location
            }
            if let type { tokens[i].type = type }
            return
        }
        guard tokens.count < TokenFormats.maximumTokens else { throw tooManyTokens(path, at: location) }
        var token = DesignToken(path: path, base: nil, location: location, type: type)
        if let mode {
            token.modes[mode] = value
            token.modeLocations[mode] = location
        } else {
            token.base = value
        }
        index[path] = tokens.count
        tokens.append(token)
    }

    /// The token set: mode locations equal to the token's location dropped, and as its modes
    /// those of `auditing` (all modes met when nil, in order) in which some token has a color or
    /// an alias (its own value in that mode, or for a declared mode its base); the others are
    /// named in a note (a mode of sizes or fonts only has nothing to audit).
    /// - Throws: `TokenError` when there are no tokens at all: files of another format (or
    ///   empty ones) are not an empty design system.
    func tokenSet(format: TokenFormat, files: [JSONTokenDocument], auditing: [String]? = nil) throws(TokenError) -> TokenSet {
        guard !tokens.isEmpty else {
            let names = files.map(\.name)
            // The format they read as, when detection names another (a new user's pass: a
            // Material file forced as dtcg was told only "another format?").
            let other = TokenFormats.detect(documents: files).flatMap { $0 == format ? nil : $0 }
            let hint = other.map { "they read as \($0.rawValue): leave the format out to detect it, or give \($0.rawValue)" } ?? "are the files in another format?"
            throw TokenError(file: names.count == 1 ? names[0] : nil,
                             reason: "no \(format.rawValue) tokens were found in \(TokenSyntax.sample(names)): \(hint)")
        }
        var out = tokens
        var colorModes = Set<String>()
        var colorBase = false
        for i in out.indices {
            for (mode, location) in out[i].modeLocations where location == out[i].location {
                out[i].modeLocations[mode] = nil
            }
            for (mode, value) in out[i].modes {
                if case .other = value { continue }
                colorModes.insert(mode)
            }
            if let base = out[i].base {
                if case .other = base {} else { colorBase = true }
            }
        }
        // A declared mode with no value of its own takes the bases (a resolver context that
        // overrides nothing); some base must then be a color.
        if colorBase { colorModes.formUnion(declaredModes) }
        let candidates = auditing ?? modes
        let kept = candidates.filter(colorModes.contains)
        var notes = self.notes
        let dropped = candidates.filter { !colorModes.contains($0) }
        if !dropped.isEmpty {
            let one = dropped.count == 1
            notes.append("mode\(one ? "" : "s") \(TokenSyntax.sample(dropped, limit: 8)) hold\(one ? "s" : "") no colors and \(one ? "is" : "are") not audited")
        }
        return TokenSet(format: format, tokens: out, modes: kept, notes: notes)
    }
}
