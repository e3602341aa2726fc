import Foundation

// The contrast of a text color against every color a CSS gradient (CSSGradient.swift) produces
// under it. Geometry per CSS Images 3 §3.1–§3.3 and CSS Images 4 §3.3 (gradient line length,
// ending shapes, conic angles); colors per CSS Images 4 §3.5 (stops, hints, repetition) on
// CSS Color 4 §12 interpolation (ColorInterpolation.swift). WCAG 2 ratio (WCAG.swift) and APCA
// Lc (APCA.swift) of the text composited over each gradient color.

extension CSSGradient {
    /// The element a gradient fills, in CSS px (the API takes 1...16384 per side).
    public struct Box: Sendable, Equatable {
        /// Width in CSS px.
        public var width: Double
        /// Height in CSS px.
        public var height: Double
        public init(width: Double, height: Double) { self.width = width; self.height = height }
    }

    /// A rectangle in the box, in CSS px from its top-left corner.
    public struct Region: Sendable, Equatable {
        /// Left edge and top edge from the box's top-left corner, width and height, all in CSS px.
        public var x: Double, y: Double, width: Double, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// The gradient's color at parameter `t` (a fraction of the gradient line, of the ray to the
    /// ending shape, or of a turn from the start angle), before compositing: stored in the
    /// interpolation space.
    public func color(at t: Double) -> Color {
        var t = t.isFinite ? t : 0
        if case .conic = geometry { t -= t.rounded(.down) }
        let first = stops[0].position, last = stops[stops.count - 1].position
        if repeating, last - first > 1e-9 {
            let period = last - first
            var r = (t - first).truncatingRemainder(dividingBy: period)
            if r < 0 { r += period }
            t = first + r
        }
        if t <= first { return ColorInterpolation.interpolate(stops[0].color, stops[0].color, at: 0, in: space, hue: hue) }
        if t >= last {
            let c = stops[stops.count - 1].color
            return ColorInterpolation.interpolate(c, c, at: 0, in: space, hue: hue)
        }
        // The last segment whose start is at or before t.
        var i = 0
        while i + 2 < stops.count && stops[i + 1].position <= t { i += 1 }
        let a = stops[i], b = stops[i + 1]
        let span = b.position - a.position
        let u = span > 0 ? (t - a.position) / span : 1
        return segmentColor(i, u)
    }

    /// The color of segment `i` (between stops i and i+1) at local fraction `u` in `0...1`, with
    /// the segment's hint applied (see `hintWeight`).
    public func segmentColor(_ i: Int, _ u: Double) -> Color {
        let a = stops[i], b = stops[i + 1]
        let w = CSSGradient.hintWeight(Swift.min(Swift.max(u, 0), 1), hint: a.hint)
        return ColorInterpolation.interpolate(a.color, b.color, at: w, in: space, hue: hue)
    }

    /// The weight of the next stop's color at fraction `u` of a segment whose hint lies at
    /// fraction `hint` (CSS Images 4 §3.5.3: `u^(log 0.5 / log hint)`), as Chromium and WebKit
    /// draw it: that curve sampled at nine points (seven on the hint's longer side, two on the
    /// other, the hint itself one of them) and joined by straight lines. Near a stop the exact
    /// curve is steep and the two differ by up to 19 of 255 (`#0066cc, 25%, #ffcc00`, measured
    /// against Chromium); this follows what the text is seen on. `hint` 0.5 is linear; 0 and 1
    /// are hard steps.
    public static func hintWeight(_ u: Double, hint h: Double) -> Double {
        if h == 0.5 { return u }
        if h <= 0 { return u > 0 ? 1 : 0 }
        if h >= 1 { return u < 1 ? 0 : 1 }
        // Knot positions as Blink's ReplaceColorHintsWithColorStops places them.
        var knots: [Double] = [0]
        if h > 0.5 {
            for y in 0..<7 { knots.append(h * Double(7 + y) / 13) }
            knots.append(h + (1 - h) / 3)
            knots.append(h + (1 - h) * 2 / 3)
        } else {
            knots.append(h / 3)
            knots.append(h * 2 / 3)
            for y in 0..<7 { knots.append(h + (1 - h) * Double(y) / 13) }
        }
        knots.append(1)
        let exponent = log(0.5) / log(h)
        var k = 1
        while k < knots.count - 1 && knots[k] < u { k += 1 }
        let (p0, p1) = (knots[k - 1], knots[k])
        let (w0, w1) = (pow(p0, exponent), pow(p1, exponent))
        guard p1 > p0 else { return w1 }
        return w0 + (w1 - w0) * (u - p0) / (p1 - p0)
    }

