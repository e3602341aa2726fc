import Foundation

/// Why a string is not a usable CSS color.
public enum ColorParseError: Error, Equatable, Sendable {
    /// Not a valid CSS `<color>` (CSS Color 4 §4); the message says what is wrong, e.g.
    /// "hex color must have 3, 4, 6 or 8 digits, got 5".
    case invalid(String)
    /// Valid CSS, but its value depends on a document (current color, system colors, the
    /// cascade, custom properties, `calc()` …); the message names the feature, e.g.
    /// "currentcolor depends on the element's color and is not supported".
    case unsupported(String)

    /// The human-readable explanation carried by either case.
    public var message: String {
        switch self {
        case .invalid(let m), .unsupported(let m): return m
        }
    }

    /// Whether the color is refused for a number past `CSSColorParser.maximumComponentMagnitude`
    /// (a `calc()` that comes to 2e6, or to infinity) rather than for its form.
    public var isOutOfRange: Bool {
        if case .invalid(let m) = self { return m.hasSuffix(Self.outOfRangeReason) }
        return false
    }

    /// How every out-of-range message ends (`isOutOfRange`).
    static let outOfRangeReason = "is out of the supported range (magnitude above 1e6)"
}

/// Digit order of 4- and 8-digit hex colors.
public enum HexOrder: String, Sendable, CaseIterable {
    /// CSS order `#RRGGBBAA` / `#RGBA` (CSS Color 4 §5.2); the default.
    case rgba
    /// `#AARRGGBB` / `#ARGB` (Android, .NET); only when the caller asks for it explicitly.
    case argb
}

/// A CSS Color 4 `<color>` parser that agrees with browsers (Chromium) on what is valid.
///
/// Accepts (ASCII case-insensitive, surrounding CSS whitespace and comments ignored, a missing
/// final `)` accepted as CSS does at end of input):
/// - hex `#rgb #rgba #rrggbb #rrggbbaa` (§5.2) → `.srgb`;
/// - the 148 named colors and `transparent` (§6.1) → `.srgb`;
/// - `rgb()`/`rgba()` (§5.1), legacy comma syntax (all numbers or all percentages, no `none`)
///   and modern space syntax (`none`, mixed numbers/percentages, `/ alpha`) → `.srgb` `0...1`,
///   channels clamped to `0...255` (`0%...100%`) at parse time;
/// - `hsl()`/`hsla()` (§7, legacy and modern) → `.hsl` (h degrees `[0, 360)`, s and l in
///   percent; a negative saturation is clamped to 0% at parse time, §7.1, nothing else is); `hwb()` (§8) → `.hwb` (w and b in percent as given; w + b > 100%
///   is normalised when converting);
/// - `lab()` (L: 100% = 100, a/b: 100% = 125), `lch()` (C: 100% = 150), `oklab()`
///   (L: 100% = 1, a/b: 100% = 0.4), `oklch()` (C: 100% = 0.4) (§9) → their own spaces;
///   lightness is clamped to `0...100` (Lab, LCH) or `0...1` (OKLab, OKLCH) and negative
///   LCH/OKLCH chroma to 0 at parse time (§9.1–§9.4);
/// - `color()` (§10) with `srgb`, `srgb-linear`, `display-p3`, `rec2020`, `xyz`/`xyz-d65`
///   (→ `.xyzD65`), `xyz-d50`, where 100% = 1; also `a98-rgb` (converted exactly to
///   `.xyzD65`) and `prophoto-rgb` (converted exactly to `.xyzD50`), which have no
///   `ColorSpace` case.
///
/// Hues accept `deg grad rad turn` or a bare number (degrees) and are wrapped into
/// `[0, 360)`. Alpha (number or percentage) is clamped to `0...1`; `none` alpha is 0.
/// A `none` component is stored as 0 and flagged in `Color.isNone`.
public enum CSSColorParser {
    /// Longest input accepted, in Unicode scalars.
    public static let maximumLength = 1024
    /// Largest magnitude accepted for a component that is not clamped or wrapped (Lab, OKLab,
    /// HSL/HWB percentages, `color()` channels), after percentage scaling; equals
    /// `Color.maximumCoordinateMagnitude`, so conversions stay finite.
    public static let maximumComponentMagnitude = Color.maximumCoordinateMagnitude

