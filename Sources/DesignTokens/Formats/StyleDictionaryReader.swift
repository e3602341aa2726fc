import JSONValue

/// Style Dictionary's `value` format (v3 docs, https://v3.amzn.style-dictionary.com/docs/tokens
/// and https://v3.amzn.style-dictionary.com/docs/tokens#referencing-aliasing: "a token is an
/// object with a `value`"; references are `{path.to.token.value}`, and since v3 also
/// `{path.to.token}`), with Adobe Spectrum's `sets` extension (adobe/spectrum-design-data
/// `packages/tokens`, read by style-dictionary-sets: `{"sets": {"light": {…}, "dark": {…}}}`).
///
/// - Tokens are objects with `value`; other objects are groups; the path is the dotted key path
///   (`color.md_ref_palette_primary100`; a flat file's keys are paths of one key,
///   `accent-background-color-default`).
/// - References: `{name}` and `{a.b.value}` (the old `.value` suffix is dropped, so both name
///   the token `a.b`). A reference inside other text (`rgba({black}, 0.5)`) is kept as CSS text.
/// - Type: `type`, else `attributes.category`, else Spectrum's `$schema`
///   (`…/token-types/color.json`, `color-set.json`, `opacity.json`, `drop-shadow.json`; `alias`
///   says nothing). Colors (strings: hex, `rgb(r, g, b)`, `rgba(…)`, …) are CSS text; other types
///   and values that are not colors (opacity numbers, drop-shadow arrays) are `.other`.
/// - Modes: each key of a `sets` object is a mode of that token (nested `sets` are modes named
///   `outer/inner`); a token without `sets` has only a base, and may still depend on the mode
///   through what it references (resolution follows each hop in the mode). `TokenFile.mode`
///   makes a whole file one mode. In files without either, keys ending in `_light` and `_dark`
///   (Material's Style Dictionary export: `md_sys_color_primary_light`, `…_dark`) are one token
///   in two modes: where both suffixes of a name are present, the name without them gets modes
///   `light` and `dark` aliasing each (it keeps its own value, if it has one, as its base), and
///   the suffixed tokens stay reachable by aliases and by rules naming them exactly, not by
///   patterns (`TokenSet.modeVariants`).
/// - Several files share one namespace; a later definition of a path replaces an earlier one
///   (named in a note, as Style Dictionary warns of collisions).
public enum StyleDictionaryReader: TokenFormatReader {
    public static let format = TokenFormat.styleDictionary

