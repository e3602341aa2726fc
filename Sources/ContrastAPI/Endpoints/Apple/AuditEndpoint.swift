import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/audit`: custom colors with roles, each measured on every system background it can
/// sit on in every distinct context (light; dark base and elevated; increased contrast in both
/// appearances), translucent colors composited on each, judged by a policy.
///
/// Request: `{"colors": [color, …] (1–32), "policy"?: "hig" (default) | "wcag-aa" | "wcag-aaa" |
/// "apca", "generation"?: "ios15-18" | "ios26", "hexOrder"?}` where each color is a color string
/// (role text) or `{"name"?, "role"?: "text" (default) | "secondaryText" | "icon" | "nonText" |
/// "tint" | "background", "color", "dark"?, "increasedContrast"?, "darkIncreasedContrast"?,
/// "textStyle"?, "contentSizeCategory"?, "fontSize"?, "fontSizeUnit"?, "fontWeight"?, "on"?}`.
/// Colors may be CSS or Apple system color names; names resolve in each context. Text sizes are
/// only accepted for text, secondaryText and tint.
///
/// Surfaces: the six system backgrounds, plus every `background`-role color of the request
/// (composited over each system background when translucent); with `on` (as
/// `/v1/palette/dark` takes it: up to 4 names of the request's `background`-role colors, plus
/// `"system"` to keep the system backgrounds), only those. A `background`-role color is
/// judged by the system `label` color on it, or the other appearance's label where that
/// contrasts more (white on a dark fill in light mode).
///
/// Response: `{"policy", "generation", "passes", "summary": {"colors", "passing", "failing"},
/// "contexts": [context], "colors": [{"name", "role", "input", "text", "requirement",
/// "contexts": [{"context", "variant", "color", "surfaces": [{"surface", "surfaceHex",
/// "foreground", "effectiveForeground", "ratio", "ratioText", "apcaLc", "value", "passes"}],
/// "worst", "passes"}], "worstCase", "passes", "failingContexts", "suggestion", "suggestionNote"}],
/// "notes"}`. `suggestion` is null when every context passes, else `{"contexts": [{"context",
/// "hex", "rgba", "oklch", "direction", "deltaEOK", "deltaE2000", "worst", "passes"}], "method"}`:
/// per failing context the nearest color of the same hue that passes on all its surfaces
/// (see ``ColorAudit`` for the algorithm, ``AuditSuggestion`` for its JSON).
struct AuditEndpoint {
    static let fields: Set<String> = ["colors", "policy", "generation", "hexOrder"]
    static let colorFields: Set<String> = AdaptiveColorInput.objectFields.union([
        "name", "role", "textStyle", "contentSizeCategory", "fontSize", "fontSizeUnit", "fontWeight", "on",
    ])
    static let maxColors = 32

    static let policyAliases: [String: AppleContrastPolicy] = [
        "aa": .wcagAA, "aaa": .wcagAAA, "wcag2-aa": .wcagAA, "wcag2-aaa": .wcagAAA, "wcagaa": .wcagAA, "wcagaaa": .wcagAAA,
    ]

    struct AuditColor {
        var name: String
        var role: AppleColorRole
        var input: AdaptiveColorInput
        var inputJSON: JSON
        var text: AppleTextRequirement?
        var textStyle: TextStyleSelection?
        var requirement: ContrastTarget
        /// The request's background colors it is placed on (nil: all of them and the system
        /// backgrounds), and whether the system backgrounds count too.
        var on: [String]? = nil
        var onSystem = true
    }

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let data = try AppleData.get()
        let policy = try f.appleChoice("policy", AppleContrastPolicy.self, what: "policy", aliases: policyAliases) ?? .hig
        let generation = try f.appleGeneration() ?? .newest
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        guard let items = try f.array("colors", required: true, maxCount: maxColors), !items.isEmpty else {
            throw Problem.invalidField(f.field("colors"), "\(f.field("colors").display) must list at least one color")
        }
        var colors: [AuditColor] = []
        var names = UniqueNames(of: f.field("colors"))
        for (i, item) in items.enumerated() {
            let path = f.field("colors").appending(index: i)
            let color = try parseColor(item, at: path, index: i, fromQuery: f.fromQuery, hexOrder: hexOrder, policy: policy, data: data)
            // Names are unique, as in /v1/palette/dark (a hostile pass: two backgrounds named
            // "card" were both measured for `on: ["card"]`, each row labelled custom:card).
            try names.add(color.name, at: i)
            colors.append(color)
        }
        // `on` names background-role colors of the request.
        try OnBackgrounds.rejectBackgroundNamedSystem(colors.map { ($0.role, $0.name) }, used: colors.contains { $0.on != nil },
                                                      colors: f.field("colors"))
        let backgroundNames = colors.filter { $0.role == .background }.map(\.name)
        for (i, color) in colors.enumerated() {
            for (j, name) in (color.on ?? []).enumerated() where !backgroundNames.contains(name) {
                let path = f.field("colors").appending(index: i).appending("on").appending(index: j)
                throw Problem.invalidField(path, "\(path.display): \(ClientText.quoted(name)) is not the name of a background-role color of the request\(backgroundNames.isEmpty ? " (it has none: give one with \"role\": \"background\")" : " (\(backgroundNames.prefix(8).map { ClientText.quoted($0) }.joined(separator: ", ")))"), nor \"system\"")
            }
        }

        let contexts = AppleColorContext.distinctContexts(generation: generation)
        var results: [JSON] = []
        var passing = 0
        for color in colors {
            try request.stopIfAbandoned()
            let (json, passes) = try audit(color, colors: colors, contexts: contexts, data: data)
            if passes { passing += 1 }
            results.append(json)
        }
        return .object([
            ("policy", .string(policy.rawValue)),
            ("generation", .string(generation.rawValue)),
            APCAJSON.versionMember,
            ("passes", .bool(passing == colors.count)),
            ("summary", .object([("colors", .number(Double(colors.count))), ("passing", .number(Double(passing))),
                                 ("failing", .number(Double(colors.count - passing)))])),
            ("contexts", .array(contexts.map(AppleJSON.context))),
            ("surfaces", .array(data.catalog.backgroundNames.map { .string($0) })),
            ("colors", .array(results)),
            ("notes", .array([
                "Each color is measured on every surface in every context; a color passes only if it passes everywhere. Light elevated is not listed: it equals light base.",
                "Translucent colors are composited source-over (gamma-encoded sRGB, straight alpha) on each surface before measuring.",
                "ratio is unrounded; ratioText is floored to two decimals so a shown number never passes when the real one fails.",
            ])),
            ("sourcesDocument", .string(AppleData.sourcesDocument)),
        ])
    }

    static func parseColor(_ item: JSON, at path: FieldPath, index: Int, fromQuery: Bool, hexOrder: HexOrder,
                           policy: AppleContrastPolicy, data: AppleData) throws(Problem) -> AuditColor {
        guard case .object(let o) = item else {
            let input = try AdaptiveColorInput.parse(item, at: path, fromQuery: fromQuery, hexOrder: hexOrder)
            return AuditColor(name: input.text, role: .text, input: input, inputJSON: item, text: nil, textStyle: nil,
                              requirement: .apple(role: .text, policy: policy, text: nil))
        }
        let cf = Fields(object: o, path: path, fromQuery: fromQuery)
        try cf.rejectUnknown(colorFields)
        // The palette routes' role aliases (`accent`, `fill`, …), one table for both (a new
        // user's pass: `/v1/audit` refused `fill`).
        let role = try cf.appleChoice("role", AppleColorRole.self, what: "role", aliases: PaletteRequest.roleAliases) ?? .text
        var colorMembers = JSONObject()
        for (k, v) in o.members where AdaptiveColorInput.objectFields.contains(k) { colorMembers.append(k, v) }
        let input = try AdaptiveColorInput.parse(.object(colorMembers), at: path, fromQuery: fromQuery, hexOrder: hexOrder)
        // An empty or blank name would key the color's rows by nothing (`Fields.name`).
        let name = try cf.name("name", maxLength: 128) ?? input.text

        var text: AppleTextRequirement?
        var style: TextStyleSelection?
        let sizeKeys = ["textStyle", "contentSizeCategory", "fontSize", "fontSizeUnit", "fontWeight"]
        if !role.acceptsTextSize {
            if let key = sizeKeys.first(where: { cf.has($0) }) {
                throw Problem.contradictory(cf.field(key), cf.field("role"),
                                            "\(cf.field(key).display) gives a text size, but \(cf.field("role").display) \(role.rawValue) is not text; use role text, secondaryText or tint, or drop \(cf.field(key).display)")
            }
        } else if let s = try TextStyleSelection.from(cf, table: data.dynamicType) {
            style = s
            text = s.requirement
        } else {
            let weight = try cf.appleFontWeight() ?? 400
            let unit = try cf.choice("fontSizeUnit", FontSizeUnit.self) ?? .pt
            if let size = try cf.number("fontSize", in: 0.1...1000) {
                // APCA reads pt as px (the Apple convention) and px as given.
                text = AppleTextRequirement(points: unit.points(size), weight: weight, apcaPx: unit == .pt ? size : unit.cssPixels(size))
            } else if let given = ["fontWeight", "fontSizeUnit"].first(where: cf.has) {
                throw Problem.invalidField(cf.field("fontSize"), "\(cf.field("fontSize").display) (or \(cf.field("textStyle").display)) is required when \(cf.field(given).display) is given")
            }
        }
        var color = AuditColor(name: name, role: role, input: input, inputJSON: .object(colorMembers), text: text, textStyle: style,
                               requirement: .apple(role: role, policy: policy, text: text))
        // `on`, as /v1/palette/dark reads it (an iOS designer's pass: chip text could not be tied
        // to its chip here).
        if let placement = try OnBackgrounds.parse(cf, role: role, of: "request") {
            (color.on, color.onSystem) = (placement.names, placement.system)
        }
        return color
    }

    static func audit(_ color: AuditColor, colors: [AuditColor], contexts: [AppleColorContext],
                      data: AppleData) throws(Problem) -> (JSON, Bool) {
        let req = color.requirement
        var contextJSON: [JSON] = []
        var worstCase: (context: AppleColorContext, row: ColorAudit.Row)?
        var failing: [String] = []
        var suggestions: [JSON] = []
        // Contexts where the background passes only under the other appearance's label, and the
        // system's own label's worst ratio there (an iOS designer's pass: a light card with no
        // dark variant "passed" dark mode with black text, where UIKit draws white label on it).
        var overrides: [(context: String, own: String, weakest: ContrastMeasurement)] = []
        var systemName: String?
        // Text of the request's own placed on this background (`on` naming it) is what shows on
        // it, not the system label: no such note then (a new user's pass: white "chip text" at
        // 5.61:1 on a #5b4cf0 chip, and the chip still told to get a variant for black label).
        let carriesOwnText = color.role == .background && colors.contains { $0.role != .background && $0.on?.contains(color.name) == true }
        for context in contexts {
            let systemSurfaces = ColorAudit.systemSurfaces(in: context, catalog: data.catalog)
            let (variant, resolved) = try color.input.resolve(in: context)
            if let system = resolved.systemColor { systemName = system.name }
            var customBackgrounds: [(name: String, color: DisplayColor)] = []
            if color.role != .background {
                for other in colors where other.role == .background && (color.on?.contains(other.name) ?? true) {
                    customBackgrounds.append((other.name, try other.input.resolve(in: context).color.display))
                }
            }
            let rows = ColorAudit.rows(of: resolved.display, named: color.name, role: color.role, requirement: req,
                                       customBackgrounds: customBackgrounds, systemSurfaces: systemSurfaces,
                                       onSystemBackgrounds: color.onSystem, in: context, catalog: data.catalog)
            guard let worst = rows.min(by: { $0.value < $1.value }) else { continue }
            let passes = rows.allSatisfy(\.passes)
            if color.role == .background, !carriesOwnText, worst.foreground.hasPrefix("label ("),
               let own = data.catalog.resolve("label", in: context)?.value.displayColor {
                let ownRows = rows.map { AppleCompositing.measure(own, on: $0.surfaceColor) }
                if !ownRows.allSatisfy(req.isMet), let weakest = ownRows.min(by: { req.value(of: $0) < req.value(of: $1) }) {
                    overrides.append((context.id, ColorJSON.hex(own.srgb, alpha: own.alpha), weakest))
                }
            }
            if !passes {
                failing.append(context.id)
                let fix = ColorAudit.fix(resolved.display, role: color.role, surfaces: rows.map(\.surfaceColor),
                                         systemSurfaces: systemSurfaces.map(\.srgb), requirement: req,
                                         in: context, catalog: data.catalog)
                suggestions.append(AuditSuggestion.context(context, fix: fix, from: resolved.display, requirement: req))
            }
            if worstCase == nil || worst.value < worstCase!.row.value { worstCase = (context, worst) }
            var c = JSONObject()
            c.append("context", AppleJSON.context(context))
            c.append("variant", .string(variant))
            c.append("color", ColorJSON.describe(resolved))
            c.append("surfaces", .array(rows.map(rowJSON)))
            c.append("worst", rowJSON(worst))
            c.append("passes", .bool(passes))
            contextJSON.append(.object(c))
        }

        var o = JSONObject()
        o.append("name", .string(color.name))
        o.append("role", .string(color.role.rawValue))
        o.append("input", color.inputJSON)
        o.append("text", textJSON(color))
        o.append("requirement", AppleJSON.requirement(req))
        o.append("contexts", .array(contextJSON))
        if let w = worstCase {
            var wc = rowJSON(w.row)
            if case .object(var obj) = wc {
                obj.set("context", .string(w.context.id))
                wc = .object(obj)
            }
            o.append("worstCase", wc)
        }
        o.append("passes", .bool(failing.isEmpty))
        o.append("failingContexts", .array(failing.map { .string($0) }))
        o.append("suggestion", AuditSuggestion.json(suggestions))
        o.append("suggestionNote", .string(AuditSuggestion.note))
        var notes: [JSON] = []
        // An iOS designer's pass: the audit suggested #006be0 for systemBlue without a word.
        if let systemName, !suggestions.isEmpty {
            notes.append(.string("\(systemName) is Apple's color: iOS shows Apple's values in every context whatever an app sets, so a suggestion is a custom color to use in its place (an asset catalog or code), not a change to \(systemName)"))
        }
        // One note per appearance: a background whose dark variant turns its polarity needs the
        // dark label in light and the light label in dark, each with its own label's worst (an
        // iOS developer's pass: one note named light's #000000 with dark's 1.70:1, white's).
        for inDark in [false, true] {
            let group = overrides.filter { $0.context.hasPrefix("dark") == inDark }
            guard let first = group.first else { continue }
            let other = inDark ? "light" : "dark"
            let weakest = group.map(\.weakest).min { req.value(of: $0) < req.value(of: $1) } ?? first.weakest
            notes.append(.string("in \(group.map(\.context).joined(separator: ", ")) text on \(color.name) passes only as label in the \(other) appearance, which its content shows only when set so (overrideUserInterfaceStyle = .\(other) in UIKit, .environment(\\.colorScheme, .\(other)) in SwiftUI); the system label there (\(first.own)) is \(req.measuredText(weakest)) at worst (\(req.minimumText) needed): give \(color.name) a variant for that appearance, or set its content's appearance"))
        }
        if !notes.isEmpty { o.append("notes", .array(notes)) }
        return (.object(o), failing.isEmpty)
    }

    static func rowJSON(_ r: ColorAudit.Row) -> JSON {
        ColorJSON.surfaceRow(surface: r.surface, surfaceColor: r.surfaceColor, foreground: r.foreground, r.measurement,
                             value: r.value, passes: r.passes)
    }

    static func textJSON(_ c: AuditColor) -> JSON {
        if let style = c.textStyle { return style.json(ratio: nil, lc: nil) }
        guard let t = c.text else {
            return c.role.acceptsTextSize ? .string("no size given: judged as body text (17 pt Regular)") : .null
        }
        return .object([
            ("points", .number(t.points)), ("cssWeight", .number(Double(t.weight))), ("isLargeText", .bool(t.isLargeText)),
            ("apcaMinimumLc", .number(t.apcaMinimumLc)),
            ("warnings", .array(t.weightWarning.map { [.string($0)] } ?? [])),
        ])
    }
}