    /// The angle of a linear gradient in degrees for a box (a corner's angle depends on the
    /// box's aspect ratio, CSS Images 3 §3.1.1; without a box a square is assumed).
    public func linearAngle(box: Box?) -> Double? {
        switch geometry {
        case .linear(let a): return a
        case .linearToCorner(let x, let y):
            let (w, h) = box.map { ($0.width, $0.height) } ?? (1, 1)
            // Perpendicular to the diagonal that does not touch the corner, pointing at it.
            return atan2(x * h, -(y * w)) * 180 / Double.pi
        default: return nil
        }
    }

    /// The parameter of the gradient at point (px, py) of `box` (px from its top-left corner):
    /// the fraction of the gradient line (linear, CSS Images 3 §3.1: the line through the
    /// center whose length is |w sin a| + |h cos a|), of the ray to the ending shape (radial,
    /// §3.2: 1 on the ending shape), or of a turn clockwise from the start angle (conic, CSS
    /// Images 4 §3.3: `0..<1`). Not folded for repeating gradients.
    public func parameter(atX px: Double, y py: Double, box: Box) -> Double {
        let (w, h) = (box.width, box.height)
        switch geometry {
        case .linear, .linearToCorner:
            let a = (linearAngle(box: box) ?? 180) * Double.pi / 180
            let (dx, dy) = (sin(a), -cos(a))
            let length = abs(w * sin(a)) + abs(h * cos(a))
            guard length > 0 else { return 0.5 }
            return ((px - w / 2) * dx + (py - h / 2) * dy) / length + 0.5
        case .radial:
            let (cx, cy, rx, ry) = radialShape(box)
            return sqrt(pow((px - cx) / rx, 2) + pow((py - cy) / ry, 2))
        case .conic(let from, let center):
            let (cx, cy) = (center.x.resolve(w), center.y.resolve(h))
            var deg = atan2(px - cx, -(py - cy)) * 180 / Double.pi - from
            deg = deg.truncatingRemainder(dividingBy: 360)
            if deg < 0 { deg += 360 }
            return deg / 360
        }
    }

    /// Center and radii of a radial gradient's ending shape in `box` (CSS Images 3 §3.2.2);
    /// radii at least 1e-6 px so every parameter is finite.
    public func radialShape(_ box: Box) -> (cx: Double, cy: Double, rx: Double, ry: Double) {
        guard case .radial(let circle, let size, let center) = geometry else { return (0, 0, 1, 1) }
        let (w, h) = (box.width, box.height)
        let cx = center.x.resolve(w), cy = center.y.resolve(h)
        let sx = [abs(cx), abs(w - cx)], sy = [abs(cy), abs(h - cy)]
        var rx: Double, ry: Double
        switch size {
        case .closestSide, .farthestSide:
            let pick: ([Double]) -> Double = size == .closestSide ? { $0.min()! } : { $0.max()! }
            rx = pick(sx); ry = pick(sy)
            if circle { let r = pick([rx, ry]); (rx, ry) = (r, r) }
        case .closestCorner, .farthestCorner:
            let pick: ([Double]) -> Double = size == .closestCorner ? { $0.min()! } : { $0.max()! }
            let dx = pick(sx), dy = pick(sy)
            if circle {
                let r = sqrt(dx * dx + dy * dy); (rx, ry) = (r, r)
            } else {
                // Same aspect ratio as the matching side size, through the corner.
                (rx, ry) = (dx * 2.0.squareRoot(), dy * 2.0.squareRoot())
            }
        case .explicit(let x, let y):
            rx = x.resolve(w); ry = circle ? rx : y.resolve(h)
        }
        return (cx, cy, Swift.max(rx, 1e-6), Swift.max(ry, 1e-6))
    }

