import AppleDesign
import ColorScience
import HTTPServer
import JSONValue
import Synchronization

/// `GET /v1/materials`: approximate contrast of the vibrancy levels (4 labels, 3 fills,
/// 1 separator) on the iOS materials (ultraThin, thin, regular, thick, chrome) in light and dark,
/// over the content behind them, with default settings, Reduce Transparency, and Increase Contrast.
///
/// All material values are documented approximations (LOW confidence; Apple publishes none):
/// see `materials` in `apple_hig_supplement.json` and sources §7.
///
/// Query (all optional): `material` (one of the five), `appearance` (light|dark), `generation`
/// (for the separator and label colors), `content` (one content color behind the material;
/// default: every gray from black to white, reported as a worst-case range).
///
/// Response: `{"approximate": true, "confidence": "low", "model", "notes", "content",
/// "materials": [{"name", "uikit", "swiftUI", "appearances": [{"appearance", "tint", "source",
/// "modes": [{"mode", "context", "levels": [{"level", "systemColor", "value", "isText",
/// "minRatio", "maxRatio", "minRatioText", "maxRatioText", "worstContent", "worstSurface",
/// "apcaLc", "threshold", "meetsThreshold", "recommended", "warning"?}]}]}]}]}`.
struct MaterialsEndpoint {
    static let fields: Set<String> = ["material", "appearance", "generation", "content"]

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let data = try AppleData.get()
        // The UIKit and SwiftUI names the answer itself prints are accepted too, whole or as their
        // last part (`UIBlurEffect.Style.systemThinMaterial`, `systemThinMaterial`,
        // `Material.thinMaterial`, `.thinMaterial`: an iOS designer's pass, stop 39, had them refused).
        var aliases: [String: AppleMaterialKind] = [
            "ultrathinmaterial": .ultraThin, "thinmaterial": .thin, "regularmaterial": .regular,
            "thickmaterial": .thick, "chromematerial": .chrome, "bar": .chrome,
        ]
        for m in data.materials {
            for name in [m.uikitName, m.swiftUIName] {
                aliases[name.lowercased()] = m.kind
                if let last = name.split(separator: ".").last { aliases[String(last).lowercased()] = m.kind; aliases["." + last.lowercased()] = m.kind }
            }
        }
        let kind = try f.appleChoice("material", AppleMaterialKind.self, what: "material", aliases: aliases)
        let appearances = try f.appleChoice("appearance", AppleAppearance.self, what: "appearance").map { [$0] } ?? AppleAppearance.allCases
        let generation = try f.appleGeneration() ?? .newest
        // A system color name resolves in the generation asked for (an iOS developer's pass: the echo
        // named iOS 26's #0088ff for systemBlue with generation ios15-18, whose rows used #007aff).
        let content = try f.color("content", context: AppleColorContext(generation: generation))
        if let content, content.display.alpha < 1 {
            throw Problem.invalidField(f.field("content"), "\(f.field("content").display) must be opaque: it is what lies behind the material")
        }
        // Over every gray the answer costs 25–40 ms and depends on nothing but the material,
        // appearance and generation asked for (a hostile pass: four clients asking for it held
        // small requests 30 ms); it is kept once made (at most 7 × 3 × generations answers).
        let key = content == nil ? "\(kind.map { "\($0)" } ?? "*")|\(appearances.map(\.rawValue))|\(generation.rawValue)" : nil
        if let key, let kept = Self.grayAnswers.withLock({ $0[key] }) { return kept }
        let answer = try build(data: data, kind: kind, appearances: appearances, generation: generation, content: content,
                               contentPath: f.field("content"))
        if let key { Self.grayAnswers.withLock { $0[key] = answer } }
        return answer
    }

    /// The answers over every gray, by material, appearances and generation.
    static let grayAnswers = Mutex<[String: JSON]>([:])

    static func build(data: AppleData, kind: AppleMaterialKind?, appearances: [AppleAppearance], generation: AppleCatalogGeneration,
                      content: ResolvedColor?, contentPath: FieldPath = .query("content")) throws(Problem) -> JSON {
        let quaternaryWarning = data.materialNotes["quaternaryWarning"].flatMap(AppleData.stringValue)
            ?? "HIG Materials: avoid quaternaryLabel on thin and ultraThin materials."

        var materials: [JSON] = []
        for material in data.materials where kind == nil || material.kind == kind {
            var perAppearance: [JSON] = []
            for appearance in appearances {
                guard let tint = material.tint[appearance] else { continue }
                var modes: [JSON] = []
                for mode in AppleMaterialMode.allCases {
                    let context = AppleColorContext(appearance: appearance, level: .base,
                                                    contrast: mode == .increaseContrast ? .increased : .standard,
                                                    generation: generation)
                    // A system color name or light-dark() as the content takes this context's
                    // value (a hostile pass found /v1/labels' custom colors resolved in light
                    // everywhere; the content here too).
                    var contents = AppleMaterials.grayContent
                    if let content {
                        let c = try resolveColor(content.input, at: contentPath, context: context)
                        guard c.display.alpha >= 1 else {
                            throw Problem.invalidField(contentPath, "\(contentPath.display) must be opaque: it is what lies behind the material (in \(context.id) it is not)")
                        }
                        contents = [c.display.srgb]
                    }
                    var levels: [JSON] = []
                    for level in AppleVibrancyLevel.allCases {
                        guard let r = data.catalog.resolve(level.systemColorName, in: context) else { continue }
                        let m = AppleMaterials.contrast(of: r.value.displayColor, tint: tint, contents: contents,
                                                        reduceTransparency: mode == .reduceTransparency)
                        let threshold = level.isText ? WCAG.aaNormalText : WCAG.aaNonText
                        let discouraged = level == .quaternaryLabel && material.kind.discouragesQuaternaryLabel
                        var o = JSONObject()
                        o.append("level", .string(level.rawValue))
                        o.append("systemColor", .string(level.systemColorName))
                        o.append("value", AppleJSON.value(r.value))
                        o.append("isText", .bool(level.isText))
                        o.append("minRatio", .number(m.minRatio))
                        o.append("maxRatio", .number(m.maxRatio))
                        o.append("minRatioText", .string(WCAG.ratioText(m.minRatio)))
                        o.append("maxRatioText", .string(WCAG.ratioText(m.maxRatio)))
                        o.append("worstContent", .string(ColorJSON.hex(m.worstContent)))
                        o.append("worstSurface", .string(ColorJSON.hex(m.worstSurface)))
                        o.append("worstForeground", .string(ColorJSON.hex(m.worstForeground)))
                        o.append("apcaLc", .number(m.minLc))
                        o.append("threshold", .number(threshold))
                        o.append("meetsThreshold", .bool(m.minRatio >= threshold))
                        o.append("recommended", .bool(!discouraged))
                        if discouraged { o.append("warning", .string(quaternaryWarning)) }
                        if !r.notes.isEmpty { o.append("notes", .array(r.notes.map { .string($0) })) }
                        levels.append(.object(o))
                    }
                    modes.append(.object([
                        ("mode", .string(mode.rawValue)), ("context", AppleJSON.context(context)),
                    ] + (content == nil ? [] : [("contentHex", .string(ColorJSON.hex(contents[0])))]) + [
                        ("surface", mode == .reduceTransparency
                            ? .string(ColorJSON.hex(tint.srgb))
                            : .string("tint \(ColorJSON.hex(tint.srgb, alpha: tint.alpha)) over the content")),
                        ("levels", .array(levels)),
                    ]))
                }
                perAppearance.append(.object([
                    ("appearance", .string(appearance.rawValue)), ("tint", AppleJSON.value(tint)),
                    ("source", .string(material.source[appearance] ?? "")), ("modes", .array(modes)),
                ]))
            }
            materials.append(.object([
                ("name", .string(material.kind.rawValue)), ("uikit", .string(material.uikitName)),
                ("swiftUI", .string(material.swiftUIName)), ("approximate", .bool(true)),
                ("appearances", .array(perAppearance)),
            ]))
        }

        var out = JSONObject()
        out.append("approximate", .bool(true))
        out.append("confidence", data.materialNotes["confidence"] ?? .string("low"))
        for key in ["model", "vibrancyModel", "reduceTransparency", "increaseContrast", "quaternaryWarning", "sources"] {
            if let v = data.materialNotes[key] { out.append(key, v) }
        }
        out.append("thresholds", .string("labels: 4.5:1 (WCAG AA text); fills and separator: 3:1 (WCAG SC 1.4.11, only where the element is needed to identify a control)"))
        out.append("generation", .string(generation.rawValue))
        out.append(APCAJSON.versionMember.0, APCAJSON.versionMember.1)
        out.append("content", content.map { ColorJSON.describe($0) }
            ?? .string("every gray from #000000 to #ffffff (256 levels); ratios are the range, verdicts use the minimum"))
        out.append("materials", .array(materials))
        out.append("sourcesDocument", .string(AppleData.sourcesDocument))
        return .object(out)
    }
}
