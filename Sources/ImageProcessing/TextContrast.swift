import Foundation
import ColorScience

// Text over an image: the distribution of one text color's contrast against every pixel of a
// region, and the fixes a designer can apply (a solid or gradient scrim, a brightness() filter,
// another text color), each measured again after it is applied. Pure statistics on 8-bit sRGB
// pixels: no libvips, no HTTP.
//
// Method (docs/api/images.md, "text-contrast"):
// - Each pixel's WCAG relative luminance and APCA screen luminance come from 256-entry tables of
//   its 8-bit channels, exactly as for a solid color. They are binned to 1/65535 (the ratio moves
//   by less than 0.0033 within a bin, |Lc| by less than 0.01), and the per-bin ratio and |Lc| are
//   computed once per text color, so 12 million pixels cost one table pass, not 12 million `pow`s.
// - Verdicts are exact: a bin whose luminances all meet the target passes, one whose luminances
//   all miss it fails, and a pixel in one of the few bins the target's threshold runs through is
//   measured exactly (`WCAG.relativeLuminance`, `APCA.screenLuminance` of its 8-bit color), so a
//   pixel passes here exactly when `/v1/contrast` passes its color (a hostile pass: black text on
//   a uniform `#458301`, 4.49999993:1, had passed AA from its bin's 4.5001).
// - Percentiles are nearest-rank over the pixels sorted by contrast, lowest first: the 5th
//   percentile is the smallest value v such that at least 5% of the pixels have contrast ≤ v.
//   Contrast against a fixed text color falls as the backdrop's luminance nears the text's and
//   rises away from it on both sides, so the bins sorted by value are the two sides merged.
// - The judged statistic is the 5th percentile, not the minimum: the darkest (or lightest) single
//   pixel of a photograph is JPEG ringing, sensor noise, a speck of dust, or an anti-aliased edge
//   one pixel wide that no glyph stroke (2–3 px at text sizes) can sit on alone. A white image
//   with a few black noise pixels under black text has a minimum of 1:1 and a 5th percentile of
//   21:1; reading the minimum would demand a solid scrim over an image that is already legible.
//   The minimum is still reported, with the worst 16×16 block (the mean over a glyph-sized area,
//   which noise cannot pull down but a real dark patch does).
// - The fixes' searches look at a sample of at most 65,536 pixels and only ask "do fewer than 5%
//   fail?" (the 5th percentile meets the target exactly then); each answer is then confirmed on
//   every pixel and measured in full.

/// Opaque 8-bit sRGB pixels, interleaved RGB, rows top to bottom.
public struct RGBImage: Sendable, Equatable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// `width × height × 3` bytes.
    public var pixels: [UInt8]

    /// Pixels from known values (`pixels.count` must be `width × height × 3`).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGBImage: \(pixels.count) bytes for \(width) × \(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A rectangle of this image (clamped to it).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let w = max(0, min(w, width - x0)), h = max(0, min(h, height - y0))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<h {
                    let s = ((y0 + row) * width + x0) * 3
                    for i in 0..<(w * 3) { dst[row * w * 3 + i] = src[s + i] }
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}

/// The edge of the region where a gradient scrim is solid; it fades toward the opposite edge.
public enum ScrimEdge: String, Sendable, CaseIterable, Equatable {
    /// Solid at the region's bottom row, fading upward (`to top`): captions at the foot of a hero image.
    case bottom
    /// Solid at the region's top row, fading downward (`to bottom`).
    case top
    /// Solid at the region's left column, fading rightward (`to right`).
    case left
    /// Solid at the region's right column, fading leftward (`to left`).
    case right

    /// The image edges a gradient scrim over the region `x, y, width, height` of a
    /// `imageWidth × imageHeight` image may start from: the one nearest the region's center (as a
    /// fraction of the image's width or height) and every one within a tenth of the image of it,
    /// in the order of `allCases` (the scrim needing the least alpha among them wins). A scrim
    /// starts at the image's edge nearest the text and fades into the picture (a new user's pass:
    /// a scrim solid at the bottom of a band across the top of a photo had drawn a hard line
    /// across the photo); for text near the middle, moving the box a pixel no longer flips a
    /// single nearest edge to one needing 25% more alpha (another new user's pass).
    public static func nearest(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int) -> [ScrimEdge] {
        guard imageWidth > 0, imageHeight > 0 else { return allCases }
        let cx = (Double(x) + Double(width) / 2) / Double(imageWidth), cy = (Double(y) + Double(height) / 2) / Double(imageHeight)
        let distances: [(ScrimEdge, Double)] = [(.bottom, 1 - cy), (.top, cy), (.left, cx), (.right, 1 - cx)]
        let nearest = distances.map(\.1).min() ?? 0
        return distances.filter { $0.1 <= nearest + nearEnough }.map(\.0)
    }

    /// How much farther than the nearest edge (as a fraction of the image) an edge may be and
    /// still be tried.
    public static let nearEnough = 0.1

    /// The scrim's element for the region `x, y, width, height` of a `imageWidth × imageHeight`
    /// image, in image pixels: across the whole image's width (for `top` and `bottom`; height for
    /// `left` and `right`), from the image's edge on this side (solid up to the region) through
    /// the region and as far again beyond it, where it has faded to 0 (it may reach past the
    /// image, which clips it); `solid` is how many pixels it stays solid before the region.
    public func element(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int)
        -> (x: Int, y: Int, width: Int, height: Int, solid: Int) {
        switch self {
        case .top: return (0, 0, imageWidth, y + 2 * height, y)
        case .bottom: return (0, y - height, imageWidth, imageHeight - (y - height), imageHeight - (y + height))
        case .left: return (0, 0, x + 2 * width, imageHeight, x)
        case .right: return (x - width, 0, imageWidth - (x - width), imageHeight, imageWidth - (x + width))
        }
    }

    /// The CSS `linear-gradient()` direction that starts at this edge (`to top` starts at the bottom).
    public var cssDirection: String {
        switch self {
        case .bottom: "to top"
        case .top: "to bottom"
        case .left: "to right"
        case .right: "to left"
        }
    }
}

/// A change applied to the pixels under the text before measuring: what CSS draws.
public enum PixelAdjustment: Sendable, Equatable {
    /// The pixels as they are.
    case none
    /// A solid overlay of an opaque color (gamma-encoded sRGB `0...1`) at `alpha` `0...1`,
    /// composited source-over on gamma-encoded values (as browsers draw
    /// `background: rgb(0 0 0 / a)` over an image).
    case overlay(color: SIMD3<Double>, alpha: Double)
    /// A `linear-gradient()` overlay of an opaque color: `alpha` at the region's `edge`, falling
    /// linearly to 0 one region-extent beyond the opposite edge, so the region itself gets `alpha`
    /// at `edge` and `alpha / 2` at the far edge (sampled at pixel centers, the alpha of each row
    /// or column rounded to 1/255 as 8-bit rendering stores it).
    case gradientOverlay(color: SIMD3<Double>, alpha: Double, edge: ScrimEdge)
    /// CSS `filter: brightness(f)`: every gamma-encoded channel multiplied by `f` ≥ 0, clipped to 1
    /// (Filter Effects 1 §13.2, `feComponentTransfer` linear slope, as browsers apply it in sRGB).
    case brightness(Double)

