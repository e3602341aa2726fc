// Color interpolation (CSS Color 4 §12): converting both colors into the interpolation space
// with missing components carried forward (§12.2), filling a component missing in one color from
// the other (§12.3), premultiplied alpha (§12.3), hue interpolation methods (§12.4) and linear
// interpolation. `color-mix()` (CSS Color 5 §3) is built on it (ColorMix.swift).

/// A space colors are interpolated in: the `<color-space>` of `in <space>` (CSS Color 4 §12.1).
public enum InterpolationSpace: String, Sendable, CaseIterable {
    case srgb
    case srgbLinear = "srgb-linear"
    case displayP3 = "display-p3"
    case displayP3Linear = "display-p3-linear"
    case a98RGB = "a98-rgb"
    case prophotoRGB = "prophoto-rgb"
    case rec2020
    case lab
    case oklab
    case xyz
    case xyzD50 = "xyz-d50"
    case xyzD65 = "xyz-d65"
    case hsl
    case hwb
    case lch
    case oklch

    /// The CSS name, e.g. `"display-p3"`.
    public var cssName: String { rawValue }

    /// The `ColorSpace` results are stored in: the space itself, or XYZ for the predefined RGB
    /// spaces without a `ColorSpace` case (a98-rgb, display-p3-linear: XYZ D65;
    /// prophoto-rgb: XYZ D50).
    var storage: ColorSpace {
        switch self {
        case .srgb: return .srgb
        case .srgbLinear: return .srgbLinear
        case .displayP3: return .displayP3
        case .displayP3Linear, .a98RGB, .xyz, .xyzD65: return .xyzD65
        case .prophotoRGB, .xyzD50: return .xyzD50
        case .rec2020: return .rec2020
        case .lab: return .lab
        case .oklab: return .oklab
        case .hsl: return .hsl
        case .hwb: return .hwb
        case .lch: return .lch
        case .oklch: return .oklch
        }
    }

    /// Index of the hue for the polar spaces (hsl, hwb, lch, oklch), else nil.
    public var hueIndex: Int? {
        switch self {
        case .hsl, .hwb: return 0
        case .lch, .oklch: return 2
        default: return nil
        }
    }

    /// The analogous-component category of each coordinate (CSS Color 4 §12.2): components in
    /// the same category carry a missing value (`none`) across a conversion.
    var categories: [ComponentCategory?] {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .displayP3Linear, .a98RGB, .prophotoRGB, .rec2020,
             .xyz, .xyzD50, .xyzD65:
            return [.red, .green, .blue]
        case .lab, .oklab: return [.lightness, .opponentA, .opponentB]
        case .lch, .oklch: return [.lightness, .colorfulness, .hue]
        case .hsl: return [.hue, .colorfulness, .lightness]
        case .hwb: return [.hue, nil, nil]
        }
    }

    /// Coordinates of `color` in this space (its own space's units; e.g. a98-rgb channels `0...1`)
    /// and whether the hue of a polar space is powerless (an achromatic color).
    func coordinates(of color: Color) -> (SIMD3<Double>, hueMissing: Bool) {
        switch self {
        case .displayP3Linear:
            return (ColorSpaceTree.xyzToLinearP3(color.converted(to: .xyzD65).coordinates), false)
        case .a98RGB:
            return (PredefinedRGB.xyzD65ToA98RGB(color.converted(to: .xyzD65).coordinates), false)
        case .prophotoRGB:
            return (PredefinedRGB.xyzD50ToProphotoRGB(color.converted(to: .xyzD50).coordinates), false)
        default:
            // In its own space a color keeps the hue it was given (`oklch(0.5 0 120)` mixes with
            // hue 120, as Chromium and ColorAide do); converted from another space, an
            // achromatic color's hue is powerless and so missing (§12.2).
            let c = color.space == storage ? color : color.converted(to: storage)
            let hue = hueIndex.map { c.isNone[$0] } ?? false
            return (c.coordinates, hue)
        }
    }

    /// A color from coordinates in this space (stored in `storage`). A space stored as XYZ keeps
    /// the `none` flags of its red, green and blue on X, Y and Z, which share their analogous
    /// categories (CSS Color 4 §12.2), so that `color(a98-rgb none 0.5 0.5)` mixed in a98-rgb (or
    /// sRGB) takes the other color's red; as XYZ numbers they count as 0's conversions (see
    /// `Color.converted(to:)`).
    func color(_ c: SIMD3<Double>, alpha: Double, isNone: ComponentFlags) -> Color {
        switch self {
        case .displayP3Linear:
            return Color(space: .xyzD65, coordinates: ColorSpaceTree.linearP3ToXYZ(c), alpha: alpha, isNone: isNone)
        case .a98RGB:
            return Color(space: .xyzD65, coordinates: PredefinedRGB.a98RGBToXYZD65(c), alpha: alpha, isNone: isNone)
        case .prophotoRGB:
            return Color(space: .xyzD50, coordinates: PredefinedRGB.prophotoRGBToXYZD50(c), alpha: alpha, isNone: isNone)
        default:
            return Color(space: storage, coordinates: c, alpha: alpha, isNone: isNone)
        }
    }
}

