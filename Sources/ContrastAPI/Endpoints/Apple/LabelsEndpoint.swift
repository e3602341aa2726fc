import AppleDesign
import ColorScience
import Foundation
import HTTPServer
import JSONValue

/// `GET /v1/labels`: contrast of the label hierarchy (label, secondaryLabel, tertiaryLabel,
/// quaternaryLabel, placeholderText) on each system background, composited source-over in sRGB,
/// in every selected context; optionally the same hierarchy built from a custom label color.
///
/// Query (all optional): `appearance`, `level`, `contrast` (filters; absent = all six distinct
/// contexts), `generation`, `background` (one surface instead of the six system backgrounds: a
/// system name or any color; translucent ones are composited over systemBackground),
/// `labelColor` (custom label base color; each level uses it with the system level's alpha
/// multiplied in), `darkLabelColor` (custom base for dark; default `labelColor`).
///
/// Response: `{"generation", "apcaVersion", "facts": [string] (per context: secondaryLabel on
/// systemBackground, and the custom label on its weakest background), "contexts": [{"context", "backgrounds":
/// [{"name", "hex"}], "labels": [{"name", "value", "summary": {"minRatio", "maxRatio", "minText",
/// "maxText", "worstBackground", "meetsAANormalText", "meetsAALargeText"}, "on": [{"background",
/// "backgroundHex", "effectiveForeground", "effectiveBackground", "ratio", "ratioText", "apcaLc",
/// "wcag"}]}], "custom"?: {"base", "labels": [...]}}], "sourcesDocument"}`.
struct LabelsEndpoint {
    static let fields: Set<String> = ["appearance", "level", "contrast", "generation", "background", "labelColor", "darkLabelColor"]

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let data = try AppleData.get()
        let generation = try f.appleGeneration() ?? .newest
        let contexts = try f.appleContextFilter(generation: generation)
        let backgroundText = try f.string("background", maxLength: maxColorLength)
        if let backgroundText { _ = try resolveColor(backgroundText, at: f.field("background"), context: .default) }
        // Custom bases are read once to validate them, then resolved in each context: a system
        // color name (`label`, `systemBlue`) or `light-dark()` takes that context's value (a
        // hostile pass: `label` in dark was black on black, 1:1, resolved in light).
        let customText = try f.string("labelColor", maxLength: maxColorLength)
        let customDarkText = try f.string("darkLabelColor", maxLength: maxColorLength)
        if let customText { _ = try resolveColor(customText, at: f.field("labelColor"), context: .default) }
        if let customDarkText { _ = try resolveColor(customDarkText, at: f.field("darkLabelColor"), context: .default) }
        if customDarkText != nil && customText == nil {
            throw Problem.contradictory(f.field("darkLabelColor"), f.field("labelColor"),
                                        "\(f.field("darkLabelColor").display) overrides \(f.field("labelColor").display) in dark appearance; give \(f.field("labelColor").display) too")
        }

