import Testing
import JSONValue
@testable import DesignTokens

/// Figma Variables REST answers: the real Primer file (1,409 variables in 19 collections) and
/// small answers for naming, aliases and errors. Columns of the one-line real file were read with
/// `grep -bo` (it is ASCII: column = byte offset + 1).
@Suite struct FigmaVariablesReaderTests {
    static let primerModes = ["light", "dark", "dark dimmed", "light high contrast", "dark high contrast",
                              "light protanopia deuteranopia", "dark protanopia deuteranopia", "light tritanopia", "dark tritanopia"]

    /// Follows aliases from `path` in `mode` to a CSS value (nil when a target is unknown).
    static func resolve(_ path: String, in mode: String, _ set: TokenSet) -> String? {
        var current = path
        for _ in 0..<16 {
            guard let token = set[current], let value = token.value(in: mode) else { return nil }
            switch value {
            case .css(let css): return css
            case .alias(let next): current = next
            case .other: return nil
            }
        }
        return nil
    }

    @Test("primer: 1,409 variables, 1,151 colors; the local `mode` collection's nine modes")
    func primer() throws {
        let set = try FigmaVariablesReader.read(TokenFixtures.figmaREST())
        #expect(set.format == .figmaVariables)
        #expect(set.tokens.count == 1_409)
        #expect(set.tokens.filter { $0.type == "color" }.count == 1_151)
        #expect(set.tokens.filter { $0.type == "float" }.count == 254)
        #expect(set.tokens.filter { $0.type == "string" }.count == 4)
        #expect(set.modes == Self.primerModes)
        // Paths are unique.
        #expect(Set(set.tokens.map(\.path)).count == 1_409)
        #expect(set.notes.contains { $0.contains("14 alias targets are not in the answer") })
        #expect(set.notes.contains { $0.contains("light colorblind") && $0.contains("library collection mode") })
        #expect(set.notes.contains { $0.contains("condensed") && $0.contains("no colors") })
    }

    /// A plugin author's pass: a plugin has the Plugin API's `VariableCollection` and `Variable`
    /// objects as arrays (`getLocalVariableCollectionsAsync()`, `getLocalVariablesAsync()`), and
    /// they were refused ("meta.variableCollections must be an object"). The Primer answer
    /// rewritten as those arrays reads to the same tokens, values and modes.
    @Test("primer as the Plugin API's arrays reads as the REST answer does")
    func pluginAPIArrays() throws {
        let rest = try TokenFixtures.figmaREST()[0]
        guard case .object(let root) = try JSONParser.parse(rest.content), case .object(let meta)? = root["meta"],
              case .object(let collections)? = meta["variableCollections"], case .object(let variables)? = meta["variables"]
        else { Issue.record("not the REST answer"); return }
        func list(_ map: JSONObject) -> JSON {
            .array(map.storage.map { member in
                guard case .object(var o) = member.value else { return member.value }
                o.set("id", .string(member.key))
                return .object(o)
            })
        }
        let plugin = JSON.object(["variableCollections": list(collections), "variables": list(variables)])
        let fromPlugin = try FigmaVariablesReader.read([TokenFile(name: "plugin.json", content: plugin.serializedString)])
        let fromREST = try FigmaVariablesReader.read([rest])
        #expect(TokenFormats.detect([TokenFile(name: "plugin.json", content: plugin.serializedString)]) == .figmaVariables)
        #expect(fromPlugin.tokens.count == 1_409 && fromPlugin.modes == Self.primerModes)
        #expect(fromPlugin.tokens.map(\.path) == fromREST.tokens.map(\.path))
        for (a, b) in zip(fromPlugin.tokens, fromREST.tokens) {
            #expect(a.base == b.base && a.modes == b.modes, "\(a.path)")
        }
        #expect(Self.resolve("bgColor/default", in: "dark", fromPlugin).flatMap(srgb8) == [0x0d, 0x11, 0x17])
        // An element without its id, and two with one id, are refused where they are.
        let noId = #"{"variableCollections": [{"name": "c", "modes": [{"modeId": "1:0", "name": "light"}]}], "variables": []}"#
        #expect(throws: TokenError.self) { try FigmaVariablesReader.read([TokenFile(name: "p.json", content: noId)]) }
        do {
            _ = try FigmaVariablesReader.read([TokenFile(name: "p.json", content: noId)])
        } catch {
            #expect(error.reason == "variableCollections[0] has no 'id': in an array (as the Plugin API gives them) each collection carries its id", "\(error.reason)")
        }
        let twice = #"{"variableCollections": [{"id": "c1", "name": "c", "modes": [{"modeId": "1:0", "name": "light"}]}], "variables": [{"id": "v", "name": "a", "variableCollectionId": "c1", "valuesByMode": {}}, {"id": "v", "name": "b", "variableCollectionId": "c1", "valuesByMode": {}}]}"#
        do {
            _ = try FigmaVariablesReader.read([TokenFile(name: "p.json", content: twice)])
            Issue.record("two variables with one id were read")
        } catch {
            #expect(error.reason == "variables[0] and [1] have the same id 'v'", "\(error.reason)")
        }
    }

