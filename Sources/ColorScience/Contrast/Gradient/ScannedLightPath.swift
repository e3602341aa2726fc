import Foundation

/// A stretch whose linear sRGB channels are smooth functions of the weight `w` of its second
/// color but not polynomials (CSS Color 4 §12.4: opaque colors mixed in a polar space, where the
/// hue turns; in CIE Lab, whose decoding changes formula; in HSL and HWB, made of pieces; in a
/// gamma-encoded RGB space). Each color and its slope cost no more than a conversion, so the
/// stretch is scanned at `6 + ⌈hue turned / 15°⌉` colors (at most 64; 6 in a space without a
/// hue) and solved from the scan:
/// - where a channel passes 0 or 1 between two scanned colors (a clipping corner), root steps
///   on that channel find it; where it heads for 0 or 1 and turns back in between, its turning
///   point is found first and then both corners when it lies beyond;
/// - between corners, the WCAG luminance `Σ wₖ·clip(cₖ)` and its slope are sums of the
///   channels: where the slope changes sign between two scanned colors an extreme lies, and where
///   the luminance passes the text's the ratio is 1 (both found by root steps, no power);
/// - APCA's slope `Σ aₖ·g'(cₖ)·cₖ'` (with `g(c) = enc(c)^2.4`) is bounded at each scanned color
///   from a table of `g'`, which rises with `c` (`APCASlopeBound`); only where the bound does not
///   give its sign is it computed exactly (two powers a channel). Where it changes sign an
///   extreme lies, and APCA's crossing of the text's luminance is sought between its extremes
///   (`LightPath`).
/// The scan is as dense as the general search's samples (6 + one per 15°), but what lies
/// between two scanned colors is found from signs rather than from the best sample alone (in
/// OKLCH, 8 + one per 10° cost 13% more on Tailwind's two stops and found nothing more in the
/// tests). Where a channel's slope jumps (HSL's hue sextants and `l = ½`, HWB's `w + b = 1`,
/// prophoto-rgb's linear segment) the path names the weight (`kinks`) and the stretch is cut
/// there as at a clipping corner, so that between cuts every channel is smooth. Held against a
/// dense scan of 4,001 colors and against the general search in every space (GradientTests).
protocol ScannedLightPath: LightPath {
    /// Degrees of hue turned per unit of weight (0 in a space without a hue).
    var hueTravel: Double { get }
    /// The weights between `a` and `b` where a channel's slope jumps (its formula changes:
    /// HSL's hue sextants, a transfer function's linear segment), added to `cuts` as kinks.
    func kinks(from a: Double, to b: Double, into cuts: inout ScanCuts)
    /// Whether `kinks` can name any weight; a path without kinks has continuous slopes
    /// everywhere, its ends included, so they need no second look a hair inside.
    var hasKinks: Bool { get }
}

extension ScannedLightPath {
    /// No kinks: the channels' slopes are continuous.
    func kinks(from a: Double, to b: Double, into cuts: inout ScanCuts) {}
    var hasKinks: Bool { false }
}

/// The weights where a scanned interval is cut (clipping corners and kinks), in increasing
/// order, at most 16 (kept in registers, not an array: this runs for every interval).
struct ScanCuts {
    private(set) var w = SIMD16<Double>(repeating: .infinity)
    private(set) var isKink = SIMD16<Int8>(repeating: 0)
    private(set) var count = 0
    /// Cuts are kept strictly inside `lo...hi`.
    let lo: Double, hi: Double

    init(inside lo: Double, _ hi: Double) { (self.lo, self.hi) = (lo, hi) }

    /// Adds `r` in order when it lies strictly inside and there is room.
    mutating func add(_ r: Double, kink: Bool) {
        guard count < 16, r > lo, r < hi else { return }
        var j = count
        while j > 0 && w[j - 1] > r { (w[j], isKink[j]) = (w[j - 1], isKink[j - 1]); j -= 1 }
        (w[j], isKink[j]) = (r, kink ? 1 : 0)
        count += 1
    }
}

