import Testing
@testable import DesignTokens

/// Tokens Studio: Adobe Spectrum's 18 real files (16 sets, `$themes.json`, `$metadata.json`), a
/// single-file export with theme groups, and the value rules. Lines read with `grep -n`.
@Suite struct TokensStudioReaderTests {
    @Test("spectrum: four themes are the modes; 428 tokens, each with a value in every theme")
    func spectrum() throws {
        let set = try TokensStudioReader.read(TokenFixtures.tokensStudioSpectrum())
        #expect(set.format == .tokensStudio)
        #expect(set.modes == ["light", "dark", "darkest", "wireframe"])
        #expect(set.tokens.count == 428)  // 223 palette + 180 alias + 19 component + 6 icon
        #expect(set.tokens.allSatisfy { $0.base == nil && Set($0.modes.keys) == Set(TokenFixtures.spectrumThemes) })
        #expect(set.colorTokenCount == 428)
    }

    @Test("spectrum: paths are the keys inside a set, as its aliases write them; values per theme with their files")
    func spectrumValues() throws {
        let set = try TokensStudioReader.read(TokenFixtures.tokensStudioSpectrum())
        let gray = try #require(set["Palette.gray.800"])
        #expect(gray.type == "color")
        #expect(gray.value(in: "light") == .css("rgb(34, 34, 34)"))
        #expect(gray.value(in: "dark") == .css("rgb(235, 235, 235)"))
        #expect(gray.location.text == "spectrum/palette/light.json:114:7")
        #expect(gray.location(in: "dark").text == "spectrum/palette/dark.json:114:7")

        let content = try #require(set["Alias.content.neutral.default"])
        #expect(content.value(in: "light") == .alias("Palette.gray.800"))
        #expect(content.location.text == "spectrum/alias/light.json:25:9")

        let accent = try #require(set["Alias.content.semantic.accent.default"])
        #expect(accent.value(in: "wireframe") == .alias("Alias.semantic.accent.900"))
        #expect(accent.location(in: "wireframe").text == "spectrum/alias/wireframe.json:140:11")

        #expect(set["Palette.white"]?.value(in: "darkest") == .css("rgb(255, 255, 255)"))
        // Every alias names a token that exists (set names never prefix paths).
        var missing: [String] = []
        for token in set.tokens {
            for value in token.modes.values {
                if case .alias(let target) = value, set[target] == nil { missing.append(target) }
            }
        }
        #expect(missing.isEmpty, "unknown alias targets: \(missing.prefix(5))")
    }

    @Test("without $themes.json the sets are layered into the base in tokenSetOrder (later sets win)")
    func withoutThemes() throws {
        let files = try TokenFixtures.files("tokens-studio/adobe-spectrum-colors",
                                            ["spectrum/palette/dark.json", "$metadata.json", "spectrum/palette/light.json"])
        let set = try TokensStudioReader.read(files)
        #expect(set.modes.isEmpty)
        // tokenSetOrder lists palette/light before palette/dark: dark's value wins.
        #expect(set["Palette.gray.800"]?.base == .css("rgb(235, 235, 235)"))
        #expect(set["Palette.gray.800"]?.location.text == "spectrum/palette/dark.json:114:7")
    }

    @Test("single-file export: sets are top-level keys, theme groups combine into modes, `source` sets count")
    func singleFile() throws {
        let text = """
        {
          "core": {"blue": {"value": "#0000ff", "type": "color"}, "white": {"value": "#ffffff", "type": "color"},
                   "radius": {"value": "4", "type": "borderRadius"}},
          "light": {"bg": {"value": "{white}", "type": "color"}, "fg": {"value": "$blue", "type": "color"}},
          "dark": {"bg": {"value": "{blue}", "type": "color"}, "fg": {"value": "{white}", "type": "color"}},
          "brand-a": {"accent": {"value": "rgba(0, 0, 255, 0.5)", "type": "color"}},
          "brand-b": {"accent": {"value": "#ff0000", "type": "color",
                                 "$extensions": {"studio.tokens": {"modify": {"type": "lighten", "value": "0.2"}}}}},
          "$themes": [
            {"name": "light", "group": "scheme", "selectedTokenSets": {"core": "source", "light": "enabled"}},
            {"name": "dark", "group": "scheme", "selectedTokenSets": {"core": "source", "dark": "enabled", "light": "disabled"}},
            {"name": "A", "group": "brand", "selectedTokenSets": {"brand-a": "enabled"}},
            {"name": "B", "group": "brand", "selectedTokenSets": {"brand-b": "enabled", "missing": "enabled"}}
          ],
          "$metadata": {"tokenSetOrder": ["core", "light", "dark", "brand-a", "brand-b"]}
        }
        """
        let set = try TokensStudioReader.read(TokenFixtures.text(text, name: "tokens.json"))
        #expect(set.modes == ["light + A", "light + B", "dark + A", "dark + B"])
        #expect(set["bg"]?.value(in: "dark + B") == .alias("blue"))
        #expect(set["bg"]?.value(in: "light + A") == .alias("white"))
        #expect(set["fg"]?.value(in: "light + B") == .alias("blue"))  // the old `$blue` form
        #expect(set["accent"]?.value(in: "light + A") == .css("rgba(0, 0, 255, 0.5)"))
        #expect(set["accent"]?.value(in: "dark + B") == .other(type: "color with a Tokens Studio modifier"))
        #expect(set["radius"]?.value(in: "light + A") == .other(type: "borderRadius"))
        #expect(set["bg"]?.location(in: "dark + A").text == "tokens.json:5:12")
        #expect(set.notes.contains { $0.contains("'missing'") })
        #expect(set.notes.contains { $0.contains("modifiers") && $0.contains("'accent'") })
    }

    @Test("a color token whose value is not a string is an error naming the set file, the token and the line")
    func badValue() throws {
        let text = "{\n  \"Palette\": {\n    \"red\": {\"value\": 12, \"type\": \"color\"}\n  }\n}"
        let error = try #require(tokenError { () throws(TokenError) in
            try TokensStudioReader.read(TokenFixtures.text(text, name: "spectrum/palette/light.json"))
        })
        #expect(error.path == "Palette.red")
        #expect(error.location?.text == "spectrum/palette/light.json:3:5")
    }

    @Test("theme combinations beyond 64 modes are a TokenError")
    func tooManyModes() throws {
        let themes = (0..<9).map { ##"{"name": "a\##($0)", "group": "a", "selectedTokenSets": {"s": "enabled"}}"## }
            + (0..<8).map { ##"{"name": "b\##($0)", "group": "b", "selectedTokenSets": {"s": "enabled"}}"## }
        let text = ##"{"s": {"c": {"value": "#fff", "type": "color"}}, "$themes": [\##(themes.joined(separator: ","))]}"##
        let error = try #require(tokenError { () throws(TokenError) in try TokensStudioReader.read(TokenFixtures.text(text)) })
        #expect(error.reason.contains("more than 64 modes"))
    }
}
