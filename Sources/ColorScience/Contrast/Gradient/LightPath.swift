import Foundation

/// A gradient stretch seen as linear-light sRGB channels that are smooth functions of the weight
/// `w` of its second color (CSS Color 4 §12.4: opaque colors mixed in the interpolation space),
/// with what the solvers of `GradientContrast` need from every such path: the color a screen
/// shows at `w` (each channel clipped to `0...1`) with its WCAG 2 relative luminance, its APCA
/// 0.0.98G-4g screen luminance and that luminance's slope, and the two root searches on APCA's
/// luminance (where its slope is 0; where it equals the text's). `CubicLightPath` (OKLab and the
/// linear-light spaces) and `OKLCHPath` are such paths.
protocol LightPath {
    /// The unclipped linear sRGB color at `w` and its slope in `w`.
    func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>)
    /// Where the WCAG relative luminance of a piece whose channels are clipped as `clip` (0 or
    /// 1, a free channel -1) equals `level`, between `a` and `b` where it less `level` is `fa`
    /// and `fb`, of opposite signs.
    func wcagRoot(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, clip: SIMD3<Double>, level: Double) -> Double
}

/// One color of a `LightPath` as a screen shows it.
struct LightPoint {
    /// The weight of the stretch's second color.
    var w: Double
    /// Gamma-encoded sRGB, each channel clipped to `0...1`.
    var rgb: SIMD3<Double>
    /// WCAG 2 relative luminance `0...1` and APCA screen luminance `0...1.1` of `rgb`.
    var l: Double, y: Double
    /// Each channel's part of the slope of `y` in `w`.
    var slopes: SIMD3<Double>
    /// Each channel's weight times the slope of its APCA power in the linear channel,
    /// `aₖ·g'(cₖ)` with `g(c) = enc(c)^2.4` (0 where the channel is 0).
    var gains: SIMD3<Double>

    /// The slope of `y` in `w` over the channels not clipped in a piece (a channel clipped
    /// to 0 or 1 holds that in `clip`, a free channel -1).
    @inline(__always) func slope(_ clip: SIMD3<Double>) -> Double {
        (clip[0] < 0 ? slopes[0] : 0) + (clip[1] < 0 ? slopes[1] : 0) + (clip[2] < 0 ? slopes[2] : 0)
    }

    /// The same color with the channels' slopes `dc` (a kink's other side: `ScannedLightPath`),
    /// as `LightPath.point(at:linear:slopes:)` would give it.
    @inline(__always) func withLinearSlopes(_ dc: SIMD3<Double>) -> LightPoint {
        var q = self
        q.slopes = gains * dc
        return q
    }
}

extension LightPath {
    /// The WCAG relative luminance over a piece whose channels are clipped as `clip` (0 or 1, a
    /// free channel -1) is `(weights · c).sum() + constant` of the linear channels `c`.
    @inline(__always) func wcagSum(_ clip: SIMD3<Double>) -> (weights: SIMD3<Double>, constant: Double) {
        var weights = SIMD3<Double>.zero, constant = 0.0
        for k in 0..<3 {
            if clip[k] < 0 { weights[k] = AffineSRGBPath.wcagWeights[k] } else { constant += AffineSRGBPath.wcagWeights[k] * clip[k] }
        }
        return (weights, constant)
    }

    /// The color at `w` as a screen shows it, its luminances, and each channel's part of APCA's
    /// slope. Two powers per channel: `r = c^(1/2.4)` encodes it, `e = 1.055r − 0.055`,
    /// and `e^2.4` is APCA's; the slope of `e^2.4` in `c` is `1.055·e^2.4·r / (e·c)` (below
    /// 0.0031308, where `e = 12.92c`: `2.4·e^2.4 / c`).
    func point(at w: Double) -> LightPoint {
        let (raw, dc) = linearWithSlope(at: w)
        return point(at: w, linear: raw, slopes: dc)
    }

