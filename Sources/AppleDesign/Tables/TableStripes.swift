// Alternating table rows: propose the alternate ("stripe") row color for a base row color so the
// two rows are visibly distinct (ΔE OK at least a threshold) while every text color keeps a target
// contrast on both rows.
//
// Algorithm: keep the base row's OKLCH hue and chroma and step its OKLCH lightness away from the
// base in steps of 0.002, first in the preferred direction (darker for a light base, lighter for a
// dark one, as Apple's own stripes do: #FFFFFF/#F2F2F7 in light, #000000/#1C1C1E in dark), then in
// the other, never past the lightness of a text (the stripe keeps every text's polarity). Each
// candidate is gamut-mapped into sRGB (CSS Color 4 §13.2) and rounded to 8 bits,
// since a designer will use the hex; ΔE OK and contrast are measured on that rounded color. The
// first candidate whose ΔE OK from the base reaches the threshold (and the row contrast its
// minimum, below) and on which every text meets
// the target is proposed: it is the least change that is visibly distinct.
//
// ΔE OK (Ottosson 2020, CSS Color 4 §13.2): about 0.02 is a just-noticeable difference. Near
// black OKLab's cube root exaggerates differences (#000000 to #010101 is ΔE OK 0.067, yet
// invisible), so a candidate must also reach a minimum WCAG luminance ratio between the rows
// (default 1.1; Apple's own stripes are 1.12:1 in light and 1.23:1 in dark).

/// A proposal for the alternate row.
import ColorScience
public struct TableStripeProposal: Sendable {
    /// Which way the alternate row moved from the base.
    public enum Direction: String, Sendable {
        case darker, lighter
    }

    /// The base row, opaque gamma-encoded sRGB `0...1`.
    public var base: SIMD3<Double>
    /// The proposed alternate row (8-bit sRGB `0...1`), or the closest attempt when `found` is false.
    public var alternate: SIMD3<Double>
    /// True when `alternate` meets both the ΔE threshold and every text target.
    public var found: Bool
    /// Darker or lighter than the base.
    public var direction: Direction
    /// ΔE OK between base and alternate.
    public var deltaEOK: Double
    /// WCAG luminance ratio `1...21` between base and alternate.
    public var rowContrast: Double
    /// Each text color measured on the base row, in input order.
    public var onBase: [ContrastMeasurement]
    /// Each text color measured on the alternate row, in input order.
    public var onAlternate: [ContrastMeasurement]
    /// Why no proposal meets everything, when `found` is false.
    public var reason: String?
    /// The texts (indices into `texts`, from 0) that already miss the target on the base row,
    /// which no alternate row can help; the caller names them as its input does.
    public var failingOnBase: [Int] = []
}

/// The table-stripe proposal algorithm (see the file notes).
public enum TableStripes {
    /// Default minimum ΔE OK between rows: 0.03, one and a half times the ~0.02 just-noticeable
    /// difference, so the stripe is seen without effort. (Apple's light stripe #F2F2F7 on white
    /// is about 0.04.)
    public static let defaultMinimumDeltaEOK = 0.03
    /// Default minimum WCAG luminance ratio between the rows (see the file notes).
    public static let defaultMinimumRowContrast = 1.1
    /// OKLCH lightness step of the search.
    static let step = 0.002

