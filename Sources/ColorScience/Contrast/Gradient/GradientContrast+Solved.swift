import Foundation

// The exact measurement of a gradient whose stretches have luminances known in closed form, so
// that the four extremes lie at points that can be computed rather than searched for:
// - interpolated in sRGB (the default when every stop is a legacy color, CSS Images 4 §3.1 and
//   CSS Color 4 §12.1): every stretch between two stops is a straight line of gamma-encoded sRGB
//   colors, so its WCAG and APCA luminances are convex (AffineSRGBPath), and the extremes lie at
//   the stops, at a luminance's interior minimum, or where a luminance crosses the text's;
// - interpolated in OKLab (the default as soon as one stop is a modern color such as `oklch()`,
//   as in Tailwind CSS v4) or a linear-light space: the linear sRGB channels are cubics of the
//   stop weight (CubicLightPath), and the extremes lie at the stops, where a channel is clipped,
//   where a luminance's slope changes sign, or where it crosses the text's;
// - interpolated in OKLCH: the hue turns, so the channels are smooth but not polynomials; each
//   stretch is scanned cheaply and those points are solved between scanned colors (OKLCHPath);
//   so are the other spaces, whose channels are smooth or made of smooth pieces: CIE Lab and
//   LCH (CIELabPath), HSL and HWB (HSLPath), and the gamma-encoded RGB spaces (EncodedRGBPath,
//   also for sRGB with a stop outside it) (ScannedLightPath).
// Those points are the only colors measured, one after another, keeping the four extremes as
// they come: no samples, no search. It gives what the general search (GradientContrast.init)
// gives, at a fraction of its cost.

