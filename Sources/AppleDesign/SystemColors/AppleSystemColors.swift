// Apple (iOS/iPadOS) dynamic system colors: the trait context a color resolves in, the catalog of
// system colors, and lookup by name and context.
//
// Sources: the HIG Color and Dark Mode pages
// (https://developer.apple.com/design/human-interface-guidelines/color, …/dark-mode) and the
// runtime dumps and tables collected in docs/apple-system-colors-sources.md. This file holds no
// color values: the API layer decodes `apple_system_colors.json` and hands the catalog plain
// values (`AppleSystemColorCatalog.init`).

/// `UIUserInterfaceStyle`: light or dark appearance.
import ColorScience
public enum AppleAppearance: String, Sendable, CaseIterable, Hashable {
    case light, dark
}

/// `UIUserInterfaceLevel`: base, or elevated (popovers, sheets, multitasking; HIG Dark Mode).
/// Elevated changes only the dark background colors (sources §1); in light appearance it is
/// identical to base.
public enum AppleInterfaceLevel: String, Sendable, CaseIterable, Hashable {
    case base, elevated
}

/// `UIAccessibilityContrast`: standard, or increased (Settings › Accessibility › Increase Contrast).
public enum AppleContrastSetting: String, Sendable, CaseIterable, Hashable {
    case standard, increased
}

/// A generation of Apple's system color catalog.
///
/// The tints (and `separator`) differ between generations; backgrounds, labels, fills and grays
/// did not change from iOS 16 to iOS 26 (sources §6, §4).
public enum AppleCatalogGeneration: String, Sendable, CaseIterable, Hashable {
    /// iOS 15–18: the HIG table until 9 June 2025.
    case ios15to18 = "ios15-18"
    /// iOS 26 ("Liquid Glass"): HIG update of 9 June 2025, "Updated system color values".
    case ios26

    /// The generation used when a request names none.
    public static let newest: AppleCatalogGeneration = .ios26

    /// Human-readable name, e.g. "iOS 15–18".
    public var title: String {
        switch self {
        case .ios15to18: return "iOS 15–18"
        case .ios26: return "iOS 26"
        }
    }
}

/// The traits a dynamic system color resolves in: appearance, level, contrast, and the catalog
/// generation. Defaults: light, base, standard, newest generation.
public struct AppleColorContext: Sendable, Hashable {
    /// Light or dark (`UIUserInterfaceStyle`).
    public var appearance: AppleAppearance
    /// Base or elevated (`UIUserInterfaceLevel`); only changes dark backgrounds.
    public var level: AppleInterfaceLevel
    /// Standard or increased contrast (`UIAccessibilityContrast`).
    public var contrast: AppleContrastSetting
    /// The catalog generation (iOS 15–18 or iOS 26).
    public var generation: AppleCatalogGeneration

    /// A context; every trait defaults to the service default (light, base, standard, newest).
    public init(appearance: AppleAppearance = .light, level: AppleInterfaceLevel = .base,
                contrast: AppleContrastSetting = .standard, generation: AppleCatalogGeneration = .newest) {
        self.appearance = appearance
        self.level = level
        self.contrast = contrast
        self.generation = generation
    }

    /// Light, base, standard contrast, newest generation.
    public static let `default` = AppleColorContext()

    /// The level whose values apply: light elevated resolves exactly as light base, because the
    /// elevated level only changes dark colors (HIG Dark Mode; sources §1).
    public var effectiveLevel: AppleInterfaceLevel { appearance == .light ? .base : level }

    /// The catalog variant this context reads.
    public var variant: AppleColorVariant {
        AppleColorVariant(appearance: appearance, contrast: contrast, level: effectiveLevel)
    }

    /// True when the context names `elevated` in light appearance, which is allowed and
    /// resolves as base.
    public var isLightElevated: Bool { appearance == .light && level == .elevated }

    /// A short identifier: `light`, `light-increased`, `dark-base`, `dark-elevated`,
    /// `dark-increased-base`, `dark-increased-elevated` (light elevated reads `light-elevated`).
    public var id: String {
        var parts = [appearance.rawValue]
        if contrast == .increased { parts.append("increased") }
        if appearance == .dark || level == .elevated { parts.append(level.rawValue) }
        return parts.joined(separator: "-")
    }