/// Bounds on the sign of APCA's slope along a `ScannedLightPath`, without powers.
enum APCASlopeBound {
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
    static func sign(_ c: SIMD3<Double>, _ slope: SIMD3<Double>, clip: SIMD3<Double>, table: UnsafeBufferPointer<Double>) -> Int {
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
}

/// How many colors a stretch turning `degrees` of hue is scanned at: 6, and one more per 15°,
/// at most 64 (see `ScannedLightPath`; `GradientContrast.estimatedCost` counts them too).
func scannedColors(turning degrees: Double) -> Int {
    Swift.min(64, 6 + Int((degrees / 15).rounded(.up)))
}

/// A scanned color, or a clipping corner or kink merged among them (`corner`; a kink's `dc`
/// is one side's, so pieces that meet there take their own side's).
struct ScannedNode { var w: Double; var c: SIMD3<Double>; var dc: SIMD3<Double>; var corner: Bool; var kink: Bool }

extension ScannedLightPath {
    /// Walks the stretch from `w0` to `w1` (`w0 < w1`), handing `sink` the colors where one of
    /// the four extremes can lie, the two ends first and last, and the parts and sections where
    /// the text's crossings are sought (see `ScannedLightPath`, `LightPathSink`).
    func points<S: LightPathSink>(from w0: Double, to w1: Double, into sink: inout S) {
        let n = scannedColors(turning: hueTravel * (w1 - w0))
        // At most sixteen corners and kinks between two scanned colors (each channel passes 0
        // and 1 once there, or twice where it turns back; a few kinks; more would be missed, as
        // between any two samples).
        APCASlopeBound.gainTable.withUnsafeBufferPointer { table in
            withUnsafeTemporaryAllocation(of: ScannedNode.self, capacity: 17 * n) { nodes in
                solve(nodes, n, w0, w1, table, &sink)
            }
        }
    }

    /// Where the WCAG luminance of a piece with channels clipped as `clip` equals `level`
    /// between `a` and `b`, where it less `level` is `fa` and `fb` of opposite signs (`root`).
    func wcagRoot(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, clip: SIMD3<Double>, level: Double) -> Double {
        let (weights, constant) = wcagSum(clip)
        return root(a, fa, b, fb) { w in
            let (c, d) = linearWithSlope(at: w)
            return ((weights * c).sum() + constant - level, (weights * d).sum())
        }
    }

