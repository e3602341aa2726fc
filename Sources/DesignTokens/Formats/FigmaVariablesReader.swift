import JSONValue

/// Figma Variables as the REST API returns them: `GET /v1/files/:file_key/variables/local`
/// (https://www.figma.com/developers/api#get-local-variables-endpoint):
/// `{"status", "error", "meta": {"variableCollections": {id: {name, modes: [{modeId, name}],
/// defaultModeId, remote, variableIds}}, "variables": {id: {name, variableCollectionId,
/// resolvedType, valuesByMode: {modeId: value}}}}}`; or `meta` alone; or, as a plugin has them
/// from the Plugin API (`figma.variables.getLocalVariableCollectionsAsync()` and
/// `getLocalVariablesAsync()`), `{"variableCollections": [collection], "variables": [variable]}`,
/// arrays of the same objects each with its `id`.
///
/// - A token per variable; its path is the variable's `name` (`fgColor/default`). When several
///   variables share a name (a local collection and library copies of it, or `base/color/light`
///   and `base/color/dark` both defining `base/color/gray/9`), the one in the only local
///   collection keeps the name and the others are `<collection name>/<name>`
///   (`base/color/dark/base/color/gray/9`), a library collection named as a local one
///   `<collection name> (library)/<name>`; if that is still not unique, the collection's id is
///   added (`<collection name> [<collection id>]/<name>`). A note says how many were renamed.
/// - Values: `COLOR` `{r, g, b, a}` (0–1 floats) → `color(srgb r g b / a)`; `VARIABLE_ALIAS`
///   → `.alias(<the target variable's path>)`; a target missing from the response (a library
///   variable it does not include) → `.alias("VariableID:…")`, its id, which resolution then
///   reports as unknown; `FLOAT`, `STRING`, `BOOLEAN` → `.other`.
/// - Modes: a collection's modes are by name. Every variable's `base` is its collection's
///   default-mode value (so an alias into a single-mode collection resolves there), and a
///   variable of a collection with several modes has `modes[<mode name>]` for each. The token
///   set's modes are the modes of multi-mode collections holding colors — of the local ones when
///   there are any (library copies may carry older mode names); the others are named in a note.
public enum FigmaVariablesReader: TokenFormatReader {
    public static let format = TokenFormat.figmaVariables

