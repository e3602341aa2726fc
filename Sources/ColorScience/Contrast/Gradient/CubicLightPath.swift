import Foundation

/// WCAG 2 relative luminance and APCA screen luminance along a gradient stretch whose linear-light
/// sRGB channels are polynomials of degree at most 3 in the weight `w` of its second color (CSS
/// Color 4 §12.4: opaque colors are mixed linearly in the interpolation space):
/// - in **OKLab**, non-linear LMS is a matrix of Lab and so linear in `w`, LMS is its cube and
///   linear sRGB a matrix of LMS (CSS Color 4 §9.2 and §18, `OKLab_to_XYZ`): each channel is a
///   cubic;
/// - in a **linear-light space** (srgb-linear, display-p3-linear, xyz, xyz-d65, xyz-d50) each
///   channel is a matrix of the mix and so linear in `w`.
///
/// A screen clips each gamma-encoded channel to `0...1`, which clips the linear channel `c` there
/// too (sRGB's transfer function is monotone, 0 at 0 and 1 at 1). Between the weights where a
/// channel passes 0 or 1 (found as roots of its cubic), what is seen is smooth, and:
/// - the WCAG luminance `Σ wₖ·clip(cₖ)` is itself a cubic (WCAG 2.2's decoding undoes sRGB's
///   encoding, IEC 61966-2-1), so its extremes are roots of a quadratic and its crossing of the
///   text's luminance a root on a monotone bracket: no power is taken;
/// - APCA 0.0.98G-4g's screen luminance `Σ aₖ·enc(cₖ)^2.4` is not a polynomial. It weighs each
///   channel by the slope of `enc(c)^2.4`, which is near WCAG's 1 except in dark channels, so its
///   slope is taken at the piece's ends and at the WCAG extremes, and halfway between each two
///   unless a bound shows it monotone there (`monotone`), and solved where it changes sign
///   (Illinois steps). Its crossing of the text's luminance is then on a monotone bracket,
///   solved by Newton steps from the WCAG crossing (usually close by) to well inside APCA's
///   `deltaYmin`, where its Lc is 0.
///
/// `GradientContrast` measures the ends, the channels' clipping points and these points; held
/// against a dense scan and against the general search (GradientTests).
struct CubicLightPath: LightPath {
    /// Each linear sRGB channel as coefficients `(c₀, c₁, c₂, c₃)` of `c₀ + c₁w + c₂w² + c₃w³`.
    let red: SIMD4<Double>, green: SIMD4<Double>, blue: SIMD4<Double>