    /// Parses a CSS color string in the default context (light color scheme, no variables,
    /// `#` required); see `parse(_:hexOrder:context:)`.
    ///
    /// - Parameters:
    ///   - text: the CSS text, e.g. `"#336699"`, `"rebeccapurple"`, `"rgb(51 102 153 / 50%)"`,
    ///     `"oklch(0.6 0.15 250)"`, `"color-mix(in oklab, #3b82f6 50%, transparent)"`; at most
    ///     `maximumLength` scalars.
    ///   - hexOrder: digit order for 4- and 8-digit hex colors (default CSS `#RRGGBBAA`).
    /// - Returns: the color (see `parse(_:hexOrder:context:)`).
    /// - Throws: as `parse(_:hexOrder:context:)`.
    public static func parse(_ text: String, hexOrder: HexOrder = .rgba) throws(ColorParseError) -> Color {
        // Fast path for the most common input, `#rrggbb` and friends, straight from UTF-8 bytes.
        if let color = fastHex(text, hexOrder: hexOrder) { return color }
        do {
            return try parseTokenized(text, hexOrder: hexOrder, colorScheme: .light).color
        } catch {
            throw strayCharacterError(text, hexOrder: hexOrder) ?? error
        }
    }

    /// Parses a CSS Color 4/5 color string as a browser computes it.
    ///
    /// Besides the CSS Color 4 syntaxes of the type documentation: `color-mix()` (CSS Color 5
    /// §3) in every interpolation space and hue method; relative colors (§4, `rgb(from …)`,
    /// `hsl`, `hwb`, `lab`, `lch`, `oklab`, `oklch`, `color(from … <space> …)`); CSS math
    /// functions (CSS Values 4 §10: `calc()`, `min()`, `max()`, `clamp()`, `round()`, `mod()`,
    /// `rem()`, `abs()`, `sign()`, trigonometric and exponential functions, `e`, `pi`,
    /// `infinity`, `NaN`) in any channel; `light-dark()` (§5) by `context.colorScheme`;
    /// `contrast-color()` (§6, as Chromium 156); `var()` from `context.variables`; and, when
    /// `context.acceptsBareHex`, 3, 4, 6 or 8 hex digits without `#` (no CSS named color is made
    /// of hex digits alone, so nothing is guessed).
    ///
    /// - Returns: the color in its source space (a `color-mix()` in its interpolation space),
    ///   alpha `0...1`, all coordinates finite; notes on what was read (a bare hex, the
    ///   `light-dark()` branch, a substitution); whether the value depends on the color scheme.
    /// - Throws: `ColorParseError.unsupported` for valid CSS that needs a document:
    ///   `currentcolor`, system colors (`Canvas`, `LinkText`, …), CSS-wide keywords (`inherit`,
    ///   …), `var()` without variables, `env()`, `attr()`, `if()`, `progress()`, `random()`,
    ///   `sibling-index()`. `ColorParseError.invalid` for anything else that is not a CSS color
    ///   (with a precise message), components beyond `maximumComponentMagnitude`, nesting deeper
    ///   than 24 functions, and `var()` problems (undefined name, cycle; see `CSSVariables`).
    public static func parse(_ text: String, hexOrder: HexOrder = .rgba,
                             context: CSSColorContext) throws(ColorParseError) -> CSSColorResult {
        if let color = fastHex(text, hexOrder: hexOrder) { return CSSColorResult(color: color) }
        if context.acceptsBareHex, let digits = bareHexDigits(text), let color = hexColor(Array(digits.utf8), hexOrder: hexOrder) {
            return CSSColorResult(color: color, notes: ["'\(digits)' has no '#': read as the hex color #\(digits), as design tools (Figma, Sketch, Xcode) write it"])
        }
        var source = text
        var notes: [String] = []
        /// "var(): '<text>' is '<source>'" and how, each shortened.
        func substituted(_ how: String) -> String {
            let shown = source.count > 120 ? String(source.prefix(117)) + "..." : source
            return "var(): '\(text.count > 80 ? String(text.prefix(77)) + "..." : text)' is '\(shown)'\(how)"
        }
        if let variables = context.variables, CSSVariables.mayReferToVariables(text) {
            if text.unicodeScalars.count > maximumLength {
                throw .invalid("color text is longer than \(maximumLength) characters")
            }
            source = try variables.substitute(in: text)
            notes.append(substituted(" with the variables substituted"))
        } else if context.variables == nil, CSSVariables.mayReferToVariables(text), text.unicodeScalars.count <= maximumLength,
                  let filled = try? CSSVariables([:]).substitute(in: text) {
            // Without variables, every var() with a fallback is its fallback, as in a document
            // that defines none of them (a new user's pass: `var(--brand, #777)` was a 422 asking
            // for variables); one without a fallback still needs them.
            source = filled
            notes.append(substituted(": no variables were given, so each var() is its fallback"))
        }
        do {
            let limit = source == text ? maximumLength : CSSVariables.maximumExpandedLength
            let (color, syntax) = try parseTokenized(source, hexOrder: hexOrder, colorScheme: context.colorScheme, maximumLength: limit)
            notes += syntax.notes
            return CSSColorResult(color: color, notes: notes, dependsOnColorScheme: syntax.dependsOnColorScheme)
        } catch {
            if case .unsupported(let why) = error, context.variables == nil, CSSVariables.mayReferToVariables(text) {
                throw .unsupported(why)
            }
            throw codeHexError(source) ?? strayCharacterError(source, hexOrder: hexOrder) ?? error
        }
    }