    /// The six distinct trait combinations a color can be shown in: light and dark base/elevated,
    /// each with standard and increased contrast (light elevated is omitted: it equals light base).
    public static func distinctContexts(generation: AppleCatalogGeneration = .newest) -> [AppleColorContext] {
        [
            AppleColorContext(appearance: .light, level: .base, contrast: .standard, generation: generation),
            AppleColorContext(appearance: .dark, level: .base, contrast: .standard, generation: generation),
            AppleColorContext(appearance: .dark, level: .elevated, contrast: .standard, generation: generation),
            AppleColorContext(appearance: .light, level: .base, contrast: .increased, generation: generation),
            AppleColorContext(appearance: .dark, level: .base, contrast: .increased, generation: generation),
            AppleColorContext(appearance: .dark, level: .elevated, contrast: .increased, generation: generation),
        ]
    }
}

/// One stored variant of a system color: appearance, contrast and level. Values that do not
/// depend on the level are stored under `.base`.
public struct AppleColorVariant: Sendable, Hashable {
    /// Light or dark.
    public var appearance: AppleAppearance
    /// Standard or increased contrast.
    public var contrast: AppleContrastSetting
    /// Elevated only for values that differ by level (dark backgrounds); else `.base`.
    public var level: AppleInterfaceLevel

    /// A variant; `level` defaults to `.base` (level-independent values).
    public init(appearance: AppleAppearance, contrast: AppleContrastSetting, level: AppleInterfaceLevel = .base) {
        self.appearance = appearance
        self.contrast = contrast
        self.level = level
    }
}

/// The groups of the catalog (HIG Color, "Dynamic system colors").
public enum AppleColorCategory: String, Sendable, CaseIterable, Hashable {
    /// systemBackground, secondarySystemBackground, tertiarySystemBackground (opaque).
    case background
    /// systemGroupedBackground and its secondary/tertiary levels (opaque).
    case groupedBackground
    /// label, secondaryLabel, tertiaryLabel, quaternaryLabel, placeholderText (translucent).
    case label
    /// systemFill … quaternarySystemFill (translucent).
    case fill
    /// separator (translucent) and opaqueSeparator.
    case separator
    /// systemGray … systemGray6 (opaque).
    case gray
    /// systemRed, systemBlue, … (opaque accent colors).
    case tint
    /// link.
    case link
}

/// How well a value is supported by its sources (sources §12).
public enum AppleConfidence: String, Sendable, CaseIterable, Hashable {
    case high, medium, low, unknown
}

/// A color as Apple's sources publish it: sRGB channels on the 0–255 scale and straight alpha.
public struct AppleRGBA: Sendable, Hashable {
    /// Gamma-encoded sRGB red `0...255` (8-bit values as published).
    public var red: Double
    /// Gamma-encoded sRGB green `0...255`.
    public var green: Double
    /// Gamma-encoded sRGB blue `0...255`.
    public var blue: Double
    /// Straight alpha `0...1` (UIKit stores 8 bits: 0.6 = 153/255, 0.298 = 76/255).
    public var alpha: Double

    /// A color from channels `0...255` and alpha `0...1`, stored as given (see `isValid`).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Gamma-encoded sRGB channels `0...1`.
    public var srgb: SIMD3<Double> { SIMD3(red, green, blue) / 255 }

    /// The color as a screen shows it (sRGB, straight alpha).
    public var displayColor: DisplayColor { DisplayColor(srgb: srgb, alpha: alpha) }

    /// The color as a `Color` in sRGB.
    public var color: Color { Color.srgb(red / 255, green / 255, blue / 255, alpha: alpha) }

    /// The 8-bit alpha a published alpha stands for. UIKit stores alpha in 8 bits and sources
    /// print it rounded to three decimals (0.298 for 76/255, 0.678 for 173/255; sources
    /// "Conventions"), so an alpha within 0.0005 of some n/255 is taken as n/255. Alphas printed
    /// with fewer decimals that are no such rounding (0.12, 0.5) are kept as published.
    public static func eightBitAlpha(_ alpha: Double) -> Double {
        guard alpha.isFinite else { return alpha }
        let n = (alpha * 255).rounded()
        return abs(alpha - n / 255) <= 0.0005 + 1e-12 ? n / 255 : alpha
    }

