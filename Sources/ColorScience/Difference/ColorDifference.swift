import Foundation

// Colour-difference formulas.
//
// Sources:
// - ΔE*ab 1976: CIE 15:2004 §8.2.1, Euclidean distance in CIELAB.
// - CIEDE2000: CIE 142-2001; implemented after G. Sharma, W. Wu, E. N. Dalal (2005), "The CIEDE2000
//   color-difference formula: Implementation notes, supplementary test data, and mathematical
//   observations", Color Research & Application 30(1), 21–30, equations (1)–(22), including their
//   conventions for zero chroma (h' = 0, Δh' = 0, mean hue = h1' + h2').
// - ΔE OK: Euclidean distance in OKLab (B. Ottosson 2020), as in CSS Color 4 §13.2 / ColorAide
//   `delta_e(method="ok")` with its default scalar 1.
// Reference values: ColorAide 8.13.1 `Color.delta_e(...)` (Tests/Fixtures/delta_e.jsonl) and the
// 34 test pairs of Sharma et al. 2005, Table 1.

/// Colour differences ΔE 76, CIEDE2000 and ΔE OK.
///
/// By default CIELAB is taken relative to **D65** (`.d65`): that is what ColorAide 8.13.1 uses for
/// `delta_e` (`space="lab-d65"` by default), and what the reference data were produced with.
/// CSS's `lab()` is D50; pass `lab: .d50` for differences in that space (ColorAide
/// `space="lab"`). The two differ by a few units for saturated colours (e.g. ΔE 2000 of
/// `#6b2496`/`#803349`: 22.17 in Lab D65, 23.20 in Lab D50).
public enum ColorDifference {
    /// Reference white of the CIELAB space a difference is computed in.
    public enum LabWhite: String, Sendable, CaseIterable, Hashable {
        /// CIELAB relative to D65 (x 0.3127, y 0.3290), no chromatic adaptation: ColorAide's
        /// `lab-d65` and its default for ΔE 76 and ΔE 2000.
        case d65
        /// CIELAB relative to D50 (Bradford-adapted), the space of CSS `lab()` (`ColorSpace.lab`).
        case d50
    }

    // MARK: Colour level

    /// CIE 1976 ΔE*ab: Euclidean distance in CIELAB.
    ///
    /// - Parameters:
    ///   - a, b: any colours (alpha ignored); converted to CIELAB.
    ///   - lab: the CIELAB reference white (default `.d65`, like ColorAide).
    /// - Returns: ΔE ≥ 0 in Lab units (L 0...100); about 2.3 is a just-noticeable difference.
    public static func deltaE76(_ a: Color, _ b: Color, lab: LabWhite = .d65) -> Double {
        deltaE76(lab1: labCoordinates(a, white: lab), lab2: labCoordinates(b, white: lab))
    }

    /// CIEDE2000 (Sharma, Wu & Dalal 2005) with kL = kC = kH = 1.
    ///
    /// - Parameters:
    ///   - a, b: any colours (alpha ignored); converted to CIELAB.
    ///   - lab: the CIELAB reference white (default `.d65`, like ColorAide).
    /// - Returns: ΔE00 ≥ 0; about 1 is a just-noticeable difference. Symmetric in `a`, `b`.
    public static func deltaE2000(_ a: Color, _ b: Color, lab: LabWhite = .d65) -> Double {
        deltaE2000(lab1: labCoordinates(a, white: lab), lab2: labCoordinates(b, white: lab))
    }

    /// ΔE OK: Euclidean distance in OKLab (L 0...1), unscaled.
    ///
    /// - Returns: ΔE ≥ 0; black to white is 1. About 0.02 is a just-noticeable difference (the
    ///   JND CSS Color 4 gamut mapping uses). Multiply by 100 for a scale comparable to ΔE 2000.
    public static func deltaEOK(_ a: Color, _ b: Color) -> Double {
        deltaEOK(oklab1: a.converted(to: .oklab).coordinates, oklab2: b.converted(to: .oklab).coordinates)
    }

    /// CIELAB coordinates (L 0...100, a, b) of `color` relative to `white`.
    ///
    /// `.d50` is `ColorSpace.lab`. `.d65` applies the CIE Lab formula to XYZ D65 with the D65
    /// white, without chromatic adaptation (ColorAide/color.js `lab-d65`); it reuses the D50 Lab
    /// function on XYZ rescaled by the ratio of the two whites, which is the same formula.
    public static func labCoordinates(_ color: Color, white: LabWhite) -> SIMD3<Double> {
        switch white {
        case .d50:
            return color.converted(to: .lab).coordinates
        case .d65:
            let xyz = color.converted(to: .xyzD65).coordinates
            return ColorSpaceTree.xyzD50ToLab(xyz / d65White * ColorSpaceTree.d50White)
        }
    }

    /// The D65 reference white (x 0.3127, y 0.3290) with Y = 1, as CSS Color 4 / color.js / ColorAide.
    static let d65White = SIMD3<Double>(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)

    // MARK: Coordinate level

