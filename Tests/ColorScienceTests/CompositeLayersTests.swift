import TestSupport
import Testing
@testable import ColorScience

/// Layer stacks against `Tests/Fixtures/composite_layers.jsonl` (ColorAide 8.13.1
/// `Color.layer([...], space="srgb")`): 2–5 translucent `#RRGGBBAA` layers, bottom to top, over an
/// opaque page, with translucent text on top; the effective background and foreground (source-over,
/// straight alpha, gamma-encoded sRGB, unrounded) and the WCAG 2 ratio between them.
@Suite("Layer stacks vs composite_layers.jsonl")
struct CompositeLayersTests {
    static func layer(_ hex: String) throws -> Compositing.Layer {
        let c = DisplayColor(try CSSColorParser.parse(hex))
        return Compositing.Layer(color: c.srgb, alpha: c.alpha)
    }

    @Test("every row: effective colors within 1e-6 per channel, WCAG ratio within 1e-6")
    func everyRow() throws {
        let rows = try FixtureLoader.jsonLines("composite_layers.jsonl", expectedCount: 150)
        var stacksOf = [Int: Int]()
        for row in rows {
            let page = DisplayColor(try CSSColorParser.parse(try #require(row["background"] as? String)))
            #expect(page.alpha == 1)
            let hexes = try #require(row["layers_bottom_to_top"] as? [String])
            let layers = try hexes.map(Self.layer)
            let text = try Self.layer(try #require(row["foreground"] as? String))
            let wantBg = try #require(FixtureLoader.doubles(row["effective_background_srgb"]))
            let wantFg = try #require(FixtureLoader.doubles(row["effective_foreground_srgb"]))
            let wantRatio = try #require(FixtureLoader.double(row["wcag2"]))
            stacksOf[hexes.count, default: 0] += 1

            let bg = Compositing.flatten(page: page.srgb, layers: layers)
            let fg = Compositing.flatten(page: page.srgb, layers: layers, top: text)
            let label = "\(row["background"]!) \(hexes) text \(row["foreground"]!)"
            for i in 0..<3 {
                #expect(abs(bg[i] - wantBg[i]) <= 1e-6, "\(label) background[\(i)] \(bg[i]) vs \(wantBg[i])")
                #expect(abs(fg[i] - wantFg[i]) <= 1e-6, "\(label) foreground[\(i)] \(fg[i]) vs \(wantFg[i])")
            }
            let ratio = ContrastMeasurement(foreground: DisplayColor(srgb: fg), background: DisplayColor(srgb: bg)).ratio
            #expect(abs(ratio - wantRatio) <= 1e-6, "\(label) ratio \(ratio) vs \(wantRatio)")
        }
        // The file covers every stack depth it promises.
        #expect(Set(stacksOf.keys) == [2, 3, 4, 5], "\(stacksOf)")
    }
}