    /// True when every channel lies in `0...255` and alpha in `0...1`, all finite.
    public var isValid: Bool {
        [red, green, blue].allSatisfy { $0.isFinite && (0...255).contains($0) } && alpha.isFinite && (0...1).contains(alpha)
    }
}

/// One named system color with its values per generation and variant.
public struct AppleSystemColor: Sendable {
    /// Apple's name, case-sensitive, e.g. `secondaryLabel` (UIKit `UIColor.secondaryLabel`).
    public var name: String
    /// The catalog group the color belongs to.
    public var category: AppleColorCategory
    /// Values per generation and variant. A variant missing from a generation means no source
    /// gives it; lookup then falls back (see `AppleSystemColorCatalog.resolve`).
    public var values: [AppleCatalogGeneration: [AppleColorVariant: AppleRGBA]]
    /// Where each generation's values sit in the data file, e.g. `tints.iOS26.systemBlue`.
    public var entries: [AppleCatalogGeneration: String]

    /// A catalog entry from plain values (decoded by the API layer).
    public init(name: String, category: AppleColorCategory,
                values: [AppleCatalogGeneration: [AppleColorVariant: AppleRGBA]],
                entries: [AppleCatalogGeneration: String]) {
        self.name = name
        self.category = category
        self.values = values
        self.entries = entries
    }

    /// The stored value for `variant` in `generation`, using the base value when the variant is
    /// elevated and the color does not depend on the level.
    public func storedValue(_ variant: AppleColorVariant, in generation: AppleCatalogGeneration) -> AppleRGBA? {
        guard let table = values[generation] else { return nil }
        if let v = table[variant] { return v }
        if variant.level == .elevated {
            return table[AppleColorVariant(appearance: variant.appearance, contrast: variant.contrast, level: .base)]
        }
        return nil
    }

    /// True when the value differs between base and elevated in some dark context.
    public var dependsOnLevel: Bool {
        values.values.contains { table in table.keys.contains { $0.level == .elevated } }
    }
}

/// Where values of a category (or one color) come from, and how sure they are. Nil fields match
/// anything; the most specific matching rule wins.
public struct AppleColorProvenance: Sendable {
    /// One color's name, or nil for a category rule.
    public var name: String?
    /// The category the rule covers, or nil.
    public var category: AppleColorCategory?
    /// The requested generation the rule covers, or nil for both.
    public var generation: AppleCatalogGeneration?
    /// The appearance the rule covers, or nil for both.
    public var appearance: AppleAppearance?
    /// The contrast setting the rule covers, or nil for both.
    public var contrast: AppleContrastSetting?
    /// How well the sources support the values (sources §12).
    public var confidence: AppleConfidence
    /// The sources, in words, with the section of the sources document.
    public var source: String

    /// A rule; nil fields match anything.
    public init(name: String? = nil, category: AppleColorCategory? = nil, generation: AppleCatalogGeneration? = nil,
                appearance: AppleAppearance? = nil, contrast: AppleContrastSetting? = nil,
                confidence: AppleConfidence, source: String) {
        self.name = name
        self.category = category
        self.generation = generation
        self.appearance = appearance
        self.contrast = contrast
        self.confidence = confidence
        self.source = source
    }

    func matches(_ color: AppleSystemColor, _ context: AppleColorContext) -> Bool {
        (name == nil || name == color.name) && (category == nil || category == color.category)
            && (generation == nil || generation == context.generation)
            && (appearance == nil || appearance == context.appearance)
            && (contrast == nil || contrast == context.contrast)
    }

    var specificity: Int {
        (name != nil ? 8 : 0) + (generation != nil ? 2 : 0) + (appearance != nil ? 1 : 0) + (contrast != nil ? 1 : 0)
            + (category != nil ? 1 : 0)
    }
}

