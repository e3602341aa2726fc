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
    /// opaque text that `compositor` leaves the same over every background, and a gradient
    /// `SolvedPlan` can walk.
    static func solved(_ g: CSSGradient, box: CSSGradient.Box?, region: CSSGradient.Region?,
                       compositor: Compositor) -> GradientContrast? {
        // The text seen must be one color whatever lies under it.
        let text = compositor(SIMD3(0, 0, 0), 1).text
        guard compositor(SIMD3(1, 1, 1), 1).text == text, compositor(SIMD3(1, 1, 1), 0.5).text == text else { return nil }
        // Each step measured as the plan finds it (nothing is stored for one text color).
        var best = Extremes(text: text)
        let conic = SolvedPlan.isConic(g)
        func background(_ rgb: SIMD3<Double>, _ alpha: Double) -> SIMD3<Double> { compositor(rgb, alpha).background }
        guard SolvedPlan.walk(g, box: box, region: region, recorded: false, background: background, { step in
            SolvedPlan.measure(step, conic: conic, into: &best, background: background)
        }) else { return nil }
        return best.result
    }
}

/// What a solved measurement finds whatever the text color, in the order it measures it: the
/// colors shown flatly (pads, steps), then each stretch: in sRGB between colors inside it, the
/// straight path and its ends (`AffineSRGBPath`); otherwise the stretch's light path walked
/// once (`LightPathRecord`). Measuring a text color (`measure`) on the plan then costs only the
/// measurements and the text's crossings (`GradientContrast.Prepared`: the matrix's cells). One
/// text color alone is measured as the plan is walked, without recording (`GradientContrast.solved`).
struct SolvedPlan {
    /// Turns a stretch's weight `w` into the gradient parameter (through a hint's curve).
    struct Mapping {
        let a: Double, b: Double, w0: Double, w1: Double, t0: Double, t1: Double
        let knots: [(u: Double, w: Double)]?
        func position(_ w: Double) -> Double {
            a + (b - a) * (knots.map { CSSGradient.curve($0, w, fromWeight: true) } ?? w)
        }
    }
    /// An sRGB stretch between colors inside sRGB: a straight line of the colors seen.
    struct Straight {
        let pair: ColorInterpolation.Pair
        let path: AffineSRGBPath
        let endsW: AffineSRGBPath.Ends, endsA: AffineSRGBPath.Ends
        let mapping: Mapping
    }
    /// A stretch along its light path, with its walk when recorded (else walked when measured).
    struct Light {
        let path: SolvedLightPath
        let record: LightPathRecord?
        let mapping: Mapping
    }
    enum Step {
        /// A color shown flatly (a pad outside the stops, a step's color): seen as `seen` at `t`.
        case flat(seen: SIMD3<Double>, t: Double)
        case straight(Straight)
        case light(Light)
    }
    let conic: Bool
    let steps: [Step]

    /// Most colors a plan records (about 120 bytes each: 2 MB). The realistic worst, 64 stops
    /// turning the hue the long way in hsl, records about 2,500; a gradient that would record
    /// more is not planned (each text color is then measured in full, and estimated so), so that
    /// the 16 gradients of a matrix hold at most about 32 MB.
    static let maximumRecordedColors = 16_384

    /// Whether `g` is a conic gradient (its positions are fractions of a turn).
    static func isConic(_ g: CSSGradient) -> Bool {
        if case .conic = g.geometry { return true } else { return false }
    }

    /// The background seen for a gradient color: converted to sRGB, clipped, through `background`.
    static func seen(_ c: Color, _ background: (SIMD3<Double>, Double) -> SIMD3<Double>) -> SIMD3<Double> {
        let (rgb, alpha) = GradientContrast.displayed(c.converted(to: .srgb))
        return background(rgb, alpha)
    }

    /// The plan of `g` under `region` of `box`, each light path walked and recorded, with
    /// `background` as `walk` takes it; nil where `walk` fails.
    init?(_ g: CSSGradient, box: CSSGradient.Box?, region: CSSGradient.Region?, maximumColors: Int = maximumRecordedColors,
          background: (SIMD3<Double>, Double) -> SIMD3<Double>) {
        var steps: [Step] = []
        steps.reserveCapacity(g.stops.count + 1)
        guard Self.walk(g, box: box, region: region, recorded: true, maximumColors: maximumColors, background: background,
                        { steps.append($0) }) else { return nil }
        (self.steps, conic) = (steps, Self.isConic(g))
    }

