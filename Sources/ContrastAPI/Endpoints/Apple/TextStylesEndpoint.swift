import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `GET /v1/text-styles`: the iOS Dynamic Type text styles (largeTitle … caption2) with size,
/// weight and leading at every content size category (xSmall … xxxLarge, AX1 … AX5), what each
/// size means for contrast, and the platform default and minimum text sizes.
///
/// Source: HIG Typography, "iOS, iPadOS Dynamic Type sizes" and "larger accessibility type
/// sizes" (December 2025), in `apple_hig_supplement.json`; platform sizes from
/// `apple_system_colors.json` (HIG "Ensuring legibility").
///
/// Query (all optional): `textStyle` (one style; aliases `title`, `caption`, `subhead`),
/// `contentSizeCategory` (one category by HIG, UIKit or SwiftUI name, e.g. `AX1`,
/// `accessibilityMedium`, `accessibility1`), `fontWeight` (a weight name or 1–1000, or
/// `emphasized`: replaces each style's weight when deriving the requirements).
///
/// Response: `{"source", "defaultCategory", "categories": [category], "platformSizes":
/// [{"platform", "defaultSize", "minimumSize"}], "styles": [{"name", "title", "weight",
/// "emphasizedWeight", "trackingAtLarge", "sizes": [{"contentSizeCategory", "size", "leading",
/// "cssWeight", "isLargeText", "requiredRatio": {"AA", "AAA", "hig"}, "apcaMinimumLc",
/// "warnings"}]}], "notes"}`. Sizes and leading in points.
struct TextStylesEndpoint {
    static let fields: Set<String> = ["textStyle", "contentSizeCategory", "fontWeight"]

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let data = try AppleData.get()
        let table = data.dynamicType
        var styles = table.styles
        if let name = try f.string("textStyle", maxLength: 64) {
            guard let s = table.style(named: name) else {
                let names = table.styles.map(\.name)
                throw Problem.unknownName(f.field("textStyle"), what: "text style", got: name, known: names,
                                          suggestions: NameSuggestions.suggestions(for: name, among: names + table.aliases.keys.sorted()))
            }
            styles = [s]
        }
        var indices = Array(table.categories.indices)
        if let c = try f.string("contentSizeCategory", maxLength: 64) {
            guard let i = table.categoryIndex(named: c) else {
                throw Problem.unknownName(f.field("contentSizeCategory"), what: "content size category", got: c,
                                          known: table.categories.map(\.name),
                                          suggestions: NameSuggestions.suggestions(for: c, among: table.categoryNames))
            }
            indices = [i]
        }
        // `emphasized` needs a style to know its weight; resolve it per style below.
        let weightIsEmphasized = (try f.string("fontWeight", maxLength: 64))?.lowercased() == "emphasized"
        let overrideWeight = try weightIsEmphasized ? nil : f.appleFontWeight()
        let iosMinimum = data.platformTextSizes.first { $0.platform.hasPrefix("iOS") }?.minimumPoints

        var list: [JSON] = []
        for style in styles {
            let weight = weightIsEmphasized ? style.emphasizedWeight.cssWeight : (overrideWeight ?? style.weight.cssWeight)
            var sizes: [JSON] = []
            for i in indices {
                let points = style.sizes[i]
                let r = AppleTextRequirement(points: points, weight: weight)
                var o = JSONObject()
                o.append("contentSizeCategory", AppleJSON.category(table.categories[i]))
                o.append("size", .number(points))
                o.append("leading", .number(style.leading[i]))
                o.append("cssWeight", .number(Double(weight)))
                o.append("isLargeText", .bool(r.isLargeText))
                o.append("requiredRatio", .object([("AA", .number(r.wcagAA)), ("AAA", .number(r.wcagAAA)), ("hig", .number(r.hig))]))
                o.append("apcaMinimumLc", .number(r.apcaMinimumLc))
                if let iosMinimum { o.append("belowPlatformMinimum", .bool(points < iosMinimum)) }
                o.append("warnings", .array(r.weightWarning.map { [.string($0)] } ?? []))
                sizes.append(.object(o))
            }
            var s = JSONObject()
            s.append("name", .string(style.name))
            s.append("title", .string(style.title))
            s.append("weight", .string(style.weight.rawValue))
            s.append("emphasizedWeight", .string(style.emphasizedWeight.rawValue))
            s.append("trackingAtLarge", .number(data.largeTracking[style.name]))
            s.append("sizes", .array(sizes))
            list.append(.object(s))
        }
        return .object([
            ("source", .string(data.dynamicTypeSource)),
            ("defaultCategory", .string(table.categories[table.defaultCategoryIndex].name)),
            APCAJSON.versionMember,
            ("categories", .array(table.categories.map(AppleJSON.category))),
            ("platformSizes", .array(data.platformTextSizes.map {
                .object([("platform", .string($0.platform)), ("defaultSize", .number($0.defaultPoints)),
                         ("minimumSize", .number($0.minimumPoints))])
            })),
            ("styles", .array(list)),
            ("notes", .array([
                .string(AppleJSON.sizeNote),
                "requiredRatio.hig: the HIG Dark Mode guidance for custom colors (7:1 for small text, never below 4.5:1).",
                "apcaMinimumLc: the smallest Lc (0.1 steps) at which apca-w3 0.1.9's font lookup allows the size and weight; null when none does.",
            ])),
        ])
    }
}
