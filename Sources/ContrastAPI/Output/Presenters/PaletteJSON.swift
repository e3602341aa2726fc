import AppleDesign
import ColorScience
import JSONValue

/// JSON encodings of palette results.
enum PaletteJSON {
    /// `[L, C, h]`: OKLCH lightness `0...1`, chroma, hue in degrees (0 for grays).
    static func oklch(_ c: DisplayColor) -> JSON {
        let v = c.color.converted(to: .oklch).coordinates
        return .numbers([v.x, v.y, v.z])
    }

    /// The method, in words, for the response.
    static let method: [JSON] = [
        "Variants move along OKLCH lightness with the hue kept and chroma reduced only where sRGB cannot show it; every color is judged as the 8-bit hex it is reported as.",
        "Dark and increased-contrast variants must reach their target on every surface of every context they are shown in: the distinct system backgrounds (systemBackground through tertiarySystemGroupedBackground) at base and elevated level, and the palette backgrounds a color is placed on; translucent colors are composited first.",
        "Start points: tints, icons and non-text colors start from themselves (a color that already passes stays unchanged); text whose surface turns dark keeps at least the contrast it had on its light surface (on each of its surfaces); light backgrounds are mirrored to the darkest color of their hue with the same contrast against the dark systemBackground; the nearest passing color to the start is taken.",
        "Increased contrast: the light color (dark variant) is searched again on the increased-contrast surfaces with the increased target (the next WCAG text level, 4.5:1 or 7:1, or APCA +15 Lc).",
        "A color that cannot pass everywhere is returned with method bestEffort, passes false and the surfaces it fails on.",
    ]

    static func response(_ req: PaletteRequest, _ results: [PaletteEntryResult]) -> JSON {
        var o = JSONObject()
        let passing = results.filter(\.passes).count
        o.append("policy", .string(req.policy.rawValue))
        o.append("generation", .string(req.generation.rawValue))
        o.append(APCAJSON.versionMember.0, APCAJSON.versionMember.1)
        o.append("adjustLight", .bool(req.adjustLight))
        o.append("elevated", .bool(req.elevated))
        o.append("passes", .bool(passing == results.count))
        o.append("summary", .object([
            ("colors", .number(Double(results.count))), ("passing", .number(Double(passing))),
            ("failing", .number(Double(results.count - passing))),
            ("changedInDark", .number(Double(results.filter { $0[.dark].color.srgb != $0[.light].color.srgb }.count))),
        ]))
        let contexts = AppleColorContext.distinctContexts(generation: req.generation).filter { req.elevated || $0.effectiveLevel != .elevated }
        o.append("variants", .array(PaletteVariant.allCases.map { v in
            .object([("variant", .string(v.rawValue)), ("title", .string(v.title)),
                     ("contexts", .array(contexts.filter { $0.appearance == v.appearance && $0.contrast == v.contrast }.map(AppleJSON.context)))])
        }))
        o.append("colors", .array(zip(req.colors, results).map { color($0, $1, req) }))
        o.append("method", .array(method))
        var notes: [JSON] = [
            "deltaEOK and deltaE2000 are measured from the light color as given (OKLab distance, about 0.02 just noticeable; CIEDE2000 Lab D65, about 1 just noticeable).",
            "ratio is unrounded; ratioText is floored to two decimals, so a shown number never passes when the real one fails.",
        ]
        // Only where a color is one (a new user's pass, stop 43: every answer carried it).
        if req.colors.contains(where: { !$0.systemVariants.isEmpty }) {
            notes.append("A system color name is Apple's color in every variant (light, dark and increased contrast, base level, of the generation), measured as given: iOS shows Apple's values whatever the palette says. Give a variant (dark, increasedContrast, darkIncreasedContrast) to make it a custom color starting from the system color's light value instead.")
        }
        o.append("notes", .array(notes))
        o.append("sourcesDocument", .string(AppleData.sourcesDocument))
        return .object(o)
    }

