import Foundation

/// WCAG 2 relative luminance and APCA screen luminance along a straight path of gamma-encoded
/// sRGB colors, `start + s·delta` for `s` in `0...1`, with their first and second derivatives in
/// `s`: what a gradient stretch interpolated in sRGB shows (CSS Color 4 §12.4: premultiplied
/// channels and alpha both change linearly, so a color composited source-over onto an opaque
/// backdrop moves on a straight line too).
///
/// Both luminances are convex in `s`: each is a positive sum of a convex transfer function of a
/// linear function of `s` — WCAG 2.2's sRGB decoding (`x/12.92` up to 0.04045, then
/// `((x + 0.055)/1.055)^2.4`, whose slopes meet there rising) and APCA 0.0.98G-4g's `x^2.4`. So
/// each has its maximum at an end and at most one interior minimum, and takes any value between
/// its least and an end's value at most once on each side of that minimum. `GradientContrast`
/// finds its extremes from these points instead of sampling the stretch.
struct AffineSRGBPath {
    /// The color at `s = 0`, gamma-encoded sRGB `0...1`.
    let start: SIMD3<Double>
    /// The color at `s = 1`, gamma-encoded sRGB `0...1`.
    let end: SIMD3<Double>
    /// The color at `s = 1` minus the color at `s = 0`.
    let delta: SIMD3<Double>

    init(start: SIMD3<Double>, end: SIMD3<Double>) {
        (self.start, self.end, delta) = (start, end, end - start)
    }

    /// Which luminance.
    enum Luminance { case wcag, apca }

    /// WCAG 2's and APCA's channel weights (computed where used: a stored SIMD constant would be
    /// reached through a lazy-initialization check on every use).
    @inline(__always) static var wcagWeights: SIMD3<Double> { SIMD3(0.2126, 0.7152, 0.0722) }
    @inline(__always) static var apcaWeights: SIMD3<Double> { SIMD3(APCA.sRco, APCA.sGco, APCA.sBco) }

    /// The luminance at `s` and its first and second derivatives in `s`. `x^2.4` is taken as
    /// `x²·x^0.4`, so one `pow` per channel gives all three.
    func luminance(_ kind: Luminance, at s: Double) -> (value: Double, slope: Double, curvature: Double) {
        var v = 0.0, d1 = 0.0, d2 = 0.0
        let weights = kind == .wcag ? Self.wcagWeights : Self.apcaWeights
        for k in 0..<3 {
            let x = Swift.min(Swift.max(start[k] + delta[k] * s, 0), 1)
            let c = weights[k], dx = delta[k]
            switch kind {
            case .wcag:
                if x <= 0.04045 {
                    v += c * x / 12.92
                    d1 += c * dx / 12.92
                } else {
                    let u = (x + 0.055) / 1.055, p = pow(u, 0.4)
                    v += c * u * u * p
                    d1 += c * dx * (2.4 / 1.055) * u * p
                    d2 += c * dx * dx * (2.4 * 1.4 / (1.055 * 1.055)) * p
                }
            case .apca:
                let p = pow(x, 0.4)
                v += c * x * x * p
                d1 += c * dx * 2.4 * x * p
                d2 += c * dx * dx * 3.36 * p
            }
        }
        return (v, d1, d2)
    }

    /// A luminance's value and slope at both ends, taken once for `interiorMinimum` and
    /// `firstCrossing`.
    struct Ends {
        let value0: Double, slope0: Double, value1: Double, slope1: Double
    }

