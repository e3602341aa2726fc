import ColorScience
import ImageProcessing
import Testing

@Suite struct DimRuleTests {
    let black = SIMD3<Double>(0, 0, 0)
    let elevated = SIMD3<Double>(28, 28, 30) / 255

    func stats(border: Double, area: Double, white: Double?) -> LuminanceStatistics {
        LuminanceStatistics(pixelCount: 100, meanLuminance: 0.5, medianLuminance: 0.5, percentile99Luminance: 1,
                            peakLuminance: 1, nearWhiteShare: area, borderWidth: 1, borderNearWhiteShare: border,
                            whiteLevel: white)
    }

    /// The target gray sits exactly at Lc −90 on the background.
    @Test func targetGrayIsAtTheLcCeiling() throws {
        for bg in [black, elevated] {
            let g = try #require(DimRule().targetGray(on: bg))
            #expect(abs(APCA.lc(text: SIMD3(repeating: g), background: bg) + 90) < 1e-6)
        }
        // Black: #E3E3E3 (0.8916), relative luminance 0.771.
        let g = try #require(DimRule().targetGray(on: black))
        #expect(abs(g - 0.8916) < 5e-4)
        #expect(abs(WCAG.linearize(g) - 0.771) < 1e-3)
    }

    @Test func pureWhiteBackgroundOnBlack() {
        let r = DimRule().recommend(stats(border: 1, area: 0.8, white: 1), on: black)
        #expect(r.whiteBackground && r.shouldDim)
        #expect(abs(r.factor - 0.771) < 1e-3)
        #expect(abs(r.dimmedWhiteLevel - 0.771) < 1e-3)
        #expect(abs(r.cssBrightness - 0.8916) < 1e-3)
        #expect(abs(r.blackOverlayAlpha - 0.1084) < 1e-3)
        #expect(abs(r.apcaLc(r.dimmedWhiteLevel) + 90) < 0.01)
        #expect(abs(r.wcagRatio(1) - 21) < 1e-9)
    }

    /// A lighter background needs less dimming.
    @Test func elevatedBackgroundDimsLess() {
        let base = DimRule().recommend(stats(border: 1, area: 1, white: 1), on: black)
        let up = DimRule().recommend(stats(border: 1, area: 1, white: 1), on: elevated)
        #expect(up.factor > base.factor && up.factor < 1)
    }

    /// An off-white background (#F2F2F7-like, Y ≈ 0.89) needs less than pure white.
    @Test func offWhiteNeedsLess() {
        let r = DimRule().recommend(stats(border: 0.9, area: 0.7, white: 0.89), on: black)
        #expect(abs(r.factor - 0.771 / 0.89) < 2e-3)
        #expect(abs(r.dimmedWhiteLevel - 0.771) < 1e-3)
    }

    @Test func noWhiteBackgroundNoDim() {
        let r = DimRule().recommend(stats(border: 0.2, area: 0.1, white: 0.95), on: black)
        #expect(!r.whiteBackground && r.factor == 1 && !r.shouldDim)
        #expect(r.cssBrightness == 1 && r.blackOverlayAlpha == 0)
    }

    @Test func aLargeWhiteAreaCountsWithoutAWhiteBorder() {
        #expect(DimRule.hasWhiteBackground(stats(border: 0, area: 0.6, white: 1)))
    }

    /// On a mid-gray background white is below Lc 90 already: nothing to do.
    @Test func lightBackgroundNeedsNothing() {
        let gray = SIMD3<Double>(repeating: 0.5)
        #expect(DimRule().targetGray(on: gray) == nil)
        #expect(DimRule().recommend(stats(border: 1, area: 1, white: 1), on: gray).factor == 1)
    }

    @Test func lowerTargetDimsMore() {
        let r = DimRule(targetLc: 75).recommend(stats(border: 1, area: 1, white: 1), on: black)
        #expect(r.factor < 0.7)
    }
}

/// On a mid-gray background the target lies just below white: the reason shows the change
/// (hostile test: "brought down to 1.000" on #575757).
@Test func reasonShowsASmallDim() {
    let stats = LuminanceStatistics(pixelCount: 100, meanLuminance: 0.9, medianLuminance: 1, percentile99Luminance: 1,
                                    peakLuminance: 1, nearWhiteShare: 0.9, borderWidth: 1, borderNearWhiteShare: 1, whiteLevel: 1)
    let r = DimRule().recommend(stats, on: SIMD3(repeating: 0x57 / 255.0))
    #expect(r.factor < 1 && r.factor > 0.99)
    #expect(r.reason.contains(String(format: "(factor %.6g)", r.factor)) && !r.reason.contains("factor 1)"), "\(r.reason)")
}

/// Found by a hostile test: the histogram percentiles were bin centers, so a flat #202020 image
/// had median and p99 0.0145 above its peak 0.014444, and a black image 0.0005.
@Test func percentilesStayWithinTheLuminancesSeen() {
    for level in [0, 0x20, 0x80, 0xfe, 0xff] {
        let rgb = [UInt8](repeating: UInt8(level), count: 4 * 3 * 3)
        let s = LuminanceStatistics.measure(rgb: rgb, width: 4, height: 3)
        let linear = WCAG.linearize(Double(level) / 255)
        let exact = 0.2126 * linear + 0.7152 * linear + 0.0722 * linear  // as the measurement sums it
        #expect(s.peakLuminance == exact)
        #expect(s.medianLuminance == exact, "level \(level)")
        #expect(s.percentile99Luminance == exact, "level \(level)")
    }
    // Two levels: the median lies in the darker one's bin, within ±0.0005 and within the range seen.
    let mixed = [UInt8](repeating: 0x20, count: 6 * 3) + [UInt8](repeating: 0xff, count: 5 * 3)
    let s = LuminanceStatistics.measure(rgb: mixed, width: 11, height: 1)
    #expect(abs(s.medianLuminance - WCAG.linearize(0x20 / 255)) <= 0.0005)
    #expect(s.percentile99Luminance == 1)
}
