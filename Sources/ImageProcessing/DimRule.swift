import ColorScience
import Foundation

/// How much to darken an image with a white background before showing it on a dark background.
///
/// Source of the advice: Apple Human Interface Guidelines, "Dark Mode" › "Color": soften the
/// color of white backgrounds in content images, so that they do not glow in the surrounding
/// dark context (https://developer.apple.com/design/human-interface-guidelines/dark-mode).
/// The HIG gives no number; this rule supplies one.
///
/// The rule:
/// 1. Only images with a white background are dimmed: at least half of the border band, or at
///    least half of the whole image, is near-white (see ``LuminanceStatistics``). Photographs
///    and dark artwork get factor 1.
/// 2. The target is the brightest gray whose APCA lightness contrast against the dark
///    background is `targetLc` (default 90, as light-on-dark Lc −90). Lc 90 is APCA's preferred
///    level for body text (APCA Readability Criterion, Bronze Simple Mode): enough for the
///    thinnest content, so a large flat area brighter than that adds glare, not legibility.
///    The ceiling is this rule's choice (the HIG gives none). White on black is Lc −107.9.
/// 3. The factor multiplies linear-light luminance so that the measured white level (mean
///    luminance of the near-white border) lands on the target: `factor = min(1, Y_target /
///    Y_white)`. Chromaticity is unchanged; every pixel's luminance is scaled by the same factor.
///
/// On the dark base `systemBackground` (#000000) the target gray is about #E3E3E3 (relative
/// luminance 0.771), so a pure white background gets factor ≈ 0.77, CSS `brightness(0.89)`, a
/// black overlay of ≈ 11%: "slightly darker", as the HIG asks. On the elevated background
/// (#1C1C1E) the target is ≈ #E6E6E6 (0.79). A lighter background needs less or no dimming.
/// APCA is informational in WCAG terms; the WCAG 2.x ratio before and after is reported beside it.
public struct DimRule: Sendable, Equatable {
    /// Default APCA Lc ceiling for the dimmed white against the background.
    public static let defaultTargetLc = 90.0
    /// Least share of near-white border pixels that makes a white background.
    public static let borderShareThreshold = 0.5
    /// Least share of near-white pixels overall that makes a white background.
    public static let areaShareThreshold = 0.5

    /// APCA Lc magnitude `15...106` the dimmed white may reach against the background.
    public var targetLc: Double

    /// A rule with the given Lc ceiling (`15...106`; the API validates the range).
    public init(targetLc: Double = DimRule.defaultTargetLc) {
        self.targetLc = targetLc
    }

    /// Whether the statistics describe a white background (rule step 1).
    public static func hasWhiteBackground(_ s: LuminanceStatistics) -> Bool {
        s.borderNearWhiteShare >= borderShareThreshold || s.nearWhiteShare >= areaShareThreshold
    }

    /// The gamma-encoded sRGB gray `0...1` whose APCA Lc as light text on `background`
    /// (opaque sRGB `0...1`) has magnitude `targetLc`; nil when even white stays below it.
    public func targetGray(on background: SIMD3<Double>) -> Double? {
        func lc(_ g: Double) -> Double { -APCA.lc(text: SIMD3(repeating: g), background: background) }
        guard lc(1) > targetLc else { return nil }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if lc(mid) <= targetLc { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The recommendation for an image measured by `statistics` on `background` (opaque sRGB).
    public func recommend(_ statistics: LuminanceStatistics, on background: SIMD3<Double>) -> DimRecommendation {
        let backgroundY = WCAG.relativeLuminance(background)
        let whiteBackground = Self.hasWhiteBackground(statistics)
        let whiteY = statistics.whiteLevel ?? statistics.peakLuminance
        let targetGray = targetGray(on: background)
        let targetY = targetGray.map { WCAG.linearize($0) }
        var factor = 1.0
        let reason: String
        if !whiteBackground {
            reason = String(format: "no white background: %.0f%% of the border and %.0f%% of the image are near-white (dimming starts at 50%%)",
                            statistics.borderNearWhiteShare * 100, statistics.nearWhiteShare * 100)
        } else if let targetY, whiteY > targetY {
            factor = targetY / whiteY
            // Four decimals and the factor: on a mid-gray background the target lies just below
            // white, and "brought down to 1.000" read as no change (hostile test).
            reason = String(format: "white background: its white level (relative luminance %.4f) is brought down to %.4f (factor %.6g), APCA Lc %.0f against the background",
                            whiteY, targetY, factor, targetLc)
        } else if targetY == nil {
            reason = String(format: "white background, but even pure white stays within APCA Lc %.0f on this background", targetLc)
        } else {
            reason = String(format: "white background, but its white level (relative luminance %.3f) is already at or below the target %.3f", whiteY, targetY ?? 1)
        }
        return DimRecommendation(
            whiteBackground: whiteBackground, factor: factor, targetLc: targetLc,
            targetLuminance: targetY, whiteLevel: whiteY, backgroundLuminance: backgroundY,
            background: background, reason: reason)
    }
}

/// What ``DimRule`` recommends, with the equivalents a developer can apply instead.
public struct DimRecommendation: Sendable, Equatable {
    /// Whether the image has a white background (rule step 1).
    public var whiteBackground: Bool
    /// Linear-light luminance multiplier `0...1` (1 = leave as is).
    public var factor: Double
    /// The APCA Lc ceiling used.
    public var targetLc: Double
    /// Relative luminance of the target gray, nil when no ceiling applies on this background.
    public var targetLuminance: Double?
    /// Relative luminance `0...1` of the image's white (or its peak when it has no near-white).
    public var whiteLevel: Double
    /// Relative luminance of the background.
    public var backgroundLuminance: Double
    /// The background, opaque gamma-encoded sRGB `0...1`.
    public var background: SIMD3<Double>
    /// Why, in a sentence.
    public var reason: String

    /// Whether the factor changes anything.
    public var shouldDim: Bool { factor < 1 }

    /// Relative luminance of the white level after dimming (`whiteLevel × factor`).
    public var dimmedWhiteLevel: Double { whiteLevel * factor }

    /// Gamma-encoded sRGB gray `0...1` of a luminance.
    public static func encode(_ y: Double) -> Double {
        let c = min(max(y, 0), 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// The CSS `filter: brightness(x)` that gives the white level the same result. CSS filter
    /// functions multiply gamma-encoded sRGB values (Filter Effects 1), not linear light, so the
    /// match is exact at the white level and within a few 8-bit codes for darker colors.
    public var cssBrightness: Double {
        let before = Self.encode(whiteLevel)
        guard before > 0 else { return 1 }
        return min(1, Self.encode(dimmedWhiteLevel) / before)
    }

    /// Alpha `0...1` of a black layer over the image with the same effect as `cssBrightness`
    /// (source-over on gamma-encoded values, as browsers and UIKit composite): `1 − brightness`.
    public var blackOverlayAlpha: Double { 1 - cssBrightness }

    /// WCAG 2.x contrast ratio `1...21` of a luminance against the background.
    public func wcagRatio(_ y: Double) -> Double { WCAG.contrastRatio(y, backgroundLuminance) }

    /// APCA Lc of the gray with luminance `y` as light content on the background (negative).
    public func apcaLc(_ y: Double) -> Double {
        APCA.lc(text: SIMD3(repeating: Self.encode(y)), background: background)
    }
}