/// Which analogous components carry a missing value across a conversion (CSS Color 4 §12.2).
enum ComponentCategory: Equatable {
    case red, green, blue, lightness, colorfulness, hue, opponentA, opponentB
}

extension ColorSpace {
    /// The analogous-component category of each coordinate (CSS Color 4 §12.2).
    var categories: [ComponentCategory?] {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .rec2020, .xyzD65, .xyzD50: return [.red, .green, .blue]
        case .lab, .oklab: return [.lightness, .opponentA, .opponentB]
        case .lch, .oklch: return [.lightness, .colorfulness, .hue]
        case .hsl: return [.hue, .colorfulness, .lightness]
        case .hwb: return [.hue, nil, nil]
        }
    }
}

/// How hues are interpolated (CSS Color 4 §12.4).
public enum HueInterpolationMethod: String, Sendable, CaseIterable {
    case shorter, longer, increasing, decreasing
}

/// Interpolation between two colors (CSS Color 4 §12).
public enum ColorInterpolation {
    /// A color in an interpolation space: coordinates, alpha, and which of them are missing.
    struct Point {
        var c: SIMD3<Double>
        var alpha: Double
        var missing: ComponentFlags
        var alphaMissing: Bool
    }

    /// The color at `t` between `a` (t = 0) and `b` (t = 1), interpolated in `space`.
    ///
    /// - Parameters:
    ///   - a, b: the colors, in any spaces; components flagged `none` are missing (`isNone`,
    ///     alpha in `Color.alphaIsNone`).
    ///   - t: `0...1`, the weight of `b`.
    ///   - space: the interpolation space.
    ///   - hue: the hue interpolation method for polar spaces (ignored otherwise).
    /// - Returns: the interpolated color stored in `space` (or in XYZ for a98-rgb,
    ///   prophoto-rgb and display-p3-linear), straight alpha `0...1`. A component missing in both
    ///   colors stays missing (stored as 0 and flagged); alpha missing in both is 0 and flagged
    ///   (as a lone `none` alpha is stored; the color's channels were premultiplied by 1).
    ///   Follows §12.3: premultiplied by alpha (hue excepted), then divided by the
    ///   interpolated alpha when it is not 0.
    public static func interpolate(_ a: Color, _ b: Color, at t: Double, in space: InterpolationSpace,
                                   hue: HueInterpolationMethod = .shorter) -> Color {
        Pair(a, b, in: space, hue: hue).color(at: t)
    }