    /// The ranges of the gradient parameter the region covers (without a box, `0...1`: the
    /// gradient line, the ray to the ending shape, or the full turn).
    public func parameterRanges(box: Box?, region: Region?) -> [ClosedRange<Double>] {
        guard let box else { return [0...1] }
        let r = region ?? Region(x: 0, y: 0, width: box.width, height: box.height)
        let corners = [(r.x, r.y), (r.x + r.width, r.y), (r.x, r.y + r.height), (r.x + r.width, r.y + r.height)]
        switch geometry {
        case .linear, .linearToCorner:
            let ts = corners.map { parameter(atX: $0.0, y: $0.1, box: box) }
            return [ts.min()!...ts.max()!]
        case .radial:
            let (cx, cy, rx, ry) = radialShape(box)
            // In coordinates scaled by the radii the ending shapes are circles: the nearest point
            // of the rectangle and its farthest corner bound the parameter exactly.
            let nx = (Swift.min(Swift.max(cx, r.x), r.x + r.width) - cx) / rx
            let ny = (Swift.min(Swift.max(cy, r.y), r.y + r.height) - cy) / ry
            let lo = sqrt(nx * nx + ny * ny)
            let hi = corners.map { sqrt(pow(($0.0 - cx) / rx, 2) + pow(($0.1 - cy) / ry, 2)) }.max()!
            return [lo...hi]
        case .conic(_, let center):
            let cx = center.x.resolve(box.width), cy = center.y.resolve(box.height)
            if cx >= r.x && cx <= r.x + r.width && cy >= r.y && cy <= r.y + r.height { return [0...1] }
            let mid = parameter(atX: r.x + r.width / 2, y: r.y + r.height / 2, box: box)
            let offsets = corners.map { c -> Double in
                var d = parameter(atX: c.0, y: c.1, box: box) - mid
                d -= d.rounded()
                return d
            }
            return [(mid + offsets.min()!)...(mid + offsets.max()!)]
        }
    }


    /// The point of `region` (the whole box when nil) where the gradient's parameter is closest
    /// to `t` (for conic gradients, closest around the turn), in px from the box's top-left
    /// corner: the best point of a 17 × 17 grid over the region, then of a 17 × 17 grid over the
    /// cells around it (ties go to the point nearest the region's center). Exact to 1/128 of the
    /// region's width and height; 578 evaluations of `parameter`.
    public func point(nearest t: Double, box: Box, region: Region? = nil) -> (x: Double, y: Double) {
        let r = region ?? Region(x: 0, y: 0, width: box.width, height: box.height)
        let (cx, cy) = (r.x + r.width / 2, r.y + r.height / 2)
        let diagonal = Swift.max((r.width * r.width + r.height * r.height).squareRoot(), 1e-9)
        let conic: Bool
        if case .conic = geometry { conic = true } else { conic = false }
        var best = (x: cx, y: cy), bestKey = Double.infinity
        func search(x0: Double, y0: Double, w: Double, h: Double) {
            let n = 16
            for j in 0...n {
                for i in 0...n {
                    let x = x0 + w * Double(i) / Double(n), y = y0 + h * Double(j) / Double(n)
                    var d = parameter(atX: x, y: y, box: box) - t
                    if conic { d -= d.rounded() }
                    let near = ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() / diagonal
                    let key = abs(d) + 1e-9 * near
                    if key < bestKey { bestKey = key; best = (x, y) }
                }
            }
        }
        search(x0: r.x, y0: r.y, w: r.width, h: r.height)
        let (cw, ch) = (r.width / 16, r.height / 16)
        let x0 = Swift.max(r.x, best.x - cw), y0 = Swift.max(r.y, best.y - ch)
        search(x0: x0, y0: y0, w: Swift.min(r.x + r.width, best.x + cw) - x0, h: Swift.min(r.y + r.height, best.y + ch) - y0)
        return best
    }
}

/// The contrast of a text color against every color of a CSS gradient under it.
public struct GradientContrast: Sendable, Equatable {
    /// One measured point of the gradient.
    public struct Sample: Sendable, Equatable {
        /// The gradient parameter: a fraction of the gradient line (linear), of the ray from the
        /// center to the ending shape (radial), or of a turn from the start angle (conic, `0..<1`).
        /// For repeating gradients, the position itself (not folded into the first repetition);
        /// without a box, within `0...1` (the first repetition that starts there).
        public var position: Double
        /// The background seen there: the gradient color in sRGB `0...1` (clipped, as browsers
        /// draw colors outside sRGB), composited over what lies behind it and under what lies above.
        public var background: SIMD3<Double>
        /// The text color seen there (the text composited over `background` when translucent).
        public var text: SIMD3<Double>
        /// WCAG 2 contrast ratio `1...21`.
        public var ratio: Double
        /// APCA 0.0.98G-4g Lc, signed (negative: light text on a dark background), `-108...106`.
        public var lc: Double
    }