    /// The 8-bit result of blending `code` with `color` at `alpha` for each band, as one
    /// 768-entry table (`band × 256 + code`): the nearest level, a half level up, as integer
    /// blending rounds. The value is first snapped to a millionth of a level, so that a tie
    /// computed a hair below (40 under white at 0.5: 147.49999999999997) is still a tie (a
    /// pass found 11 of the 128 ties of that overlay rounded down, and a median moved a level).
    static func blendTable(_ f: (Int, Double) -> Double) -> [UInt8] {
        var t = [UInt8](repeating: 0, count: 768)
        for band in 0..<3 {
            for code in 0..<256 {
                let level = ((f(band, Double(code) / 255) * 255) * 1e6).rounded() / 1e6
                t[band * 256 + code] = UInt8(min(max(level.rounded(), 0), 255))
            }
        }
        return t
    }

    /// The gradient's alpha at the center of line `i` of `extent` lines counted from the solid
    /// edge (the region is `0..<extent`; lines beyond it continue the fade to 0 at `2 × extent`).
    public static func gradientAlpha(_ alpha: Double, line i: Int, extent: Int) -> Double {
        guard extent > 0 else { return 0 }
        return max(0, alpha * (1 - (Double(i) + 0.5) / Double(2 * extent)))
    }
}

/// Per-pixel lookup tables for an adjustment over a `width × height` region: which 768-entry table
/// applies to pixel (x, y).
struct AdjustmentPlan {
    /// Tables, 768 entries each, concatenated.
    let tables: [UInt8]
    /// Table number per row (vertical gradients), or nil.
    let rowTable: [Int]?
    /// Table number per column (horizontal gradients), or nil.
    let columnTable: [Int]?

    /// - Parameter fadeExtent: for a gradient, the region's extent its fade is measured in (the
    ///   default: this rectangle's own); a rectangle twice as long then holds the fade continued.
    init(_ adjustment: PixelAdjustment, width: Int, height: Int, fadeExtent: Int? = nil) {
        switch adjustment {
        case .none:
            tables = PixelAdjustment.blendTable { _, c in c }
            rowTable = nil; columnTable = nil
        case .overlay(let color, let a):
            tables = PixelAdjustment.blendTable { band, c in c * (1 - a) + color[band] * a }
            rowTable = nil; columnTable = nil
        case .brightness(let f):
            tables = PixelAdjustment.blendTable { _, c in c * f }
            rowTable = nil; columnTable = nil
        case .gradientOverlay(let color, let a, let edge):
            let vertical = edge == .top || edge == .bottom
            let extent = vertical ? height : width
            // Alpha codes per line from the solid edge, then one table per distinct code.
            var codes = (0..<extent).map { Int((PixelAdjustment.gradientAlpha(a, line: $0, extent: fadeExtent ?? extent) * 255).rounded()) }
            if edge == .bottom || edge == .right { codes.reverse() }
            var index = [Int](repeating: -1, count: 256)
            var flat: [UInt8] = []
            var lines = [Int](repeating: 0, count: extent)
            for (i, code) in codes.enumerated() {
                if index[code] < 0 {
                    index[code] = flat.count / 768
                    let alpha = Double(code) / 255
                    flat += PixelAdjustment.blendTable { band, c in c * (1 - alpha) + color[band] * alpha }
                }
                lines[i] = index[code]
            }
            if flat.isEmpty { flat = PixelAdjustment.blendTable { _, c in c } }
            tables = flat
            rowTable = vertical ? lines : nil
            columnTable = vertical ? nil : lines
        }
    }

    /// The table number for pixel (x, y).
    @inline(__always) func table(_ x: Int, _ y: Int) -> Int {
        if let r = rowTable { return r[y] }
        if let c = columnTable { return c[x] }
        return 0
    }
}

/// An adjustment's tables composed with the luminance tables, for measuring: per table, input
/// code and band, the adjusted code (`adjusted`) and its weighted linear value in bins (`w`
/// WCAG, `a` APCA); a gradient's line (row or column) picks its table by offset.
struct MeasurePlan {
    let adjusted: [UInt8]
    let w: [Double]
    let a: [Double]
    /// Offset (table × 768) per row for vertical gradients, per column for horizontal ones.
    let rowOffset: [Int]?
    let columnOffset: [Int]?

    @inline(__always) func offset(_ x: Int, _ y: Int) -> Int {
        if let r = rowOffset { return r[y] }
        if let c = columnOffset { return c[x] }
        return 0
    }
}

/// The measuring tables of an overlay color at every 8-bit alpha (256 × 768 entries), made once
/// for a gradient search instead of once per step.
final class OverlayCache {
    let color: SIMD3<Double>
    let adjusted: [UInt8]
    let w: [Double]
    let a: [Double]

    init(color: SIMD3<Double>, tables: TextContrast.Tables) {
        self.color = color
        var flat: [UInt8] = []
        flat.reserveCapacity(256 * 768)
        for code in 0..<256 {
            let alpha = Double(code) / 255
            flat += PixelAdjustment.blendTable { band, c in c * (1 - alpha) + color[band] * alpha }
        }
        adjusted = flat
        (w, a) = tables.compose(flat)
    }
}

/// The contrast of one text color against every pixel of a region.
public struct TextContrastDistribution: Sendable {
    /// One metric's distribution: WCAG ratio `1...21` or APCA |Lc| `0...108`.
    public struct Metric: Sendable {
        /// Lowest value over all pixels.
        public var minimum: Double
        /// 5th percentile (nearest rank): at least 5% of the pixels are at or below it.
        public var percentile5: Double
        /// Median (nearest rank).
        public var median: Double
        /// Highest value.
        public var maximum: Double
        /// Share `0...1` of the pixels below `minimumRequired`; nil when no minimum was given for
        /// this metric.
        public var failingShare: Double?
        /// The minimum `failingShare` counts against.
        public var minimumRequired: Double?
        /// A pixel color whose contrast is the 5th percentile (gamma-encoded sRGB `0...1`).
        public var percentile5Pixel: SIMD3<Double>
    }

    /// A rectangle in the measured region's pixel coordinates.
    public struct Block: Sendable, Equatable {
        /// Left column and top row in the region, pixels.
        public var x: Int, y: Int
        /// Size in pixels (smaller than ``TextContrast/blockSize`` at the region's right and bottom edges).
        public var width: Int, height: Int
        /// Mean of the target's metric over the block's pixels.
        public var mean: Double
    }

    /// Pixels measured.
    public var pixelCount: Int
    /// WCAG 2.x contrast ratio of the text on each pixel.
    public var wcag: Metric
    /// APCA |Lc| of the text on each pixel.
    public var apca: Metric
    /// The block (`blockSize` × `blockSize`, tiled from the region's origin, plus a column and a
    /// row of blocks flush with the right and bottom edges where the tiles stop short of them;
    /// a partial block only where the region is narrower or lower than one block) with the
    /// lowest mean value in the target's metric.
    public var worstBlock: Block
    /// Whether the 5th percentile meets the target.
    public var passes: Bool
    /// The 5th percentile in the target's metric.
    public var judged: Double
    /// WCAG 2 relative luminance `0...1` of the median pixel of what lies under the text (to a
    /// bin, 1/65,535), from the measurement's own histogram: text lighter than it is light text
    /// on this region, for saying when a fix turns the design's polarity
    /// (`TextContrastFix.reversesPolarity`). 0 for an empty region.
    public var medianLuminance: Double = 0
}

/// Measures text contrast over pixels and finds the fixes.
public enum TextContrast {
    /// Side of the blocks searched for the worst area, pixels.
    public static let blockSize = 1 << blockShift
    static let blockShift = 4
    /// The judged percentile, `0...1`.
    public static let judgedPercentile = 0.05
    /// Luminance bins per unit.
    static let bins = 65535

