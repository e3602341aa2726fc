// Dynamic Type: iOS text styles at every content size category, and what a text size means for
// contrast (WCAG large text, required ratios, APCA minimum Lc, light-weight legibility).
//
// Sources:
// - HIG Typography (https://developer.apple.com/design/human-interface-guidelines/typography),
//   "iOS, iPadOS Dynamic Type sizes" and "larger accessibility type sizes" tables (the values are
//   data, decoded by the API layer); "In general, avoid light font weights … Ultralight, Thin, and
//   Light … can be difficult to see, especially when text is small."
// - WCAG 2.2 "large scale (text)": at least 18 pt, or 14 pt bold.
// - apca-w3 0.1.9 `fontLookupAPCA` (see APCAFontLookup.swift) for the APCA minimum Lc.
//
// Units: iOS points. For WCAG the HIG treats iOS points as typographic points (HIG Accessibility:
// "up to 17 pt → 4.5:1, 18 pt → 3:1"), so a style is large when its size is ≥ 18 pt (≥ 14 pt at
// weight ≥ 700). For APCA, whose table is in CSS px, one iOS point is taken as one CSS px (what a
// web view on the same screen shows), which errs on the strict side.

/// The system font weights (SF Pro), with their CSS weights.
import ColorScience
public enum AppleFontWeight: String, Sendable, CaseIterable, Hashable {
    case ultralight, thin, light, regular, medium, semibold, bold, heavy, black

    /// CSS / `UIFont.Weight`-order weight `100...900`.
    public var cssWeight: Int {
        switch self {
        case .ultralight: return 100
        case .thin: return 200
        case .light: return 300
        case .regular: return 400
        case .medium: return 500
        case .semibold: return 600
        case .bold: return 700
        case .heavy: return 800
        case .black: return 900
        }
    }

    /// The weight named `name` (case-insensitive; "ultraLight", "Semibold", …), or nil.
    public init?(name: String) {
        guard let w = AppleFontWeight.allCases.first(where: { $0.rawValue == name.lowercased() }) else { return nil }
        self = w
    }

    /// The system weight nearest to a CSS weight `1...1000` (ties go to the lighter weight).
    public init(cssWeight: Int) {
        let clamped = min(max(cssWeight, 100), 900)
        let index = (clamped - 100 + 49) / 100
        self = AppleFontWeight.allCases[min(max(index, 0), 8)]
    }

    /// Ultralight, thin and light: the weights the HIG advises against, especially for small text.
    public var isLight: Bool { cssWeight <= 300 }
}

/// A content size category (`UIContentSizeCategory` / SwiftUI `DynamicTypeSize`).
public struct AppleContentSizeCategory: Sendable, Hashable {
    /// HIG name: `xSmall`, `Small`, `Medium`, `Large`, `xLarge`, `xxLarge`, `xxxLarge`, `AX1`…`AX5`.
    public var name: String
    /// UIKit name, e.g. `extraSmall`, `accessibilityMedium` (= AX1).
    public var uikitName: String
    /// SwiftUI name, e.g. `xSmall`, `accessibility1`.
    public var swiftUIName: String
    /// True for the larger accessibility sizes AX1–AX5.
    public var isAccessibility: Bool

    /// A category from plain values.
    public init(name: String, uikitName: String, swiftUIName: String, isAccessibility: Bool) {
        self.name = name
        self.uikitName = uikitName
        self.swiftUIName = swiftUIName
        self.isAccessibility = isAccessibility
    }
}

/// One text style (`UIFont.TextStyle`) across all categories of its table.
public struct AppleTextStyle: Sendable {
    /// API name, e.g. `largeTitle`, `title1`, `subheadline`, `caption2`.
    public var name: String
    /// HIG title, e.g. "Large Title", "Subhead".
    public var title: String
    /// The style's regular weight (Regular for most, Semibold for headline).
    public var weight: AppleFontWeight
    /// The weight with the bold symbolic trait (HIG "Emphasized weight").
    public var emphasizedWeight: AppleFontWeight
    /// Size in points per category, in table order.
    public var sizes: [Double]
    /// Leading (line height) in points per category, in table order.
    public var leading: [Double]

    /// A style from plain values: one size and one leading (points) per category.
    public init(name: String, title: String, weight: AppleFontWeight, emphasizedWeight: AppleFontWeight,
                sizes: [Double], leading: [Double]) {
        self.name = name
        self.title = title
        self.weight = weight
        self.emphasizedWeight = emphasizedWeight
        self.sizes = sizes
        self.leading = leading
    }
}

/// The iOS Dynamic Type table: categories × text styles.
public struct AppleDynamicTypeTable: Sendable {
    /// Categories, smallest to largest (xSmall … AX5).
    public let categories: [AppleContentSizeCategory]
    /// Styles, largest to smallest (largeTitle … caption2).
    public let styles: [AppleTextStyle]
    /// Index of the default category (Large) in `categories`.
    public let defaultCategoryIndex: Int
    /// Alternative style names, e.g. `title` → `title1`, `caption` → `caption1`.
    public let aliases: [String: String]

