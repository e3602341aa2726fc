import ColorScience

/// The algorithm of `/v1/audit` for one custom color in one context: the surfaces it sits on, its
/// measurement on each, the worst case, and for a failing context the nearest color of the same
/// hue that passes there. Policy and minimums: ``ContrastTarget/apple(role:policy:text:)``;
/// placement of backgrounds and their label: ``BackgroundPlacement``.
///
/// Surfaces (sources §9, §10; HIG Dark Mode):
/// - a text, icon, non-text or tint color sits on every system background of the context, and on
///   every `background`-role color of the request, which is itself composited over every system
///   background when translucent;
/// - a `background`-role color is judged by the system `label` on it (or the other appearance's
///   label, where that contrasts more: white on a dark fill in light mode), over every system
///   background when translucent.
/// Translucent foregrounds are composited on each opaque surface before measuring (source-over,
/// straight alpha, gamma-encoded sRGB).
public enum ColorAudit {
    /// One measured row: a foreground on one opaque surface.
    public struct Row: Sendable {
        /// The surface's name (a system background, `custom:<name>`, or `<name> over <surface>`).
        public var surface: String
        /// The opaque surface, gamma-encoded sRGB `0...1`.
        public var surfaceColor: SIMD3<Double>
        /// The foreground's name (the color's own, or the label judging a background).
        public var foreground: String
        /// WCAG ratio and APCA Lc, translucent foregrounds composited first.
        public var measurement: ContrastMeasurement
        /// The measurement in the requirement's metric: the ratio `1...21` or |Lc| `0...108`.
        public var value: Double
        /// `value >= minimum`, unrounded.
        public var passes: Bool
    }

    /// A system surface of a context: a background's name and its opaque sRGB `0...1`.
    public typealias Surface = (name: String, srgb: SIMD3<Double>)

    /// The system backgrounds of `context` in catalog order (the surfaces every color is measured on).
    public static func systemSurfaces(in context: AppleColorContext, catalog: AppleSystemColorCatalog) -> [Surface] {
        var surfaces: [Surface] = []
        for name in catalog.backgroundNames {
            if let r = catalog.resolve(name, in: context) { surfaces.append((name, r.value.srgb)) }
        }
        return surfaces
    }

    /// The rows of one color in one context.
    ///
    /// - Parameters:
    ///   - color: the color as resolved in `context` (alpha `0...1`).
    ///   - name: the color's name in rows.
    ///   - role: what it is used for; `background` is judged by the label on it.
    ///   - requirement: the minimum it must reach.
    ///   - customBackgrounds: the request's `background`-role colors as resolved in `context`,
    ///     with their names (ignored for a `background` role).
    ///   - systemSurfaces: ``systemSurfaces(in:catalog:)`` of `context`.
    ///   - onSystemBackgrounds: whether a color that is not a background is measured on the
    ///     system backgrounds themselves (false: only on `customBackgrounds`, a translucent one
    ///     still composited over each system background).
    /// - Returns: the rows in surface order (system backgrounds first, then custom backgrounds).
    public static func rows(of color: DisplayColor, named name: String, role: AppleColorRole, requirement: ContrastTarget,
                            customBackgrounds: [(name: String, color: DisplayColor)], systemSurfaces: [Surface],
                            onSystemBackgrounds: Bool = true,
                            in context: AppleColorContext, catalog: AppleSystemColorCatalog) -> [Row] {
        var rows: [Row] = []
        func add(_ surface: String, _ s: SIMD3<Double>, _ fgName: String, _ fg: DisplayColor) {
            let m = AppleCompositing.measure(fg, on: s)
            rows.append(Row(surface: surface, surfaceColor: s, foreground: fgName, measurement: m,
                            value: requirement.value(of: m), passes: requirement.isMet(by: m)))
        }
        if role == .background {
            let under = BackgroundPlacement.placements(of: color, named: name, over: systemSurfaces)
            let text = backgroundLabel(under: under.map(\.srgb), in: context, requirement: requirement, catalog: catalog)
            for (surface, s) in under { add(surface, s, text.labelName, text.label) }
        } else {
            if onSystemBackgrounds { for (surface, s) in systemSurfaces { add(surface, s, name, color) } }
            for other in customBackgrounds {
                for (surface, s) in BackgroundPlacement.placements(of: other.color, named: "custom:\(other.name)", over: systemSurfaces) {
                    add(surface, s, name, color)
                }
            }
        }
        return rows
    }

    /// The system label text on a background-role color that shows as `surfaces` in `context`:
    /// `label`, or the other appearance's label where it contrasts more
    /// (``BackgroundPlacement/textLabel(under:label:inverseLabel:appearance:target:)``).
    public static func backgroundLabel(under surfaces: [SIMD3<Double>], in context: AppleColorContext,
                                       requirement: ContrastTarget, catalog: AppleSystemColorCatalog)
        -> (label: DisplayColor, labelName: String, margin: Double) {
        var inverse = context
        inverse.appearance = context.appearance == .light ? .dark : .light
        inverse.level = .base
        let label = catalog.resolve("label", in: context)?.value.displayColor
            ?? DisplayColor(srgb: SIMD3(repeating: context.appearance == .dark ? 1 : 0))
        return BackgroundPlacement.textLabel(under: surfaces, label: label,
                                             inverseLabel: catalog.resolve("label", in: inverse)?.value.displayColor,
                                             appearance: context.appearance, target: requirement)
    }

    /// The nearest color of the same hue that passes in a failing context.
    public struct Fix: Sendable {
        /// The move found along the constant-hue path (its color is 8-bit quantized).
        public var move: NearestPassingColor.Move
        /// True when the color as given already passes (nothing moved).
        public var unchanged: Bool
        /// The worst measurement of the moved color over the context's surfaces, if any.
        public var worst: ContrastMeasurement?
    }

    /// The nearest color of the same hue as `color` that passes on every surface of the context,
    /// found as `/v1/suggest` finds it (``NearestPassingColor/nearest(to:margin:)``: OKLCH
    /// lightness, hue kept, judged as the 8-bit hex it is reported as).
    ///
    /// - Parameters:
    ///   - role: a `background` moves itself under the label that contrasts with it; every other
    ///     role moves on `surfaces`.
    ///   - surfaces: the opaque surfaces the color was measured on (foreground roles).
    ///   - systemSurfaces: the context's system backgrounds (a translucent background is
    ///     composited over each).
    public static func fix(_ color: DisplayColor, role: AppleColorRole, surfaces: [SIMD3<Double>], systemSurfaces: [SIMD3<Double>],
                           requirement: ContrastTarget, in context: AppleColorContext, catalog: AppleSystemColorCatalog) -> Fix {
        let target = requirement
        func measurements(_ c: DisplayColor) -> [ContrastMeasurement] {
            if role == .background {
                let under = c.alpha >= 1 ? [c.srgb] : systemSurfaces.map { AppleCompositing.flatten(c, over: $0) }
                let label = backgroundLabel(under: under, in: context, requirement: requirement, catalog: catalog).label
                return under.map { ContrastMeasurement.opaque(foreground: label, background: $0) }
            }
            return surfaces.map { ContrastMeasurement.opaque(foreground: c, background: $0) }
        }
        func margin(_ c: DisplayColor) -> Double {
            measurements(c).map { target.value(of: $0) - target.minimum }.min() ?? .infinity
        }
        let (move, unchanged) = NearestPassingColor.nearest(to: color, margin: margin)
        let worst = measurements(move.color).min { target.value(of: $0) < target.value(of: $1) }
        return Fix(move: move, unchanged: unchanged, worst: worst)
    }
}
