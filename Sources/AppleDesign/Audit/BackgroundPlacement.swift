import ColorScience

/// Where a background color shows, and which system label a background carries: the one
/// placement rule of `/v1/audit` and of the palette's dark variants (``DarkVariants``).
///
/// A translucent background lies over whatever surface is behind it, so it is judged over every
/// system surface of the context, composited source-over in gamma-encoded sRGB with straight
/// alpha (as UIKit draws it; sources §10). Over `systemBackground` alone, text on
/// `rgba(0,0,0,0.05)` was reported passing while the same background over a grouped background
/// failed it.
public enum BackgroundPlacement {
    /// The opaque surfaces `background` shows as: itself (named `name`) when opaque, else
    /// composited over each of `surfaces`, named `<name> over <surface>`.
    ///
    /// - Parameters:
    ///   - background: the background color; alpha `0...1`.
    ///   - name: how rows name it (a system or custom name, e.g. `custom:card`).
    ///   - surfaces: the context's opaque system surfaces (gamma-encoded sRGB `0...1`), in order.
    /// - Returns: one surface when opaque, else one per system surface, in their order.
    public static func placements(of background: DisplayColor, named name: String,
                                  over surfaces: [(name: String, srgb: SIMD3<Double>)]) -> [(name: String, srgb: SIMD3<Double>)] {
        if background.alpha >= 1 { return [(name, background.srgb)] }
        return surfaces.map { ("\(name) over \($0.name)", AppleCompositing.flatten(background, over: $0.srgb)) }
    }

    /// The system label text on a background that shows as `surfaces` (opaque sRGB `0...1`: the
    /// background itself, or a translucent one composited over each system surface) in a context
    /// of `appearance`: `label`, or `inverseLabel` (the other appearance's label) when its worst
    /// case over the surfaces is better; with its name (`label`, `label (dark appearance)`,
    /// `label (light appearance)`) and that worst `value − minimum` of `target`.
    ///
    /// One label per context, the one with the better worst case (a translucent fill lies over
    /// several surfaces, and its text cannot change color between them). A background with no
    /// palette text was judged by black `label` alone, so a near-black button "failed" in light at
    /// 1.18:1 and Increase Contrast turned it gray (hostile test).
    ///
    /// `choice` fixes which of the two it is (`.best`: the better one), so that a fill's text
    /// keeps its color across the variants of one design (`DarkVariants`).
    public static func textLabel(under surfaces: [SIMD3<Double>], label: DisplayColor, inverseLabel: DisplayColor?,
                                 appearance: AppleAppearance, target: ContrastTarget,
                                 choice: LabelChoice = .best) -> (label: DisplayColor, labelName: String, margin: Double) {
        func worst(_ label: DisplayColor) -> Double {
            var m = Double.infinity
            for s in surfaces {
                m = Swift.min(m, target.value(of: ContrastMeasurement.opaque(foreground: label, background: s)) - target.minimum)
            }
            return m
        }
        let inverseName = appearance == .light ? "label (dark appearance)" : "label (light appearance)"
        if choice == .inverse, let inverse = inverseLabel { return (inverse, inverseName, worst(inverse)) }
        let own = worst(label)
        if choice == .best, let inverse = inverseLabel, case let other = worst(inverse), other > own {
            return (inverse, inverseName, other)
        }
        return (label, "label", own)
    }

    /// Which system label judges a background: the context's own `label`, the other
    /// appearance's, or the one with the better worst case.
    public enum LabelChoice: Sendable, Equatable {
        case own, inverse, best
    }
}