    /// Two colors made ready for many interpolations between them (a gradient's segment): the
    /// conversions into the interpolation space, the missing components, the hue fixup and the
    /// premultiplication of `interpolate` are done once; `color(at:)` gives exactly what
    /// `interpolate` gives.
    public struct Pair: Sendable {
        let p: SIMD3<Double>, q: SIMD3<Double>
        let pa: Double, qa: Double
        let missing: ComponentFlags
        let bothAlphaMissing: Bool
        let space: InterpolationSpace
        let hueIndex: Int?

        public init(_ a: Color, _ b: Color, in space: InterpolationSpace, hue: HueInterpolationMethod = .shorter) {
            var p = ColorInterpolation.point(a, in: space), q = ColorInterpolation.point(b, in: space)
            // §12.3: a component missing in one color takes the other's value.
            for k in 0..<3 {
                if p.missing[k] && !q.missing[k] { p.c[k] = q.c[k]; p.missing[k] = false }
                else if q.missing[k] && !p.missing[k] { q.c[k] = p.c[k]; q.missing[k] = false }
            }
            if p.alphaMissing && !q.alphaMissing { p.alpha = q.alpha; p.alphaMissing = false }
            else if q.alphaMissing && !p.alphaMissing { q.alpha = p.alpha; q.alphaMissing = false }
            let bothAlphaMissing = p.alphaMissing && q.alphaMissing
            let (pa, qa) = bothAlphaMissing ? (1.0, 1.0) : (p.alpha, q.alpha)
            let hueIndex = space.hueIndex
            if let h = hueIndex, !p.missing[h], !q.missing[h] {
                (p.c[h], q.c[h]) = ColorInterpolation.fixup(p.c[h], q.c[h], hue)
            }
            // Premultiply (§12.3), hue excepted.
            for k in 0..<3 where k != hueIndex {
                p.c[k] *= pa
                q.c[k] *= qa
            }
            // A component missing in both stays missing, so 0 in this space (§12.2): not the value
            // its color's own 0 converts to (`color(srgb none 0.6 0.6)` mixed in prophoto-rgb has
            // prophoto red 0; the gradient paths had taken the converted red, a hostile pass).
            var missing = ComponentFlags(repeating: false)
            for k in 0..<3 where p.missing[k] && q.missing[k] {
                missing[k] = true
                (p.c[k], q.c[k]) = (0, 0)
            }
            (self.p, self.q, self.pa, self.qa) = (p.c, q.c, pa, qa)
            (self.missing, self.bothAlphaMissing, self.space, self.hueIndex) = (missing, bothAlphaMissing, space, hueIndex)
        }

        /// How far the hue turns from the first color to the second, in degrees (`0...360` for
        /// `shorter`/`longer`, up to 360 for `increasing`/`decreasing`); 0 in rectangular spaces
        /// or when a hue is missing.
        public var hueTravel: Double {
            guard let h = hueIndex, !missing[h] else { return 0 }
            let d = abs(q[h] - p[h])
            return d.isFinite ? d : 0
        }

        /// The weights strictly between `lo` and `hi` at which the hue passes a multiple of
        /// `step` degrees, in increasing order (HSL and HWB bend at every multiple of 60°, CSS
        /// Color 4 §7.1 and §8.1); empty in rectangular spaces or when a hue is missing.
        public func hueCrossings(every step: Double, from lo: Double, to hi: Double) -> [Double] {
            guard let h = hueIndex, !missing[h], step > 0, q[h] != p[h], lo < hi else { return [] }
            let (h0, h1) = (p[h] + (q[h] - p[h]) * lo, p[h] + (q[h] - p[h]) * hi)
            let (a, b) = (Swift.min(h0, h1), Swift.max(h0, h1))
            guard a.isFinite, b.isFinite, (b - a) / step < 4096 else { return [] }
            var out: [Double] = []
            var m = (a / step).rounded(.down) * step + step
            while m < b {
                let w = (m - p[h]) / (q[h] - p[h])
                if w > lo && w < hi { out.append(w) }
                m += step
            }
            return out.sorted()
        }

