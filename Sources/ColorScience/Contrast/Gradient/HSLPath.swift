import Foundation

/// A gradient stretch interpolated in HSL or HWB between opaque colors (CSS Color 4 §12.4: the
/// hue, fixed up for the hue interpolation method, and the other two components mix linearly in
/// the weight `w` of the second color). Each gamma-encoded sRGB channel is made of pieces:
/// HSL's `l − s·min(l, 1−l)·clamp(k)` with `k = (n + h/30) mod 12` turns formula at every
/// 60° of hue and where `l` passes ½ (CSS Color 4 §7.1 `hslToRgb`); HWB mixes HSL's pure hue
/// with white and black, and is the gray `w/(w+b)` once `w + b ≥ 1` (§8.1 `hwbToRgb`). sRGB's
/// decoding (IEC 61966-2-1) then gives the linear channel. Where a piece ends a slope can change
/// sign, so the stretch is scanned, cut where a piece ends (`kinks`) and solved from the scan
/// (`ScannedLightPath`).
struct HSLPath: ScannedLightPath {
    /// h° and the two other components (fractions `0...1`, not percents) at `w = 0`, and their
    /// changes to `w = 1`.
    let start: SIMD3<Double>, change: SIMD3<Double>
    /// Whether the components are HWB's (hue, whiteness, blackness).
    let hwb: Bool