extension GradientContrast {
    /// The measurement of `g` when it can be solved, else nil (the general search then runs):
    /// not repeating, one range of the gradient parameter (for conic gradients inside one
    /// turn), opaque text that `compositor` leaves the same over every background, and
    /// - interpolation in sRGB, stops inside sRGB and a compositor that keeps straight lines
    ///   straight; or
    /// - interpolation in any other space, or in sRGB with a stop outside it: OKLab or a
    ///   linear-light space (`CubicLightPath`), the others scanned (`ScannedLightPath`), with
    ///   opaque stops and a compositor that shows an opaque color as it is.
    static func solved(_ g: CSSGradient, box: CSSGradient.Box?, region: CSSGradient.Region?,
                       compositor: Compositor) -> GradientContrast? {
        guard !g.repeating else { return nil }
        // Without a box the whole line, ray or turn (what `parameterRanges` gives, without its array).
        var (lo, hi) = (0.0, 1.0)
        if box != nil {
            let ranges = g.parameterRanges(box: box, region: region)
            guard ranges.count == 1 else { return nil }
            (lo, hi) = (ranges[0].lowerBound, ranges[0].upperBound)
        }
        guard lo.isFinite, hi.isFinite, lo < hi else { return nil }
        let conic: Bool
        if case .conic = g.geometry { conic = true } else { conic = false }
        if conic && (lo < 0 || hi > 1) { return nil }
        // The text seen must be one color whatever lies under it.
        let text = compositor(SIMD3(0, 0, 0), 1).text
        guard compositor(SIMD3(1, 1, 1), 1).text == text, compositor(SIMD3(1, 1, 1), 0.5).text == text else { return nil }
        let stops = g.stops
        // sRGB stretches between colors inside sRGB are straight lines of what a screen shows.
        let srgb = g.isSRGBInsideGamut
        if !srgb {
            // An opaque color must be seen as it is (no layer above the gradient).
            for k in 0..<3 {
                let probe = SIMD3<Double>(repeating: Double(k) / 2) + SIMD3(0, 0.125, 0.25) * Double(k % 2)
                guard compositor(probe, 1).background == probe else { return nil }
            }
        }
        var best = Extremes(text: text)

        let first = stops[0].position, last = stops[stops.count - 1].position
        // Pads (the first and last stop's colors outside the stops), then the color each step (a
        // hint at 0 or 1) shows, in the order the general search measures its constants.
        if lo < first { best.measure(stops[0].color, at: Swift.min(first, hi), conic: conic, compositor) }
        if hi > last { best.measure(stops[stops.count - 1].color, at: Swift.max(last, lo), conic: conic, compositor) }
        for i in 0..<(stops.count - 1) {
            let (a, b, h) = (stops[i].position, stops[i + 1].position, stops[i].hint)
            guard h <= 0 || h >= 1, b > a else { continue }
            let (t0, t1) = (Swift.max(a, lo), Swift.min(b, hi))
            guard t0 <= t1 else { continue }
            let pair = ColorInterpolation.Pair(stops[i].color, stops[i + 1].color, in: g.space, hue: g.hue)
            // The color the step shows over a width (see the general search).
            if t1 > t0 {
                best.measure(pair.color(at: h <= 0 ? 1 : 0), at: h <= 0 ? t1 : t0, conic: conic, compositor)
            } else {
                best.measure(pair.color(at: CSSGradient.hintWeight((t0 - a) / (b - a), hint: h)), at: t0, conic: conic, compositor)
            }
        }
        // Each stretch: its two ends, and between them the points where an extreme can lie.
        for i in 0..<(stops.count - 1) {
            let (a, b, h) = (stops[i].position, stops[i + 1].position, stops[i].hint)
            guard h > 0 && h < 1, b > a else { continue }
            let (t0, t1) = (Swift.max(a, lo), Swift.min(b, hi))
            guard t0 <= t1 else { continue }
            let pair = ColorInterpolation.Pair(stops[i].color, stops[i + 1].color, in: g.space, hue: g.hue)
            let knots = h != 0.5 ? CSSGradient.hintKnots(h) : nil
            let w0 = knots.map { CSSGradient.curve($0, (t0 - a) / (b - a), from: \.u, to: \.w) } ?? (t0 - a) / (b - a)
            let w1 = knots.map { CSSGradient.curve($0, (t1 - a) / (b - a), from: \.u, to: \.w) } ?? (t1 - a) / (b - a)
            guard w1 > w0 else { return nil }
            func position(_ w: Double) -> Double {
                a + (b - a) * (knots.map { CSSGradient.curve($0, w, from: \.w, to: \.u) } ?? w)
            }
            if !srgb {
                // Opaque stops mix linearly: the stretch's linear sRGB channels are cubics.
                guard pair.pa == 1, pair.qa == 1 else { return nil }
                func keep(_ q: LightPoint) {
                    let t = q.w == w0 ? t0 : q.w == w1 ? t1 : position(q.w)
                    best.keep(best.sample(seen: q.rgb, l: q.l, y: q.y, at: t, conic: conic))
                }
                func scan<P: ScannedLightPath>(_ path: P?) -> Bool {
                    guard let path else { return false }
                    path.points(from: w0, to: w1, textL: best.textL, textY: best.textY, keep)
                    return true
                }
                let done: Bool
                switch g.space {
                case .oklab, .srgbLinear, .displayP3Linear, .xyz, .xyzD65, .xyzD50:
                    guard let path = CubicLightPath(pair.p, pair.q, in: g.space) else { return nil }
                    path.points(from: w0, to: w1, textL: best.textL, textY: best.textY, keep)
                    done = true
                case .oklch: done = scan(OKLCHPath(pair.p, pair.q, missing: pair.missing))
                case .lab, .lch: done = scan(CIELabPath(pair.p, pair.q, missing: pair.missing, polar: g.space == .lch))
                case .hsl, .hwb: done = scan(HSLPath(pair.p, pair.q, missing: pair.missing, hwb: g.space == .hwb))
                case .srgb, .displayP3, .a98RGB, .prophotoRGB, .rec2020: done = scan(EncodedRGBPath(pair.p, pair.q, in: g.space))
                }
                guard done else { return nil }
                continue
            }
            let start = best.seen(pair.color(at: w0), compositor)
            let end = best.seen(pair.color(at: w1), compositor)
            // The compositor must keep the stretch straight (it does for source-over onto opaque
            // colors): its middle must be seen halfway between its ends.
            let mid = best.seen(pair.color(at: (w0 + w1) / 2), compositor)
            guard (0..<3).allSatisfy({ abs(mid[$0] - (start[$0] + end[$0]) / 2) <= 1e-9 }) else { return nil }
            // The ends' luminances come with the slopes the search needs (the same sums
            // `WCAG.relativeLuminance` and `APCA.screenLuminance` make, bit for bit).
            let path = AffineSRGBPath(start: start, end: end)
            let (endsW, endsA) = path.ends()
            let e0 = best.sample(seen: start, l: endsW.value0, y: endsA.value0, at: t0, conic: conic)
            let e1 = best.sample(seen: end, l: endsW.value1, y: endsA.value1, at: t1, conic: conic)
            best.keep(e0)
            // Where else an extreme can lie (a crossing only while neither end reaches it).
            let points = path.interiorCandidates(endsW, endsA, textL: best.textL, textY: best.textY,
                                                 wcagCrossing: e0.sample.ratio != 1 && e1.sample.ratio != 1,
                                                 apcaCrossing: e0.sample.lc != 0 && e1.sample.lc != 0)
            for k in 0..<4 where points[k] > 0 && points[k] < 1 {
                let w = w0 + (w1 - w0) * points[k]
                best.keep(best.sample(seen: best.seen(pair.color(at: w), compositor), at: position(w), conic: conic))
            }
            best.keep(e1)
        }
        guard best.count > 0 else { return nil }
        return GradientContrast(min: best.min, max: best.max, weakestLc: best.weakest, strongestLc: best.strongest,
                                samples: best.count)
    }