    /// ΔE 76 between two CIELAB coordinate triples (L, a, b).
    @inlinable
    public static func deltaE76(lab1: SIMD3<Double>, lab2: SIMD3<Double>) -> Double {
        let d = lab1 - lab2
        return (d * d).sum().squareRoot()
    }

    /// ΔE OK between two OKLab coordinate triples (L, a, b).
    @inlinable
    public static func deltaEOK(oklab1: SIMD3<Double>, oklab2: SIMD3<Double>) -> Double {
        let d = oklab1 - oklab2
        return (d * d).sum().squareRoot()
    }

    /// CIEDE2000 between two CIELAB coordinate triples (L, a, b), Sharma, Wu & Dalal 2005
    /// equations (1)–(22).
    ///
    /// - Parameters:
    ///   - kL, kC, kH: parametric weighting factors (CIE reference conditions: 1).
    /// - Returns: ΔE00 ≥ 0; finite for finite input.
    public static func deltaE2000(lab1: SIMD3<Double>, lab2: SIMD3<Double>,
                                  kL: Double = 1, kC: Double = 1, kH: Double = 1) -> Double {
        let (l1, a1, b1) = (lab1.x, lab1.y, lab1.z)
        let (l2, a2, b2) = (lab2.x, lab2.y, lab2.z)
        let pow25to7 = 6_103_515_625.0  // 25^7

        // (2), (3): chroma and its mean.
        let c1 = (a1 * a1 + b1 * b1).squareRoot()
        let c2 = (a2 * a2 + b2 * b2).squareRoot()
        let cMean = (c1 + c2) / 2
        // (4): G.
        let cMean7 = pow(cMean, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow25to7)).squareRoot())
        // (5), (6): a', C'.
        let ap1 = (1 + g) * a1
        let ap2 = (1 + g) * a2
        let cp1 = (ap1 * ap1 + b1 * b1).squareRoot()
        let cp2 = (ap2 * ap2 + b2 * b2).squareRoot()
        // (7): h' in degrees [0, 360); 0 when a' = b = 0.
        let hp1 = hueDegrees(b1, ap1)
        let hp2 = hueDegrees(b2, ap2)

        // (8), (9): ΔL', ΔC'.
        let dL = l1 - l2
        let dC = cp1 - cp2
        // (10): Δh'; 0 when either chroma is 0.
        let chromaProduct = cp1 * cp2
        let hDiff = hp1 - hp2
        var dh: Double
        if chromaProduct == 0 {
            dh = 0
        } else if abs(hDiff) <= 180 {
            dh = hDiff
        } else if hDiff > 180 {
            dh = hDiff - 360
        } else {
            dh = hDiff + 360
        }
        // (11): ΔH'.
        let dH = 2 * chromaProduct.squareRoot() * sin(radians(dh / 2))

        // (12), (13): means of L' and C'.
        let lMean = (l1 + l2) / 2
        let cpMean = (cp1 + cp2) / 2
        // (14): mean hue; the sum when either chroma is 0.
        let hSum = hp1 + hp2
        let hMean: Double
        if chromaProduct == 0 {
            hMean = hSum
        } else if abs(hDiff) > 180 {
            hMean = hSum < 360 ? (hSum + 360) / 2 : (hSum - 360) / 2
        } else {
            hMean = hSum / 2
        }

        // (15): T.
        let t = 1
            - 0.17 * cos(radians(hMean - 30))
            + 0.24 * cos(radians(2 * hMean))
            + 0.32 * cos(radians(3 * hMean + 6))
            - 0.20 * cos(radians(4 * hMean - 63))
        // (16): Δθ.
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        // (17): R_C.
        let cpMean7 = pow(cpMean, 7)
        let rC = 2 * (cpMean7 / (cpMean7 + pow25to7)).squareRoot()
        // (18)–(20): S_L, S_C, S_H.
        let lTerm = (lMean - 50) * (lMean - 50)
        let sL = 1 + (0.015 * lTerm) / (20 + lTerm).squareRoot()
        let sC = 1 + 0.045 * cpMean
        let sH = 1 + 0.015 * cpMean * t
        // (21): R_T.
        let rT = -sin(radians(2 * dTheta)) * rC

        // (22).
        let lPart = dL / (kL * sL)
        let cPart = dC / (kC * sC)
        let hPart = dH / (kH * sH)
        let sum = lPart * lPart + cPart * cPart + hPart * hPart + rT * cPart * hPart
        return max(sum, 0).squareRoot()
    }

    /// Hue angle atan2(b, a) in degrees within [0, 360); 0 for a = b = 0 (Sharma et al. eq. 7).
    static func hueDegrees(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        var h = atan2(b, a)
        if h < 0 { h += 2 * Double.pi }
        return h * (180 / Double.pi)
    }

    /// Degrees to radians. Both conversions multiply by a precomputed constant (like Python's
    /// `math.degrees`/`math.radians` in ColorAide): at the Δh' = 180° boundary of Sharma et al.'s
    /// pairs 9–12 the last bit decides which branch of eqs. (10) and (14) is taken.
    @inline(__always) static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }
}