    @Test("primer: dark fgColor/default leads to #f0f6fc and bgColor/default to #0d1117 through single-mode collections")
    func primerDark() throws {
        let set = try FigmaVariablesReader.read(TokenFixtures.figmaREST())
        let fg = try #require(set["fgColor/default"])
        #expect(fg.type == "color")
        #expect(fg.location.text == "get-local-variables.json:1:151922")
        #expect(fg.location(in: "dark").text == "get-local-variables.json:1:152309")
        guard case .alias(let target)? = fg.value(in: "dark") else { Issue.record("dark is not an alias"); return }
        // The target shares its name with base/color/light's variable: named by its collection.
        #expect(target == "base/color/dark/base/color/neutral/12")
        let neutral = try #require(set[target])
        #expect(neutral.modes.isEmpty)
        guard case .css(let css)? = neutral.base else { Issue.record("not a color"); return }
        #expect(css == "color(srgb 0.9411764740943909 0.9647058844566345 0.9882352948188782 / 1)")
        #expect(srgb8(css) == [0xf0, 0xf6, 0xfc])
        #expect(Self.resolve("bgColor/default", in: "dark", set).flatMap(srgb8) == [0x0d, 0x11, 0x17])
    }

    /// A new user's pass (stop 38): Primer's file has a local collection `mode` and a library
    /// collection `mode` too; the library copy of `fgColor/muted` was `mode/fgColor/muted`,
    /// which did not say it was the library's.
    @Test("primer: a library collection named as a local one is marked (library) in its copies' names")
    func primerLibraryCollectionNamedAsLocal() throws {
        let set = try FigmaVariablesReader.read(TokenFixtures.figmaREST())
        #expect(set["fgColor/muted"] != nil)
        #expect(set["mode (library)/fgColor/muted"] != nil)
        #expect(set["mode/fgColor/muted"] == nil)
        // Collections named as no local one keep the plain prefix.
        #expect(set["base/color/dark/base/color/neutral/12"] != nil)
    }

    @Test("primer: a target missing from the answer is kept by id, not dropped, and is no token")
    func primerMissingTargets() throws {
        let set = try FigmaVariablesReader.read(TokenFixtures.figmaREST())
        // SOURCES.md: fgColor/default cannot be resolved in light: its chain ends at an id.
        var target = "fgColor/default"
        var hops = 0
        while let token = set[target], case .alias(let next)? = token.value(in: "light"), hops < 16 {
            target = next
            hops += 1
        }
        #expect(hops == 2)  // fgColor/default → base/color/light/base/color/neutral/13 → the id
        #expect(target.hasPrefix("VariableID:"))
        #expect(set[target] == nil)
        #expect(Self.resolve("fgColor/default", in: "light", set) == nil)
        // fgColor/muted on bgColor/muted resolves in all nine modes.
        for mode in Self.primerModes {
            #expect(Self.resolve("fgColor/muted", in: mode, set) != nil, "fgColor/muted in \(mode)")
            #expect(Self.resolve("bgColor/muted", in: mode, set) != nil, "bgColor/muted in \(mode)")
        }
    }

