import Foundation

// The contrast of a text color against every color a CSS gradient (CSSGradient.swift) produces
// under it. Geometry per CSS Images 3 §3.1–§3.3 and CSS Images 4 §3.3 (gradient line length,
// ending shapes, conic angles); colors per CSS Images 4 §3.5 (stops, hints, repetition) on
// CSS Color 4 §12 interpolation (ColorInterpolation.swift). WCAG 2 ratio (WCAG.swift) and APCA
// Lc (APCA.swift) of the text composited over each gradient color.

extension CSSGradient {
    /// Whether the gradient is interpolated in sRGB and every stop lies inside sRGB (each channel
    /// `0...1`): then every stretch is a straight line of what a screen shows.
    var isSRGBInsideGamut: Bool {
        space == .srgb && stops.allSatisfy { s in
            let c = s.color.converted(to: .srgb).coordinates
            return (0..<3).allSatisfy { c[$0] >= 0 && c[$0] <= 1 }
        }
    }

    /// `t` moved onto a stop's position when it lies within 1e-9 of it (relative, at least
    /// absolute), else `t`: a region's edge on a hard stop, computed in floating point, lands a
    /// rounding off it (x = 10 of a 100 px box is 0.09999999999999998 of the line, the stop at
    /// 10% is 0.1), and the color on the stop's other side, drawn over no width under the region,
    /// had counted (a hostile pass: 648 of 4,752 regions bordering a stop at a whole pixel).
    func snappedToStop(_ t: Double) -> Double {
        var best = t, distance = 1e-9 * Swift.max(1, abs(t))
        for s in stops where abs(s.position - t) <= distance {
            (best, distance) = (s.position, abs(s.position - t))
        }
        return best
    }