    /// Both luminances' values and slopes at both ends, from each end's channels as WCAG 2.2
    /// decodes them (`WCAG.linearize`) and as APCA raises them (`APCA.channelPower`), read from
    /// their tables for 8-bit levels: the values are the sums `WCAG.relativeLuminance` and
    /// `APCA.screenLuminance` make, bit for bit. The slope of `x^2.4` is `2.4·x^2.4 / x`, and of
    /// `((x + 0.055)/1.055)^2.4` it is `2.4·value / (x + 0.055)`, so no power is taken twice.
    func ends() -> (wcag: Ends, apca: Ends) {
        var w0 = 0.0, wd0 = 0.0, w1 = 0.0, wd1 = 0.0, a0 = 0.0, ad0 = 0.0, a1 = 0.0, ad1 = 0.0
        for k in 0..<3 {
            let dx = delta[k], cw = Self.wcagWeights[k], ca = Self.apcaWeights[k]
            let (l0, dl0, p0, dp0) = Self.channel(start[k]), (l1, dl1, p1, dp1) = Self.channel(end[k])
            w0 += cw * l0; w1 += cw * l1; wd0 += cw * dx * dl0; wd1 += cw * dx * dl1
            a0 += ca * p0; a1 += ca * p1; ad0 += ca * dx * dp0; ad1 += ca * dx * dp1
        }
        return (Ends(value0: w0, slope0: wd0, value1: w1, slope1: wd1), Ends(value0: a0, slope0: ad0, value1: a1, slope1: ad1))
    }

    /// One channel `x` (clamped to `0...1`): WCAG's decoded value and its derivative, APCA's
    /// `x^2.4` and its derivative.
    @inline(__always)
    static func channel(_ c: Double) -> (Double, Double, Double, Double) {
        let x = Swift.min(Swift.max(c, 0), 1)
        let level = EightBitLevel.index(of: x)
        let l = level.map { WCAG.linearized8Bit[$0] } ?? WCAG.decode(x)
        let p = level.map { APCA.powered8Bit[$0] } ?? pow(x, APCA.mainTRC)
        return (l, x <= 0.04045 ? 1 / 12.92 : 2.4 * l / (x + 0.055), p, x > 0 ? 2.4 * p / x : 0)
    }

    /// The `s` strictly inside `0...1` where the luminance is least, with that least value; nil
    /// when it is least at an end (its slope is not negative at 0, or not positive at 1). Newton
    /// steps on the slope, kept inside the bracket where the slope changes sign (bisection when
    /// a step leaves it), to 1e-13.
    func interiorMinimum(_ kind: Luminance, _ e: Ends) -> (s: Double, value: Double)? {
        guard e.slope0 < 0, e.slope1 > 0 else { return nil }
        var (lo, hi) = (0.0, 1.0)
        var s = e.slope0 / (e.slope0 - e.slope1)
        for _ in 0..<60 {
            let (value, slope, curvature) = luminance(kind, at: s)
            if slope < 0 { lo = s } else if slope > 0 { hi = s } else { return (s, value) }
            var next = curvature > 0 ? s - slope / curvature : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            if abs(next - s) < 1e-13 || hi - lo < 1e-13 { return (next, luminance(kind, at: next).value) }
            s = next
        }
        return (s, luminance(kind, at: s).value)
    }