        var facts: [JSON] = []
        var out: [JSON] = []
        for context in contexts {
            // Surfaces in this context.
            var surfaces: [(name: String, srgb: SIMD3<Double>)] = []
            if let backgroundText {
                let c = try resolveColor(backgroundText, at: f.field("background"), context: context)
                let behind = data.catalog.resolve("systemBackground", in: context)?.value.srgb ?? SIMD3(repeating: 1)
                surfaces.append((backgroundText, AppleCompositing.flatten(c.display, over: behind)))
            } else {
                for name in data.catalog.backgroundNames {
                    if let r = data.catalog.resolve(name, in: context) { surfaces.append((name, r.value.srgb)) }
                }
            }
            var labels: [JSON] = []
            var customLabels: [JSON] = []
            let (customField, customInput) = context.appearance == .dark && customDarkText != nil
                ? ("darkLabelColor", customDarkText) : ("labelColor", customText)
            let customBase = try customInput.map { (text: String) throws(Problem) -> ResolvedColor in
                try resolveColor(text, at: f.field(customField), context: context)
            }
            for name in AppleCompositing.labelNames {
                guard let r = data.catalog.resolve(name, in: context) else { continue }
                let rows = surfaces.map { s in (s.name, s.srgb, AppleCompositing.measure(r.value.displayColor, on: s.srgb)) }
                var o = JSONObject()
                o.append("name", .string(name))
                o.append("value", AppleJSON.value(r.value))
                if !r.notes.isEmpty { o.append("notes", .array(r.notes.map { .string($0) })) }
                o.append("summary", summary(rows))
                o.append("on", .array(rows.map(row)))
                labels.append(.object(o))
                // On systemBackground, or on the one background asked for (a new user's pass: with
                // `background` given the facts were empty).
                if name == "secondaryLabel", let sys = rows.first(where: { $0.0 == "systemBackground" }) ?? (backgroundText != nil ? rows.first : nil) {
                    facts.append(.string(fact(context: context, label: name, background: sys.0, surface: sys.1, m: sys.2)))
                }
                if let customBase {
                    let fg = AppleCompositing.customLabel(customBase.display, like: r.value)
                    let customRows = surfaces.map { s in (s.name, s.srgb, AppleCompositing.measure(fg, on: s.srgb)) }
                    // The custom label on its weakest background, beside the system one's fact
                    // (an iOS developer's pass: the facts spoke of secondaryLabel only, 6.36:1,
                    // while the custom label failed at 2.08:1 further down).
                    if name == "label", let worst = customRows.min(by: { $0.2.ratio < $1.2.ratio }) {
                        facts.append(.string(fact(context: context, label: "\(customField) \(ColorJSON.hex(fg.srgb, alpha: fg.alpha)) as label",
                                                  background: worst.0, surface: worst.1, m: worst.2)))
                    }
                    customLabels.append(.object([
                        ("level", .string(name)), ("alpha", .number(fg.alpha)),
                        ("value", .object([("hex", .string(ColorJSON.hex(fg.srgb, alpha: fg.alpha))), ("rgba", ColorJSON.rgba(fg.srgb, alpha: fg.alpha))])),
                        ("summary", summary(customRows)), ("on", .array(customRows.map(row))),
                    ]))
                }
            }
            var c = JSONObject()
            c.append("context", AppleJSON.context(context))
            c.append("backgrounds", .array(surfaces.map { .object([("name", .string($0.name)), ("hex", .string(ColorJSON.hex($0.srgb)))]) }))
            c.append("labels", .array(labels))
            if let customBase {
                c.append("custom", .object([("base", ColorJSON.describe(customBase)), ("labels", .array(customLabels))]))
            }
            out.append(.object(c))
        }
        return .object([
            ("generation", .string(generation.rawValue)),
            APCAJSON.versionMember,
            ("facts", .array(facts)),
            ("contexts", .array(out)),
            ("notes", .array([
                "Labels are translucent: each is composited source-over (straight alpha, gamma-encoded sRGB, as UIKit draws) on the background before the ratio is taken.",
                "Apple intends tertiaryLabel, quaternaryLabel and placeholderText for de-emphasized content; they never reach 4.5:1.",
            ])),
            ("sourcesDocument", .string(AppleData.sourcesDocument)),
        ])
    }

    /// One label-on-background row.
    static func row(_ r: (String, SIMD3<Double>, ContrastMeasurement)) -> JSON {
        var o = JSONObject()
        o.append("background", .string(r.0))
        o.append("backgroundHex", .string(ColorJSON.hex(r.1)))
        for (k, v) in AppleJSON.measurement(r.2).members { o.append(k, v) }
        o.append("wcag", AppleJSON.wcag(r.2.ratio))
        return .object(o)
    }

    /// Lowest and highest ratio over the backgrounds, where the lowest occurs, and whether every
    /// background meets WCAG AA for normal (4.5:1) and large (3:1) text.
    static func summary(_ rows: [(String, SIMD3<Double>, ContrastMeasurement)]) -> JSON {
        guard let worst = rows.min(by: { $0.2.ratio < $1.2.ratio }), let best = rows.max(by: { $0.2.ratio < $1.2.ratio }) else {
            return .null
        }
        return .object([
            ("minRatio", .number(worst.2.ratio)), ("maxRatio", .number(best.2.ratio)),
            ("minText", .string(WCAG.ratioText(worst.2.ratio))), ("maxText", .string(WCAG.ratioText(best.2.ratio))),
            ("worstBackground", .string(worst.0)),
            ("meetsAANormalText", .bool(worst.2.ratio >= WCAG.aaNormalText)),
            ("meetsAALargeText", .bool(worst.2.ratio >= WCAG.aaLargeText)),
        ])
    }

    /// A plain sentence, e.g. "light: secondaryLabel on systemBackground (#ffffff) is about
    /// 3.44:1 (floored 3.43:1): below WCAG AA for text up to 17 pt (4.5:1), enough for large text (3:1)."
    static func fact(context: AppleColorContext, label: String, background: String, surface: SIMD3<Double>,
                     m: ContrastMeasurement) -> String {
        let about = String(format: "%.2f", m.ratio)
        let verdict: String
        if m.ratio >= WCAG.aaNormalText {
            verdict = "meets WCAG AA for text of any size (4.5:1)"
        } else if m.ratio >= WCAG.aaLargeText {
            verdict = "below WCAG AA for text up to 17 pt (4.5:1), enough for large text (3:1)"
        } else {
            verdict = "below WCAG AA even for large text (3:1)"
        }
        // The floored ratio only where it differs from the rounded one ("about 6.36:1 (floored
        // 6.36:1)" said it twice: an iOS designer's pass, stop 38).
        let floored = WCAG.ratioText(m.ratio)
        let shown = floored == about ? "\(about):1" : "about \(about):1 (floored \(floored):1)"
        return "\(context.id): \(label) on \(background) (\(ColorJSON.hex(surface))) is \(shown): \(verdict)."
    }
}
