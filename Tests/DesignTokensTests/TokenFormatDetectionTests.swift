import Testing
@testable import DesignTokens

/// Detection and dispatch over every real token file of Tests/Fixtures/tokens, and what is refused.
@Suite struct TokenFormatDetectionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var load: @Sendable () throws -> [TokenFile]
        var format: TokenFormat
        var modes: [String]
        var tokens: Int
        var colorTokens: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "dtcg/figma-sds", load: TokenFixtures.figmaSDS, format: .dtcg,
             modes: ["sds_light", "sds_dark", "brand_b_light"], tokens: 337, colorTokens: 226),
        Case(name: "dtcg/terrazzo-figma-sds-legacy", load: TokenFixtures.terrazzoLegacy, format: .dtcg,
             modes: ["light", "dark"], tokens: 298, colorTokens: 216),
        Case(name: "dtcg/terrazzo-resolver-primer", load: TokenFixtures.resolverPrimer, format: .dtcg,
             modes: ["light", "light-colorblind", "light-high-contrast", "dark", "dark-dimmed", "dark-high-contrast", "dark-colorblind"],
             tokens: 21, colorTokens: 19),
        Case(name: "tokens-studio/adobe-spectrum-colors", load: TokenFixtures.tokensStudioSpectrum, format: .tokensStudio,
             modes: ["light", "dark", "darkest", "wireframe"], tokens: 428, colorTokens: 428),
        Case(name: "figma-rest-api/terrazzo-primer-figma", load: TokenFixtures.figmaREST, format: .figmaVariables,
             modes: FigmaVariablesReaderTests.primerModes, tokens: 1_409, colorTokens: 1_151),
        Case(name: "material3/material-tokens-dsp", load: TokenFixtures.materialDSP, format: .material,
             modes: ["light", "dark"], tokens: 113, colorTokens: 108),
        Case(name: "material3/material-tokens-json-branch", load: TokenFixtures.materialJSON, format: .material,
             modes: ["light", "dark"], tokens: 111, colorTokens: 111),
        Case(name: "style-dictionary/adobe-spectrum-sets", load: TokenFixtures.spectrumStyleDictionary, format: .styleDictionary,
             modes: ["light", "dark", "wireframe"], tokens: 636, colorTokens: 626),  // 5 opacity, 4 drop-shadow, overlay-opacity (sets of opacities)
        Case(name: "style-dictionary/material-tokens-sd", load: TokenFixtures.materialStyleDictionary, format: .styleDictionary,
             modes: ["light", "dark"], tokens: 164, colorTokens: 164),  // 28 names with _light and _dark are modes
    ]

    @Test("every real JSON case is detected, read in its format, with its modes and token counts", arguments: cases)
    func realFiles(_ c: Case) throws {
        let files = try c.load()
        #expect(TokenFormats.detect(files) == c.format)
        let set = try TokenFormats.read(files, format: nil)
        #expect(set.format == c.format)
        #expect(set.modes == c.modes)
        #expect(set.tokens.count == c.tokens)
        #expect(set.colorTokenCount == c.colorTokens)
        // Named explicitly, the same.
        #expect(try TokenFormats.read(files, format: c.format).tokens.count == c.tokens)
        // Every token has a real location in a submitted file.
        let names = Set(files.map(\.name))
        #expect(set.tokens.allSatisfy { names.contains($0.location.file) && $0.location.line >= 1 && $0.location.column >= 1 })
        #expect(set.tokens.allSatisfy { $0.modeLocations.values.allSatisfy { names.contains($0.file) } })
    }

    @Test("each reader's detect says yes to its own files and no to the others'", arguments: cases)
    func readerDetect(_ c: Case) throws {
        let files = try c.load()
        #expect(DTCGReader.detect(files) == (c.format == .dtcg))
        #expect(TokensStudioReader.detect(files) == (c.format == .tokensStudio))
        #expect(StyleDictionaryReader.detect(files) == (c.format == .styleDictionary))
        #expect(FigmaVariablesReader.detect(files) == (c.format == .figmaVariables))
        #expect(MaterialReader.detect(files) == (c.format == .material))
        #expect(CSSThemeReader.detect(files) == false)
    }

    @Test("a single Tokens Studio set file, without $themes.json, is still Tokens Studio (value + type everywhere)")
    func loneSet() throws {
        let files = try TokenFixtures.files("tokens-studio/adobe-spectrum-colors", ["spectrum/alias/dark.json"])
        #expect(TokenFormats.detect(files) == .tokensStudio)
    }

    @Test("CSS files are CSS, with @theme Tailwind; CSS mixed with JSON cannot be told")
    func css() throws {
        let primer = try TokenFixtures.files("css/primer-primitives", ["light.css", "dark.css"])
        #expect(TokenFormats.detect(primer) == .css)
        #expect(TokenFormats.detect(try TokenFixtures.files("tailwind/shadcn-v4", ["globals.css"])) == .tailwind)
        let mixed = try TokenFixtures.files("material3/material-tokens-dsp", ["dsp/data/tokens.json", "css/theme/light.css"])
        #expect(TokenFormats.detect(mixed) == nil)
        let error = try #require(tokenError { () throws(TokenError) in try TokenFormats.read(mixed, format: nil) })
        #expect(error.file == "css/theme/light.css")
        #expect(error.reason.contains("one format per request"))
    }

    @Test("JSON of no known shape, or no files: nil, and reading says to name the format")
    func unknown() throws {
        let files = TokenFixtures.text(##"{"palette": ["#fff", "#000"]}"##, name: "p.json")
        #expect(TokenFormats.detect(files) == nil)
        let error = try #require(tokenError { () throws(TokenError) in try TokenFormats.read(files, format: nil) })
        #expect(error.file == "p.json")
        #expect(error.reason.contains("tokenFormat"))
        #expect(error.reason.contains("figma-variables"))
        #expect(TokenFormats.detect([]) == nil)
        #expect(tokenError { () throws(TokenError) in try TokenFormats.read([], format: nil) } != nil)
    }

    @Test("a named JSON format on a CSS file, or a file of another format, is an error naming the file")
    func wrongFormat() throws {
        let css = try TokenFixtures.files("css/figma-sds", ["theme.css"])
        let notJSON = try #require(tokenError { () throws(TokenError) in try TokenFormats.read(css, format: .dtcg) })
        #expect(notJSON.file == "theme.css")
        #expect(notJSON.reason.contains("not JSON"))
        let sds = try TokenFixtures.figmaSDS()
        let figma = try #require(tokenError { () throws(TokenError) in try TokenFormats.read(sds, format: .figmaVariables) })
        #expect(figma.file == "tokens.json")
        #expect(figma.reason.contains("not a Figma variables answer"))
        let material = try #require(tokenError { () throws(TokenError) in try TokenFormats.read(sds, format: .material) })
        #expect(material.file == "tokens.json")
    }

    @Test("malformed JSON through the dispatch: the file, line and column where reading stopped")
    func malformedThroughDispatch() throws {
        let files = TokenFixtures.text("{\n  \"a\": {\"$value\": \"#fff\"}\n  \"b\": 1\n}", name: "broken.json")
        #expect(TokenFormats.detect(files) == nil)
        let error = try #require(tokenError { () throws(TokenError) in try TokenFormats.read(files, format: nil) })
        #expect(error.location?.text == "broken.json:3:3")
        #expect(error.reason.contains("not valid JSON"))
    }
}