    static let small = """
    {"status": 200, "error": false, "meta": {
      "variableCollections": {
        "C:1": {"id": "C:1", "name": "theme", "remote": false, "defaultModeId": "1:1",
                "modes": [{"modeId": "1:0", "name": "dark"}, {"modeId": "1:1", "name": "light"}], "variableIds": []},
        "C:2": {"id": "C:2", "name": "palette/a", "remote": true, "defaultModeId": "2:0", "modes": [{"modeId": "2:0", "name": "default"}]},
        "C:3": {"id": "C:3", "name": "palette/b", "remote": true, "defaultModeId": "3:0", "modes": [{"modeId": "3:0", "name": "default"}]},
        "C:4": {"id": "C:4", "name": "size", "remote": false, "defaultModeId": "4:0",
                "modes": [{"modeId": "4:0", "name": "compact"}, {"modeId": "4:1", "name": "roomy"}]}
      },
      "variables": {
        "V:1": {"name": "bg", "variableCollectionId": "C:1", "resolvedType": "COLOR",
                "valuesByMode": {"1:0": {"type": "VARIABLE_ALIAS", "id": "V:2"}, "1:1": {"type": "VARIABLE_ALIAS", "id": "V:404"}}},
        "V:2": {"name": "gray/9", "variableCollectionId": "C:2", "resolvedType": "COLOR",
                "valuesByMode": {"2:0": {"r": 0.1, "g": 0.2, "b": 0.30000001192092896, "a": 0.5}}},
        "V:3": {"name": "gray/9", "variableCollectionId": "C:3", "resolvedType": "COLOR",
                "valuesByMode": {"3:0": {"r": 1, "g": 1, "b": 1, "a": 1}}},
        "V:4": {"name": "bg", "variableCollectionId": "C:2", "resolvedType": "COLOR",
                "valuesByMode": {"2:0": {"r": 0, "g": 0, "b": 0, "a": 1}}},
        "V:5": {"name": "gap", "variableCollectionId": "C:4", "resolvedType": "FLOAT",
                "valuesByMode": {"4:0": 4, "4:1": {"type": "VARIABLE_ALIAS", "id": "V:405"}}}
      }}}
    """

    @Test("names: the local variable keeps its name, others are <collection>/<name>; modes by name; base is the default mode")
    func small() throws {
        let set = try FigmaVariablesReader.read(TokenFixtures.text(Self.small, name: "vars.json"))
        #expect(set.modes == ["dark", "light"])
        #expect(Set(set.tokens.map(\.path)) == ["bg", "palette/a/gray/9", "palette/b/gray/9", "palette/a/bg", "gap"])
        let bg = try #require(set["bg"])
        #expect(bg.base == .alias("V:404"))  // the default mode is light
        #expect(bg.value(in: "dark") == .alias("palette/a/gray/9"))
        #expect(set["palette/a/gray/9"]?.base == .css("color(srgb 0.1 0.2 0.30000001192092896 / 0.5)"))
        #expect(set["palette/b/gray/9"]?.base == .css("color(srgb 1 1 1 / 1)"))
        #expect(set["gap"]?.modes == ["compact": .other(type: "float"), "roomy": .other(type: "float")])
        #expect(set.notes.contains { $0.contains("2 alias targets") })
        #expect(set.notes.contains { $0.contains("3 variables share a name") })
        // Locations: the variable's key, each mode's at its mode id.
        #expect(bg.location.line == 11)
        #expect(bg.location(in: "dark").line == 12)
    }

    /// A hostile pass: two modes of one collection named 'light' were one mode, the last one's
    /// values winning, so the failing default mode was never audited and the audit passed.
    @Test("two modes of one collection with one name stay two modes, the later named with its id")
    func duplicateModeNames() throws {
        let json = ##"{"meta": {"variableCollections": {"C": {"name": "col", "defaultModeId": "m1", "modes": [{"modeId": "m1", "name": "light"}, {"modeId": "m2", "name": "light"}]}}, "variables": {"V1": {"name": "fg", "variableCollectionId": "C", "valuesByMode": {"m1": {"r": 1, "g": 1, "b": 1, "a": 1}, "m2": {"r": 0, "g": 0, "b": 0, "a": 1}}}, "V2": {"name": "bg", "variableCollectionId": "C", "valuesByMode": {"m1": {"r": 1, "g": 1, "b": 1, "a": 1}, "m2": {"r": 1, "g": 1, "b": 1, "a": 1}}}}}}"##
        let set = try FigmaVariablesReader.read(TokenFixtures.text(json, name: "f.json"))
        #expect(set.modes == ["light", "light (m2)"])
        #expect(set.notes.contains("collection 'col' has two modes named 'light': the one with id 'm2' is the mode 'light (m2)'"), "\(set.notes)")
        let rule = PairRule(foreground: try TokenPattern("fg"), background: try TokenPattern("bg"), source: "rules[0]")
        let report = try TokenAudit.run(set, rules: [rule])
        #expect(report.results.count == 2 && !report.passes)
        #expect(report.results.first { $0.mode == "light" }?.passes == false)
        #expect(report.results.first { $0.mode == "light (m2)" }?.passes == true)
    }