    /// Text on `image`'s pixels after `adjustment`, judged against `target` (its metric's failing
    /// share and the worst block use it; the other metric's failing share is nil).
    public static func measure(_ image: RGBImage, text: SIMD3<Double>, target: ContrastTarget,
                               adjustment: PixelAdjustment = .none) -> TextContrastDistribution {
        Tables(text: text, target: target).measure(image, adjustment: adjustment)
    }

    /// ``measure(_:text:target:adjustment:)`` with tables already made for the text and target.
    public static func measure(_ image: RGBImage, tables: Tables, adjustment: PixelAdjustment = .none) -> TextContrastDistribution {
        tables.measure(image, adjustment: adjustment)
    }

    /// The nearest rank of the judged percentile among `n` values (at least 1): the judged
    /// statistic meets a minimum exactly when fewer than this many values are below it.
    static func judgedRank(_ n: Int) -> Int { rank(judgedPercentile, of: n) }

    /// Whether a region of `total` pixels of which `failing` miss the target passes: its judged
    /// percentile meets the target (what `TextContrastDistribution.passes` says of it), as the
    /// heat map's count tells it.
    public static func passes(failing: Int, of total: Int) -> Bool { total > 0 && failing < judgedRank(total) }

    /// The nearest rank of the `q` quantile (`0...1`) among `n` values: `ceil(q × n)`, at least 1.
    static func rank(_ q: Double, of n: Int) -> Int { max(1, Int((q * Double(n)).rounded(.up))) }

    /// Per-text-color tables: bin → ratio and bin → |Lc|, the bins in order of value, and which
    /// bins meet the target. Made once per text color and target (≈ 130,000 contrast
    /// evaluations) and shared by the measurement and the fixes' searches.
    public struct Tables: Sendable {
        /// The target the pass table and the judged metric follow.
        public let target: ContrastTarget
        let wcagLinear: [Double]
        let apcaLinear: [Double]
        let ratio: [Double]
        let lc: [Double]
        /// Bins sorted by ratio (resp. |Lc|), lowest first.
        let ratioOrder: [Int32]
        let lcOrder: [Int32]
        /// 1 where every luminance of the bin meets the target in its metric, 0 where none does,
        /// 2 where the threshold runs through the bin (its pixels are measured exactly: `exactValue`).
        let passing: [UInt8]
        /// The text's WCAG relative luminance and APCA screen luminance.
        let textL: Double, textY: Double
        /// Asked between whole-image passes of the fix searches: true stops them (they then find
        /// nothing). The API sets it to its heavy-work ticket's "abandoned", so a request already
        /// answered 503 stops costing CPU.
        public var isCancelled: @Sendable () -> Bool = { false }

        /// Tables for text of color `text` (opaque gamma-encoded sRGB `0...1`) judged by `target`.
        public init(text: SIMD3<Double>, target: ContrastTarget) {
            self.target = target
            wcagLinear = (0..<256).map { WCAG.linearize(Double($0) / 255) }
            apcaLinear = (0..<256).map { APCA.screenLuminance(SIMD3(repeating: Double($0) / 255)) }
            let yt = WCAG.relativeLuminance(text)
            let ya = APCA.screenLuminance(text)
            (textL, textY) = (yt, ya)
            // Plain loops over buffers: a debug build (the test suite) runs them ten times faster than `map`.
            let count = TextContrast.bins + 1, n = Double(TextContrast.bins)
            var ratio = [Double](repeating: 0, count: count), lc = [Double](repeating: 0, count: count)
            var passing = [UInt8](repeating: 0, count: count)
            let wcagJudged = target.metric == .wcag2, minimum = target.minimum
            ratio.withUnsafeMutableBufferPointer { r in
                lc.withUnsafeMutableBufferPointer { l in
                    passing.withUnsafeMutableBufferPointer { p in
                        // The judged value at a luminance; it falls toward the text's and rises away
                        // from it on both sides, so over a bin it lies between its value at the
                        // bin's edges, or down to the text's own where the bin holds that.
                        func judged(_ y: Double) -> Double {
                            wcagJudged ? WCAG.contrastRatio(yt, y) : abs(APCA.lc(textY: ya, backgroundY: y))
                        }
                        let textBin = wcagJudged ? yt * n : ya * n
                        for i in 0..<count {
                            let y = Double(i) / n
                            r[i] = WCAG.contrastRatio(yt, y)
                            l[i] = abs(APCA.lc(textY: ya, backgroundY: y))
                            // Edges widened by a twentieth of a bin: a pixel's binned sum and its exact
                            // luminance differ by rounding (and APCA's table by 1e-7 of its gray's).
                            let (e0, e1) = ((Double(i) - 0.55) / n, (Double(i) + 0.55) / n)
                            let (v0, v1) = (judged(e0), judged(e1))
                            var lowest = Swift.min(v0, v1), highest = Swift.max(v0, v1)
                            if textBin >= Double(i) - 0.55 && textBin <= Double(i) + 0.55 { lowest = Swift.min(lowest, judged(wcagJudged ? yt : ya)) }
                            highest = Swift.max(highest, wcagJudged ? r[i] : l[i])
                            p[i] = lowest >= minimum ? 1 : highest < minimum ? 0 : 2
                        }
                    }
                }
            }
            self.ratio = ratio
            self.lc = lc
            self.passing = passing
            ratioOrder = Tables.order(ratio)
            lcOrder = Tables.order(lc)
        }

        /// Bin numbers by value, lowest first: the values fall toward the text's luminance and
        /// rise away from it, so the two sides are merged outward from the lowest; a table that
        /// is not so shaped is sorted instead.
        static func order(_ values: [Double]) -> [Int32] {
            values.withUnsafeBufferPointer { v in
                var low = 0
                for i in 1..<v.count where v[i] < v[low] { low = i }
                var ok = true
                if low > 0 { for i in 1...low where v[i] > v[i - 1] { ok = false; break } }
                if ok && low < v.count - 1 { for i in (low + 1)..<v.count where v[i] < v[i - 1] { ok = false; break } }
                guard ok else { return v.indices.sorted { v[$0] < v[$1] || (v[$0] == v[$1] && $0 < $1) }.map(Int32.init) }
                var out = [Int32](repeating: 0, count: v.count)
                out.withUnsafeMutableBufferPointer { o in
                    o[0] = Int32(low)
                    var l = low - 1, r = low + 1, k = 1
                    while l >= 0 || r < v.count {
                        if r >= v.count || (l >= 0 && v[l] <= v[r]) { o[k] = Int32(l); l -= 1 } else { o[k] = Int32(r); r += 1 }
                        k += 1
                    }
                }
                return out
            }
        }

        /// The judged metric's exact value of the text on the 8-bit color `r, g, b`, measured as
        /// `/v1/contrast` measures a pair (for pixels in a bin the threshold runs through).
        func exactValue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
            let c = SIMD3(Double(r), Double(g), Double(b)) / 255
            return target.metric == .wcag2 ? WCAG.contrastRatio(textL, WCAG.relativeLuminance(c))
                : abs(APCA.lc(textY: textY, backgroundY: APCA.screenLuminance(c)))
        }

        /// Exact values of the colors in the threshold's bins, remembered by color (direct-mapped,
        /// 1024 entries): a uniform image whose color lies in such a bin would otherwise pay one
        /// exact measurement a pixel.
        struct ExactValues {
            var keys = [UInt32](repeating: .max, count: 1024)
            var values = [Double](repeating: 0, count: 1024)
            /// The last color asked for (a run of one color costs a comparison).
            var lastKey = UInt32.max, lastValue = 0.0

