import ColorScience
import ImageProcessing
import Testing

/// Synthetic images whose answers are computed by hand.
@Suite struct TextContrastTests {
    let white = SIMD3<Double>(1, 1, 1)
    let black = SIMD3<Double>(0, 0, 0)
    let aa = ContrastTarget.ratio(4.5)

    func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> UInt8) -> RGBImage {
        var p: [UInt8] = []
        for y in 0..<height { for x in 0..<width { let v = pixel(x, y); p += [v, v, v] } }
        return RGBImage(width: width, height: height, pixels: p)
    }

    /// Counts calls from a `@Sendable` closure (the fix searches' cancellation check).
    final class Calls: @unchecked Sendable { var count = 0 }

    /// Every pixel the search sample takes is black, every other white (hostile pass: a 50 KB
    /// PNG of 2000 × 2000 took 15 s, stepping the scrim's alpha one whole-image pass at a time
    /// from the sample's answer 0 up to 0.54). The fix is still the lightest that passes on
    /// every pixel (brute force below), found in a few whole-image passes.
    @Test func aSampleOfBlackPixelsInAWhiteImageCostsFewPasses() throws {
        // 400 × 400 = 160,000 pixels: the sample takes every 3rd (2 shares a factor with 400).
        let img = image(400, 400) { x, y in (y * 400 + x) % 3 == 0 ? 0 : 255 }
        var tables = TextContrast.Tables(text: white, target: aa)
        let calls = Calls()
        tables.isCancelled = { calls.count += 1; return false }
        let fix = try #require(TextContrast.scrim(img, tables: tables, color: black))
        guard case .overlay(_, let alpha) = fix.adjustment else { Issue.record("\(fix.adjustment)"); return }
        let plain = TextContrast.Tables(text: white, target: aa)
        let lightest = (0...100).map { Double($0) / 100 }.first {
            TextContrast.measure(img, tables: plain, adjustment: .overlay(color: black, alpha: $0)).passes
        }
        #expect(alpha == lightest && alpha > 0.5 && fix.after.passes, "\(alpha) against \(String(describing: lightest))")
        #expect(calls.count <= 2 + 8 + 1, "\(calls.count) whole-image passes")
        // Cancelled: nothing is searched, nothing found.
        tables.isCancelled = { true }
        #expect(TextContrast.scrim(img, tables: tables, color: black) == nil)
    }

    /// Half black, half white under white text: exactly half the pixels fail (1:1 on white),
    /// the 5th percentile is 1:1, the median nearest-rank is 1:1, the maximum 21:1.
    @Test func halfBlackHalfWhite() {
        let img = image(64, 32) { x, _ in x < 32 ? 0 : 255 }
        let d = TextContrast.measure(img, text: white, target: aa)
        #expect(d.pixelCount == 2048)
        #expect(d.wcag.failingShare == 0.5)
        #expect(d.wcag.minimum == 1)
        #expect(d.wcag.percentile5 == 1)
        #expect(d.wcag.median == 1)
        #expect(d.wcag.maximum == 21)
        #expect(!d.passes)
        #expect(d.apca.failingShare == nil)
        // The worst 16×16 block is white: on the right half, mean 1:1.
        #expect(d.worstBlock.x >= 32 && d.worstBlock.mean == 1)
        // A black scrim: the white half becomes gray c·(1−a); the lightest alpha giving ≥ 4.5:1
        // with white text is the first 0.01 step where the 8-bit gray has luminance ≤ 1.05/4.5 − 0.05.
        let fix = TextContrast.scrim(img, text: white, target: aa, color: black)!
        guard case .overlay(_, let a) = fix.adjustment else { Issue.record("not an overlay"); return }
        var expected = 0.0
        for step in 0...100 {
            let alpha = Double(step) / 100
            let g = (255 * (1 - alpha)).rounded() / 255
            if WCAG.contrastRatio(1, WCAG.linearize(g)) >= 4.5 { expected = alpha; break }
        }
        #expect(a == expected)
        #expect(fix.after.passes && fix.after.wcag.percentile5 >= 4.5)
        // brightness(1 − a) is the same darkening.
        let b = TextContrast.brightness(img, text: white, target: aa)!
        #expect(b.adjustment == .brightness(Double(100 - Int((expected * 100).rounded())) / 100))
        #expect(b.after.passes)
        // The nearest passing text color of white's hue (gray) on the p5 pixel (white) is
        // #767676, the lightest gray with 4.5:1 on white (4.54:1); measured again it also has
        // 4.62:1 on the black half, so every pixel passes.
        let t = TextContrast.textColor(img, text: white, target: aa, initial: d)
        #expect(t?.textColor == SIMD3(repeating: 118.0 / 255))
        #expect(t?.after.passes == true && (t?.after.wcag.minimum ?? 0) >= 4.5)
    }

    /// A dark strip narrower than a block at the right edge (40 × 20 white, columns 32–39 black,
    /// black text): the tiles at 0 and 16 are all white (21:1), and the strip lay in no
    /// candidate (a new user's pass). The block flush with the right edge, x 24–39, is half
    /// black: mean (21 + 1) / 2 = 11; flush with the bottom edge too (y 4–19).
    @Test func worstBlockReachesTheRightEdge() {
        let img = image(40, 20) { x, _ in x >= 32 ? 0 : 255 }
        let d = TextContrast.measure(img, text: black, target: aa)
        let w = d.worstBlock
        #expect(w.x == 24 && w.y == 0 && w.width == 16 && w.height == 16 && w.mean == 11, "\(w)")
        // The same strip at the bottom edge.
        let low = TextContrast.measure(image(20, 40) { _, y in y >= 32 ? 0 : 255 }, text: black, target: aa)
        let b = low.worstBlock
        #expect(b.x == 0 && b.y == 24 && b.width == 16 && b.height == 16 && b.mean == 11, "\(b)")
    }

    /// A region narrower than a block (a hostile pass: a 1 × 40 strip reported y 16–31, not the
    /// darker block flush with its bottom edge). One column, white at rows 0–31 and black at
    /// 32–39, black text: the tiles at y 0 and 16 are white (21:1); the block flush with the
    /// bottom edge, y 24–39, 1 wide, is half black: mean 11. The same strip lying down.
    @Test func worstBlockOfAThinRegionReachesItsEnd() {
        let tall = TextContrast.measure(image(1, 40) { _, y in y >= 32 ? 0 : 255 }, text: black, target: aa).worstBlock
        #expect(tall.x == 0 && tall.y == 24 && tall.width == 1 && tall.height == 16 && tall.mean == 11, "\(tall)")
        let wide = TextContrast.measure(image(40, 1) { x, _ in x >= 32 ? 0 : 255 }, text: black, target: aa).worstBlock
        #expect(wide.x == 24 && wide.y == 0 && wide.width == 16 && wide.height == 1 && wide.mean == 11, "\(wide)")
        // Smaller than a block both ways: the region is its one block.
        let small = TextContrast.measure(image(10, 5) { x, _ in x >= 5 ? 0 : 255 }, text: black, target: aa).worstBlock
        #expect(small.x == 0 && small.y == 0 && small.width == 10 && small.height == 5 && small.mean == 11, "\(small)")
    }

    /// A horizontal gray gradient 0…255 (one column per code) under black text: the minimum is
    /// 1:1 on the black column, the 5th percentile is the 13th column (ceil(0.05·256) = 13 →
    /// code 12), the median column 128 (code 127).
    @Test func grayGradientMinimumIsKnown() {
        let img = image(256, 4) { x, _ in UInt8(x) }
        let d = TextContrast.measure(img, text: black, target: aa)
        func ratio(_ code: Int) -> Double { WCAG.contrastRatio(0, WCAG.linearize(Double(code) / 255)) }
        #expect(d.wcag.minimum == 1)
        #expect(abs(d.wcag.percentile5 - ratio(12)) < 5e-4)
        #expect(abs(d.wcag.median - ratio(127)) < 5e-4)
        #expect(abs(d.wcag.maximum - 21) < 1e-9)
        // Failing: codes whose ratio with black is below 4.5.
        let failing = (0...255).filter { ratio($0) < 4.5 }.count
        #expect(abs(d.wcag.failingShare! - Double(failing) / 256) < 1e-12)
        #expect(d.worstBlock.x == 0)
        #expect(d.wcag.percentile5Pixel == SIMD3(repeating: 12.0 / 255))
    }

    /// Why the 5th percentile: a white image with 1% black noise pixels under black text. The
    /// minimum (1:1) fails; the 5th percentile (21:1) passes, and so does every 16×16 block's mean.
    @Test func noisePixelsDoNotDecide() {
        var n = 0
        let img = image(100, 100) { x, y in
            // 100 isolated black pixels on a grid: 1% of the image.
            if x % 10 == 3 && y % 10 == 7 { n += 1; return 0 }
            return 255
        }
        let d = TextContrast.measure(img, text: black, target: aa)
        #expect(n == 100)
        #expect(d.wcag.minimum == 1)
        #expect(d.wcag.percentile5 == 21)
        #expect(d.passes)
        #expect(d.wcag.failingShare == 0.01)
        #expect(d.worstBlock.mean > 4.5)
    }

    /// The same honesty on an anti-aliased edge: a black image crossed by a thin white line drawn
    /// with anti-aliasing (gray fringe pixels of partial coverage, about 2% of the image) under
    /// white text. The minimum (about 1:1 on the line) would fail the image; the 5th percentile
    /// (black, 21:1) passes, as a reader sees white glyphs over the line too. A white band of 6%
    /// of the rows is not noise: it pulls the 5th percentile down to 1:1 and fails.
    @Test func antiAliasedEdgeDoesNotDecide() {
        // Coverage of the line y = 0.37·x + 20, one pixel thick, per pixel (area-weighted).
        let line = image(100, 100) { x, y in
            let center = 0.37 * (Double(x) + 0.5) + 20
            let coverage = max(0, 1 - abs(Double(y) + 0.5 - center))
            return UInt8((coverage * 255).rounded())
        }
        let d = TextContrast.measure(line, text: white, target: aa)
        let lit = stride(from: 0, to: line.pixels.count, by: 3).filter { line.pixels[$0] > 0 }.count
        #expect(lit > 100 && lit < 300, "the line and its fringe: \(lit) pixels")
        #expect(d.wcag.minimum < 1.2)
        #expect(d.wcag.percentile5 == 21)
        #expect(d.passes)
        let band = image(100, 100) { _, y in y >= 47 && y < 53 ? 255 : 0 }
        let b = TextContrast.measure(band, text: white, target: aa)
        #expect(b.wcag.failingShare == 0.06)
        #expect(b.wcag.percentile5 == 1)
        #expect(!b.passes)
    }

    /// A gradient scrim from the region's edge: the top half black, the bottom half white, white
    /// text, AA. Solid at the bottom edge (`to top`), the white rows get alpha a … 0.7525·a; the
    /// top edge would leave them at most 0.75·a … a/2, the side edges as little as a/2 on a
    /// column of white rows; so the bottom wins. The expected alpha is counted here from the
    /// definition: the first a (steps of 0.01) with fewer than 5% of the pixels under 4.5:1.
    @Test func gradientScrimFromTheBottomEdge() throws {
        let img = image(40, 100) { _, y in y < 50 ? 0 : 255 }
        func failingRows(_ a: Double) -> Int {
            (50..<100).filter { y in
                let line = 99 - y
                let alpha = (a * (1 - (Double(line) + 0.5) / 200) * 255).rounded() / 255
                let g = (255 * (1 - alpha)).rounded() / 255
                return WCAG.contrastRatio(1, WCAG.linearize(g)) < 4.5
            }.count
        }
        // 5% of 4000 pixels is 200 = 5 rows: passing means at most 4 failing rows.
        let expected = try #require((0...100).map { Double($0) / 100 }.first { failingRows($0) < 5 })
        let fix = try #require(TextContrast.gradientScrim(img, text: white, target: aa, color: black))
        #expect(fix.adjustment == .gradientOverlay(color: black, alpha: expected, edge: .bottom))
        #expect(fix.after.passes && fix.after.wcag.percentile5 >= 4.5)
        // Denser at its edge than the lightest solid scrim, which must cover every white row.
        let solid = try #require(TextContrast.scrim(img, text: white, target: aa, color: black))
        guard case .overlay(_, let s) = solid.adjustment else { Issue.record("not an overlay"); return }
        #expect(expected > s)
        // Drawn over the image, the region's rows get the gradient and the rows above the
        // region's far edge continue its fade; with the region the bottom half, the top half
        // (black) stays black, and the bottom row is the densest.
        let drawn = TextContrast.applyScrim(fix.adjustment, to: img, x: 0, y: 50, width: 40, height: 50)
        #expect(drawn.pixels[3 * (99 * 40)] == UInt8((255 * (1 - (expected * (1 - 0.5 / 100) * 255).rounded() / 255)).rounded()))
        #expect(drawn.pixels[3 * (10 * 40)] == 0)
    }

    /// A new user's pass: a gradient scrim solid at the bottom of a band across the top of a
    /// photo drew a hard line across the photo, and its element was only as wide as the region.
    /// The scrim now starts at the image's edge nearest the region, covers the whole width, stays
    /// solid from the image's edge up to the region and fades to 0 beyond it: no hard edge inside
    /// the image.
    @Test func gradientScrimStartsAtTheImagesNearestEdge() {
        // Nearest edge by the region's center, as a fraction of the image; ties keep every edge.
        #expect(ScrimEdge.nearest(x: 0, y: 0, width: 600, height: 100, imageWidth: 600, imageHeight: 400) == [.top])
        #expect(ScrimEdge.nearest(x: 150, y: 240, width: 300, height: 100, imageWidth: 600, imageHeight: 400) == [.bottom])
        // Within a tenth of the image of the nearest: both tried (the lighter wins).
        #expect(ScrimEdge.nearest(x: 40, y: 240, width: 300, height: 100, imageWidth: 600, imageHeight: 400) == [.bottom, .left])
        // Text in the middle: a pixel's move does not flip the edge, every one is tried.
        #expect(ScrimEdge.nearest(x: 200, y: 161, width: 200, height: 80, imageWidth: 600, imageHeight: 400) == ScrimEdge.allCases)
        #expect(ScrimEdge.nearest(x: 500, y: 100, width: 80, height: 200, imageWidth: 600, imageHeight: 400) == [.right])
        #expect(ScrimEdge.nearest(x: 0, y: 0, width: 600, height: 400, imageWidth: 600, imageHeight: 400) == ScrimEdge.allCases)
        let e = ScrimEdge.bottom.element(x: 10, y: 60, width: 50, height: 20, imageWidth: 100, imageHeight: 100)
        #expect(e == (0, 40, 100, 60, 20))
        let t = ScrimEdge.top.element(x: 10, y: 0, width: 50, height: 20, imageWidth: 100, imageHeight: 100)
        #expect(t == (0, 0, 100, 40, 0))
        // Drawn: a mid-gray image, the region x 10..60, y 60..80, the scrim from the bottom edge.
        let gray = image(100, 100) { _, _ in 200 }
        let alpha = 0.5, stored = (0.5 * 255).rounded() / 255
        let drawn = TextContrast.applyScrim(.gradientOverlay(color: black, alpha: alpha, edge: .bottom), to: gray, x: 10, y: 60, width: 50, height: 20)
        func at(_ x: Int, _ y: Int) -> UInt8 { drawn.pixels[3 * (y * 100 + x)] }
        let solid = UInt8((200 * (1 - stored)).rounded())
        // Solid from the image's bottom edge up to the region, across the whole width.
        for y in [80, 90, 99] { for x in [0, 5, 50, 99] { #expect(at(x, y) == solid, "(\(x), \(y)): \(at(x, y))") } }
        // In the region and beyond it, each row as the measurement sees it, across the whole width.
        for y in 40..<80 {
            let line = 79 - y
            let a = (PixelAdjustment.gradientAlpha(alpha, line: line, extent: 20) * 255).rounded() / 255
            let expected = UInt8((200 * (1 - a)).rounded())
            for x in [0, 30, 99] { #expect(at(x, y) == expected, "(\(x), \(y)): \(at(x, y)), expected \(expected)") }
        }
        // Above, where the fade has reached 0: untouched. No row differs from the next by more
        // than one fade step: no hard edge anywhere.
        for y in 0..<40 { #expect(at(50, y) == 200) }
        for y in 0..<99 { #expect(abs(Int(at(50, y)) - Int(at(50, y + 1))) <= 4, "rows \(y), \(y + 1)") }
    }

    /// APCA as the target: white text on black passes Lc 75 everywhere.
    /// A hostile pass: black text on a uniform `#458301` (4.49999993:1, which `/v1/contrast`
    /// fails) passed AA here, from its luminance bin's ratio 4.5001; 40 colors just below 4.5
    /// did. Near every threshold, each color's verdict, failing share and heat-map tint are now
    /// those of the exact pair, alone and together in one image.
    @Test func verdictsNearTheThresholdAreTheExactPairs() {
        let cases: [(SIMD3<Double>, ContrastTarget)] = [(black, aa), (white, aa), (black, .ratio(3)), (white, .ratio(7)),
                                                       (black, .apcaLc(60)), (white, .apcaLc(75))]
        let hostile = SIMD3<Double>(0x45, 0x83, 0x01) / 255
        #expect(WCAG.contrastRatio(0, WCAG.relativeLuminance(hostile)) < 4.5)
        #expect(!TextContrast.measure(RGBImage(width: 4, height: 4, pixels: [UInt8](repeating: 0, count: 48).enumerated().map { [0x45, 0x83, 0x01][$0.offset % 3] }),
                                      text: black, target: aa).passes)
        // The hostile pass's colors whose bins lie on the other side of the threshold.
        for (hex, text, passes) in [([0x7c, 0x72, 0x90], white, true), ([0x45, 0x83, 0x01], black, false), ([0x37, 0x72, 0xd2], black, false)] as [([UInt8], SIMD3<Double>, Bool)] {
            let d = TextContrast.measure(RGBImage(width: 3, height: 2, pixels: Array([[UInt8]](repeating: hex, count: 6).joined())), text: text, target: aa)
            #expect(d.passes == passes, "\(hex)")
            for v in [d.wcag.minimum, d.wcag.percentile5, d.wcag.median, d.wcag.maximum] {
                #expect((v >= 4.5) == passes, "\(hex): \(d.wcag)")
            }
        }
        for (text, target) in cases {
            let tables = TextContrast.Tables(text: text, target: target)
            func exact(_ c: [UInt8]) -> Double {
                let bg = SIMD3(Double(c[0]), Double(c[1]), Double(c[2])) / 255
                return target.metric == .wcag2 ? WCAG.contrastRatio(WCAG.relativeLuminance(text), WCAG.relativeLuminance(bg))
                    : abs(APCA.lc(textY: APCA.screenLuminance(text), backgroundY: APCA.screenLuminance(bg)))
            }
            // 8-bit colors within 0.2% of the threshold.
            var near: [[UInt8]] = []
            for r in stride(from: 0, through: 255, by: 5) {
                for g in 0...255 {
                    for b in stride(from: 0, through: 255, by: 15) {
                        let c = [UInt8(r), UInt8(g), UInt8(b)]
                        if abs(exact(c) - target.minimum) < 0.002 * target.minimum { near.append(c) }
                    }
                }
            }
            #expect(near.count > 40, "\(target.minimum): \(near.count) colors")
            let label = "\(text) \(target.metric) \(target.minimum)"
            var misses = 0
            for c in near.prefix(48) {
                let d = TextContrast.measure(RGBImage(width: 2, height: 2, pixels: c + c + c + c), tables: tables)
                let passes = exact(c) >= target.minimum
                #expect(d.passes == passes, "\(label) on \(c): \(d.passes), exactly \(exact(c))")
                #expect((d.judged >= target.minimum) == passes, "\(label) on \(c): judged \(d.judged)")
                // Every statistic of a uniform image is that color's: on the verdict's side too (a
                // hostile pass: #7c7290 under white text passed with a minimum of 4.4999).
                let metric = target.metric == .wcag2 ? d.wcag : d.apca
                for (name, v) in [("minimum", metric.minimum), ("median", metric.median), ("maximum", metric.maximum)] {
                    #expect((v >= target.minimum) == passes, "\(label) on \(c): \(name) \(v), exactly \(exact(c))")
                }
                if !passes { misses += 1 }
            }
            #expect(misses > 0 && misses < min(48, near.count), "\(label): \(misses) of the colors miss")
            // All of them in one image: the failing share, and the heat map's red, pixel by pixel.
            let all = RGBImage(width: near.count, height: 1, pixels: near.flatMap { $0 })
            let d = TextContrast.measure(all, tables: tables)
            let failing = near.filter { exact($0) < target.minimum }.count
            let share = target.metric == .wcag2 ? d.wcag.failingShare : d.apca.failingShare
            #expect(share == Double(failing) / Double(near.count), "\(label): share \(String(describing: share)), exactly \(failing) of \(near.count)")
            let heat = TextContrast.heatMap(all, tables: tables)
            for (i, c) in near.enumerated() {
                let red = heat.pixels[3 * i] > heat.pixels[3 * i + 1]
                #expect(red == (exact(c) < target.minimum), "\(label) heat map on \(c)")
            }
        }
    }

    @Test func apcaTarget() {
        let img = image(20, 20) { _, _ in 0 }
        let d = TextContrast.measure(img, text: white, target: .apcaLc(75))
        #expect(d.passes)
        #expect(abs(d.apca.percentile5 - abs(APCA.lc(text: white, background: black))) < 0.01)
        #expect(d.apca.failingShare == 0)
        #expect(d.wcag.failingShare == nil)
    }

    /// A mid-gray image with gray text: the text-color fix passes and is re-measured.
    @Test func textColorFix() throws {
        let img = image(32, 32) { x, y in UInt8(120 + (x + y) % 16) }
        let text = SIMD3<Double>(repeating: 0.6)
        let d = TextContrast.measure(img, text: text, target: aa)
        #expect(!d.passes)
        let fix = try #require(TextContrast.textColor(img, text: text, target: aa, initial: d))
        #expect(fix.after.passes)
        #expect(fix.after.wcag.percentile5 >= 4.5)
    }

    /// An embedded Display P3 profile is honored: the pixels are measured in sRGB, converted by
    /// lcms2 (P3 #C83232 is about sRGB #DA1828, redder than its numbers read as sRGB), as ColorScience
    /// converts `color(display-p3 …)`; within 2 codes (lcms2's rounding and its profile's tables).
    @Test func iccProfileIsConvertedToSRGB() throws {
        let png = try TestImages.png(background: [200, 50, 50], icc: TestImages.displayP3)
        let file = try ImageFile.open(png, format: .png, maxPixels: 1_000_000)
        let img = try file.orientedSRGB(over: white)
        let expected = try CSSColorParser.parse("color(display-p3 \(200.0 / 255) \(50.0 / 255) \(50.0 / 255))")
            .converted(to: .srgb).coordinates
        for band in 0..<3 {
            let want = Int((expected[band] * 255).rounded())
            #expect(abs(Int(img.pixels[band]) - want) <= 2, "band \(band): \(img.pixels[band]) vs \(want)")
        }
        #expect(img.pixels[0] > 205, "converted, not read as sRGB numbers")
    }

    /// EXIF orientation 6 turns a 3×2 stored image into a 2×3 displayed one, clockwise.
    @Test func orientation() {
        // Stored rows: [0 1 2] [3 4 5] (gray codes).
        let stored: [UInt8] = (0..<6).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }
        let o = stored.withUnsafeBufferPointer { RGBImage.oriented($0, width: 3, height: 2, orientation: 6) }
        #expect(o.width == 2 && o.height == 3)
        // Turned clockwise, the displayed rows are [3 0] [4 1] [5 2].
        #expect(stride(from: 0, to: o.pixels.count, by: 3).map { o.pixels[$0] } == [3, 0, 4, 1, 5, 2])
        let e = stored.withUnsafeBufferPointer { RGBImage.oriented($0, width: 3, height: 2, orientation: 8) }
        #expect(stride(from: 0, to: e.pixels.count, by: 3).map { e.pixels[$0] } == [2, 5, 1, 4, 0, 3])
    }
}