        /// The color at `t` (`0...1`, the weight of the second color), as `interpolate` gives it.
        public func color(at t: Double) -> Color {
            let alpha = pa + (qa - pa) * t
            var c = p + (q - p) * t
            if alpha != 0 {
                for k in 0..<3 where k != hueIndex { c[k] /= alpha }
            }
            for k in 0..<3 where missing[k] { c[k] = 0 }
            if let h = hueIndex, !missing[h] { c[h] = ColorSpaceTree.normalizedHue(c[h]) }
            // Alpha missing in both stays missing, which is 0 where the color is shown (§4.4), as
            // a lone `rgb(0 0 0 / none)` is: a pass against Chromium 156 had the mix of two such
            // colors opaque. It was premultiplied as 1 (§12.3: unchanged), and the flag lets a
            // mix around this one take the other color's alpha.
            var result = space.color(c, alpha: bothAlphaMissing ? 0 : Swift.min(Swift.max(alpha, 0), 1), isNone: missing)
            result.alphaIsNone = bothAlphaMissing
            return result
        }
    }

    /// `color` in `space` with its missing components: those missing in the source whose
    /// analogous component exists in `space` (§12.2), and a powerless hue (achromatic color).
    static func point(_ color: Color, in space: InterpolationSpace) -> Point {
        let (c, hueMissing) = space.coordinates(of: color)
        var missing = ComponentFlags(repeating: false)
        if color.isNone[0] || color.isNone[1] || color.isNone[2] {
            // Only a color with a missing component pays for the category tables. In its own
            // space a color's missing components stay missing whatever their category (HWB's
            // whiteness and blackness have none: `hwb(200 none 30%)` mixed in hwb had read the
            // whiteness as 0, a hostile pass); the spaces stored as XYZ are converted, so they
            // go through the categories.
            let own = color.space == space.storage && space != .a98RGB && space != .prophotoRGB && space != .displayP3Linear
            let from = color.space.categories
            let to = space.categories
            for k in 0..<3 where color.isNone[k] {
                if own { missing[k] = true; continue }
                guard let category = from[k], let j = to.firstIndex(where: { $0 == category }) else { continue }
                missing[j] = true
            }
            // Analogous sets (§12.2, csswg-drafts#10210): the components left on each side once
            // the analogous ones are paired form a set, and when every one of the source's is
            // missing, every one of the destination's is: `oklch(0.5 none none)` in lab is
            // `lab(50% none none)`, which then takes the other color's a and b (Chromium 156; a
            // pass against it had the gray's a = b = 0 mixed in), and `rgb(none none none)` in
            // oklab is `oklab(none none none)`. A set travels whole or not at all.
            if !own {
                let unpairedFrom = (0..<3).filter { k in from[k].map { c in !to.contains { $0 == c } } ?? true }
                let unpairedTo = (0..<3).filter { j in to[j].map { c in !from.contains { $0 == c } } ?? true }
                if !unpairedFrom.isEmpty, unpairedFrom.allSatisfy({ color.isNone[$0] }) {
                    for j in unpairedTo { missing[j] = true }
                }
            }
        }
        if hueMissing, let h = space.hueIndex { missing[h] = true }
        return Point(c: c, alpha: color.alpha, missing: missing, alphaMissing: color.alphaIsNone)
    }

    /// The two hues adjusted for `method` (CSS Color 4 §12.4), in degrees.
    static func fixup(_ h1: Double, _ h2: Double, _ method: HueInterpolationMethod) -> (Double, Double) {
        var (a, b) = (ColorSpaceTree.normalizedHue(h1), ColorSpaceTree.normalizedHue(h2))
        let d = b - a
        switch method {
        case .shorter:
            if d > 180 { a += 360 } else if d < -180 { b += 360 }
        case .longer:
            if 0 < d && d < 180 { a += 360 } else if -180 < d && d <= 0 { b += 360 }
        case .increasing:
            if d < 0 { b += 360 }
        case .decreasing:
            if 0 < d { a += 360 }
        }
        return (a, b)
    }
}
