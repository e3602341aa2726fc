/// A color as coordinates in one color space plus straight (non-premultiplied) alpha.
///
/// Coordinates are in the conventional ranges of CSS Color 4 §4 for each space:
/// - `srgb`, `srgb-linear`, `display-p3`, `rec2020`: r, g, b nominally `0...1` (may lie outside
///   before gamut mapping);
/// - `xyz-d65`, `xyz-d50`: X, Y, Z with Y of reference white = 1;
/// - `lab` (D50): L `0...100`, a, b about `-125...125`; `lch`: L, C `0...150`, h degrees `[0, 360)`;
/// - `oklab`: L `0...1`, a, b about `-0.4...0.4`; `oklch`: L `0...1`, C `0...0.4`, h degrees;
/// - `hsl`: h degrees, s and l in percent `0...100`; `hwb`: h degrees, w and b in percent.
///
/// A CSS `none` component is stored as 0 (CSS Color 4 §4.4: treated as zero when converting);
/// `isNone` remembers which components were `none` so a hue can be reported as missing.
public struct Color: Sendable, Equatable, Hashable {
    /// The space the coordinates are expressed in.
    public var space: ColorSpace
    /// Three coordinates in `space` (see the type's documentation for units).
    public var coordinates: SIMD3<Double>
    /// Straight alpha `0...1` (clamped by the parser, CSS Color 4 §4.2).
    public var alpha: Double
    /// Which of the three coordinates were given as the keyword `none`.
    public var isNone: ComponentFlags

    /// Whether alpha was the keyword `none` (stored as 0 by the parser; `color-mix()` then takes
    /// the other color's alpha, CSS Color 4 §12.3). Kept in `isNone`'s fourth flag.
    public var alphaIsNone: Bool {
        get { isNone[3] }
        set { isNone[3] = newValue }
    }

    /// Creates a color; `alpha` is stored as given (callers validate ranges).
    public init(space: ColorSpace, coordinates: SIMD3<Double>, alpha: Double = 1,
                isNone: ComponentFlags = ComponentFlags(repeating: false)) {
        self.space = space
        self.coordinates = coordinates
        self.alpha = alpha
        self.isNone = isNone
    }

    /// An sRGB color from gamma-encoded components `0...1`.
    public static func srgb(_ r: Double, _ g: Double, _ b: Double, alpha: Double = 1) -> Color {
        Color(space: .srgb, coordinates: SIMD3(r, g, b), alpha: alpha)
    }

    /// An sRGB color from 8-bit components `0...255`.
    public static func srgb8(_ r: Int, _ g: Int, _ b: Int, alpha: Double = 1) -> Color {
        Color(space: .srgb, coordinates: SIMD3(Double(r), Double(g), Double(b)) / 255, alpha: alpha)
    }
}

/// The color spaces of CSS Color 4 (§10 predefined spaces, §9 Lab/LCH, OKLab/OKLCH; §7 HSL; §8 HWB).
public enum ColorSpace: String, Sendable, CaseIterable, Hashable {
    case srgb
    case srgbLinear = "srgb-linear"
    case displayP3 = "display-p3"
    case rec2020
    case xyzD65 = "xyz-d65"
    case xyzD50 = "xyz-d50"
    case lab
    case lch
    case oklab
    case oklch
    case hsl
    case hwb

    /// Index of the hue coordinate for polar spaces (`lch`, `oklch`: 2; `hsl`, `hwb`: 0), else nil.
    public var hueIndex: Int? {
        switch self {
        case .lch, .oklch: return 2
        case .hsl, .hwb: return 0
        default: return nil
        }
    }
}

/// Three per-component flags (e.g. which coordinates were the CSS keyword `none`).
public struct ComponentFlags: Sendable, Equatable, Hashable {
    private var bits: UInt8 = 0

    /// All three flags set to `value`.
    public init(repeating value: Bool) { bits = value ? 0b111 : 0 }

    /// Flags from three booleans.
    public init(_ c0: Bool, _ c1: Bool, _ c2: Bool) {
        self[0] = c0
        self[1] = c1
        self[2] = c2
    }

    /// Flag of component `index` `0...2`; index 3 is alpha (`Color.alphaIsNone`).
    public subscript(index: Int) -> Bool {
        get { bits & (1 << UInt8(index)) != 0 }
        set { if newValue { bits |= 1 << UInt8(index) } else { bits &= ~(1 << UInt8(index)) } }
    }
}