    /// `points` on a buffer for the scan (`17n` nodes).
    fileprivate func solve<S: LightPathSink>(_ nodes: UnsafeMutableBufferPointer<ScannedNode>, _ n: Int, _ w0: Double, _ w1: Double,
                                             _ table: UnsafeBufferPointer<Double>, _ sink: inout S) {
        // The scan, with the clipping corners merged into it in order (`corner` marks them).
        var count = 0
        func append(_ w: Double, _ e: (c: SIMD3<Double>, dc: SIMD3<Double>), corner: Bool, kink: Bool = false) {
            nodes[count] = ScannedNode(w: w, c: e.c, dc: e.dc, corner: corner, kink: kink)
            count += 1
        }
        var previous = linearWithSlope(at: w0)
        // The stretch's ends take their slopes a hair inside, as at a kink: a kink can sit on an
        // end (HWB's `w + b = 1` at `#777777`, whose slope then came from the gray's formula and
        // hid an extreme: a hostile pass, 8.6 Lc). Without kinks the slopes there are exact.
        append(w0, previous, corner: false, kink: hasKinks)
        for i in 1..<n {
            let w = i == n - 1 ? w1 : w0 + (w1 - w0) * Double(i) / Double(n - 1)
            let current = linearWithSlope(at: w)
            // The kinks in between (where a channel's formula changes), then, on each smooth
            // part, where a channel passes 0 or 1 (within 1e-12 of an end: that end, which a
            // stop at 0 or 1 reaches by rounding); all in order.
            let before = nodes[count - 1].w
            var cuts = ScanCuts(inside: Swift.max(before, w0 + 1e-12), Swift.min(w, w1 - 1e-12))
            if hasKinks {
                kinks(from: before, to: w, into: &cuts)
                let kinks = cuts
                var (a, ea) = (before, previous)
                for part in 0...kinks.count {
                    let b = part < kinks.count ? kinks.w[part] : w
                    let eb = part < kinks.count ? linearWithSlope(at: b) : current
                    clippingCorners(a, ea, b, eb, into: &cuts)
                    (a, ea) = (b, eb)
                }
            } else {
                clippingCorners(before, previous, w, current, into: &cuts)
            }
            for j in 0..<cuts.count { append(cuts.w[j], linearWithSlope(at: cuts.w[j]), corner: true, kink: cuts.isKink[j] != 0) }
            append(w, current, corner: false, kink: hasKinks && i == n - 1)
            previous = current
        }
        var start = point(at: w0, linear: nodes[0].c, slopes: nodes[0].dc)
        sink.visit(start)
        var first = 0
        while first < count - 1 {
            // One piece: from `first` to the next corner or the end.
            var last = first + 1
            while last < count - 1 && !nodes[last].corner { last += 1 }
            let (a, b) = (nodes[first].w, nodes[last].w)
            let mid = linearWithSlope(at: (a + b) / 2).c
            var clip = SIMD3<Double>(repeating: -1)
            for k in 0..<3 { clip[k] = !(mid[k] >= 0) ? 0 : mid[k] > 1 ? 1 : -1 }
            let (wcagWeights, wcagConstant) = wcagSum(clip)
            @inline(__always) func wcag(_ c: SIMD3<Double>, _ d: SIMD3<Double>) -> (value: Double, slope: Double) {
                ((wcagWeights * c).sum() + wcagConstant, (wcagWeights * d).sum())
            }
            // At a kink, the slopes of this piece's side (a hair inside it).
            // The color at a kink is the one the previous piece ended on; only its slopes change.
            let hair = (b - a) * 1e-9
            let firstDC = nodes[first].kink ? linearWithSlope(at: a + hair).dc : nodes[first].dc
            let lastDC = nodes[last].kink ? linearWithSlope(at: b - hair).dc : nodes[last].dc
            if nodes[first].kink { start = start.withLinearSlopes(firstDC) }
            let end = point(at: b, linear: nodes[last].c, slopes: lastDC)
            @inline(__always) func slopes(_ j: Int) -> SIMD3<Double> { j == first ? firstDC : j == last ? lastDC : nodes[j].dc }
            // WCAG: an extreme where the slope changes sign; the text's crossing is sought on each
            // monotone part: between two colors, or between a color and an extreme found between
            // them (the luminance can pass the text's and come back between two scanned colors: a
            // hostile pass, display-p3 from rec2020 red to gray).
            var previousW = wcag(nodes[first].c, firstDC)
            for j in (first + 1)...last {
                let current = wcag(nodes[j].c, slopes(j))
                var (a, va) = (nodes[j - 1].w, previousW.value)
                if previousW.slope != 0, current.slope != 0, (previousW.slope < 0) != (current.slope < 0) {
                    let r = root(nodes[j - 1].w, previousW.slope, nodes[j].w, current.slope) { w in
                        ((wcagWeights * linearWithSlope(at: w).dc).sum(), .nan)
                    }
                    let q = point(at: r)
                    sink.visit(q)
                    // Inside the piece its clipped luminance is the piece's sum.
                    sink.wcagPart(a, va, r, q.l, clip: clip)
                    (a, va) = (r, q.l)
                }
                sink.wcagPart(a, va, nodes[j].w, current.value, clip: clip)
                previousW = current
            }
            // APCA: the slope's sign at each color (exact where the table's bound leaves it
            // open); an extreme where it changes; the text's crossing sought between extremes.
            var section = start
            // The exact color at `previousIndex` is `previousPoint` when `previousKnown` (the
            // piece's ends, and colors whose slope was computed): kept without optionals, so
            // that a color is copied only when computed (a copy a node had cost 4% of a check).
            var previousSign = 0, previousIndex = first, previousPoint = start, previousKnown = true
            @inline(__always) func exactPoint(_ j: Int) -> LightPoint {
                j == first ? start : j == last ? end : point(at: nodes[j].w, linear: nodes[j].c, slopes: nodes[j].dc)
            }
            // The extreme between the previous color and `exact`, where the slope's sign changed.
            @inline(__always) func extreme(to exact: LightPoint) {
                let m = apcaExtreme(previousKnown ? previousPoint : exactPoint(previousIndex), exact, clip: clip)
                sink.visit(m)
                sink.apcaSection(section, m, clip: clip)
                section = m
            }
            for j in first...last {
                var s = APCASlopeBound.sign(nodes[j].c, slopes(j), clip: clip, table: table)
                if s == 0 {
                    let exact = exactPoint(j)
                    let slope = exact.slope(clip)
                    s = slope > 0 ? 1 : slope < 0 ? -1 : 0
                    guard s != 0 else { continue }
                    if previousSign != 0 && s != previousSign { extreme(to: exact) }
                    (previousPoint, previousKnown) = (exact, true)
                } else if previousSign != 0 && s != previousSign {
                    let exact = exactPoint(j)
                    extreme(to: exact)
                    (previousPoint, previousKnown) = (exact, true)
                } else if j == first || j == last {
                    (previousPoint, previousKnown) = (j == first ? start : end, true)
                } else {
                    previousKnown = false
                }
                (previousSign, previousIndex) = (s, j)
            }
            sink.apcaSection(section, end, clip: clip)
            sink.visit(end)
            start = end
            first = last
        }
    }

