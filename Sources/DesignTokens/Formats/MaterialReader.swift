import JSONValue

/// Material Theme Builder exports (https://m3.material.io/theme-builder; the default theme as
/// material-foundation/material-tokens publishes it), in their three JSON shapes:
///
/// 1. Design System Package (DSP 0.93, `dsp/data/tokens.json`): `{"entities": [{"class": "token",
///    "type": "color" | "alias" | "custom", "id": "md.sys.color.on-primary.light", "value":
///    "#ffffffff" | "{md.ref.palette.primary100}"}]}`. A last id component starting with `light`
///    or `dark` is the mode; the path is the id without it (`md.sys.color.on-primary`). An
///    unsuffixed id aliasing its own `.light` id (as every `md.sys.color.*` does) is the token's
///    base: the light value. Aliases to suffixed ids name the unsuffixed path (the mode is the
///    one being resolved; a reference across modes is named in a note).
/// 2. The flat dotted-key JSON of the `json` branch (`json/themes/light.json`, `dark.json`,
///    `json/palette.json`): `{"md.sys.color.on-primary": {"value": "{md.ref.palette.primary100}"}}`.
///    The keys contain dots but are single keys: `{md.ref.palette.primary100}` names the key, not
///    a nested path. A file is one mode: `TokenFile.mode`, else its name (`light.json` → `light`)
///    when several files hold `md.sys.` roles; palette files (only `md.ref.`) are the base.
/// 3. `material-theme.json` (current Theme Builder "Export → JSON"): `{"schemes": {"light":
///    {"onPrimary": "#FFFFFF", …}, "dark": {…}, "light-high-contrast": {…}, …}, "palettes":
///    {"primary": {"0": "#000000", …}}}`. Each scheme is a mode; roles become
///    `md.sys.color.on-primary` (camelCase to the kebab-case of the other shapes), palette tones
///    `md.ref.palette.primary40`. `seed`, `coreColors` and `extendedColors` are not tokens.
///
/// Values are 8-digit (`#rrggbbaa`) or 6-digit hex, read as CSS; DSP `custom` tokens (typefaces,
/// weights) are `.other`.
public enum MaterialReader: TokenFormatReader {
    public static let format = TokenFormat.material

