import TestSupport
import Testing
@testable import ColorScience

/// Conversions against `Tests/Fixtures/convert.jsonl` (color.js 0.7) and round trips.
@Suite("Conversions")
struct ConversionTests {
    /// Fixture key → space (`p3` is display-p3; `lab-d65` has no ColorSpace and is skipped).
    static let fixtureSpaces: [(String, ColorSpace)] = [
        ("srgb-linear", .srgbLinear), ("xyz-d65", .xyzD65), ("xyz-d50", .xyzD50), ("lab", .lab),
        ("lch", .lch), ("oklab", .oklab), ("oklch", .oklch), ("hsl", .hsl), ("hwb", .hwb),
        ("p3", .displayP3),
    ]

    static func hexColor(_ hex: String) throws -> Color {
        try CSSColorParser.parse(hex)
    }

    /// Difference of two coordinates; hues compare around the circle.
    static func difference(_ a: Double, _ b: Double, isHue: Bool) -> Double {
        guard isHue else { return abs(a - b) }
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    @Test("every row of convert.jsonl matches color.js within 1e-6 in every listed space")
    func matchesColorJS() throws {
        let rows = try FixtureLoader.jsonLines("convert.jsonl")
        #expect(rows.count == 300)
        for row in rows {
            let hex = try #require(row["srgb_hex"] as? String)
            let color = try Self.hexColor(hex)
            for (key, space) in Self.fixtureSpaces {
                let expected = try #require(FixtureLoader.doubles(row[key]), "\(hex) \(key)")
                let got = color.converted(to: space)
                #expect(got.space == space)
                for i in 0..<3 {
                    let d = Self.difference(got.coordinates[i], expected[i], isHue: space.hueIndex == i)
                    #expect(d <= 1e-6, "\(hex) → \(key)[\(i)]: \(got.coordinates[i]) vs color.js \(expected[i])")
                }
            }
        }
    }

    static let extraColors: [Color] = [
        .srgb(0, 0, 0), .srgb(1, 1, 1), .srgb(0.5, 0.5, 0.5), .srgb(1, 0, 0), .srgb(0, 1, 0),
        .srgb(0, 0, 1), .srgb(1, 1, 0), .srgb(0, 1, 1), .srgb(1, 0, 1), .srgb8(119, 119, 119),
        .srgb(0.001, 0.002, 0.003), .srgb(0.0404, 0.04, 0.0031308), .srgb(0.0405, 0.05, 0.5),
    ]

    /// `srgbToLinear` reads the 256 values `k/255` from a table: each must be the formula's
    /// result bit for bit, negatives mirrored, and anything else (a channel a hair off `k/255`,
    /// beyond 1, NaN) must still go through the formula.
    @Test("sRGB decoding of k/255 from the table equals the formula bit for bit; other values use the formula")
    func eightBitDecodingTable() {
        for k in 0...255 {
            let v = Double(k) / 255
            #expect(ColorSpaceTree.srgbToLinear(v) == ColorSpaceTree.srgbPowerToLinear(v), "k = \(k)")
            #expect(ColorSpaceTree.srgbToLinear(-v) == -ColorSpaceTree.srgbPowerToLinear(v), "k = -\(k)")
            let off = v.nextUp
            #expect(ColorSpaceTree.srgbToLinear(off) == ColorSpaceTree.srgbPowerToLinear(off), "k = \(k) + ulp")
        }
        // Known values: #808080's channel 128/255 decodes to 0.2158605001138992 (CSS Color 4 §10.2).
        #expect(abs(ColorSpaceTree.srgbToLinear(128.0 / 255) - 0.21586050011389926) < 1e-16)
        #expect(ColorSpaceTree.srgbToLinear(1.5) == ColorSpaceTree.srgbPowerToLinear(1.5))
        #expect(ColorSpaceTree.srgbToLinear(.nan).isNaN)
        #expect(ColorSpaceTree.srgbToLinear(.infinity) == .infinity)
    }

    @Test("srgb → X → srgb round-trips within 1e-9 for every space")
    func roundTrips() throws {
        var colors = Self.extraColors
        for row in try FixtureLoader.jsonLines("convert.jsonl") {
            colors.append(try Self.hexColor(try #require(row["srgb_hex"] as? String)))
        }
        for color in colors {
            for space in ColorSpace.allCases {
                let back = color.converted(to: space).converted(to: .srgb)
                let err = FixtureLoader.maxAbs(back.coordinates - color.coordinates)
                #expect(err <= 1e-9, "\(color.coordinates) via \(space): error \(err)")
                #expect(back.alpha == color.alpha)
            }
        }
    }

    @Test("at the sRGB transfer threshold 0.04045 the round trip is off by at most 3e-8 (sample-code constants)")
    func thresholdDiscontinuity() {
        // 0.04045 / 12.92 = 0.00313080495… lies just above the inverse threshold 0.0031308, so the
        // encode step takes the power branch: a 3e-8 jump inherent to the CSS/IEC constants,
        // reproduced exactly as color.js does. No 8-bit value lies in the affected window.
        let c = Color.srgb(0.04045, 0.04045, 0.04045)
        let back = c.converted(to: .srgbLinear).converted(to: .srgb).coordinates.x
        #expect(abs(back - 0.04045) < 3e-8)
        #expect(abs(back - 0.04045) > 1e-9)
    }

    @Test("round trips between every pair of spaces stay within 1e-9 (in-gamut colors)")
    func pairwiseRoundTrips() {
        let samples: [Color] = [.srgb(0.2, 0.5, 0.8), .srgb(0.9, 0.1, 0.3), .srgb(0.33, 0.66, 0.01)]
        for base in samples {
            for a in ColorSpace.allCases {
                let ca = base.converted(to: a)
                for b in ColorSpace.allCases {
                    let back = ca.converted(to: b).converted(to: a).converted(to: .srgb)
                    let err = FixtureLoader.maxAbs(back.coordinates - base.coordinates)
                    #expect(err <= 1e-9, "\(a) → \(b) → \(a): error \(err)")
                }
            }
        }
    }

    @Test("achromatic colors get hue 0 marked none in lch, oklch, hsl and hwb")
    func achromaticHueIsNone() {
        for gray in [Color.srgb(0, 0, 0), .srgb(1, 1, 1), .srgb(0.5, 0.5, 0.5), .srgb8(119, 119, 119)] {
            for space in [ColorSpace.lch, .oklch, .hsl, .hwb] {
                let c = gray.converted(to: space)
                let h = space.hueIndex!
                #expect(c.isNone[h], "\(gray.coordinates) in \(space) should have a missing hue")
                #expect(c.coordinates[h] == 0)
            }
            #expect(gray.converted(to: .lch).coordinates.y == 0)
            #expect(gray.converted(to: .oklch).coordinates.y == 0)
            #expect(gray.converted(to: .hsl).coordinates.y == 0)
        }
        // Chromatic colors keep their hue.
        let red = Color.srgb(1, 0, 0)
        for space in [ColorSpace.lch, .oklch, .hsl, .hwb] {
            #expect(!red.converted(to: space).isNone[space.hueIndex!])
        }
        // Near-gray but chromatic (just above the sample-code thresholds).
        let lch = Color(space: .lab, coordinates: SIMD3(50, 0.002, 0)).converted(to: .lch)
        #expect(!lch.isNone[2])
        let lchGray = Color(space: .lab, coordinates: SIMD3(50, 0.001, 0)).converted(to: .lch)
        #expect(lchGray.isNone[2])
    }

    @Test("hues are always in [0, 360)")
    func huesInRange() throws {
        for row in try FixtureLoader.jsonLines("convert.jsonl") {
            let color = try Self.hexColor(try #require(row["srgb_hex"] as? String))
            for space in [ColorSpace.lch, .oklch, .hsl, .hwb] {
                let h = color.converted(to: space).coordinates[space.hueIndex!]
                #expect(h >= 0 && h < 360)
            }
        }
        let negative = Color(space: .oklab, coordinates: SIMD3(0.5, 0.1, -1e-18)).converted(to: .oklch)
        #expect(negative.coordinates.z >= 0 && negative.coordinates.z < 360)
    }

    @Test("none components count as zero; same-space conversion returns the color unchanged")
    func noneAndIdentity() throws {
        let c = try CSSColorParser.parse("oklch(0.6 0.1 none)")
        #expect(c.isNone[2])
        #expect(c.converted(to: .oklch) == c)
        let viaZero = Color(space: .oklch, coordinates: SIMD3(0.6, 0.1, 0)).converted(to: .srgb)
        #expect(c.converted(to: .srgb).coordinates == viaZero.coordinates)
        #expect(!c.converted(to: .srgb).isNone[0])
    }

    @Test("hwb with whiteness + blackness ≥ 100% is the normalised gray")
    func hwbNormalisation() throws {
        let c = try CSSColorParser.parse("hwb(120 80% 40%)")
        let s = c.converted(to: .srgb).coordinates
        #expect(abs(s.x - 80.0 / 120) < 1e-12 && s.x == s.y && s.y == s.z)
    }

    @Test("extreme and non-finite coordinates never produce NaN or infinity")
    func extremeInputsStayFinite() {
        let values: [Double] = [-1e6, -1, 0, 0.5, 1, 1e6, 1e300, -.infinity, .infinity, .nan]
        for space in ColorSpace.allCases {
            for x in values {
                for y in [values[0], values[3], values[5], values[9]] {
                    let color = Color(space: space, coordinates: SIMD3(x, y, -x))
                    for target in ColorSpace.allCases {
                        let out = color.converted(to: target)
                        #expect(out.coordinates.x.isFinite && out.coordinates.y.isFinite && out.coordinates.z.isFinite,
                                "\(space) \(color.coordinates) → \(target): \(out.coordinates)")
                    }
                    #expect(color.hex.count == 7)
                    #expect(!color.cssString.contains("nan") && !color.cssString.contains("inf"))
                }
            }
        }
    }

    @Test("a98-rgb and prophoto-rgb whites map to their reference whites")
    func otherPredefinedSpaces() throws {
        let a98 = try CSSColorParser.parse("color(a98-rgb 1 1 1)")
        #expect(a98.space == .xyzD65)
        let white = Color.srgb(1, 1, 1).converted(to: .xyzD65).coordinates
        #expect(FixtureLoader.maxAbs(a98.coordinates - white) < 1e-6)
        let prophoto = try CSSColorParser.parse("color(prophoto-rgb 1 1 1)")
        #expect(prophoto.space == .xyzD50)
        let whiteD50 = Color.srgb(1, 1, 1).converted(to: .xyzD50).coordinates
        #expect(FixtureLoader.maxAbs(prophoto.coordinates - whiteD50) < 1e-6)
        // prophoto-rgb 0.5 gray: linear 0.5^1.8 times the white
        let gray = try CSSColorParser.parse("color(prophoto-rgb 50% 50% 50%)")
        #expect(abs(gray.coordinates.y - 0.28717458874925877) < 1e-9)
    }

    @Test("isInGamut honours epsilon and the space's gamut")
    func gamutChecks() throws {
        let p3Red = try CSSColorParser.parse("color(display-p3 1 0 0)")
        #expect(!p3Red.isInGamut(.srgb))
        #expect(p3Red.isInGamut(.displayP3))
        #expect(try CSSColorParser.parse("color(display-p3 0 1 0)").isInGamut(.rec2020))
        // The P3 red primary lies just outside the Rec. 2020 red–green edge (blue ≈ -0.0054).
        #expect(!p3Red.isInGamut(.rec2020))
        #expect(p3Red.isInGamut(.rec2020, epsilon: 0.006))
        #expect(p3Red.isInGamut(.oklch))
        #expect(Color.srgb(1 + 5e-7, 0, 0).isInGamut(.srgb))
        #expect(!Color.srgb(1 + 5e-7, 0, 0).isInGamut(.srgb, epsilon: 0))
        #expect(!Color.srgb(-0.01, 0, 0).isInGamut(.hsl))
    }
}