    /// A table, or nil when a style's size or leading list does not have one finite, positive
    /// value per category, or `defaultCategory` is not a category name.
    public init?(categories: [AppleContentSizeCategory], styles: [AppleTextStyle], defaultCategory: String,
                 aliases: [String: String] = [:]) {
        guard !categories.isEmpty, let d = categories.firstIndex(where: { $0.name == defaultCategory }) else { return nil }
        for s in styles {
            guard s.sizes.count == categories.count, s.leading.count == categories.count,
                (s.sizes + s.leading).allSatisfy({ $0.isFinite && $0 > 0 && $0 < 1000 })
            else { return nil }
        }
        self.categories = categories
        self.styles = styles
        self.defaultCategoryIndex = d
        self.aliases = aliases
    }

    /// The category called `name` by its HIG, UIKit or SwiftUI name (case-insensitive; `AX1` and
    /// `accessibility1` and `accessibilityMedium` are the same), or nil.
    public func categoryIndex(named name: String) -> Int? {
        let n = Self.withoutSwiftPrefix(name, ["UIContentSizeCategory.", "ContentSizeCategory.", "DynamicTypeSize."]).lowercased()
        return categories.firstIndex {
            $0.name.lowercased() == n || $0.uikitName.lowercased() == n || $0.swiftUIName.lowercased() == n
        }
    }

    /// The style called `name` (case-insensitive, aliases allowed), or nil.
    public func style(named name: String) -> AppleTextStyle? {
        let n = Self.withoutSwiftPrefix(name, ["UIFont.TextStyle.", "Font.TextStyle.", "Font."]).lowercased()
        let target = aliases.first { $0.key.lowercased() == n }?.value.lowercased() ?? n
        return styles.first { $0.name.lowercased() == target }
    }

    /// `name` without the Swift spelling's type prefix or leading dot, as code writes it
    /// (`UIContentSizeCategory.accessibilityMedium`, `.accessibility1`, `Font.TextStyle.body`:
    /// a new user's pass got a 400, and a suggestion of the name it had given).
    static func withoutSwiftPrefix(_ name: String, _ prefixes: [String]) -> String {
        var n = Substring(name.trimmingCharacters(in: .whitespaces))
        for p in prefixes where n.hasPrefix(p) { n = n.dropFirst(p.count); break }
        if n.hasPrefix(".") { n = n.dropFirst() }
        return String(n)
    }

    /// All names a category can be given by, for suggestions.
    public var categoryNames: [String] {
        var names: [String] = []
        for c in categories {
            for n in [c.name, c.uikitName, c.swiftUIName] where !names.contains(n) { names.append(n) }
        }
        return names
    }
}

/// What a text size and weight require for contrast.
public struct AppleTextRequirement: Sendable {
    /// Size in iOS points.
    public var points: Double
    /// CSS weight `100...900`.
    public var weight: Int
    /// WCAG 2.2 large-scale text (≥ 18 pt, or ≥ 14 pt at weight ≥ 700).
    public var isLargeText: Bool
    /// WCAG minimum ratios for this text: AA (4.5 or 3) and AAA (7 or 4.5).
    public var wcagAA: Double
    /// WCAG AAA minimum ratio for this text (7 or 4.5).
    public var wcagAAA: Double
    /// The HIG policy's minimum (see `AppleContrastPolicy.hig`): 7:1 for small text in custom
    /// colors, 4.5:1 otherwise.
    public var hig: Double
    /// The smallest |Lc| at which APCA's font lookup allows this size and weight (0.1 Lc
    /// resolution), or nil when no contrast suffices (e.g. very small thin text).
    public var apcaMinimumLc: Double?
    /// The size in CSS px given to APCA's font lookup (see `init`).
    public var apcaPx: Double
    /// A legibility warning for light weights, or nil.
    public var weightWarning: String?
    /// Whether the size is a default the caller assumed (a token-audit rule without a size:
    /// 16 px body text), which a target's basis then says.
    public var isAssumedSize = false

    /// The requirement for text of `points` (iOS pt, > 0) at CSS `weight` (1...1000). APCA's
    /// font lookup (CSS px) is given `apcaPx`, by default the points themselves (1 iOS pt taken
    /// as 1 CSS px, the convention of the Apple endpoints); a size given in CSS px passes its px,
    /// which must never shrink to the 0.75× points (17 px read as 12.75 px needed no reachable Lc).
    public init(points: Double, weight: Int, apcaPx: Double? = nil) {
        self.points = points
        self.weight = weight
        isLargeText = WCAG.isLargeText(points: points, weight: weight)
        wcagAA = isLargeText ? WCAG.aaLargeText : WCAG.aaNormalText
        wcagAAA = isLargeText ? WCAG.aaaLargeText : WCAG.aaaNormalText
        hig = isLargeText ? AppleContrastPolicy.higMinimum : AppleContrastPolicy.higCustomSmallText
        self.apcaPx = apcaPx ?? points
        apcaMinimumLc = APCAMinimumLc.minimumLc(px: self.apcaPx, weight: AppleFontWeight(cssWeight: weight).cssWeight)
        let named = AppleFontWeight(cssWeight: weight)
        weightWarning = named.isLight
            ? "\(named.rawValue) weight (\(weight)): the HIG advises avoiding Ultralight, Thin and Light weights, which can be difficult to see, especially when text is small (HIG Typography)."
            : nil
    }
}
