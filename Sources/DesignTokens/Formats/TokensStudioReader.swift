import JSONValue

/// Tokens Studio for Figma: token sets, `$themes.json` and `$metadata.json`, as its docs describe
/// them (https://docs.tokens.studio/manage-settings/token-format ("Legacy" format with `value` /
/// `type`, and the W3C DTCG format with `$value` / `$type`), https://docs.tokens.studio/manage-themes/themes-overview,
/// https://docs.tokens.studio/token-storage/remote/sync-git-github: multi-file sync writes one file
/// per set, `<set name>.json`, plus `$themes.json` and `$metadata.json`; a single-file export holds
/// the sets as top-level keys beside `$themes` and `$metadata`).
///
/// - A set is a file named like its set (`spectrum/palette/light.json` is the set
///   `spectrum/palette/light`; a name ending with the set's name matches too) or, in a single
///   file, a top-level key.
/// - Token paths are the dotted key paths *inside* a set, which is how Tokens Studio references
///   them: adobe/spectrum-tokens-studio-data writes `{Palette.gray.800}` for the key `Palette` →
///   `gray` → `800` of the set `spectrum/palette/light`; set names never appear in paths.
/// - Tokens are objects with `value` (or `$value`) and `type` (or `$type`, also inherited from a
///   group); `color` tokens are read as CSS text or aliases (`{Palette.gray.800}`, and the old
///   `$Palette.gray.800` form), other types are `.other`. A color with Tokens Studio's
///   `$extensions["studio.tokens"].modify` (lighten, darken, mix, alpha in lch, srgb, p3, hsl)
///   is the color the modifier makes (`TokensStudioModifier`, as sd-transforms computes it);
///   one it cannot compute (a reference in the amount, another space) is `.other`
///   (`modifiedColorType`), named in a note, and a pair of it is unresolved rather than audited
///   wrongly or skipped.
/// - Modes: each theme of `$themes.json` is a mode; its `enabled` and `source` sets are layered in
///   `$metadata.json`'s `tokenSetOrder` (later sets override earlier ones), or in submission order
///   without it. With themes in several groups, each combination of one theme per group is a
///   mode, named `a + b`. Without `$themes.json`, all sets are layered into the base, or into
///   `TokenFile.mode` for files that have one.
public enum TokensStudioReader: TokenFormatReader {
    public static let format = TokenFormat.tokensStudio

