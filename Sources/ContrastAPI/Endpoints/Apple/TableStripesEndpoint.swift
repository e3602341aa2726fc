import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/table-stripes`: proposes the alternate row color of a striped table for light and
/// dark appearance, visibly distinct from the base row (ΔE OK ≥ `minDeltaE`) while every text
/// color keeps `targetRatio` on both rows (algorithm: `TableStripes` in ColorScience).
///
/// Request: `{"textColors": [color, …] (1–16, required), "background"?: color (default
/// "systemBackground"), "darkBackground"?: color, "targetRatio"?: 1–21 (default 4.5, WCAG AA
/// text), "minDeltaE"?: 0.005–1 (default 0.03), "minRowContrast"?: 1–21 (default 1.1: WCAG
/// luminance ratio between the rows, since ΔE OK overstates differences near black), "level"?, "contrast"?, "generation"?,
/// "hexOrder"?}`. Colors are CSS or Apple system color names (resolved per appearance), or
/// `{"color", "dark"?, "increasedContrast"?, "darkIncreasedContrast"?}`. A translucent background
/// is composited over systemBackground.
///
/// Response: `{"targetRatio", "minDeltaE", "generation", "appearances": [{"appearance",
/// "context", "found", "direction", "baseRow", "alternateRow", "deltaEOK", "rowContrast", "texts": [{"input",
/// "color", "baseRow": {…ratio}, "alternateRow": {…ratio}}], "reason"}], "notes"}`.
struct TableStripesEndpoint {
    static let fields: Set<String> = [
        "textColors", "background", "darkBackground", "targetRatio", "minDeltaE", "minRowContrast", "level", "contrast", "generation", "hexOrder",
    ]
    static let maxTextColors = 16

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let data = try AppleData.get()
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        let level = try f.appleChoice("level", AppleInterfaceLevel.self, what: "interface level") ?? .base
        let contrast = try f.appleChoice("contrast", AppleContrastSetting.self, what: "contrast setting",
                                         aliases: Fields.contrastAliases) ?? .standard
        let generation = try f.appleGeneration() ?? .newest
        let target = try f.number("targetRatio", in: 1...21) ?? WCAG.aaNormalText
        let minDeltaE = try f.number("minDeltaE", in: 0.005...1) ?? TableStripes.defaultMinimumDeltaEOK
        let minRowContrast = try f.number("minRowContrast", in: 1...21) ?? TableStripes.defaultMinimumRowContrast
        guard let items = try f.array("textColors", required: true, maxCount: maxTextColors), !items.isEmpty else {
            throw Problem.invalidField(f.field("textColors"), "\(f.field("textColors").display) must list at least one color")
        }
        var texts: [AdaptiveColorInput] = []
        for (i, item) in items.enumerated() {
            texts.append(try adaptiveColor(item, at: f.field("textColors").appending(index: i),
                                           fromQuery: f.fromQuery, hexOrder: hexOrder))
        }
        let background = try adaptiveColor(f.value("background") ?? .string("systemBackground"),
                                           at: f.field("background"), fromQuery: f.fromQuery, hexOrder: hexOrder)
        var darkBackground: AdaptiveColorInput?
        if let v = f.value("darkBackground") {
            darkBackground = try adaptiveColor(v, at: f.field("darkBackground"), fromQuery: f.fromQuery, hexOrder: hexOrder)
        }

        var appearances: [JSON] = []
        for appearance in AppleAppearance.allCases {
            let context = AppleColorContext(appearance: appearance, level: level, contrast: contrast, generation: generation)
            let bgInput = appearance == .dark ? (darkBackground ?? background) : background
            let (_, bg) = try bgInput.resolve(in: context)
            let behind = data.catalog.resolve("systemBackground", in: context)?.value.srgb ?? SIMD3(repeating: appearance == .dark ? 0 : 1)
            let base = AppleCompositing.flatten(bg.display, over: behind)
            var resolvedTexts: [(AdaptiveColorInput, ResolvedColor)] = []
            for t in texts { resolvedTexts.append((t, try t.resolve(in: context).color)) }
            let p = TableStripes.propose(base: base, texts: resolvedTexts.map(\.1.display), targetRatio: target,
                                         minimumDeltaEOK: minDeltaE, minimumRowContrast: minRowContrast)
            var textRows: [JSON] = []
            for (i, (input, color)) in resolvedTexts.enumerated() {
                textRows.append(.object([
                    ("input", .string(input.variant(for: context).text)),
                    ("color", ColorJSON.describe(color)),
                    ("baseRow", measured(p.onBase[i], target: target)),
                    ("alternateRow", measured(p.onAlternate[i], target: target)),
                ]))
            }
            var o = JSONObject()
            o.append("appearance", .string(appearance.rawValue))
            o.append("context", AppleJSON.context(context))
            o.append("found", .bool(p.found))
            o.append("direction", .string(p.direction.rawValue))
            var baseRow = JSONObject()
            baseRow.append("hex", .string(ColorJSON.hex(p.base)))
            baseRow.append("rgba", ColorJSON.rgba(p.base))
            baseRow.append("background", ColorJSON.describe(bg))
            if bg.display.alpha < 1 { baseRow.append("note", .string("translucent background composited over systemBackground")) }
            o.append("baseRow", .object(baseRow))
            o.append("alternateRow", .object([("hex", .string(ColorJSON.hex(p.alternate))), ("rgba", ColorJSON.rgba(p.alternate))]))
            o.append("deltaEOK", .number(p.deltaEOK))
            o.append("rowContrast", .number(p.rowContrast))
            o.append("texts", .array(textRows))
            // The texts that already miss on the base row, named as the request gives them (a new
            // user's pass read "text 1, 2" from 1, where the indices counted from 0).
            var reason = p.reason
            if !p.failingOnBase.isEmpty {
                let named = p.failingOnBase.map { i in "/textColors/\(i) (\(ClientText.quoted(resolvedTexts[i].0.variant(for: context).text)), \(WCAG.ratioText(p.onBase[i].ratio)):1)" }
                reason = "\(named.joined(separator: ", ")) already \(named.count == 1 ? "misses" : "miss") the target on the base row; no alternate row can fix that"
            }
            o.append("reason", reason.map { .string($0) } ?? .null)
            appearances.append(.object(o))
        }
        return .object([
            ("targetRatio", .number(target)),
            ("minDeltaE", .number(minDeltaE)),
            ("minRowContrast", .number(minRowContrast)),
            ("generation", .string(generation.rawValue)),
            APCAJSON.versionMember,
            ("appearances", .array(appearances)),
            ("notes", .array([
                "The alternate row keeps the base row's OKLCH hue and chroma and moves its lightness just far enough to reach minDeltaE (ΔE OK; about 0.02 is just noticeable) and minRowContrast (ΔE OK alone overstates differences near black), darker for light rows and lighter for dark rows when possible; hex values are 8-bit and the numbers are measured on them.",
                "Apple's own stripes for comparison: systemBackground/secondarySystemBackground (#ffffff/#f2f2f7 light, #000000/#1c1c1e dark).",
            ])),
        ])
    }

    /// A color string or `{"color", "dark"?, "increasedContrast"?, "darkIncreasedContrast"?}`;
    /// other members of the object are refused (400), like unknown members everywhere else.
    static func adaptiveColor(_ value: JSON, at path: FieldPath, fromQuery: Bool,
                              hexOrder: HexOrder) throws(Problem) -> AdaptiveColorInput {
        if case .object(let o) = value {
            try Fields(object: o, path: path, fromQuery: fromQuery).rejectUnknown(AdaptiveColorInput.objectFields)
        }
        return try AdaptiveColorInput.parse(value, at: path, fromQuery: fromQuery, hexOrder: hexOrder)
    }

    static func measured(_ m: ContrastMeasurement, target: Double) -> JSON {
        var o = AppleJSON.measurement(m)
        o.append("passes", .bool(m.ratio >= target))
        return .object(o)
    }
}
