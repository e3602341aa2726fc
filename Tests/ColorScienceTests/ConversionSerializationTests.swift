import TestSupport
import Testing
@testable import ColorScience

/// `Color.hex` and `Color.cssString`.
@Suite("Serialization")
struct ConversionSerializationTests {
    @Test("hex: clipped sRGB, round half up, alpha only when below 1")
    func hex() throws {
        #expect(try CSSColorParser.parse("rgb(100%, 50%, 0%)").hex == "#ff8000")
        #expect(try CSSColorParser.parse("#0000ffcc").hex == "#0000ffcc")
        #expect(try CSSColorParser.parse("#ABCDEF").hex == "#abcdef")
        #expect(try CSSColorParser.parse("color(srgb 2 -1 0.5)").hex == "#ff0080")
        #expect(try CSSColorParser.parse("rgb(50.5 0 0)").hex == "#330000")
        #expect(try CSSColorParser.parse("rgb(127.5 0 0 / 0.5)").hex == "#80000080")
        #expect(try CSSColorParser.parse("transparent").hex == "#00000000")
        #expect(try CSSColorParser.parse("hsla(10.0, 100%, 50%, 1)").hex == "#ff2b00")
        // oklch(0.7 0.1 200) is in sRGB gamut: ColorAide 8.13.1 gives srgb (0.251831, 0.694250, 0.717064) = #40b1b7.
        #expect(try CSSColorParser.parse("oklch(0.7 0.1 200)").hex == "#40b1b7")
        for byte in 0...255 {
            let c = Color.srgb8(byte, 255 - byte, byte / 2)
            let want = "#" + [byte, 255 - byte, byte / 2].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(c.hex == want)
        }
    }

    @Test("cssString in the color's own space")
    func cssString() throws {
        let cases: [(String, String)] = [
            ("oklch(0.5 0.1 120)", "oklch(0.5 0.1 120)"),
            ("color(display-p3 0.1 0.2 0.3 / 0.5)", "color(display-p3 0.1 0.2 0.3 / 0.5)"),
            ("rgb(255 128 0)", "rgb(255 128 0)"),
            ("#ff8000", "rgb(255 128 0)"),
            ("rgb(100%, 50%, 0%)", "rgb(255 127.5 0)"),
            ("rgba(0, 0, 255, 0.8)", "rgb(0 0 255 / 0.8)"),
            ("color(srgb 2 2 2)", "color(srgb 2 2 2)"),
            ("hsl(none 100% 50%)", "hsl(none 100% 50%)"),
            ("hsl(-120, 100%, 50%)", "hsl(240 100% 50%)"),
            // A hue just under 360 that rounds to 360 is written 0, inside [0, 360) (hostile test, stop 14).
            ("hsl(-0.0000001 100% 50%)", "hsl(0 100% 50%)"),
            ("oklch(0.5 0.1 359.99999)", "oklch(0.5 0.1 0)"),
            ("lch(50 30 -0.00001)", "lch(50 30 0)"),
            ("hwb(90 10% 20%)", "hwb(90 10% 20%)"),
            ("lab(50% -20 30.5)", "lab(50 -20 30.5)"),
            ("lch(50 30 none / 25%)", "lch(50 30 none / 0.25)"),
            ("oklab(0.5 -0.1 0.05)", "oklab(0.5 -0.1 0.05)"),
            ("color(xyz 0.1 0.2 0.3)", "color(xyz-d65 0.1 0.2 0.3)"),
            ("color(xyz-d50 0.1 0.2 0.3)", "color(xyz-d50 0.1 0.2 0.3)"),
            ("color(srgb-linear 0.5 0 1)", "color(srgb-linear 0.5 0 1)"),
            ("color(rec2020 0.1 0.2 0.3)", "color(rec2020 0.1 0.2 0.3)"),
            ("rgb(none 0 0)", "rgb(none 0 0)"),
        ]
        for (input, want) in cases {
            #expect(try CSSColorParser.parse(input).cssString == want, "\(input)")
        }
        #expect(Color.srgb(0.5, 0.5, 0.5).converted(to: .oklch).cssString.hasSuffix(" 0 none)"))
        #expect(Color(space: .lab, coordinates: SIMD3(-0.0000001, 1e-12, 12.3456789)).cssString == "lab(0 0 12.3457)")
    }

    /// Printed precision is 6 decimals on 0...1 scales and 4 on larger ones, so a re-parsed
    /// value may differ by a few 1e-5 in sRGB (XYZ near black amplifies); the 8-bit hex must
    /// not change.
    @Test("cssString re-parses to the same color (within its printed precision)")
    func cssStringRoundTrip() throws {
        for row in try FixtureLoader.jsonLines("convert.jsonl") {
            let hex = try #require(row["srgb_hex"] as? String)
            let base = try CSSColorParser.parse(hex)
            for space in ColorSpace.allCases {
                let c = base.converted(to: space)
                let reparsed = try CSSColorParser.parse(c.cssString)
                #expect(reparsed.space == space, "\(c.cssString)")
                let err = FixtureLoader.maxAbs(reparsed.converted(to: .srgb).coordinates - base.coordinates)
                #expect(err < 1e-4, "\(hex) as \(c.cssString): error \(err)")
                #expect(reparsed.hex == base.hex, "\(hex) as \(c.cssString)")
            }
        }
    }
}
