import ColorScience
import JSONValue

/// W3C Design Tokens Community Group format: the Format Module 2025.10
/// (https://www.designtokens.org/tr/2025.10/format/), its Color Module
/// (https://www.designtokens.org/tr/2025.10/color/) and Resolver Module
/// (https://www.designtokens.org/tr/2025.10/resolver/), and the mode extensions tools write.
///
/// - Tokens are objects with `$value`; other objects are groups; members starting with `$` are
///   properties (a `$root` token is read as `group.$root`). The path is the dotted group path
///   (`color.text.default`), with keys as written (`@color.background.default.default`).
/// - `$type` is the token's or the nearest group's (§6.3.1). A non-color type, or an untyped
///   value that is not a color, is `.other`: skipped and counted.
/// - `"{color.blue.500}"` (§7.1) and `{"$ref": "#/color/blue/500"}` (§7.2, JSON Pointer) are
///   aliases, recorded as written: figma/sds writes `{@color_primitives.Gray.900}` for the key
///   `gray`, and resolution (elsewhere) matches case-insensitively.
/// - Color values: strings as CSS (`#0c0c0db2`, `rgb(…)`); Color Module objects
///   `{"colorSpace", "components", "alpha"?, "hex"?}` as CSS in their own space:
///   `color(srgb r g b / a)`, `color(display-p3 …)`, `oklch(L C H)`, `hsl(H S% L%)`, … (`alpha`
///   written only when given; `none` components kept).
/// - `$extends` on a group (2025.10 §6.4) adds, as aliases, the tokens of the group it names that
///   it does not define itself, following chains; cycles are refused (`applyExtends`).
///
/// Modes, from where the files say they are:
/// 1. Terrazzo's `$extensions.mode` (`{"light": …, "dark": …}`) on a token;
/// 2. Figma's Simple Design System export, `$extensions["com.figma.sds"].modes` (a token of a
///    single-mode collection lists one mode, equal to `$value`: no mode is made of it);
/// 3. one file per mode: `TokenFile.mode` makes the file's `$value`s that mode's values;
/// 4. a 2025.10 resolver document (`resolutionOrder`, `sets`, `modifiers`): each context of a
///    modifier is a mode (with several modifiers, each combination, named `a + b`); `$ref`s to
///    other files are matched by name against the submitted files (`./dark.tokens.json` →
///    `dark.tokens.json` or `…/dark.tokens.json`). Tokens of the sets are the base; a context's
///    value differing from the base is that mode's value.
///
/// The base value is `$value`; per-mode values override it.
public enum DTCGReader: TokenFormatReader {
    /// Most sources a resolver document's `resolutionOrder` expands into, its sets' `$ref`s to
    /// sets followed (DTCG 2025.10 resolver: a set's `sources`); real ones list tens.
    public static let maximumResolverSources = 1_024
    /// Most token definitions layered over a resolver's base and modes (each source's tokens,
    /// once per mode it is applied in).
    public static let maximumLayeredEntries = 2_000_000
    public static let format = TokenFormat.dtcg