    /// The path between two opaque colors as `ColorInterpolation.Pair` holds them in HSL or
    /// HWB (h° fixed up, the others in percent; premultiplied by an alpha of 1; a component
    /// missing in both is 0), or nil when a component is beyond 10⁶ or not finite (the general
    /// search measures such stretches).
    init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, missing: ComponentFlags, hwb: Bool) {
        var (p, q) = (p, q)
        for k in 0..<3 where missing[k] { p[k] = 0; q[k] = 0 }
        let limit = Color.maximumCoordinateMagnitude
        guard (0..<3).allSatisfy({ abs(p[$0]) <= limit && abs(q[$0]) <= limit }) else { return nil }
        let scale = SIMD3<Double>(1, 0.01, 0.01)
        (start, change, self.hwb) = (p * scale, (q - p) * scale, hwb)
    }

    var hueTravel: Double { abs(change.x) }
    var hasKinks: Bool { true }

    /// Where a channel's slope jumps: every 60° of hue (a channel's `clamp(k)` turns there), and
    /// for HSL where `l` passes ½, for HWB where `w + b` passes 1; and where its curvature does.
    func kinks(from a: Double, to b: Double, into cuts: inout ScanCuts) {
        if change.x != 0 {
            let (h0, h1) = (start.x + change.x * a, start.x + change.x * b)
            let first = (Swift.min(h0, h1) / 60).rounded(.up), last = (Swift.max(h0, h1) / 60).rounded(.down)
            // A scanned interval turns at most 15° (a stretch at most 360° over 30 colors).
            if first.isFinite && last.isFinite && last - first < 4 {
                for m in stride(from: first, through: last, by: 1) { cuts.add((60 * m - start.x) / change.x, kink: true) }
            }
        }
        let (x0, dx, value) = hwb ? (start.y + start.z, change.y + change.z, 1.0) : (start.z, change.z, 0.5)
        if dx != 0 { cuts.add((value - x0) / dx, kink: true) }
        // Between those, where an encoded channel passes the end of sRGB's linear segment
        // (±0.04045), where the decoded channel's curvature jumps from 0: mixed with the others
        // the luminance can turn twice there between two scanned colors (a dense scan: a
        // minimum ratio 1.0621145 instead of 1.0621140 on `hsl, #de0909, #768a76`).
        let edge = EncodedRGBPath.linearSegmentEnd(.srgb)
        let pieces = cuts
        var (p, ep) = (a, encodedWithSlope(at: a).0)
        for i in 0...pieces.count {
            let q = i < pieces.count ? pieces.w[i] : b
            let eq = encodedWithSlope(at: q).0
            for k in 0..<3 {
                // Two levels without an array literal (which allocated: a tenth of an HSL gradient's cost).
                for side in 0..<2 {
                    let level = side == 0 ? -edge : edge
                    let (fp, fq) = (ep[k] - level, eq[k] - level)
                    guard fp.isFinite, fq.isFinite, fp != 0, fq != 0, (fp < 0) != (fq < 0) else { continue }
                    cuts.add(root(p, fp, q, fq) { w in
                        let (e, de) = encodedWithSlope(at: w)
                        return (e[k] - level, de[k])
                    }, kink: true)
                }
            }
            (p, ep) = (q, eq)
        }
    }

    func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>) {
        let (e, de) = encodedWithSlope(at: w)
        let (r, g, b) = (EncodedRGBPath.decoded(e.x, .srgb), EncodedRGBPath.decoded(e.y, .srgb), EncodedRGBPath.decoded(e.z, .srgb))
        return (SIMD3(r.0, g.0, b.0), SIMD3(r.1, g.1, b.1) * de)
    }

    /// The gamma-encoded sRGB channels at `w` and their slopes.
    func encodedWithSlope(at w: Double) -> (SIMD3<Double>, SIMD3<Double>) {
        let v = start + change * w
        var e: SIMD3<Double>, de: SIMD3<Double>
        if !hwb {
            (e, de) = Self.hsl(hue: v.x, dh: change.x, s: v.y, ds: change.y, l: v.z, dl: change.z)
        } else if v.y + v.z >= 1 {
            // The gray w / (w + b) and its slope by the quotient rule.
            let sum = v.y + v.z
            e = SIMD3(repeating: v.y / sum)
            de = SIMD3(repeating: (change.y * v.z - v.y * change.z) / (sum * sum))
        } else {
            let (pure, dpure) = Self.hsl(hue: v.x, dh: change.x, s: 1, ds: 0, l: 0.5, dl: 0)
            let keep = 1 - v.y - v.z
            e = pure * keep + v.y
            de = dpure * keep - pure * (change.y + change.z) + change.y
        }
        return (e, de)
    }

    /// `hslToSRGB` (s and l as fractions) with the slope of each channel for slopes `dh`, `ds`,
    /// `dl` of the components; at a corner of a piece the slope of either side.
    @inline(__always) static func hsl(hue: Double, dh: Double, s: Double, ds: Double, l: Double, dl: Double)
        -> (SIMD3<Double>, SIMD3<Double>) {
        // `fmod` only off the usual range: it was a fifth of an HSL gradient's instructions.
        var h = hue
        if !(h >= 0 && h < 360) {
            h = h.truncatingRemainder(dividingBy: 360)
            if h < 0 { h += 360 }
        }
        let m = Swift.min(l, 1 - l), dm = l < 0.5 ? dl : -dl
        let a = s * m, da = ds * m + s * dm
        let dk = dh / 30, h30 = h / 30
        // One channel (`n` 0, 8, 4 for red, green, blue), written out rather than looped over
        // SIMD lanes: the loop's lane inserts were a third of an HSL gradient's conversions.
        @inline(__always) func channel(_ n: Double) -> (Double, Double) {
            // `(n + h/30) mod 12` for a sum in `0..<24`: subtracting 12 is exact there (Sterbenz).
            var k = n + h30
            if k >= 12 { k -= 12 }
            // max(-1, min(k − 3, 9 − k, 1)) and its slope in k.
            var t: Double, dt: Double
            let (x1, x2) = (k - 3, 9 - k)
            if x1 <= x2 && x1 < 1 { (t, dt) = (x1, 1) } else if x2 < x1 && x2 < 1 { (t, dt) = (x2, -1) } else { (t, dt) = (1, 0) }
            if t < -1 { (t, dt) = (-1, 0) }
            return (l - a * t, dl - (da * t + a * dt * dk))
        }
        let (r, g, b) = (channel(0), channel(8), channel(4))
        let e = SIMD3(r.0, g.0, b.0), de = SIMD3(r.1, g.1, b.1)
        return (e, de)
    }
}
