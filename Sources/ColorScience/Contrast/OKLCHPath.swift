import Foundation

/// A gradient stretch interpolated in OKLCH between opaque colors (CSS Color 4 §12.4: lightness,
/// chroma and the hue, fixed up for the hue interpolation method, mix linearly in the weight `w`
/// of the second color). Its linear sRGB channels are smooth but not polynomials of `w`: the
/// hue turns `a = C·cos h` and `b = C·sin h` (CSS Color 4 §9.3), then OKLab goes to linear sRGB as
/// in `CubicLightPath`. Each color and its slope cost one sine and cosine and no power, so the
/// stretch is scanned at `6 + ⌈hue turned / 15°⌉` colors (at most 64) and solved from the scan:
/// - where a channel passes 0 or 1 between two scanned colors (a clipping corner), Newton steps
///   on that channel find it;
/// - between corners, the WCAG luminance `Σ wₖ·clip(cₖ)` and its slope are sums of the
///   channels: where the slope changes sign between two scanned colors an extreme lies, and where
///   the luminance passes the text's the ratio is 1 (both found by root steps, no power);
/// - APCA's slope `Σ aₖ·g'(cₖ)·cₖ'` (with `g(c) = enc(c)^2.4`) is bounded at each scanned color
///   from a table of `g'`, which rises with `c`; only where the bound does not give its sign is it
///   computed exactly (two powers a channel). Where it changes sign an extreme lies, and APCA's
///   crossing of the text's luminance is sought between its extremes (`LightPath`).
/// The scan is as dense as the general search's samples (6 + one per 15°), but what lies
/// between two scanned colors is found from signs rather than from the best sample alone (8 + one
/// per 10° cost 13% more on Tailwind's two stops and found nothing more in the tests); held
/// against a dense scan of 4,001 colors and against the general search (GradientTests).
struct OKLCHPath: LightPath {
    /// Lightness, chroma and hue (radians) at `w = 0`, and their changes to `w = 1`.
    let l0: Double, dl: Double, c0: Double, dc: Double, h0: Double, dh: Double

