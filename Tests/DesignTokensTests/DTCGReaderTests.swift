import ColorScience
import Testing
@testable import DesignTokens

/// DTCG: the three real cases (figma/sds, Terrazzo's 2025.10 conversion of it, Terrazzo's resolver
/// fixture of Primer's blue scale), color objects in every space, references, modes and errors.
/// Line numbers were read with `grep -n` on the fixture files.
@Suite struct DTCGReaderTests {
    // MARK: figma/sds tokens.json

    /// Our palette export's placements (`$extensions["com.contrastservice"]`): `on` names resolved
    /// to token paths, the targets and verdicts read; unknown names and shared names said in notes
    /// (a hostile pass, stop 49: both were dropped in silence).
    /// A hostile pass, field case C30's fault: `oklch` `[97, 0, 0]` (0.97 written as a percent)
    /// and `srgb` `[244, 244, 244]` (8-bit) were clamped to white and a failing pair (#767676
    /// on #f5f5f5, 4.16:1) passed at 4.54:1. Components outside the Color Module's ranges are
    /// errors naming the token and the likely scale; in range, and within 1e-4 of an end, read.
    @Test("color object components outside their space's range are errors with the likely scale")
    func componentRanges() throws {
        func read(_ value: String) -> TokenError? {
            tokenError { () throws(TokenError) in
                try DTCGReader.read([TokenFile(name: "t.tokens.json", content: #"{"color": {"$type": "color", "bg": {"$value": "# + value + #"}}}"#)])
            }
        }
        let percent = try #require(read(#"{"colorSpace": "oklch", "components": [97, 0, 0]}"#))
        #expect(percent.path == "color.bg" && percent.reason == "component 1 of the oklch color is 97, outside 0 to 1 (DTCG Color Module 2025.10) (as a percentage, 97 is 0.97)", "\(percent.reason)")
        let bytes = try #require(read(#"{"colorSpace": "srgb", "components": [244, 244, 244]}"#))
        #expect(bytes.reason.hasPrefix("component 1 of the srgb color is 244, outside 0 to 1 (DTCG Color Module 2025.10) (as an 8-bit value, 244 is 0.9569"), "\(bytes.reason)")
        #expect(read(#"{"colorSpace": "lab", "components": [101, 0, 0]}"#)?.reason.contains("outside 0 to 100") == true)
        #expect(read(#"{"colorSpace": "hsl", "components": [0, 120, 50]}"#)?.reason.contains("component 2 of the hsl color is 120, outside 0 to 100") == true)
        #expect(read(#"{"colorSpace": "oklch", "components": [0.5, -0.1, 30]}"#)?.reason.contains("is -0.1, below 0 (chroma is not negative)") == true)
        for fine in [#"{"colorSpace": "oklch", "components": [0.97, 0, 0]}"#, #"{"colorSpace": "srgb", "components": [1.00001, 0, 0]}"#,
                     #"{"colorSpace": "oklab", "components": [0.5, -0.3, 0.2]}"#, #"{"colorSpace": "hsl", "components": [720, 50, 50]}"#,
                     #"{"colorSpace": "xyz-d65", "components": [1.2, 1, 1]}"#] {
            #expect(read(fine) == nil, "\(fine)")
        }
    }

    @Test("our export's placements are read, and what cannot be followed is said")
    func contrastServicePlacements() throws {
        func token(_ name: String, _ role: String, on: [String] = []) -> String {
            let onList = on.map { "\"\($0)\"" }.joined(separator: ", ")
            return ##""\##(name)": {"$type": "color", "$value": "#777777", "$extensions": {"com.contrastservice": {"name": "\##(name)", "role": "\##(role)", "on": [\##(onList)], "target": {"metric": "wcag2", "minimum": 3, "basis": "b"}, "passes": {"light": false}}}}"##
        }
        let json = "{\"color\": {" + [token("ink", "text", on: ["card", "nowhere"]), token("card", "background"), token("ico", "icon")].joined(separator: ", ")
            + ##", "twin": {"$type": "color", "$value": "#000", "$extensions": {"com.contrastservice": {"name": "card", "role": "background"}}}}}"##
        let set = try DTCGReader.read([TokenFile(name: "p.tokens.json", content: json)])
        #expect(set.placements["color.ink"]?.on == ["color.card"] && set.placements["color.ink"]?.target?.minimum == 3)
        #expect(set.placements["color.card"]?.palettePasses == ["light": false])
        #expect(set.notes.contains { $0.contains("'color.ink on 'nowhere''") }, "\(set.notes)")
        #expect(set.notes.contains { $0.contains("is shared by more than one token: 'card (color.twin)'") }, "\(set.notes)")
    }

    @Test("figma-sds: 226 color tokens, modes sds_light/sds_dark/brand_b_light, responsive modes left out")
    func figmaSDS() throws {
        let set = try DTCGReader.read(TokenFixtures.figmaSDS())
        #expect(set.format == .dtcg)
        #expect(set.modes == ["sds_light", "sds_dark", "brand_b_light"])
        #expect(set.tokens.filter { $0.type == "color" }.count == 226)
        #expect(set.colorTokenCount == 226)
        #expect(set.tokens.count == 337)
        // @responsive has desktop/mobile/tablet modes of non-colors only: named, not audited.
        #expect(set.notes.contains { $0.contains("'desktop', 'mobile', 'tablet'") && $0.contains("no colors") })
        // Single-mode collections ("default", "value", "mode_1") make no modes.
        #expect(!set.modes.contains("default") && !set.modes.contains("value"))
        #expect(set["@typography_primitives.family-sans"]?.base == .other(type: "fontFamily"))
    }

    @Test("figma-sds: values and aliases as written (capitalised, dangling), with their lines")
    func figmaSDSValues() throws {
        let set = try DTCGReader.read(TokenFixtures.figmaSDS())
        let gray = try #require(set["@color_primitives.gray.900"])
        #expect(gray.base == .css("#1e1e1e"))
        #expect(gray.modes.isEmpty)
        #expect(gray.location.text == "tokens.json:2163:7")

        let bg = try #require(set["@color.background.default.default"])
        #expect(bg.type == "color")
        #expect(bg.base == .alias("@color_primitives.White.1000"))
        #expect(bg.value(in: "sds_dark") == .alias("@color_primitives.Gray.900"))
        #expect(bg.value(in: "brand_b_light") == .alias("@color_primitives.White.1000"))
        #expect(bg.location.text == "tokens.json:2732:9")
        #expect(bg.location(in: "sds_dark").text == "tokens.json:2741:17")

        // The dangling alias of SOURCES.md is kept for resolution to report.
        let brand = try #require(set["@color.background.brand.default"])
        #expect(brand.value(in: "brand_b_light") == .alias("@color_primitives.Brand B.800"))
        #expect(brand.location(in: "brand_b_light").text == "tokens.json:2926:17")
    }

    // MARK: Terrazzo figma-sds-legacy (DTCG 2025.10)

    @Test("terrazzo legacy: color objects, $type inherited from the group, light/dark from $extensions.mode")
    func terrazzoLegacy() throws {
        let set = try DTCGReader.read(TokenFixtures.terrazzoLegacy())
        #expect(set.modes == ["light", "dark"])
        #expect(set.tokens.filter { !$0.modes.isEmpty }.count == 126)
        #expect(set.tokens.count == 298)

        let black = try #require(set["color.black.100"])
        #expect(black.type == "color")
        #expect(black.base == .css("color(srgb 0.047058823529411764 0.047058823529411764 0.050980392156862744 / 0.050980392156862744)"))
        #expect(black.location.text == "figma-sds-legacy.tokens.json:6:7")

        let bg = try #require(set["color.background.brand.default"])
        #expect(bg.type == "color")
        #expect(bg.base == .alias("color.brand.800"))
        #expect(bg.modes == ["light": .alias("color.brand.800"), "dark": .alias("color.white.100")])
        #expect(bg.location.text == "figma-sds-legacy.tokens.json:745:9")
        #expect(bg.location(in: "dark").text == "figma-sds-legacy.tokens.json:747:68")

        #expect(set["size.radius.full"]?.base == .other(type: "dimension"))
        #expect(set["typography.titleHero"]?.base == .other(type: "typography"))
    }

    // MARK: Terrazzo resolver (Primer blue scale)

    @Test("resolver: each context of modifiers.mode is a mode; files layered as the contexts list them")
    func resolver() throws {
        let set = try DTCGReader.read(TokenFixtures.resolverPrimer())
        #expect(set.modes == ["light", "light-colorblind", "light-high-contrast", "dark", "dark-dimmed", "dark-high-contrast", "dark-colorblind"])
        #expect(set.tokens.count == 21)

        // The base set (inline in the resolver): the same in every mode.
        let alias5 = try #require(set["color.alias-5"])
        #expect(alias5.base == .alias("color.alias-4"))
        #expect(alias5.modes.isEmpty)
        #expect(alias5.location.text == "color.resolver.json:18:13")
        #expect(set["gradient.blue-pink"]?.base == .other(type: "gradient"))

        // Context files: light, and light-colorblind layering its override on light.
        let blue0 = try #require(set["color.blue.0"])
        #expect(blue0.base == nil)
        #expect(blue0.value(in: "light") == .css("color(srgb 0.8666666666666667 0.9568627450980393 1)"))
        #expect(blue0.value(in: "light-colorblind") == .css("color(srgb 0.8666666666666667 0.9568627450980393 1 / 1)"))
        #expect(blue0.location(in: "light").text == "light.tokens.json:5:7")
        #expect(blue0.location(in: "light-colorblind").text == "light-colorblind.tokens.json:5:7")

        let hdr = try #require(set["color.hdr-blue"])
        #expect(hdr.value(in: "light") == .css("oklch(0.6412 0.239 254.98)"))
        #expect(hdr.value(in: "dark") == .css("oklch(0.6471 0.242 257.45)"))
        #expect(hdr.value(in: "dark-dimmed") == .css("oklch(0.6177 0.161 257.75)"))
        #expect(hdr.location(in: "dark-dimmed").text == "dark-dimmed.tokens.json:46:5")

        // Not overridden by dark-dimmed: dark's value, written in dark.tokens.json.
        let action = try #require(set["color.text-action"])
        #expect(action.value(in: "light") == .alias("color.blue.6"))
        #expect(action.value(in: "dark-dimmed") == .alias("color.blue.5"))
        #expect(action.location(in: "dark-dimmed").text == "dark.tokens.json:53:5")
    }

    @Test("resolver: a $ref to a file that was not submitted is an error at the $ref's line")
    func resolverMissingFile() throws {
        let files = try TokenFixtures.resolverPrimer().filter { $0.name != "dark-dimmed.tokens.json" }
        let error = try #require(tokenError { () throws(TokenError) in try DTCGReader.read(files) })
        #expect(error.file == "color.resolver.json")
        #expect(error.location?.line == 47)
        #expect(error.reason.contains("./dark-dimmed.tokens.json"))
    }

    @Test("resolver: a file the resolver does not name is noted, not read")
    func resolverUnreferenced() throws {
        let files = try TokenFixtures.resolverPrimer() + TokenFixtures.text(##"{"x": {"$type": "color", "$value": "#fff"}}"##, name: "extra.json")
        let set = try DTCGReader.read(files)
        #expect(set["x"] == nil)
        #expect(set.notes.contains { $0.contains("extra.json") })
    }

    @Test("resolver: two modifiers give every combination of their contexts as modes")
    func resolverCombinations() throws {
        let resolver = """
        {"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/contrast"}],
         "sets": {"base": {"sources": [{"c": {"$type": "color", "fg": {"$value": "#000"}, "bg": {"$value": "#fff"}}}]}},
         "modifiers": {
           "theme": {"contexts": {"light": [], "dark": [{"c": {"bg": {"$type": "color", "$value": "#111"}}}]}},
           "contrast": {"contexts": {"normal": [], "more": [{"$ref": "more.json"}]}}}}
        """
        let more = ##"{"c": {"fg": {"$type": "color", "$value": "{c.bg}"}}}"##
        let set = try DTCGReader.read([TokenFile(name: "r.resolver.json", content: resolver), TokenFile(name: "tokens/more.json", content: more)])
        #expect(set.modes == ["light + normal", "light + more", "dark + normal", "dark + more"])
        let bg = try #require(set["c.bg"])
        #expect(bg.base == .css("#fff"))
        #expect(bg.value(in: "dark + more") == .css("#111"))
        #expect(bg.value(in: "light + more") == .css("#fff"))
        #expect(set["c.fg"]?.value(in: "light + more") == .alias("c.bg"))
        #expect(set["c.fg"]?.location(in: "light + more").file == "tokens/more.json")
    }

    /// A hostile pass (stop 38): an 11 KB resolver whose sets each list the next one 100 times
    /// (depth 4, within the depth limit) expanded into 10⁸ sources, 4 GB and a crash.
    @Test("resolver: sets that fan out into more than maximumResolverSources sources are refused, fast")
    func resolverSetFanOut() throws {
        func refs(_ set: String, _ n: Int) -> String {
            Array(repeating: "{\"$ref\": \"#/sets/\(set)\"}", count: n).joined(separator: ", ")
        }
        let leaf = ##"{"color": {"fg": {"$type": "color", "$value": "#000"}, "bg": {"$type": "color", "$value": "#fff"}}}"##
        var sets = (0..<4).map { "\"s\($0)\": {\"sources\": [\(refs("s\($0 + 1)", 100))]}" }
        sets.append("\"s4\": {\"sources\": [\(leaf)]}")
        let resolver = "{\"version\": \"2025.10\", \"resolutionOrder\": [{\"$ref\": \"#/sets/s0\"}], \"sets\": {" + sets.joined(separator: ", ") + "}}"
        let error = try #require(tokenError { () throws(TokenError) in try DTCGReader.read([TokenFile(name: "color.resolver.json", content: resolver)]) })
        #expect(error.limit == DTCGReader.maximumResolverSources && error.reason.contains("expand into more than 1024 sources"), "\(error)")
        // Ten references to a set of ten references: 110 sources, read.
        let small = "{\"version\": \"2025.10\", \"resolutionOrder\": [{\"$ref\": \"#/sets/a\"}], \"sets\": {\"a\": {\"sources\": [\(refs("b", 10))]}, \"b\": {\"sources\": [\(refs("c", 10))]}, \"c\": {\"sources\": [\(leaf)]}}}"
        #expect(try DTCGReader.read([TokenFile(name: "r.resolver.json", content: small)])["color.fg"]?.base == .css("#000"))
    }

    /// `$extends` in a resolver's sources is applied once the modes are layered: the group gains
    /// aliases, each mode resolving them to its context's values (a hostile pass: `ui.card`
    /// extending `ui.base`, defined per context, made no tokens and no note).
    @Test("resolver: a group's $extends in a set takes each context's values")
    func resolverExtends() throws {
        let resolver = ##"""
        {"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}],
         "sets": {"base": {"sources": [{"ui": {"card": {"$extends": "{ui.base}"}}}]}},
         "modifiers": {"theme": {"contexts": {
            "light": [{"ui": {"base": {"$type": "color", "fg": {"$value": "#111111"}, "bg": {"$value": "#ffffff"}}}}],
            "dark": [{"ui": {"base": {"$type": "color", "fg": {"$value": "#eeeeee"}, "bg": {"$value": "#000000"}}}}]}}}}
        """##
        let set = try DTCGReader.read([TokenFile(name: "r.resolver.json", content: resolver)])
        #expect(set["ui.card.fg"]?.base == .alias("ui.base.fg"), "\(set.tokens.map(\.path))")
        #expect(set["ui.base.fg"]?.value(in: "dark") == .css("#eeeeee"))
    }

    // MARK: Values

    @Test("DTCG 2025.10 color objects become CSS in their own space, and the color parser reads each",
          arguments: [
            (##"{"colorSpace": "srgb", "components": [1, 0.5, 0], "alpha": 0.25}"##, "color(srgb 1 0.5 0 / 0.25)"),
            (##"{"colorSpace": "srgb-linear", "components": [0.2, 0.2, 0.2]}"##, "color(srgb-linear 0.2 0.2 0.2)"),
            (##"{"colorSpace": "display-p3", "components": [0, 0.5, 1], "alpha": 1}"##, "color(display-p3 0 0.5 1 / 1)"),
            (##"{"colorSpace": "a98-rgb", "components": [0.1, 0.2, 0.3]}"##, "color(a98-rgb 0.1 0.2 0.3)"),
            (##"{"colorSpace": "prophoto-rgb", "components": [0.1, 0.2, 0.3]}"##, "color(prophoto-rgb 0.1 0.2 0.3)"),
            (##"{"colorSpace": "rec2020", "components": [0.1, 0.2, 0.3]}"##, "color(rec2020 0.1 0.2 0.3)"),
            (##"{"colorSpace": "xyz-d65", "components": [0.2, 0.3, 0.4]}"##, "color(xyz-d65 0.2 0.3 0.4)"),
            (##"{"colorSpace": "xyz-d50", "components": [0.2, 0.3, 0.4]}"##, "color(xyz-d50 0.2 0.3 0.4)"),
            (##"{"colorSpace": "hsl", "components": [221, 83, 53], "hex": "#2563eb"}"##, "hsl(221 83% 53%)"),
            (##"{"colorSpace": "hsl", "components": ["none", 0, 95]}"##, "hsl(none 0% 95%)"),
            (##"{"colorSpace": "hwb", "components": [40, 20, 10], "alpha": 0.5}"##, "hwb(40 20% 10% / 0.5)"),
            (##"{"colorSpace": "lab", "components": [50, 20, -30]}"##, "lab(50 20 -30)"),
            (##"{"colorSpace": "lch", "components": [50, 30, 270]}"##, "lch(50 30 270)"),
            (##"{"colorSpace": "oklab", "components": [0.5, 0.1, -0.1]}"##, "oklab(0.5 0.1 -0.1)"),
            (##"{"colorSpace": "oklch", "components": [0.6412, 0.239, 254.98]}"##, "oklch(0.6412 0.239 254.98)"),
            (##"{"colorSpace": "srgb", "components": [0.00000001, 1e-7, 0]}"##, "color(srgb 0.00000001 0.0000001 0)"),
          ])
    func colorObjects(json: String, css: String) throws {
        let set = try DTCGReader.read(TokenFixtures.text(##"{"c": {"$type": "color", "$value": \##(json)}}"##))
        #expect(set["c"]?.base == .css(css))
        #expect((try? CSSColorParser.parse(css)) != nil, "\(css) does not parse as CSS")
    }

    /// DTCG Color Module 2025.10 makes `hex` a fallback: the components are measured, but a
    /// `hex` naming another color (a half-updated export) is said, with where; rounding within
    /// one 8-bit step is not (Tailwind's blue-600 written as hsl(221 83% 53%) beside #2563eb).
    @Test("a color object whose hex is another color than its components is noted, by path and line")
    func disagreeingHexIsNoted() throws {
        let file = "{\n  \"brand\": {\"$type\": \"color\",\n    \"$value\": {\"colorSpace\": \"srgb\", \"components\": [0, 0.4, 0.8], \"hex\": \"#ff0000\"}},\n"
            + "  \"blue\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"hsl\", \"components\": [221, 83, 53], \"hex\": \"#2563eb\"}},\n"
            + "  \"gray\": {\"$type\": \"color\", \"$value\": {\"colorSpace\": \"srgb\", \"components\": [0.5, 0.5, 0.5], \"hex\": \"#808080\"},\n"
            + "    \"$extensions\": {\"mode\": {\"dark\": {\"colorSpace\": \"srgb\", \"components\": [0.2, 0.2, 0.2], \"hex\": \"#cccccc\"}}}}\n}"
        let set = try DTCGReader.read(TokenFixtures.text(file, name: "t.json"))
        #expect(set["brand"]?.base == .css("color(srgb 0 0.4 0.8)"))
        let note = set.notes.first { $0.contains("'hex' is another color") }
        #expect(note?.contains("'brand (hex #ff0000, components #0066cc) at t.json:2'") == true, "\(set.notes)")
        #expect(note?.contains("'gray (mode dark) (hex #cccccc, components #333333)") == true, "\(set.notes)")
        #expect(note?.contains("blue") == false, "\(set.notes)")
        // Display-p3 red with the clipped #ff0000 or the gamut-mapped #ff0b0c agrees either way.
        let p3 = try DTCGReader.read(TokenFixtures.text(##"{"a": {"$type": "color", "$value": {"colorSpace": "display-p3", "components": [1, 0, 0], "hex": "#ff0000"}}, "b": {"$type": "color", "$value": {"colorSpace": "display-p3", "components": [1, 0, 0], "hex": "#ff0b0c"}}}"##))
        #expect(!p3.notes.contains { $0.contains("'hex'") }, "\(p3.notes)")
        // A 6-digit hex beside an alpha (the Color Module's form; Figma SDS's black at 5%) agrees.
        let agreeing = try DTCGReader.read(TokenFixtures.text(##"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.2, 0.4, 0.6], "hex": "#336699"}}, "d": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.047, 0.047, 0.051], "alpha": 0.05, "hex": "#0c0c0d"}}}"##))
        #expect(!agreeing.notes.contains { $0.contains("'hex'") }, "\(agreeing.notes)")
        // A hex that is none (no `#`, three digits): noted too (a new user's pass: measured
        // #000000 from the components with nothing said of the hex '777').
        let invalid = try DTCGReader.read(TokenFixtures.text(##"{"e": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "777"}}}"##, name: "h.json"))
        #expect(invalid.notes.contains { $0.contains("'e (hex '777' is no '#RRGGBB' hex, components #000000) at h.json:1'") }, "\(invalid.notes)")
    }

    @Test("an unknown colorSpace falls back to its hex; without one it is an error naming the token")
    func unknownSpace() throws {
        let withHex = try DTCGReader.read(TokenFixtures.text(##"{"c": {"$type": "color", "$value": {"colorSpace": "cmyk", "components": [0, 0, 0], "hex": "#123456"}}}"##))
        #expect(withHex["c"]?.base == .css("#123456"))
        let error = try #require(tokenError { () throws(TokenError) in
            try DTCGReader.read(TokenFixtures.text("{\n  \"c\": {\"$type\": \"color\",\n    \"$value\": {\"colorSpace\": \"cmyk\", \"components\": [0, 0, 0]}}}", name: "odd.json"))
        })
        #expect(error.path == "c")
        #expect(error.location?.text == "odd.json:3:5")
        #expect(error.reason.contains("cmyk"))
    }

    @Test("malformed color values are errors naming the file, token and line", arguments: [
        ##"{"colorSpace": "srgb", "components": [1, 0]}"##,
        ##"{"colorSpace": "srgb", "components": [1, "x", 0]}"##,
        ##"{"colorSpace": "srgb", "components": [1, 0, 0], "alpha": "half"}"##,
        // A hostile pass: -5 was read as transparent and 7 as opaque.
        ##"{"colorSpace": "srgb", "components": [1, 0, 0], "alpha": -5}"##,
        ##"{"colorSpace": "srgb", "components": [1, 0, 0], "alpha": 7}"##,
        // A hostile pass: a 1e308 alpha or component was echoed as 309 digits.
        ##"{"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 1e308}"##,
        ##"{"colorSpace": "srgb", "components": [1e308, 0, 0]}"##,
        ##"{"r": 1}"##,
        "12",
        "true",
    ])
    func badColors(value: String) throws {
        let text = "{\n  \"brand\": {\n    \"$type\": \"color\",\n    \"primary\": {\"$value\": \(value)}\n  }\n}"
        let error = try #require(tokenError { () throws(TokenError) in try DTCGReader.read(TokenFixtures.text(text, name: "bad.tokens.json")) })
        #expect(error.file == "bad.tokens.json")
        #expect(error.path == "brand.primary")
        #expect(error.location?.text == "bad.tokens.json:4:17")
        #expect(error.message.hasPrefix("bad.tokens.json line 4, column 17, token 'brand.primary': "))
        #expect(error.message.count < 200, "\(error.message)")
    }

    @Test("types: non-color $type and untyped non-colors are .other; untyped color strings and aliases are read")
    func types() throws {
        let set = try DTCGReader.read(TokenFixtures.text("""
        {"size": {"$type": "dimension", "sm": {"$value": {"value": 4, "unit": "px"}}, "ref": {"$value": "{size.sm}"}},
         "plain": {"$value": "rebeccapurple"}, "word": {"$value": "Inter"}, "n": {"$value": 3}, "a": {"$value": "{plain}"},
         "t": {"$type": "color", "odd": {"$value": "not a color"}}}
        """))
        #expect(set["size.sm"]?.base == .other(type: "dimension"))
        #expect(set["size.ref"]?.base == .other(type: "dimension"))
        #expect(set["plain"]?.base == .css("rebeccapurple"))
        #expect(set["word"]?.base == .other(type: "string"))
        #expect(set["n"]?.base == .other(type: "number"))
        #expect(set["a"]?.base == .alias("plain"))
        // Typed color text is kept for resolution to judge (a 4xx there, not a silent skip).
        #expect(set["t.odd"]?.base == .css("not a color"))
    }

    @Test("references: {a.b}, JSON Pointer $ref, $root tokens and $extends groups")
    func references() throws {
        let set = try DTCGReader.read(TokenFixtures.text("""
        {"color": {"$type": "color",
           "blue": {"$root": {"$value": "#00f"}, "500": {"$value": "#3b82f6"}},
           "link": {"$value": {"$ref": "#/color/blue/500/$value"}},
           "accent": {"$value": "{color.blue.$root}"}},
         "theme": {"$extends": "{color.blue}", "500": {"$type": "color", "$value": "#000"}}}
        """))
        #expect(set["color.blue.$root"]?.base == .css("#00f"))
        #expect(set["color.link"]?.base == .alias("color.blue.500"))
        #expect(set["color.accent"]?.base == .alias("color.blue.$root"))
        // $extends: the group gains the tokens it does not define, as aliases.
        #expect(set["theme.$root"]?.base == .alias("color.blue.$root"))
        #expect(set["theme.500"]?.base == .css("#000"))
    }

    /// A hostile pass: `a` → `b` → `a` passed silently, and `a` → `b` → `c` left `a` without
    /// `c`'s tokens (or, with `b` holding only its `$extends`, was refused as "holds no tokens").
    @Test("$extends: chains are followed, cycles and self-extension refused, chains and counts bounded")
    func extendsChainsAndCycles() throws {
        let chain = try DTCGReader.read(TokenFixtures.text("""
        {"a": {"$extends": "{b}"}, "b": {"$extends": "{c}"}, "c": {"$type": "color", "x": {"$value": "#000"}},
         "d": {"$extends": "{e.inner}"}, "e": {"$extends": "{f}"}, "f": {"inner": {"$type": "color", "y": {"$value": "#fff"}}}}
        """))
        #expect(chain["a.x"]?.base == .alias("b.x"))
        #expect(chain["b.x"]?.base == .alias("c.x"))
        // A target filled by its holder's own extension (e.inner comes from f.inner).
        #expect(chain["d.y"]?.base == .alias("e.inner.y"))
        #expect(chain["e.inner.y"]?.base == .alias("f.inner.y"))
        func refusal(_ text: String) throws -> TokenError {
            try #require(tokenError { () throws(TokenError) in try DTCGReader.read(TokenFixtures.text(text, name: "x.tokens.json")) })
        }
        let cycle = try refusal(##"{"a": {"$extends": "{b}", "$type": "color", "x": {"$value": "#000"}}, "b": {"$extends": "{a}", "y": {"$value": "#fff"}}}"##)
        #expect(cycle.message.contains("$extends forms a cycle: a → b → a"), "\(cycle.message)")
        #expect(cycle.location?.text == "x.tokens.json:1:8", "\(String(describing: cycle.location?.text))")
        let own = try refusal(##"{"a": {"$extends": "{a}", "$type": "color", "x": {"$value": "#000"}}}"##)
        #expect(own.message.contains("a group cannot extend itself") && own.path == "a", "\(own.message)")
        let inside = try refusal(##"{"a": {"$extends": "{a.b}", "b": {"$type": "color", "x": {"$value": "#000"}}}}"##)
        #expect(inside.message.contains("lies inside 'a'"), "\(inside.message)")
        // 200 groups each extending the next: refused at the 65th, not walked (3,000 are more than 256 extensions).
        var long = "{"
        for i in 0..<200 { long += "\"g\(i)\": {\"$extends\": \"{g\(i + 1)}\"}, " }
        long += ##""g200": {"$type": "color", "x": {"$value": "#000"}}}"##
        let deep = try refusal(long)
        #expect(deep.message.contains("$extends chains more than 64 groups"), "\(deep.message)")
        // 64 groups in a chain are followed.
        var fine = "{"
        for i in 0..<63 { fine += "\"g\(i)\": {\"$extends\": \"{g\(i + 1)}\"}, " }
        fine += ##""g63": {"$type": "color", "x": {"$value": "#000"}}}"##
        #expect(try DTCGReader.read(TokenFixtures.text(fine))["g0.x"]?.base == .alias("g1.x"))
        var many = ##"{"base": {"$type": "color", "x": {"$value": "#000"}}"##
        for i in 0..<257 { many += ", \"t\(i)\": {\"$extends\": \"{base}\"}" }
        let count = try refusal(many + "}")
        #expect(count.message.contains("more than 256 groups use $extends"), "\(count.message)")
        // Not a reference string, at the root, on a token: refused, not dropped (a hostile pass).
        for (text, says) in [(##"{"a": {"$extends": 5, "$type": "color", "x": {"$value": "#000"}}}"##, "must be a reference string"),
                             (##"{"a": {"$extends": {"$ref": "#/b"}}, "b": {"$type": "color", "x": {"$value": "#000"}}}"##, "must be a reference string"),
                             (##"{"$extends": "{b}", "b": {"$type": "color", "x": {"$value": "#000"}}}"##, "at the root"),
                             (##"{"b": {"$type": "color", "x": {"$value": "#000", "$extends": "{b}"}}}"##, "$extends is for groups")] {
            let e = try refusal(text)
            #expect(e.message.contains(says), "\(text): \(e.message)")
        }
        // A JSON Pointer names the group too (2025.10 allows both reference forms).
        let pointer = try DTCGReader.read(TokenFixtures.text(##"{"a": {"$extends": "#/b"}, "b": {"$type": "color", "x": {"$value": "#000"}}}"##))
        #expect(pointer["a.x"]?.base == .alias("b.x"))
    }

    @Test("one file per mode: TokenFile.mode makes the file's values that mode's")
    func fileModes() throws {
        let light = TokenFile(name: "light.tokens.json", content: ##"{"bg": {"$type": "color", "$value": "#fff"}}"##, mode: "light")
        let dark = TokenFile(name: "dark.tokens.json", content: "{\n \"bg\": {\"$type\": \"color\", \"$value\": \"#000\"}}", mode: "dark")
        let set = try DTCGReader.read([light, dark])
        #expect(set.modes == ["light", "dark"])
        let bg = try #require(set["bg"])
        #expect(bg.base == nil)
        #expect(bg.modes == ["light": .css("#fff"), "dark": .css("#000")])
        #expect(bg.location.text == "light.tokens.json:1:2")
        #expect(bg.location(in: "dark").text == "dark.tokens.json:2:2")
    }

    // MARK: Limits

    @Test("20,000 tokens are read; the 20,001st is a TokenError naming it and its line")
    func tokenLimit() throws {
        func file(_ count: Int) -> [TokenFile] {
            var text = "{\"c\": {\"$type\": \"color\""
            for i in 0..<count { text += ",\n  \"t\(i)\": {\"$value\": \"#000\"}" }
            return TokenFixtures.text(text + "}}", name: "many.json")
        }
        #expect(try DTCGReader.read(file(20_000)).tokens.count == 20_000)
        let error = try #require(tokenError { () throws(TokenError) in try DTCGReader.read(file(20_001)) })
        #expect(error.path == "c.t20000")
        #expect(error.location?.text == "many.json:20002:3")
        #expect(error.reason.contains("20000 tokens"))
    }

    @Test("64 modes are read; a 65th is a TokenError")
    func modeLimit() throws {
        func file(_ modes: Int) -> [TokenFile] {
            let entries = (0..<modes).map { "\"m\($0)\": \"#000\"" }.joined(separator: ", ")
            return TokenFixtures.text("{\"bg\": {\"$type\": \"color\", \"$value\": \"#fff\", \"$extensions\": {\"mode\": {\(entries)}}}}")
        }
        #expect(try DTCGReader.read(file(64)).modes.count == 64)
        let error = try #require(tokenError { () throws(TokenError) in try DTCGReader.read(file(65)) })
        #expect(error.reason.contains("more than 64 modes"))
        #expect(error.location?.line == 1)
    }

    @Test("a file of another format holds no DTCG tokens: an error, not an empty design system")
    func noTokens() throws {
        let figma = try TokenFixtures.figmaREST()
        let error = try #require(tokenError { () throws(TokenError) in try DTCGReader.read(figma) })
        #expect(error.file == "get-local-variables.json")
        #expect(error.reason.contains("no dtcg tokens"))
    }

    /// A new user's pass: `light.tokens.json` and `dark.tokens.json` sent without `mode` were one
    /// mode, dark's values replacing light's in silence (light's failing #777 on #fff, 4.4781:1,
    /// never measured).
    @Test("files named as modes that set the same tokens are those modes; other layered files are said")
    func modesByFileName() throws {
        let light = ##"{"color": {"$type": "color", "fg": {"$value": "#777"}, "bg": {"$value": "#fff"}}}"##
        let dark = ##"{"color": {"$type": "color", "fg": {"$value": "#333"}, "bg": {"$value": "#000"}}}"##
        let core = ##"{"color": {"$type": "color", "brand": {"$value": "#0066cc"}}}"##
        let set = try DTCGReader.read([TokenFile(name: "tokens/core.tokens.json", content: core),
                                       TokenFile(name: "tokens/light.tokens.json", content: light),
                                       TokenFile(name: "tokens/dark.tokens.json", content: dark)])
        #expect(set.modes == ["light", "dark"], "\(set.modes)")
        #expect(set["color.fg"]?.modes == ["light": .css("#777"), "dark": .css("#333")] && set["color.fg"]?.base == nil)
        #expect(set["color.brand"]?.base == .css("#0066cc"))
        #expect(set.notes.contains { $0.hasPrefix("tokens/light.tokens.json read as mode 'light' (by its name") }, "\(set.notes)")
        let rules = [PairRule(foreground: try TokenPattern("color.fg"), background: try TokenPattern("color.bg"), source: "rules[0]")]
        let report = try TokenAudit.run(set, rules: rules)
        #expect(report.results.map { $0.mode ?? "" } == ["light", "dark"] && abs((report.results.first?.value ?? 0) - 4.478089) < 1e-6,
                "\(report.results.map { ($0.mode ?? "", $0.value ?? 0) })")
        // Layered files whose names are no modes: the later wins, and a note says so.
        let layered = try DTCGReader.read([TokenFile(name: "base.json", content: light), TokenFile(name: "override.json", content: dark)])
        #expect(layered.modes.isEmpty && layered["color.fg"]?.base == .css("#333"))
        #expect(layered.notes.contains("override.json replaces 2 tokens of base.json (the later file wins, as layered token files do); if they are modes, send each file with its \"mode\""), "\(layered.notes)")
        // A folder per mode (`light/colors.json`, `dark/colors.json`, one file or several).
        let folders = try DTCGReader.read([TokenFile(name: "tokens/light/colors.json", content: light), TokenFile(name: "tokens/dark/colors.json", content: dark),
                                           TokenFile(name: "tokens/dark/extra.json", content: ##"{"color": {"$type": "color", "bg": {"$value": "#111"}}}"##)])
        #expect(folders.modes == ["light", "dark"] && folders["color.bg"]?.modes == ["light": .css("#fff"), "dark": .css("#111")], "\(folders.modes) \(String(describing: folders["color.bg"]?.modes))")
        // One file named as a mode beside a base is layering, said in a note (a hostile pass:
        // the base's failing pair was never audited); a word that only contains one is no mode.
        let one = try DTCGReader.read([TokenFile(name: "light.tokens.json", content: light), TokenFile(name: "b.json", content: dark)])
        #expect(one.modes.isEmpty && one.notes.contains { $0.hasPrefix("b.json replaces 2 tokens of light.tokens.json") }, "\(one.modes) \(one.notes)")
        let word = try DTCGReader.read([TokenFile(name: "lightdark/a.json", content: light), TokenFile(name: "darkroom/b.json", content: dark)])
        #expect(word.modes.isEmpty, "\(word.modes)")
        // A mode given to any file: names are not read.
        let given = try DTCGReader.read([TokenFile(name: "light.json", content: light, mode: "day"), TokenFile(name: "dark.json", content: dark, mode: "night")])
        #expect(given.modes == ["day", "night"])
    }

    /// A new user's pass: `"$type": "colour"` on a group took its tokens out of the audit
    /// without a word, even with failOn=warning.
    @Test("a misspelt color type is a warning naming the tokens; other unknown types are not")
    func misspeltColorType() throws {
        let text = ##"{"color": {"$type": "color", "bg": {"$value": "#fff"}}, "brand": {"$type": "colour", "text": {"b": {"$value": "#eee"}}}, "sds": {"$type": "unknown", "x": {"$value": "1"}}}"##
        let set = try DTCGReader.read(TokenFixtures.text(text, name: "x.json"))
        #expect(set.coverageWarnings == ["'colour' is not a type of DTCG 2025.10 (did you mean 'color'?): 1 token typed so is no color and is not audited ('brand.text.b at x.json line 1'); write \"$type\": \"color\""], "\(set.coverageWarnings)")
        for t in ["colour", "Colors", "colr", "clor", "COLOUR"] { #expect(DTCGReader.isMisspeltColor(t), "\(t)") }
        for t in ["color", "Color", "number", "border", "unknown", "fontWeight", "gradient", "dimension", "cursor", "boolean"] { #expect(!DTCGReader.isMisspeltColor(t), "\(t)") }
        // Figma SDS's real file types 22 tokens "unknown": no warning.
        let sds = try DTCGReader.read(try TokenFixtures.files("dtcg/figma-sds", ["tokens.json"]))
        #expect(sds.coverageWarnings.isEmpty, "\(sds.coverageWarnings)")
    }

    /// A new user's pass: `"a.b"` as a token name was read as the path `color.a.b` without a
    /// word, though DTCG 2025.10 forbids '.' in names.
    @Test("a name with '.' is read as a path of groups, with a note naming it")
    func restrictedCharacters() throws {
        let set = try DTCGReader.read(TokenFixtures.text(##"{"color": {"$type": "color", "a.b": {"$value": "#000"}, "c": {"$value": "#fff"}}}"##, name: "n.json"))
        #expect(set["color.a.b"]?.base == .css("#000"))
        #expect(set.notes.contains { $0.hasPrefix("names holding '.', '{' or '}', which DTCG 2025.10 does not allow") && $0.contains("'color.a.b at n.json line 1'") }, "\(set.notes)")
        let plain = try DTCGReader.read(TokenFixtures.text(##"{"color": {"$type": "color", "c": {"$value": "#fff"}}}"##))
        #expect(!plain.notes.contains { $0.contains("does not allow") })
    }
}

