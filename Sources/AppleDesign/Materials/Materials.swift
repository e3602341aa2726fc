// Apple materials (blur + tint) and vibrancy, as documented approximations.
//
// Source: HIG Materials (https://developer.apple.com/design/human-interface-guidelines/materials):
// iOS offers ultraThin, thin, regular (default) and thick materials (plus chrome for bars);
// "thicker materials, which are more opaque, can provide better contrast"; labels have four
// vibrancy levels, fills three and separators one; avoid quaternary label vibrancy on thin and
// ultraThin "because the contrast is too low". Apple publishes no RGBA values for materials: the
// tints come from community approximations (sources §7) and are LOW confidence.
//
// Model: a material is a flat tint with alpha composited source-over whatever content lies behind
// it (blur, saturation and vibrancy blend modes are not modelled). Since the content is unknown,
// contrast is reported as a range over content from black to white (or over given content).

/// The iOS standard materials, thinnest to thickest, plus chrome (bars).
import ColorScience
public enum AppleMaterialKind: String, Sendable, CaseIterable, Hashable {
    case ultraThin, thin, regular, thick, chrome

    /// True for the materials on which the HIG advises against quaternary label vibrancy.
    public var discouragesQuaternaryLabel: Bool { self == .ultraThin || self == .thin }
}

/// One material's approximate tint per appearance.
public struct AppleMaterial: Sendable {
    /// Which material.
    public var kind: AppleMaterialKind
    /// UIKit name, e.g. `UIBlurEffect.Style.systemThinMaterial`.
    public var uikitName: String
    /// SwiftUI name, e.g. `Material.thinMaterial`.
    public var swiftUIName: String
    /// Tint (sRGB 0–255) and alpha `0...1` per appearance; approximate.
    public var tint: [AppleAppearance: AppleRGBA]
    /// Where each appearance's tint comes from.
    public var source: [AppleAppearance: String]

    /// A material from plain values (decoded by the API layer).
    public init(kind: AppleMaterialKind, uikitName: String, swiftUIName: String,
                tint: [AppleAppearance: AppleRGBA], source: [AppleAppearance: String]) {
        self.kind = kind
        self.uikitName = uikitName
        self.swiftUIName = swiftUIName
        self.tint = tint
        self.source = source
    }
}

/// The vibrancy levels of content on a material (`UIVibrancyEffectStyle`): four for labels,
/// three for fills, one for separators (HIG Materials).
public enum AppleVibrancyLevel: String, Sendable, CaseIterable, Hashable {
    case label, secondaryLabel, tertiaryLabel, quaternaryLabel
    case fill, secondaryFill, tertiaryFill
    case separator

    /// The semantic system color that approximates this level (see the file notes).
    public var systemColorName: String {
        switch self {
        case .label, .secondaryLabel, .tertiaryLabel, .quaternaryLabel: return rawValue
        case .fill: return "systemFill"
        case .secondaryFill: return "secondarySystemFill"
        case .tertiaryFill: return "tertiarySystemFill"
        case .separator: return "separator"
        }
    }

    /// True for the label levels (text); fills and separators are non-text.
    public var isText: Bool {
        switch self {
        case .label, .secondaryLabel, .tertiaryLabel, .quaternaryLabel: return true
        default: return false
        }
    }
}

/// The accessibility settings a material is evaluated under.
public enum AppleMaterialMode: String, Sendable, CaseIterable, Hashable {
    /// Default settings: the translucent material over the content.
    case standard
    /// Reduce Transparency on: the material becomes opaque (approximated by its tint at alpha 1).
    case reduceTransparency
    /// Increase Contrast on: the increased-contrast label, fill and separator colors; the tint is
    /// unchanged (no source gives increased-contrast material tints).
    case increaseContrast
}

/// Contrast of one foreground over a material across the content behind it.
public struct AppleMaterialContrast: Sendable {
    /// Lowest WCAG ratio `1...21` over the content samples (the worst case), unrounded.
    public var minRatio: Double
    /// Highest WCAG ratio over the content samples.
    public var maxRatio: Double
    /// The content color (gamma-encoded sRGB `0...1`) that gives `minRatio`.
    public var worstContent: SIMD3<Double>
    /// The opaque material surface over `worstContent`.
    public var worstSurface: SIMD3<Double>
    /// The composited foreground over `worstSurface`.
    public var worstForeground: SIMD3<Double>
    /// APCA Lc of smallest magnitude over the content samples (sign kept), `-108...106`.
    public var minLc: Double
}

/// Material surfaces and contrast over unknown content.
public enum AppleMaterials {
    /// 256 gray content colors from black to white (gamma-encoded sRGB `0...1`).
    public static let grayContent: [SIMD3<Double>] = (0...255).map { SIMD3(repeating: Double($0) / 255) }

    /// The opaque surface a material shows over `content`: the tint source-over the content, or
    /// the tint alone (opaque) when `reduceTransparency` is on.
    public static func surface(tint: AppleRGBA, over content: SIMD3<Double>, reduceTransparency: Bool) -> SIMD3<Double> {
        if reduceTransparency { return tint.srgb }
        return Compositing.sourceOver(tint.srgb, alpha: tint.alpha, overOpaque: content)
    }

    /// Contrast of `foreground` (composited, translucent allowed) on the material over each of
    /// `contents` (opaque, gamma-encoded sRGB `0...1`; non-empty, else black to white).
    public static func contrast(of foreground: DisplayColor, tint: AppleRGBA, contents: [SIMD3<Double>],
                                reduceTransparency: Bool) -> AppleMaterialContrast {
        let samples = contents.isEmpty ? grayContent : contents
        var result: AppleMaterialContrast?
        var maxRatio = 1.0
        var minLc = Double.infinity
        var lcAtMin = 0.0
        for content in samples {
            let surface = surface(tint: tint, over: content, reduceTransparency: reduceTransparency)
            let m = ContrastMeasurement.opaque(foreground: foreground, background: surface)
            maxRatio = max(maxRatio, m.ratio)
            if abs(m.apcaLc) < minLc { minLc = abs(m.apcaLc); lcAtMin = m.apcaLc }
            if result == nil || m.ratio < result!.minRatio {
                result = AppleMaterialContrast(minRatio: m.ratio, maxRatio: 0, worstContent: content, worstSurface: surface,
                                               worstForeground: m.effectiveForeground, minLc: 0)
            }
            if reduceTransparency { break }  // the surface does not depend on the content
        }
        var r = result!
        r.maxRatio = maxRatio
        r.minLc = lcAtMin
        return r
    }
}
