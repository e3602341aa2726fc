import TestSupport
import Testing
@testable import ColorScience

/// Gamut mapping against `Tests/Fixtures/gamut_map.jsonl` (ColorAide 8.13.1 `minde-chroma`
/// and `clip` into sRGB).
@Suite("Gamut mapping")
struct GamutMappingTests {
    @Test("css4 matches ColorAide minde-chroma within 1e-4 and clip within 1e-6 on every row")
    func matchesColorAide() throws {
        let rows = try FixtureLoader.jsonLines("gamut_map.jsonl")
        #expect(rows.count == 136)
        for row in rows {
            let lch = try #require(FixtureLoader.doubles(row["oklch"]))
            let css4 = try #require(FixtureLoader.doubles(row["srgb_css4"]))
            let clip = try #require(FixtureLoader.doubles(row["srgb_clip"]))
            let color = Color(space: .oklch, coordinates: SIMD3(lch[0], lch[1], lch[2]))
            let mapped = GamutMapping.map(color, to: .srgb)
            let clipped = GamutMapping.map(color, to: .srgb, method: .clip)
            #expect(mapped.space == .srgb && clipped.space == .srgb)
            for i in 0..<3 {
                #expect(abs(mapped.coordinates[i] - css4[i]) <= 1e-4,
                        "oklch\(lch) css4[\(i)]: \(mapped.coordinates[i]) vs \(css4[i])")
                #expect(abs(clipped.coordinates[i] - clip[i]) <= 1e-6,
                        "oklch\(lch) clip[\(i)]: \(clipped.coordinates[i]) vs \(clip[i])")
            }
        }
    }

    @Test("results lie in the destination gamut; alpha is kept")
    func resultsInGamut() throws {
        let inputs = ["oklch(0.7 0.4 30 / 0.5)", "color(rec2020 1 0 0)", "lab(50 150 -150)",
                      "color(srgb 2 -1 0.5)", "oklch(1.2 0.2 100)", "oklch(-0.1 0.2 100)", "hsl(120 200% 50%)"]
        for input in inputs {
            let c = try CSSColorParser.parse(input)
            for dest in [ColorSpace.srgb, .displayP3, .rec2020, .srgbLinear] {
                for method in [GamutMapping.Method.css4, .clip] {
                    let m = GamutMapping.map(c, to: dest, method: method)
                    #expect(m.space == dest)
                    #expect(m.alpha == c.alpha)
                    #expect(m.isInGamut(dest, epsilon: 1e-9), "\(input) → \(dest) \(method): \(m.coordinates)")
                }
            }
        }
    }

    @Test("in-gamut colors are only converted; lightness extremes give white and black")
    func specialCases() throws {
        let inside = Color.srgb(0.2, 0.4, 0.6)
        #expect(FixtureLoader.maxAbs(GamutMapping.map(inside, to: .srgb).coordinates - inside.coordinates) < 1e-12)
        let p3 = GamutMapping.map(inside, to: .displayP3)
        #expect(FixtureLoader.maxAbs(p3.coordinates - inside.converted(to: .displayP3).coordinates) < 1e-12)
        let white = GamutMapping.map(Color(space: .oklch, coordinates: SIMD3(1.1, 0.3, 40)), to: .srgb)
        #expect(FixtureLoader.maxAbs(white.coordinates - SIMD3(1, 1, 1)) < 1e-12)
        let black = GamutMapping.map(Color(space: .oklch, coordinates: SIMD3(0, 0.3, 40)), to: .srgb)
        #expect(FixtureLoader.maxAbs(black.coordinates) < 1e-12)
    }

    @Test("unbounded destinations and hsl/hwb")
    func otherDestinations() throws {
        let c = try CSSColorParser.parse("color(display-p3 1 0 0)")
        #expect(GamutMapping.map(c, to: .oklch) == c.converted(to: .oklch))
        let hsl = GamutMapping.map(c, to: .hsl)
        #expect(hsl.space == .hsl)
        #expect(hsl.isInGamut(.srgb, epsilon: 1e-9))
        let hwb = GamutMapping.map(c, to: .hwb, method: .clip)
        #expect(hwb.space == .hwb)
        #expect(hwb.isInGamut(.srgb, epsilon: 1e-9))
    }

    @Test("css4 keeps OKLCH hue and lightness close to the original (chroma reduction)")
    func preservesHueAndLightness() throws {
        let c = try CSSColorParser.parse("oklch(0.65 0.35 145)")
        let m = GamutMapping.map(c, to: .srgb).converted(to: .oklch).coordinates
        #expect(abs(m.x - 0.65) < 0.02)
        #expect(abs(m.z - 145) < 3)
        #expect(m.y < 0.35)
    }

    @Test("extreme inputs never produce NaN or infinity")
    func extremeInputs() {
        for space in ColorSpace.allCases {
            for v in [-1e6, 1e6, Double.nan, .infinity] {
                let c = Color(space: space, coordinates: SIMD3(v, -v, v))
                for method in [GamutMapping.Method.css4, .clip] {
                    let m = GamutMapping.map(c, to: .srgb, method: method)
                    #expect(m.coordinates.x.isFinite && m.coordinates.y.isFinite && m.coordinates.z.isFinite)
                }
            }
        }
    }
}
