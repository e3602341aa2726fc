/// Perceptual contrast metrics besides WCAG and APCA, defined as color.js 0.7 defines them.
///
/// Luminance Y here is CIE XYZ (D65) Y from the CSS Color 4 sRGB matrix, which differs from the
/// rounded WCAG weights in the fourth decimal. Source: color.js `contrastLstar`, `contrastWeber`,
/// `contrastMichelson`; Weber and Michelson contrast as in Michelson 1927 / Weber's law.
public enum PerceptualContrast {
    /// Cap for Weber contrast when the darker luminance is 0 (color.js uses 50000).
    public static let weberMax = 50_000.0

    /// CIE XYZ Y `0...1` of gamma-encoded sRGB `0...1` (second row of the sRGB→XYZ-D65 matrix).
    public static func luminanceY(_ srgb: SIMD3<Double>) -> Double {
        max(Color(space: .srgb, coordinates: srgb).converted(to: .xyzD65).coordinates.y, 0)
    }

    /// |L1 − L2|, the difference of CIE Lab (D50) lightness, `0...100`.
    public static func lstarDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let la = Color(space: .srgb, coordinates: a).converted(to: .lab).coordinates.x
        let lb = Color(space: .srgb, coordinates: b).converted(to: .lab).coordinates.x
        return abs(la - lb)
    }

    /// Weber contrast `(Y_hi − Y_lo) / Y_lo`, `0...50000`: 50000 when only Y_lo is 0 (color.js's
    /// cap), 0 when both luminances are equal, black on black included (color.js 0.5 gives 50000
    /// there: a contrast between identical colors is none).
    public static func weber(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let ya = luminanceY(a), yb = luminanceY(b)
        let hi = max(ya, yb), lo = min(ya, yb)
        if hi == lo { return 0 }
        return lo == 0 ? weberMax : (hi - lo) / lo
    }

    /// Michelson contrast `(Y_hi − Y_lo) / (Y_hi + Y_lo)`, `0...1` (0 when both are 0).
    public static func michelson(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let ya = luminanceY(a), yb = luminanceY(b)
        let hi = max(ya, yb), lo = min(ya, yb)
        return hi + lo == 0 ? 0 : (hi - lo) / (hi + lo)
    }
}
