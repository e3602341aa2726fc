import Foundation

/// Bringing out-of-gamut colors into an RGB gamut (CSS Color 4 §13).
public enum GamutMapping {
    /// How to bring a color into gamut.
    public enum Method: String, Sendable, CaseIterable {
        /// CSS Color 4 §13.2: binary search on OKLCH chroma at constant lightness and hue,
        /// accepting a clipped candidate whose ΔE OK from the unclipped one is below the JND 0.02
        /// (search stops when the chroma interval is below ε = 0.0001).
        case css4
        /// Clamp each channel of the destination RGB space to `0...1` (CSS Color 4 §13.1 clip).
        case clip
    }

    /// Just-noticeable difference in ΔE OK used by the CSS Color 4 §13.2 algorithm.
    static let jnd = 0.02
    /// Chroma search resolution of the CSS Color 4 §13.2 algorithm.
    static let epsilon = 0.0001

    /// CSS Color 4 §13.2 gamut mapping (binary search on OKLCH chroma, JND 0.02,
    /// epsilon 0.0001, ΔE OK) or clipping into `.srgb` / `.displayP3` / `.rec2020`.
    /// Returns a color in `destination`.
    ///
    /// - Parameters:
    ///   - color: any color; `none` components count as 0. Alpha is carried over unchanged.
    ///   - destination: `.srgb`, `.srgbLinear`, `.displayP3` or `.rec2020` (channels of the
    ///     result lie in `0...1`); `.hsl` and `.hwb` are mapped into sRGB and then expressed in
    ///     that space. Spaces without gamut limits (XYZ, Lab, LCH, OKLab, OKLCH) get a plain
    ///     conversion (§13.2 step 1).
    ///   - method: `.css4` (default) or `.clip`.
    /// - Returns: the mapped color in `destination`. With `.css4`, an OKLCH lightness ≥ 1 maps
    ///   to white and ≤ 0 to black (§13.2 steps 3–4); a color already in gamut (exact
    ///   `0...1` test) is only converted.
    public static func map(_ color: Color, to destination: ColorSpace, method: Method = .css4) -> Color {
        guard let gamut = destination.gamutSpace else { return color.converted(to: destination) }
        let mapped: Color
        switch method {
        case .clip:
            mapped = clip(color, into: gamut)
        case .css4:
            mapped = css4(color, gamut: gamut)
        }
        return mapped.converted(to: destination)
    }

    /// Converts into the RGB space `gamut` and clamps each channel to `0...1`.
    static func clip(_ color: Color, into gamut: ColorSpace) -> Color {
        var c = color.converted(to: gamut)
        c.coordinates = c.coordinates.clamped(lowerBound: SIMD3(repeating: 0),
                                              upperBound: SIMD3(repeating: 1))
        c.isNone = ComponentFlags(repeating: false)
        return c
    }

    /// Exact (zero-tolerance) gamut test in the RGB space `gamut`.
    static func inGamut(_ color: Color, _ gamut: ColorSpace) -> Bool {
        color.isInGamut(gamut, epsilon: 0)
    }

    /// CSS Color 4 §13.2 "binary search gamut mapping with local MINDE", step by step.
    static func css4(_ origin: Color, gamut: ColorSpace) -> Color {
        // 2. origin in OKLCH
        var current = origin.converted(to: .oklch)
        current.isNone = ComponentFlags(repeating: false)
        let alpha = origin.alpha
        // 3., 4. lightness at or beyond the ends: white or black
        if current.coordinates.x >= 1 {
            return Color(space: .srgb, coordinates: SIMD3(1, 1, 1), alpha: alpha).converted(to: gamut)
        }
        if current.coordinates.x <= 0 {
            return Color(space: .srgb, coordinates: SIMD3(0, 0, 0), alpha: alpha).converted(to: gamut)
        }
        // 6. already in gamut
        if inGamut(current, gamut) {
            return current.converted(to: gamut)
        }
        // 11.–17.
        var low = 0.0
        var high = current.coordinates.y
        var lowInGamut = true
        var clipped = clip(current, into: gamut)
        var e = ColorDifference.deltaEOK(clipped, current)
        if e < jnd { return clipped }
        // 18. binary search on chroma
        while high - low > epsilon {
            let chroma = (low + high) / 2
            current.coordinates.y = chroma
            if lowInGamut && inGamut(current, gamut) {
                low = chroma
                continue
            }
            clipped = clip(current, into: gamut)
            e = ColorDifference.deltaEOK(clipped, current)
            if e < jnd {
                if jnd - e < epsilon { return clipped }
                lowInGamut = false
                low = chroma
            } else {
                high = chroma
            }
        }
        // 19.
        return clipped
    }
}