    /// The four extremes of the colors measured so far: a color that is strictly better than
    /// the one kept replaces it, so ties go to the first measured, as in the general search.
    struct Extremes {
        let text: SIMD3<Double>
        /// The text's WCAG relative luminance and APCA screen luminance, and the powers APCA
        /// raises the latter to.
        let textL: Double, textY: Double
        let preparedText: APCA.PreparedText
        var min = Sample.none, max = Sample.none, weakest = Sample.none, strongest = Sample.none
        var minRatio = Double.infinity, maxRatio = -Double.infinity
        var weakestSAPC = Double.infinity, strongestSAPC = -Double.infinity
        var count = 0

        init(text: SIMD3<Double>) {
            self.text = text
            textL = WCAG.relativeLuminance(text)
            textY = APCA.screenLuminance(text)
            preparedText = APCA.PreparedText(textY)
        }

        /// The opaque background seen for a gradient color: converted to sRGB, clipped, through
        /// the compositor.
        func seen(_ c: Color, _ compositor: Compositor) -> SIMD3<Double> {
            let (rgb, alpha) = GradientContrast.displayed(c.converted(to: .srgb))
            return compositor(rgb, alpha).background
        }

        /// Measures one gradient color and keeps it where it beats an extreme.
        mutating func measure(_ c: Color, at t: Double, conic: Bool, _ compositor: Compositor) {
            keep(sample(seen: seen(c, compositor), at: t, conic: conic))
        }

        /// The sample of one background seen at gradient parameter `t`, with its SAPC (APCA's
        /// contrast before the low clip, 0 where not finite).
        /// `l` and `y` are its relative and screen luminances when already known.
        func sample(seen bg: SIMD3<Double>, l: Double? = nil, y: Double? = nil, at t: Double, conic: Bool) -> (sample: Sample, sapc: Double) {
            let r = WCAG.contrastRatio(textL, l ?? WCAG.relativeLuminance(bg))
            let sapc = APCA.sapc(text: preparedText, backgroundY: y ?? APCA.screenLuminance(bg))
            let lc = APCA.lc(sapc: sapc)
            var position = t
            // A conic gradient's end of the turn is 1 (see the search's `reported`).
            if conic && t != 1 { position = t - t.rounded(.down); if !position.isFinite { position = 0 } }
            return (Sample(position: position, background: bg, text: text, ratio: r.isFinite ? r : 1, lc: lc.isFinite ? lc : 0),
                    sapc.isFinite ? sapc : 0)
        }

        /// Counts a measured sample and keeps it where it beats an extreme.
        mutating func keep(_ measured: (sample: Sample, sapc: Double)) {
            count += 1
            let (sample, sapc) = measured
            if sample.ratio < minRatio { (min, minRatio) = (sample, sample.ratio) }
            if sample.ratio > maxRatio { (max, maxRatio) = (sample, sample.ratio) }
            if abs(sapc) < weakestSAPC { (weakest, weakestSAPC) = (sample, abs(sapc)) }
            if abs(sapc) > strongestSAPC { (strongest, strongestSAPC) = (sample, abs(sapc)) }
        }
    }
}

extension GradientContrast.Sample {
    /// A placeholder before anything is measured.
    static let none = GradientContrast.Sample(position: 0, background: .zero, text: .zero, ratio: 1, lc: 0)
}