    public static func detect(_ files: [TokenFile]) -> Bool {
        TokenFormats.detect(files) == .material
    }

    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        try read(documents: TokenFormats.parseAll(files, format: .material))
    }

    static func read(documents: [JSONTokenDocument]) throws(TokenError) -> TokenSet {
        var table = TokenTable()
        // Which flat files are modes: several files with `md.sys.` roles, or a given mode.
        let flatRoleFiles = documents.filter { document in
            guard case .object(let root) = document.root, root["entities"] == nil, root["schemes"] == nil else { return false }
            return root.storage.contains { $0.key.hasPrefix("md.sys.") }
        }
        for document in documents {
            guard case .object(let root) = document.root else {
                throw TokenError(file: document.name, location: document.location([]),
                                 reason: "a Material Theme Builder export is a JSON object, not a \(document.root.typeName)")
            }
            if case .array(let entities)? = root["entities"] {
                try readDSP(entities, document: document, table: &table)
            } else if case .object(let schemes)? = root["schemes"] {
                try readTheme(root, schemes: schemes, document: document, table: &table)
            } else if root.storage.contains(where: { $0.key.hasPrefix("md.") }) {
                var mode = document.file.mode
                if mode == nil && flatRoleFiles.count > 1 && flatRoleFiles.contains(where: { $0 === document }) {
                    mode = TokenSyntax.withoutJSONExtension(TokenSyntax.baseName(document.name))
                    table.notes.append("\(document.name) read as mode '\(mode!)' (by its name)")
                } else if let mode {
                    table.notes.append("\(document.name) read as mode '\(mode)'")
                }
                try readFlat(root, mode: mode, document: document, table: &table)
            } else {
                throw TokenError(file: document.name, location: document.location([]),
                                 reason: "not a Material Theme Builder export: expected DSP 'entities', 'schemes' (material-theme.json) or 'md.…' keys")
            }
        }
        return try table.tokenSet(format: format, files: documents)
    }

    // MARK: - DSP

    /// The mode of an id's last component (`light`, `dark`, `light-high-contrast`, …), if any.
    static func modeSuffix(_ id: String) -> (path: String, mode: String)? {
        guard let dot = id.lastIndex(of: ".") else { return nil }
        let last = id[id.index(after: dot)...]
        guard last.hasPrefix("light") || last.hasPrefix("dark") else { return nil }
        return (String(id[..<dot]), String(last))
    }

    private static func readDSP(_ entities: [JSON], document: JSONTokenDocument, table: inout TokenTable) throws(TokenError) {
        struct Entity {
            var id: String
            var type: String
            var value: JSON
            var jsonPath: [String]
        }
        var list: [Entity] = []
        var skipped = 0
        for (i, item) in entities.enumerated() {
            let at = ["entities", String(i)]
            guard case .object(let e) = item else {
                throw TokenError(file: document.name, location: document.location(at), reason: "an entity is an object")
            }
            if case .string(let kind)? = e["class"], kind != "token" { skipped += 1; continue }
            guard case .string(let id)? = e["id"], let value = e["value"] else {
                throw TokenError(file: document.name, location: document.location(at), reason: "a DSP token needs 'id' and 'value'")
            }
            var type = "color"
            if case .string(let t)? = e["type"] { type = t }
            guard list.count < TokenFormats.maximumTokens else { throw tooManyTokens(id, at: document.location(at)) }
            list.append(Entity(id: id, type: type, value: value, jsonPath: at))
        }
        var byId: [String: Entity] = [:]
        for entity in list where byId[entity.id] == nil { byId[entity.id] = entity }
        /// Split paths: the unsuffixed path of every id that has a mode suffix.
        let split = Set(list.compactMap { modeSuffix($0.id)?.path })
        var crossMode: [String] = []

        func tokenValue(_ entity: Entity, mode: String?) throws(TokenError) -> TokenValue {
            let location = document.location(entity.jsonPath)
            if case .string(let text) = entity.value, let reference = TokenSyntax.curlyReference(text) {
                if let (target, targetMode) = modeSuffix(reference), split.contains(target) {
                    if let mode, mode != targetMode { crossMode.append(entity.id) }
                    return .alias(target)
                }
                return .alias(reference)
            }
            switch entity.type.lowercased() {
            case "color", "alias":
                guard case .string(let text) = entity.value else {
                    throw TokenError(file: document.name, path: entity.id, location: location,
                                     reason: "a color token's value must be a string, not a \(entity.value.typeName)")
                }
                return .css(text)
            default:
                return .other(type: entity.type)
            }
        }

        for entity in list {
            let location = document.location(entity.jsonPath + ["id"])
            let type = entity.type.lowercased() == "alias" ? "color" : entity.type
            if let (path, mode) = modeSuffix(entity.id), split.contains(path) {
                try table.set(path, mode: mode, value: try tokenValue(entity, mode: mode), at: location, type: type)
            } else if split.contains(entity.id), case .string(let text) = entity.value,
                      let reference = TokenSyntax.curlyReference(text), modeSuffix(reference)?.path == entity.id {
                // `md.sys.color.primary` = `{md.sys.color.primary.light}`: its base is that mode's value.
                let mode = modeSuffix(reference)!.mode
                guard let source = byId[reference] else {
                    throw TokenError(file: document.name, path: entity.id, location: location, reason: "'\(reference)' is not defined")
                }
                try table.set(entity.id, mode: nil, value: try tokenValue(source, mode: mode), at: location, type: type)
            } else {
                try table.set(entity.id, mode: nil, value: try tokenValue(entity, mode: nil), at: location, type: type)
            }
        }
        if skipped > 0 { table.notes.append("\(document.name): \(skipped) DSP entities that are not tokens were skipped") }
        if !crossMode.isEmpty {
            table.notes.append("aliases from one mode to another mode's id are read as the same role in the mode resolved: \(TokenSyntax.sample(crossMode))")
        }
    }

    // MARK: - Flat dotted keys

    private static func readFlat(_ root: JSONObject, mode: String?, document: JSONTokenDocument, table: inout TokenTable) throws(TokenError) {
        if let mode { try table.declareMode(mode, at: document.location([])) }
        for member in root.storage {
            let at = [member.key]
            let location = document.location(at)
            guard case .object(let token) = member.value, let value = token["value"] else {
                if member.key.hasPrefix("$") { continue }
                throw TokenError(file: document.name, path: member.key, location: location,
                                 reason: "a Material token is an object with a 'value'")
            }
            var type: String? = "color"
            if case .string(let t)? = token["type"] { type = t }
            let tokenValue: TokenValue
            switch value {
            case .string(let text):
                if let reference = TokenSyntax.curlyReference(text) { tokenValue = .alias(reference) }
                else if type?.lowercased() == "color" { tokenValue = .css(text) }
                else { tokenValue = .other(type: type ?? "string") }
            default:
                tokenValue = .other(type: type == "color" ? value.typeName : (type ?? value.typeName))
            }
            try table.set(member.key, mode: mode, value: tokenValue, at: location, type: type)
        }
    }

    // MARK: - material-theme.json

    /// `onPrimaryContainer` → `on-primary-container`.
    static func kebab(_ camel: String) -> String {
        var out = ""
        for ch in camel {
            if ch.isUppercase {
                if !out.isEmpty { out.append("-") }
                out.append(contentsOf: ch.lowercased())
            } else {
                out.append(ch)
            }
        }
        return out
    }

    private static func readTheme(_ root: JSONObject, schemes: JSONObject, document: JSONTokenDocument,
                                  table: inout TokenTable) throws(TokenError) {
        if case .object(let palettes)? = root["palettes"] {
            for palette in palettes.storage {
                guard case .object(let tones) = palette.value else { continue }
                for tone in tones.storage {
                    let at = ["palettes", palette.key, tone.key]
                    let path = "md.ref.palette.\(palette.key)\(tone.key)"
                    try table.set(path, mode: nil, value: try color(tone.value, path: path, document: document, jsonPath: at),
                                  at: document.location(at), type: "color")
                }
            }
        }
        for scheme in schemes.storage {
            guard case .object(let roles) = scheme.value else {
                throw TokenError(file: document.name, location: document.location(["schemes", scheme.key]),
                                 reason: "scheme '\(scheme.key)' must be an object of role → color")
            }
            try table.declareMode(scheme.key, at: document.location(["schemes", scheme.key]))
            for role in roles.storage {
                let at = ["schemes", scheme.key, role.key]
                let path = "md.sys.color." + kebab(role.key)
                try table.set(path, mode: scheme.key, value: try color(role.value, path: path, document: document, jsonPath: at),
                              at: document.location(at), type: "color")
            }
        }
        let skipped = ["seed", "coreColors", "extendedColors"].filter { root[$0] != nil }
        if !skipped.isEmpty {
            table.notes.append("\(document.name): \(skipped.joined(separator: ", ")) are not tokens and were not read")
        }
    }

    private static func color(_ json: JSON, path: String, document: JSONTokenDocument, jsonPath: [String]) throws(TokenError) -> TokenValue {
        guard case .string(let text) = json else {
            throw TokenError(file: document.name, path: path, location: document.location(jsonPath),
                             reason: "a color must be a string like \"#6750A4\", not a \(json.typeName)")
        }
        return .css(text)
    }
}
