// 8-bit quantization: the n/255 values a color is written as in hex (CSS Color 4 §15.2,
// "serializing sRGB values": round half up from x × 255).

extension DisplayColor {
    /// The color exactly as its 8-bit hex (`Color.hex`) states it: each channel and alpha
    /// rounded half up to n/255 (CSS Color 4 §15.2), so contrast measured on the result is the
    /// contrast of the reported hex. Always allocates nothing; idempotent.
    public var quantized: DisplayColor {
        DisplayColor(srgb: EightBit.quantize(srgb), alpha: EightBit.quantize(alpha), wasGamutMapped: wasGamutMapped)
    }

    /// `#rrggbb`, or `#rrggbbaa` when alpha is below 1 (rounded half up, as `Color.hex`).
    public var hex: String { Color.srgb(srgb.x, srgb.y, srgb.z, alpha: alpha).hex }

    /// The color as a `Color` in sRGB.
    public var color: Color { Color.srgb(srgb.x, srgb.y, srgb.z, alpha: alpha) }
}

/// 8-bit quantization as `Color.hex` writes colors (round half up from `x × 255`).
public enum EightBit {
    /// One channel `0...1` → the nearest n/255 (half up; NaN → 0; clipped to `0...1`).
    @inlinable
    public static func quantize(_ v: Double) -> Double {
        Double(byte(v)) / 255
    }

    /// Three channels → the nearest n/255 each.
    @inlinable
    public static func quantize(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(quantize(v.x), quantize(v.y), quantize(v.z))
    }

    /// The byte `0...255` a channel `0...1` is written as (same rounding as `Color.hex`).
    @inlinable
    public static func byte(_ v: Double) -> Int {
        let c = v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1)
        return Swift.min(255, Int((c * 255 + 0.5 + 1e-9).rounded(.down)))
    }
}
