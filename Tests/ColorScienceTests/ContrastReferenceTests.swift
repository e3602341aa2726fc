import ColorScience
import Foundation
import TestSupport
import Testing

/// Reference vectors: Tests/Fixtures/contrast.jsonl (WCAG formula, apca-w3 0.1.9, color.js 0.7)
/// and composite.jsonl (ColorAide 8.13.1), plus the math, compositing and rounding field cases.
struct ContrastReferenceTests {
    /// The rows of a fixture; a missing or unreadable file fails the test that asked.
    static func rows(_ name: String) -> [[String: Any]] {
        do {
            return try FixtureLoader.jsonLines(name)
        } catch {
            Issue.record("fixture \(name): \(error)")
            return []
        }
    }

    static func fieldCase(_ id: String) -> [String: Any] {
        rows("field_cases.jsonl").first { ($0["id"] as? String) == id } ?? [:]
    }

    func display(_ s: String) throws -> DisplayColor {
        DisplayColor(try CSSColorParser.parse(s))
    }

    func ratio(_ a: String, _ b: String) throws -> Double {
        ContrastMeasurement(foreground: try display(a), background: try display(b)).ratio
    }

    @Test func contrastReferenceRows() throws {
        let rows = Self.rows("contrast.jsonl")
        #expect(rows.count == 309)
        for row in rows {
            let fgHex = row["foreground"] as! String, bgHex = row["background"] as! String
            let fg = try display(fgHex), bg = try display(bgHex)
            let m = ContrastMeasurement(foreground: fg, background: bg)
            let label = "\(fgHex) on \(bgHex)"
            #expect(abs(m.ratio - (row["wcag2"] as! Double)) < 1e-6, "\(label) ratio \(m.ratio)")
            #expect(abs(fg.relativeLuminance - (row["relative_luminance_foreground"] as! Double)) < 1e-9, "\(label)")
            #expect(abs(bg.relativeLuminance - (row["relative_luminance_background"] as! Double)) < 1e-9, "\(label)")
            #expect(abs(m.apcaLc - (row["apca_lc"] as! Double)) < 1e-6, "\(label) Lc \(m.apcaLc)")
            let lstar = PerceptualContrast.lstarDifference(fg.srgb, bg.srgb)
            #expect(abs(lstar - (row["lstar_delta"] as! Double)) < 1e-6, "\(label) L* \(lstar)")
            let weber = PerceptualContrast.weber(fg.srgb, bg.srgb), w = row["weber"] as! Double
            #expect(abs(weber - w) <= 1e-6 * max(1, w), "\(label) Weber \(weber)")
            let michelson = PerceptualContrast.michelson(fg.srgb, bg.srgb)
            #expect(abs(michelson - (row["michelson"] as! Double)) < 1e-6, "\(label) Michelson \(michelson)")
        }
    }

    @Test func compositeReferenceRows() throws {
        let rows = Self.rows("composite.jsonl")
        #expect(rows.count == 150)
        for row in rows {
            let fg = try CSSColorParser.parse(row["foreground"] as! String)
            let bg = try CSSColorParser.parse(row["background"] as! String)
            let out = Compositing.sourceOver(fg.coordinates, alpha: fg.alpha, overOpaque: bg.coordinates)
            let want = row["result_srgb"] as! [Double]
            for i in 0..<3 {
                #expect(abs(out[i] - want[i]) < 1e-9, "\(row["foreground"]!) over \(row["background"]!)")
            }
        }
    }