    /// For `0xRRGGBB` or `0xAARRGGBB` (a hex literal as Swift, Kotlin, Android's
    /// `Color(0xFF336699)` and JavaScript write a color), the CSS color it means (a new user's
    /// pass: "'0xFF0000' is a number, not a color" with no word of `#FF0000`). Nil otherwise.
    static func codeHexError(_ text: String) -> ColorParseError? {
        let t = text.trimmingCSSWhitespace
        guard t.hasPrefix("0x") || t.hasPrefix("0X"), let digits = bareHexDigits(String(t.dropFirst(2))) else { return nil }
        switch digits.count {
        case 6: return .invalid("'\(t)' is a hex number as code writes it, not a CSS color; did you mean '#\(digits)'?")
        case 8:
            let argb = digits.dropFirst(2) + digits.prefix(2)
            return .invalid("'\(t)' is a hex number as code writes it, not a CSS color; as Android's 0xAARRGGBB it is '#\(argb)' (CSS puts alpha last), as written '#\(digits)'")
        default: return nil
        }
    }

    /// A hex color (`#` and 3, 4, 6 or 8 hex digits, CSS whitespace around it allowed) without
    /// tokenizing, or nil for any other text (which `parse` then reads). The same color `parse`
    /// gives for such text, for callers that want the common case before building a context.
    public static func parseHexColor(_ text: String, hexOrder: HexOrder = .rgba) -> Color? {
        fastHex(text, hexOrder: hexOrder)
    }

    /// The hex digits of `text` when it is 3, 4, 6 or 8 hex digits and nothing else (CSS
    /// whitespace around them allowed), else nil.
    public static func bareHexDigits(_ text: String) -> String? {
        let t = text.trimmingCSSWhitespace
        let n = t.utf8.count
        guard n == 3 || n == 4 || n == 6 || n == 8, t.unicodeScalars.allSatisfy({ CSSTokenizer.isHexDigit($0) }) else { return nil }
        return t
    }

    /// For text that is not a color and holds a stray character (`CSSStrayCharacters`: U+00A0
    /// before `#fff`, U+000B before `red`): that character, where it is, and what the text is
    /// without it: "U+00A0 (no-break space) at character 1, before the color, is not whitespace
    /// CSS allows around a color (only space, tab, LF, CR and FF are); without it, '#fff' is a
    /// color". Nil when the text holds none (the tokenizer's message stands).
    static func strayCharacterError(_ text: String, hexOrder: HexOrder) -> ColorParseError? {
        guard let stray = CSSStrayCharacters.find(in: text) else { return nil }
        let it = stray.count == 1 ? "it" : "them"
        let rest = stray.remainder
        let quoted = rest.count > 40 ? "'\(rest.prefix(37))...'" : "'\(rest)'"
        if rest.isEmpty { return .invalid(stray.description) }
        do {
            _ = try parseTokenized(rest, hexOrder: hexOrder, colorScheme: .light)
            return .invalid("\(stray.description); without \(it), \(quoted) is a color")
        } catch {
            switch error {
            case .invalid(let why): return .invalid("\(stray.description); without \(it), \(quoted) is not a color either: \(why)")
            case .unsupported(let why): return .invalid("\(stray.description); without \(it), \(quoted) is valid CSS, but \(why)")
            }
        }
    }

