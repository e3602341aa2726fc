// Hex and CSS text serialization of colors (CSS Color 4 §15, with the modern space-separated
// syntax in the color's own space).

extension Color {
    /// The sRGB value as `#rrggbb` (lowercase), or `#rrggbbaa` when `alpha < 1`.
    ///
    /// The color is converted to sRGB (no gamut mapping), each channel clipped to `0...1` and
    /// rounded half up from `x × 255` (CSS Color 4 §15.2 / §5.2); alpha likewise. Use
    /// `GamutMapping.map(_:to:)` first for perceptual gamut mapping of wide-gamut colors.
    public var hex: String {
        let rgb = converted(to: .srgb).coordinates
        // At most 9 ASCII bytes: a small string, written in place (no allocation).
        let count = alpha < 1 ? 9 : 7
        return String(unsafeUninitializedCapacity: count) { buffer in
            func put(_ value: Double, at index: Int) {
                let b = EightBit.byte(value)
                buffer[index] = ColorFormatting.hexDigit(b >> 4)
                buffer[index + 1] = ColorFormatting.hexDigit(b & 15)
            }
            buffer[0] = UInt8(ascii: "#")
            put(rgb.x, at: 1)
            put(rgb.y, at: 3)
            put(rgb.z, at: 5)
            if count == 9 { put(alpha, at: 7) }
            return count
        }
    }

    /// CSS Color 4 text for this color in its own space, in the modern space-separated syntax:
    /// - `.srgb`: `rgb(255 128 0)` with channels on the 0...255 scale when they lie in `0...1`;
    ///   otherwise `color(srgb 1.2 0.5 -0.1)` (which keeps out-of-range values, as `rgb()`
    ///   would clamp them when parsed);
    /// - `.hsl` / `.hwb`: `hsl(120 50% 40%)`, `hwb(120 10% 20%)`;
    /// - `.lab` / `.lch` / `.oklab` / `.oklch`: `lab(50 20 -30)`, `oklch(0.5 0.1 120)`;
    /// - `.srgbLinear`, `.displayP3`, `.rec2020`, `.xyzD65`, `.xyzD50`:
    ///   `color(display-p3 0.1 0.2 0.3)`.
    ///
    /// Alpha below 1 is appended as ` / 0.5`. Components marked in `isNone` are written `none`
    /// (e.g. the hue of an achromatic color). Numbers have at most 6 decimals for 0...1-scale
    /// components and 4 for larger scales (percent, degrees, Lab, 0...255), trailing zeros
    /// removed, never exponent notation for magnitudes below 1e9.
    public var cssString: String {
        let c = coordinates
        func comp(_ i: Int, _ value: Double, decimals: Int, suffix: String = "") -> String {
            isNone[i] ? "none" : ColorFormatting.number(value, decimals: decimals) + suffix
        }
        /// A hue in `[0, 360)` that rounds to 360 at `decimals` is written 0 (359.99999 → `360`
        /// broke the documented range; hostile test).
        func hue(_ i: Int, _ value: Double, decimals: Int) -> String {
            let text = comp(i, value, decimals: decimals)
            return text == "360" ? "0" : text
        }
        let body: String
        switch space {
        case .srgb:
            let inRange = (0...2).allSatisfy { isNone[$0] || (c[$0] >= -1e-9 && c[$0] <= 1 + 1e-9) }
            if inRange {
                let v = c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * 255
                body = "rgb(\(comp(0, v.x, decimals: 3)) \(comp(1, v.y, decimals: 3)) \(comp(2, v.z, decimals: 3))"
            } else {
                body = "color(srgb \(comp(0, c.x, decimals: 6)) \(comp(1, c.y, decimals: 6)) \(comp(2, c.z, decimals: 6))"
            }
        case .hsl, .hwb:
            body = "\(space.rawValue)(\(hue(0, c.x, decimals: 4)) \(comp(1, c.y, decimals: 4, suffix: "%")) \(comp(2, c.z, decimals: 4, suffix: "%"))"
        case .lab:
            body = "lab(\(comp(0, c.x, decimals: 4)) \(comp(1, c.y, decimals: 4)) \(comp(2, c.z, decimals: 4))"
        case .lch:
            body = "lch(\(comp(0, c.x, decimals: 4)) \(comp(1, c.y, decimals: 4)) \(hue(2, c.z, decimals: 4))"
        case .oklab:
            body = "oklab(\(comp(0, c.x, decimals: 6)) \(comp(1, c.y, decimals: 6)) \(comp(2, c.z, decimals: 6))"
        case .oklch:
            body = "oklch(\(comp(0, c.x, decimals: 6)) \(comp(1, c.y, decimals: 6)) \(hue(2, c.z, decimals: 4))"
        case .srgbLinear, .displayP3, .rec2020, .xyzD65, .xyzD50:
            body = "color(\(space.rawValue) \(comp(0, c.x, decimals: 6)) \(comp(1, c.y, decimals: 6)) \(comp(2, c.z, decimals: 6))"
        }
        if alpha < 1 {
            return body + " / " + ColorFormatting.number(Swift.max(alpha, 0), decimals: 6) + ")"
        }
        return body + ")"
    }
}

/// Number formatting for color serialization.
public enum ColorFormatting {
    /// The lower-case hex digit of `0...15` as an ASCII byte.
    @inline(__always)
    static func hexDigit(_ nibble: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: nibble < 10 ? 0x30 + nibble : 0x57 + nibble)
    }

    /// Decimal text with at most `decimals` fraction digits (`0...9`), trailing zeros removed,
    /// no "-0", no exponent below 1e9 (`0.5`, `12`, `46.1`); a NaN or infinity is written `0`.
    public static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        if abs(value) >= 1e9 { return "\(value)" }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        if scaled == 0 { return "0" }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        var fraction = units % divisor
        var text = (value < 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = decimals
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}
