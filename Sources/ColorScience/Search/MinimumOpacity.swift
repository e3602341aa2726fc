import Foundation

// Minimum opacity: for translucent text that misses a contrast target, the same color made
// more opaque. Lightness moves (NearestPassingColor) cannot help white text at 40% on a dark
// surface (nothing is lighter than white, and darker only lowers the contrast), while the fix a
// designer applies is the opacity: `#ffffff66` → `#ffffff75`.
//
// Method: the foreground's channels stay as they are (its 8-bit value); its alpha takes every
// 8-bit value above its own in turn, a/255 for a = A+1 … 255, and each pair is measured as
// `ContrastMeasurement` measures it (source-over compositing in gamma-encoded sRGB, WCAG 2.2
// relative luminance, APCA 0.0.98G-4g; over every gray backdrop when the background is
// translucent and no backdrop is given). The first that meets the target is the answer: the
// smallest opacity, so the text stays as close to the given design as it can; its composite
// must also pass as an 8-bit screen paints it (`ContrastMeasurement.painted`). Monotonic for an
// opaque background (the composite moves from the background toward the text color as alpha
// grows), but scanned rather than bisected so a translucent background is handled the same way.

/// The same translucent foreground at the smallest 8-bit opacity that meets a target.
public struct MinimumOpacity: Sendable {
    /// The foreground with its new alpha (8-bit channels as given, alpha n/255).
    public var foreground: DisplayColor
    /// The pair measured with that foreground.
    public var measurement: ContrastMeasurement
    /// The target's value for the pair (ratio, or |Lc|).
    public var value: Double

    /// Searches `foreground`'s opacities above its own on `background`.
    ///
    /// - Parameters:
    ///   - foreground: the text color; only a translucent one (alpha < 1 as 8-bit) is searched.
    ///   - background: the surface, possibly translucent.
    ///   - backdrop: opaque sRGB `0...1` behind a translucent background; nil means unknown.
    ///   - target: the ratio or |Lc| to reach.
    /// - Returns: the first passing opacity; nil when the foreground is opaque, when even
    ///   alpha 1 misses the target, or when the target is unreachable.
    /// - Complexity: at most 255 measurements (each over 256 backdrops when the background is
    ///   translucent and no backdrop is given).
    public static func search(foreground: Color, background: Color, backdrop: SIMD3<Double>? = nil,
                              target: ContrastTarget) -> MinimumOpacity? {
        let fg = DisplayColor(foreground).quantized
        // The background stays as given (as `NearestPassingColor.suggest` measures it): only
        // the foreground becomes 8-bit hex.
        let bg = DisplayColor(background)
        let start = Int((fg.alpha * 255).rounded())
        guard start < 255, target.isReachable else { return nil }
        for a in (start + 1)...255 {
            let candidate = DisplayColor(srgb: fg.srgb, alpha: Double(a) / 255)
            let m = ContrastMeasurement(foreground: candidate, background: bg, backdrop: backdrop)
            let v = target.value(of: m)
            guard v >= target.minimum else { continue }
            if let painted = ContrastMeasurement.painted(foreground: candidate, background: bg, backdrop: backdrop), !target.isMet(by: painted) { continue }
            return MinimumOpacity(foreground: candidate, measurement: m, value: v)
        }
        return nil
    }
}