    /// The path between two opaque colors as `ColorInterpolation.Pair` holds them in OKLCH
    /// (L, C, h° with the hue fixed up, premultiplied by an alpha of 1; a component missing in
    /// both is 0).
    init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, missing: ComponentFlags) {
        var (p, q) = (p, q)
        for k in 0..<3 where missing[k] { p[k] = 0; q[k] = 0 }
        guard (0..<3).allSatisfy({ p[$0].isFinite && q[$0].isFinite }) else { return nil }
        // Negative chroma counts as 0 (CSS Color 4 §9.3): a mix of non-negative chromas stays so.
        let (cp, cq) = (Swift.max(p.y, 0), Swift.max(q.y, 0))
        // As in `CubicLightPath`: far beyond real colors the cubes lose the digits needed.
        guard abs(p.x) <= 100, abs(q.x) <= 100, cp <= 100, cq <= 100 else { return nil }
        (l0, dl, c0, dc) = (p.x, q.x - p.x, cp, cq - cp)
        (h0, dh) = (p.z * Double.pi / 180, (q.z - p.z) * Double.pi / 180)
    }

    /// Degrees of hue turned per unit of weight.
    var hueTravel: Double { abs(dh) * 180 / Double.pi }

    func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>) {
        let chroma = c0 + dc * w, h = h0 + dh * w
        let (cs, sn) = (cos(h), sin(h))
        let lab = SIMD3(l0 + dl * w, chroma * cs, chroma * sn)
        let dlab = SIMD3(dl, dc * cs - chroma * dh * sn, dc * sn + chroma * dh * cs)
        let m = ColorSpaceTree.oklabToLMS
        let l = m(lab), dlms = m(dlab)
        let lms = l * l * l, slope = 3 * l * l * dlms
        let n = CubicLightPath.lmsToLinearSRGB
        func row(_ r: SIMD3<Double>, _ v: SIMD3<Double>) -> Double { r.x * v.x + r.y * v.y + r.z * v.z }
        return (SIMD3(row(n.0, lms), row(n.1, lms), row(n.2, lms)), SIMD3(row(n.0, slope), row(n.1, slope), row(n.2, slope)))
    }

    /// `g'(c)`, the slope of `enc(c)^2.4` in the linear channel `c`, at `c = i/1024` for
    /// i = 0...1024. It rises with `c` except for a drop of 1.7% where sRGB's encoding changes
    /// formula (0.0031308), so over `i/1024...(i+1)/1024` it lies within
    /// `table[i]·0.98...table[i+1]/0.98`.
    static let gainTable: [Double] = (0...1024).map { i in
        let c = Double(i) / 1024
        if c <= 0.0031308 { return c > 0 ? 2.4 * pow(12.92 * c, APCA.mainTRC) / c : 0 }
        let r = pow(c, 1 / 2.4), e = 1.055 * r - 0.055
        return 1.055 * pow(e, APCA.mainTRC) * r / (e * c)
    }

    /// The sign of APCA's slope from the gain table's bounds (+1, -1), or 0 when they do not
    /// settle it; `c` and `slope` are the unclipped channels and their slopes, `clip` as in
    /// `LightPoint.slope`, `table` the `gainTable`.
    static func apcaSlopeSign(_ c: SIMD3<Double>, _ slope: SIMD3<Double>, clip: SIMD3<Double>, table: UnsafeBufferPointer<Double>) -> Int {
        var lo = 0.0, hi = 0.0
        for k in 0..<3 where clip[k] < 0 {
            let x = Swift.min(Swift.max(c[k], 0), 1) * 1024
            guard x.isFinite, slope[k].isFinite else { return 0 }
            let i = Swift.min(Int(x), 1023)
            let a = AffineSRGBPath.apcaWeights[k]
            let (g0, g1) = (a * table[i] * 0.98, a * table[i + 1] / 0.98)
            lo += slope[k] >= 0 ? g0 * slope[k] : g1 * slope[k]
            hi += slope[k] >= 0 ? g1 * slope[k] : g0 * slope[k]
        }
        return lo > 0 ? 1 : hi < 0 ? -1 : 0
    }

    /// The colors where one of the four extremes can lie between `w0` and `w1` (`w0 < w1`), the
    /// two ends first and last (see the type's comment), each handed to `visit` as it is found.
    func points(from w0: Double, to w1: Double, textL: Double, textY: Double, _ visit: (LightPoint) -> Void) {
        let turned = hueTravel * (w1 - w0)
        let n = Swift.min(64, 6 + Int((turned / 15).rounded(.up)))
        // At most six corners between two scanned colors (each channel passes 0 and 1 at most
        // once there; more would be missed, as between any two samples).
        Self.gainTable.withUnsafeBufferPointer { table in
            withUnsafeTemporaryAllocation(of: Node.self, capacity: 7 * n) { nodes in
                solve(nodes, n, w0, w1, textL, textY, table, visit)
            }
        }
    }

    /// A scanned color, or a clipping corner merged among them.
    struct Node { var w: Double; var c: SIMD3<Double>; var dc: SIMD3<Double>; var corner: Bool }

    /// `points` on a buffer for the scan (`7n` nodes, kept on the stack).
    private func solve(_ nodes: UnsafeMutableBufferPointer<Node>, _ n: Int, _ w0: Double, _ w1: Double,
                       _ textL: Double, _ textY: Double, _ table: UnsafeBufferPointer<Double>, _ visit: (LightPoint) -> Void) {
        // The scan, with the clipping corners merged into it in order (`corner` marks them).
        var count = 0
        func append(_ w: Double, _ e: (c: SIMD3<Double>, dc: SIMD3<Double>), corner: Bool) {
            nodes[count] = Node(w: w, c: e.c, dc: e.dc, corner: corner)
            count += 1
        }
        var previous = linearWithSlope(at: w0)
        append(w0, previous, corner: false)
        for i in 1..<n {
            let w = i == n - 1 ? w1 : w0 + (w1 - w0) * Double(i) / Double(n - 1)
            let current = linearWithSlope(at: w)
            // Where a channel passes 0 or 1 in between (within 1e-12 of an end: that end, which a
            // stop at 0 or 1 reaches by rounding), in order.
            var found = SIMD8<Double>(repeating: .infinity), foundCount = 0
            let before = nodes[count - 1].w
            for k in 0..<3 {
                for level in stride(from: 0.0, through: 1.0, by: 1.0) {
                    let (fa, fb) = (previous.c[k] - level, current.c[k] - level)
                    guard fa.isFinite, fb.isFinite, fa != 0, fb != 0, (fa < 0) != (fb < 0) else { continue }
                    let r = root(before, fa, w, fb) { w in
                        let (c, d) = linearWithSlope(at: w)
                        return (c[k] - level, d[k])
                    }
                    guard r > w0 + 1e-12 && r < w1 - 1e-12, r > before, r < w else { continue }
                    var j = foundCount
                    while j > 0 && found[j - 1] > r { found[j] = found[j - 1]; j -= 1 }
                    found[j] = r
                    foundCount += 1
                }
            }
            for j in 0..<foundCount { append(found[j], linearWithSlope(at: found[j]), corner: true) }
            append(w, current, corner: false)
            previous = current
        }
        var wcagCrossed = false, apcaCrossed = false
        var wcagCrossing: LightPoint? = nil
        var start = point(at: w0)
        visit(start)
        var first = 0
        while first < count - 1 {
            // One piece: from `first` to the next corner or the end.
            var last = first + 1
            while last < count - 1 && !nodes[last].corner { last += 1 }
            let (a, b) = (nodes[first].w, nodes[last].w)
            let mid = linearWithSlope(at: (a + b) / 2).c
            var clip = SIMD3<Double>(repeating: -1)
            for k in 0..<3 { clip[k] = !(mid[k] >= 0) ? 0 : mid[k] > 1 ? 1 : -1 }
            var wcagWeights = SIMD3<Double>.zero, wcagConstant = 0.0
            for k in 0..<3 {
                if clip[k] < 0 { wcagWeights[k] = AffineSRGBPath.wcagWeights[k] } else { wcagConstant += AffineSRGBPath.wcagWeights[k] * clip[k] }
            }
            @inline(__always) func wcag(_ c: SIMD3<Double>, _ d: SIMD3<Double>) -> (value: Double, slope: Double) {
                ((wcagWeights * c).sum() + wcagConstant, (wcagWeights * d).sum())
            }
            let end = point(at: b)
            // WCAG: an extreme where the slope changes sign; the first crossing of the text's.
            var previousW = wcag(nodes[first].c, nodes[first].dc)
            for j in (first + 1)...last {
                let current = wcag(nodes[j].c, nodes[j].dc)
                if previousW.slope != 0, current.slope != 0, (previousW.slope < 0) != (current.slope < 0) {
                    let r = root(nodes[j - 1].w, previousW.slope, nodes[j].w, current.slope) { w in
                        let (c, d) = linearWithSlope(at: w)
                        return ((wcagWeights * d).sum(), .nan)
                    }
                    visit(point(at: r))
                }
                if !wcagCrossed {
                    let (fa, fb) = (previousW.value - textL, current.value - textL)
                    if fa == 0 || fb == 0 {
                        wcagCrossed = true
                    } else if (fa < 0) != (fb < 0) {
                        let r = root(nodes[j - 1].w, fa, nodes[j].w, fb) { w in
                            let (c, d) = linearWithSlope(at: w)
                            return ((wcagWeights * c).sum() + wcagConstant - textL, (wcagWeights * d).sum())
                        }
                        let q = point(at: r)
                        visit(q)
                        wcagCrossing = q
                        wcagCrossed = true
                    }
                }
                previousW = current
            }
            // APCA: the slope's sign at each color (exact where the table's bound leaves it
            // open); an extreme where it changes; the first crossing of the text's between extremes.
            var section = start
            func crossing(to q: LightPoint) {
                if let c = firstAPCACrossing(section, q, textY: textY, clip: clip, wcagCrossing: wcagCrossing, found: &apcaCrossed) { visit(c) }
                section = q
            }
            var previousSign = 0, previousIndex = first, previousPoint: LightPoint? = start
            for j in first...last {
                var s = Self.apcaSlopeSign(nodes[j].c, nodes[j].dc, clip: clip, table: table)
                var q: LightPoint? = j == first ? start : j == last ? end : nil
                if s == 0 {
                    let exact = q ?? point(at: nodes[j].w)
                    q = exact
                    let slope = exact.slope(clip)
                    s = slope > 0 ? 1 : slope < 0 ? -1 : 0
                }
                guard s != 0 else { continue }
                if previousSign != 0 && s != previousSign {
                    let pa = previousPoint ?? point(at: nodes[previousIndex].w), pb = q ?? point(at: nodes[j].w)
                    let m = apcaExtreme(pa, pb, clip: clip)
                    visit(m)
                    crossing(to: m)
                }
                (previousSign, previousIndex, previousPoint) = (s, j, q)
            }
            crossing(to: end)
            visit(end)
            start = end
            first = last
        }
    }

    /// A root of `f` (value, and slope when known, else NaN) between `a` and `b`, where its values
    /// `fa` and `fb` have opposite signs: Newton steps where the slope is known and stays inside
    /// the bracket, Illinois steps otherwise, to 1e-15 in value or a bracket of 1e-13.
    func root(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, _ f: (Double) -> (Double, Double)) -> Double {
        var bracket = GradientContrast.IllinoisBracket(a, fa, b, fb)
        var w = bracket.next
        for _ in 0..<80 {
            let (v, d) = f(w)
            guard v.isFinite, abs(v) >= 1e-15, bracket.width >= 1e-13 else { return w }
            bracket.update(w, v)
            let newton = d.isFinite && d != 0 ? w - v / d : .nan
            let (lo, hi) = (Swift.min(bracket.a, bracket.b), Swift.max(bracket.a, bracket.b))
            w = newton > lo && newton < hi ? newton : bracket.next
        }
        return w
    }
}
