import Foundation

// Nearest passing color: for a foreground/background pair that misses a contrast target, the
// closest colors (in ΔE OK) that reach it, found along a path of constant hue in OKLCH.
//
// Method (docs/algorithms/palettes.md, "Nearest passing color"):
// 1. The color to move is taken as the screen shows it (sRGB, gamut-mapped by CSS Color 4 §13.2
//    when needed) and expressed in OKLCH (L, C, h) (CSS Color 4 §9; Ottosson 2020).
// 2. Its path is `L ↦ oklch(L, min(C, Cmax(L, h)), h)` for L from the original lightness to 1
//    (lighter) or to 0 (darker): hue kept, chroma kept unless the sRGB gamut forces it lower,
//    where `Cmax(L, h)` is the largest in-gamut chroma at that lightness and hue (bisection).
// 3. Every point is judged as the 8-bit color it would be reported as: channels (and alpha)
//    rounded half up to n/255 exactly as `Color.hex` writes them. A candidate passes only if
//    that quantized color meets the target (`>=`, unrounded): a 4.4999:1 is never reported as a
//    4.5:1 pass. Where a color is translucent, its composite must also pass as an 8-bit screen
//    paints it (`ContrastMeasurement.painted`: the composite rounded to n/255).
// 4. The path is scanned in steps of 1/256 of the lightness range; the first passing step is
//    refined by bisection to the boundary (< 1e-7 in L): the answer is the first 8-bit color of
//    the path that passes. (8-bit neighbors off the path can be a hair closer in ΔE OK, but they
//    tint grays and turn hues, so they are not taken.) Passing windows narrower than one scan
//    step (possible only when a color must sit between several backgrounds) can be skipped; the
//    answer then still passes, it is just not the nearest.
// 5. When no point of a direction passes, the direction reports no candidate, with the best
//    value it reaches (e.g. a 7:1 target against a mid gray: white gives 4.48:1, black 4.69:1).
//
// Everything is deterministic: no randomness, fixed step counts, fixed tie order.

/// The constant-hue path a color moves along: OKLCH lightness changes, hue stays, chroma stays
/// unless sRGB cannot show it at that lightness.
public struct LightnessPath: Sendable {
    /// OKLCH lightness `0...1` of the starting color.
    public let lightness: Double
    /// OKLCH chroma `0...0.4` of the starting color (the most the path ever uses).
    public let chroma: Double
    /// OKLCH hue in degrees `[0, 360)` (0 for grays, where it does not matter).
    public let hue: Double
    /// Straight alpha `0...1`, carried unchanged along the path.
    public let alpha: Double
    private let cosH: Double, sinH: Double

    /// Grays below this OKLCH chroma stay exactly gray along the path.
    static let grayChroma = 1e-7

    /// The path through `color` (an in-gamut sRGB color as a screen shows it).
    public init(_ color: DisplayColor) {
        let lch = Color.srgb(color.srgb.x, color.srgb.y, color.srgb.z).converted(to: .oklch).coordinates
        self.init(lightness: lch.x, chroma: lch.y, hue: lch.z, alpha: color.alpha)
    }

    /// A path from OKLCH coordinates; lightness is clamped to `0...1`, chroma to `0...0.5`.
    public init(lightness: Double, chroma: Double, hue: Double, alpha: Double = 1) {
        self.lightness = lightness.isFinite ? Swift.min(Swift.max(lightness, 0), 1) : 0
        let c = chroma.isFinite ? Swift.min(Swift.max(chroma, 0), 0.5) : 0
        self.chroma = c < LightnessPath.grayChroma ? 0 : c
        self.hue = hue.isFinite ? hue : 0
        self.alpha = alpha.isFinite ? Swift.min(Swift.max(alpha, 0), 1) : 1
        cosH = cos(self.hue * .pi / 180)
        sinH = sin(self.hue * .pi / 180)
    }