    public static func detect(_ files: [TokenFile]) -> Bool {
        TokenFormats.detect(files) == .dtcg
    }

    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        try read(documents: TokenFormats.parseAll(files, format: .dtcg))
    }

    static func read(documents: [JSONTokenDocument]) throws(TokenError) -> TokenSet {
        let resolvers = documents.filter(isResolver)
        if resolvers.count > 1 {
            throw TokenError(file: resolvers[1].name, location: resolvers[1].location([]),
                             reason: "more than one resolver document (\(resolvers[0].name) is the first): send one")
        }
        if let resolver = resolvers.first {
            return try readResolver(resolver, documents: documents.filter { $0 !== resolver })
        }
        var table = TokenTable()
        var extends: [Walker.Extension] = []
        var ignored: [String] = []
        var hexes: [String] = []
        var placed: [Entry] = []
        var misspelt: [(type: String, token: String)] = []
        var restricted: [String] = []
        var walkers: [Walker] = []
        for document in documents {
            guard case .object(let root) = document.root else {
                throw TokenError(file: document.name, location: document.location([]),
                                 reason: "a DTCG token file is a JSON object of groups and tokens, not a \(document.root.typeName)")
            }
            var walker = Walker(document: document)
            try walker.walkGroup(root, jsonPath: [], tokenPath: [], inheritedType: nil)
            walkers.append(walker)
        }
        let modesByName = modesByFileName(walkers)
        var layered: [(earlier: String, later: String, count: Int)] = []
        var writtenBy: [String: String] = [:]
        for (walker, document) in zip(walkers, documents) {
            var fileMode = document.file.mode
            if let byName = modesByName[ObjectIdentifier(document)] {
                fileMode = byName
                table.notes.append("\(document.name) read as mode '\(byName)' (by its name: it sets tokens another file sets; give each file its \"mode\" to name the modes yourself)")
            }
            if let fileMode {
                try table.declareMode(fileMode, at: document.location([]))
                if document.file.mode != nil { table.notes.append("\(document.name) read as mode '\(fileMode)'") }
            } else {
                // Another file's tokens replaced by this one's (layering): said, so that a light
                // file replaced by a dark one is not audited as one mode in silence (a new
                // user's pass).
                var counts: [String: Int] = [:]
                for entry in walker.entries {
                    if let earlier = writtenBy.updateValue(document.name, forKey: entry.path), earlier != document.name { counts[earlier, default: 0] += 1 }
                }
                for (earlier, n) in counts.sorted(by: { $0.key < $1.key }) { layered.append((earlier, document.name, n)) }
            }
            // One path written twice in one file: a key with `.` read as a path of groups meets
            // the groups it names (`"text.a"` beside `"text": {"a"}`). DTCG 2025.10 names may not
            // contain `.` (its "Character restrictions"); the later had silently replaced the
            // earlier (a hostile pass: the failing `"text.a"` vanished and the audit passed).
            // Another file may still override a token: that is layering. A name written two ways
            // (`CanonicalNames`) is the table's to refuse, which `set` does first.
            var inDocument: [String: TokenLocation] = [:]
            inDocument.reserveCapacity(walker.entries.count)
            for entry in walker.entries {
                try table.set(entry.path, mode: fileMode, value: entry.value, at: entry.location, type: entry.type)
                if let first = inDocument.updateValue(entry.location, forKey: entry.path) {
                    throw TokenError(file: document.name, path: entry.path, location: entry.location,
                                     reason: "two members of \(document.name) name the token '\(entry.path)' (the first at line \(first.line)): a key with '.' is read as a path of groups, and DTCG 2025.10 names may not contain '.' (Format Module, \"Character restrictions\"): rename one")
                }
                if entry.placement != nil { placed.append(entry) }
                for mode in entry.modes {
                    try table.set(entry.path, mode: mode.name, value: mode.value, at: mode.location, type: nil)
                }
            }
            extends += walker.extensions
            ignored += walker.ignored
            hexes += walker.disagreeingHexes
            misspelt += walker.misspeltColors
            restricted += walker.restrictedNames
        }
        try applyExtends(extends, to: &table)
        for l in layered.prefix(4) {
            table.notes.append("\(l.later) replaces \(l.count) token\(l.count == 1 ? "" : "s") of \(l.earlier) (the later file wins, as layered token files do); if they are modes, send each file with its \"mode\"")
        }
        if !ignored.isEmpty {
            table.notes.append("members that are neither tokens nor groups were skipped: \(TokenSyntax.sample(ignored))")
        }
        if let note = hexNote(hexes) { table.notes.append(note) }
        if !restricted.isEmpty {
            table.notes.append("names holding '.', '{' or '}', which DTCG 2025.10 does not allow (Format Module, \"Character restrictions\"), were read with each '.' as a group boundary: \(TokenSyntax.sample(restricted)); a reference to such a token reads the same path, and another tool may refuse the file")
        }
        var set = try table.tokenSet(format: format, files: documents)
        if let warning = misspeltColorWarning(misspelt) { set.coverageWarnings.append(warning) }
        let (byPath, notes) = placements(placed)
        (set.placements, set.notes) = (byPath, set.notes + notes)
        return set
    }

    /// Files sent without `mode` that are modes by their names: a file whose name (without
    /// `.tokens.json`, `.json`, `.tokens`) has a word of a mode (`light`, `dark`, `dim`, `night`,
    /// `day`, `contrast`, `hc`; `theme` alone is not one), or sits in a folder whose name has one
    /// (`dark/colors.json`), and that sets a token another file sets (`light.tokens.json` and
    /// `dark.tokens.json`, as Terrazzo and Style Dictionary projects lay them out) is read as the
    /// mode of that name, as Material's flat files are. Nothing when any file has a `mode`.
    static func modesByFileName(_ walkers: [Walker]) -> [ObjectIdentifier: String] {
        guard walkers.count > 1, walkers.allSatisfy({ $0.document.file.mode == nil }) else { return [:] }
        // How many files set each path (each file counted once).
        var filesOfPath: [String: Int] = [:], lastFile: [String: Int] = [:]
        for (i, w) in walkers.enumerated() {
            for e in w.entries where lastFile.updateValue(i, forKey: e.path) != i {
                filesOfPath[e.path, default: 0] += 1
            }
        }
        let modeWords: Set<Substring> = ["light", "dark", "dim", "dimmed", "night", "day", "contrast", "hc"]
        func isModeName(_ name: Substring) -> Bool {
            name.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).contains { modeWords.contains($0) }
        }
        var out: [ObjectIdentifier: String] = [:]
        for w in walkers where w.entries.contains(where: { (filesOfPath[$0.path] ?? 0) > 1 }) {
            // The file's name, else the folder it is in (`tokens/dark/colors.json`), at most
            // three folders up; several files may make one mode.
            let parts = w.document.name.split(whereSeparator: { $0 == "/" || $0 == "\\" })
            guard let last = parts.last else { continue }
            let candidates = [Substring(TokenSyntax.withoutJSONExtension(String(last)))] + parts.dropLast().suffix(3).reversed()
            if let name = candidates.first(where: { !$0.isEmpty && isModeName($0) }) { out[ObjectIdentifier(w.document)] = String(name) }
        }
        // Two modes at least (`light` and `dark`): one file named so beside a base is layering,
        // not a mode that hides the base (a hostile pass: `light.tokens.json` beside `b.json`
        // made the one mode `light`, and b.json's failing pair was never audited).
        return Set(out.values).count >= 2 ? out : [:]
    }

    /// The placements of ContrastService's own export by token path, each `on` name turned into
    /// the path of the first token of that name; and what the audit says of those it cannot
    /// follow: `on` names no token has, and names two tokens share (a hostile pass, stop 49:
    /// both were dropped in silence, a color placed only on an unknown name then measured
    /// nowhere).
    static func placements(_ placed: [Entry]) -> (byPath: [String: TokenPlacement], notes: [String]) {
        var pathOfName: [String: String] = [:], shared: [String] = [], unknown: [String] = []
        for e in placed {
            guard let (name, _) = e.placement else { continue }
            if pathOfName[name] == nil { pathOfName[name] = e.path } else { shared.append("\(name) (\(e.path))") }
        }
        var byPath: [String: TokenPlacement] = [:]
        for e in placed {
            guard var (_, p) = e.placement else { continue }
            for n in p.on where pathOfName[n] == nil { unknown.append("\(e.path) on '\(n.prefix(64))'") }
            p.on = p.on.compactMap { pathOfName[$0] }
            byPath[e.path] = p
        }
        var notes: [String] = []
        if !unknown.isEmpty {
            notes.append("$extensions[\"com.contrastservice\"].on names no token of the file: \(TokenSyntax.sample(unknown)); those placements are not measured")
        }
        if !shared.isEmpty {
            notes.append("$extensions[\"com.contrastservice\"].name is shared by more than one token: \(TokenSyntax.sample(shared)); 'on' reaches the first token of each name")
        }
        return (byPath, notes)
    }

    /// A target as the export writes it, `{"metric": "wcag2" | "apca", "minimum", "basis"}`, when
    /// its minimum lies in the metric's range (`1...21`, `0...108`); else nil.
    static func target(_ value: JSONValue.JSON?) -> ContrastTarget? {
        guard case .object(let o)? = value, case .string(let m)? = o["metric"], let metric = ContrastTarget.Metric(rawValue: m),
              case .number(let minimum)? = o["minimum"], minimum.isFinite,
              metric == .wcag2 ? (1...21).contains(minimum) : (0...108).contains(minimum) else { return nil }
        var basis = "the palette's target"
        if case .string(let b)? = o["basis"] { basis = String(b.prefix(300)) }
        return ContrastTarget(metric: metric, minimum: minimum, basis: basis)
    }

    /// Whether `type` is `color` misspelt (`colour`, `colors`, `colr`: within two letters'
    /// edits of it, any case, not `color` itself, in any case). DTCG 2025.10 defines its types
    /// and nothing else (Format Module §8); such a token is no color, and its pairs would
    /// vanish from an audit without a word (a new user's pass: `"$type": "colour"` on a group).
    static func isMisspeltColor(_ type: String) -> Bool {
        let t = Array(type.lowercased().utf8), c = Array("color".utf8)
        guard t != c, t.count >= 3, t.count <= 8 else { return false }
        var row = Array(0...c.count)
        for i in 1...t.count {
            var next = [i] + Array(repeating: 0, count: c.count)
            for j in 1...c.count { next[j] = Swift.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (t[i - 1] == c[j - 1] ? 0 : 1)) }
            row = next
        }
        return row[c.count] <= 2
    }

    /// The warning for tokens typed as a misspelt `color` (`isMisspeltColor`): the failOn
    /// "warning" gate fails on it.
    static func misspeltColorWarning(_ found: [(type: String, token: String)]) -> String? {
        guard !found.isEmpty else { return nil }
        let types = found.reduce(into: [String]()) { if !$0.contains($1.type) && $0.count < 4 { $0.append($1.type) } }
        return "\(types.map { "'\(String($0.prefix(16)))'" }.joined(separator: ", ")) \(types.count == 1 ? "is not a type" : "are not types") of DTCG 2025.10 (did you mean 'color'?): \(found.count) token\(found.count == 1 ? " typed so is no color and is" : "s typed so are no colors and are") not audited (\(TokenSyntax.sample(found.map(\.token)))); write \"$type\": \"color\""
    }

    /// What the audit says of color objects whose `hex` disagrees with their `components`.
    static func hexNote(_ hexes: [String]) -> String? {
        guard !hexes.isEmpty else { return nil }
        return "color objects whose 'hex' is another color than their 'components', or no hex color at all, were measured by their components (DTCG Color Module 2025.10: hex is a fallback for tools that cannot read colorSpace), while a tool showing the hex shows another color: \(TokenSyntax.sample(hexes))"
    }

    /// Whether `document` is a 2025.10 resolver document rather than a token file.
    static func isResolver(_ document: JSONTokenDocument) -> Bool {
        guard case .object(let root) = document.root else { return false }
        if root["resolutionOrder"] != nil { return true }
        if case .string(let schema)? = root["$schema"], schema.contains("resolver") { return true }
        return false
    }

    // MARK: - One token tree

    /// A token as one file (or inline source) writes it.
    struct Entry {
        var path: String
        var value: TokenValue
        var type: String?
        var location: TokenLocation
        var modes: [(name: String, value: TokenValue, location: TokenLocation)]
        /// ContrastService's own export: the palette name and the placement, its `on` still
        /// palette names (`placements` turns them into paths).
        var placement: (name: String, placement: TokenPlacement)? = nil
    }

    /// Walks the groups of one token tree.
    struct Walker {
        struct Extension {
            var group: String
            var target: String
            var location: TokenLocation
        }

        let document: JSONTokenDocument
        var entries: [Entry] = []
        var extensions: [Extension] = []
        var ignored: [String] = []
        /// Color objects whose `hex` names another color than their `components`
        /// (`DTCGReader.disagreeingHex`), as `path (hex …, components …)`.
        var disagreeingHexes: [String] = []
        /// Tokens typed as a misspelt `color` (`DTCGReader.isMisspeltColor`): the type, and the
        /// token with its file and line.
        var misspeltColors: [(type: String, token: String)] = []
        /// Members whose names hold `.`, `{` or `}` (DTCG 2025.10 "Character restrictions"), by
        /// token or group path, at most 10,000.
        var restrictedNames: [String] = []

        init(document: JSONTokenDocument) {
            self.document = document
        }

        mutating func walkGroup(_ group: JSONObject, jsonPath: [String], tokenPath: [String],
                                inheritedType: String?) throws(TokenError) {
            var type = inheritedType
            if case .string(let t)? = group["$type"] { type = t }
            if let value = group["$extends"] {
                // A reference string on a group (DTCG 2025.10 §6.4); anything else is refused, not
                // dropped (a hostile pass: a number, a `{"$ref": …}` object and `$extends` at the
                // root were ignored without a word).
                let at = document.location(jsonPath + ["$extends"])
                func fail(_ reason: String) -> TokenError {
                    TokenError(file: document.name, path: tokenPath.isEmpty ? nil : tokenPath.joined(separator: "."), location: at, reason: reason)
                }
                guard !tokenPath.isEmpty else { throw fail("$extends at the root of a file extends nothing: put it on the group that inherits") }
                guard case .string(let ext) = value else {
                    throw fail("$extends must be a reference string to a group (\"{color.base}\" or \"#/color/base\"), not a \(value.typeName)")
                }
                let target = TokenSyntax.curlyReference(ext) ?? DTCGReader.pointerPath(ext) ?? ext
                extensions.append(Extension(group: tokenPath.joined(separator: "."), target: target, location: at))
            }
            for member in group.storage {
                let key = member.key
                if key.hasPrefix("$") && key != "$root" { continue }
                let childJSON = jsonPath + [key]
                let childPath = tokenPath + [key]
                if restrictedNames.count < 10_000, key.contains(where: { $0 == "." || $0 == "{" || $0 == "}" }) {
                    restrictedNames.append("\(childPath.joined(separator: ".")) at \(document.name) line \(document.location(childJSON).line)")
                }
                guard case .object(let child) = member.value else {
                    ignored.append(childPath.joined(separator: "."))
                    continue
                }
                if let value = child["$value"] {
                    if child["$extends"] != nil {
                        throw TokenError(file: document.name, path: childPath.joined(separator: "."), location: document.location(childJSON + ["$extends"]),
                                         reason: "$extends is for groups: a token with a $value inherits nothing (alias another token with \"{…}\" instead)")
                    }
                    try token(child, value: value, jsonPath: childJSON, tokenPath: childPath, inheritedType: type)
                } else {
                    try walkGroup(child, jsonPath: childJSON, tokenPath: childPath, inheritedType: type)
                }
            }
        }

        private mutating func token(_ object: JSONObject, value: JSON, jsonPath: [String], tokenPath: [String],
                                    inheritedType: String?) throws(TokenError) {
            let path = tokenPath.joined(separator: ".")
            var type = inheritedType
            if case .string(let t)? = object["$type"] { type = t }
            let base = try DTCGReader.value(value, type: type, path: path, document: document, jsonPath: jsonPath + ["$value"])
            let hexesBefore = disagreeingHexes.count
            noteDisagreeingHex(value, base, path: path)
            var modes: [(name: String, value: TokenValue, location: TokenLocation)] = []
            if case .object(let extensions)? = object["$extensions"] {
                // Terrazzo: every entry is a mode.
                if case .object(let byMode)? = extensions["mode"] {
                    for m in byMode.storage {
                        let at = jsonPath + ["$extensions", "mode", m.key]
                        let v = try DTCGReader.value(m.value, type: type, path: path, document: document, jsonPath: at)
                        noteDisagreeingHex(m.value, v, path: "\(path) (mode \(m.key))")
                        modes.append((m.key, v, document.location(at)))
                    }
                }
                // Figma SDS: a single mode is the collection's only value, the same as `$value`.
                if case .object(let sds)? = extensions["com.figma.sds"], case .object(let byMode)? = sds["modes"], byMode.count > 1 {
                    for m in byMode.storage {
                        let at = jsonPath + ["$extensions", "com.figma.sds", "modes", m.key]
                        modes.append((m.key, try DTCGReader.value(m.value, type: type, path: path, document: document, jsonPath: at),
                                      document.location(at)))
                    }
                }
            }
            let location = document.location(jsonPath)
            guard entries.count < TokenFormats.maximumTokens else { throw tooManyTokens(path, at: location) }
            if let type, DTCGReader.isMisspeltColor(type) { misspeltColors.append((type, "\(path) at \(document.name) line \(location.line)")) }
            for i in hexesBefore..<disagreeingHexes.count { disagreeingHexes[i] += " at \(document.name):\(location.line)" }
            var entry = Entry(path: path, value: base, type: type, location: location, modes: modes)
            if case .object(let extensions)? = object["$extensions"], case .object(let ours)? = extensions["com.contrastservice"],
               case .string(let name)? = ours["name"], case .string(let role)? = ours["role"] {
                var on: [String] = []
                if case .array(let list)? = ours["on"] {
                    for case .string(let n) in list.prefix(TokenFormats.maximumTokens) { on.append(n) }
                }
                var onSystem = on.isEmpty
                if case .bool(let b)? = ours["onSystemBackgrounds"] { onSystem = b || on.isEmpty }
                var passes: [String: Bool] = [:]
                if case .object(let byMode)? = ours["passes"] {
                    for m in byMode.storage.prefix(64) { if case .bool(let b) = m.value { passes[m.key] = b } }
                }
                entry.placement = (name, TokenPlacement(role: role, on: on, onSystemBackgrounds: onSystem, target: DTCGReader.target(ours["target"]),
                                                        increasedTarget: DTCGReader.target(ours["increasedContrastTarget"]), palettePasses: passes))
            }
            entries.append(entry)
        }

        /// Keeps `path` in `disagreeingHexes` when `json`, read as `value`, is a color object whose
        /// `hex` disagrees with its `components` (at most 10,000 kept).
        mutating func noteDisagreeingHex(_ json: JSON, _ value: TokenValue, path: String) {
            guard disagreeingHexes.count < 10_000, case .object(let o) = json, case .string(let hex)? = o["hex"],
                  case .css(let css) = value else { return }
            // A hex that is none (`777`, no `#`; `#77`): a tool reading it shows another color
            // or none (a new user's pass: it was passed over without a word).
            if CSSColorParser.parseHexColor(hex) == nil, let c = try? CSSColorParser.parse(css) {
                disagreeingHexes.append("\(path) (hex \(TokenError.quoted(String(hex.prefix(16)))) is no '#RRGGBB' hex, components \(DisplayColor(c).hex))")
                return
            }
            guard let (given, read) = DTCGReader.disagreeingHex(hex, components: css) else { return }
            disagreeingHexes.append("\(path) (hex \(given), components \(read))")
        }
    }

    /// A color object's `hex` and its `components` (as the CSS `css` the reader made of them),
    /// both as 8-bit sRGB hex, when some channel differs by more than one step (rounding aside;
    /// alpha only when the hex has one) from the components both gamut-mapped and clipped:
    /// DTCG Color Module 2025.10 §4 makes `hex` only a fallback for tools that cannot read
    /// `colorSpace`, so the components are what is measured, but a tool that shows the hex
    /// shows another color (a hand-edited or half-updated export). Nil when they agree, or
    /// either does not read as a color (the reading reports that).
    static func disagreeingHex(_ hex: String, components css: String) -> (hex: String, components: String)? {
        guard css != hex, let h = CSSColorParser.parseHexColor(hex),
              let c = try? CSSColorParser.parse(css) else { return nil }
        let a = DisplayColor(h), b = DisplayColor(c)
        func steps(_ x: Double) -> Double { (x * 255).rounded() }
        // The Color Module's hex is 6 digits, alpha given apart (Figma's SDS writes black at 5% as
        // `#0c0c0d` with `alpha` 0.05): an alpha is compared only when the hex writes one.
        let digits = hex.hasPrefix("#") ? hex.count - 1 : hex.count
        let withAlpha = digits == 4 || digits == 8
        func apart(_ b: DisplayColor) -> Bool {
            (0..<3).contains { abs(steps(a.srgb[$0]) - steps(b.srgb[$0])) > 1 } || withAlpha && abs(steps(a.alpha) - steps(b.alpha)) > 1
        }
        // Outside sRGB either fallback is fair: gamut-mapped (CSS Color 4 §13.2) or clipped, as
        // Figma writes display-p3 red's `#ff0000` (a second pass: the clipped one was flagged).
        guard apart(b), apart(DisplayColor(clipping: c)) else { return nil }
        return (a.hex, DisplayColor(srgb: b.srgb, alpha: withAlpha ? b.alpha : 1).hex)
    }

    // MARK: - Values

    /// CSS `color()` spaces by DTCG `colorSpace` name (Color Module §4; CSS Color 4 §10).
    static let predefinedSpaces: [String: String] = [
        "srgb": "srgb", "srgb-linear": "srgb-linear", "display-p3": "display-p3", "a98-rgb": "a98-rgb",
        "prophoto-rgb": "prophoto-rgb", "rec2020": "rec2020", "xyz-d65": "xyz-d65", "xyz-d50": "xyz-d50", "xyz": "xyz-d65",
    ]
    /// DTCG `colorSpace` names written as CSS functions; the two percentage channels of hsl/hwb
    /// are 0–100 in DTCG (Color Module §4.7, §4.8).
    static let functionSpaces: Set<String> = ["hsl", "hwb", "lab", "lch", "oklab", "oklch"]

    /// One `$value` (or mode value) as a token value. `type` is the token's own or inherited
    /// `$type`.
    static func value(_ json: JSON, type: String?, path: String, document: JSONTokenDocument,
                      jsonPath: [String]) throws(TokenError) -> TokenValue {
        let isColor: Bool? = type.map { $0.lowercased() == "color" }
        func fail(_ reason: String) -> TokenError {
            let at = document.location(jsonPath)
            return TokenError(file: document.name, path: path, location: at, reason: reason)
        }
        if case .string(let text) = json, let reference = TokenSyntax.curlyReference(text) {
            return isColor == false ? .other(type: type!) : .alias(reference)
        }
        if case .object(let object) = json, object.count == 1, case .string(let ref)? = object["$ref"] {
            guard let target = pointerPath(ref) else {
                throw fail("the reference '\(ref)' is not a JSON Pointer into the token files ('#/color/blue/500')")
            }
            return isColor == false ? .other(type: type!) : .alias(target)
        }
        if isColor == false { return .other(type: type!) }
        switch json {
        case .string(let text):
            if isColor == true { return .css(text) }
            return TokenSyntax.untypedValue(text)
        case .object(let object):
            if object["colorSpace"] != nil { return .css(try colorObject(object, fail: fail)) }
            if isColor == true {
                throw fail("a color's $value object needs 'colorSpace' and 'components' (DTCG Color Module 2025.10)")
            }
            return .other(type: "object")
        default:
            if isColor == true {
                throw fail("a color's $value must be a color string, a reference or a color object, not a \(json.typeName)")
            }
            return .other(type: json.typeName)
        }
    }

    /// Why component `index` (0-based) of a color object in `space` is outside the range DTCG
    /// Color Module 2025.10 gives it (§4: RGB spaces 0 to 1; OKLab and OKLCH lightness 0 to 1,
    /// Lab and LCH 0 to 100; HSL and HWB percentages 0 to 100; chroma not negative), with the
    /// scale it was likely written in; nil inside it (within 1e-4 of an end: exported decimals).
    /// A hostile pass, field case C30's fault: `oklch` `[97, 0, 0]` and `srgb` `[244, 244, 244]`
    /// were read as white, clamped, and a failing pair passed.
    static func componentOutOfRange(_ d: Double, index: Int, space: String) -> String? {
        let rgb = predefinedSpaces[space] != nil && !space.hasPrefix("xyz")
        let range: ClosedRange<Double>
        switch (space, index) {
        case _ where rgb: range = 0...1
        case ("oklab", 0), ("oklch", 0): range = 0...1
        case ("lab", 0), ("lch", 0): range = 0...100
        case ("hsl", 1), ("hsl", 2), ("hwb", 1), ("hwb", 2): range = 0...100
        case ("lch", 1), ("oklch", 1): range = 0...1e6
        default: return nil
        }
        guard d < range.lowerBound - 1e-4 || d > range.upperBound + 1e-4 else { return nil }
        var hint = ""
        if range.upperBound == 1 && d > 1 && d <= 255 {
            hint = rgb ? " (as an 8-bit value, \(TokenSyntax.number(d)) is \(TokenSyntax.number((d / 255 * 10_000).rounded() / 10_000)); as a percentage, \(TokenSyntax.number(d / 100)))"
                : " (as a percentage, \(TokenSyntax.number(d)) is \(TokenSyntax.number(d / 100)))"
        }
        let what = range.upperBound == 1e6 ? "below 0 (chroma is not negative)" : "outside \(TokenSyntax.number(range.lowerBound)) to \(TokenSyntax.number(range.upperBound))"
        return "component \(index + 1) of the \(space) color is \(TokenSyntax.number(d)), \(what) (DTCG Color Module 2025.10)\(hint)"
    }

    /// A Color Module object as CSS text.
    static func colorObject(_ object: JSONObject, fail: (String) -> TokenError) throws(TokenError) -> String {
        guard case .string(let space)? = object["colorSpace"] else { throw fail("'colorSpace' must be a string") }
        let name = space.lowercased()
        guard case .array(let items)? = object["components"], items.count == 3 else {
            throw fail("'components' must be an array of three numbers for colorSpace '\(space)'")
        }
        var channels: [String] = []
        for (i, item) in items.enumerated() {
            switch item {
            case .number(let d):
                // Beyond any color space's range (the CSS reading's own bound): named as the
                // number was sent, not as 309 digits of CSS (a hostile pass).
                guard d.magnitude <= 1e6 else {
                    throw fail("component \(i + 1) of the color is \(d), far outside any color space's range (magnitude above 1e6)")
                }
                if let reason = componentOutOfRange(d, index: i, space: name) { throw fail(reason) }
                channels.append(TokenSyntax.number(d))
            case .string(let s) where s.lowercased() == "none": channels.append("none")
            default: throw fail("component \(i + 1) of the color must be a number or \"none\", not a \(item.typeName)")
            }
        }
        var alpha = ""
        if let a = object["alpha"] {
            switch a {
            case .number(let d):
                // DTCG Color Module 2025.10: alpha is 0 to 1 (a hostile pass: -5 was read as
                // transparent, 7 as opaque, silently).
                guard d >= 0 && d <= 1 else { throw fail("'alpha' must be a number from 0 to 1, not \(d.magnitude < 1e6 ? TokenSyntax.number(d) : String(describing: d))") }
                alpha = " / " + TokenSyntax.number(d)
            case .string(let s) where s.lowercased() == "none": alpha = " / none"
            default: throw fail("'alpha' must be a number from 0 to 1, not a \(a.typeName)")
            }
        }
        if let css = predefinedSpaces[name] {
            return "color(\(css) \(channels.joined(separator: " "))\(alpha))"
        }
        if functionSpaces.contains(name) {
            if name == "hsl" || name == "hwb" {
                for i in 1...2 where channels[i] != "none" { channels[i] += "%" }
            }
            return "\(name)(\(channels.joined(separator: " "))\(alpha))"
        }
        if case .string(let hex)? = object["hex"] { return hex }
        throw fail("colorSpace '\(space)' is not one of the DTCG color spaces (srgb, display-p3, oklch, …) and there is no 'hex' to fall back on")
    }

    /// `#/color/blue/500` (or `#/color/blue/500/$value`) as the token path `color.blue.500`.
    static func pointerPath(_ pointer: String) -> String? {
        guard pointer.hasPrefix("#/") else { return nil }
        var parts = pointer.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        if parts.last == "$value" { parts.removeLast() }
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else { return nil }
        return parts.joined(separator: ".")
    }

    /// Whether the token or group `path` lies inside `group` (`a.b.c` inside `a.b`), compared by
    /// UTF-8 bytes: by Characters a `.` and a combining mark after it are one.
    static func lies(_ path: String, inside group: String) -> Bool {
        path.utf8.count > group.utf8.count + 1 && path.utf8.starts(with: group.utf8)
            && path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: group.utf8.count)] == UInt8(ascii: ".")
    }

    /// Most groups with `$extends` in one file set, and the longest chain of groups extending
    /// groups that extend others: bounds on the work before it is done (each extension looks at
    /// every token once; 256 × `TokenFormats.maximumTokens` path checks at most).
    static let maximumExtensions = 256, maximumExtendsChain = 64

    /// Tokens a group gains by `$extends` (DTCG 2025.10 §6.4): each token under the target group
    /// that the extending group does not define, as an alias to it. A target that itself
    /// extends another group gains its tokens first, so chains (`a` → `b` → `c`) reach the end.
    ///
    /// - Throws: `TokenError` at the `$extends` when its group extends itself, a group inside it
    ///   or a group holding it; when extensions form a cycle (`a` → `b` → `a`, named in order);
    ///   when a chain is longer than `maximumExtendsChain` or more than `maximumExtensions`
    ///   groups extend; when the target holds no tokens once its own extension is applied.
    static func applyExtends(_ extensions: [Walker.Extension], to table: inout TokenTable) throws(TokenError) {
        guard !extensions.isEmpty else { return }
        func fail(_ ext: Walker.Extension, _ reason: String) -> TokenError {
            TokenError(file: ext.location.file, path: ext.group, location: ext.location, reason: reason)
        }
        guard extensions.count <= maximumExtensions else {
            throw fail(extensions[maximumExtensions], "more than \(maximumExtensions) groups use $extends: audit the design system in parts")
        }
        for ext in extensions {
            if ext.target == ext.group {
                throw fail(ext, "$extends names the group itself: a group cannot extend itself")
            }
            if lies(ext.target, inside: ext.group) || lies(ext.group, inside: ext.target) {
                throw fail(ext, "$extends names the group '\(ext.target)', which \(ext.target.count > ext.group.count ? "lies inside" : "holds") '\(ext.group)': a group cannot extend its own tokens")
            }
        }
        // An extension waits for those that add tokens under its target: one whose group is the
        // target, lies inside it, or holds it.
        let dependencies: [[Int]] = extensions.map { ext in
            extensions.indices.filter { j in
                let group = extensions[j].group
                return group == ext.target || lies(group, inside: ext.target) || lies(ext.target, inside: group)
            }
        }
        // Each extension once, after what it waits for (an iterative walk: a hostile chain is long).
        var done = [Bool](repeating: false, count: extensions.count)
        for first in extensions.indices where !done[first] {
            var chain: [(index: Int, next: Int)] = [(first, 0)]
            while let (last, next) = chain.last {
                if next < dependencies[last].count {
                    chain[chain.count - 1].next += 1
                    let j = dependencies[last][next]
                    guard !done[j] else { continue }
                    if let at = chain.firstIndex(where: { $0.index == j }) {
                        let cycle = (chain[at...].map { extensions[$0.index].group } + [extensions[j].group]).joined(separator: " → ")
                        throw fail(extensions[j], "$extends forms a cycle: \(cycle)")
                    }
                    guard chain.count < maximumExtendsChain else {
                        throw fail(extensions[first], "$extends chains more than \(maximumExtendsChain) groups, each extending the next")
                    }
                    chain.append((j, 0))
                    continue
                }
                let ext = extensions[last]
                var found = false
                for path in table.tokens.map(\.path) where lies(path, inside: ext.target) {
                    found = true
                    let derived = ext.group + "." + String(decoding: path.utf8.dropFirst(ext.target.utf8.count + 1), as: UTF8.self)
                    guard !table.contains(derived) else { continue }
                    try table.set(derived, mode: nil, value: .alias(path), at: ext.location, type: table[path]?.type)
                }
                if !found {
                    throw fail(ext, "$extends names the group '\(ext.target)', which holds no tokens")
                }
                done[last] = true
                chain.removeLast()
            }
        }
    }

    // MARK: - Resolver documents

    /// A token tree a resolver names: a file or an inline object in the resolver.
    private struct Source {
        var document: JSONTokenDocument
        var jsonPath: [String]
        var object: JSONObject
        var key: String { document.name + "#" + jsonPath.joined(separator: "/") }
    }

    /// A step of `resolutionOrder`: a set (always applied) or a modifier (one context per mode).
    private enum Step {
        case set(name: String, sources: [Source])
        case modifier(name: String, contexts: [(name: String, sources: [Source])])
    }

    private static func readResolver(_ resolver: JSONTokenDocument, documents: [JSONTokenDocument]) throws(TokenError) -> TokenSet {
        guard case .object(let root) = resolver.root else {
            throw TokenError(file: resolver.name, reason: "a resolver document is a JSON object")
        }
        func fail(_ jsonPath: [String], _ reason: String) -> TokenError {
            TokenError(file: resolver.name, location: resolver.location(jsonPath), reason: reason)
        }
        guard case .array(let order)? = root["resolutionOrder"] else {
            throw fail([], "a resolver document needs 'resolutionOrder', an array of sets and modifiers")
        }
        var referenced = Set<ObjectIdentifier>()

        /// The document a `$ref` names, by its name as given, then by the end of a submitted name.
        func file(named ref: String, at jsonPath: [String]) throws(TokenError) -> JSONTokenDocument {
            var name = ref
            while name.hasPrefix("./") { name.removeFirst(2) }
            if name.contains("#") {
                throw fail(jsonPath, "'\(ref)': references into part of another file are not read; refer to whole token files")
            }
            let match = documents.first { $0.name == name }
                ?? documents.first { $0.name.hasSuffix("/" + name) }
                ?? documents.first { TokenSyntax.baseName($0.name) == TokenSyntax.baseName(name) }
            guard let match else {
                let given = documents.map(\.name)
                throw fail(jsonPath, "'\(ref)' names a file that was not submitted (files: \(given.isEmpty ? "none besides the resolver" : TokenSyntax.sample(given)))")
            }
            referenced.insert(ObjectIdentifier(match))
            return match
        }

        // Sources as sets expand into them, counted across the resolver: depth alone was bounded,
        // and an 11 KB resolver whose sets each list the next one 100 times expanded into 10⁸
        // sources, 4 GB and a crash, past its 503 (a hostile pass, stop 38).
        var expandedSources = 0
        /// The token trees of a `sources` (or context) array.
        func sources(_ json: JSON?, at jsonPath: [String], depth: Int = 0) throws(TokenError) -> [Source] {
            guard case .array(let items)? = json else { throw fail(jsonPath, "expected an array of sources") }
            var out: [Source] = []
            for (i, item) in items.enumerated() {
                let at = jsonPath + [String(i)]
                expandedSources += 1
                guard expandedSources <= DTCGReader.maximumResolverSources else {
                    throw TokenError(file: resolver.name, location: resolver.location(at),
                                     reason: "the resolver's sets expand into more than \(DTCGReader.maximumResolverSources) sources (sets listing sets many times): list each source once",
                                     limit: DTCGReader.maximumResolverSources)
                }
                guard case .object(let object) = item else { throw fail(at, "a source is a token object or {\"$ref\": …}") }
                if case .string(let ref)? = object["$ref"] {
                    if ref.hasPrefix("#/sets/") {
                        let name = String(ref.dropFirst("#/sets/".count))
                        guard depth < 8 else { throw fail(at, "sets refer to sets more than 8 deep ('\(ref)'): is there a cycle?") }
                        guard case .object(let sets)? = root["sets"], case .object(let set)? = sets[name] else {
                            throw fail(at, "'\(ref)' names no set of this resolver")
                        }
                        out += try sources(set["sources"], at: ["sets", name, "sources"], depth: depth + 1)
                    } else if ref.hasPrefix("#") {
                        throw fail(at, "'\(ref)': a source refers to a set ('#/sets/…') or a token file")
                    } else {
                        let document = try file(named: ref, at: at)
                        guard case .object(let tokens) = document.root else {
                            throw TokenError(file: document.name, location: document.location([]), reason: "a token file is a JSON object")
                        }
                        out.append(Source(document: document, jsonPath: [], object: tokens))
                    }
                } else {
                    out.append(Source(document: resolver, jsonPath: at, object: object))
                }
            }
            return out
        }

        // The steps, in order.
        var steps: [Step] = []
        for (i, item) in order.enumerated() {
            let at = ["resolutionOrder", String(i)]
            guard case .object(let object) = item else { throw fail(at, "a resolutionOrder entry is an object") }
            var body = object
            var bodyPath = at
            var name = "resolutionOrder[\(i)]"
            if case .string(let ref)? = object["$ref"] {
                let parts = ref.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 3, parts[0] == "#", parts[1] == "sets" || parts[1] == "modifiers",
                      case .object(let group)? = root[parts[1]], case .object(let target)? = group[parts[2]] else {
                    throw fail(at, "'\(ref)' names no set or modifier of this resolver ('#/sets/<name>' or '#/modifiers/<name>')")
                }
                body = target
                bodyPath = [parts[1], parts[2]]
                name = parts[2]
            } else if case .string(let n)? = object["name"] {
                name = n
            }
            let isModifier: Bool
            if case .string(let kind)? = body["type"] { isModifier = kind == "modifier" } else { isModifier = body["contexts"] != nil }
            if isModifier {
                guard case .object(let contexts)? = body["contexts"], contexts.count > 0 else {
                    throw fail(bodyPath, "modifier '\(name)' needs 'contexts', an object of context name → sources")
                }
                var list: [(name: String, sources: [Source])] = []
                for context in contexts.storage {
                    list.append((context.key, try sources(context.value, at: bodyPath + ["contexts", context.key])))
                }
                steps.append(.modifier(name: name, contexts: list))
            } else {
                steps.append(.set(name: name, sources: try sources(body["sources"], at: bodyPath + ["sources"])))
            }
        }

        // Each token tree walked once.
        var walked: [String: [Entry]] = [:]
        var notes: [String] = []
        var hexes: [String] = []
        var extensionModes = false
        // Groups' `$extends` in any source, applied once every mode is layered: the derived
        // tokens are aliases, so each mode resolves them to its own values (a hostile pass: a
        // set's `$extends` was dropped without a word).
        var resolverExtensions: [Walker.Extension] = [], seenExtensions = Set<String>()
        var misspelt: [(type: String, token: String)] = []
        func entries(_ source: Source) throws(TokenError) -> [Entry] {
            if let done = walked[source.key] { return done }
            var walker = Walker(document: source.document)
            try walker.walkGroup(source.object, jsonPath: source.jsonPath, tokenPath: [], inheritedType: nil)
            for e in walker.extensions where seenExtensions.insert(e.group + "\u{0}" + e.target).inserted { resolverExtensions.append(e) }
            if walker.entries.contains(where: { !$0.modes.isEmpty }) { extensionModes = true }
            hexes += walker.disagreeingHexes
            misspelt += walker.misspeltColors
            walked[source.key] = walker.entries
            return walker.entries
        }

        // Modes: every combination of the modifiers' contexts.
        let modifiers = steps.compactMap { step -> [(name: String, sources: [Source])]? in
            if case .modifier(_, let contexts) = step { return contexts }
            return nil
        }
        var combinations: [[Int]] = [[]]
        for contexts in modifiers {
            var next: [[Int]] = []
            for combination in combinations {
                for c in contexts.indices { next.append(combination + [c]) }
                if next.count > TokenFormats.maximumModes {
                    throw fail(["modifiers"], "the modifiers' contexts combine into more than \(TokenFormats.maximumModes) modes")
                }
            }
            combinations = next
        }

        var table = TokenTable()
        // Entries layered over all modes, bounded: a thousand sources of one 20,000-token file
        // in 64 modes would be over a billion.
        var layeredEntries = 0
        /// The winning entry per path of one layering, in first-definition order.
        func layer(_ contexts: [Int]?) throws(TokenError) -> (order: [String], winners: [String: Entry]) {
            var order: [String] = []
            var winners: [String: Entry] = [:]
            var m = 0
            for step in steps {
                var list: [Source] = []
                switch step {
                case .set(_, let s): list = s
                case .modifier(_, let all):
                    if let contexts { list = all[contexts[m]].sources }
                    m += 1
                }
                for source in list {
                    let sourceEntries = try entries(source)
                    layeredEntries += sourceEntries.count
                    guard layeredEntries <= DTCGReader.maximumLayeredEntries else {
                        throw TokenError(file: resolver.name, location: resolver.location(["resolutionOrder"]),
                                         reason: "the resolver layers more than \(DTCGReader.maximumLayeredEntries) token definitions over its modes (sources × tokens × modes): list each source once, or audit fewer modes",
                                         limit: DTCGReader.maximumLayeredEntries)
                    }
                    for entry in sourceEntries {
                        if winners.updateValue(entry, forKey: entry.path) == nil { order.append(entry.path) }
                    }
                }
            }
            return (order, winners)
        }

        let base = try layer(nil)
        for path in base.order {
            let e = base.winners[path]!
            try table.set(path, mode: nil, value: e.value, at: e.location, type: e.type)
        }
        for combination in combinations where !modifiers.isEmpty {
            let mode = combination.enumerated().map { modifiers[$0.offset][$0.element].name }.joined(separator: " + ")
            try table.declareMode(mode, at: resolver.location(["modifiers"]))
            let layered = try layer(combination)
            for path in layered.order {
                let e = layered.winners[path]!
                if let b = base.winners[path], b.location == e.location { continue }
                try table.set(path, mode: mode, value: e.value, at: e.location, type: e.type)
            }
        }
        try applyExtends(resolverExtensions, to: &table)
        let unreferenced = documents.filter { !referenced.contains(ObjectIdentifier($0)) }.map(\.name)
        if !unreferenced.isEmpty {
            notes.append("not referenced by \(resolver.name), so not read: \(TokenSyntax.sample(unreferenced))")
        }
        if extensionModes {
            notes.append("$extensions modes inside files a resolver combines are not read: the resolver's contexts are the modes")
        }
        if let note = hexNote(hexes) { notes.append(note) }
        table.notes += notes
        var set = try table.tokenSet(format: format, files: [resolver] + documents)
        set.baseIsAState = modifiers.isEmpty
        if let warning = misspeltColorWarning(misspelt) { set.coverageWarnings.append(warning) }
        return set
    }
}