    /// A hostile pass: Semantic (default `Light`) aliases Brand, whose default is `Dark`; by
    /// name `Light` took Brand's `Light`, and the state a frame setting only Semantic shows
    /// (Brand in `Dark`) went unsaid.
    @Test("collections sharing mode names with different defaults get a note")
    func sharedModeNamesNote() throws {
        let json = ##"{"meta": {"variableCollections": {"S": {"name": "Semantic", "defaultModeId": "1:0", "modes": [{"modeId": "1:0", "name": "Light"}, {"modeId": "1:1", "name": "Dark"}]}, "B": {"name": "Brand", "defaultModeId": "2:0", "modes": [{"modeId": "2:0", "name": "Dark"}, {"modeId": "2:1", "name": "Light"}]}}, "variables": {"V1": {"name": "text/default", "variableCollectionId": "S", "valuesByMode": {"1:0": {"type": "VARIABLE_ALIAS", "id": "V2"}, "1:1": {"type": "VARIABLE_ALIAS", "id": "V2"}}}, "V2": {"name": "ink", "variableCollectionId": "B", "valuesByMode": {"2:0": {"r": 0.9, "g": 0.9, "b": 0.9, "a": 1}, "2:1": {"r": 0.1, "g": 0.1, "b": 0.1, "a": 1}}}}}}"##
        let set = try FigmaVariablesReader.read(TokenFixtures.text(json, name: "f.json"))
        #expect(set.notes.contains { $0.hasPrefix("collections whose modes share names are audited with the mode of that name in each: 'Semantic' (default 'Light') and 'Brand' (default 'Dark')") }, "\(set.notes)")
        // Defaults that agree (the `small` answer's collections share no names): no note.
        let quiet = try FigmaVariablesReader.read(TokenFixtures.text(Self.small, name: "vars.json"))
        #expect(!quiet.notes.contains { $0.hasPrefix("collections whose modes share names") })
    }

    @Test("malformed answers are TokenErrors naming the file, variable and line", arguments: [
        (##"{"meta": {"variableCollections": {}, "variables": {"V:1": {"name": "x", "variableCollectionId": "nope", "valuesByMode": {}}}}}"##, "not in meta.variableCollections"),
        ("{\"meta\": {\"variableCollections\": {\"C\": {\"name\": \"c\", \"modes\": [{\"modeId\": \"m\", \"name\": \"d\"}]}},\n \"variables\": {\"V\": {\"name\": \"x\", \"variableCollectionId\": \"C\", \"valuesByMode\": {\"m\": {\"r\": \"red\"}}}}}}", "r\", \"g\", \"b\""),
        (##"{"meta": {"variableCollections": {"C": {"name": "c", "modes": [{"modeId": "m", "name": "d"}]}}, "variables": {"V": {"name": "x", "variableCollectionId": "C", "valuesByMode": {}}}}}"##, "no value for mode 'd'"),
        (##"{"status": 200}"##, "not a Figma variables answer"),
        // A hostile pass: components outside 0 to 1 were gamut-mapped or clamped and measured.
        (##"{"meta": {"variableCollections": {"C": {"name": "c", "modes": [{"modeId": "m", "name": "d"}]}}, "variables": {"V": {"name": "x", "variableCollectionId": "C", "valuesByMode": {"m": {"r": 2, "g": -1, "b": 0.5, "a": 1}}}}}}"##,
         "in mode 'd', COLOR member 'r' is 2, outside 0 to 1"),
        (##"{"meta": {"variableCollections": {"C": {"name": "c", "modes": [{"modeId": "m", "name": "d"}]}}, "variables": {"V": {"name": "x", "variableCollectionId": "C", "valuesByMode": {"m": {"r": 0.5, "g": 0.5, "b": 0.5, "a": -1}}}}}}"##,
         "COLOR member 'a' is -1, outside 0 to 1"),
        (##"{"meta": {"variableCollections": {"C": {"name": "c", "modes": [{"modeId": "m", "name": "d"}]}}, "variables": {"V": {"name": "x", "variableCollectionId": "C", "valuesByMode": {"m": {"r": 1e308, "g": 0, "b": 0}}}}}}"##,
         "COLOR member 'r' is 1e+308, outside 0 to 1"),
        // Two variables of one collection with one name.
        (##"{"meta": {"variableCollections": {"C": {"name": "c", "modes": [{"modeId": "m", "name": "d"}]}}, "variables": {"V1": {"name": "x", "variableCollectionId": "C", "valuesByMode": {"m": {"r": 1, "g": 1, "b": 1}}}, "V2": {"name": "x", "variableCollectionId": "C", "valuesByMode": {"m": {"r": 0, "g": 0, "b": 0}}}}}}"##,
         "variables 'V1' and 'V2' of collection 'c' are both named 'x'"),
    ])
    func errors(json: String, reason: String) throws {
        let error = try #require(tokenError { () throws(TokenError) in try FigmaVariablesReader.read(TokenFixtures.text(json, name: "f.json")) })
        #expect(error.file == "f.json")
        #expect(error.location != nil)
        #expect(error.reason.contains(reason), "\(error.reason)")
    }
}