    @Test func ratioIsSymmetricAndInRange() throws {
        // C06: the darker color must never end up in the numerator.
        let a = try ratio("rgb(0, 198, 0)", "rgb(0, 0, 198)")
        let b = try ratio("rgb(0, 0, 198)", "rgb(0, 198, 0)")
        #expect(a == b)
        #expect(abs(a - 5.0002) < 1e-4)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let c1 = SIMD3(Double.random(in: -0.2...1.2, using: &rng), Double.random(in: -0.2...1.2, using: &rng), Double.random(in: -0.2...1.2, using: &rng))
            let c2 = SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))
            let r1 = WCAG.contrastRatio(WCAG.relativeLuminance(c1), WCAG.relativeLuminance(c2))
            let r2 = WCAG.contrastRatio(WCAG.relativeLuminance(c2), WCAG.relativeLuminance(c1))
            #expect(r1 == r2 && r1 >= 1 && r1 <= 21)
        }
    }

    @Test func extremesAndIdenticalColors() throws {
        // C07
        #expect(try ratio("#000000", "#ffffff") == 21)
        #expect(try ratio("#ffffff", "#000000") == 21)
        #expect(try ratio("red", "red") == 1)
        #expect(abs(try ratio("#ff0000", "#ff0011") - 1.0015) < 1e-4)
        let m = ContrastMeasurement(foreground: try display("red"), background: try display("red"))
        #expect(m.apcaLc == 0 && m.apcaLc.sign == .plus)
        // Identical colors have no contrast in any metric, black on black included (Weber's
        // 50000 cap is for a black against anything lighter).
        let black = SIMD3<Double>(0, 0, 0), white = SIMD3<Double>(1, 1, 1)
        #expect(PerceptualContrast.weber(black, black) == 0)
        #expect(PerceptualContrast.weber(white, white) == 0)
        #expect(PerceptualContrast.weber(black, white) == 50000)
        #expect(PerceptualContrast.michelson(black, black) == 0)
    }

    @Test func linearizationThreshold() throws {
        // C05: 0.04045, not 0.03928; only float input can tell them apart.
        #expect(abs(WCAG.linearize(0.04) - 0.0030959752321981426) < 1e-15)
        let l = try display("rgb(4% 4% 4%)").relativeLuminance
        #expect(abs(l - 0.0030959752321981426) < 1e-15)
    }

    @Test func gammaDecodeIsApplied() throws {
        // C34: #808080 has luminance 0.2159, not 0.502.
        let d = try display("#808080")
        #expect(abs(d.relativeLuminance - 0.2159) < 1e-4)
        #expect(abs(try ratio("#808080", "#ffffff") - 3.9494) < 1e-4)
    }

    /// |Lc| in reports is floored to tenths as ratios are to hundredths: #007e40 on white is
    /// Lc 74.997, which a token audit's text report had shown as "Lc 75.0" beside "needs Lc 75"
    /// and FAIL.
    @Test func flooredLcText() throws {
        let (f, b) = (try display("#007e40"), try display("#ffffff"))
        let lc = APCA.lc(text: f.srgb, background: b.srgb)
        #expect(lc > 74.99 && lc < 75, "\(lc)")
        #expect(APCA.magnitudeText(lc) == "74.9")
        #expect(APCA.magnitudeText(-60.04) == "60" && APCA.magnitudeText(75) == "75" && APCA.magnitudeText(.nan) == "0")
        let target = ContrastTarget.apcaLc(75)
        let m = ContrastMeasurement(foreground: f, background: b)
        #expect(!target.isMet(by: m) && target.measuredText(m) == "Lc 74.9" && target.minimumText == "Lc 75")
        #expect(ContrastTarget.ratio(4.5).minimumText == "4.5:1" && ContrastTarget.ratio(4.5).measuredText(m) == "\(WCAG.ratioText(m.ratio)):1")
    }

    @Test func flooredRatioText() throws {
        // C01, C03: the shown number never passes when the real one fails.
        let r777 = try ratio("#777777", "#ffffff")
        #expect(abs(r777 - 4.4781) < 1e-4)
        #expect(WCAG.ratioText(r777) == "4.47")
        #expect(r777 < WCAG.aaNormalText && r777 >= WCAG.aaLargeText)
        let r = try ratio("#ffffff", "#008a2c")
        #expect(abs(r - 4.4951) < 1e-4)
        #expect(WCAG.ratioText(r) == "4.49")
        #expect(abs(try ratio("#ffffff", "#00892c") - 4.5507) < 1e-4)
        #expect(WCAG.ratioText(21) == "21.00")
        #expect(WCAG.ratioText(4.5) == "4.50")
        #expect(WCAG.ratioText(1) == "1.00")
        #expect(WCAG.ratioText(1.0999) == "1.09")
        #expect(WCAG.ratioText(12.3456) == "12.34")
        // Just below a threshold never shows the threshold: the verdict compares the unrounded
        // ratio, and the text must not read as a pass next to a fail (C01's rule).
        for (threshold, text) in [(4.5, "4.49"), (3.0, "2.99"), (7.0, "6.99")] {
            let below = threshold.nextDown
            #expect(below < threshold && WCAG.ratioText(below) == text, "\(below)")
            #expect(WCAG.ratioText(threshold) == String(format: "%.2f", threshold))
        }
        #expect(WCAG.ratioText(4.499999999999999) == "4.49")
        #expect(WCAG.ratioText(4.569999999999999) == "4.57")
        // Every shown value of 0.00…99.99 (the text is written digit by digit), and beyond.
        for h in 0..<10_000 {
            let text = WCAG.ratioText((Double(h) + 0.5) / 100)
            #expect(text == String(format: "%d.%02d", h / 100, h % 100), "\(h)")
            if text != String(format: "%d.%02d", h / 100, h % 100) { break }
        }
        #expect(WCAG.ratioText(100) == "100.00" && WCAG.ratioText(123.456) == "123.45")
    }

    @Test func largeTextThresholds() {
        // C09: 1pt = 4/3 px; 14pt bold and 18pt are large; px is never floored first.
        #expect(WCAG.isLargeText(points: 14, weight: 700))
        #expect(WCAG.isLargeText(points: 18.6667 * 0.75, weight: 700))
        #expect(WCAG.isLargeText(points: (56.0 / 3) * 0.75, weight: 700))
        #expect(WCAG.isLargeText(points: 18, weight: 400))
        #expect(!WCAG.isLargeText(points: 18 * 0.75, weight: 700))
        #expect(!WCAG.isLargeText(points: 18.66 * 0.75, weight: 700))
        #expect(!WCAG.isLargeText(points: 17.99, weight: 400))
        #expect(!WCAG.isLargeText(points: 14, weight: 600))
    }

    @Test func transparentAndTranslucentText() throws {
        // C11: fully transparent text is invisible: 1:1, never 21:1.
        let white = try display("#ffffff")
        #expect(ContrastMeasurement(foreground: try display("rgba(0, 0, 0, 0)"), background: white).ratio == 1)
        #expect(abs(ContrastMeasurement(foreground: try display("rgba(0, 0, 0, 0.000001)"), background: white).ratio - 1) < 1e-4)
        // C12: rgba(0,102,161,.5) on white is 2.2755, not 6.149.
        let m = ContrastMeasurement(foreground: try display("rgba(0, 102, 161, 0.5)"), background: white)
        #expect(abs(m.ratio - 2.2755) < 1e-4)
        let rgb = m.effectiveForeground * 255
        #expect(abs(rgb.x - 127.5) < 1e-9 && abs(rgb.y - 178.5) < 1e-9 && abs(rgb.z - 208) < 1e-9)
        // The effective color is exactly (127.5, 178.5, 208). Rounded half up, as C22 and C24 require
        // (42.5 -> 0x2b), that is #80b3d0. C12's "#80b2d0" rounds 178.5 down: float error in the tool
        // that produced it (0.7 * 255 = 178.49999999999997). Kept visible as a known issue.
        let hex = Color.srgb(m.effectiveForeground.x, m.effectiveForeground.y, m.effectiveForeground.z).hex
        #expect(hex == "#80b3d0")
        withKnownIssue("field case C12 expects #80b2d0, which rounds the exact 178.5 down") {
            #expect(hex == "#80b2d0")
        }
    }

    /// Translucent text on a translucent background with no backdrop: the worst case lies
    /// between 8-bit gray levels. rgba(255,0,0,0.5) on rgba(0,0,255,0.3) reached 1.00283 at gray
    /// 119 of 255; the composites' luminances cross at 119.46, where the ratio is 1 (hostile
    /// test, stop 14). Without a crossing the refinement never does worse than the samples.
    @Test func translucentOnTranslucentFindsTheCrossingBetweenGrayLevels() throws {
        let fg = DisplayColor(try CSSColorParser.parse("rgba(255,0,0,0.5)"))
        let bg = DisplayColor(try CSSColorParser.parse("rgba(0,0,255,0.3)"))
        let m = ContrastMeasurement(foreground: fg, background: bg)
        #expect(m.ratio < 1.000001, "\(m.ratio)")
        #expect(abs((m.worstBackdrop ?? 0) * 255 - 119.46) < 0.05, "\(String(describing: m.worstBackdrop))")
        #expect(m.ratioRange.map { $0.min == m.ratio } == true)
        // No crossing (dark translucent text on a light translucent background): at most the
        // best sampled level, and still the composite of the level it names.
        let text = DisplayColor(try CSSColorParser.parse("rgba(0,0,0,0.8)"))
        let card = DisplayColor(try CSSColorParser.parse("rgba(255,255,255,0.9)"))
        let n = ContrastMeasurement(foreground: text, background: card)
        let sampled = (0...255).map { level -> Double in
            let g = SIMD3<Double>(repeating: Double(level) / 255)
            return ContrastMeasurement(foreground: text, background: card, backdrop: g).ratio
        }.min()!
        #expect(n.ratio <= sampled && n.ratio > 1, "\(n.ratio) vs \(sampled)")
        let backdrop = SIMD3<Double>(repeating: n.worstBackdrop ?? -1)
        #expect(abs(ContrastMeasurement(foreground: text, background: card, backdrop: backdrop).ratio - n.ratio) < 1e-12)
    }

    @Test func groupOpacityAppliesOnce() throws {
        // C13: white text in an opacity .65 element with #00633d background on a white page.
        let page = SIMD3<Double>(repeating: 1)
        let layer = Compositing.Layer(color: try display("#00633d").srgb, opacity: 0.65)
        let text = Compositing.Layer(color: SIMD3(repeating: 1))
        let bg = Compositing.flatten(page: page, layers: [layer])
        let fg = Compositing.flatten(page: page, layers: [layer], top: text)
        let bg255 = bg * 255
        #expect(abs(bg255.x - 89.25) < 1e-9 && abs(bg255.y - 153.6) < 0.01 && abs(bg255.z - 128.9) < 0.01)
        #expect(Color.srgb(bg.x, bg.y, bg.z).hex == "#599a81")
        #expect(fg == SIMD3(repeating: 1))
        #expect(abs(ContrastMeasurement.flattened(foreground: fg, background: bg).ratio - 3.3125) < 1e-4)
    }

    @Test func layerStackFlattens() throws {
        // C15: 85%-black text in a 20%-white card on a 50%-black overlay over white.
        let page = SIMD3<Double>(repeating: 1)
        let layers = [Compositing.Layer(color: SIMD3(repeating: 0), alpha: 0.5),
                      Compositing.Layer(color: SIMD3(repeating: 1), alpha: 0.2)]
        let text = Compositing.Layer(color: SIMD3(repeating: 0), alpha: 0.85)
        let bg = Compositing.flatten(page: page, layers: layers)
        let fg = Compositing.flatten(page: page, layers: layers, top: text)
        #expect(Color.srgb(bg.x, bg.y, bg.z).hex == "#999999")
        #expect(abs(fg.x * 255 - 22.95) < 1e-9)
        let r = ContrastMeasurement.flattened(foreground: fg, background: bg).ratio
        #expect(abs(r - 6.2956) < 1e-4)
        #expect(r < WCAG.aaaNormalText && r >= WCAG.aaNormalText)
        // A fully transparent layer changes nothing.
        let clear = Compositing.Layer(color: SIMD3(0.3, 0.2, 0.9), alpha: 0)
        #expect(Compositing.flatten(page: page, layers: layers + [clear], top: text) == fg)
    }

    @Test func translucentBackgroundGivesARange() throws {
        // C18: white on rgba(0,0,0,.5) with no backdrop: 3.9767 (over white) to 21 (over black).
        let m = ContrastMeasurement(foreground: try display("#ffffff"), background: try display("rgba(0, 0, 0, 0.5)"))
        #expect(abs(m.ratioRange!.min - 3.9767) < 1e-4)
        #expect(abs(m.ratioRange!.max - 21) < 1e-9)
        #expect(m.ratio == m.ratioRange!.min)
        #expect(m.worstBackdrop == 1)
        // When the text's luminance lies inside the background's range, some backdrop gives 1:1.
        let gray = ContrastMeasurement(foreground: try display("#777777"), background: try display("rgba(0, 0, 0, 0.3)"))
        #expect(gray.ratio == 1)
        // With a known backdrop there is one value.
        let over = ContrastMeasurement(foreground: try display("#ffffff"), background: try display("rgba(0, 0, 0, 0.5)"), backdrop: SIMD3(repeating: 1))
        #expect(over.ratioRange == nil && abs(over.ratio - 3.9767) < 1e-4)
    }

    @Test func outOfGamutStaysInRange() throws {
        // C32: gamut-map before luminance; ratios stay in [1, 21].
        #expect(abs(try ratio("color(srgb 2 2 2)", "black") - 21) < 1e-9)
        #expect(abs(try ratio("color(srgb -0.5 -0.5 -0.5)", "white") - 21) < 1e-9)
        #expect(abs(try ratio("rgb(300, 0, 0)", "white") - 3.9985) < 1e-4)
        #expect(abs(try ratio("rgb(-20 0 0)", "white") - 21) < 1e-9)
        #expect(try display("color(display-p3 1 0 0)").wasGamutMapped)
        #expect(!(try display("#ff0000").wasGamutMapped))
    }

    @Test func apcaPolarityVectors() throws {
        // C35 and C38.
        let pairs = [("#000", "#fff"), ("#fff", "#000"), ("#888", "#fff"), ("#fff", "#888"), ("#000", "#aaa"),
                     ("#aaa", "#000"), ("#123", "#def"), ("#def", "#123"), ("#123", "#444"), ("#444", "#123"),
                     ("#0006", "#fff"), ("#fff5f5", "#ffffff"), ("#000000", "#fff5f5"), ("#777777", "#777777")]
        let want = [106.0407, -107.8847, 63.0565, -68.5415, 58.1463, -56.2411, 91.6683, -93.0677, 8.3233, -7.5269,
                    54.6218, 0.0, 101.3636, 0.0]
        for (i, (t, b)) in pairs.enumerated() {
            let lc = ContrastMeasurement(foreground: try display(t), background: try display(b)).apcaLc
            #expect(abs(lc - want[i]) < 1e-4, "\(t) on \(b): \(lc)")
            #expect(!(lc == 0 && lc.sign == .minus))
        }
    }

    @Test func readableCandidateRatios() throws {
        // C41 and C46: numbers a candidate picker must see.
        let bg = try display("#db335d")
        #expect(abs(bg.relativeLuminance - 0.1822) < 1e-4)
        #expect(abs(try ratio("#222222", "#db335d") - 3.5181) < 1e-4)
        #expect(abs(try ratio("#ffffff", "#db335d") - 4.5223) < 1e-4)
        #expect(abs(try ratio("#000000", "#db335d") - 4.6436) < 1e-4)
        let r = try ratio("#ffffff", "#0066cc")
        #expect(abs(r - 5.5666) < 1e-4)
        #expect(r >= WCAG.aaNormalText && r < WCAG.aaaNormalText && r >= WCAG.aaaLargeText)
    }
}

