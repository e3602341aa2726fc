import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `GET /v1/system-colors`: the Apple system color catalog, resolved in every selected context.
///
/// Query (all optional): `appearance` (light|dark), `level` (base|elevated), `contrast`
/// (standard|increased), `generation` (ios15-18|ios26, default ios26), `category` (background,
/// groupedBackground, label, fill, separator, gray, tint, link), `name` (one color, e.g.
/// `systemBlue` or `UIColor.systemBlue`). Absent filters list every value; light elevated is
/// listed only when `level=elevated` is asked for (it equals light base).
///
/// Response: `{"generation", "contexts": [context], "count", "colors": [{"name", "uikit",
/// "category", "dependsOnLevel", "values": [{"context", "value": {"hex", "rgba"},
/// "relativeLuminance", "valueGeneration", "entry", "confidence", "source", "notes",
/// "alternatives"}]}], "sourcesDocument"}`.
struct SystemColorsEndpoint {
    static let fields: Set<String> = ["appearance", "level", "contrast", "generation", "category", "name"]

    static let categoryAliases: [String: AppleColorCategory] = [
        "backgrounds": .background, "groupedbackgrounds": .groupedBackground, "labels": .label, "fills": .fill,
        "separators": .separator, "grays": .gray, "greys": .gray, "tints": .tint, "links": .link,
    ]

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let data = try AppleData.get()
        let generation = try f.appleGeneration() ?? .newest
        let contexts = try f.appleContextFilter(generation: generation)
        let category = try f.appleChoice("category", AppleColorCategory.self, what: "category", aliases: categoryAliases)
        var colors = data.catalog.colors
        if let raw = try f.string("name", maxLength: 128) {
            var name = raw.trimmingWhitespace(newlines: false)
            if name.hasPrefix("UIColor.") { name.removeFirst("UIColor.".count) }
            guard let color = data.catalog.color(named: name) else {
                // Another platform's spelling (`Color.blue`, `.systemBlue`, `NSColor.labelColor`) is
                // named as /v1/contrast names it (an iOS designer's pass, stop 39: "unknown system
                // color", no suggestion).
                _ = try resolveSystemColor(raw, at: f.field("name"), context: .default)
                throw Problem.unknownName(f.field("name"), what: "system color", got: raw, known: [],
                                          suggestions: data.catalog.suggestions(for: name))
            }
            if let category, category != color.category {
                throw Problem.contradictory(f.field("category"), f.field("name"),
                                            "\(f.field("name").display): \(name) is in category \(color.category.rawValue), not \(f.field("category").display) \(category.rawValue)")
            }
            colors = [color]
        } else if let category {
            colors = colors.filter { $0.category == category }
        }

        var list: [JSON] = []
        for color in colors {
            var values: [JSON] = []
            for context in contexts {
                guard let r = data.catalog.resolve(color.name, in: context) else { continue }
                var v = JSONObject()
                v.append("context", AppleJSON.context(context))
                v.append("value", AppleJSON.value(r.value))
                if r.value.alpha >= 1 { v.append("relativeLuminance", .number(WCAG.relativeLuminance(r.value.srgb))) }
                v.append("valueGeneration", .string(r.valueGeneration.rawValue))
                v.append("entry", .string(r.entry))
                v.append("confidence", .string(r.confidence.rawValue))
                v.append("source", .string(r.source))
                v.append("notes", .array(r.notes.map { .string($0) }))
                v.append("alternatives", .array(r.alternatives.map { AppleJSON.value($0.value) }))
                values.append(.object(v))
            }
            list.append(.object([
                ("name", .string(color.name)), ("uikit", .string("UIColor.\(color.name)")),
                ("category", .string(color.category.rawValue)), ("dependsOnLevel", .bool(color.dependsOnLevel)),
                ("values", .array(values)),
            ]))
        }
        return .object([
            ("generation", .string(generation.rawValue)),
            ("contexts", .array(contexts.map(AppleJSON.context))),
            ("count", .number(Double(list.count))),
            ("colors", .array(list)),
            ("notes", .array([
                "Values are sRGB as published (0–255, alpha 0–1); translucent colors must be composited before measuring contrast.",
                "Apple: \"Avoid hard-coding system color values … The actual color values may fluctuate from release to release\" (HIG Color).",
            ])),
            ("sourcesDocument", .string(AppleData.sourcesDocument)),
        ])
    }
}