    /// Hands `emit` the steps of `g` under `region` of `box` in the order they are measured,
    /// with `background` turning a gradient color (gamma-encoded sRGB `0...1`, straight alpha)
    /// into the opaque background seen, each light path walked and recorded when `recorded`
    /// (at most `maximumColors` in all, else false); false (after any steps already handed on) unless:
    /// not repeating, one range of the gradient parameter (for conic gradients inside one
    /// turn), and
    /// - interpolation in sRGB, stops inside sRGB and a `background` that keeps straight lines
    ///   straight; or
    /// - interpolation in any other space, or in sRGB with a stop outside it: OKLab or a
    ///   linear-light space (`CubicLightPath`), the others scanned (`ScannedLightPath`), with
    ///   opaque stops and a `background` that shows an opaque color as it is.
    static func walk(_ g: CSSGradient, box: CSSGradient.Box?, region: CSSGradient.Region?, recorded: Bool,
                     maximumColors: Int = maximumRecordedColors, background: (SIMD3<Double>, Double) -> SIMD3<Double>, _ emit: (Step) -> Void) -> Bool {
        guard !g.repeating else { return false }
        // Without a box the whole line, ray or turn (what `parameterRanges` gives, without its array).
        var (lo, hi) = (0.0, 1.0)
        if box != nil {
            let ranges = g.parameterRanges(box: box, region: region)
            guard ranges.count == 1 else { return false }
            (lo, hi) = (ranges[0].lowerBound, ranges[0].upperBound)
        }
        guard lo.isFinite, hi.isFinite, lo < hi else { return false }
        if isConic(g) && (lo < 0 || hi > 1) { return false }
        let stops = g.stops
        // sRGB stretches between colors inside sRGB are straight lines of what a screen shows.
        let srgb = g.isSRGBInsideGamut
        if !srgb {
            // An opaque color must be seen as it is (no layer above the gradient).
            for k in 0..<3 {
                let probe = SIMD3<Double>(repeating: Double(k) / 2) + SIMD3(0, 0.125, 0.25) * Double(k % 2)
                guard background(probe, 1) == probe else { return false }
            }
        }
        var recordedColors = 0
        let first = stops[0].position, last = stops[stops.count - 1].position
        // Pads (the first and last stop's colors outside the stops), then the color each step (a
        // hint at 0 or 1) shows, in the order the general search measures its constants.
        if lo < first { emit(.flat(seen: seen(stops[0].color, background), t: Swift.min(first, hi))) }
        if hi > last { emit(.flat(seen: seen(stops[stops.count - 1].color, background), t: Swift.max(last, lo))) }
        for i in 0..<(stops.count - 1) {
            let (a, b, h) = (stops[i].position, stops[i + 1].position, stops[i].hint)
            guard h <= 0 || h >= 1, b > a else { continue }
            // A step the region only touches is drawn over no width under it (see the general search).
            let (t0, t1) = (Swift.max(a, lo), Swift.min(b, hi))
            guard t0 < t1 else { continue }
            let pair = ColorInterpolation.Pair(stops[i].color, stops[i + 1].color, in: g.space, hue: g.hue)
            // The color the step shows over a width (see the general search).
            emit(.flat(seen: seen(pair.color(at: h <= 0 ? 1 : 0), background), t: h <= 0 ? t1 : t0))
        }
        // Each stretch: its two ends, and between them the points where an extreme can lie.
        for i in 0..<(stops.count - 1) {
            let (a, b, h) = (stops[i].position, stops[i + 1].position, stops[i].hint)
            guard h > 0 && h < 1, b > a else { continue }
            let (t0, t1) = (Swift.max(a, lo), Swift.min(b, hi))
            guard t0 < t1 else { continue }
            let pair = ColorInterpolation.Pair(stops[i].color, stops[i + 1].color, in: g.space, hue: g.hue)
            let knots = h != 0.5 ? CSSGradient.hintKnots(h) : nil
            let w0 = knots.map { CSSGradient.curve($0, (t0 - a) / (b - a), fromWeight: false) } ?? (t0 - a) / (b - a)
            let w1 = knots.map { CSSGradient.curve($0, (t1 - a) / (b - a), fromWeight: false) } ?? (t1 - a) / (b - a)
            guard w1 > w0 else { return false }
            let mapping = Mapping(a: a, b: b, w0: w0, w1: w1, t0: t0, t1: t1, knots: knots)
            if !srgb {
                // Opaque stops mix linearly in the interpolation space.
                guard pair.pa == 1, pair.qa == 1, !pair.bothAlphaMissing, let path = SolvedLightPath(pair, in: g.space) else { return false }
                let record = recorded ? path.walk(from: w0, to: w1) : nil
                recordedColors += record?.points.count ?? 0
                guard recordedColors <= maximumColors else { return false }
                emit(.light(Light(path: path, record: record, mapping: mapping)))
                continue
            }
            let start = seen(pair.color(at: w0), background)
            let end = seen(pair.color(at: w1), background)
            // `background` must keep the stretch straight (source-over onto opaque colors does):
            // its middle must be seen halfway between its ends.
            let mid = seen(pair.color(at: (w0 + w1) / 2), background)
            guard (0..<3).allSatisfy({ abs(mid[$0] - (start[$0] + end[$0]) / 2) <= 1e-9 }) else { return false }
            // The ends' luminances come with the slopes the search needs (the same sums
            // `WCAG.relativeLuminance` and `APCA.screenLuminance` make, bit for bit).
            let path = AffineSRGBPath(start: start, end: end)
            let (endsW, endsA) = path.ends()
            emit(.straight(Straight(pair: pair, path: path, endsW: endsW, endsA: endsA, mapping: mapping)))
        }
        return true
    }