    /// The full CSS Syntax 3 path (every syntax, precise error messages).
    static func parseTokenized(_ text: String, hexOrder: HexOrder, colorScheme: CSSColorScheme = .light,
                               maximumLength: Int = CSSColorParser.maximumLength) throws(ColorParseError) -> (color: Color, syntax: ColorSyntax) {
        let parser = try ColorSyntax.tokenizing(text, what: "color text", maximumLength: maximumLength,
                                                hexOrder: hexOrder, colorScheme: colorScheme)
        return (try parser.parseColor(), parser)
    }
}

/// What a color string is read in: the color scheme of `light-dark()`, the custom properties of
/// `var()`, and whether hex without `#` is accepted.
public struct CSSColorContext: Sendable, Equatable {
    /// `light-dark()` takes its first color under `.light`, its second under `.dark`.
    public var colorScheme: CSSColorScheme
    /// Custom properties for `var()`; nil: `var()` is unsupported (valid CSS needing a document).
    public var variables: CSSVariables?
    /// Read 3, 4, 6 or 8 bare hex digits (`1F2937`) as `#1F2937`, with a note.
    public var acceptsBareHex: Bool

    /// A context; the defaults are a light scheme, no variables, `#` required.
    public init(colorScheme: CSSColorScheme = .light, variables: CSSVariables? = nil, acceptsBareHex: Bool = false) {
        self.colorScheme = colorScheme
        self.variables = variables
        self.acceptsBareHex = acceptsBareHex
    }
}

/// A parsed color with what the caller should be told about how it was read.
public struct CSSColorResult: Sendable {
    /// The color (see `CSSColorParser.parse(_:hexOrder:context:)`).
    public var color: Color
    /// Sentences on how the text was read: a bare hex taken as `#…`, the `light-dark()` branch
    /// used, a `var()` substitution. Empty for plain colors.
    public var notes: [String] = []
    /// Whether a `light-dark()` made the color depend on the color scheme.
    public var dependsOnColorScheme = false
}

extension CSSColorParser {
    /// A hex color (`#` and 3, 4, 6 or 8 hex digits, CSS whitespace around it allowed) parsed from
    /// UTF-8 bytes without tokenizing; nil for anything else (the full parser then decides).
    static func fastHex(_ text: String, hexOrder: HexOrder) -> Color? {
        var text = text
        return text.withUTF8 { bytes -> Color? in
            var lo = 0, hi = bytes.count
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
            while lo < hi && isSpace(bytes[lo]) { lo += 1 }
            while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
            guard hi - lo >= 4, bytes[lo] == UInt8(ascii: "#") else { return nil }
            return hexColor(UnsafeBufferPointer(rebasing: bytes[(lo + 1)..<hi]), hexOrder: hexOrder)
        }
    }

    /// The color of 3, 4, 6 or 8 ASCII hex digits (CSS Color 4 §5.2), or nil when the digits are
    /// not that. Alpha is last unless `hexOrder` is `.argb`.
    static func hexColor<C: Collection>(_ digits: C, hexOrder: HexOrder) -> Color? where C.Element == UInt8 {
        let n = digits.count
        guard n == 3 || n == 4 || n == 6 || n == 8 else { return nil }
        var acc: UInt32 = 0
        for b in digits {
            let v: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            acc = acc << 4 | UInt32(v)
        }
        var r, g, b, a: UInt32
        switch n {
        case 3: (r, g, b, a) = ((acc >> 8 & 0xF) * 17, (acc >> 4 & 0xF) * 17, (acc & 0xF) * 17, 255)
        case 4: (r, g, b, a) = ((acc >> 12 & 0xF) * 17, (acc >> 8 & 0xF) * 17, (acc >> 4 & 0xF) * 17, (acc & 0xF) * 17)
        case 6: (r, g, b, a) = (acc >> 16 & 0xFF, acc >> 8 & 0xFF, acc & 0xFF, 255)
        default: (r, g, b, a) = (acc >> 24 & 0xFF, acc >> 16 & 0xFF, acc >> 8 & 0xFF, acc & 0xFF)
        }
        if (n == 4 || n == 8) && hexOrder == .argb { (r, g, b, a) = (g, b, a, r) }
        return Color(space: .srgb, coordinates: SIMD3(Double(r), Double(g), Double(b)) / 255, alpha: Double(a) / 255)
    }
}