            @inline(__always)
            mutating func value(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ t: Tables) -> Double {
                let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                if key == lastKey { return lastValue }
                let slot = Int((key &* 2_654_435_761) >> 22)
                var v = values[slot]
                if keys[slot] != key {
                    v = t.exactValue(r, g, b)
                    (keys[slot], values[slot]) = (key, v)
                }
                (lastKey, lastValue) = (key, v)
                return v
            }
        }

        @inline(__always)
        func bins(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Int, Int) {
            let y = 0.2126 * wcagLinear[Int(r)] + 0.7152 * wcagLinear[Int(g)] + 0.0722 * wcagLinear[Int(b)]
            let a = 0.2126729 * apcaLinear[Int(r)] + 0.7151522 * apcaLinear[Int(g)] + 0.0721750 * apcaLinear[Int(b)]
            let n = Double(TextContrast.bins)
            return (Int((min(max(y, 0), 1) * n).rounded()), Int((min(max(a, 0), 1) * n).rounded()))
        }

        /// Per input code and band, the weighted linear value of the adjusted code in bins
        /// (`w`: WCAG, `a`: APCA), so a pixel's bin is three lookups and two additions.
        func compose(_ adjusted: [UInt8]) -> (w: [Double], a: [Double]) {
            var w = [Double](repeating: 0, count: adjusted.count), a = [Double](repeating: 0, count: adjusted.count)
            let n = Double(TextContrast.bins)
            let wc = [0.2126 * n, 0.7152 * n, 0.0722 * n], ac = [0.2126729 * n, 0.7151522 * n, 0.0721750 * n]
            adjusted.withUnsafeBufferPointer { t in
                w.withUnsafeMutableBufferPointer { wp in
                    a.withUnsafeMutableBufferPointer { ap in
                        for i in 0..<t.count {
                            let band = (i % 768) / 256, v = Int(t[i])
                            wp[i] = wc[band] * wcagLinear[v]
                            ap[i] = ac[band] * apcaLinear[v]
                        }
                    }
                }
            }
            return (w, a)
        }

        /// The measuring tables for `adjustment` over a `width × height` region; a gradient in
        /// `cache`'s color takes its tables from there.
        func plan(_ adjustment: PixelAdjustment, width: Int, height: Int, cache: OverlayCache? = nil) -> MeasurePlan {
            if case .gradientOverlay(let color, let alpha, let edge) = adjustment, let cache, cache.color == color {
                let vertical = edge == .top || edge == .bottom
                let extent = vertical ? height : width
                var offsets = (0..<extent).map { Int((PixelAdjustment.gradientAlpha(alpha, line: $0, extent: extent) * 255).rounded()) * 768 }
                if edge == .bottom || edge == .right { offsets.reverse() }
                return MeasurePlan(adjusted: cache.adjusted, w: cache.w, a: cache.a,
                                   rowOffset: vertical ? offsets : nil, columnOffset: vertical ? nil : offsets)
            }
            let p = AdjustmentPlan(adjustment, width: width, height: height)
            let (w, a) = compose(p.tables)
            return MeasurePlan(adjusted: p.tables, w: w, a: a, rowOffset: p.rowTable?.map { $0 * 768 },
                               columnOffset: p.columnTable?.map { $0 * 768 })
        }

        /// Pixels of `image` under `adjustment` whose value in the target's metric misses the
        /// target, counting only the `sample`'s pixels (all when nil), stopping at `limit`.
        func failing(_ image: RGBImage, _ sample: Sample?, adjustment: PixelAdjustment, limit: Int, cache: OverlayCache? = nil) -> Int {
            let plan = plan(adjustment, width: image.width, height: image.height, cache: cache)
            let judged = target.metric == .wcag2 ? plan.w : plan.a
            let top = TextContrast.bins
            var failed = 0
            judged.withUnsafeBufferPointer { t in
                passing.withUnsafeBufferPointer { pass in
                    plan.adjusted.withUnsafeBufferPointer { adj in
                    // A pixel misses the target when its bin does, or, in a bin the threshold runs
                    // through, when its adjusted 8-bit color does exactly.
                    var exact = ExactValues()
                    @inline(__always) func misses(_ bin: Int, _ r: Int, _ g: Int, _ b: Int) -> Bool {
                        let v = pass[bin]
                        return v == 0 || (v == 2 && exact.value(adj[r], adj[g], adj[b], self) < target.minimum)
                    }
                    if let s = sample {
                        s.rgb.withUnsafeBufferPointer { rgb in
                            for j in 0..<s.count {
                                let o = plan.offset(Int(s.xs[j]), Int(s.ys[j]))
                                let (r, g, b) = (o + Int(rgb[3 * j]), o + 256 + Int(rgb[3 * j + 1]), o + 512 + Int(rgb[3 * j + 2]))
                                if misses(min(Int(t[r] + t[g] + t[b] + 0.5), top), r, g, b) {
                                    failed += 1
                                    if failed >= limit { break }
                                }
                            }
                        }
                    } else {
                        image.pixels.withUnsafeBufferPointer { p in
                            var i = 0
                            for y in 0..<image.height where failed < limit {
                                let rowOffset = plan.rowOffset?[y] ?? 0
                                for x in 0..<image.width {
                                    let o = plan.columnOffset?[x] ?? rowOffset
                                    let (r, g, b) = (o + Int(p[i]), o + 256 + Int(p[i + 1]), o + 512 + Int(p[i + 2]))
                                    if misses(min(Int(t[r] + t[g] + t[b] + 0.5), top), r, g, b) { failed += 1 }
                                    i += 3
                                }
                            }
                        }
                    }
                    }
                }
            }
            return failed
        }

        /// Whether the judged percentile meets the target on the sample (or on every pixel).
        func passes(_ image: RGBImage, _ sample: Sample?, adjustment: PixelAdjustment, cache: OverlayCache? = nil) -> Bool {
            let n = sample?.count ?? image.width * image.height
            let rank = TextContrast.judgedRank(n)
            return failing(image, sample, adjustment: adjustment, limit: rank, cache: cache) < rank
        }

