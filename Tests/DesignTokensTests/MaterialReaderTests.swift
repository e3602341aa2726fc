import Testing
@testable import DesignTokens

/// Material Theme Builder exports: the real DSP package and the `json` branch's flat files, and a
/// `material-theme.json` written here in the shape current Theme Builder exports have (no such
/// file is among the shared cases). Lines read with `grep -n`.
@Suite struct MaterialReaderTests {
    @Test("DSP: light/dark from id suffixes; paths without them; unsuffixed ids are the light base")
    func dsp() throws {
        let set = try MaterialReader.read(TokenFixtures.materialDSP())
        #expect(set.format == .material)
        #expect(set.modes == ["light", "dark"])
        #expect(set.tokens.count == 80 + 28 + 5)  // palette, system roles, typeface
        #expect(set.tokens.filter { $0.path.hasPrefix("md.sys.color.") }.allSatisfy { Set($0.modes.keys) == ["light", "dark"] })
        #expect(!set.tokens.contains { $0.path.hasSuffix(".light") || $0.path.hasSuffix(".dark") })

        let onPrimary = try #require(set["md.sys.color.on-primary"])
        #expect(onPrimary.value(in: "light") == .alias("md.ref.palette.primary100"))
        #expect(onPrimary.value(in: "dark") == .alias("md.ref.palette.primary20"))
        #expect(onPrimary.base == .alias("md.ref.palette.primary100"))
        #expect(onPrimary.location.text == "dsp/data/tokens.json:2665:7")
        #expect(onPrimary.location(in: "light").text == "dsp/data/tokens.json:1769:7")
        #expect(onPrimary.location(in: "dark").text == "dsp/data/tokens.json:2217:7")

        let error0 = try #require(set["md.ref.palette.error0"])
        #expect(error0.base == .css("#000000ff"))
        #expect(error0.location.text == "dsp/data/tokens.json:9:7")
        #expect(set["md.ref.typeface.plain"]?.base == .other(type: "custom"))
        // surface-tint.dark = {md.sys.color.primary}: the role, resolved in the mode asked.
        #expect(set["md.sys.color.surface-tint"]?.value(in: "dark") == .alias("md.sys.color.primary"))
    }

    @Test("json branch: flat dotted keys; each theme file a mode by its name; the palette the base")
    func flat() throws {
        let set = try MaterialReader.read(TokenFixtures.materialJSON())
        #expect(set.modes == ["light", "dark"])
        #expect(set.tokens.count == 31 + 80)
        let onPrimary = try #require(set["md.sys.color.on-primary"])
        #expect(onPrimary.base == nil)
        #expect(onPrimary.modes == ["light": .alias("md.ref.palette.primary100"), "dark": .alias("md.ref.palette.primary20")])
        #expect(onPrimary.location.text == "json/themes/light.json:114:3")
        #expect(onPrimary.location(in: "dark").text == "json/themes/dark.json:114:3")
        let primary100 = try #require(set["md.ref.palette.primary100"])
        #expect(primary100.base == .css("#FFFFFF"))
        #expect(primary100.location.text == "json/palette.json:211:3")
        // `{md.ref.palette.x}` names a flat key: every reference is a token.
        let unknown = set.tokens.flatMap { Array($0.modes.values) + [$0.base].compactMap { $0 } }.compactMap { v -> String? in
            if case .alias(let target) = v, set[target] == nil { return target }
            return nil
        }
        #expect(unknown.isEmpty, "\(unknown.prefix(3))")
    }

    @Test("json branch: TokenFile.mode names the mode when the file names do not")
    func flatGivenModes() throws {
        var files = try TokenFixtures.materialJSON()
        files[0].name = "a.json"; files[0].mode = "day"
        files[1].name = "b.json"; files[1].mode = "night"
        let set = try MaterialReader.read(files)
        #expect(set.modes == ["day", "night"])
        #expect(set["md.sys.color.on-primary"]?.value(in: "night") == .alias("md.ref.palette.primary20"))
    }

    static let theme = """
    {
      "description": "TYPE: CUSTOM\\nMaterial Theme Builder export",
      "seed": "#8D4E2A",
      "coreColors": {"primary": "#8D4E2A"},
      "extendedColors": [],
      "schemes": {
        "light": {"primary": "#8D4E2A", "onPrimary": "#FFFFFF", "surfaceContainerHighest": "#F0DFD8"},
        "light-high-contrast": {"primary": "#3E1600", "onPrimary": "#FFFFFF", "surfaceContainerHighest": "#F0DFD8"},
        "dark": {"primary": "#FFB68F", "onPrimary": "#532201", "surfaceContainerHighest": "#3D332E"}
      },
      "palettes": {"primary": {"0": "#000000", "40": "#8D4E2A", "100": "#FFFFFF"}, "neutral-variant": {"50": "#85746B"}}
    }
    """

    @Test("material-theme.json: each scheme a mode, roles in kebab case, palette tones")
    func themeJSON() throws {
        let set = try MaterialReader.read(TokenFixtures.text(Self.theme, name: "material-theme.json"))
        #expect(set.modes == ["light", "light-high-contrast", "dark"])
        let onPrimary = try #require(set["md.sys.color.on-primary"])
        #expect(onPrimary.modes == ["light": .css("#FFFFFF"), "light-high-contrast": .css("#FFFFFF"), "dark": .css("#532201")])
        #expect(onPrimary.location(in: "dark").text == "material-theme.json:9:36")
        #expect(set["md.sys.color.surface-container-highest"]?.value(in: "dark") == .css("#3D332E"))
        #expect(set["md.ref.palette.primary40"]?.base == .css("#8D4E2A"))
        #expect(set["md.ref.palette.neutral-variant50"]?.base == .css("#85746B"))
        #expect(set.tokens.count == 3 + 4)
        #expect(set.notes.contains { $0.contains("seed, coreColors, extendedColors") })
    }

    @Test("kebab case of Material role names", arguments: [
        ("onPrimary", "on-primary"), ("surfaceContainerHighest", "surface-container-highest"), ("primary", "primary"),
        ("onSecondaryFixedVariant", "on-secondary-fixed-variant"),
    ])
    func kebab(camel: String, kebab: String) {
        #expect(MaterialReader.kebab(camel) == kebab)
    }

    @Test("errors name the file, token and line", arguments: [
        ("{\n  \"md.sys.color.primary\": \"#fff\"\n}", "md.sys.color.primary", 2),
        ("{\"schemes\": {\"light\": {\n  \"primary\": 5}}, \"palettes\": {}}", "md.sys.color.primary", 2),
        ("{\"entities\": [\n  {\"class\": \"token\", \"type\": \"color\", \"id\": \"md.x\", \"value\": 1}]}", "md.x", 2),
    ])
    func errors(json: String, path: String, line: Int) throws {
        let error = try #require(tokenError { () throws(TokenError) in try MaterialReader.read(TokenFixtures.text(json, name: "m.json")) })
        #expect(error.file == "m.json")
        #expect(error.path == path)
        #expect(error.location?.line == line)
    }
}
