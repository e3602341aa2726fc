@testable import ColorScience
import Testing

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