        /// - Parameter details: false for a fix's `after`, whose worst block and pixel colors are
        ///   not reported: they are then left out (zero), which saves about a third of the pass.
        func measure(_ image: RGBImage, adjustment: PixelAdjustment, cache: OverlayCache? = nil, details: Bool = true) -> TextContrastDistribution {
            let plan = plan(adjustment, width: image.width, height: image.height, cache: cache)
            let count = TextContrast.bins + 1, top = TextContrast.bins
            var wCounts = [Int32](repeating: 0, count: count)
            var aCounts = [Int32](repeating: 0, count: count)
            var wColor = [UInt32](repeating: 0, count: count)
            var aColor = [UInt32](repeating: 0, count: count)
            let bs = TextContrast.blockSize
            let bw = (image.width + bs - 1) / bs, bh = (image.height + bs - 1) / bs
            var blockSums = [Double](repeating: 0, count: max(1, bw * bh))
            var edgeBlocks: [(x: Int, y: Int, width: Int, height: Int, mean: Double)] = []
            let wcagJudged = target.metric == .wcag2
            let judgedValues = wcagJudged ? ratio : lc
            // Pixels in bins the threshold runs through, measured exactly: how many miss, and the
            // highest value missing and the lowest meeting the target among them.
            var exactMisses = 0, highestMiss = -Double.infinity, lowestPass = Double.infinity
            var lowestMiss = Double.infinity, highestPass = -Double.infinity
            var exact = ExactValues()
            image.pixels.withUnsafeBufferPointer { p in
            passing.withUnsafeBufferPointer { pass in
            plan.adjusted.withUnsafeBufferPointer { adj in
            plan.w.withUnsafeBufferPointer { tw in
            plan.a.withUnsafeBufferPointer { ta in
            judgedValues.withUnsafeBufferPointer { jv in
            wCounts.withUnsafeMutableBufferPointer { wc in
            aCounts.withUnsafeMutableBufferPointer { ac in
            wColor.withUnsafeMutableBufferPointer { wcol in
            aColor.withUnsafeMutableBufferPointer { acol in
            blockSums.withUnsafeMutableBufferPointer { sums in
                // Offsets per column: all equal unless a horizontal gradient gives each its own table.
                let columns = plan.columnOffset ?? [Int](repeating: 0, count: image.width)
                columns.withUnsafeBufferPointer { col in
                for y in 0..<image.height {
                    let rowBlock = (y >> TextContrast.blockShift) * bw
                    let rowOffset = plan.rowOffset?[y] ?? 0
                    var i = y * image.width * 3
                    for x in 0..<image.width {
                        let o = col[x] + rowOffset
                        let r = o + Int(p[i]), g = o + 256 + Int(p[i + 1]), b = o + 512 + Int(p[i + 2])
                        let w = min(Int(tw[r] + tw[g] + tw[b] + 0.5), top)
                        let a = min(Int(ta[r] + ta[g] + ta[b] + 0.5), top)
                        if pass[wcagJudged ? w : a] == 2 {
                            let v = exact.value(adj[r], adj[g], adj[b], self)
                            if v >= target.minimum {
                                (lowestPass, highestPass) = (min(lowestPass, v), max(highestPass, v))
                            } else {
                                exactMisses += 1
                                (lowestMiss, highestMiss) = (min(lowestMiss, v), max(highestMiss, v))
                            }
                        }
                        if details {
                            if wc[w] == 0 || ac[a] == 0 {
                                let color = UInt32(adj[r]) << 16 | UInt32(adj[g]) << 8 | UInt32(adj[b])
                                if wc[w] == 0 { wcol[w] = color }
                                if ac[a] == 0 { acol[a] = color }
                            }
                            sums[rowBlock + (x >> TextContrast.blockShift)] += jv[wcagJudged ? w : a]
                        }
                        wc[w] += 1
                        ac[a] += 1
                        i += 3
                    }
                }
                // The blocks flush with the right and bottom edges, when whole blocks do not
                // reach them (a new user's pass: a dark strip narrower than a block at the right
                // edge was never in a candidate); their pixels are read again (16 columns and
                // 16 rows: about 1% of a 4000 × 3000 region).
                guard details else { return }
                func judged(_ x: Int, _ y: Int) -> Double {
                    let o = col[x] + (plan.rowOffset?[y] ?? 0), i = (y * image.width + x) * 3
                    let r = o + Int(p[i]), g = o + 256 + Int(p[i + 1]), b = o + 512 + Int(p[i + 2])
                    return jv[wcagJudged ? min(Int(tw[r] + tw[g] + tw[b] + 0.5), top) : min(Int(ta[r] + ta[g] + ta[b] + 0.5), top)]
                }
                // A region narrower or shorter than a block has blocks as narrow or short as it
                // (a hostile pass: a 1 × 40 strip reported its middle block, not the darker one
                // flush with its bottom edge).
                let (fw, fh) = (min(bs, image.width), min(bs, image.height))
                func flush(_ x0: Int, _ y0: Int) {
                    var sum = 0.0
                    for y in y0..<(y0 + fh) { for x in x0..<(x0 + fw) { sum += judged(x, y) } }
                    edgeBlocks.append((x0, y0, fw, fh, sum / Double(fw * fh)))
                }
                let (right, bottom) = (image.width - fw, image.height - fh)
                let rightEdge = image.width > bs && image.width % bs != 0
                let bottomEdge = image.height > bs && image.height % bs != 0
                let (rows, columns) = (max(1, image.height / bs), max(1, image.width / bs))
                if rightEdge { for by in 0..<rows { flush(right, by * bs) } }
                if bottomEdge { for bx in 0..<columns { flush(bx * bs, bottom) } }
                if rightEdge && bottomEdge { flush(right, bottom) }
                }
            }}}}}}}}}}}
            let total = image.width * image.height
            // The pixels missing the target, exactly: every pixel of the bins that miss it, and
            // those of the threshold's bins whose exact value misses.
            var missing = exactMisses
            let judgedCounts = wcagJudged ? wCounts : aCounts
            for i in 0..<count where passing[i] == 0 { missing += Int(judgedCounts[i]) }
            let passes = total > 0 && missing < TextContrast.judgedRank(total)
            func metric(_ counts: [Int32], _ values: [Double], _ order: [Int32], _ colors: [UInt32], _ m: ContrastTarget.Metric) -> TextContrastDistribution.Metric {
                let s = Summary(counts: counts, values: values, order: order, total: total)
                let p5Bin = s.percentileBin(TextContrast.judgedPercentile)
                let c = colors[p5Bin]
                let pixel = SIMD3(Double(c >> 16 & 255), Double(c >> 8 & 255), Double(c & 255)) / 255
                let required = target.metric == m ? target.minimum : nil
                var (low, p5, median, high) = (s.minimum, values[p5Bin], values[s.percentileBin(0.5)], s.maximum)
                if let required, total > 0 {
                    // A binned statistic is within a bin of the exact one; where the threshold runs
                    // through that bin it can fall on the other side of what the exact count says
                    // (a hostile pass: a uniform #7c7290 under white text, 4.5000006:1, passed with
                    // a minimum, median and maximum of 4.4999): then the exact value of a pixel
                    // of that bin on the right side stands for it (for the minimum and maximum,
                    // the very pixel).
                    func sided(_ v: Double, misses: Bool, miss: Double, pass: Double) -> Double {
                        if misses && v >= required && miss.isFinite { return miss }
                        if !misses && v < required && pass.isFinite { return pass }
                        return v
                    }
                    low = sided(low, misses: missing >= 1, miss: lowestMiss, pass: lowestPass)
                    p5 = sided(p5, misses: !passes, miss: highestMiss, pass: lowestPass)
                    median = sided(median, misses: missing >= TextContrast.rank(0.5, of: total), miss: highestMiss, pass: lowestPass)
                    high = sided(high, misses: missing >= total, miss: highestMiss, pass: highestPass)
                }
                return .init(minimum: low, percentile5: p5,
                             median: median, maximum: high,
                             failingShare: required.map { _ in total > 0 ? Double(missing) / Double(total) : 0 }, minimumRequired: required,
                             percentile5Pixel: pixel)
            }
            let wcag = metric(wCounts, ratio, ratioOrder, wColor, .wcag2)
            let apca = metric(aCounts, lc, lcOrder, aColor, .apca)
            var worst = TextContrastDistribution.Block(x: 0, y: 0, width: 0, height: 0, mean: .infinity)
            // Whole blocks only (a sliver at the right or bottom edge is not glyph-sized: the
            // blocks flush with those edges cover it), unless the region is smaller than a block
            // in that direction.
            let fullColumns = image.width >= bs ? image.width / bs : bw, fullRows = image.height >= bs ? image.height / bs : bh
            for by in 0..<fullRows {
                for bx in 0..<fullColumns {
                    let w = min(bs, image.width - bx * bs), h = min(bs, image.height - by * bs)
                    guard w > 0, h > 0 else { continue }
                    let mean = blockSums[by * bw + bx] / Double(w * h)
                    if mean < worst.mean { worst = .init(x: bx * bs, y: by * bs, width: w, height: h, mean: mean) }
                }
            }
            for e in edgeBlocks where e.mean < worst.mean { worst = .init(x: e.x, y: e.y, width: e.width, height: e.height, mean: e.mean) }
            if total == 0 { worst.mean = 0 }
            let judged = wcagJudged ? wcag.percentile5 : apca.percentile5
            var result = TextContrastDistribution(pixelCount: total, wcag: wcag, apca: apca, worstBlock: worst,
                                                  passes: passes, judged: judged)
            // The median pixel's luminance from the WCAG histogram (its bins are luminance), a
            // fix's `after` too (whether the fix turns the text's polarity).
            var seen = 0
            for i in 0..<count where total > 0 {
                seen += Int(wCounts[i])
                if seen >= (total + 1) / 2 { result.medianLuminance = Double(i) / Double(top); break }
            }
            return result
        }
    }

    /// At most `searchSample` pixels of a region, spread over it, with their positions.
    struct Sample {
        var rgb: [UInt8] = []
        var xs: [Int32] = []
        var ys: [Int32] = []
        var count: Int { xs.count }

        /// Every pixel when there are at most `limit`; else every `step`-th pixel in reading
        /// order, the step chosen prime to the width so the sample does not fall in a few columns.
        init(_ image: RGBImage, limit: Int) {
            let n = image.width * image.height
            var step = max(1, n / max(1, limit))
            func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
            while step > 1 && gcd(step, image.width) != 1 { step += 1 }
            var i = 0
            rgb.reserveCapacity(3 * min(n, limit + 1)); xs.reserveCapacity(min(n, limit + 1)); ys.reserveCapacity(min(n, limit + 1))
            while i < n {
                rgb.append(image.pixels[3 * i]); rgb.append(image.pixels[3 * i + 1]); rgb.append(image.pixels[3 * i + 2])
                xs.append(Int32(i % image.width)); ys.append(Int32(i / image.width))
                i += step
            }
        }
    }

    /// Counts per bin walked in order of value: percentiles and shares.
    struct Summary {
        let counts: [Int32]
        let values: [Double]
        let order: [Int32]
        let total: Int

        init(counts: [Int32], values: [Double], order: [Int32], total: Int) {
            self.counts = counts
            self.values = values
            self.order = order
            self.total = total
        }

        var minimum: Double {
            guard let b = order.first(where: { counts[Int($0)] > 0 }) else { return 0 }
            return values[Int(b)]
        }

        var maximum: Double {
            guard let b = order.last(where: { counts[Int($0)] > 0 }) else { return 0 }
            return values[Int(b)]
        }

        /// Nearest rank: the first bin (in order of value) whose cumulative count reaches
        /// `ceil(q × total)` (at least 1).
        func percentileBin(_ q: Double) -> Int {
            guard total > 0 else { return Int(order.first ?? 0) }
            let rank = TextContrast.rank(q, of: total)
            var seen = 0
            var last = Int(order.first ?? 0)
            for b in order {
                let c = Int(counts[Int(b)])
                guard c > 0 else { continue }
                last = Int(b)
                seen += c
                if seen >= rank { return last }
            }
            return last
        }

        func share(below minimum: Double) -> Double {
            guard total > 0 else { return 0 }
            var n = 0
            for b in order {
                if values[Int(b)] >= minimum { break }
                n += Int(counts[Int(b)])
            }
            return Double(n) / Double(total)
        }
    }
}