    /// Maps a gradient color (gamma-encoded sRGB `0...1` and straight alpha `0...1`) to the
    /// opaque background and text colors seen (gamma-encoded sRGB `0...1`).
    public typealias Compositor = (SIMD3<Double>, Double) -> (background: SIMD3<Double>, text: SIMD3<Double>)

    /// The lowest WCAG ratio and where it is.
    public var min: Sample
    /// The highest WCAG ratio and where it is.
    public var max: Sample
    /// The APCA Lc of least magnitude (the weakest) and where it is.
    public var weakestLc: Sample
    /// The APCA Lc of greatest magnitude and where it is.
    public var strongestLc: Sample
    /// How many gradient colors were evaluated (at most `sampleBudget` plus the refinements).
    public var samples: Int

    /// Most evenly spaced samples one measurement takes before refinement (each of the four
    /// refinements adds at most 2 + `refinementSteps`).
    public static let sampleBudget = 1024
    /// Samples per stretch between two stops, at most and at least (the budget permitting).
    public static let samplesPerPiece = 4...16
    /// Golden-section steps of each refinement (the bracket shrinks by 0.618 each step).
    public static let refinementSteps = 20

    /// Measures `text` (gamma-encoded sRGB `0...1`, straight alpha `textAlpha`) against the
    /// colors of `gradient` under `region` of `box`: each gradient color that is translucent is
    /// composited over `backdrop` (opaque sRGB) first, then the text over the result.
    public init(text: SIMD3<Double>, textAlpha: Double = 1, gradient: CSSGradient,
                box: CSSGradient.Box? = nil, region: CSSGradient.Region? = nil,
                backdrop: SIMD3<Double> = SIMD3(1, 1, 1)) {
        let fgAlpha = Swift.min(Swift.max(textAlpha.isFinite ? textAlpha : 1, 0), 1)
        self.init(gradient: gradient, box: box, region: region) { rgb, alpha in
            let bg = alpha < 1 ? Compositing.sourceOver(rgb, alpha: alpha, overOpaque: backdrop) : rgb
            let fg = fgAlpha < 1 ? Compositing.sourceOver(text, alpha: fgAlpha, overOpaque: bg) : text
            return (bg, fg)
        }
    }

