import ColorScience
import Foundation

/// How a token's color is written in its file, so that a color suggested for it can be written
/// the same way and pasted where the token is defined. A shadcn theme's bare HSL triplet
/// (`--muted-foreground: 240 3.8% 46.1%`, used as `hsl(var(--muted-foreground))`) pasted over
/// with a hex breaks every use (`hsl(#6b6b74)` is invalid), and a Tailwind v4 or shadcn v4 theme
/// writes `oklch()`.
///
/// The notation goes by the text the color was read from (`ResolvedToken.css`): `hsl()`,
/// `rgb()` (and `hsla()`/`rgba()`, written without the `a`), `oklch()` and hex keep theirs;
/// every other text (`color-mix()`, relative colors, `lab()`, `color(display-p3 …)`, DTCG and
/// Figma values, named colors) is given hex, which every format reads.
public enum TokenNotation: Sendable, Equatable {
    /// `#rrggbb`, or `#rrggbbaa` below opacity 1.
    case hex
    /// shadcn's bare HSL triplet `240 3.8% 46.1%` (hue in degrees, saturation and lightness in
    /// percent), for `hsl(var(--x))`.
    case bareHSL
    /// `hsl(240 3.8% 46.1%)`, or `hsl(240, 3.8%, 46.1%)` with `commas` (CSS Color 4 §7 legacy syntax).
    case hsl(commas: Bool)
    /// `rgb(107 107 116)` on the 0–255 scale, or with `commas`.
    case rgb(commas: Bool)
    /// `oklch(0.552 0.016 285.938)` (CSS Color 4 §9.3), lightness `0...1`, or in percent when the
    /// token writes it so (`oklch(55.2% …)`, as Tailwind v4 does).
    case oklch(percent: Bool)

    /// The notation of `css`, the text a token's color was read from (after `var()`
    /// substitution); `bareTriplet`: the reader found it written as a bare HSL triplet
    /// (`TokenSet.bareHSLTriplets`), which it holds as `hsl(…)`.
    public init(of css: String, bareTriplet: Bool) {
        let text = css.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        func arguments(after name: String) -> Substring? {
            guard text.hasPrefix(name + "("), text.hasSuffix(")") else { return nil }
            return text.dropFirst(name.count + 1).dropLast()
        }
        if let a = arguments(after: "hsl") ?? arguments(after: "hsla") {
            self = bareTriplet && !a.contains(",") ? .bareHSL : .hsl(commas: a.contains(","))
        } else if let a = arguments(after: "rgb") ?? arguments(after: "rgba") {
            self = .rgb(commas: a.contains(","))
        } else if let a = arguments(after: "oklch"), !a.contains("from") {
            self = .oklch(percent: a.split(separator: " ").first?.hasSuffix("%") ?? false)
        } else {
            self = .hex
        }
    }

    /// `hsl()` or a bare HSL triplet.
    public var isHSL: Bool {
        switch self { case .bareHSL, .hsl: return true; default: return false }
    }

    /// `color` written in this notation, each number with `extraDigits` (`0...6`) more fraction
    /// digits than the notation's usual (hsl: 1; oklch: 3, its percent lightness 1; rgb: 0, which
    /// is exact for a color of 8-bit channels); alpha below 1 is written with 3 + `extraDigits`.
    /// A caller measures the text again and asks for more digits when rounding made it miss.
    /// A bare triplet below opacity 1 is written with its alpha (`0 0% 100% / 0.2`): only a
    /// triplet written so is suggested a translucent color. nil is kept for notations that
    /// cannot carry a color.
    public func text(_ color: DisplayColor, extraDigits: Int) -> String? {
        let srgb = Color.srgb(color.srgb.x, color.srgb.y, color.srgb.z)
        let alpha = color.alpha < 1 ? ColorFormatting.number(color.alpha, decimals: 3 + extraDigits) : nil
        func n(_ v: Double, _ decimals: Int) -> String { ColorFormatting.number(v, decimals: decimals + extraDigits) }
        func hsl() -> (h: String, s: String, l: String) {
            let c = srgb.converted(to: .hsl).coordinates
            // An achromatic color's hue is 0 (the conversion's NaN-free choice); a hue that
            // rounds to 360 is 0.
            let h = c.y == 0 || !c.x.isFinite ? "0" : n(c.x, 1)
            return (h == "360" ? "0" : h, n(c.y, 1) + "%", n(c.z, 1) + "%")
        }
        switch self {
        case .hex:
            return Color.srgb(color.srgb.x, color.srgb.y, color.srgb.z, alpha: color.alpha).hex
        case .bareHSL:
            // Only a triplet written with its alpha (`0 0% 100% / 0.2`) is suggested one.
            let (h, s, l) = hsl()
            return "\(h) \(s) \(l)\(alpha.map { " / \($0)" } ?? "")"
        case .hsl(let commas):
            let (h, s, l) = hsl()
            if commas { return alpha.map { "hsl(\(h), \(s), \(l), \($0))" } ?? "hsl(\(h), \(s), \(l))" }
            return "hsl(\(h) \(s) \(l)\(alpha.map { " / \($0)" } ?? ""))"
        case .rgb(let commas):
            let v = color.srgb * 255
            let (r, g, b) = (n(v.x, 0), n(v.y, 0), n(v.z, 0))
            if commas { return alpha.map { "rgb(\(r), \(g), \(b), \($0))" } ?? "rgb(\(r), \(g), \(b))" }
            return "rgb(\(r) \(g) \(b)\(alpha.map { " / \($0)" } ?? ""))"
        case .oklch(let percent):
            let c = srgb.converted(to: .oklch).coordinates
            let l = percent ? n(c.x * 100, 1) + "%" : n(c.x, 3)
            // Chroma rounded down, toward the gray axis: a color of sRGB stays in it where the
            // nearest rounding can carry a saturated one a hair outside (a new user's pass, stop
            // 49: `oklch(0.328 0.134 26.948)` for #690006 had red 1.0007).
            var scale = 1.0
            for _ in 0..<(3 + extraDigits) { scale *= 10 }
            let chroma = n((c.y * scale).rounded(.down) / scale, 3)
            let hue = chroma == "0" || !c.z.isFinite ? "0" : n(c.z, 3)
            return "oklch(\(l) \(chroma) \(hue == "360" ? "0" : hue)\(alpha.map { " / \($0)" } ?? ""))"
        }
    }
}