/// Properties that must hold for any colors.
struct ContrastPropertyTests {
    @Test func apcaSignFlipsWithPolarity() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))
            let b = SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))
            let ab = APCA.lc(text: a, background: b), ba = APCA.lc(text: b, background: a)
            let ya = APCA.screenLuminance(a), yb = APCA.screenLuminance(b)
            if ab != 0 && ba != 0 {
                // Darker text on a lighter background is positive, the swap negative.
                #expect((ab > 0) == (yb > ya) && (ba > 0) == (ya > yb), "\(a) \(b)")
            }
            #expect(ab.isFinite && ab >= -108 && ab <= 106.1)
        }
    }
}

/// The translucent-background range for an opaque foreground uses the two extreme backdrops and
/// the exact crossing checks; it must never report a higher minimum than sampling every gray does.
struct TranslucentBackgroundRangeTests {
    @Test func extremesBoundEveryGrayBackdrop() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let fg = DisplayColor(srgb: SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng)))
            let bg = DisplayColor(srgb: SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng)),
                                  alpha: Double.random(in: 0.05...0.95, using: &rng))
            let m = ContrastMeasurement(foreground: fg, background: bg)
            var lo = Double.infinity, hi = 0.0, minLc = Double.infinity
            for level in 0...255 {
                let s = ContrastMeasurement(foreground: fg, background: bg, backdrop: SIMD3(repeating: Double(level) / 255))
                lo = min(lo, s.ratio); hi = max(hi, s.ratio); minLc = min(minLc, abs(s.apcaLc))
            }
            #expect(m.ratioRange!.min <= lo + 1e-12 && m.ratioRange!.min >= 1)
            #expect(abs(m.ratioRange!.max - hi) < 1e-12)
            #expect(abs(m.apcaLc) <= minLc + 1e-9)
            // The worst case is self-consistent: over the backdrop it names, the ratio is the one stated.
            let again = ContrastMeasurement(foreground: fg, background: bg, backdrop: SIMD3(repeating: m.worstBackdrop!))
            #expect(abs(again.ratio - m.ratio) < 1e-9, "\(fg) on \(bg): \(again.ratio) vs \(m.ratio)")
            #expect(again.effectiveBackground == m.effectiveBackground)
        }
    }

    /// Found by a hostile test: `#777` on `rgba(0,0,0,0.5)` reported 1:1 but named the white
    /// backdrop (1.126 there). The crossing is gray 238/255 (0.5·g = 119/255), so the effective
    /// background is `#777777` itself.
    @Test func crossingIsTheWorstBackdrop() {
        let m = ContrastMeasurement(foreground: DisplayColor(srgb: SIMD3(repeating: 119.0 / 255)),
                                    background: DisplayColor(srgb: SIMD3(repeating: 0), alpha: 0.5))
        #expect(m.ratio == 1)
        #expect(abs(m.worstBackdrop! - 238.0 / 255) < 1e-12)
        #expect(abs(m.effectiveBackground.x - 119.0 / 255) < 1e-12)
        // #ff0000 on rgba(0,0,255,0.3): brute force puts the worst gray near 170.7/255.
        let red = ContrastMeasurement(foreground: DisplayColor(srgb: SIMD3(1, 0, 0)),
                                      background: DisplayColor(srgb: SIMD3(0, 0, 1), alpha: 0.3))
        #expect(red.ratio == 1)
        #expect(abs(red.worstBackdrop! * 255 - 170.7) < 0.1)
        #expect(abs(red.backgroundLuminance - red.foregroundLuminance) < 1e-12)
    }
}