    public static func detect(_ files: [TokenFile]) -> Bool {
        TokenFormats.detect(files) == .figmaVariables
    }

    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        try read(documents: TokenFormats.parseAll(files, format: .figmaVariables))
    }

    private struct Collection {
        var id: String
        var name: String
        var modes: [(id: String, name: String)]
        var defaultModeId: String
        var remote: Bool
        var colorCount = 0
    }

    private struct Variable {
        var id: String
        var name: String
        var collection: Int
        var type: String
        var values: JSONObject
        var document: JSONTokenDocument
        var jsonPath: [String]
    }

    static func read(documents: [JSONTokenDocument]) throws(TokenError) -> TokenSet {
        var collections: [Collection] = []
        var collectionIndex: [String: Int] = [:]
        var variables: [Variable] = []
        var notes: [String] = []

        for document in documents {
            func fail(_ jsonPath: [String], _ reason: String) -> TokenError {
                TokenError(file: document.name, location: document.location(jsonPath), reason: reason)
            }
            // The whole answer, or its `meta` alone.
            var metaPath: [String] = ["meta"]
            var meta: JSONObject
            if case .object(let m)? = document.root["meta"] {
                meta = m
            } else if case .object(let m) = document.root, m["variableCollections"] != nil {
                meta = m
                metaPath = []
            } else {
                throw fail([], "not a Figma variables answer: expected {\"meta\": {\"variableCollections\": …, \"variables\": …}} (GET /v1/files/:key/variables/local)")
            }
            // By id (the REST answer), or arrays of objects with their `id` (the Plugin API's).
            let prefix = metaPath.isEmpty ? "" : "meta."
            func byId(_ key: String, _ what: String) throws(TokenError) -> [(id: String, at: [String], value: JSON)] {
                switch meta[key] {
                case .object(let map)?:
                    return map.storage.map { ($0.key, metaPath + [key, $0.key], $0.value) }
                case .array(let list)?:
                    var out: [(id: String, at: [String], value: JSON)] = []
                    var seen: [String: Int] = [:]
                    for (i, item) in list.enumerated() {
                        let at = metaPath + [key, String(i)]
                        guard case .string(let id)? = item["id"] else {
                            throw fail(at, "\(prefix)\(key)[\(i)] has no 'id': in an array (as the Plugin API gives them) each \(what) carries its id")
                        }
                        if let j = seen[id] {
                            throw fail(at, "\(prefix)\(key)[\(j)] and [\(i)] have the same id '\(id.prefix(80))'")
                        }
                        seen[id] = i
                        out.append((id, at, item))
                    }
                    return out
                default:
                    throw fail(metaPath, "\(prefix)\(key) must be an object of \(what)s by id (the REST API) or an array of \(what)s with their ids (the Plugin API)")
                }
            }
            let collectionEntries = try byId("variableCollections", "collection")
            let variableEntries = try byId("variables", "variable")
            for member in collectionEntries {
                let at = member.at
                guard case .object(let c) = member.value, case .string(let name)? = c["name"],
                      case .array(let modeList)? = c["modes"] else {
                    throw fail(at, "a variable collection needs 'name' and 'modes'")
                }
                var modes: [(id: String, name: String)] = []
                for mode in modeList {
                    guard case .string(let id)? = mode["modeId"], case .string(let modeName)? = mode["name"] else {
                        throw fail(at + ["modes"], "a mode needs 'modeId' and 'name'")
                    }
                    // Modes go by name, so two of one collection with one name would be one mode,
                    // the last one's values winning (a hostile pass: a failing default mode was
                    // never audited). The later is named with its id too.
                    if modes.contains(where: { $0.name == modeName }) {
                        let unique = "\(modeName) (\(id))"
                        notes.append("collection '\(name)' has two modes named '\(modeName)': the one with id '\(id)' is the mode '\(unique)'")
                        modes.append((id, unique))
                    } else {
                        modes.append((id, modeName))
                    }
                }
                guard !modes.isEmpty else { throw fail(at + ["modes"], "collection '\(name)' has no modes") }
                var defaultModeId = modes[0].id
                if case .string(let d)? = c["defaultModeId"] { defaultModeId = d }
                guard modes.contains(where: { $0.id == defaultModeId }) else {
                    throw fail(at + ["defaultModeId"], "collection '\(name)': defaultModeId '\(defaultModeId)' is none of its modes")
                }
                var remote = false
                if case .bool(let r)? = c["remote"] { remote = r }
                if collectionIndex[member.id] == nil {
                    collectionIndex[member.id] = collections.count
                    collections.append(Collection(id: member.id, name: name, modes: modes, defaultModeId: defaultModeId, remote: remote))
                }
            }
            // Collections whose modes share names are audited as one choice of mode by name
            // (`Light` in one is `Light` in the other); in Figma a frame that sets a mode of one
            // sees the other in its own default mode unless it sets that too: said where the two
            // defaults differ (a hostile pass: Semantic `Light` aliasing Brand, whose default is
            // `Dark`, was audited with Brand `Light` only, and nothing said so).
            let multi = collections.filter { $0.modes.count > 1 }
            var mismatched: [String] = []
            for (i, a) in multi.enumerated() {
                for b in multi[(i + 1)...] where mismatched.count < 3 {
                    let shared = Set(a.modes.map(\.name)).intersection(b.modes.map(\.name))
                    guard !shared.isEmpty,
                          let da = a.modes.first(where: { $0.id == a.defaultModeId })?.name,
                          let db = b.modes.first(where: { $0.id == b.defaultModeId })?.name, da != db else { continue }
                    mismatched.append("'\(a.name)' (default '\(da)') and '\(b.name)' (default '\(db)')")
                }
            }
            if !mismatched.isEmpty {
                notes.append("collections whose modes share names are audited with the mode of that name in each: \(mismatched.joined(separator: "; ")); in Figma a frame that sets a mode of only one of them sees the other in its default mode, a state this audit does not check: set both collections' modes on your frames, or give each file its mode")
            }
            for member in variableEntries {
                let at = member.at
                guard case .object(let v) = member.value, case .string(let name)? = v["name"],
                      case .string(let collectionId)? = v["variableCollectionId"],
                      case .object(let values)? = v["valuesByMode"] else {
                    throw fail(at, "a variable needs 'name', 'variableCollectionId' and 'valuesByMode'")
                }
                guard let collection = collectionIndex[collectionId] else {
                    throw TokenError(file: document.name, path: name, location: document.location(at),
                                     reason: "variable '\(name)' is in collection '\(collectionId)', which is not in meta.variableCollections")
                }
                guard variables.count < TokenFormats.maximumTokens else { throw tooManyTokens(name, at: document.location(at)) }
                var type = "COLOR"
                if case .string(let t)? = v["resolvedType"] { type = t }
                if type == "COLOR" { collections[collection].colorCount += 1 }
                variables.append(Variable(id: member.id, name: name, collection: collection, type: type, values: values,
                                          document: document, jsonPath: at))
            }
        }

        // Paths: names, made unique. Within one collection Figma keeps names unique; two there
        // could not be told apart by any rule (a hostile pass: both became 'col/fg', and the note
        // spoke of another collection).
        var byName: [String: [Int]] = [:]
        var inCollection: [String: Int] = [:]
        for (i, v) in variables.enumerated() {
            byName[v.name, default: []].append(i)
            let key = "\(v.collection)\u{0}\(v.name)"
            if let j = inCollection[key] {
                throw TokenError(file: v.document.name, path: v.name, location: v.document.location(v.jsonPath),
                                 reason: "variables '\(variables[j].id)' and '\(v.id)' of collection '\(collections[v.collection].name)' are both named '\(v.name)'; Figma keeps a collection's variable names unique, so one of them is not from Figma as it answers")
            }
            inCollection[key] = i
        }
        var paths = variables.map(\.name)
        let localCollectionNames = Set(collections.filter { !$0.remote }.map(\.name))
        var renamed: [String] = []
        var libraryCopies = Set<String>()
        for (name, indices) in byName where indices.count > 1 {
            let local = indices.filter { !collections[variables[$0].collection].remote }
            for i in indices where !(local.count == 1 && local[0] == i) {
                // A library copy says so: Primer's file has a local collection `mode` and a
                // library one of that name too, and `mode/fgColor/muted` beside `fgColor/muted`
                // did not tell which was which (a new user's pass, stop 38).
                let c = collections[variables[i].collection]
                paths[i] = c.name + (c.remote && localCollectionNames.contains(c.name) ? " (library)" : "") + "/" + name
                renamed.append(paths[i])
                if c.remote && local.count == 1 { libraryCopies.insert(paths[i]) }
            }
        }
        var pathCount: [String: Int] = [:]
        for p in paths { pathCount[p, default: 0] += 1 }
        for i in paths.indices where pathCount[paths[i]]! > 1 {
            let c = collections[variables[i].collection]
            paths[i] = "\(c.name) [\(c.id)]/\(variables[i].name)"
        }
        var pathById: [String: String] = [:]
        for (i, v) in variables.enumerated() { pathById[v.id] = paths[i] }
        if !renamed.isEmpty {
            renamed.sort()
            notes.append("\(renamed.count) variables share a name with a variable of another collection and are named '<collection>/<name>' ('<collection> (library)/<name>' for a library collection named as a local one): \(TokenSyntax.sample(renamed, limit: 3))")
        }

        // Modes: of multi-mode collections with colors, local ones first choice.
        let multiMode = collections.filter { $0.modes.count > 1 && $0.colorCount > 0 }
        let chosen = multiMode.contains { !$0.remote } ? multiMode.filter { !$0.remote } : multiMode
        var table = TokenTable()
        var audited: [String] = []
        for c in chosen {
            for mode in c.modes where !audited.contains(mode.name) {
                try table.declareMode(mode.name, at: nil)
                audited.append(mode.name)
            }
        }
        let chosenNames = Set(audited)
        let otherModes = collections.filter { $0.modes.count > 1 }.flatMap { c in
            c.modes.map(\.name).filter { !chosenNames.contains($0) }.map { "\($0) (\(c.remote ? "library " : "")collection \(c.name)\(c.colorCount == 0 ? ", no colors" : ""))" }
        }
        var otherSeen = Set<String>()
        let others = otherModes.filter { otherSeen.insert($0).inserted }
        if !others.isEmpty {
            notes.append("modes of other collections are kept on their variables but are not audited: \(TokenSyntax.sample(others, limit: 8))")
        }

        var missing = Set<String>()
        for (i, v) in variables.enumerated() {
            let c = collections[v.collection]
            let path = paths[i]
            let at = v.jsonPath
            let kind = v.type.lowercased()
            func value(_ modeId: String) throws(TokenError) -> TokenValue {
                guard let json = v.values[modeId] else {
                    throw TokenError(file: v.document.name, path: path, location: v.document.location(at + ["valuesByMode"]),
                                     reason: "no value for mode '\(c.modes.first { $0.id == modeId }?.name ?? modeId)' of collection '\(c.name)'")
                }
                return try convert(json, type: v.type, path: path, mode: c.modes.first { $0.id == modeId }?.name ?? modeId,
                                   document: v.document, jsonPath: at + ["valuesByMode", modeId], pathById: pathById, missing: &missing)
            }
            let location = v.document.location(at)
            try table.set(path, mode: nil, value: try value(c.defaultModeId), at: location, type: kind)
            if c.modes.count > 1 {
                for mode in c.modes {
                    let modeLocation = v.document.location(at + ["valuesByMode", mode.id])
                    try table.set(path, mode: mode.name, value: try value(mode.id), at: modeLocation, type: kind)
                }
            }
        }
        if !missing.isEmpty {
            notes.append("\(missing.count) alias targets are not in the answer (library variables it does not include); they are kept by id: \(TokenSyntax.sample(missing.sorted(), limit: 3))")
        }
        table.notes += notes
        var set = try table.tokenSet(format: format, files: documents, auditing: audited)
        set.libraryCopies = libraryCopies
        return set
    }

    private static func convert(_ json: JSON, type: String, path: String, mode: String, document: JSONTokenDocument, jsonPath: [String],
                                pathById: [String: String], missing: inout Set<String>) throws(TokenError) -> TokenValue {
        func fail(_ reason: String) -> TokenError {
            TokenError(file: document.name, path: path, location: document.location(jsonPath), reason: reason)
        }
        if case .object(let object) = json, case .string(let kind)? = object["type"], kind == "VARIABLE_ALIAS" {
            guard case .string(let id)? = object["id"] else { throw fail("a VARIABLE_ALIAS needs the target's 'id'") }
            let target = pathById[id]
            if target == nil { missing.insert(id) }
            guard type == "COLOR" else { return .other(type: type.lowercased()) }
            return .alias(target ?? id)
        }
        guard type == "COLOR" else { return .other(type: type.lowercased()) }
        guard case .object(let rgba) = json, let r = number(rgba["r"]), let g = number(rgba["g"]), let b = number(rgba["b"]) else {
            throw fail("a COLOR value is {\"r\", \"g\", \"b\", \"a\"} with numbers from 0 to 1, or a VARIABLE_ALIAS")
        }
        if rgba["a"] != nil && number(rgba["a"]) == nil {
            throw fail("a COLOR value is {\"r\", \"g\", \"b\", \"a\"} with numbers from 0 to 1, or a VARIABLE_ALIAS; its 'a' is a \(rgba["a"]!.typeName)")
        }
        let a = number(rgba["a"]) ?? 1
        // Figma's components are 0 to 1 (a hostile pass: r 2 was gamut-mapped and measured, a -1
        // read as transparent, a 5 as opaque, silently).
        for (member, v) in [("r", r), ("g", g), ("b", b), ("a", a)] where !(v >= 0 && v <= 1) {
            throw fail("in mode '\(mode)', COLOR member '\(member)' is \(v.magnitude < 1e6 ? TokenSyntax.number(v) : String(describing: v)), outside 0 to 1 (Figma's color components are 0 to 1)")
        }
        let channels = [r, g, b].map(TokenSyntax.number).joined(separator: " ")
        return .css("color(srgb \(channels) / \(TokenSyntax.number(a)))")
    }

    private static func number(_ json: JSON?) -> Double? {
        if case .number(let d)? = json { return d }
        return nil
    }
}
