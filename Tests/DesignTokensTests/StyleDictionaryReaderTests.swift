import Testing
@testable import DesignTokens

/// Style Dictionary's `value` format: Spectrum's three files with the `sets` extension, Material's
/// Style Dictionary export with `.value` references, nested names and the value rules. Lines read
/// with `grep -n`.
@Suite struct StyleDictionaryReaderTests {
    @Test("spectrum: 636 tokens over three files; light/dark/wireframe from `sets`; non-colors counted, not read")
    func spectrum() throws {
        let set = try StyleDictionaryReader.read(TokenFixtures.spectrumStyleDictionary())
        #expect(set.format == .styleDictionary)
        #expect(set.modes == ["light", "dark", "wireframe"])
        #expect(set.tokens.count == 369 + 94 + 173)
        // 301 + 5 + 98 tokens have `sets`.
        #expect(set.tokens.filter { !$0.modes.isEmpty }.count == 404)
        // 5 opacity numbers (kept as their text for `{references}` inside colors, no color
        // themselves) and 4 drop-shadow arrays in color-aliases.json.
        #expect(set.tokens.filter { $0.type == "opacity" && $0.isComponentText && $0.base != nil }.count == 5)
        #expect(set.tokens.filter { $0.base == .other(type: "drop-shadow") }.count == 4)
        #expect(set["opacity-disabled"]?.base == .css("0.3"))
        #expect(set["opacity-disabled"]?.location.text == "color-aliases.json:1831:3")
    }

    @Test("spectrum: mode dependence at any hop: sets on the token, or only on what it references")
    func spectrumHops() throws {
        let set = try StyleDictionaryReader.read(TokenFixtures.spectrumStyleDictionary())
        let accent = try #require(set["accent-background-color-default"])
        #expect(accent.base == nil)
        #expect(accent.modes == ["light": .alias("accent-color-900"), "dark": .alias("accent-color-800"), "wireframe": .alias("accent-color-900")])
        #expect(accent.location.text == "color-aliases.json:2:3")
        #expect(accent.location(in: "dark").text == "color-aliases.json:11:7")

        // No sets here; {gray-25} has them (resolution follows the hop in each mode).
        let base = try #require(set["background-base-color"])
        #expect(base.base == .alias("gray-25"))
        #expect(base.modes.isEmpty)
        #expect(base.location.text == "color-aliases.json:132:3")
        #expect(set["gray-25"]?.modes.count == 3)
        #expect(set["accent-color-100"]?.base == .alias("blue-100"))

        let blue = try #require(set["blue-100"])
        #expect(blue.type == "color")
        #expect(blue.value(in: "light") == .css("rgb(245, 249, 255)"))
        #expect(blue.value(in: "dark") == .css("rgb(14, 23, 63)"))
        #expect(set["black"]?.base == .css("rgb(0, 0, 0)"))  // "private": true, still a token
    }

    /// The export writes each role three times: `md_sys_color_primary` (an alias to the light
    /// one), `md_sys_color_primary_light` and `_dark`. A new user's pass (and SOURCES.md: "modes:
    /// light and dark, by key suffix") found them audited as one mode, `default`, each pair per
    /// suffix and the dark variants of Material's other pairs never; now the 28 names with both
    /// suffixes are one token in modes light and dark, and patterns see only those names.
    @Test("material export: `{color.x.value}` references name the token `color.x`; _light/_dark key suffixes are modes")
    func materialExport() throws {
        let set = try StyleDictionaryReader.read(TokenFixtures.materialStyleDictionary())
        #expect(set.modes == ["light", "dark"])
        #expect(set.modeVariants.count == 56)
        let primary = try #require(set["color.md_sys_color_primary"])
        #expect(primary.base == .alias("color.md_sys_color_primary_light"))
        #expect(primary.modes == ["light": .alias("color.md_sys_color_primary_light"), "dark": .alias("color.md_sys_color_primary_dark")])
        #expect(set.notes.contains { $0.hasPrefix("28 token names are written with _light and _dark suffixes, read as one token in modes light and dark") }, "\(set.notes)")
        // Material's pairs, each role in each mode once: inverse-primary on inverse-surface in dark too.
        let report = try TokenAudit.run(set, rules: PairPreset.material3.rules)
        let inverse = report.results.filter { $0.foregroundPath == "color.md_sys_color_inverse-primary" && $0.backgroundPath == "color.md_sys_color_inverse-surface" }
        #expect(inverse.map { $0.mode ?? "" }.sorted() == ["dark", "light"], "\(inverse.map { $0.mode ?? "" })")
        #expect(!report.results.contains { $0.foregroundPath.hasSuffix("_light") || $0.foregroundPath.hasSuffix("_dark") })
        let onPrimaryDark = try #require(report.results.first { $0.mode == "dark" && $0.foregroundPath == "color.md_sys_color_on-primary" && $0.backgroundPath == "color.md_sys_color_primary" })
        #expect(onPrimaryDark.foreground?.css == "#381e72ff" && onPrimaryDark.background?.css == "#d0bcffff", "\(String(describing: onPrimaryDark.foreground?.css)) on \(String(describing: onPrimaryDark.background?.css))")
        // A rule naming a suffixed token exactly still reaches it.
        let exact = try TokenAudit.run(set, rules: [PairRule(foreground: try TokenPattern("color.md_sys_color_on-primary_dark"), background: try TokenPattern("color.md_sys_color_primary_dark"), source: "rules[0]")])
        #expect(exact.results.count == 2 && exact.results.allSatisfy { $0.foreground?.css == "#381e72ff" })
        #expect(set.tokens.count == 164)
        let onPrimary = try #require(set["color.md_sys_color_on-primary_light"])
        #expect(onPrimary.base == .alias("color.md_ref_palette_primary100"))
        #expect(onPrimary.location.text == "properties/colors.json:103:5")
        #expect(set["color.md_ref_palette_primary100"]?.base == .css("#ffffffff"))
        // Every reference names a token that exists.
        let unknown = set.tokens.compactMap { t -> String? in
            if case .alias(let target)? = t.base, set[target] == nil { return target }
            return nil
        }
        #expect(unknown.isEmpty, "\(unknown.prefix(3))")
    }