/// A place where sources disagree (or a value needs a caveat): which value is used and what the
/// other source says. Nil fields match anything.
public struct AppleSourceNote: Sendable {
    /// The color the note is about.
    public var name: String
    /// The requested generation it applies to, or nil for both.
    public var generation: AppleCatalogGeneration?
    /// The appearance it applies to, or nil for both.
    public var appearance: AppleAppearance?
    /// The effective level it applies to, or nil for both.
    public var level: AppleInterfaceLevel?
    /// The contrast setting it applies to, or nil for both.
    public var contrast: AppleContrastSetting?
    /// What is used and why, for a person.
    public var text: String
    /// The value another source gives, if any.
    public var alternative: AppleRGBA?
    /// Which source gives `alternative`.
    public var alternativeSource: String?

    /// A note; nil fields match anything.
    public init(name: String, generation: AppleCatalogGeneration? = nil, appearance: AppleAppearance? = nil,
                level: AppleInterfaceLevel? = nil, contrast: AppleContrastSetting? = nil, text: String,
                alternative: AppleRGBA? = nil, alternativeSource: String? = nil) {
        self.name = name
        self.generation = generation
        self.appearance = appearance
        self.level = level
        self.contrast = contrast
        self.text = text
        self.alternative = alternative
        self.alternativeSource = alternativeSource
    }

    func matches(_ name: String, _ context: AppleColorContext) -> Bool {
        self.name == name && (generation == nil || generation == context.generation)
            && (appearance == nil || appearance == context.appearance)
            && (level == nil || level == context.effectiveLevel)
            && (contrast == nil || contrast == context.contrast)
    }
}

/// What a system color name resolved to in a context, with its provenance.
public struct AppleColorResolution: Sendable {
    /// The color's name.
    public var name: String
    /// The color's catalog group.
    public var category: AppleColorCategory
    /// The context as requested (a light elevated request keeps `level == .elevated`).
    public var context: AppleColorContext
    /// The value used.
    public var value: AppleRGBA
    /// The generation whose data gave the value (differs from `context.generation` only when the
    /// requested generation has no value and another generation's is used; see `notes`).
    public var valueGeneration: AppleCatalogGeneration
    /// Path of the value in the data file, e.g. `backgrounds.systemBackground.dark_elevated`.
    public var entry: String
    /// How well the sources support the value.
    public var confidence: AppleConfidence
    /// The sources of the value, in words, with the section of the sources document.
    public var source: String
    /// Caveats: fallbacks, light elevated, disagreements between sources.
    public var notes: [String]
    /// Values other sources give for the same color and context.
    public var alternatives: [(value: AppleRGBA, source: String)]
}

/// The catalog of system colors: lookup by case-sensitive name, resolution in a context, and
/// close-match suggestions for unknown names.
public struct AppleSystemColorCatalog: Sendable {
    /// All colors in data-file order.
    public let colors: [AppleSystemColor]
    /// Provenance rules (most specific match wins).
    public let provenance: [AppleColorProvenance]
    /// Disagreements and caveats, attached to matching resolutions.
    public let notes: [AppleSourceNote]
    private let index: [String: Int]

    /// Builds a catalog. Later duplicates of a name are ignored.
    public init(colors: [AppleSystemColor], provenance: [AppleColorProvenance] = [], notes: [AppleSourceNote] = []) {
        var index: [String: Int] = [:]
        var unique: [AppleSystemColor] = []
        for c in colors where index[c.name] == nil {
            index[c.name] = unique.count
            unique.append(c)
        }
        self.colors = unique
        self.index = index
        self.provenance = provenance
        self.notes = notes
    }

    /// All names in catalog order.
    public var names: [String] { colors.map(\.name) }

    /// The color called exactly `name` (case-sensitive), or nil.
    public func color(named name: String) -> AppleSystemColor? {
        index[name].map { colors[$0] }
    }

    /// The names in `category`, in catalog order.
    public func names(in category: AppleColorCategory) -> [String] {
        colors.filter { $0.category == category }.map(\.name)
    }

    /// The opaque system backgrounds a color can sit on: the three background levels and the
    /// three grouped background levels.
    public var backgroundNames: [String] {
        colors.filter { $0.category == .background || $0.category == .groupedBackground }.map(\.name)
    }