    public static func detect(_ files: [TokenFile]) -> Bool {
        TokenFormats.detect(files) == .tokensStudio
    }

    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        try read(documents: TokenFormats.parseAll(files, format: .tokensStudio))
    }

    /// One token set: its name, and where its tokens are.
    struct TokenSetSource {
        var name: String
        var document: JSONTokenDocument
        var jsonPath: [String]
        var object: JSONObject
    }

    /// A theme: its name, group, and the sets it uses.
    struct Theme {
        var name: String
        var group: String?
        var sets: [String]
        var location: TokenLocation
    }

    struct Entry {
        var path: String
        var value: TokenValue
        var type: String?
        var location: TokenLocation
    }

    static func read(documents: [JSONTokenDocument]) throws(TokenError) -> TokenSet {
        var sets: [TokenSetSource] = []
        var themeSources: [(document: JSONTokenDocument, jsonPath: [String], items: [JSON])] = []
        var order: [String]? = nil
        var notes: [String] = []

        for document in documents {
            let base = TokenSyntax.baseName(document.name)
            if base == "$themes.json" || isThemeList(document.root) {
                guard case .array(let items) = document.root else {
                    throw TokenError(file: document.name, location: document.location([]), reason: "$themes.json is an array of themes")
                }
                themeSources.append((document, [], items))
                continue
            }
            guard case .object(let root) = document.root else {
                throw TokenError(file: document.name, location: document.location([]),
                                 reason: "a token set is a JSON object, not a \(document.root.typeName)")
            }
            if base == "$metadata.json" {
                order = try tokenSetOrder(root, document: document, jsonPath: [])
                continue
            }
            if root["$themes"] != nil || root["$metadata"] != nil {
                // A single-file export: sets are the top-level keys.
                if case .array(let items)? = root["$themes"] { themeSources.append((document, ["$themes"], items)) }
                if case .object(let metadata)? = root["$metadata"] {
                    order = try tokenSetOrder(metadata, document: document, jsonPath: ["$metadata"])
                }
                for member in root.storage where !member.key.hasPrefix("$") {
                    guard case .object(let object) = member.value else { continue }
                    sets.append(TokenSetSource(name: member.key, document: document, jsonPath: [member.key], object: object))
                }
                continue
            }
            sets.append(TokenSetSource(name: TokenSyntax.withoutJSONExtension(document.name), document: document, jsonPath: [], object: root))
        }

        // Sets in tokenSetOrder, then the others in the order given.
        if let order {
            var rank: [String: Int] = [:]
            for (i, name) in order.enumerated() where rank[name] == nil { rank[name] = i }
            let ranked = sets.enumerated().map { (index, set) in (rank[setName(set.name, in: rank)] ?? order.count + index, set) }
            sets = ranked.sorted { $0.0 < $1.0 }.map(\.1)
        }

        var themes: [Theme] = []
        for source in themeSources {
            for (i, item) in source.items.enumerated() {
                let at = source.jsonPath + [String(i)]
                let location = source.document.location(at)
                guard case .object(let theme) = item, case .string(let name)? = theme["name"] else {
                    throw TokenError(file: source.document.name, location: location, reason: "a theme is an object with a 'name'")
                }
                var used: [String] = []
                if case .object(let selected)? = theme["selectedTokenSets"] {
                    for set in selected.storage {
                        if case .string(let state) = set.value, state == "enabled" || state == "source" { used.append(set.key) }
                    }
                }
                var group: String? = nil
                if case .string(let g)? = theme["group"] { group = g }
                // Themes are modes by name: two of one group with one name would be one mode,
                // the later's values winning (a hostile pass found it so in Figma's variables:
                // a failing mode never audited). The later is named with its id (or position).
                var unique = name
                if themes.contains(where: { $0.name == name && $0.group == group }) {
                    var id = String(i + 1)
                    if case .string(let given)? = theme["id"], !given.isEmpty { id = given }
                    unique = "\(name) (\(id))"
                    var n = 2
                    while themes.contains(where: { $0.name == unique && $0.group == group }) { unique = "\(name) (\(id)-\(n))"; n += 1 }
                    notes.append("two themes\(group.map { " of group '\($0)'" } ?? "") are named '\(name)': the one at \(location.file) line \(location.line) is the mode '\(unique)'")
                }
                themes.append(Theme(name: unique, group: group, sets: used, location: location))
            }
        }

        // Each set walked once.
        var entries: [[Entry]] = []
        var modified: [(path: String, why: String, failed: Bool)] = []
        for set in sets {
            var out: [Entry] = []
            try walk(set.object, set: set, jsonPath: set.jsonPath, tokenPath: [], inheritedType: nil, into: &out, modified: &modified)
            entries.append(out)
        }

        var table = TokenTable()
        if themes.isEmpty {
            for (i, set) in sets.enumerated() {
                let mode = set.document.file.mode
                for e in entries[i] { try table.set(e.path, mode: mode, value: e.value, at: e.location, type: e.type) }
            }
        } else {
            // One mode per theme, or per combination of one theme from each group.
            var groups: [(name: String?, themes: [Theme])] = []
            for theme in themes {
                if let i = groups.firstIndex(where: { $0.name == theme.group }) { groups[i].themes.append(theme) }
                else { groups.append((theme.group, [theme])) }
            }
            var combinations: [[Theme]] = [[]]
            for group in groups {
                var next: [[Theme]] = []
                for combination in combinations {
                    for theme in group.themes { next.append(combination + [theme]) }
                }
                if next.count > TokenFormats.maximumModes {
                    throw TokenError(file: group.themes[0].location.file, location: group.themes[0].location,
                                     reason: "the theme groups combine into more than \(TokenFormats.maximumModes) modes")
                }
                combinations = next
            }
            var missing: [String] = []
            var setIndex: [String: Int] = [:]
            // Set names as given, then the ends of longer names (`tokens/spectrum/palette/light`).
            for (i, set) in sets.enumerated() where setIndex[set.name] == nil { setIndex[set.name] = i }
            for (i, set) in sets.enumerated() {
                var rest = Substring(set.name)
                while let slash = rest.firstIndex(of: "/") {
                    rest = rest[rest.index(after: slash)...]
                    if setIndex[String(rest)] == nil { setIndex[String(rest)] = i }
                }
            }
            var everUsed = Set<Int>()
            for combination in combinations {
                let mode = combination.map(\.name).joined(separator: " + ")
                try table.declareMode(mode, at: combination[0].location)
                var used = Set<Int>()
                for theme in combination {
                    for name in theme.sets {
                        if let i = setIndex[name] { used.insert(i) }
                        else if !missing.contains(name) { missing.append(name) }
                    }
                }
                everUsed.formUnion(used)
                // Layered in set order: a later set's value wins.
                for i in used.sorted() {
                    for e in entries[i] { try table.set(e.path, mode: mode, value: e.value, at: e.location, type: e.type) }
                }
            }
            if !missing.isEmpty {
                notes.append("sets that themes use but were not submitted: \(TokenSyntax.sample(missing))")
            }
            let unused = sets.indices.filter { !everUsed.contains($0) }.map { sets[$0].name }
            if !unused.isEmpty {
                notes.append("sets no theme uses, so not read: \(TokenSyntax.sample(unused))")
            }
        }
        for (path, why, _) in modified.prefix(8) {
            notes.append("'\(path.prefix(80))' has a Tokens Studio color modifier: \(why)")
        }
        if modified.count > 8 { notes.append("\(modified.count - 8) more tokens' Tokens Studio modifiers are noted as above") }
        table.notes += notes
        var tokenSet = try table.tokenSet(format: format, files: documents)
        for m in modified where m.failed && tokenSet.unresolvedReasons[m.path] == nil { tokenSet.unresolvedReasons[m.path] = m.why }
        return tokenSet
    }

    /// Whether `json` is a `$themes.json` array (themes with `selectedTokenSets`).
    static func isThemeList(_ json: JSON) -> Bool {
        guard case .array(let items) = json, let first = items.first else { return false }
        return first["selectedTokenSets"] != nil
    }

    /// The name in `rank` that `name` (a file name without `.json`) stands for: itself, or the
    /// set name it ends with (`tokens/spectrum/palette/light` → `spectrum/palette/light`).
    private static func setName(_ name: String, in rank: [String: Int]) -> String {
        if rank[name] != nil { return name }
        var rest = Substring(name)
        while let slash = rest.firstIndex(of: "/") {
            rest = rest[rest.index(after: slash)...]
            if rank[String(rest)] != nil { return String(rest) }
        }
        return name
    }

    private static func tokenSetOrder(_ metadata: JSONObject, document: JSONTokenDocument, jsonPath: [String]) throws(TokenError) -> [String]? {
        guard let order = metadata["tokenSetOrder"] else { return nil }
        guard case .array(let items) = order else {
            throw TokenError(file: document.name, location: document.location(jsonPath + ["tokenSetOrder"]),
                             reason: "tokenSetOrder is an array of set names")
        }
        return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    private static func walk(_ group: JSONObject, set: TokenSetSource, jsonPath: [String], tokenPath: [String],
                             inheritedType: String?, into out: inout [Entry], modified: inout [(path: String, why: String, failed: Bool)]) throws(TokenError) {
        var groupType = inheritedType
        if case .string(let t)? = group["$type"] { groupType = t }
        for member in group.storage {
            let key = member.key
            if key.hasPrefix("$") { continue }
            guard case .object(let child) = member.value else { continue }
            let at = jsonPath + [key]
            let path = tokenPath + [key]
            let value = child["$value"] ?? child["value"].flatMap { TokenFormats.isTokenLike($0) ? nil : $0 }
            guard let value else {
                try walk(child, set: set, jsonPath: at, tokenPath: path, inheritedType: groupType, into: &out, modified: &modified)
                continue
            }
            var type = groupType
            if case .string(let t)? = child["$type"] ?? child["type"] { type = t }
            let dotted = path.joined(separator: ".")
            let location = set.document.location(at)
            var tokenValue = try convert(value, type: type, path: dotted, location: location)
            if case .object(let ext)? = child["$extensions"], case .object(let studio)? = ext["studio.tokens"],
               let modify = studio["modify"], type?.lowercased() == "color" {
                // The modifier computed as CSS Color 5 text (`TokensStudioModifier`); what it
                // cannot compute stays unresolved (`.other`), never audited as written.
                let base: String?
                switch tokenValue {
                case .alias(let reference): base = "{\(reference)}"
                case .css(let text): base = text
                default: base = nil
                }
                switch base.map({ TokensStudioModifier.css(modify, base: $0) }) ?? .unsupported("its value is not a color") {
                case .css(let text, let note):
                    tokenValue = .css(text)
                    if let note { modified.append((dotted, note, false)) }
                case .unsupported(let why):
                    tokenValue = .other(type: modifiedColorType)
                    modified.append((dotted, why, true))
                }
            }
            guard out.count < TokenFormats.maximumTokens else { throw tooManyTokens(dotted, at: location) }
            out.append(Entry(path: dotted, value: tokenValue, type: type, location: location))
        }
    }

    /// The type of a color token with a `modify` extension (`.other`): not its written value, so
    /// a pair of it is unresolved, never skipped (`TokenAudit`; a new user's pass: white on a
    /// lightened #2563eb, about 2.1:1, was left out of a passing audit).
    public static let modifiedColorType = "color with a Tokens Studio modifier"

    private static func convert(_ value: JSON, type: String?, path: String, location: TokenLocation) throws(TokenError) -> TokenValue {
        let isColor: Bool? = type.map { $0.lowercased() == "color" }
        if isColor == false { return TokenSyntax.componentValue(value, type: type!) ?? .other(type: type!) }
        switch value {
        case .string(let text):
            if let reference = TokenSyntax.curlyReference(text) { return .alias(reference) }
            if text.hasPrefix("$"), text.count > 1, !text.contains(" ") { return .alias(String(text.dropFirst())) }
            if isColor == true { return .css(text) }
            return TokenSyntax.untypedValue(text)
        default:
            if isColor == true {
                throw TokenError(file: location.file, path: path, location: location,
                                 reason: "a color token's value must be a string (a color or a {reference}), not a \(value.typeName)")
            }
            return .other(type: value.typeName)
        }
    }
}