    /// Measures opaque `text` (gamma-encoded sRGB `0...1`) on the plan, with the `background`
    /// it was made with; nil when nothing is shown.
    func measure(text: SIMD3<Double>, background: (SIMD3<Double>, Double) -> SIMD3<Double>) -> GradientContrast? {
        var best = GradientContrast.Extremes(text: text)
        for step in steps { Self.measure(step, conic: conic, into: &best, background: background) }
        return best.result
    }

    /// Measures one step into `best` (see `measure`).
    @inline(__always)
    static func measure(_ step: Step, conic: Bool, into best: inout GradientContrast.Extremes,
                        background: (SIMD3<Double>, Double) -> SIMD3<Double>) {
        switch step {
        case let .flat(seen, t):
            best.keep(best.sample(seen: seen, at: t, conic: conic))
        case .light(let s):
            let (textL, textY) = (best.textL, best.textY)
            withUnsafeMutablePointer(to: &best) { best in
                var keeper = Keeper(best: best, mapping: s.mapping, conic: conic)
                if let record = s.record {
                    s.path.measure(record, textL: textL, textY: textY, into: &keeper)
                } else {
                    s.path.measure(from: s.mapping.w0, to: s.mapping.w1, textL: textL, textY: textY, into: &keeper)
                }
            }
        case .straight(let s):
            let m = s.mapping
            let e0 = best.sample(seen: s.path.start, l: s.endsW.value0, y: s.endsA.value0, at: m.t0, conic: conic)
            let e1 = best.sample(seen: s.path.end, l: s.endsW.value1, y: s.endsA.value1, at: m.t1, conic: conic)
            best.keep(e0)
            // Where else an extreme can lie (a crossing only while neither end reaches it).
            let points = s.path.interiorCandidates(s.endsW, s.endsA, textL: best.textL, textY: best.textY,
                                                   wcagCrossing: e0.sample.ratio != 1 && e1.sample.ratio != 1,
                                                   apcaCrossing: e0.sample.lc != 0 && e1.sample.lc != 0)
            for k in 0..<4 where points[k] > 0 && points[k] < 1 {
                let w = m.w0 + (m.w1 - m.w0) * points[k]
                best.keep(best.sample(seen: seen(s.pair.color(at: w), background), at: m.position(w), conic: conic))
            }
            best.keep(e1)
        }
    }

