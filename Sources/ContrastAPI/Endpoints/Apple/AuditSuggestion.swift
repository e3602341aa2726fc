import AppleDesign
import ColorScience
import JSONValue

/// The fix suggestions of `POST /v1/audit` (its `suggestion` hook): for each failing context, the
/// nearest color of the same hue that passes on every surface of that context, found as
/// `POST /v1/suggest` finds it (`NearestPassingColor`; OKLCH lightness, hue kept, judged as the
/// 8-bit hex it is reported as).
enum AuditSuggestion {
    /// One failing context's suggestion.
    ///
    /// - Parameters:
    ///   - role: the audited role; a `background` moves itself under the system label that
    ///     contrasts with it (see `AuditEndpoint.backgroundLabel`), every other role moves on the
    ///     context's surfaces.
    ///   - color: the color as resolved in `context`.
    ///   - surfaces: the opaque surfaces it was measured on (foreground roles).
    ///   - systemSurfaces: the context's system backgrounds (a translucent background is
    ///     composited over each).
    /// - Returns: `{"context", "hex", "rgba", "oklch", "direction", "deltaEOK", "deltaE2000",
    ///   "worst": {"ratio", "ratioText", "apcaLc", "value"}, "passes"}`; `passes` false (and the
    ///   best worst case) when no color of the hue passes everywhere.
    static func context(_ context: AppleColorContext, role: AppleColorRole, color: DisplayColor, surfaces: [SIMD3<Double>],
                        systemSurfaces: [SIMD3<Double>], requirement: ContrastTarget, data: AppleData) -> JSON {
        let target = requirement
        func measurements(_ c: DisplayColor) -> [ContrastMeasurement] {
            if role == .background {
                let under = c.alpha >= 1 ? [c.srgb] : systemSurfaces.map { AppleCompositing.flatten(c, over: $0) }
                let label = AuditEndpoint.backgroundLabel(under: under, in: context, requirement: requirement, data: data).label
                return under.map { ContrastMeasurement.opaque(foreground: label, background: $0) }
            }
            return surfaces.map { ContrastMeasurement.opaque(foreground: c, background: $0) }
        }
        func margin(_ c: DisplayColor) -> Double {
            measurements(c).map { target.value(of: $0) - target.minimum }.min() ?? .infinity
        }
        let (move, unchanged) = NearestPassingColor.nearest(to: color, margin: margin)
        let worst = measurements(move.color).min { target.value(of: $0) < target.value(of: $1) }
        var o = JSONObject()
        o.append("context", .string(context.id))
        o.append("hex", .string(move.color.hex))
        o.append("rgba", ColorJSON.rgba(move.color.srgb, alpha: move.color.alpha))
        o.append("oklch", PaletteJSON.oklch(move.color))
        o.append("direction", unchanged ? .null : .string(move.direction.rawValue))
        o.append("deltaEOK", .number(ColorDifference.deltaEOK(move.color.color, color.color)))
        o.append("deltaE2000", .number(ColorDifference.deltaE2000(move.color.color, color.color)))
        if let worst {
            o.append("worst", .object([
                ("ratio", .number(worst.ratio)), ("ratioText", .string(WCAG.ratioText(worst.ratio))),
                ("apcaLc", .number(worst.apcaLc)), ("value", .number(target.value(of: worst))),
            ]))
        }
        o.append("passes", .bool(move.passes))
        return .object(o)
    }

    /// The audit's `suggestion` member: null when every context passes, else
    /// `{"contexts": [per failing context], "method"}`.
    static func json(_ contexts: [JSON]) -> JSON {
        guard !contexts.isEmpty else { return .null }
        return .object([
            ("contexts", .array(contexts)),
            ("method", .string("nearest color of the same hue (OKLCH lightness; chroma reduced only where sRGB requires) that passes on every surface of the failing context, as the 8-bit hex reported; the method of POST /v1/suggest")),
        ])
    }

    /// Replaces the audit's former placeholder note.
    static let note = "suggestion lists, per failing context, the nearest color of the same hue that passes there (POST /v1/suggest's method); for a color that must work everywhere, POST /v1/palette/dark generates every variant at once."
}