    public static func detect(_ files: [TokenFile]) -> Bool {
        TokenFormats.detect(files) == .styleDictionary
    }

    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        try read(documents: TokenFormats.parseAll(files, format: .styleDictionary))
    }

    static func read(documents: [JSONTokenDocument]) throws(TokenError) -> TokenSet {
        var table = TokenTable()
        var collisions: [String] = []
        var embedded: [String] = []
        for document in documents {
            guard case .object(let root) = document.root else {
                throw TokenError(file: document.name, location: document.location([]),
                                 reason: "a Style Dictionary token file is a JSON object, not a \(document.root.typeName)")
            }
            var reader = Reader(document: document, fileMode: document.file.mode)
            if let mode = document.file.mode {
                try table.declareMode(mode, at: document.location([]))
                table.notes.append("\(document.name) read as mode '\(mode)'")
            }
            try reader.walk(root, jsonPath: [], tokenPath: [], table: &table, collisions: &collisions)
            embedded += reader.embedded
        }
        if !collisions.isEmpty {
            table.notes.append("defined more than once (the last definition is used): \(TokenSyntax.sample(collisions))")
        }
        // Only those not read as colors (`rgba({a}, 0.5)`, `{a}33` are: a hostile pass found
        // the note naming tokens the same report measured).
        let uncolored = embedded.filter { path in
            guard let t = table[path] else { return true }
            return !([t.base].compactMap { $0 } + Array(t.modes.values)).contains { if case .css = $0 { return true }; return false }
        }
        if !uncolored.isEmpty {
            table.notes.append("references inside other text are kept as written and are not colors: \(TokenSyntax.sample(uncolored))")
        }
        let variants = table.modes.isEmpty ? try foldSuffixModes(&table) : []
        var set = try table.tokenSet(format: format, files: documents)
        set.modeVariants = variants
        return set
    }

    /// The mode suffixes a key may end in, and their modes.
    static let modeSuffixes = [("_light", "light"), ("_dark", "dark")]

    /// Folds `name_light` and `name_dark` into `name` in modes `light` and `dark` (aliases to
    /// each) where both are present; returns the suffixed paths, or none when no name has both.
    static func foldSuffixModes(_ table: inout TokenTable) throws(TokenError) -> Set<String> {
        var stems: [String: [String: DesignToken]] = [:]
        var order: [String] = []
        for token in table.tokens {
            for (suffix, mode) in modeSuffixes where token.path.hasSuffix(suffix) && token.path.count > suffix.count {
                let stem = String(token.path.dropLast(suffix.count))
                guard !stem.hasSuffix("."), token.base != nil else { continue }
                if stems[stem] == nil { order.append(stem) }
                stems[stem, default: [:]][mode] = token
            }
        }
        let folded = order.filter { stems[$0]?.count == modeSuffixes.count }
        guard !folded.isEmpty else { return [] }
        for (_, mode) in modeSuffixes { try table.declareMode(mode, at: nil) }
        var variants = Set<String>()
        for stem in folded {
            for (_, mode) in modeSuffixes {
                let variant = stems[stem]![mode]!
                try table.set(stem, mode: mode, value: .alias(variant.path), at: variant.location, type: variant.type)
                variants.insert(variant.path)
            }
        }
        table.notes.append("\(folded.count) token name\(folded.count == 1 ? " is" : "s are") written with _light and _dark suffixes, read as one token in modes light and dark (\(TokenSyntax.sample(folded.map { $0 + "_light/_dark" }, limit: 3))); the suffixed tokens are reached by aliases and by rules that name them exactly")
        return variants
    }

    private struct Reader {
        let document: JSONTokenDocument
        let fileMode: String?
        var seen = Set<String>()
        var embedded: [String] = []

        init(document: JSONTokenDocument, fileMode: String?) {
            self.document = document
            self.fileMode = fileMode
        }

        mutating func walk(_ group: JSONObject, jsonPath: [String], tokenPath: [String], table: inout TokenTable,
                           collisions: inout [String]) throws(TokenError) {
            for member in group.storage {
                let key = member.key
                guard case .object(let child) = member.value, !key.hasPrefix("$") else { continue }
                let at = jsonPath + [key]
                let path = tokenPath + [key]
                let isToken = child["value"].map { !TokenFormats.isTokenLike($0) } ?? false
                if isToken || isSetsToken(child) {
                    let dotted = path.joined(separator: ".")
                    if table.contains(dotted) && (fileMode == nil || table[dotted]?.modes[fileMode!] != nil) {
                        collisions.append(dotted)
                    }
                    try token(child, path: dotted, jsonPath: at, table: &table)
                } else {
                    try walk(child, jsonPath: at, tokenPath: path, table: &table, collisions: &collisions)
                }
            }
        }

        func isSetsToken(_ object: JSONObject) -> Bool {
            guard case .object(let sets)? = object["sets"], sets.count > 0 else { return false }
            return sets.storage.allSatisfy { member in
                guard case .object(let entry) = member.value else { return false }
                return entry["value"] != nil || entry["sets"] != nil
            }
        }

        mutating func token(_ object: JSONObject, path: String, jsonPath: [String], table: inout TokenTable) throws(TokenError) {
            let type = declaredType(object)
            let location = document.location(jsonPath)
            if case .object(let sets)? = object["sets"], isSetsToken(object) {
                var modes: [(String, JSONObject, [String])] = []
                flatten(sets, prefix: "", jsonPath: jsonPath + ["sets"], into: &modes)
                // The token's own location is its key; each mode's value is at its set's key.
                var first = true
                for (mode, entry, at) in modes {
                    let entryType = declaredType(entry) ?? type
                    let value = try convert(entry["value"], type: entryType, path: path, jsonPath: at + ["value"])
                    let modeLocation = document.location(at)
                    if first {
                        // Create the token at its key, without a base.
                        try table.set(path, mode: mode, value: value, at: location, type: entryType)
                        first = false
                    }
                    try table.set(path, mode: mode, value: value, at: modeLocation, type: entryType)
                }
                return
            }
            let value = try convert(object["value"], type: type, path: path, jsonPath: jsonPath + ["value"])
            try table.set(path, mode: fileMode, value: value, at: location, type: type)
        }

        /// `sets` entries as (mode, token object, JSON path); nested `sets` as `outer/inner`.
        func flatten(_ sets: JSONObject, prefix: String, jsonPath: [String], into out: inout [(String, JSONObject, [String])]) {
            for member in sets.storage {
                guard case .object(let entry) = member.value else { continue }
                let name = prefix.isEmpty ? member.key : prefix + "/" + member.key
                let at = jsonPath + [member.key]
                if entry["value"] == nil, case .object(let inner)? = entry["sets"] {
                    flatten(inner, prefix: name, jsonPath: at + ["sets"], into: &out)
                } else {
                    out.append((name, entry, at))
                }
            }
        }

        /// The type a token declares: `type`, `attributes.category`, or Spectrum's `$schema`.
        func declaredType(_ object: JSONObject) -> String? {
            if case .string(let t)? = object["type"] { return t }
            if case .object(let attributes)? = object["attributes"], case .string(let c)? = attributes["category"] {
                return c
            }
            if case .string(let schema)? = object["$schema"] {
                var name = TokenSyntax.withoutJSONExtension(TokenSyntax.baseName(schema))
                if name == "alias" { return nil }
                if name == "color-set" { name = "color" }
                return name.hasSuffix("-set") ? String(name.dropLast(4)) : name
            }
            return nil
        }

        mutating func convert(_ json: JSON?, type: String?, path: String, jsonPath: [String]) throws(TokenError) -> TokenValue {
            guard let json else {
                throw TokenError(file: document.name, path: path, location: document.location(Array(jsonPath.dropLast())),
                                 reason: "a token needs a 'value'")
            }
            let isColor: Bool? = type.map { $0.lowercased() == "color" }
            if isColor == false { return TokenSyntax.componentValue(json, type: type!) ?? .other(type: type!) }
            if case .string(let text) = json, var reference = TokenSyntax.curlyReference(text) {
                if reference.hasSuffix(".value") { reference.removeLast(".value".count) }
                return .alias(reference)
            }
            switch json {
            case .string(let text):
                if TokenSyntax.hasEmbeddedReference(text) {
                    embedded.append(path)
                    // `rgba({black}, 0.5)` is meant as a color: kept for resolution to judge.
                    // `{color.base.ink.value}33` is that hex with an alpha (a new user's pass).
                    if isColor == true || TokenSyntax.startsWithColorFunction(text) || TokenSyntax.isReferenceWithHexAlpha(text) { return .css(text) }
                    return .other(type: "string")
                }
                if isColor == true { return .css(text) }
                return TokenSyntax.untypedValue(text)
            case .array: return .other(type: type ?? "array")
            default:
                if isColor == true {
                    throw TokenError(file: document.name, path: path, location: document.location(jsonPath),
                                     reason: "a color's value must be a string (a color or a {reference}), not a \(json.typeName)")
                }
                return .other(type: json.typeName)
            }
        }
    }
}