    /// Keeps a stretch's colors in `best` (the measurement's, for the stretch's walk: not
    /// copied), at their gradient positions.
    struct Keeper: LightPointKeeper {
        let best: UnsafeMutablePointer<GradientContrast.Extremes>
        let mapping: Mapping
        let conic: Bool
        mutating func keep(_ q: LightPoint) {
            let t = q.w == mapping.w0 ? mapping.t0 : q.w == mapping.w1 ? mapping.t1 : mapping.position(q.w)
            best.pointee.keep(best.pointee.sample(seen: q.rgb, l: q.l, y: q.y, at: t, conic: conic))
        }
    }
}

/// The light path of a stretch in its interpolation space (see `SolvedPlan`).
enum SolvedLightPath {
    case cubic(CubicLightPath), oklch(OKLCHPath), cieLab(CIELabPath), hsl(HSLPath), encoded(EncodedRGBPath)

    /// The path between the two opaque colors of `pair` in `space`, nil when it cannot be solved.
    init?(_ pair: ColorInterpolation.Pair, in space: InterpolationSpace) {
        switch space {
        case .oklab, .srgbLinear, .displayP3Linear, .xyz, .xyzD65, .xyzD50:
            guard let path = CubicLightPath(pair.p, pair.q, in: space) else { return nil }
            self = .cubic(path)
        case .oklch:
            guard let path = OKLCHPath(pair.p, pair.q, missing: pair.missing) else { return nil }
            self = .oklch(path)
        case .lab, .lch:
            guard let path = CIELabPath(pair.p, pair.q, missing: pair.missing, polar: space == .lch) else { return nil }
            self = .cieLab(path)
        case .hsl, .hwb:
            guard let path = HSLPath(pair.p, pair.q, missing: pair.missing, hwb: space == .hwb) else { return nil }
            self = .hsl(path)
        case .srgb, .displayP3, .a98RGB, .prophotoRGB, .rec2020:
            guard let path = EncodedRGBPath(pair.p, pair.q, in: space) else { return nil }
            self = .encoded(path)
        }
    }

    /// The walk of the stretch from `w0` to `w1`.
    func walk(from w0: Double, to w1: Double) -> LightPathRecord {
        var record = LightPathRecord()
        switch self {
        case .cubic(let p): p.points(from: w0, to: w1, into: &record)
        case .oklch(let p): p.points(from: w0, to: w1, into: &record)
        case .cieLab(let p): p.points(from: w0, to: w1, into: &record)
        case .hsl(let p): p.points(from: w0, to: w1, into: &record)
        case .encoded(let p): p.points(from: w0, to: w1, into: &record)
        }
        return record
    }

    /// Walks the stretch from `w0` to `w1`, measuring one text color (`LightPathMeasurement`).
    func measure<K: LightPointKeeper>(from w0: Double, to w1: Double, textL: Double, textY: Double, into keeper: inout K) {
        func walk<P: LightPath>(_ p: P, _ points: (P, inout LightPathMeasurement<P, K>) -> Void) {
            var m = LightPathMeasurement(path: p, textL: textL, textY: textY, keeper: keeper)
            points(p, &m)
            keeper = m.keeper
        }
        switch self {
        case .cubic(let p): walk(p) { $0.points(from: w0, to: w1, into: &$1) }
        case .oklch(let p): walk(p) { $0.points(from: w0, to: w1, into: &$1) }
        case .cieLab(let p): walk(p) { $0.points(from: w0, to: w1, into: &$1) }
        case .hsl(let p): walk(p) { $0.points(from: w0, to: w1, into: &$1) }
        case .encoded(let p): walk(p) { $0.points(from: w0, to: w1, into: &$1) }
        }
    }

    /// `record.measure` on this path.
    func measure<K: LightPointKeeper>(_ record: LightPathRecord, textL: Double, textY: Double, into keeper: inout K) {
        switch self {
        case .cubic(let p): record.measure(on: p, textL: textL, textY: textY, into: &keeper)
        case .oklch(let p): record.measure(on: p, textL: textL, textY: textY, into: &keeper)
        case .cieLab(let p): record.measure(on: p, textL: textL, textY: textY, into: &keeper)
        case .hsl(let p): record.measure(on: p, textL: textL, textY: textY, into: &keeper)
        case .encoded(let p): record.measure(on: p, textL: textL, textY: textY, into: &keeper)
        }
    }
}