// MARK: - Fixes

/// One fix, with the distribution measured again after applying it.
public struct TextContrastFix: Sendable {
    /// What the fix is: a scrim (`overlay`, `gradientOverlay`), a filter (`brightness`), or
    /// `.none` for a text color.
    public var adjustment: PixelAdjustment
    /// The new text color (gamma-encoded sRGB `0...1`, 8-bit values) for a text-color fix.
    public var textColor: SIMD3<Double>?
    /// The distribution over every pixel of the region after the fix (for scrims and
    /// `brightness()` without the worst block and the 5th-percentile pixel colors, which are zero).
    public var after: TextContrastDistribution

    /// Whether the fix turns the text's polarity: text (relative luminance `textLuminance`,
    /// `0...1`) lighter than the median pixel under it `before` and darker than the median pixel
    /// after the fix, or the reverse (a black scrim over a white label under gray text). A
    /// text-color fix compares its new color with the median pixel before. False where either
    /// median equals the text's luminance (no polarity to keep).
    public func reversesPolarity(textLuminance: Double, before: TextContrastDistribution) -> Bool {
        let (t0, m0) = (textLuminance, before.medianLuminance)
        let (t1, m1) = textColor.map { (WCAG.relativeLuminance($0), m0) } ?? (t0, after.medianLuminance)
        guard t0 != m0, t1 != m1 else { return false }
        return (t0 > m0) != (t1 > m1)
    }
}

extension TextContrast {
    /// Most pixels the searches look at; each answer is then confirmed on all of them.
    public static let searchSample = 65_536
    /// Alphas tried for scrims: `0...1` in steps of 0.01.
    static let alphaSteps = (0...100).map { Double($0) / 100 }

    /// The lightest solid scrim of `color` (gamma-encoded sRGB `0...1`; alpha in steps of 0.01)
    /// whose 5th percentile meets `target` over every pixel; nil when even alpha 1 does not.
    public static func scrim(_ image: RGBImage, text: SIMD3<Double>, target: ContrastTarget, color: SIMD3<Double>) -> TextContrastFix? {
        scrim(image, tables: Tables(text: text, target: target), color: color)
    }

    /// ``scrim(_:text:target:color:)`` with tables already made for the text and target.
    public static func scrim(_ image: RGBImage, tables t: Tables, color: SIMD3<Double>) -> TextContrastFix? {
        firstPassing(image, tables: t, sample: Sample(image, limit: searchSample), steps: alphaSteps) {
            .overlay(color: color, alpha: $0)
        }
    }

    /// The lightest `linear-gradient()` scrim of `color` (``PixelAdjustment/gradientOverlay(color:alpha:edge:)``:
    /// solid at one edge of the region, half as dense at the opposite edge, fading to nothing one
    /// region-extent beyond it) whose 5th percentile meets `target` over every pixel. Each edge
    /// of `edges` is tried; the smallest alpha wins (the earlier edge on a tie). nil when none passes.
    public static func gradientScrim(_ image: RGBImage, text: SIMD3<Double>, target: ContrastTarget, color: SIMD3<Double>,
                                     edges: [ScrimEdge] = ScrimEdge.allCases) -> TextContrastFix? {
        gradientScrim(image, tables: Tables(text: text, target: target), color: color, edges: edges)
    }

    /// ``gradientScrim(_:text:target:color:edges:)`` with tables already made for the text and target.
    public static func gradientScrim(_ image: RGBImage, tables t: Tables, color: SIMD3<Double>,
                                     edges: [ScrimEdge] = ScrimEdge.allCases) -> TextContrastFix? {
        let sample = Sample(image, limit: searchSample)
        let cache = OverlayCache(color: color, tables: t)
        // Each edge's first passing alpha on the sample; then, lightest first, confirmed on every
        // pixel (stepping on while it misses); an edge is confirmed only while it may still win.
        var candidates: [(edge: ScrimEdge, index: Int, order: Int)] = []
        for (order, edge) in edges.enumerated() {
            if let i = alphaSteps.firstIndex(where: { t.passes(image, sample, adjustment: .gradientOverlay(color: color, alpha: $0, edge: edge), cache: cache) }) {
                candidates.append((edge, i, order))
            }
        }
        var best: (index: Int, fix: TextContrastFix)?
        for c in candidates.sorted(by: { ($0.index, $0.order) < ($1.index, $1.order) }) {
            if let b = best, c.index >= b.index { break }
            if let found = confirm(image, tables: t, from: c.index, below: best?.index ?? alphaSteps.count, cache: cache, {
                .gradientOverlay(color: color, alpha: alphaSteps[$0], edge: c.edge)
            }) {
                best = found
            }
        }
        return best?.fix
    }