    /// The color at `w` from its unclipped linear channels `raw` and their slopes `dc`, as
    /// `linearWithSlope` gave them (a scanned color's, which the solver already holds).
    @inline(__always)
    func point(at w: Double, linear raw: SIMD3<Double>, slopes dc: SIMD3<Double>) -> LightPoint {
        var rgb = SIMD3<Double>.zero, slopes = SIMD3<Double>.zero, gains = SIMD3<Double>.zero, l = 0.0, y = 0.0
        let apcaWeights = AffineSRGBPath.apcaWeights, wcagWeights = AffineSRGBPath.wcagWeights
        for k in 0..<3 {
            let c = raw[k].isFinite ? Swift.min(Swift.max(raw[k], 0), 1) : 0
            let a = apcaWeights[k]
            l += wcagWeights[k] * c
            if c <= 0.0031308 {
                let e = 12.92 * c, g = e > 0 ? pow(e, APCA.mainTRC) : 0
                rgb[k] = e
                y += a * g
                if c > 0 { gains[k] = a * 2.4 * g / c }
            } else {
                let r = pow(c, 1 / 2.4)
                let e = 1.055 * r - 0.055, g = pow(e, APCA.mainTRC)
                rgb[k] = e
                y += a * g
                gains[k] = a * 1.055 * g * r / (e * c)
            }
            slopes[k] = gains[k] * dc[k]
        }
        return LightPoint(w: w, rgb: rgb, l: l, y: y, slopes: slopes, gains: gains)
    }

    /// Where APCA's slope is 0 between `a` and `b`, where it has opposite signs: Illinois steps
    /// (M. Dowell and P. Jarratt, BIT 11 (1971) 168–174) to a bracket of 1e-9. An extreme
    /// found to 1e-9 in `w` is within about 1e-17 of its value.
    func apcaExtreme(_ a: LightPoint, _ b: LightPoint, clip: SIMD3<Double>) -> LightPoint {
        var bracket = GradientContrast.IllinoisBracket(a.w, a.slope(clip), b.w, b.slope(clip))
        var q = a
        for _ in 0..<60 {
            q = point(at: bracket.next)
            let slope = q.slope(clip)
            guard slope.isFinite, slope != 0, bracket.width >= 1e-9 else { break }
            bracket.update(q.w, slope)
        }
        return q
    }

    /// The first point where APCA's luminance crosses the text's (`textY`), looked for on the
    /// monotone section from `a` to `b` while none has been `found` (which it then sets): nil
    /// when the section does not cross, or when an end already equals it (a color measured).
    /// The search starts from `wcagCrossing` when that lies inside the section.
    func firstAPCACrossing(_ a: LightPoint, _ b: LightPoint, textY: Double, clip: SIMD3<Double>,
                           wcagCrossing: LightPoint?, found: inout Bool) -> LightPoint? {
        guard !found else { return nil }
        let fa = a.y - textY, fb = b.y - textY
        guard fa.isFinite, fb.isFinite else { return nil }
        if fa == 0 || fb == 0 { found = true; return nil }
        guard (fa < 0) != (fb < 0) else { return nil }
        found = true
        let near = wcagCrossing.flatMap { $0.w > a.w && $0.w < b.w ? $0 : nil }
        return apcaCrossing(a, b, level: textY, clip: clip, near: near)
    }

    /// Where APCA's luminance equals `level` between `a` and `b`, where it is monotone and on
    /// opposite sides of `level`: Newton steps from `near` (a color already evaluated between
    /// them, where the WCAG luminance crosses the text's) or else from where the cubic Hermite
    /// interpolant of the two points' values and slopes meets `level`, kept inside the bracket
    /// (bisection when a step leaves it), to a luminance within 1e-5 of `level`. That is far inside APCA's
    /// `deltaYmin` (0.0005 after its black-level clamp, which only draws luminances closer),
    /// within which its Lc is 0.
    func apcaCrossing(_ a: LightPoint, _ b: LightPoint, level: Double, clip: SIMD3<Double>, near: LightPoint? = nil) -> LightPoint {
        var (lo, hi) = (a.w, b.w)
        let rising = b.y > a.y, width = b.w - a.w
        var w: Double
        if let near {
            w = near.w
        } else {
            let ends = AffineSRGBPath.Ends(value0: a.y, slope0: a.slope(clip) * width, value1: b.y, slope1: b.slope(clip) * width)
            let secant = (level - a.y) / (b.y - a.y)
            w = a.w + width * AffineSRGBPath.hermiteCrossing(level, ends, from: secant, lo: 0, hi: 1)
        }
        if !(w > lo && w < hi) { w = (lo + hi) / 2 }
        var q = a
        for step in 0..<60 {
            q = step == 0 && near?.w == w ? near! : point(at: w)
            let g = q.y - level, slope = q.slope(clip)
            guard g.isFinite, abs(g) >= 1e-5 else { return q }
            if (g < 0) == rising { lo = w } else { hi = w }
            var next = slope != 0 && slope.isFinite ? w - g / slope : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            if hi - lo <= 1e-15 { return q }
            w = next
        }
        return q
    }
}