    init(red: SIMD4<Double>, green: SIMD4<Double>, blue: SIMD4<Double>) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// Linear sRGB from OKLab's non-linear LMS cubed: `xyzToLinearSRGB × lmsToXYZ`.
    static let lmsToLinearSRGB: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) = {
        let a = ColorSpaceTree.xyzToLinearSRGB, b = ColorSpaceTree.lmsToXYZ
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { r.x * b.r0 + r.y * b.r1 + r.z * b.r2 }
        return (row(a.r0), row(a.r1), row(a.r2))
    }()

    /// The path between two opaque colors given in `space` as `ColorInterpolation.Pair` holds
    /// them (premultiplied by an alpha of 1), or nil for a space whose channels are not
    /// polynomials of the weight (gamma-encoded RGB, Lab, the polar spaces).
    init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, in space: InterpolationSpace) {
        let toLinear: ((SIMD3<Double>) -> SIMD3<Double>)
        switch space {
        case .oklab:
            // LMS' = M·Lab is p' + w·d'; each LMS channel (p' + w·d')³ expands to
            // p'³ + 3p'²d'·w + 3p'd'²·w² + d'³·w³, and linear sRGB is N × LMS.
            let m = ColorSpaceTree.oklabToLMS
            let a = m(p), d = m(q) - a
            // The cubic's coefficients grow with the cube of LMS': beyond 100 (OKLab a and b in
            // the hundreds; real colors stay within ±0.5) their sum loses the digits a channel
            // near 0 or 1 needs, so such stretches are searched (a hostile pass: a = 1e5).
            guard (0..<3).allSatisfy({ abs(a[$0]) <= 100 && abs(a[$0] + d[$0]) <= 100 }) else { return nil }
            func cube(_ j: Int) -> SIMD4<Double> {
                let (x, y): (Double, Double) = (a[j], d[j])
                let c0: Double = x * x * x, c1: Double = 3 * x * x * y
                let c2: Double = 3 * x * y * y, c3: Double = y * y * y
                return SIMD4(c0, c1, c2, c3)
            }
            let (l, m3, s3) = (cube(0), cube(1), cube(2))
            let n = Self.lmsToLinearSRGB
            func channel(_ r: SIMD3<Double>) -> SIMD4<Double> { r.x * l + r.y * m3 + r.z * s3 }
            self.init(red: channel(n.0), green: channel(n.1), blue: channel(n.2))
            return
        case .srgbLinear: toLinear = { $0 }
        case .xyz, .xyzD65: toLinear = { ColorSpaceTree.xyzToLinearSRGB($0) }
        case .xyzD50: toLinear = { ColorSpaceTree.xyzToLinearSRGB(ColorSpaceTree.d50ToD65($0)) }
        case .displayP3Linear: toLinear = { ColorSpaceTree.xyzToLinearSRGB(ColorSpaceTree.linearP3ToXYZ($0)) }
        default: return nil
        }
        let a = toLinear(p), b = toLinear(q)
        guard (0..<3).allSatisfy({ a[$0].isFinite && b[$0].isFinite }) else { return nil }
        self.init(red: SIMD4(a.x, b.x - a.x, 0, 0), green: SIMD4(a.y, b.y - a.y, 0, 0), blue: SIMD4(a.z, b.z - a.z, 0, 0))
    }

    @inline(__always) func coefficients(_ k: Int) -> SIMD4<Double> { k == 0 ? red : k == 1 ? green : blue }

    @inline(__always) static func value(_ c: SIMD4<Double>, _ w: Double) -> Double { ((c[3] * w + c[2]) * w + c[1]) * w + c[0] }
    @inline(__always) static func slope(_ c: SIMD4<Double>, _ w: Double) -> Double { (3 * c[3] * w + 2 * c[2]) * w + c[1] }

    /// The unclipped linear sRGB color at `w`.
    @inline(__always) func linear(at w: Double) -> SIMD3<Double> {
        SIMD3(Self.value(red, w), Self.value(green, w), Self.value(blue, w))
    }

    /// The unclipped linear sRGB color at `w` and its slope in `w`.
    @inline(__always) func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>) {
        (linear(at: w), SIMD3(Self.slope(red, w), Self.slope(green, w), Self.slope(blue, w)))
    }

    /// Up to four increasing weights: a piece's ends and the roots of a quadratic between them
    /// (kept on the stack; this runs for every stretch of every measurement).
    struct Marks {
        private var storage = SIMD4<Double>.zero
        private(set) var count = 0
        mutating func append(_ w: Double) { storage[count] = w; count += 1 }
        subscript(_ i: Int) -> Double { storage[i] }
    }

    /// The roots of `a·w² + b·w + c` strictly between `lo` and `hi`, in increasing order, into `out`.
    static func quadraticRoots(_ a: Double, _ b: Double, _ c: Double, in lo: Double, _ hi: Double, into out: inout Marks) {
        let scale = abs(a) + abs(b) + abs(c)
        guard scale > 0, scale.isFinite else { return }
        var r0 = Double.nan, r1 = Double.nan
        if abs(a) <= 1e-13 * scale {
            if b != 0 { r0 = -c / b }
        } else {
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return }
            let q = -(b + (b < 0 ? -1 : 1) * disc.squareRoot()) / 2
            r0 = q / a
            r1 = q != 0 ? c / q : r0
            if r1 < r0 { swap(&r0, &r1) }
        }
        if r0 > lo && r0 < hi { out.append(r0) }
        if r1 > lo && r1 < hi && r1 != r0 { out.append(r1) }
    }

    /// The root of the polynomial `p` minus `level` on `lo...hi`, where it is monotone and its
    /// values `flo`, `fhi` (minus `level`) have opposite signs: Newton steps kept inside the
    /// bracket (bisection when a step leaves it), to 1e-15 in value or 1e-15 in `w`.
    static func root(_ p: SIMD4<Double>, level: Double, _ lo: Double, _ hi: Double, _ flo: Double, _ fhi: Double) -> Double {
        var (a, b) = (lo, hi)
        let rising = fhi > flo
        var w = lo + (hi - lo) * (-flo / (fhi - flo))
        if !(w > a && w < b) { w = (a + b) / 2 }
        for _ in 0..<80 {
            let f = value(p, w) - level
            if f == 0 || abs(f) < 1e-15 { return w }
            if (f < 0) == rising { a = w } else { b = w }
            let d = slope(p, w)
            var next = d != 0 ? w - f / d : (a + b) / 2
            if !(next > a && next < b) { next = (a + b) / 2 }
            if abs(next - w) <= 1e-15 * Swift.max(1, abs(w)) || b - a <= 1e-15 { return next }
            w = next
        }
        return w
    }

    /// The colors where one of the four extremes can lie between `w0` and `w1` (`w0 < w1`), in
    /// increasing order of weight, the two ends first and last: where a channel is clipped or
    /// stops being clipped; in each piece between those, the WCAG luminance's interior extremes
    /// and APCA's (where their slopes change sign); and the first point where each luminance
    /// crosses the text's (`textL`, WCAG relative luminance; `textY`, APCA screen luminance),
    /// where the ratio is 1 and the Lc 0. Each color is handed to `sink` as it is found, by
    /// piece in increasing order, with the parts and sections where the crossings are sought
    /// (`LightPathSink`).
    func points<S: LightPathSink>(from w0: Double, to w1: Double, into sink: inout S) {
        // Where a channel passes 0 or 1: each channel's cubic is monotone between its extremes,
        // so it passes each level at most three times (18 edges at most), kept in order.
        var edges = SIMD32<Double>.zero, edgeCount = 0
        for k in 0..<3 {
            let p = coefficients(k)
            let (v0, v1) = (Self.value(p, w0), Self.value(p, w1))
            var marks = Marks()
            marks.append(w0)
            Self.quadraticRoots(3 * p[3], 2 * p[2], p[1], in: w0, w1, into: &marks)
            // Inside 0...1 at both ends and with no interior extreme: never clipped between.
            if marks.count == 1 && v0 >= 0 && v0 <= 1 && v1 >= 0 && v1 <= 1 { continue }
            marks.append(w1)
            for level in stride(from: 0.0, through: 1.0, by: 1.0) {
                for i in 1..<marks.count {
                    let (a, b) = (marks[i - 1], marks[i])
                    let fa = Self.value(p, a) - level, fb = Self.value(p, b) - level
                    guard fa.isFinite, fb.isFinite, fa != 0, fb != 0, (fa < 0) != (fb < 0) else { continue }
                    // A channel at 0 or 1 at an end (a stop such as #ffcc00) can pass it there by
                    // rounding: an edge within 1e-12 of an end is that end.
                    let r = Self.root(p, level: level, a, b, fa, fb)
                    guard r > w0 + 1e-12 && r < w1 - 1e-12 else { continue }
                    var j = edgeCount
                    while j > 0 && edges[j - 1] > r { edges[j] = edges[j - 1]; j -= 1 }
                    edges[j] = r
                    edgeCount += 1
                }
            }
        }
        var pieceEnd: LightPoint? = nil
        for i in 0...edgeCount {
            let a = i == 0 ? w0 : edges[i - 1], b = i == edgeCount ? w1 : edges[i]
            guard b > a else { continue }
            // Which channels are clipped over this piece, and to what.
            let mid = linear(at: (a + b) / 2)
            var clip = SIMD3<Double>(repeating: -1)
            for k in 0..<3 { clip[k] = mid[k] < 0 || !mid[k].isFinite ? 0 : mid[k] > 1 ? 1 : -1 }
            let wcag = wcagCubic(clip)
            // WCAG: interior extremes (roots of the quadratic slope), the parts between them
            // where the text's crossing is sought.
            var marks = Marks()
            marks.append(a)
            Self.quadraticRoots(3 * wcag[3], 2 * wcag[2], wcag[1], in: a, b, into: &marks)
            marks.append(b)
            for j in 1..<marks.count where sink.seeksWCAGCrossing {
                sink.wcagPart(marks[j - 1], Self.value(wcag, marks[j - 1]), marks[j], Self.value(wcag, marks[j]), clip: clip)
            }
            // APCA: its slope at the piece's ends, the WCAG extremes and halfway between each
            // two; each sign change is solved, and the first crossing of the text's luminance
            // sought on the monotone sections between.
            // A piece starts where the previous one ended: the same color, with another channel free.
            var previous = pieceEnd ?? point(at: a)
            if pieceEnd == nil { sink.visit(previous) }
            var section = previous
            for j in 1..<marks.count {
                let q = point(at: marks[j])
                // Halfway is probed only where APCA's luminance is not shown to be monotone.
                var probes = 1
                if !monotone(previous, q, clip: clip) { probes = 2 }
                for half in 0..<probes {
                    let r = probes == 2 && half == 0 ? point(at: (marks[j - 1] + marks[j]) / 2) : q
                    let (s0, s1) = (previous.slope(clip), r.slope(clip))
                    if s0.isFinite, s1.isFinite, s0 != 0, s1 != 0, (s0 < 0) != (s1 < 0) {
                        let m = apcaExtreme(previous, r, clip: clip)
                        sink.visit(m)
                        sink.apcaSection(section, m, clip: clip)
                        section = m
                    }
                    previous = r
                }
                // The probes halfway are not where an extreme lies; the WCAG extremes are.
                if j < marks.count - 1 { sink.visit(q) }
            }
            sink.apcaSection(section, previous, clip: clip)
            // The end: the next piece's start, or the stretch's.
            sink.visit(previous)
            pieceEnd = previous
        }
    }

    /// The WCAG relative luminance over a piece with channels clipped as `clip` (0 or 1, a free
    /// channel -1), a cubic of `w`: the free channels' cubics and the clipped ones' constants,
    /// weighted.
    func wcagCubic(_ clip: SIMD3<Double>) -> SIMD4<Double> {
        var wcag = SIMD4<Double>.zero
        for k in 0..<3 {
            let weight = AffineSRGBPath.wcagWeights[k]
            if clip[k] == 1 { wcag[0] += weight } else if clip[k] < 0 { wcag += weight * coefficients(k) }
        }
        return wcag
    }

    /// Where the WCAG luminance of a piece with channels clipped as `clip` equals `level`
    /// between `a` and `b`, where it less `level` is `fa` and `fb` of opposite signs.
    func wcagRoot(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, clip: SIMD3<Double>, level: Double) -> Double {
        Self.root(wcagCubic(clip), level: level, a, b, fa, fb)
    }

    /// Whether APCA's luminance is shown to be monotone between `a` and `b` (with the channels
    /// `clip` leaves free) from bounds alone: each free channel `c` must be monotone there (its
    /// quadratic slope `c'` keeps one sign, so its weighted transfer slope `aₖ·g'(c)`, which
    /// rises with `c`, lies between its values at the two points, less 2% for the step where
    /// sRGB's encoding changes formula, where `g'` drops by 1.7%), and the sum of each channel's
    /// least (or greatest) `aₖ·g'(c)·c'` must be above (below) 0. False when in doubt.
    func monotone(_ a: LightPoint, _ b: LightPoint, clip: SIMD3<Double>) -> Bool {
        var low = 0.0, high = 0.0
        for k in 0..<3 where clip[k] < 0 {
            let p = coefficients(k)
            var dlo = Self.slope(p, a.w), dhi = Self.slope(p, b.w)
            if dlo > dhi { swap(&dlo, &dhi) }
            // The slope's own extreme, where c'' = 2c₂ + 6c₃w is 0.
            if p[3] != 0 {
                let v = -p[2] / (3 * p[3])
                if v > a.w && v < b.w { let d = Self.slope(p, v); dlo = Swift.min(dlo, d); dhi = Swift.max(dhi, d) }
            }
            guard dlo.isFinite, dhi.isFinite, dlo >= 0 || dhi <= 0 else { return false }
            var (g0, g1) = (a.gains[k], b.gains[k])
            if g0 > g1 { swap(&g0, &g1) }
            g0 *= 0.98; g1 /= 0.98
            low += dlo >= 0 ? g0 * dlo : g1 * dlo
            high += dhi <= 0 ? g0 * dhi : g1 * dhi
        }
        return low > 0 || high < 0
    }

}
