import Foundation

/// WCAG 2.x relative luminance, contrast ratio and success criteria thresholds.
///
/// Source: WCAG 2.2 SC 1.4.3 Contrast (Minimum), SC 1.4.6 Contrast (Enhanced), SC 1.4.11 Non-text
/// Contrast, and the definitions of "relative luminance", "contrast ratio" and "large scale (text)".
/// The sRGB decode uses the IEC 61966-2-1 threshold 0.04045 (the WCAG text's 0.03928 gives the
/// same result for every 8-bit value: no 8-bit channel lies between the two).
public enum WCAG {
    /// Minimum ratios. AA normal text 4.5:1, AA large text 3:1, non-text 3:1 (SC 1.4.11),
    /// AAA normal text 7:1, AAA large text 4.5:1.
    public static let aaNormalText = 4.5
    public static let aaLargeText = 3.0
    public static let aaNonText = 3.0
    public static let aaaNormalText = 7.0
    public static let aaaLargeText = 4.5

    /// Decodes one gamma-encoded sRGB channel `0...1` to linear light `0...1`
    /// (IEC 61966-2-1: `c/12.92` up to 0.04045, else `((c+0.055)/1.055)^2.4`).
    ///
    /// An 8-bit level `k/255` (every channel of a hex color) is read from a table that holds
    /// this same formula's result for each of the 256 levels: the same bits, without `pow`.
    @inlinable
    public static func linearize(_ c: Double) -> Double {
        if let level = EightBitLevel.index(of: c) { return linearized8Bit[level] }
        return decode(c)
    }

    /// The IEC 61966-2-1 decode itself, `0...1` to `0...1` (what `linearized8Bit` holds for
    /// the 8-bit levels and what `linearize` computes for every other value).
    @inlinable
    static func decode(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// `decode(k/255)` for k = 0...255.
    @usableFromInline static let linearized8Bit: [Double] = (0...255).map { decode(EightBitLevel.values[$0]) }

    /// Relative luminance `0...1` of an in-gamut sRGB color given as gamma-encoded channels `0...1`:
    /// `0.2126 R + 0.7152 G + 0.0722 B` on linear channels. Channels are clamped to `0...1` first,
    /// so the result always lies in `0...1` (gamut-map out-of-gamut colors before calling).
    @inlinable
    public static func relativeLuminance(_ srgb: SIMD3<Double>) -> Double {
        let c = srgb.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
        return 0.2126 * linearize(c.x) + 0.7152 * linearize(c.y) + 0.0722 * linearize(c.z)
    }

    /// Contrast ratio `1...21` between two relative luminances (order does not matter):
    /// `(L_lighter + 0.05) / (L_darker + 0.05)`.
    @inlinable
    public static func contrastRatio(_ l1: Double, _ l2: Double) -> Double {
        let hi = max(l1, l2), lo = min(l1, l2)
        return (hi + 0.05) / (lo + 0.05)
    }

    /// Whether text is "large scale" in WCAG terms: at least 18 point, or at least 14 point when
    /// bold (weight ≥ 700). 1pt = 4/3 CSS px; sizes are compared unrounded (18.67px bold is large,
    /// 18.66px is not), with a 1e-9 pt allowance for floating-point error only.
    /// - Parameters:
    ///   - points: font size in points, > 0.
    ///   - weight: CSS font weight `1...1000` (400 regular, 700 bold).
    public static func isLargeText(points: Double, weight: Int) -> Bool {
        let eps = 1e-9
        return points >= 18 - eps || (weight >= 700 && points >= 14 - eps)
    }

    /// Floors a ratio to two decimals for display (`4.4781 → "4.47"`), so a shown number never
    /// reaches a threshold the real value misses. Ratios in `1...21`.
    public static func ratioText(_ ratio: Double) -> String {
        let hundredths = ratioHundredths(ratio)
        let whole = hundredths / 100, frac = hundredths % 100
        if hundredths >= 0 && hundredths < 10_000 {
            // At most "99.99": five ASCII bytes written in place make a small string, without
            // three conversions and two concatenations (ratioText is on every contrast answer).
            return String(unsafeUninitializedCapacity: 5) { b in
                var i = 0
                if whole >= 10 { b[0] = 0x30 &+ UInt8(whole / 10); i = 1 }
                b[i] = 0x30 &+ UInt8(whole % 10)
                b[i + 1] = UInt8(ascii: ".")
                b[i + 2] = 0x30 &+ UInt8(frac / 10)
                b[i + 3] = 0x30 &+ UInt8(frac % 10)
                return i + 4
            }
        }
        return String(whole) + (frac < 10 ? ".0" : ".") + String(frac)
    }

    /// The ratio in whole hundredths, rounded down (`ratioText` is this with a decimal point):
    /// `4.4781 → 447`, `21 → 2100`. A 1e-9 allowance absorbs float error (4.57 stored as
    /// 4.569999999 shows 4.57), except at the thresholds 3, 4.5 and 7: a ratio below one of them,
    /// however little, never shows it (4.499999999999999 shows 4.49, as its verdict fails).
    public static func ratioHundredths(_ ratio: Double) -> Int {
        let hundredths = Int((ratio * 100 + 1e-9).rounded(.down))
        // The thresholds written out: a loop over an array literal cost an allocation per call.
        if (hundredths == 300 && ratio < 3) || (hundredths == 450 && ratio < 4.5) || (hundredths == 700 && ratio < 7) {
            return hundredths - 1
        }
        return hundredths
    }
}

/// The 256 channel values `k/255` of 8-bit colors, and which one a channel is: lets formulas
/// look up per-level results computed once (bit-identical to computing them).
@usableFromInline
enum EightBitLevel {
    /// `Double(k) / 255`, as the parsers compute 8-bit channels.
    @usableFromInline static let values: [Double] = (0...255).map { Double($0) / 255 }

    /// `k` when `c` is exactly `values[k]`, else nil (NaN and out-of-range values included).
    @inlinable
    static func index(of c: Double) -> Int? {
        guard c >= 0 && c <= 1 else { return nil }  // NaN too
        let k = Int(c * 255 + 0.5)  // nearest level; truncation is floor here
        return Double(k) / 255 == c ? k : nil
    }
}
