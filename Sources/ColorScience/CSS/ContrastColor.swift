// contrast-color() (CSS Color 5 §6): white or black, whichever contrasts more with the color,
// as Chromium 156 computes it. Measured against Chromium (headless, getComputedStyle): alpha is
// ignored (`contrast-color(rgb(0 0 0 / 0.1))` is white), the color is clipped to sRGB and taken
// at 8 bits per channel (gray 0.4605 gives white, 0.4610 black: the WCAG 2 crossing of exact
// values lies at 0.46029, of 8-bit values between 117 and 118), and the WCAG 2 contrast ratios
// (WCAG 2.2 SC 1.4.3) with white and with black decide.

/// The `contrast-color()` choice.
public enum ContrastColor {
    /// White (`#ffffff`) or black (`#000000`), opaque: black when its WCAG 2 contrast ratio with
    /// `color` (alpha ignored, clipped to sRGB, rounded to 8 bits per channel) exceeds white's,
    /// else white.
    public static func choose(for color: Color) -> Color {
        let srgb = color.converted(to: .srgb).coordinates
        let eight = ColorSpaceTree.map(srgb) { Double(EightBit.byte($0)) / 255 }
        let l = WCAG.relativeLuminance(eight)
        let withWhite = WCAG.contrastRatio(1, l)
        let withBlack = WCAG.contrastRatio(l, 0)
        return withBlack > withWhite ? Color.srgb(0, 0, 0) : Color.srgb(1, 1, 1)
    }
}

extension ColorSyntax {
    /// `contrast-color(<color>)`.
    func contrastColor(_ inner: [CSSToken]) throws(ColorParseError) -> Color {
        guard inner.contains(where: { $0.kind != .whitespace }) else {
            throw .invalid("contrast-color() needs a color")
        }
        return ContrastColor.choose(for: try parse(inner))
    }
}