    /// Proposes the alternate row for `base` (opaque sRGB `0...1`).
    /// - Parameters:
    ///   - texts: the text colors shown on both rows (translucent allowed: composited on each row).
    ///   - targetRatio: WCAG ratio every text must keep on both rows, `1...21`.
    ///   - minimumDeltaEOK: visible-difference threshold, `> 0`.
    ///   - minimumRowContrast: minimum WCAG luminance ratio between the rows, `1...21`.
    public static func propose(base: SIMD3<Double>, texts: [DisplayColor], targetRatio: Double,
                               minimumDeltaEOK: Double = defaultMinimumDeltaEOK,
                               minimumRowContrast: Double = defaultMinimumRowContrast) -> TableStripeProposal {
        let base = EightBit.quantize(base)  // the rounding Color.hex writes
        let onBase = texts.map { ContrastMeasurement.opaque(foreground: $0, background: base) }
        let baseColor = Color.srgb(base.x, base.y, base.z)
        let lch = baseColor.converted(to: .oklch).coordinates
        let preferDarker = lch.x >= 0.5
        let directions: [TableStripeProposal.Direction] = preferDarker ? [.darker, .lighter] : [.lighter, .darker]

        let baseMeetsTarget = onBase.allSatisfy { $0.ratio >= targetRatio }
        // Which side of each text the base row lies on: a stripe must stay on that side. Past the
        // text's own lightness the contrast rises again in the opposite polarity, and a search
        // that kept going proposed a near-black stripe for gray text on a white table.
        // A text of the base row's own luminance (ratio 1) is on neither side: any direction
        // moves away from it (a hostile pass: black text on a black base blocked every stripe).
        let textIsDarker: [Bool?] = onBase.map { $0.foregroundLuminance == $0.backgroundLuminance ? nil : $0.foregroundLuminance < $0.backgroundLuminance }
        var firstVisible: [(TableStripeProposal.Direction, SIMD3<Double>, Double)] = []
        for direction in directions {
            let sign = direction == .darker ? -1.0 : 1.0
            var k = 1
            var sawVisible = false
            while true {
                let l = lch.x + sign * Double(k) * step
                k += 1
                if l < -step || l > 1 + step { break }
                let candidateColor = GamutMapping.map(
                    Color(space: .oklch, coordinates: SIMD3(min(max(l, 0), 1), lch.y, lch.z)), to: .srgb)
                let candidate = EightBit.quantize(candidateColor.coordinates)
                let onAlt = texts.map { ContrastMeasurement.opaque(foreground: $0, background: candidate) }
                if zip(onAlt, textIsDarker).contains(where: { $1 != nil && ($0.foregroundLuminance < $0.backgroundLuminance) != $1! }) {
                    break  // a text changed polarity: every further step in this direction is beyond it
                }
                let d = ColorDifference.deltaEOK(baseColor, Color.srgb(candidate.x, candidate.y, candidate.z))
                let rows = rowContrast(base, candidate)
                guard d >= minimumDeltaEOK, rows >= minimumRowContrast else { continue }
                if !sawVisible { firstVisible.append((direction, candidate, d)); sawVisible = true }
                if !baseMeetsTarget { break }  // no alternate can help; keep the first visible one
                if onAlt.allSatisfy({ $0.ratio >= targetRatio }) {
                    return TableStripeProposal(base: base, alternate: candidate, found: true, direction: direction,
                                               deltaEOK: d, rowContrast: rows, onBase: onBase, onAlternate: onAlt, reason: nil)
                }
            }
        }

        // Nothing meets everything: report the visible candidate whose worst text does best.
        let failingBase = onBase.indices.filter { onBase[$0].ratio < targetRatio }
        var best: TableStripeProposal?
        for (direction, candidate, d) in firstVisible {
            let onAlt = texts.map { ContrastMeasurement.opaque(foreground: $0, background: candidate) }
            let worst = onAlt.map(\.ratio).min() ?? 21
            if best == nil || worst > (best!.onAlternate.map(\.ratio).min() ?? 21) {
                best = TableStripeProposal(base: base, alternate: candidate, found: false, direction: direction,
                                           deltaEOK: d, rowContrast: rowContrast(base, candidate),
                                           onBase: onBase, onAlternate: onAlt, reason: nil)
            }
        }
        var result = best ?? TableStripeProposal(base: base, alternate: base, found: false, direction: directions[0],
                                                 deltaEOK: 0, rowContrast: 1, onBase: onBase, onAlternate: onBase, reason: nil)
        result.failingOnBase = failingBase
        if !failingBase.isEmpty {
            result.reason = "text \(failingBase.map { String($0 + 1) }.joined(separator: ", ")) of \(texts.count) (counted from 1) already misses the target on the base row; no alternate row can fix that"
        } else if best == nil {
            result.reason = "no color differs from the base row by both the ΔE OK threshold and the minimum row contrast"
        } else {
            result.reason = "no alternate row differs visibly from the base while every text keeps the target; the closest visible attempt is shown"
        }
        return result
    }

    /// WCAG luminance ratio between two opaque rows.
    static func rowContrast(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        WCAG.contrastRatio(WCAG.relativeLuminance(a), WCAG.relativeLuminance(b))
    }

}