    /// Where a channel passes 0 or 1 between `a` and `b` (colors `ea`, `eb`), on a part where
    /// it is smooth, added to `cuts`: once where its ends lie on two sides, twice where both lie
    /// on one side but it heads for the level and turns back in between.
    fileprivate func clippingCorners(_ a: Double, _ ea: (c: SIMD3<Double>, dc: SIMD3<Double>),
                                     _ b: Double, _ eb: (c: SIMD3<Double>, dc: SIMD3<Double>), into cuts: inout ScanCuts) {
        for k in 0..<3 {
            // Most often both ends lie inside and the channel keeps its direction: nothing to cut.
            let (ca, cb) = (ea.c[k], eb.c[k])
            if ca > 0 && ca < 1 && cb > 0 && cb < 1 && (ea.dc[k] > 0) == (eb.dc[k] > 0) { continue }
            func crossing(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, _ level: Double) -> Double {
                root(a, fa, b, fb) { w in
                    let (c, d) = linearWithSlope(at: w)
                    return (c[k] - level, d[k])
                }
            }
            let (sa, sb) = (ea.dc[k], eb.dc[k])
            // The turning point between `a` and `b` (where the slope changes sign), and the
            // channel's value less `level` there.
            func turning(_ level: Double) -> (w: Double, f: Double)? {
                guard sa.isFinite, sb.isFinite, sa != 0, sb != 0, (sa < 0) != (sb < 0) else { return nil }
                let turn = root(a, sa, b, sb) { w in (linearWithSlope(at: w).dc[k], .nan) }
                let ft = linearWithSlope(at: turn).c[k] - level
                return ft.isFinite && ft != 0 ? (turn, ft) : nil
            }
            for level in 0...1 {
                let level = Double(level)
                let (fa, fb) = (ca - level, cb - level)
                guard fa.isFinite, fb.isFinite else { continue }
                // An end on the level up to rounding (a stop on the gamut's edge: display-p3's
                // blue is sRGB's, so its red and green are 0 to within 1e-17) lies on the side its
                // slope heads for; a crossing inside is then one after the channel turns back (a
                // hostile pass: the root search took the rounding for the crossing and lost it).
                let onA = abs(fa) < 1e-12, onB = abs(fb) < 1e-12
                if onA || onB {
                    guard !(onA && onB) else { continue }
                    if onA, sa != 0, (sa < 0) != (fb < 0), let t = turning(level), (t.f < 0) == (sa < 0) {
                        cuts.add(crossing(t.w, t.f, b, fb, level), kink: false)
                    } else if onB, sb != 0, (sb > 0) != (fa < 0), let t = turning(level), (t.f < 0) == (sb > 0) {
                        cuts.add(crossing(a, fa, t.w, t.f, level), kink: false)
                    }
                    continue
                }
                if (fa < 0) != (fb < 0) {
                    cuts.add(crossing(a, fa, b, fb, level), kink: false)
                    continue
                }
                // Where the two ends' tangents meet bounds how far a channel convex there goes;
                // only when that lies beyond the level is its turning point sought.
                guard sa.isFinite, sb.isFinite, fa > 0 ? (sa < 0 && sb > 0) : (sa > 0 && sb < 0) else { continue }
                let meet = (fb - fa + sa * a - sb * b) / (sa - sb)
                guard ((fa + sa * (meet - a)) < 0) != (fa < 0) else { continue }
                guard let t = turning(level), (t.f < 0) != (fa < 0) else { continue }
                cuts.add(crossing(a, fa, t.w, t.f, level), kink: false)
                cuts.add(crossing(t.w, t.f, b, fb, level), kink: false)
            }
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
