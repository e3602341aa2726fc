@testable import ColorScience
import TestSupport
import Testing
import Foundation

/// The byte-level hex fast path must agree exactly with the tokenizing parser.
struct HexFastPathTests {
    @Test func fastPathEqualsTokenizedPath() throws {
        var rng = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdefABCDEF")
        for _ in 0..<5000 {
            let n = [3, 4, 6, 8].randomElement(using: &rng)!
            let body = String((0..<n).map { _ in digits.randomElement(using: &rng)! })
            let text = ["", " ", "\t", "\n "].randomElement(using: &rng)! + "#" + body + ["", " ", "\r\n"].randomElement(using: &rng)!
            for order in [HexOrder.rgba, .argb] {
                let fast = try #require(CSSColorParser.fastHex(text, hexOrder: order))
                let slow = try CSSColorParser.parseTokenized(text, hexOrder: order).color
                #expect(fast == slow, "\(text.debugDescription) \(order)")
            }
        }
    }

    @Test func fastPathDeclinesEverythingElse() {
        for text in ["#12345", "#ggg", "##fff", "# fff", "fff", "#fff;", "#", "", "#ffff0", "red", "#1234567", "#fff fff"] {
            #expect(CSSColorParser.fastHex(text, hexOrder: .rgba) == nil, "\(text)")
        }
    }
}

/// The 8-bit tables behind `WCAG.linearize` and APCA's channel power hold exactly what the
/// formulas give; values between levels, outside 0...1 and NaN still go through the formulas.
@Test func eightBitTablesEqualTheFormulas() {
    for k in 0...255 {
        let c = Double(k) / 255
        #expect(EightBitLevel.index(of: c) == k)
        #expect(WCAG.linearize(c) == WCAG.decode(c), "level \(k)")
        #expect(APCA.channelPower(c) == pow(c, APCA.mainTRC), "level \(k)")
    }
    for c in [0.5, 1e-9, 0.999, -0.1, 1.2, 128.5 / 255, Double.nan, .infinity, -.infinity] {
        #expect(EightBitLevel.index(of: c) == nil, "\(c)")
        #expect(WCAG.linearize(c).bitPattern == WCAG.decode(c).bitPattern || (c.isNaN && WCAG.linearize(c).isNaN))
        #expect(APCA.channelPower(c).bitPattern == pow(c, APCA.mainTRC).bitPattern || (c.isNaN && APCA.channelPower(c).isNaN))
    }
    // The known 8-bit reference: #777777 has relative luminance 0.184474994500441.
    #expect(WCAG.relativeLuminance(SIMD3(repeating: 119.0 / 255)) == 0.184474994500441)
}

/// The contrast matrix's prepared luminances give the single-pair Lc bit for bit: both
/// polarities, the black-level soft clamp, the 0.0005 closeness cut-off, the low clip, and
/// luminances outside 0...1.1.
@Test func preparedLuminanceLcEqualsSinglePairLc() {
    var ys: [Double] = [0, 1e-9, 0.01, 0.021999, 0.022, 0.0221, 0.05, 0.18, 0.2, 0.2004, 0.5, 0.9, 1, 1.05, 1.1,
                        1.1000001, -0.001, .nan, .infinity]
    ys += (0...255).map { APCA.screenLuminance(SIMD3(repeating: Double($0) / 255)) }
    var rng = SystemRandomNumberGenerator()
    ys += (0..<200).map { _ in Double.random(in: 0...1.1, using: &rng) }
    let prepared = ys.map(APCA.PreparedLuminance.init)
    var nonZero = 0
    for (i, text) in ys.enumerated() {
        for (j, background) in ys.enumerated() {
            let single = APCA.lc(textY: text, backgroundY: background)
            let matrix = APCA.lc(text: prepared[i], background: prepared[j])
            if single.bitPattern != matrix.bitPattern {
                Issue.record("text \(text) on \(background): \(single) vs \(matrix)")
                return
            }
            nonZero += single == 0 ? 0 : 1
        }
    }
    #expect(nonZero > 100_000)
    // Known values (apca-w3 0.1.9): black on white 106.04..., white on black -107.88...
    let white = APCA.PreparedLuminance(APCA.screenLuminance(SIMD3(repeating: 1)))
    let black = APCA.PreparedLuminance(APCA.screenLuminance(SIMD3(repeating: 0)))
    #expect(abs(APCA.lc(text: black, background: white) - 106.04067321268862) < 1e-9)
    #expect(abs(APCA.lc(text: white, background: black) - -107.88473318309848) < 1e-9)
}