extension GradientContrast {
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

        /// The measurement of what was kept; nil when nothing was.
        var result: GradientContrast? {
            count > 0 ? GradientContrast(min: min, max: max, weakestLc: weakest, strongestLc: strongest, samples: count) : nil
        }

        init(text: SIMD3<Double>) {
            self.text = text
            textL = WCAG.relativeLuminance(text)
            textY = APCA.screenLuminance(text)
            preparedText = APCA.PreparedText(textY)
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

extension GradientContrast {
    /// A gradient made ready for measuring many text colors against it (the matrix: each
    /// palette color as text on each gradient). What a solved measurement finds whatever the
    /// text (`SolvedPlan`: the colors shown flatly, each stretch's ends, clipping corners and
    /// luminance extremes) is found once here; each opaque text color then costs only its
    /// measurements and its own crossings of the gradient's luminances. Translucent text, and a
    /// gradient that is searched rather than solved (repeating, translucent stops, a region
    /// over more than one stretch of the parameter), are measured in full each time. Every
    /// answer equals `GradientContrast(text:textAlpha:gradient:box:region:backdrop:)`'s.
    public struct Prepared: Sendable {
        /// The gradient measured.
        public let gradient: CSSGradient
        /// The element the gradient fills, in px, and the text's region in it (nil: the whole
        /// gradient line, ray or turn), as `GradientContrast.init` takes them.
        public let box: CSSGradient.Box?, region: CSSGradient.Region?
        /// Opaque gamma-encoded sRGB `0...1` behind translucent gradient colors.
        public let backdrop: SIMD3<Double>
        /// The recorded walk (at most `SolvedPlan.maximumRecordedColors` colors, about 2 MB).
        let plan: SolvedPlan?

        /// Prepares `gradient` under `region` of `box` over `backdrop` (as `GradientContrast.init`
        /// takes them): costs about one measurement (`GradientContrast.estimatedCost`).
        public init(gradient: CSSGradient, box: CSSGradient.Box? = nil, region: CSSGradient.Region? = nil,
                    backdrop: SIMD3<Double> = SIMD3(1, 1, 1)) {
            (self.gradient, self.box, self.region, self.backdrop) = (gradient, box, region, backdrop)
            // The gradients `init(gradient:box:region:compositor:)` answers before solving are not planned.
            if gradient.hasEmptyEndingShape(in: box) || gradient.repeatsWithNoLength {
                plan = nil
            } else {
                plan = SolvedPlan(gradient, box: box, region: region) { GradientContrast.seen($0, alpha: $1, over: backdrop) }
            }
        }

        /// Whether opaque text is measured on a plan (else in full, as translucent text is).
        public var isPlanned: Bool { plan != nil }

        /// How many colors the plan holds whatever the text (each measured for every text
        /// color); 0 when not planned.
        public var plannedColors: Int { plan?.colorCount ?? 0 }

        /// `text` (gamma-encoded sRGB `0...1`, straight alpha `textAlpha`) measured on the
        /// gradient, as `GradientContrast(text:textAlpha:gradient:box:region:backdrop:)` measures it.
        public func measure(text: SIMD3<Double>, textAlpha: Double = 1) -> GradientContrast {
            let alpha = textAlpha.isFinite ? textAlpha : 1
            if alpha >= 1, let plan {
                let backdrop = backdrop
                if let measured = plan.measure(text: text, background: { GradientContrast.seen($0, alpha: $1, over: backdrop) }) { return measured }
            }
            return GradientContrast(text: text, textAlpha: textAlpha, gradient: gradient, box: box, region: region, backdrop: backdrop)
        }
    }
}

extension SolvedPlan {
    /// The colors measured for every text color: flat colors, straight stretches' ends, and
    /// each light path's recorded colors.
    var colorCount: Int {
        steps.reduce(0) { n, step in
            switch step {
            case .flat: return n + 1
            case .straight: return n + 2
            case .light(let s): return n + (s.record?.visitCount ?? 0)
            }
        }
    }
}