    /// Measures against the colors of `gradient` under `region` of `box` (without a box: the
    /// whole gradient line, ray or turn), each turned into the background and text seen by
    /// `compositor`.
    ///
    /// Each gradient color is converted to sRGB and clipped to `0...1` (as Chromium draws
    /// oklab-interpolated colors outside sRGB) before `compositor`. The parameter ranges the
    /// region covers are folded into one turn (conic) and one period (repeating), and cut at
    /// every stop; each piece is sampled evenly, both ends included (so both colors of a hard
    /// stop are seen), `samplesPerPiece` within `sampleBudget`; then the lowest and highest
    /// ratio and the weakest and strongest Lc are refined by golden-section search between the
    /// neighbors of their best sample (20 steps shrink the bracket of 2/15 of a stretch to about
    /// 1e-5 of it), unless the best sample is an end of its stretch and a probe 1/64 of a step
    /// inside is no better. A stretch is smooth, so a smooth extreme's value is exact to far below 1e-9;
    /// only where the background's luminance crosses the text's (ratio 1, a corner) is the value
    /// off, by about 1e-5. A color flatly outside the stops (a pad) is measured once.
    public init(gradient g: CSSGradient, box: CSSGradient.Box? = nil, region: CSSGradient.Region? = nil,
                compositor: Compositor) {
        let first = g.stops[0].position, last = g.stops[g.stops.count - 1].position
        let conic: Bool
        if case .conic = g.geometry { conic = true } else { conic = false }
        // A stretch of the canonical domain and the shift back to where it lies.
        struct Span { var lo: Double; var hi: Double; var shift: Double }
        func fold(_ r: (lo: Double, hi: Double, shift: Double), start: Double, period: Double) -> [Span] {
            let k = ((r.lo - start) / period).rounded(.down)
            var a = r.lo - start - k * period
            if a < 0 { a = 0 }
            if a >= period { a = 0 }
            if r.hi - r.lo >= period {
                // One whole period, starting where the range starts.
                return [Span(lo: start + a, hi: start + period, shift: r.shift + k * period),
                        Span(lo: start, hi: start + a, shift: r.shift + (k + 1) * period)]
            }
            let b = a + (r.hi - r.lo)
            if b <= period { return [Span(lo: start + a, hi: start + b, shift: r.shift + k * period)] }
            return [Span(lo: start + a, hi: start + period, shift: r.shift + k * period),
                    Span(lo: start, hi: start + b - period, shift: r.shift + (k + 1) * period)]
        }
        var spans: [Span] = []
        for r0 in g.parameterRanges(box: box, region: region) {
            let r = r0.lowerBound.isFinite && r0.upperBound.isFinite ? r0 : 0...1
            let turns = conic ? fold((r.lowerBound, r.upperBound, 0), start: 0, period: 1)
                              : [Span(lo: r.lowerBound, hi: r.upperBound, shift: 0)]
            for s in turns {
                if g.repeating && last - first > 1e-9 {
                    spans += fold((s.lo, s.hi, s.shift), start: first, period: last - first)
                } else {
                    spans.append(s)
                }
            }
        }
        // Pieces: a stretch of one segment (between stops i and i+1), or a constant pad color.
        struct Piece { var segment: Int; var u0: Double; var u1: Double; var t0: Double; var t1: Double; var shift: Double }
        var pieces: [Piece] = []
        var constants: [(t: Double, color: Color)] = []
        for s in spans {
            if s.lo < first { constants.append((Swift.min(first, s.hi) + s.shift, g.stops[0].color)) }
            if s.hi > last { constants.append((Swift.max(last, s.lo) + s.shift, g.stops[g.stops.count - 1].color)) }
            for i in 0..<(g.stops.count - 1) {
                let a = g.stops[i].position, b = g.stops[i + 1].position
                guard b > a else { continue }
                let lo = Swift.max(a, s.lo), hi = Swift.min(b, s.hi)
                guard lo <= hi else { continue }
                pieces.append(Piece(segment: i, u0: (lo - a) / (b - a), u1: (hi - a) / (b - a), t0: lo, t1: hi, shift: s.shift))
            }
        }
        if pieces.isEmpty && constants.isEmpty {
            let t = spans.first?.lo ?? first
            constants.append((t + (spans.first?.shift ?? 0), g.color(at: t)))
        }
        func reported(_ t: Double) -> Double {
            guard conic else { return t }
            let f = t - t.rounded(.down)
            return f.isFinite ? f : 0
        }
        // Each segment's two colors, ready in the interpolation space (as `segmentColor`).
        let pairs = (0..<(g.stops.count - 1)).map {
            ColorInterpolation.Pair(g.stops[$0].color, g.stops[$0 + 1].color, in: g.space, hue: g.hue)
        }
        func segment(_ i: Int, _ u: Double) -> Color {
            pairs[i].color(at: CSSGradient.hintWeight(Swift.min(Swift.max(u, 0), 1), hint: g.stops[i].hint))
        }
        var count = 0
        var lastText = SIMD3<Double>(repeating: .nan), lastTextL = 0.0, lastTextY = 0.0
        func measure(_ c: Color, at t: Double) -> Sample {
            count += 1
            let s = c.converted(to: .srgb)
            var rgb = s.coordinates
            for k in 0..<3 { rgb[k] = rgb[k].isFinite ? Swift.min(Swift.max(rgb[k], 0), 1) : 0 }
            let alpha = s.alpha.isFinite ? Swift.min(Swift.max(s.alpha, 0), 1) : 1
            let (bg, fg) = compositor(rgb, alpha)
            // Opaque text over opaque layers is the same color at every sample: its luminances
            // are taken once.
            if fg != lastText {
                lastText = fg
                lastTextL = WCAG.relativeLuminance(fg)
                lastTextY = APCA.screenLuminance(fg)
            }
            let ratio = WCAG.contrastRatio(lastTextL, WCAG.relativeLuminance(bg))
            let lc = APCA.lc(textY: lastTextY, backgroundY: APCA.screenLuminance(bg))
            return Sample(position: reported(t), background: bg, text: fg, ratio: ratio.isFinite ? ratio : 1,
                          lc: lc.isFinite ? lc : 0)
        }
        // Every sample with its piece (-1: a constant) and fraction of the segment.
        var all: [(sample: Sample, piece: Int, u: Double)] = []
        for (t, c) in constants { all.append((measure(c, at: t), -1, 0)) }
        let range = GradientContrast.samplesPerPiece
        let perPiece = pieces.isEmpty ? 0
            : Swift.min(range.upperBound, Swift.max(range.lowerBound, GradientContrast.sampleBudget / pieces.count))
        for (n, p) in pieces.enumerated() {
            let k = p.u1 > p.u0 ? perPiece : 1
            for j in 0..<k {
                let f = k == 1 ? 0 : Double(j) / Double(k - 1)
                let u = p.u0 + (p.u1 - p.u0) * f
                let t = p.t0 + (p.t1 - p.t0) * f
                all.append((measure(segment(p.segment, u), at: t + p.shift), n, u))
            }
        }
        // Golden-section search for the least `key` between the neighbors of the best sample.
        func refine(_ key: (Sample) -> Double) -> Sample {
            var best = all[0]
            for s in all where key(s.sample) < key(best.sample) { best = s }
            guard best.piece >= 0 else { return best.sample }
            let p = pieces[best.piece]
            let step = (p.u1 - p.u0) / Double(Swift.max(perPiece - 1, 1))
            var a = Swift.max(p.u0, best.u - step), b = Swift.min(p.u1, best.u + step)
            guard b > a else { return best.sample }
            func at(_ u: Double) -> Sample {
                let f = p.u1 > p.u0 ? (u - p.u0) / (p.u1 - p.u0) : 0
                return measure(segment(p.segment, u), at: p.t0 + (p.t1 - p.t0) * f + p.shift)
            }
            // At an end of the stretch (where a two-stop gradient's extremes usually are): when a
            // probe just inside is no better, the end is the extreme of its bracket, which the
            // search would only approach.
            if best.u == p.u0 || best.u == p.u1 {
                let probe = at(best.u == p.u0 ? best.u + (b - a) / 64 : best.u - (b - a) / 64)
                if key(probe) >= key(best.sample) { return best.sample }
            }
            let phi = (5.0.squareRoot() - 1) / 2
            var c = b - phi * (b - a), d = a + phi * (b - a)
            var sc = at(c), sd = at(d)
            for _ in 0..<GradientContrast.refinementSteps {
                if key(sc) < key(sd) { b = d; d = c; sd = sc; c = b - phi * (b - a); sc = at(c) }
                else { a = c; c = d; sc = sd; d = a + phi * (b - a); sd = at(d) }
                if b - a < 1e-10 { break }
            }
            var result = best.sample
            for s in [sc, sd] where key(s) < key(result) { result = s }
            return result
        }
        min = refine { $0.ratio }
        max = refine { -$0.ratio }
        weakestLc = refine { abs($0.lc) }
        strongestLc = refine { -abs($0.lc) }
        samples = count
    }
}