    static func color(_ c: PaletteRequestColor, _ r: PaletteEntryResult, _ req: PaletteRequest) -> JSON {
        var o = JSONObject()
        o.append("name", .string(c.name))
        o.append("role", .string(c.role.rawValue))
        o.append("input", c.input)
        o.append("target", TargetInput.json(c.target))
        o.append("increasedContrastTarget", TargetInput.json(c.increasedTarget))
        o.append("on", .array(c.on.map { .string($0) }))
        o.append("onSystemBackgrounds", .bool(r.entry.onSystemBackgrounds))
        var variants = JSONObject()
        for v in r.variants {
            var v = v
            if c.systemVariants.contains(v.variant) {
                let context = PaletteRequest.context(of: v.variant, req.generation)
                v.notes.insert("Apple's own \(v.variant.title.lowercased()) \(c.color.input) (\(context.id)): iOS shows it whatever the palette says; measured, not generated.", at: 0)
                if let up = c.givenElevated[v.variant] {
                    v.notes.insert("At the elevated level (sheets, popovers) Apple's \(c.color.input) is \(up.display.hex): the elevated contexts measure that color; hex is the base level's.", at: 1)
                }
            }
            variants.append(v.variant.rawValue, variant(v))
        }
        o.append("variants", .object(variants))
        o.append("passes", .bool(r.passes))
        o.append("failingVariants", .array(r.variants.filter { !$0.passes }.map { .string($0.variant.rawValue) }))
        return .object(o)
    }

    static func variant(_ v: PaletteVariantResult) -> JSON {
        var o = JSONObject()
        o.append("hex", .string(v.color.hex))
        o.append("rgba", ColorJSON.rgba(v.color.srgb, alpha: v.color.alpha))
        o.append("oklch", oklch(v.color))
        o.append("gamutMapped", .bool(v.wideGamutColor != nil))
        o.append("elevated", v.elevated.map { up in
            .object([("hex", .string(up.hex)), ("rgba", ColorJSON.rgba(up.srgb, alpha: up.alpha)), ("oklch", oklch(up))])
        } ?? .null)
        o.append("method", .string(v.method.rawValue))
        o.append("direction", v.direction.map { .string($0.rawValue) } ?? .null)
        o.append("start", .string(v.start.hex))
        o.append("target", TargetInput.json(v.target))
        o.append("deltaEOK", .number(v.deltaEOK))
        o.append("deltaE2000", .number(v.deltaE2000))
        var ids: [String] = []
        for m in v.measurements where !ids.contains(m.context.id) { ids.append(m.context.id) }
        o.append("contexts", .array(ids.map { .string($0) }))
        o.append("surfaces", .array(v.measurements.map(row)))
        o.append("worst", v.worst.map(row) ?? .null)
        o.append("passes", .bool(v.passes))
        o.append("failingSurfaces", .array(v.measurements.filter { !$0.passes }.map { .string("\($0.context.id) \($0.surface)") }))
        if let s = v.suggestion {
            o.append("suggestion", .object([
                ("hex", .string(s.hex)), ("rgba", ColorJSON.rgba(s.srgb, alpha: s.alpha)), ("oklch", oklch(s)),
                ("note", .string("the nearest color of the same hue that passes on every light surface, the palette's other colors staying as given (another color's suggestion may move what this one is measured against); send adjustLight: true to have the palette adjusted together")),
            ]))
        }
        o.append("notes", .array(v.notes.map { .string($0) }))
        return .object(o)
    }

    static func row(_ m: PaletteMeasurement) -> JSON {
        // Each row carries its own minimum: a background's rows are its palette texts, each
        // judged by that text's target (a non-text 3:1 beside text at 4.5:1), not the background's.
        ColorJSON.surfaceRow(context: m.context.id, surface: m.surface, surfaceColor: m.surfaceColor, foreground: m.foreground,
                             m.measurement, value: m.value, minimum: m.minimum, passes: m.passes)
    }
}