    /// The `brightness()` factor nearest 1 (steps of 0.01, darkening down to 0 or brightening up to
    /// 10; nearest as a ratio, so 0.5 and 2 are as far) whose 5th percentile meets `target`;
    /// nil when none does.
    public static func brightness(_ image: RGBImage, text: SIMD3<Double>, target: ContrastTarget) -> TextContrastFix? {
        brightness(image, tables: Tables(text: text, target: target))
    }

    /// ``brightness(_:text:target:)`` with tables already made for the text and target.
    public static func brightness(_ image: RGBImage, tables t: Tables) -> TextContrastFix? {
        let sample = Sample(image, limit: searchSample)
        let darker = firstPassing(image, tables: t, sample: sample, steps: (0...100).map { Double(100 - $0) / 100 }) { .brightness($0) }
        // Brightening only needs to look as far as the darkening found (1/f), in the same ratio.
        var limit = 1000
        if let d = darker, case .brightness(let fd) = d.adjustment {
            limit = fd > 0 ? min(1000, Int((100 / fd).rounded(.down))) : 1000
        }
        let lighter = limit > 100 ? firstPassing(image, tables: t, sample: sample, steps: (101...limit).map { Double($0) / 100 }) { .brightness($0) } : nil
        switch (darker, lighter) {
        case (nil, nil): return nil
        case (let d?, nil): return d
        case (nil, let l?): return l
        case (let d?, let l?):
            guard case .brightness(let fd) = d.adjustment, case .brightness(let fl) = l.adjustment else { return d }
            return abs(log(max(fd, 1e-9))) <= abs(log(fl)) ? d : l
        }
    }

    /// The first parameter of `steps` whose adjustment passes on the sample, confirmed on every
    /// pixel (see `confirm`), with its full distribution.
    static func firstPassing(_ image: RGBImage, tables t: Tables, sample: Sample, steps: [Double], cache: OverlayCache? = nil,
                             _ make: (Double) -> PixelAdjustment) -> TextContrastFix? {
        guard image.width * image.height > 0 else { return nil }
        guard let start = steps.firstIndex(where: { t.passes(image, sample, adjustment: make($0), cache: cache) }) else { return nil }
        return confirm(image, tables: t, from: start, below: steps.count, cache: cache) { make(steps[$0]) }?.fix
    }

    /// The step from `start` (the sample's answer) below `end` whose adjustment passes on every
    /// pixel, with its distribution: `start` itself when it passes there (for every image but a
    /// contrived one); else, when the last step passes, the first passing step found by bisection
    /// between them (the first of all when passing only grows with the step, as it does for a
    /// scrim darker or lighter than every pixel). One whole-image pass when `start` passes, at
    /// most 3 + log2(end − start) otherwise: stepping on one at a time had taken 15 s for a 2000 × 2000 PNG whose sampled
    /// pixels were black and the rest white (hostile pass), and minutes for 6000 × 6000. nil when
    /// none is found or `t.isCancelled()`.
    static func confirm(_ image: RGBImage, tables t: Tables, from start: Int, below end: Int, cache: OverlayCache? = nil,
                        _ make: (Int) -> PixelAdjustment) -> (index: Int, fix: TextContrastFix)? {
        guard start < end else { return nil }
        func passes(_ i: Int) -> Bool { !t.isCancelled() && t.passes(image, nil, adjustment: make(i), cache: cache) }
        // The sample's answer measured in full answers both questions at once (it passes for
        // every image but a contrived one): checking it first and then measuring it had read
        // every pixel twice, a fifth of a 12-megapixel answer.
        guard !t.isCancelled() else { return nil }
        let first = t.measure(image, adjustment: make(start), cache: cache, details: false)
        if first.passes { return (start, TextContrastFix(adjustment: make(start), textColor: nil, after: first)) }
        guard end - 1 > start, passes(end - 1) else { return nil }
        var (lo, hi) = (start, end - 1)   // misses at lo, passes at hi
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if passes(mid) { hi = mid } else { lo = mid }   // a cancelled search "misses" on
        }
        let found = hi
        guard !t.isCancelled() else { return nil }
        let d = t.measure(image, adjustment: make(found), cache: cache, details: false)
        return d.passes ? (found, TextContrastFix(adjustment: make(found), textColor: nil, after: d)) : nil
    }

    /// The nearest text color of the same OKLCH hue (``NearestPassingColor/nearest(to:margin:)``,
    /// the search of `/v1/suggest`) that meets `target` on the 5th-percentile pixel, re-measured on
    /// every pixel; when the new color's own 5th percentile (now another pixel) still misses,
    /// that pixel is added and the search repeated (at most 4 times). nil when no color of that
    /// hue passes.
    public static func textColor(_ image: RGBImage, text: SIMD3<Double>, target: ContrastTarget,
                                 initial: TextContrastDistribution) -> TextContrastFix? {
        var backgrounds = [target.metric == .wcag2 ? initial.wcag.percentile5Pixel : initial.apca.percentile5Pixel]
        for _ in 0..<4 {
            let found = NearestPassingColor.nearest(to: DisplayColor(srgb: text)) { c in
                backgrounds.map { target.value(of: ContrastMeasurement.opaque(foreground: c, background: $0)) - target.minimum }.min()!
            }
            guard found.move.passes else { return nil }
            let color = found.move.color.srgb
            let after = measure(image, text: color, target: target)
            if after.passes { return TextContrastFix(adjustment: .none, textColor: color, after: after) }
            backgrounds.append(target.metric == .wcag2 ? after.wcag.percentile5Pixel : after.apca.percentile5Pixel)
        }
        return nil
    }

    /// `image` with `adjustment` applied to every pixel (a gradient laid over the whole image).
    public static func apply(_ adjustment: PixelAdjustment, to image: RGBImage) -> RGBImage {
        let plan = AdjustmentPlan(adjustment, width: image.width, height: image.height)
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let o = plan.table(x, y) * 768
                    p[i] = plan.tables[o + Int(p[i])]; p[i + 1] = plan.tables[o + 256 + Int(p[i + 1])]; p[i + 2] = plan.tables[o + 512 + Int(p[i + 2])]
                    i += 3
                }
            }
        }
        return out
    }

    /// `image` with a scrim over the rectangle `x, y, width, height` (inside it) as CSS would
    /// draw it: a solid overlay covers the rectangle; a gradient covers its element
    /// (`ScrimEdge.element`): solid from the image's edge up to the rectangle, across the whole
    /// image, then the rectangle's fade, continued beyond its far edge over as many pixels again
    /// (clipped to the image).
    public static func applyScrim(_ adjustment: PixelAdjustment, to image: RGBImage, x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        var out = image
        func blend(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, fade: Int?, with adjustment: PixelAdjustment) {
            let rx0 = max(0, x0), ry0 = max(0, y0)
            let rx1 = min(image.width, x0 + w), ry1 = min(image.height, y0 + h)
            guard rx1 > rx0, ry1 > ry0 else { return }
            let plan = AdjustmentPlan(adjustment, width: w, height: h, fadeExtent: fade)
            out.pixels.withUnsafeMutableBufferPointer { p in
                for yy in ry0..<ry1 {
                    for xx in rx0..<rx1 {
                        let o = plan.table(xx - x0, yy - y0) * 768, i = (yy * image.width + xx) * 3
                        p[i] = plan.tables[o + Int(p[i])]
                        p[i + 1] = plan.tables[o + 256 + Int(p[i + 1])]
                        p[i + 2] = plan.tables[o + 512 + Int(p[i + 2])]
                    }
                }
            }
        }
        switch adjustment {
        case .gradientOverlay(let color, let alpha, let edge):
            // The region's fade across the whole image, continued to 0 as far again beyond the
            // region; solid from the image's edge up to the region, at the alpha 8-bit rendering
            // stores.
            let (iw, ih) = (image.width, image.height)
            let solid = PixelAdjustment.overlay(color: color, alpha: (alpha * 255).rounded() / 255)
            switch edge {
            case .bottom:
                blend(0, y - height, iw, 2 * height, fade: height, with: adjustment)
                blend(0, y + height, iw, ih - (y + height), fade: nil, with: solid)
            case .top:
                blend(0, y, iw, 2 * height, fade: height, with: adjustment)
                blend(0, 0, iw, y, fade: nil, with: solid)
            case .right:
                blend(x - width, 0, 2 * width, ih, fade: width, with: adjustment)
                blend(x + width, 0, iw - (x + width), ih, fade: nil, with: solid)
            case .left:
                blend(x, 0, 2 * width, ih, fade: width, with: adjustment)
                blend(0, 0, x, ih, fade: nil, with: solid)
            }
        default:
            blend(x, y, width, height, fade: nil, with: adjustment)
        }
        return out
    }

    /// A heat map of the region: each pixel's gray (for context) mixed half and half with green
    /// where the text's contrast meets `target` and red where it does not.
    public static func heatMap(_ image: RGBImage, text: SIMD3<Double>, target: ContrastTarget) -> RGBImage {
        heatMap(image, tables: Tables(text: text, target: target))
    }

    /// ``heatMap(_:text:target:)`` with tables already made for the text and target.
    public static func heatMap(_ image: RGBImage, tables t: Tables) -> RGBImage {
        var failing = 0
        return heatMap(image, tables: t, failing: &failing)
    }

    /// ``heatMap(_:tables:)``, counting into `failing` the pixels tinted red (under the target).
    public static func heatMap(_ image: RGBImage, tables t: Tables, failing: inout Int) -> RGBImage {
        let target = t.target
        var out = image
        var failed = 0
        var exact = Tables.ExactValues()
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let (w, a) = t.bins(p[i], p[i + 1], p[i + 2])
                let v = t.passing[target.metric == .wcag2 ? w : a]
                let pass = v == 1 || (v == 2 && exact.value(p[i], p[i + 1], p[i + 2], t) >= target.minimum)
                let gray = (0.2126 * Double(p[i]) + 0.7152 * Double(p[i + 1]) + 0.0722 * Double(p[i + 2])) / 2
                if !pass { failed += 1 }
                let tint: (Double, Double, Double) = pass ? (0, 200, 80) : (255, 0, 0)
                p[i] = UInt8(min(255, gray + tint.0 / 2)); p[i + 1] = UInt8(min(255, gray + tint.1 / 2)); p[i + 2] = UInt8(min(255, gray + tint.2 / 2))
                i += 3
            }
        }
        failing = failed
        return out
    }
}

