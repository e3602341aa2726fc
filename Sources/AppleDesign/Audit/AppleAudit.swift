// Auditing custom colors against Apple's system backgrounds: roles, policies and the minimum
// each policy asks of each role.
//
// Sources:
// - HIG Dark Mode (https://developer.apple.com/design/human-interface-guidelines/dark-mode):
//   "make sure the contrast ratio between colors is no lower than 4.5:1. For custom foreground
//   and background colors, strive for a contrast ratio of 7:1, especially in small text."
// - HIG Accessibility: the Accessibility Inspector uses WCAG AA (sources §9).
// - WCAG 2.2 SC 1.4.3, 1.4.6 (text), SC 1.4.11 (non-text, 3:1; there is no AAA level).
// - APCA "in a Nutshell" use levels and the apca-w3 font lookup (APCAFontLookup.swift).

/// The contrast rule set an audit applies.
import ColorScience
public enum AppleContrastPolicy: String, Sendable, CaseIterable, Hashable {
    /// HIG (default): at least 4.5:1 for everything, and 7:1 for small text in custom colors.
    case hig
    /// WCAG 2.2 AA: 4.5:1 text, 3:1 large text and non-text.
    case wcagAA = "wcag-aa"
    /// WCAG 2.2 AAA: 7:1 text, 4.5:1 large text; non-text stays 3:1 (SC 1.4.11 has no AAA).
    case wcagAAA = "wcag-aaa"
    /// APCA 0.0.98G-4g (informational, WCAG 3 draft): minimum |Lc| by size and weight.
    case apca

    /// HIG Dark Mode: "no lower than 4.5:1".
    public static let higMinimum = 4.5
    /// HIG Dark Mode: "strive for … 7:1, especially in small text" for custom colors.
    public static let higCustomSmallText = 7.0
}

/// What a custom color is used for.
public enum AppleColorRole: String, Sendable, CaseIterable, Hashable {
    /// Primary text (optionally with a text style or size and weight).
    case text
    /// Secondary text (same rules as text).
    case secondaryText
    /// An icon or glyph.
    case icon
    /// Other non-text UI (control boundaries, focus rings, chart marks).
    case nonText
    /// An accent color used for controls: judged as text (button titles, links) at its size, by
    /// default the body size.
    case tint
    /// A custom background: judged by the system `label` color on it.
    case background

    /// True for roles judged as text.
    public var isText: Bool { self == .text || self == .secondaryText || self == .tint || self == .background }

    /// True for roles that may carry a text size (text style or font size).
    public var acceptsTextSize: Bool { self == .text || self == .secondaryText || self == .tint }
}

extension ContrastTarget {
    /// The minimum Apple's guidance (or the chosen `policy`) asks of a color in `role`. `text` is the text size when known; text roles
    /// without one are judged as body text (17 pt Regular, the iOS default size, sources §8).
    public static func apple(role: AppleColorRole, policy: AppleContrastPolicy, text: AppleTextRequirement?) -> ContrastTarget {
        let t = text ?? AppleTextRequirement(points: 17, weight: 400)
        // A size the caller assumed is said to be one, with the px it was given in (a token
        // audit's "small text (12 pt at weight 400)" read as if the files had said 12 pt).
        // A size assumed for a large-text role is large text's (a new user's pass: "24 px = 18 pt
        // …; no size given: body text assumed" on a large-text rule judged at 3:1).
        let assumed = t.isLargeText ? "large text" : "body text"
        let sizeWords = t.isAssumedSize
            ? "\(AppleFormatting.number(t.apcaPx)) px = \(AppleFormatting.number(t.points)) pt at weight \(t.weight); no size given: \(assumed) assumed"
            : "\(AppleFormatting.number(t.points)) pt at weight \(t.weight)\(text == nil ? " (no size given: body text assumed)" : "")"
        let large = t.isLargeText ? "large" : "small"
        switch (policy, role.isText) {
        case (.hig, true):
            return ContrastTarget(
                metric: .wcag2, minimum: t.hig,
                basis: t.isLargeText
                    ? "HIG Dark Mode: no lower than 4.5:1 (\(large) text, \(sizeWords))"
                    : "HIG Dark Mode: strive for 7:1 for custom colors, especially in small text (\(sizeWords))")
        case (.hig, false):
            return ContrastTarget(metric: .wcag2, minimum: AppleContrastPolicy.higMinimum,
                                            basis: "HIG Dark Mode: contrast between colors no lower than 4.5:1")
        case (.wcagAA, true):
            return ContrastTarget(metric: .wcag2, minimum: t.wcagAA,
                                            basis: "WCAG 2.2 SC 1.4.3 AA, \(large) text (\(sizeWords))")
        case (.wcagAAA, true):
            return ContrastTarget(metric: .wcag2, minimum: t.wcagAAA,
                                            basis: "WCAG 2.2 SC 1.4.6 AAA, \(large) text (\(sizeWords))")
        case (.wcagAA, false), (.wcagAAA, false):
            return ContrastTarget(metric: .wcag2, minimum: WCAG.aaNonText,
                                            basis: "WCAG 2.2 SC 1.4.11 non-text contrast 3:1 (no AAA level exists)")
        case (.apca, true):
            // The lookup's size: the points as px (1 iOS pt taken as 1 CSS px), or px as given.
            let lookupWords = t.apcaPx == t.points
                ? "\(sizeWords), 1 iOS pt taken as 1 CSS px"
                : "\(AppleFormatting.number(t.apcaPx)) px at weight \(t.weight)\(t.isAssumedSize ? " (no size given: \(assumed) assumed)" : "")"
            if let lc = t.apcaMinimumLc {
                return ContrastTarget(metric: .apca, minimum: lc,
                                                basis: "APCA font lookup (apca-w3 0.1.9): smallest Lc allowing \(lookupWords)")
            }
            return ContrastTarget(metric: .apca, minimum: .infinity,
                                            basis: "APCA font lookup (apca-w3 0.1.9): no contrast makes \(lookupWords) usable for text")
        case (.apca, false):
            return ContrastTarget(metric: .apca, minimum: APCALevel.largeOrHeavyText.minimumLc,
                                            basis: "APCA in a Nutshell: Lc 45 for fine pictograms and icons")
        }
    }
}

/// A number for messages: integers without a fraction ("17", "17.5"), others to at most 4
/// decimals (18.67 px is "14.0025 pt", not "14.002500000000001 pt": a new user's pass found
/// the float's noise in SARIF, JUnit and text reports).
enum AppleFormatting {
    static func number(_ d: Double) -> String {
        let r = abs(d) < 1e11 ? (d * 10_000).rounded() / 10_000 : d
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}
