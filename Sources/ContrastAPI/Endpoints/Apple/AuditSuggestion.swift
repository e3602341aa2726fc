import AppleDesign
import ColorScience
import JSONValue

/// The JSON of `POST /v1/audit`'s `suggestion` member: for each failing context, the nearest color
/// of the same hue that passes on every surface of that context (found by ``ColorAudit``).
enum AuditSuggestion {
    /// One failing context's suggestion (``ColorAudit/fix(_:role:surfaces:systemSurfaces:requirement:in:catalog:)``).
    ///
    /// - Parameters:
    ///   - fix: the nearest passing color found for the context.
    ///   - color: the color as resolved in `context` (ΔE is measured from it).
    /// - Returns: `{"context", "hex", "rgba", "oklch", "direction", "deltaEOK", "deltaE2000",
    ///   "worst": {"ratio", "ratioText", "apcaLc", "value"}, "passes"}`; `passes` false (and the
    ///   best worst case) when no color of the hue passes everywhere.
    static func context(_ context: AppleColorContext, fix: ColorAudit.Fix, from color: DisplayColor, requirement target: ContrastTarget) -> JSON {
        let (move, unchanged, worst) = (fix.move, fix.unchanged, fix.worst)
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