    /// The least `s` in `0...1` where the luminance equals `level`, or nil when it never does.
    /// `minimum` is its interior minimum (nil: least at the lower end): the luminance falls until
    /// there and rises after, so the first crossing is on the falling side when `level` lies
    /// between its value at 0 and its least, else on the rising side. Halley steps (Newton's
    /// with the curvature, cubic convergence) from the secant point, kept inside that monotone
    /// bracket, to a luminance within 1e-15 or an `s` within 1e-13.
    func firstCrossing(_ kind: Luminance, level: Double, _ e: Ends, minimum: (s: Double, value: Double)?) -> Double? {
        let low = minimum ?? (e.value0 <= e.value1 ? (0, e.value0) : (1, e.value1))
        var lo: Double, hi: Double, flo: Double, fhi: Double
        if e.value0 >= level && level >= low.value {
            (lo, hi, flo, fhi) = (0, low.s, e.value0, low.value)
        } else if low.value <= level && level <= e.value1 {
            (lo, hi, flo, fhi) = (low.s, 1, low.value, e.value1)
        } else {
            return nil
        }
        if flo == level { return lo }
        if fhi == level { return hi }
        let falling = flo > fhi
        var s = lo + (level - flo) / (fhi - flo) * (hi - lo)
        if minimum == nil {
            // The bracket is the whole stretch, whose ends' values and slopes are known: start
            // from where their cubic Hermite interpolant meets the level (Newton steps on the
            // cubic, no powers), typically within 1e-4 of the crossing.
            s = Self.hermiteCrossing(level, e, from: s, lo: lo, hi: hi)
        }
        if !(s > lo && s < hi) { s = (lo + hi) / 2 }
        for _ in 0..<60 {
            let (v, slope, curvature) = luminance(kind, at: s)
            let g = v - level
            if abs(g) < 1e-15 { return s }
            // Above the level on the falling side means the crossing is later; on the rising side earlier.
            if (g > 0) == falling { lo = s } else { hi = s }
            let denominator = 2 * slope * slope - g * curvature
            var next = denominator != 0 ? s - 2 * g * slope / denominator : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            // A step below 1e-6 leaves the next point within about 1e-18 of the crossing
            // (Halley's cubic convergence; about 1e-12 where WCAG's decoding changes formula
            // near the crossing and the convergence is only quadratic).
            if abs(next - s) < 1e-6 || hi - lo < 1e-13 { return next }
            s = next
        }
        return s
    }

    /// The `s` strictly inside `0...1` besides the ends where one of the four extremes can lie,
    /// in increasing order (`.infinity` fills the unused places): each luminance's interior
    /// minimum, and its first crossing of the text's (`textL`, `textY`) unless
    /// `wcagCrossing` / `apcaCrossing` is false (an end already has a ratio of 1 or an Lc of 0).
    func interiorCandidates(_ endsW: Ends, _ endsA: Ends, textL: Double, textY: Double,
                            wcagCrossing: Bool, apcaCrossing: Bool) -> SIMD4<Double> {
        let lowW = interiorMinimum(.wcag, endsW), lowA = interiorMinimum(.apca, endsA)
        var points = SIMD4<Double>(repeating: .infinity)
        if let s = lowW?.s { points[0] = s }
        if let s = lowA?.s { points[1] = s }
        if wcagCrossing, let s = firstCrossing(.wcag, level: textL, endsW, minimum: lowW) { points[2] = s }
        if apcaCrossing, let s = firstCrossing(.apca, level: textY, endsA, minimum: lowA) { points[3] = s }
        // In increasing order (a sorting network on four values).
        func order(_ i: Int, _ j: Int) {
            if points[j] < points[i] { (points[i], points[j]) = (points[j], points[i]) }
        }
        order(0, 1); order(2, 3); order(0, 2); order(1, 3); order(1, 2)
        return points
    }

    /// Where the cubic Hermite interpolant of the ends' values and slopes equals `level`,
    /// from Newton steps on the cubic started at `s` and kept inside `lo...hi` (`s` itself when
    /// they do not settle within 8 steps).
    static func hermiteCrossing(_ level: Double, _ e: Ends, from s: Double, lo: Double, hi: Double) -> Double {
        // H(s) = h00·v0 + h10·d0 + h01·v1 + h11·d1 on 0...1, as a polynomial a + b s + c s² + d s³.
        let a = e.value0, b = e.slope0
        let c = 3 * (e.value1 - e.value0) - 2 * e.slope0 - e.slope1
        let d = 2 * (e.value0 - e.value1) + e.slope0 + e.slope1
        var x = s
        for _ in 0..<8 {
            let h = ((d * x + c) * x + b) * x + a - level
            let dh = (3 * d * x + 2 * c) * x + b
            guard dh != 0, dh.isFinite else { return s }
            let next = x - h / dh
            guard next > lo, next < hi else { return s }
            if abs(next - x) < 1e-12 { return next }
            x = next
        }
        return x
    }
}