    /// The one color the gradient paints everywhere, when it has one: every stop the same color
    /// (and not `longer hue`, which turns a full circle between equal hues, CSS Color 4
    /// §12.4.2): gamma-encoded sRGB `0...1`, clipped as browsers draw a gradient's colors, and
    /// straight alpha `0...1`. `linear-gradient(rgb(0 0 0 / 0.4), rgb(0 0 0 / 0.4))` is how CSS
    /// writes a uniform layer over an image.
    public var uniformColor: (srgb: SIMD3<Double>, alpha: Double)? {
        guard let first = stops.first?.color, hue != .longer, stops.allSatisfy({ $0.color == first }) else { return nil }
        let c = first.converted(to: .srgb).coordinates
        guard (0..<3).allSatisfy({ c[$0].isFinite }), first.alpha.isFinite else { return nil }
        return (c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)), Swift.min(Swift.max(first.alpha, 0), 1))
    }

    /// Whether, in `oklch`, a stop written in another space whose OKLCH chroma is below 0.02 (a
    /// near gray such as Tailwind's zinc `#71717a`) meets a colored one: Chromium 156 takes such
    /// a stop's hue as missing (its threshold lies between 0.0199 and 0.0201) and paints the
    /// other stop's hue across, where CSS Color 4 makes a hue powerless only for an achromatic
    /// color and this service keeps the stop's own (a pass against Chromium's pixels: white on
    /// `in oklch, #249709, #908080` was 3.76:1 here, 3.66:1 painted).
    public var nearGrayLosesItsHueInChromium: Bool {
        guard space == .oklch else { return false }
        func nearGray(_ c: Color) -> Bool {
            guard c.space != .oklch else { return false }
            let (x, hueMissing) = space.coordinates(of: c)
            return !hueMissing && x.y > 1e-9 && x.y < 0.02
        }
        func colored(_ c: Color) -> Bool { space.coordinates(of: c).0.y >= 0.02 }
        return zip(stops, stops.dropFirst()).contains { a, b in
            (nearGray(a.color) && colored(b.color)) || (nearGray(b.color) && colored(a.color))
        }
    }

    /// Whether a color hint lies off its stretch's midpoint (and is not a hard step): drawn as
    /// Chromium draws hints, nine straight pieces of CSS Images 4 §3.5.3's curve.
    public var hasCurvedHint: Bool {
        stops.dropLast().contains { $0.hint > 0 && $0.hint < 1 && $0.hint != 0.5 }
    }

    /// Whether two neighboring stops interpolated in a polar space (`hsl`, `hwb`, `lch`, `oklch`)
    /// are one gray (no chroma, no saturation, or HWB's `w + b ≥ 100%`) and one color: there the
    /// gray's hue is powerless (CSS Color 4 §4.4.1) and this service ramps the chroma at the
    /// color's hue, where Chromium 156 paints a hue sweep through the small hue the gray gets
    /// through sRGB (docs/api/contrast.md: up to 0.2 lower than measured here).
    public var graySweepsHueInBrowsers: Bool {
        guard let h = space.hueIndex else { return false }
        func gray(_ c: Color) -> Bool {
            let (x, hueMissing) = space.coordinates(of: c)
            if hueMissing || c.isNone[h] && c.space == space.storage { return true }
            switch space {
            case .hwb: return x.y + x.z >= 100 - 1e-9
            default: return abs(x.y) <= 1e-9
            }
        }
        let grays = stops.map { gray($0.color) }
        return zip(grays, grays.dropFirst()).contains { $0 != $1 }
    }

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
            // Wrapped into the pattern, where the first stop starts its first stretch: its color
            // there is that stretch's (a `none` filled from the next stop), not the stop's own
            // with `none` as 0, which a repeating gradient never paints (a hostile pass).
            let period = last - first
            var r = (t - first).truncatingRemainder(dividingBy: period)
            if r < 0 { r += period }
            t = first + r
        } else {
            if t <= first { return ColorInterpolation.interpolate(stops[0].color, stops[0].color, at: 0, in: space, hue: hue) }
            if t >= last {
                let c = stops[stops.count - 1].color
                return ColorInterpolation.interpolate(c, c, at: 0, in: space, hue: hue)
            }
        }
        // The last segment whose start is at or before t.
        var i = 0
        while i + 2 < stops.count && stops[i + 1].position <= t { i += 1 }
        let a = stops[i], b = stops[i + 1]
        let span = b.position - a.position
        let u = span > 0 ? (t - a.position) / span : 1
        return segmentColor(i, u)
    }

    /// Whether this is a repeating gradient whose stops all lie within 1e-9 of one position: a
    /// pattern of no length. CSS Images 3 §3.4 paints it as one solid color, the average of the
    /// same stops spread over a non-zero length (`averageColor`); Chromium paints its last
    /// stop's color (measured: `repeating-linear-gradient(90deg, #000 50%, #fff 50%)` is white,
    /// and stops 1e-9 apart are too, while 1e-6 apart still show every color).
    public var repeatsWithNoLength: Bool {
        repeating && stops[stops.count - 1].position - stops[0].position <= 1e-9
    }

    /// The average color CSS Images 3 §3.4 paints a repeating gradient of no length with: the
    /// same stops with the first at 0 and the last at 1, the others spaced evenly between them
    /// (hints kept as fractions of their intervals), averaged as displayed (each color converted
    /// to sRGB and clipped, premultiplied by its alpha) over 64 midpoints of each interval.
    /// Straight alpha; sRGB.
    public var averageColor: Color {
        var spread = self
        spread.repeating = false
        let n = stops.count - 1
        for i in stops.indices { spread.stops[i].position = Double(i) / Double(n) }
        var sum = SIMD3<Double>(repeating: 0), alpha = 0.0
        let samples = 64 * n
        for k in 0..<samples {
            let (rgb, a) = GradientContrast.displayed(spread.color(at: (Double(k) + 0.5) / Double(samples)).converted(to: .srgb))
            sum += rgb * a
            alpha += a
        }
        let mean = alpha > 0 ? sum / alpha : SIMD3(repeating: 0)
        return Color(space: .srgb, coordinates: mean, alpha: alpha / Double(samples))
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
        return curve(hintKnots(h), u, fromWeight: false)
    }

    /// The piecewise-linear curve through `knots` (increasing in both members) at `x`: from the
    /// fraction `u` to the weight `w`, or back when `fromWeight`; `x` outside the knots is
    /// clamped. (Key paths had chosen the member: each read through one cost hundreds of
    /// instructions, a curve about 3,500, paid for every color measured on a hinted stretch: a
    /// hostile pass's matrix of 64 colors on 16 gradients of 64 hinted stops took 2.9 s against
    /// 0.6 s without the hints.)
    static func curve(_ knots: [(u: Double, w: Double)], _ x: Double, fromWeight: Bool) -> Double {
        let x = x.isFinite ? x : 0
        @inline(__always) func from(_ knot: (u: Double, w: Double)) -> Double { fromWeight ? knot.w : knot.u }
        @inline(__always) func to(_ knot: (u: Double, w: Double)) -> Double { fromWeight ? knot.u : knot.w }
        var k = 1
        while k < knots.count - 1 && from(knots[k]) < x { k += 1 }
        let (a, b) = (knots[k - 1], knots[k])
        let (x0, x1, y0, y1) = (from(a), from(b), to(a), to(b))
        guard x1 > x0 else { return y1 }
        return y0 + (y1 - y0) * (Swift.min(Swift.max(x, x0), x1) - x0) / (x1 - x0)
    }

    /// The eleven knots of `hintWeight` for a hint strictly between 0 and 1: fraction `u` and
    /// weight `u^(log 0.5 / log h)`, placed as Blink's ReplaceColorHintsWithColorStops places them.
    static func hintKnots(_ h: Double) -> [(u: Double, w: Double)] {
        var us: [Double] = [0]
        if h > 0.5 {
            for y in 0..<7 { us.append(h * Double(7 + y) / 13) }
            us.append(h + (1 - h) / 3)
            us.append(h + (1 - h) * 2 / 3)
        } else {
            us.append(h / 3)
            us.append(h * 2 / 3)
            for y in 0..<7 { us.append(h + (1 - h) * Double(y) / 13) }
        }
        us.append(1)
        let exponent = log(0.5) / log(h)
        return us.map { ($0, pow($0, exponent)) }
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

    /// A linear gradient's line in `box` (CSS Images 3 §3.1.1): its direction as a unit vector in
    /// px (y down) and its length `|w sin a| + |h cos a|`.
    /// The sine and cosine are exact at multiples of 90° (`to right` is 90°): `cos(π/2)` in radians
    /// is 6e-17, which had moved a region's edge on a hard stop by that much and let the color
    /// beyond the stop, drawn over no width, count (a new user's pass: a text box over the cream
    /// half of `linear-gradient(to right, navy 50%, cream 50%)` measured against navy).
    func linearLine(_ box: Box) -> (dx: Double, dy: Double, length: Double) {
        let (s, c) = Self.sinCos(degrees: linearAngle(box: box) ?? 180)
        return (s, -c, abs(box.width * s) + abs(box.height * c))
    }

    /// The sine and cosine of an angle in degrees, exact at multiples of 90° (the angle is
    /// reduced to its quadrant first); NaN for a non-finite angle.
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        guard degrees.isFinite else { return (.nan, .nan) }
        var r = degrees.truncatingRemainder(dividingBy: 360)
        if r < 0 { r += 360 }
        let quadrant = Swift.min(Int((r / 90).rounded(.down)), 3)
        let x = (r - 90 * Double(quadrant)) * Double.pi / 180
        let (s, c) = x == 0 ? (0.0, 1.0) : (sin(x), cos(x))
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// The length in px along which stop positions are measured in `box`: the gradient line
    /// (linear, CSS Images 3 §3.1.1: `|w sin a| + |h cos a|`) or the gradient ray to the ending
    /// shape, its horizontal radius (radial, §3.2.1); nil for conic gradients, whose stops are
    /// angles.
    public func lineLength(in box: Box) -> Double? {
        switch geometry {
        case .linear, .linearToCorner:
            return linearLine(box).length
        case .radial:
            return radialShapeUnclamped(box).rx
        case .conic:
            return nil
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
            let (dx, dy, length) = linearLine(box)
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
        let (cx, cy, rx, ry) = radialShapeUnclamped(box)
        return (cx, cy, Swift.max(rx, 1e-6), Swift.max(ry, 1e-6))
    }

    /// Whether this is a radial gradient whose ending shape has no width or no height in `box`
    /// (without a box: an explicit radius of `0` or `0%`). CSS Images 3 §3.2.3 draws such a
    /// gradient as if the shape were vanishingly thin, so every point off a line of no width
    /// lies past the last stop and shows its color (Chromium 156 paints
    /// `radial-gradient(circle 0px, #fff, #000)` solid black).
    public func hasEmptyEndingShape(in box: Box?) -> Bool {
        guard case .radial(let circle, let size, _) = geometry else { return false }
        if let box {
            let (_, _, rx, ry) = radialShapeUnclamped(box)
            return !(rx > 0) || !(ry > 0)
        }
        guard case .explicit(let x, let y) = size else { return false }
        func zero(_ l: Length) -> Bool {
            switch l {
            case .px(let v): return v == 0
            case .fraction(let f): return f == 0
            }
        }
        return zero(x) || (!circle && zero(y))
    }

    func radialShapeUnclamped(_ box: Box) -> (cx: Double, cy: Double, rx: Double, ry: Double) {
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
        return (cx, cy, rx, ry)
    }

    /// The ranges of the gradient parameter the region covers (without a box, `0...1`: the
    /// gradient line, the ray to the ending shape, or the full turn); an end within rounding of a
    /// stop is on it (`snappedToStop`; folding a range into one turn or period snaps it again).
    public func parameterRanges(box: Box?, region: Region?) -> [ClosedRange<Double>] {
        guard let box else { return [0...1] }
        let r = region ?? Region(x: 0, y: 0, width: box.width, height: box.height)
        let corners = [(r.x, r.y), (r.x + r.width, r.y), (r.x, r.y + r.height), (r.x + r.width, r.y + r.height)]
        /// `lo...hi` with each end snapped, unless a range narrower than the rounding would turn over.
        func snapped(_ lo: Double, _ hi: Double) -> [ClosedRange<Double>] {
            let (a, b) = (snappedToStop(lo), snappedToStop(hi))
            return a <= b ? [a...b] : [lo...hi]
        }
        switch geometry {
        case .linear, .linearToCorner:
            let ts = corners.map { parameter(atX: $0.0, y: $0.1, box: box) }
            return snapped(ts.min()!, ts.max()!)
        case .radial:
            let (cx, cy, rx, ry) = radialShape(box)
            // In coordinates scaled by the radii the ending shapes are circles: the nearest point
            // of the rectangle and its farthest corner bound the parameter exactly.
            let nx = (Swift.min(Swift.max(cx, r.x), r.x + r.width) - cx) / rx
            let ny = (Swift.min(Swift.max(cy, r.y), r.y + r.height) - cy) / ry
            let lo = sqrt(nx * nx + ny * ny)
            let hi = corners.map { sqrt(pow(($0.0 - cx) / rx, 2) + pow(($0.1 - cy) / ry, 2)) }.max()!
            return snapped(lo, hi)
        case .conic(_, let center):
            let cx = center.x.resolve(box.width), cy = center.y.resolve(box.height)
            // A center strictly inside sees every angle; on an edge half a turn, on a corner a
            // quarter, from the corners that are not the center (a hostile pass: a region with
            // a corner on the center had been measured over the whole turn).
            if cx > r.x && cx < r.x + r.width && cy > r.y && cy < r.y + r.height { return [0...1] }
            let mid = parameter(atX: r.x + r.width / 2, y: r.y + r.height / 2, box: box)
            let offsets = corners.filter { $0.0 != cx || $0.1 != cy }.map { c -> Double in
                var d = parameter(atX: c.0, y: c.1, box: box) - mid
                d -= d.rounded()
                return d
            }
            return snapped(mid + offsets.min()!, mid + offsets.max()!)
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
        /// center to the ending shape (radial), or of a turn from the start angle (conic, `0...1`:
        /// 1 is the end of the turn, where the last color meets the first at the start angle).
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
    /// How many gradient colors were measured: on the solved paths (sRGB, OKLab, linear-light)
    /// the stops and the points where an extreme can lie; in the search up to `sampleBudget` samples, the points where a
    /// color leaves sRGB, and up to `refinementSteps` (+ 2) per crossing and per polished stretch.
    public var samples: Int

    /// A gradient color as a screen shows it: its sRGB channels clipped to `0...1` (a channel
    /// that is not finite as 0) and its alpha to `0...1` (not finite: 1), before compositing.
    /// Chromium 156 clips solid colors alike (`/v1/contrast`'s note on a color outside sRGB).
    public static func displayed(_ srgb: Color) -> (rgb: SIMD3<Double>, alpha: Double) {
        var rgb = srgb.coordinates
        for k in 0..<3 { rgb[k] = rgb[k].isFinite ? Swift.min(Swift.max(rgb[k], 0), 1) : 0 }
        return (rgb, srgb.alpha.isFinite ? Swift.min(Swift.max(srgb.alpha, 0), 1) : 1)
    }

    /// A gradient color (gamma-encoded sRGB `0...1`, straight alpha `0...1`) as seen over the
    /// opaque `backdrop`: itself when opaque, else composited source-over (Compositing and
    /// Blending 1 §5.1). What every measurement takes as the background under the text when no
    /// layer lies above the gradient.
    @inlinable
    public static func seen(_ rgb: SIMD3<Double>, alpha: Double, over backdrop: SIMD3<Double>) -> SIMD3<Double> {
        alpha < 1 ? Compositing.sourceOver(rgb, alpha: alpha, overOpaque: backdrop) : rgb
    }

    init(min: Sample, max: Sample, weakestLc: Sample, strongestLc: Sample, samples: Int) {
        (self.min, self.max, self.weakestLc, self.strongestLc, self.samples) = (min, max, weakestLc, strongestLc, samples)
    }

    /// Most evenly spaced samples one measurement takes before refinement.
    public static let sampleBudget = 1024
    /// Samples per stretch between two stops, at most and at least (the budget permitting):
    /// `baseSamplesPerPiece`, and one more for every `hueDegreesPerSample` the hue turns.
    public static let samplesPerPiece = 3...32
    /// Samples of a stretch whose hue does not turn (a straight line in a rectangular space,
    /// where the luminance has at most a few smooth bends).
    public static let baseSamplesPerPiece = 6
    /// Degrees of hue per extra sample in a polar space (luminance bends with the hue: HSL and
    /// HWB have a corner every 60°, LCH and OKLCH a smooth wave).
    public static let hueDegreesPerSample = 15.0
    /// Most evaluations of each refinement step: Brent's minimization, and the Illinois root
    /// search where the background's luminance crosses the text's.
    public static let refinementSteps = 40

    /// One step of the Illinois variant of regula falsi (M. Dowell and P. Jarratt, BIT 11 (1971)
    /// 168–174) on the bracket `a...b` (or `b...a`) where `f` has opposite signs `fa` and `fb`:
    /// `next` is the point to evaluate; `update` takes its value and keeps the half that still
    /// brackets the root, halving the stale end's value when the same end is kept twice.
    struct IllinoisBracket {
        var a: Double, fa: Double, b: Double, fb: Double
        var side = 0
        init(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double) { (self.a, self.fa, self.b, self.fb) = (a, fa, b, fb) }
        /// The secant point of the bracket (its middle when that is not strictly inside).
        var next: Double {
            let c = (a * fb - b * fa) / (fb - fa)
            return c.isFinite && c > Swift.min(a, b) && c < Swift.max(a, b) ? c : (a + b) / 2
        }
        /// The bracket's width.
        var width: Double { abs(b - a) }
        mutating func update(_ c: Double, _ fc: Double) {
            if (fc < 0) == (fb < 0) {
                (b, fb) = (c, fc)
                if side == -1 { fa /= 2 }
                side = -1
            } else {
                (a, fa) = (c, fc)
                if side == 1 { fb /= 2 }
                side = 1
            }
        }
    }

    /// Measures `text` (gamma-encoded sRGB `0...1`, straight alpha `textAlpha`) against the
    /// colors of `gradient` under `region` of `box`: each gradient color that is translucent is
    /// composited over `backdrop` (opaque sRGB) first, then the text over the result.
    public init(text: SIMD3<Double>, textAlpha: Double = 1, gradient: CSSGradient,
                box: CSSGradient.Box? = nil, region: CSSGradient.Region? = nil,
                backdrop: SIMD3<Double> = SIMD3(1, 1, 1)) {
        let fgAlpha = Swift.min(Swift.max(textAlpha.isFinite ? textAlpha : 1, 0), 1)
        self.init(gradient: gradient, box: box, region: region) { rgb, alpha in
            let bg = GradientContrast.seen(rgb, alpha: alpha, over: backdrop)
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
    /// region covers are folded into one turn (conic) and one period (repeating) and cut at
    /// every stop; a stretch with a hint of 0 or 1 (a step) shows its two end colors only; HSL
    /// and HWB stretches are cut again at every multiple of 60° of hue, where those spaces bend.
    /// Each piece is sampled evenly in the weight of its second color (so a hint does not crowd
    /// the samples), both ends included: `baseSamplesPerPiece`, one more per
    /// `hueDegreesPerSample` of hue turned, within `samplesPerPiece` and `sampleBudget`; where
    /// the unclipped color leaves or enters sRGB between two samples, that point is sampled too.
    /// Then, for each of the four extremes: a ratio of 1 or an Lc of 0 among the samples is
    /// final; a sign change of the background's luminance minus the text's between neighboring
    /// samples is solved by Illinois steps (the ratio is 1 there, the Lc 0); otherwise each
    /// piece's best sample is polished by Brent's localmin between its neighbors (from an end of
    /// a piece only when a probe a millionth of the way in is better). Lc extremes are searched
    /// on APCA's continuous SAPC (`APCA.sapc`), since Lc is 0 below the clip. Held against a
    /// dense scan of 4,001 points on 240 random gradients (GradientTests): no extreme the scan
    /// finds is missed by more than 1e-9. A color flatly outside the stops (a pad) is measured once.
    ///
    /// A gradient with opaque text and one stretch of the parameter, interpolated in sRGB (the
    /// default when every stop is a legacy color; stops inside sRGB) or in OKLab, OKLCH or a
    /// linear-light space (opaque stops), is not searched but solved (`solved`,
    /// GradientContrast+Solved.swift): only the stops, the points where a channel clips, the
    /// luminances' interior extremes and their crossings of the text's are measured. It finds
    /// what the search finds (held against it on 400 gradients of every geometry per space) in a
    /// tenth of the work or less.
    public init(gradient g: CSSGradient, box: CSSGradient.Box? = nil, region: CSSGradient.Region? = nil,
                compositor: Compositor) {
        let (first, last) = (g.stops[0], g.stops[g.stops.count - 1])
        if g.hasEmptyEndingShape(in: box) {
            // A radial gradient whose ending shape has no size shows its last color everywhere
            // but on a line of no width (CSS Images 3 §3.2.3); repeating, its average color
            // (Chromium 156 paints `repeating-radial-gradient(circle 0px, #fff, #000)` #808080).
            self = g.repeating ? GradientContrast(solid: [g.averageColor], at: first.position, compositor: compositor)
                               : GradientContrast(solid: [last.color], at: Swift.max(last.position, 1), compositor: compositor)
            return
        }
        if g.repeatsWithNoLength {
            // A repeating gradient of no length is one solid color: the average CSS paints, or
            // the last stop's color Chromium paints; both are measured, at the stops' position.
            self = GradientContrast(solid: [g.averageColor, last.color], at: first.position, compositor: compositor)
            return
        }
        // sRGB, OKLab and linear-light interpolation are solved rather than searched
        // (GradientContrast+Solved.swift).
        if let solved = GradientContrast.solved(g, box: box, region: region, compositor: compositor) {
            self = solved
        } else {
            self.init(searching: g, box: box, region: region, compositor: compositor)
        }
    }

    /// The measurement of a gradient that paints one solid color, when it is not known which
    /// of `colors` (an engine's choice, see `repeatsWithNoLength`): each is measured, and every
    /// sample is reported at `position`.
    init(solid colors: [Color], at position: Double, compositor: Compositor) {
        var g = CSSGradient(geometry: .linear(angle: 180), repeating: false, stops: [], space: .srgb, hue: .shorter, explicitMethod: false)
        for (k, c) in colors.enumerated() {
            // A hard stop between each two colors, so that each is seen over a width.
            let (a, b) = (Double(k) / Double(colors.count), Double(k + 1) / Double(colors.count))
            g.stops += [.init(color: c, position: a), .init(color: c, position: b)]
        }
        var m = GradientContrast(searching: g, box: nil, region: nil, compositor: compositor)
        for keyPath in [\GradientContrast.min, \.max, \.weakestLc, \.strongestLc] as [WritableKeyPath<GradientContrast, Sample>] {
            m[keyPath: keyPath].position = position
        }
        self = m
    }

    /// The general search described at `init(gradient:box:region:compositor:)`, for every
    /// gradient (the tests hold the solved sRGB path against it).
    init(searching g: CSSGradient, box: CSSGradient.Box?, region: CSSGradient.Region?, compositor: Compositor) {
        let first = g.stops[0].position, last = g.stops[g.stops.count - 1].position
        let conic: Bool
        if case .conic = g.geometry { conic = true } else { conic = false }
        // A stretch of the canonical domain and the shift back to where it lies.
        struct Span { var lo: Double; var hi: Double; var shift: Double }
        func fold(_ r: (lo: Double, hi: Double, shift: Double), start: Double, period: Double) -> [Span] {
            var k = ((r.lo - start) / period).rounded(.down)
            var a = r.lo - start - k * period
            // An edge on a stop, a rounding off it after folding, is on it.
            a = g.snappedToStop(start + a) - start
            if a < 0 { a = 0 }
            if a >= period { a = 0; k += 1 }
            if r.hi - r.lo >= period {
                // One whole period, starting where the range starts (a second span of no length
                // when it starts at the period's start would measure the colors at one point).
                let whole = Span(lo: start + a, hi: start + period, shift: r.shift + k * period)
                return a > 0 ? [whole, Span(lo: start, hi: start + a, shift: r.shift + (k + 1) * period)] : [whole]
            }
            let b = g.snappedToStop(start + a + (r.hi - r.lo)) - start
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
        struct RawPiece { var segment: Int; var u0: Double; var u1: Double; var t0: Double; var t1: Double; var shift: Double }
        var rawPieces: [RawPiece] = []
        var constants: [(t: Double, shift: Double, color: Color)] = []
        for s in spans {
            // A repeating gradient has no pads: its spans are folded into the pattern, and one
            // that ends a rounding past the last stop (`first + period`) had measured the last
            // stop's own color, with a `none` as 0, which is never painted (a hostile pass).
            if !g.repeating {
                if s.lo < first { constants.append((Swift.min(first, s.hi), s.shift, g.stops[0].color)) }
                if s.hi > last { constants.append((Swift.max(last, s.lo), s.shift, g.stops[g.stops.count - 1].color)) }
            }
            for i in 0..<(g.stops.count - 1) {
                let a = g.stops[i].position, b = g.stops[i + 1].position
                guard b > a else { continue }
                // A stretch the span only touches (a region's edge on a stop) is drawn over no
                // width under the region: the color there is the next stretch's or a pad's (a new
                // user's pass: navy counted under a box over the cream side of a hard stop).
                let lo = Swift.max(a, s.lo), hi = Swift.min(b, s.hi)
                guard lo < hi || (lo == hi && s.lo == s.hi) else { continue }
                rawPieces.append(RawPiece(segment: i, u0: (lo - a) / (b - a), u1: (hi - a) / (b - a), t0: lo, t1: hi, shift: s.shift))
            }
        }
        // A conic position folded into one turn, `0...1`: 1 for the color at the end of the turn
        // (`canonical`, the position before shifting by whole turns or periods, is 1), which
        // meets the first color at the start angle (a hostile pass: the last color had been
        // reported at 0, where the first is painted).
        func reported(_ t: Double, canonical: Double) -> Double {
            guard conic else { return t }
            if canonical == 1 { return 1 }
            let f = t - t.rounded(.down)
            return f.isFinite ? f : 0
        }
        // Each segment's two colors ready in the interpolation space, and its hint's knots (nil
        // for no hint). The search runs in the weight `w` of the second color (the hint only
        // moves where each color lies), and each sample's position comes back through the hint.
        let pairs = (0..<(g.stops.count - 1)).map {
            ColorInterpolation.Pair(g.stops[$0].color, g.stops[$0 + 1].color, in: g.space, hue: g.hue)
        }
        let knots: [[(u: Double, w: Double)]?] = g.stops.map { $0.hint > 0 && $0.hint < 1 && $0.hint != 0.5 ? CSSGradient.hintKnots($0.hint) : nil }
        func weight(_ i: Int, _ u: Double) -> Double {
            let h = g.stops[i].hint
            guard let k = knots[i] else { return h == 0.5 ? u : CSSGradient.hintWeight(u, hint: h) }
            return CSSGradient.curve(k, u, fromWeight: false)
        }
        func fraction(_ i: Int, _ w: Double) -> Double {
            guard let k = knots[i] else { return w }
            return CSSGradient.curve(k, w, fromWeight: true)
        }
        // A stretch of segment `segment`, weights w0...w1, at t0...t1 (+ shift).
        struct Piece { var segment: Int; var w0: Double; var w1: Double; var shift: Double }
        var pieces: [Piece] = []
        for p in rawPieces {
            let h = g.stops[p.segment].hint
            if h <= 0 || h >= 1 {
                // A step: a hint at 0 shows the next stop's color over (t0, t1], a hint at 1 the
                // stop's own over [t0, t1); the other color lies on a line of no width (Chromium
                // draws such a hint as a hard stop, where it is not seen), unless the stretch
                // itself is that point.
                if p.t1 > p.t0 {
                    let t = h <= 0 ? p.t1 : p.t0
                    constants.append((t, p.shift, pairs[p.segment].color(at: h <= 0 ? 1 : 0)))
                } else {
                    constants.append((p.t0, p.shift, pairs[p.segment].color(at: weight(p.segment, p.u0))))
                }
            } else {
                // HSL and HWB bend where the hue passes a multiple of 60°: each bend is a piece's
                // end, so an extreme there is sampled exactly rather than searched for.
                var cuts = [weight(p.segment, p.u0)]
                if g.space == .hsl || g.space == .hwb {
                    cuts += pairs[p.segment].hueCrossings(every: 60, from: cuts[0], to: weight(p.segment, p.u1))
                }
                cuts.append(weight(p.segment, p.u1))
                for k in 1..<cuts.count {
                    pieces.append(Piece(segment: p.segment, w0: cuts[k - 1], w1: cuts[k], shift: p.shift))
                }
            }
        }
        if pieces.isEmpty && constants.isEmpty {
            let t = spans.first?.lo ?? first
            constants.append((t, spans.first?.shift ?? 0, g.color(at: t)))
        }
        func position(_ p: Piece, _ w: Double) -> Double {
            let a = g.stops[p.segment].position, b = g.stops[p.segment + 1].position
            return a + (b - a) * fraction(p.segment, w) + p.shift
        }
        // One evaluated color: its sample, where it lies, and the background's luminance minus
        // the text's (WCAG relative luminance, APCA screen luminance): where either changes sign
        // the ratio is 1 or the Lc 0.
        struct Eval {
            var sample: Sample; var piece: Int; var w: Double; var dY: Double; var dYs: Double; var sapc: Double
            /// The gradient color in sRGB before clipping.
            var raw: SIMD3<Double>
        }
        var count = 0
        var lastText = SIMD3<Double>(repeating: .nan), lastTextL = 0.0, lastTextY = 0.0
        func measure(_ c: Color, at t: Double, canonical: Double, piece: Int, w: Double) -> Eval {
            count += 1
            let s = c.converted(to: .srgb)
            let (rgb, alpha) = GradientContrast.displayed(s)
            let (bg, fg) = compositor(rgb, alpha)
            // Opaque text over opaque layers is the same color at every sample: its luminances
            // are taken once.
            if fg != lastText {
                lastText = fg
                lastTextL = WCAG.relativeLuminance(fg)
                lastTextY = APCA.screenLuminance(fg)
            }
            let bgL = WCAG.relativeLuminance(bg), bgY = APCA.screenLuminance(bg)
            let ratio = WCAG.contrastRatio(lastTextL, bgL)
            let sapc = APCA.sapc(textY: lastTextY, backgroundY: bgY)
            let lc = APCA.lc(sapc: sapc)
            let sample = Sample(position: reported(t, canonical: canonical), background: bg, text: fg, ratio: ratio.isFinite ? ratio : 1,
                                lc: lc.isFinite ? lc : 0)
            return Eval(sample: sample, piece: piece, w: w, dY: bgL - lastTextL, dYs: bgY - lastTextY,
                        sapc: sapc.isFinite ? sapc : 0, raw: s.coordinates)
        }
        func at(_ n: Int, _ w: Double) -> Eval {
            let t = position(pieces[n], w)
            return measure(pairs[pieces[n].segment].color(at: w), at: t, canonical: t - pieces[n].shift, piece: n, w: w)
        }
        // Every sample, piece by piece in order (a constant's piece is -1), and the indices of
        // those where a channel of the unclipped color is 0 or 1 between samples inside and
        // outside sRGB (corners of the keys).
        var all: [Eval] = []
        var corners: [Int] = []
        for (t, shift, c) in constants { all.append(measure(c, at: t + shift, canonical: t, piece: -1, w: 0)) }
        // The weights strictly between samples p and q of piece n where an sRGB channel of the
        // unclipped color passes 0 or 1 (`IllinoisBracket` on that channel), in the samples' order.
        // With `transfer`, also where one passes 0.04045, where sRGB's transfer function changes
        // formula: a corner of a key under compositing (a hostile pass found a peak of the ratio
        // there under translucent text on black → white).
        func gamutEdges(_ n: Int, _ p: Eval, _ q: Eval, transfer: Bool) -> [Double] {
            var edges: [Double] = []
            let segment = pairs[pieces[n].segment]
            for k in 0..<3 {
                for step in 0..<(transfer ? 3 : 2) {
                    let level = step == 0 ? 0 : transfer && step == 1 ? 0.04045 : 1
                    var (a, fa, b, fb) = (p.w, p.raw[k] - level, q.w, q.raw[k] - level)
                    // A sample on the edge (a stop with a channel at 0 or 1) takes the side a
                    // millionth of the way in: the path may leave sRGB right after it.
                    if abs(fa) <= 1e-12 { a += (b - a) * 1e-6; fa = segment.color(at: a).converted(to: .srgb).coordinates[k] - level }
                    if abs(fb) <= 1e-12 { b -= (b - p.w) * 1e-6; fb = segment.color(at: b).converted(to: .srgb).coordinates[k] - level }
                    guard fa.isFinite, fb.isFinite, fa != 0, fb != 0, (fa < 0) != (fb < 0) else { continue }
                    var bracket = IllinoisBracket(a, fa, b, fb), w = (a + b) / 2
                    for _ in 0..<GradientContrast.refinementSteps {
                        w = bracket.next
                        let fc = segment.color(at: w).converted(to: .srgb).coordinates[k] - level
                        guard fc.isFinite, abs(fc) >= 1e-13, bracket.width >= 1e-13 else { break }
                        bracket.update(w, fc)
                    }
                    if w > Swift.min(p.w, q.w) && w < Swift.max(p.w, q.w) { edges.append(w) }
                }
            }
            return p.w <= q.w ? edges.sorted() : edges.sorted(by: >)
        }
        // Whether the text seen is one color whatever lies under it (opaque text over opaque layers).
        let textIsConstant: Bool = {
            let a = compositor(SIMD3(0, 0, 0), 1).text, b = compositor(SIMD3(1, 1, 1), 1).text
            return a == b && compositor(SIMD3(1, 1, 1), 0.5).text == a
        }()
        // Compositing bends the keys more than a smooth curve: translucent text composited over
        // each color, translucent stops over the backdrop, a layer above or a group opacity. A
        // wide-gamut dense scan and a hostile pass found peaks between the usual samples and
        // beside the corners where a color leaves sRGB there.
        let seenAsIs = (0..<3).allSatisfy { k -> Bool in
            let probe = SIMD3<Double>(repeating: Double(k) / 2) + SIMD3(0, 0.125, 0.25) * Double(k % 2)
            return compositor(probe, 1).background == probe
        }
        let bent = !textIsConstant || !seenAsIs || g.stops.contains { !($0.color.alpha >= 1) }
        let range = GradientContrast.samplesPerPiece
        // Where compositing bends the keys: twice the samples.
        let density = bent ? 2 : 1
        let wanted = pieces.map { p -> Int in
            let turn = pairs[p.segment].hueTravel * abs(p.w1 - p.w0)
            let extra = Int((turn * Double(density) / GradientContrast.hueDegreesPerSample).rounded(.up))
            return Swift.min(range.upperBound * density, GradientContrast.baseSamplesPerPiece * density + Swift.max(extra, 0))
        }
        let total = wanted.reduce(0, +)
        // A stretch whose extremes are solved (`solved`) holds only the points where they can lie.
        var solved = [Bool](repeating: false, count: pieces.count)
        // In sRGB interpolation with stops inside sRGB and constant text, the background seen
        // moves on a straight line (AffineSRGBPath): its WCAG and APCA luminances are convex, so
        // the four extremes lie at the ends, at each luminance's interior minimum, or where it
        // crosses the text's. Those points are measured; nothing is sampled or searched.
        func solve(_ n: Int, _ p: Piece) -> [Eval]? {
            guard g.space == .srgb, textIsConstant, p.w1 > p.w0 else { return nil }
            let e0 = at(n, p.w0), e1 = at(n, p.w1)
            let inside = { (e: Eval) in (0..<3).allSatisfy { e.raw[$0] >= 0 && e.raw[$0] <= 1 } }
            guard inside(e0), inside(e1) else { return nil }
            let mid = pairs[p.segment].color(at: (p.w0 + p.w1) / 2).converted(to: .srgb)
            let seenMid = compositor(mid.coordinates, Swift.min(Swift.max(mid.alpha, 0), 1)).background
            let (a, b) = (e0.sample.background, e1.sample.background)
            guard (0..<3).allSatisfy({ abs(seenMid[$0] - (a[$0] + b[$0]) / 2) <= 1e-9 }) else { return nil }
            let path = AffineSRGBPath(start: a, end: b)
            let (endsW, endsA) = path.ends()
            let points = path.interiorCandidates(endsW, endsA, textL: lastTextL, textY: lastTextY,
                                                 wcagCrossing: e0.sample.ratio != 1 && e1.sample.ratio != 1,
                                                 apcaCrossing: e0.sample.lc != 0 && e1.sample.lc != 0)
            var out = [e0]
            for k in 0..<4 where points[k] > 0 && points[k] < 1 { out.append(at(n, p.w0 + (p.w1 - p.w0) * points[k])) }
            out.append(e1)
            return out
        }
        for (n, p) in pieces.enumerated() {
            if let exact = solve(n, p) {
                all += exact
                solved[n] = true
                continue
            }
            var k = wanted[n]
            if total > GradientContrast.sampleBudget { k = Swift.max(range.lowerBound, k * GradientContrast.sampleBudget / total) }
            if p.w1 == p.w0 { k = 1 }
            var previous: Eval? = nil
            for j in 0..<k {
                let f = k == 1 ? 0 : Double(j) / Double(k - 1)
                let e = at(n, p.w0 + (p.w1 - p.w0) * f)
                // Where the path leaves or enters sRGB between two samples, clipping bends the
                // luminance into a corner that can be an extreme: each such point is sampled.
                if let previous {
                    for w in gamutEdges(n, previous, e, transfer: bent) {
                        corners.append(all.count)
                        all.append(at(n, w))
                    }
                }
                all.append(e)
                previous = e
            }
        }
        let allSolved = !solved.contains(false)
        let steps = GradientContrast.refinementSteps
        // The point between two neighboring samples of one piece whose `crossing` has opposite
        // signs where it is 0 (the evaluated point nearest it).
        func root(_ p: Eval, _ q: Eval, _ crossing: (Eval) -> Double) -> Eval {
            var best = abs(crossing(p)) <= abs(crossing(q)) ? p : q
            var bracket = IllinoisBracket(p.w, crossing(p), q.w, crossing(q))
            for _ in 0..<steps {
                let c = bracket.next
                let e = at(p.piece, c)
                let fc = crossing(e)
                if abs(fc) < abs(crossing(best)) { best = e }
                // |dY| below 1e-12 puts the ratio within 1e-10 of 1 (Lc is 0 within 0.0005).
                guard fc != 0, abs(fc) >= 1e-12, bracket.width >= 1e-13 else { break }
                bracket.update(c, fc)
            }
            return best
        }
        // The least `key`: a best sample that is `final` (ratio 1, Lc 0) ends the search; else where `crossing` changes sign (the
        // ratio's or the Lc's corner); else Brent's minimization (R. P. Brent, Algorithms for
        // Minimization without Derivatives, 1973, ch. 5, procedure localmin) between the best
        // sample's neighbors.
        func refine(_ key: (Eval) -> Double, final: (Eval) -> Bool = { _ in false }, crossing: ((Eval) -> Double)? = nil) -> Sample {
            var bestIndex = 0
            for i in all.indices where key(all[i]) < key(all[bestIndex]) { bestIndex = i }
            let best = all[bestIndex]
            // Every piece solved: its candidate points hold every extreme, so the best is final.
            if final(best) || allSolved { return best.sample }
            if let crossing {
                for i in all.indices.dropFirst() where all[i].piece >= 0 && all[i].piece == all[i - 1].piece && !solved[all[i].piece] {
                    guard (crossing(all[i - 1]) < 0) != (crossing(all[i]) < 0) else { continue }
                    let r = root(all[i - 1], all[i], crossing)
                    if key(r) < key(best) { return r.sample }
                    break
                }
            }
            // Each piece's best sample is refined (neighboring pieces can each hold a dip next to
            // the stop between them); where compositing bends the keys (`bent`) one piece can
            // hold several, and every sample no worse than its neighbors is refined.
            // The best result wins.
            var bestInPiece = [Int](repeating: -1, count: pieces.count)
            for i in all.indices where all[i].piece >= 0 {
                let n = all[i].piece
                if bestInPiece[n] < 0 || key(all[i]) < key(all[bestInPiece[n]]) { bestInPiece[n] = i }
            }
            var result = best
            for i in bestInPiece where i >= 0 {
                let r = solved[all[i].piece] ? all[i] : polish(i, key)
                if key(r) < key(result) { result = r }
            }
            for i in all.indices where bent && all[i].piece >= 0 && !solved[all[i].piece] && i != bestInPiece[all[i].piece] {
                let n = all[i].piece, k = key(all[i])
                if i > 0 && all[i - 1].piece == n && key(all[i - 1]) < k { continue }
                if i + 1 < all.count && all[i + 1].piece == n && key(all[i + 1]) < k { continue }
                let r = polish(i, key)
                if key(r) < key(result) { result = r }
            }
            // Each side of a corner where the path leaves or enters sRGB is smooth on its own,
            // and where compositing bends the keys can peak just beside the corner:
            // a side whose next sample is worse than the corner is polished from the corner, as
            // from a stretch's end (where the next sample is better, the key runs on to it).
            for i in corners where bent && !solved[all[i].piece] {
                let n = all[i].piece, k = key(all[i])
                for side in [-1, 1] {
                    let j = i + side
                    guard j >= 0, j < all.count, all[j].piece == n, key(all[j]) > k else { continue }
                    let r = polish(i, key, side: side)
                    if key(r) < key(result) { result = r }
                }
            }
            return result.sample
        }
        // Brent's localmin on `key` between the neighbors of sample `index` in its piece,
        // started from that sample: the least point found (the sample itself when none is less).
        func polish(_ index: Int, _ key: (Eval) -> Double, side: Int = 0) -> Eval {
            let best = all[index], n = best.piece
            // `side` -1 or 1: only the bracket before or after the sample, which is an end of it.
            let before = side <= 0 && index > 0 && all[index - 1].piece == n ? all[index - 1].w : nil
            let after = side >= 0 && index + 1 < all.count && all[index + 1].piece == n ? all[index + 1].w : nil
            var x = best
            var (a, b) = (Swift.min(before ?? best.w, after ?? best.w), Swift.max(before ?? best.w, after ?? best.w))
            guard b > a else { return best }
            if before == nil || after == nil {
                // At an end of the stretch (where a two-stop gradient's extremes usually are):
                // when a probe a millionth of the bracket inside is no better, the key rises into
                // the stretch and the end is the extreme. (A probe 1/64 inside had stepped over
                // peaks just inside an end, where gamut clipping or translucent text bend it.)
                let inside = before == nil ? best.w + (b - a) * 1e-6 : best.w - (b - a) * 1e-6
                let probe = at(n, inside)
                if key(probe) >= key(best) { return best }
                x = probe
            }
            let golden = (3 - 5.0.squareRoot()) / 2
            var (w, v) = (x, x)
            var (fx, fw, fv) = (key(x), key(x), key(x))
            var d = 0.0, e = 0.0
            for _ in 0..<steps {
                let m = (a + b) / 2
                let tol = 1.5e-8 * abs(x.w) + 1e-12, t2 = 2 * tol
                if abs(x.w - m) <= t2 - (b - a) / 2 { break }
                var p = 0.0, q = 0.0, r = 0.0
                if abs(e) > tol {
                    r = (x.w - w.w) * (fx - fv)
                    q = (x.w - v.w) * (fx - fw)
                    p = (x.w - v.w) * q - (x.w - w.w) * r
                    q = 2 * (q - r)
                    if q > 0 { p = -p } else { q = -q }
                    r = e
                    e = d
                }
                if abs(p) < abs(q * r / 2) && p > q * (a - x.w) && p < q * (b - x.w) {
                    d = p / q
                    let u = x.w + d
                    if u - a < t2 || b - u < t2 { d = x.w < m ? tol : -tol }
                } else {
                    e = (x.w < m ? b : a) - x.w
                    d = golden * e
                }
                let u = at(n, x.w + (abs(d) >= tol ? d : (d > 0 ? tol : -tol)))
                let fu = key(u)
                if fu <= fx {
                    if u.w < x.w { b = x.w } else { a = x.w }
                    (v, fv, w, fw, x, fx) = (w, fw, x, fx, u, fu)
                } else {
                    if u.w < x.w { a = u.w } else { b = u.w }
                    if fu <= fw || w.w == x.w { (v, fv, w, fw) = (w, fw, u, fu) }
                    else if fu <= fv || v.w == x.w || v.w == w.w { (v, fv) = (u, fu) }
                }
            }
            return fx < key(best) ? x : best
        }
        // Lc is 0 below APCA's clip and jumps to 7.3 past it, so its extremes are searched on
        // the continuous SAPC it rises with (a maximum just past the clip is found, not a flat 0).
        min = refine({ $0.sample.ratio }, final: { $0.sample.ratio <= 1 }, crossing: { $0.dY })
        max = refine { -$0.sample.ratio }
        weakestLc = refine({ abs($0.sapc) }, final: { $0.sample.lc == 0 }, crossing: { $0.dYs })
        strongestLc = refine { -abs($0.sapc) }
        samples = count
    }
}
