import AppleDesign
import ColorScience
import JSONValue

/// JSON encodings shared by the Apple endpoints.
enum AppleJSON {
    static let sizeNote = "iOS points are treated as typographic points for WCAG large text, as the HIG Accessibility table does (up to 17 pt: 4.5:1; 18 pt: 3:1), and as CSS px for APCA's font lookup"

    /// `{"id", "appearance", "level", "contrast", "generation"}` (+ `note` for light elevated).
    static func context(_ c: AppleColorContext) -> JSON {
        var o = JSONObject()
        o.append("id", .string(c.id))
        o.append("appearance", .string(c.appearance.rawValue))
        o.append("level", .string(c.level.rawValue))
        o.append("contrast", .string(c.contrast.rawValue))
        o.append("generation", .string(c.generation.rawValue))
        if c.isLightElevated {
            o.append("note", .string("level elevated has no effect in light appearance: values are those of light base (HIG Dark Mode)"))
        }
        return .object(o)
    }

    /// `{"hex", "rgba"}` of a catalog value (`#rrggbb`, or `#rrggbbaa` when translucent;
    /// rgba r, g, b on 0–255, alpha 0–1).
    static func value(_ c: AppleRGBA) -> JSON {
        .object([("hex", .string(ColorJSON.hex(c.srgb, alpha: c.alpha))), ("rgba", .numbers([c.red, c.green, c.blue, c.alpha]))])
    }

    /// The `systemColor` description of a resolved name.
    static func systemColor(_ r: AppleColorResolution) -> JSON {
        var o = JSONObject()
        o.append("name", .string(r.name))
        o.append("uikit", .string("UIColor.\(r.name)"))
        o.append("category", .string(r.category.rawValue))
        o.append("context", context(r.context))
        o.append("value", value(r.value))
        o.append("valueGeneration", .string(r.valueGeneration.rawValue))
        o.append("entry", .string(r.entry))
        o.append("confidence", .string(r.confidence.rawValue))
        o.append("source", .string(r.source))
        o.append("notes", .array(r.notes.map { .string($0) }))
        o.append("alternatives", .array(r.alternatives.map { alt in
            .object([("hex", .string(ColorJSON.hex(alt.value.srgb, alpha: alt.value.alpha))),
                     ("rgba", .numbers([alt.value.red, alt.value.green, alt.value.blue, alt.value.alpha])),
                     ("source", .string(alt.source))])
        }))
        o.append("sourcesDocument", .string(AppleData.sourcesDocument))
        return .object(o)
    }

    /// A content size category.
    static func category(_ c: AppleContentSizeCategory) -> JSON {
        .object([("name", .string(c.name)), ("uikit", .string(c.uikitName)), ("swiftUI", .string(c.swiftUIName)),
                 ("accessibility", .bool(c.isAccessibility))])
    }

    /// A measurement of a foreground on an opaque surface: effective colors, ratio (unrounded),
    /// floored `ratioText`, APCA Lc, WCAG verdicts.
    static func measurement(_ m: ContrastMeasurement) -> JSONObject {
        var o = JSONObject()
        o.append("effectiveForeground", .string(ColorJSON.hex(m.effectiveForeground)))
        o.append("effectiveBackground", .string(ColorJSON.hex(m.effectiveBackground)))
        o.append("ratio", .number(m.ratio))
        o.append("ratioText", .string(WCAG.ratioText(m.ratio)))
        o.append("apcaLc", .number(m.apcaLc))
        return o
    }

    /// `{"AA": {"normalText", "largeText", "nonText"}, "AAA": {...}}` for a ratio.
    static func wcag(_ ratio: Double) -> JSON { ContrastJSON.wcagVerdicts(ratio) }

    /// A requirement: metric, minimum (null when nothing can meet it), basis.
    static func requirement(_ r: ContrastTarget) -> JSON {
        .object([("metric", .string(r.metric.rawValue)), ("minimum", .number(r.minimum.isFinite ? r.minimum : nil)),
                 ("basis", .string(r.basis))])
    }
}