    /// Gamma-encoded sRGB (unclamped) of oklch(L, c, hue).
    @inline(__always)
    func rawSRGB(_ l: Double, _ c: Double) -> SIMD3<Double> {
        let lab = SIMD3(l, c * cosH, c * sinH)
        let linear = ColorSpaceTree.xyzToLinearSRGB(ColorSpaceTree.oklabToXYZ(lab))
        return ColorSpaceTree.map(linear, ColorSpaceTree.linearToSRGB)
    }

    @inline(__always)
    static func inGamut(_ v: SIMD3<Double>) -> Bool {
        let e = 1e-9
        return v.x >= -e && v.x <= 1 + e && v.y >= -e && v.y <= 1 + e && v.z >= -e && v.z <= 1 + e
    }

    /// The largest chroma `≤ chroma` that sRGB shows at lightness `l` and this hue (bisection to
    /// 1e-5, well below one 8-bit step; 0 at the ends of the lightness range).
    public func maximumChroma(atLightness l: Double) -> Double {
        if chroma == 0 || l <= 0 || l >= 1 { return 0 }
        if LightnessPath.inGamut(rawSRGB(l, chroma)) { return chroma }
        var lo = 0.0, hi = chroma
        while hi - lo > 1e-5 {
            let mid = (lo + hi) / 2
            if LightnessPath.inGamut(rawSRGB(l, mid)) { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The in-gamut sRGB color `0...1` at OKLCH lightness `l` (clamped to `0...1`), unquantized.
    public func srgb(atLightness l: Double) -> SIMD3<Double> {
        let L = Swift.min(Swift.max(l.isFinite ? l : 0, 0), 1)
        let c = rawSRGB(L, maximumChroma(atLightness: L))
        return c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
    }

    /// The 8-bit color (with this path's 8-bit alpha) at lightness `l`.
    public func quantized(atLightness l: Double) -> DisplayColor {
        DisplayColor(srgb: EightBit.quantize(srgb(atLightness: l)), alpha: EightBit.quantize(alpha))
    }

    /// How far the path runs in `direction`: from the start lightness to 1 or to 0.
    public func span(_ direction: NearestPassingColor.Direction) -> Double {
        direction == .lighter ? 1 - lightness : lightness
    }

    /// The lightness `s` along `direction` from the start (clamped to the range's end).
    public func lightness(after s: Double, _ direction: NearestPassingColor.Direction) -> Double {
        direction == .lighter ? Swift.min(lightness + s, 1) : Swift.max(lightness - s, 0)
    }
}

/// The nearest colors that make a pair (or a color on several surfaces) reach a contrast target.
public enum NearestPassingColor {
    /// Which way a color moves in OKLCH lightness.
    public enum Direction: String, Sendable, CaseIterable, Hashable {
        case lighter, darker

        /// The other direction.
        public var opposite: Direction { self == .lighter ? .darker : .lighter }
    }

    /// Which color of a pair may change.
    public enum Moving: String, Sendable, CaseIterable, Hashable {
        /// The foreground (text) moves; the background stays (default).
        case foreground
        /// The background moves; the foreground stays.
        case background
        /// Both move the same OKLCH lightness distance in opposite directions (the direction
        /// names the foreground's: `lighter` = lighter foreground on a darker background).
        case both
    }

    /// Scan resolution: steps per unit of OKLCH lightness.
    static let stepsPerUnit = 256.0
    /// Bisection stops when the bracket is below this (in OKLCH lightness).
    static let bisectionTolerance = 1e-7

    /// The outcome of searching one path: the first passing parameter, or the best seen.
    package struct Scan {
        /// Path parameter (distance from the start) of the first passing point, if any.
        package var passing: Double?
        /// Margin (value − minimum) at `passing`, or the best margin seen when none passed.
        package var margin: Double
        /// Path parameter of the best margin seen (when none passed).
        package var best: Double
    }

    /// Scans a path parameter `s` in `(0, span]` for the first point whose margin is ≥ 0.
    ///
    /// - Parameters:
    ///   - span: how far the path runs (OKLCH lightness units, `0...1`).
    ///   - margin: value − minimum of the quantized point at `s`; ≥ 0 passes. Called at most
    ///     about `span × 256 + 30` times.
    package static func scan(span: Double, margin: (Double) -> Double) -> Scan {
        guard span > 1e-12 else { return Scan(passing: nil, margin: -.infinity, best: 0) }
        let n = Swift.max(4, Int((span * stepsPerUnit).rounded(.up)))
        var previous = 0.0
        var best = (s: 0.0, m: -Double.infinity)
        for i in 1...n {
            let s = span * Double(i) / Double(n)
            let m = margin(s)
            if m > best.m { best = (s, m) }
            if m >= 0 {
                var lo = previous, hi = s, mh = m
                while hi - lo > bisectionTolerance {
                    let mid = (lo + hi) / 2
                    let mm = margin(mid)
                    if mm >= 0 { hi = mid; mh = mm } else { lo = mid }
                }
                return Scan(passing: hi, margin: mh, best: hi)
            }
            previous = s
        }
        return Scan(passing: nil, margin: best.m, best: best.s)
    }

    /// The result of moving one color along its path in one direction.
    public struct Move: Sendable {
        /// The direction searched.
        public var direction: Direction
        /// The 8-bit color found: the nearest passing one, or (when `passes` is false) the one
        /// with the best worst-case value in this direction.
        public var color: DisplayColor
        /// Worst-case value − minimum of `color` (≥ 0 when it passes).
        public var margin: Double
        /// True when `color` meets the target on everything it was judged against.
        public var passes: Bool
        /// ΔE OK of `color` from the reference color the search minimizes distance to.
        public var deltaEOK: Double
    }

    /// Moves one color along its constant-hue path in `direction` until the quantized color's
    /// margin is ≥ 0: the first passing 8-bit color of the path.
    ///
    /// - Parameters:
    ///   - path: the path (its start is the color being moved).
    ///   - reference: OKLab coordinates the result should stay near (usually the original).
    ///   - limit: the farthest lightness distance to search (default: to the end of the range).
    ///   - margin: worst-case value − minimum of a quantized candidate; ≥ 0 passes.
    /// - Returns: the nearest passing color, or the best one seen with `passes == false` (the
    ///   start itself when moving this way only lowers the value).
    public static func move(_ path: LightnessPath, _ direction: Direction, reference: SIMD3<Double>,
                            within limit: Double = .infinity, margin: (DisplayColor) -> Double) -> Move {
        let span = Swift.min(path.span(direction), limit)
        let result = scan(span: span) { s in margin(path.quantized(atLightness: path.lightness(after: s, direction))) }
        guard let s = result.passing else {
            // The start itself may beat every point of this direction (moving only lowers contrast).
            let start = path.quantized(atLightness: path.lightness)
            let startMargin = margin(start)
            let color = startMargin >= result.margin ? start : path.quantized(atLightness: path.lightness(after: result.best, direction))
            return Move(direction: direction, color: color, margin: Swift.max(startMargin, result.margin), passes: false,
                        deltaEOK: oklabDistance(color.srgb, reference))
        }
        let color = path.quantized(atLightness: path.lightness(after: s, direction))
        return Move(direction: direction, color: color, margin: result.margin, passes: true,
                    deltaEOK: oklabDistance(color.srgb, reference))
    }

    /// OKLab coordinates of gamma-encoded sRGB `0...1`.
    @inline(__always)
    public static func oklab(_ srgb: SIMD3<Double>) -> SIMD3<Double> {
        ColorSpaceTree.xyzToOKLab(ColorSpaceTree.linearSRGBToXYZ(ColorSpaceTree.map(srgb, ColorSpaceTree.srgbToLinear)))
    }

    /// ΔE OK between gamma-encoded sRGB `srgb` and OKLab coordinates `reference`.
    static func oklabDistance(_ srgb: SIMD3<Double>, _ reference: SIMD3<Double>) -> Double {
        ColorDifference.deltaEOK(oklab1: oklab(srgb), oklab2: reference)
    }

    // MARK: Pairs

    /// One suggested pair: the colors as 8-bit values, their measurement and distances.
    public struct Candidate: Sendable {
        /// The direction this candidate moved (the foreground's direction for `.both`).
        public var direction: Direction
        /// Which color(s) moved.
        public var moving: Moving
        /// The foreground as reported (8-bit).
        public var foreground: DisplayColor
        /// The background as reported (8-bit).
        public var background: DisplayColor
        /// The contrast of the pair (worst case over backdrops for a translucent background).
        public var measurement: ContrastMeasurement
        /// The measured value in the target's metric (ratio or |Lc|).
        public var value: Double
        /// True when `value` meets the target.
        public var passes: Bool
        /// ΔE OK of the foreground from the original foreground as given (0 when it did not move).
        public var foregroundDeltaEOK: Double
        /// CIEDE2000 of the foreground from the original (Lab D65).
        public var foregroundDeltaE2000: Double
        /// ΔE OK of the background from the original background as given.
        public var backgroundDeltaEOK: Double
        /// CIEDE2000 of the background from the original.
        public var backgroundDeltaE2000: Double

        /// A candidate from its parts (members as above).
        public init(direction: Direction, moving: Moving, foreground: DisplayColor, background: DisplayColor,
                    measurement: ContrastMeasurement, value: Double, passes: Bool,
                    foregroundDeltaEOK: Double, foregroundDeltaE2000: Double, backgroundDeltaEOK: Double, backgroundDeltaE2000: Double) {
            (self.direction, self.moving, self.foreground, self.background) = (direction, moving, foreground, background)
            (self.measurement, self.value, self.passes) = (measurement, value, passes)
            (self.foregroundDeltaEOK, self.foregroundDeltaE2000) = (foregroundDeltaEOK, foregroundDeltaE2000)
            (self.backgroundDeltaEOK, self.backgroundDeltaE2000) = (backgroundDeltaEOK, backgroundDeltaE2000)
        }

        /// The distance the suggestion is ranked by: the moved color's ΔE OK, or for `.both` the
        /// sum of the two.
        public var deltaEOK: Double {
            switch moving {
            case .foreground: return foregroundDeltaEOK
            case .background: return backgroundDeltaEOK
            case .both: return foregroundDeltaEOK + backgroundDeltaEOK
            }
        }

        /// CIEDE2000 of the moved color (sum for `.both`).
        public var deltaE2000: Double {
            switch moving {
            case .foreground: return foregroundDeltaE2000
            case .background: return backgroundDeltaE2000
            case .both: return foregroundDeltaE2000 + backgroundDeltaE2000
            }
        }
    }

    /// What one direction gave.
    public struct DirectionOutcome: Sendable {
        /// The direction searched.
        public var direction: Direction
        /// The nearest passing pair in this direction, or nil when none exists.
        public var candidate: Candidate?
        /// When `candidate` is nil: the pair with the best value this direction reaches (it
        /// fails), so a client can show how far off it stays; the pair as given when moving this
        /// way only lowers the value.
        public var bestReachable: Candidate?
    }

    /// The full answer for a pair.
    public struct Suggestion: Sendable {
        /// The target.
        public var target: ContrastTarget
        /// Which color(s) may move.
        public var moving: Moving
        /// The pair as given (not rounded to the 8-bit hex it is reported as), measured.
        public var current: Candidate
        /// True when the pair as given already meets the target: nothing moves.
        public var alreadyPasses: Bool
        /// Lighter and darker outcomes (empty when `alreadyPasses`).
        public var outcomes: [DirectionOutcome]
        /// The passing candidate with the smallest ΔE OK (lighter first on ties); the unchanged
        /// pair when it already passes; nil when no direction passes.
        public var best: Candidate?
    }

    /// Suggests the nearest passing colors for `foreground` on `background`.
    ///
    /// - Parameters:
    ///   - foreground, background: the colors as given (any space; out-of-sRGB colors are
    ///     gamut-mapped as `DisplayColor` does; translucent colors keep their alpha).
    ///   - backdrop: opaque sRGB `0...1` behind a translucent background; nil means unknown (the
    ///     worst case over every gray backdrop counts, as `ContrastMeasurement` does).
    ///   - target: the ratio or |Lc| to reach.
    ///   - moving: which color(s) move (default foreground).
    /// - Returns: both directions' outcomes and the best candidate; deterministic.
    /// - Complexity: at most about 2 × (256 × span + 60) measurements per direction.
    public static func suggest(foreground: Color, background: Color, backdrop: SIMD3<Double>? = nil,
                               target: ContrastTarget, moving: Moving = .foreground) -> Suggestion {
        // The pair as given, not rounded to 8 bits: a color that stays is measured as the audit
        // and /v1/contrast measure it (a new user's pass: text suggested against the hex of an
        // oklch() background, #ff6467, reached 4.504 there and 4.498 on the color itself, and
        // failed when audited again). Only a color that moves becomes 8-bit hex.
        let fg0 = DisplayColor(foreground)
        let bg0 = DisplayColor(background)
        let fgLab = foreground.converted(to: .oklab).coordinates
        let bgLab = background.converted(to: .oklab).coordinates

        func candidate(_ direction: Direction, _ fg: DisplayColor, _ bg: DisplayColor) -> Candidate {
            let m = ContrastMeasurement(foreground: fg, background: bg, backdrop: backdrop)
            let v = target.value(of: m)
            let fgC = fg.color, bgC = bg.color
            let fgMoved = fg.srgb != fg0.srgb, bgMoved = bg.srgb != bg0.srgb
            return Candidate(
                direction: direction, moving: moving, foreground: fg, background: bg, measurement: m, value: v,
                passes: v >= target.minimum,
                foregroundDeltaEOK: fgMoved ? ColorDifference.deltaEOK(oklab1: fgC.converted(to: .oklab).coordinates, oklab2: fgLab) : 0,
                foregroundDeltaE2000: fgMoved ? ColorDifference.deltaE2000(fgC, foreground) : 0,
                backgroundDeltaEOK: bgMoved ? ColorDifference.deltaEOK(oklab1: bgC.converted(to: .oklab).coordinates, oklab2: bgLab) : 0,
                backgroundDeltaE2000: bgMoved ? ColorDifference.deltaE2000(bgC, background) : 0)
        }
        // A translucent color's composite must pass as an 8-bit screen paints it too
        // (`ContrastMeasurement.painted`): a suggestion that passes only on the unrounded
        // composite fails where it is used.
        func margin(_ fg: DisplayColor, _ bg: DisplayColor) -> Double {
            let measured: Double
            if target.metric == .wcag2 && bg.alpha >= 1 {
                // Short path, same numbers as ContrastMeasurement for an opaque background.
                let f = fg.alpha >= 1 ? fg.srgb : Compositing.sourceOver(fg.srgb, alpha: fg.alpha, overOpaque: bg.srgb)
                measured = WCAG.contrastRatio(WCAG.relativeLuminance(f), WCAG.relativeLuminance(bg.srgb)) - target.minimum
            } else {
                measured = target.value(of: ContrastMeasurement(foreground: fg, background: bg, backdrop: backdrop)) - target.minimum
            }
            guard let painted = ContrastMeasurement.painted(foreground: fg, background: bg, backdrop: backdrop) else { return measured }
            return Swift.min(measured, target.value(of: painted) - target.minimum)
        }

        let current = candidate(.lighter, fg0, bg0)
        if current.passes || !target.isReachable {
            return Suggestion(target: target, moving: moving, current: current, alreadyPasses: current.passes,
                              outcomes: current.passes ? [] : Direction.allCases.map { DirectionOutcome(direction: $0, candidate: nil, bestReachable: nil) },
                              best: current.passes ? current : nil)
        }

        var outcomes: [DirectionOutcome] = []
        let fgPath = LightnessPath(fg0), bgPath = LightnessPath(bg0)
        for direction in Direction.allCases {
            switch moving {
            case .foreground:
                let m = move(fgPath, direction, reference: fgLab) { margin($0, bg0) }
                let c = candidate(direction, m.color, bg0)
                outcomes.append(DirectionOutcome(direction: direction, candidate: m.passes && c.passes ? c : nil,
                                                 bestReachable: m.passes && c.passes ? nil : c))
            case .background:
                let m = move(bgPath, direction, reference: bgLab) { margin(fg0, $0) }
                let c = candidate(direction, fg0, m.color)
                outcomes.append(DirectionOutcome(direction: direction, candidate: m.passes && c.passes ? c : nil,
                                                 bestReachable: m.passes && c.passes ? nil : c))
            case .both:
                let bgDirection = direction.opposite
                let span = Swift.max(fgPath.span(direction), bgPath.span(bgDirection))
                func pair(_ s: Double) -> (DisplayColor, DisplayColor) {
                    (fgPath.quantized(atLightness: fgPath.lightness(after: s, direction)),
                     bgPath.quantized(atLightness: bgPath.lightness(after: s, bgDirection)))
                }
                let r = scan(span: span) { s in let (f, b) = pair(s); return margin(f, b) }
                let (f, b) = pair(r.passing ?? r.best)
                let c = candidate(direction, f, b)
                let ok = r.passing != nil && c.passes
                outcomes.append(DirectionOutcome(direction: direction, candidate: ok ? c : nil, bestReachable: ok ? nil : c))
            }
        }
        let best = outcomes.compactMap(\.candidate).min { $0.deltaEOK < $1.deltaEOK }
        return Suggestion(target: target, moving: moving, current: current, alreadyPasses: false, outcomes: outcomes, best: best)
    }

    // MARK: One color on several surfaces

    /// The nearest color to `start` (both directions searched, smaller ΔE OK from `start` wins,
    /// lighter first on ties) whose margin is ≥ 0; when neither direction passes, the point with
    /// the best margin of both. `start` itself is returned (quantized) when it already passes.
    ///
    /// - Parameters:
    ///   - start: the color to begin from (moved as its 8-bit value).
    ///   - margin: worst-case value − minimum of a candidate; ≥ 0 passes.
    /// - Returns: the chosen move; `direction` is meaningless when the start already passes
    ///   (`deltaEOK == 0`).
    public static func nearest(to start: DisplayColor, margin: (DisplayColor) -> Double) -> (move: Move, unchanged: Bool) {
        let s0 = start.quantized
        let reference = oklab(s0.srgb)
        let m0 = margin(s0)
        if m0 >= 0 {
            return (Move(direction: .lighter, color: s0, margin: m0, passes: true, deltaEOK: 0), true)
        }
        let path = LightnessPath(s0)
        // ΔE OK is at least the lightness difference, so once one direction has a passing color
        // at distance d, the other need not look farther than d (plus 8-bit rounding).
        let lighter = move(path, .lighter, reference: reference, margin: margin)
        let darker = move(path, .darker, reference: reference, within: lighter.passes ? lighter.deltaEOK + 0.005 : .infinity, margin: margin)
        let moves = [lighter, darker]
        let passing = moves.filter(\.passes)
        if let best = passing.min(by: { $0.deltaEOK < $1.deltaEOK }) { return (best, false) }
        var bestEffort = moves.max { $0.margin < $1.margin }!
        if m0 >= bestEffort.margin {
            bestEffort = Move(direction: .lighter, color: s0, margin: m0, passes: false, deltaEOK: 0)
            return (bestEffort, true)
        }
        return (bestEffort, false)
    }
}
