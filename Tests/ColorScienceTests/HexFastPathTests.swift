@testable import ColorScience
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
                let slow = try CSSColorParser.parseTokenized(text, hexOrder: order)
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