// MARK: - The whole answer

/// What `POST /v1/image/text-contrast` answers for one region: the distribution and every fix
/// (`TextContrast.analyze`).
public struct TextContrastAnalysis: Sendable {
    /// The text over the region as it is.
    public var before: TextContrastDistribution
    /// The lightest solid black and white scrims that pass, when any does.
    public var black: TextContrastFix?, white: TextContrastFix?
    /// The lighter of the two (black on a tie), with its name; nil when neither passes or when
    /// the text already passes (no scrim is needed).
    public var recommended: (name: String, fix: TextContrastFix)?
    /// The gradient scrim in the recommended scrim's color (nil without a recommendation).
    public var gradient: TextContrastFix?
    /// The `brightness()` factor and the nearest passing text color (nil when not asked for, or
    /// none passes; the text color also when the text already passes).
    public var brightness: TextContrastFix?, textColor: TextContrastFix?
}

extension TextContrast {
    /// The distribution of `text` over `image` and its fixes, two whole-region passes at a time:
    /// first the distribution, both solid scrims and (with `allFixes`) `brightness()`; then the
    /// gradient scrim from `edges` in the recommended scrim's color and (with `allFixes`, when
    /// the text fails) the nearest passing text color. Each is an independent pass over every
    /// pixel (about 0.2 s for 12 megapixels here), so two cores answer a 12-megapixel region in
    /// about half the time one does; the CPU time is the same. `allFixes: false` is what a
    /// preview draws. `tables` are for `text` and its target.
    public static func analyze(_ image: RGBImage, tables: Tables, text: SIMD3<Double>, edges: [ScrimEdge],
                               allFixes: Bool) -> TextContrastAnalysis {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var before: TextContrastDistribution?
            var black: TextContrastFix?, white: TextContrastFix?, gradient: TextContrastFix?
            var brightness: TextContrastFix?, textColor: TextContrastFix?
            func set(_ body: (Results) -> Void) { lock.lock(); body(self); lock.unlock() }
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: allFixes ? 4 : 3) { k in
            switch k {
            case 0:
                let d = measure(image, tables: tables)
                results.set { $0.before = d }
            case 1:
                let f = scrim(image, tables: tables, color: SIMD3(0, 0, 0))
                results.set { $0.black = f }
            case 2:
                let f = scrim(image, tables: tables, color: SIMD3(1, 1, 1))
                results.set { $0.white = f }
            default:
                let f = brightness(image, tables: tables)
                results.set { $0.brightness = f }
            }
        }
        let before = results.before!
        let recommended = before.passes ? nil
            : recommendedScrim(results.black, results.white, textLuminance: WCAG.relativeLuminance(text), before: before)
        let gradientColor: SIMD3<Double>? = recommended.flatMap {
            if case .overlay(let color, _) = $0.fix.adjustment { return color }
            return nil
        }
        let wantsTextColor = allFixes && !before.passes
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            if k == 0, let color = gradientColor {
                let f = gradientScrim(image, tables: tables, color: color, edges: edges)
                results.set { $0.gradient = f }
            } else if k == 1 && wantsTextColor {
                let f = textColor(image, text: text, target: tables.target, initial: before)
                results.set { $0.textColor = f }
            }
        }
        return TextContrastAnalysis(before: before, black: results.black, white: results.white, recommended: recommended,
                                    gradient: results.gradient, brightness: results.brightness, textColor: results.textColor)
    }

    /// The solid scrim to recommend: one that keeps the text's polarity (`reversesPolarity`)
    /// before one that turns it, then the smaller alpha (black on a tie), with its name. A new
    /// user's pass: slate `#94a3b8` text on a white label was given black at 0.75, which turns
    /// the label dark under the text, where the same rule on gradients prefers the polarity.
    static func recommendedScrim(_ black: TextContrastFix?, _ white: TextContrastFix?, textLuminance: Double,
                                 before: TextContrastDistribution) -> (name: String, fix: TextContrastFix)? {
        func alpha(_ f: TextContrastFix) -> Double { if case .overlay(_, let a) = f.adjustment { return a }; return 1 }
        func key(_ f: TextContrastFix) -> (Int, Double) { (f.reversesPolarity(textLuminance: textLuminance, before: before) ? 1 : 0, alpha(f)) }
        switch (black, white) {
        case (nil, nil): return nil
        case (let b?, nil): return ("black", b)
        case (nil, let w?): return ("white", w)
        case (let b?, let w?): return key(b) <= key(w) ? ("black", b) : ("white", w)
        }
    }
}