    @Test("nested groups, type and category, embedded references, nested sets, one file per mode")
    func rules() throws {
        let text = """
        {"color": {
           "base": {"red": {"value": "#ff0000", "type": "color"}, "shadow": {"value": "rgba({color.base.red.value}, 0.5)"}},
           "font": {"value": "Inter", "attributes": {"category": "font"}},
           "size": {"value": 4},
           "plain": {"value": "#00ff00"},
           "text": {"sets": {"spectrum": {"sets": {"light": {"value": "{color.base.red}"}, "dark": {"value": "#fff"}}}}}
        }}
        """
        let set = try StyleDictionaryReader.read(TokenFixtures.text(text))
        #expect(set["color.base.red"]?.base == .css("#ff0000"))
        #expect(set["color.base.shadow"]?.base == .css("rgba({color.base.red.value}, 0.5)"))
        // Read as a color, so not in the note on references kept as text (a hostile pass: the
        // note named tokens the same report measured).
        #expect(!set.notes.contains { $0.contains("'color.base.shadow'") }, "\(set.notes)")
        #expect(set["color.font"]?.base == .other(type: "font"))
        #expect(set["color.size"]?.base == .other(type: "number"))
        #expect(set["color.plain"]?.base == .css("#00ff00"))
        #expect(set.modes == ["spectrum/light", "spectrum/dark"])
        // A reference followed by two hex digits is that hex with an alpha, as Style Dictionary
        // interpolates it (`#ff000033`; a new user's pass found it "not a color"); another
        // suffix stays no color.
        let suffixed = try StyleDictionaryReader.read(TokenFixtures.text(##"{"ink": {"value": "#000000"}, "bg": {"value": "#ffffff"}, "faint": {"value": "{ink.value}33"}, "wide": {"value": "{ink.value}px"}}"##))
        let faint = try TokenResolver(suffixed).resolve("faint", mode: nil).get()
        #expect(faint.color.alpha == 0x33 / 255 && faint.css == "#00000033", "\(faint.css)")
        #expect(suffixed["wide"]?.base == .other(type: "string"))
        #expect(suffixed.notes.contains { $0.hasPrefix("references inside other text are kept as written and are not colors: 'wide'") }, "\(suffixed.notes)")
        #expect(set["color.text"]?.value(in: "spectrum/light") == .alias("color.base.red"))

        let light = TokenFile(name: "light.json", content: ##"{"bg": {"value": "#fff"}}"##, mode: "light")
        let dark = TokenFile(name: "dark.json", content: ##"{"bg": {"value": "#000"}}"##, mode: "dark")
        let byFile = try StyleDictionaryReader.read([light, dark])
        #expect(byFile.modes == ["light", "dark"])
        #expect(byFile["bg"]?.modes == ["light": .css("#fff"), "dark": .css("#000")])
    }

    @Test("a path defined in two files: the last wins, and a note names it")
    func collisions() throws {
        let a = TokenFile(name: "a.json", content: ##"{"bg": {"value": "#fff"}}"##)
        let b = TokenFile(name: "b.json", content: "{\n\"bg\": {\"value\": \"#000\"}}")
        let set = try StyleDictionaryReader.read([a, b])
        #expect(set["bg"]?.base == .css("#000"))
        #expect(set["bg"]?.location.text == "b.json:2:1")
        #expect(set.notes.contains { $0.contains("'bg'") && $0.contains("more than once") })
    }

    @Test("a color whose value is a number is an error naming the token and line")
    func badColor() throws {
        let error = try #require(tokenError { () throws(TokenError) in
            try StyleDictionaryReader.read(TokenFixtures.text("{\"c\": {\n  \"x\": {\"value\": 5, \"type\": \"color\"}}}", name: "sd.json"))
        })
        #expect(error.path == "c.x")
        #expect(error.location?.text == "sd.json:2:9")
    }
}