    /// Resolves `name` (case-sensitive) in `context`, or nil for an unknown name.
    ///
    /// Lookup order: the requested generation's value for the variant (level-independent colors
    /// use their base value at both levels); when that generation has none (e.g. `link` on iOS
    /// 26, the increased-contrast `separator` on iOS 26), the other generation's value, with a
    /// note saying so.
    public func resolve(_ name: String, in context: AppleColorContext) -> AppleColorResolution? {
        guard let color = color(named: name) else { return nil }
        let variant = context.variant
        var notes: [String] = []
        var generation = context.generation
        var value = color.storedValue(variant, in: generation)
        if value == nil {
            for other in AppleCatalogGeneration.allCases where other != generation {
                if let v = color.storedValue(variant, in: other) {
                    notes.append("No source gives \(name) for \(generation.title) in this context; the \(other.title) value is used.")
                    value = v
                    generation = other
                    break
                }
            }
        }
        guard let value else { return nil }
        if context.isLightElevated {
            notes.append("Light elevated resolves as light base: the elevated level only changes dark background colors (HIG Dark Mode).")
        }
        var alternatives: [(value: AppleRGBA, source: String)] = []
        for note in self.notes where note.matches(name, context) {
            notes.append(note.text)
            if let alt = note.alternative { alternatives.append((alt, note.alternativeSource ?? "another source")) }
        }
        let rule = provenance.filter { $0.matches(color, context) }.max { $0.specificity < $1.specificity }
        let entry = (color.entries[generation] ?? name) + "." + AppleSystemColorCatalog.variantKey(variant, levelDependent: color.dependsOnLevel)
        return AppleColorResolution(
            name: name, category: color.category, context: context, value: value, valueGeneration: generation,
            entry: entry, confidence: rule?.confidence ?? .unknown,
            source: rule?.source ?? "apple_system_colors.json", notes: notes, alternatives: alternatives)
    }

    /// The key of a variant in the data file: `light`, `light_IC`, `dark`, `dark_IC`, and for
    /// level-dependent colors `dark_base`, `dark_elevated`, `dark_IC_base`, `dark_IC_elevated`.
    public static func variantKey(_ v: AppleColorVariant, levelDependent: Bool) -> String {
        var key = v.appearance.rawValue
        if v.contrast == .increased { key += "_IC" }
        if levelDependent && v.appearance == .dark { key += "_" + v.level.rawValue }
        return key
    }

    /// Up to `limit` catalog names close to `text` (see `NameSuggestions`).
    public func suggestions(for text: String, limit: Int = 3) -> [String] {
        NameSuggestions.suggestions(for: text, among: names, limit: limit)
    }
}

/// Contrast of (possibly translucent) colors on Apple surfaces, composited as UIKit draws them:
/// source-over with straight alpha in gamma-encoded sRGB (sources §10).
public enum AppleCompositing {
    /// The label hierarchy from most to least prominent (HIG Color, "Foreground").
    public static let labelNames = ["label", "secondaryLabel", "tertiaryLabel", "quaternaryLabel", "placeholderText"]

    /// The opaque surface a translucent `surface` color makes over an opaque `behind` color
    /// (e.g. a custom translucent background over systemBackground). Opaque surfaces are returned
    /// unchanged.
    public static func flatten(_ surface: DisplayColor, over behind: SIMD3<Double>) -> SIMD3<Double> {
        surface.alpha >= 1 ? surface.srgb : Compositing.sourceOver(surface.srgb, alpha: surface.alpha, overOpaque: behind)
    }

    /// WCAG ratio and APCA Lc of `foreground` (translucent allowed: composited first) on the
    /// opaque `surface`.
    public static func measure(_ foreground: DisplayColor, on surface: SIMD3<Double>) -> ContrastMeasurement {
        ContrastMeasurement.opaque(foreground: foreground, background: surface)
    }

    /// A custom label color at the prominence of a system label level: the custom color with its
    /// alpha multiplied by the system level's alpha (label 1, secondaryLabel 0.6, … in light).
    public static func customLabel(_ base: DisplayColor, like system: AppleRGBA) -> DisplayColor {
        DisplayColor(srgb: base.srgb, alpha: min(max(base.alpha * system.alpha, 0), 1), wasGamutMapped: base.wasGamutMapped)
    }
}
