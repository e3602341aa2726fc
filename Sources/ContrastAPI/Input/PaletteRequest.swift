import AppleDesign
import ColorScience
import JSONValue

/// A contrast target from a request (`/v1/suggest`, `/v1/palette/dark`, `/v1/palette/export`).
///
/// Accepted forms:
/// - a number: a WCAG ratio `1...21` (`4.5`);
/// - a string: `"AA"` (4.5:1), `"AAA"` (7:1), `"AA-large"` (3:1), `"AAA-large"` (4.5:1),
///   `"non-text"` (3:1, SC 1.4.11), `"hig"` (7:1, HIG small text in custom colors), `"apca"`
///   (Lc 75, APCA minimum for body text) — case-insensitive; a ratio as text `"4.5:1"`, and an
///   APCA minimum `"Lc 60"` (`"Lc60"`, `"lc:60"`; 0–108), the form a GET query can give;
/// - an object `{"policy"?: "wcag" (default) | "hig" | "apca", "level"?: "AA" (default) |
///   "AAA", "textSize"?: "normal" (default) | "large" | "nonText", "fontSize"?, "fontSizeUnit"?:
///   "pt" (default) | "px", "fontWeight"?: 1–1000, "ratio"?: 1–21, "lc"?: 0–108}`. `ratio` and
///   `lc` state the minimum directly and exclude the other members; `fontSize` decides large
///   text (WCAG: ≥ 18 pt, or ≥ 14 pt bold) and, for APCA, the minimum Lc from the apca-w3 font
///   lookup; `textSize` and `fontSize` exclude each other. HIG: 7:1 for small text, 4.5:1 for
///   large text and non-text (HIG Dark Mode). APCA sizes: normal Lc 75, large Lc 60, non-text
///   Lc 45 ("APCA in a Nutshell").
/// - Throws: 400 naming the member for a wrong type, unknown name, out-of-range number or
///   contradictory members.
enum TargetInput {
    enum Policy: String, CaseIterable { case wcag, hig, apca }
    enum Level: String, CaseIterable { case AA, AAA }
    enum TextSize: String, CaseIterable { case normal, large, nonText }

    static let objectFields: Set<String> = ["policy", "level", "textSize", "fontSize", "fontSizeUnit", "fontWeight", "ratio", "lc"]

    /// A WCAG ratio written as CSS-like text, `"4.5:1"` (`1...21`), for the targets that also read
    /// a bare number otherwise (an APCA |Lc| on `/v1/image/text-contrast`); nil when `value` is
    /// not of that form. Throws a 400 naming `path` when the ratio is out of range.
    static func ratioText(_ value: JSON, at path: FieldPath) throws(Problem) -> Double? {
        guard case .string(let s) = value, s.hasSuffix(":1"), let r = Fields.decimal(String(s.dropLast(2))) else { return nil }
        guard r.isFinite, (1...21).contains(r) else {
            throw Problem.invalidField(path, "\(path.display) as a WCAG ratio must be between 1:1 and 21:1, got \(ClientText.quoted(s))")
        }
        return r
    }

    /// An APCA minimum written `Lc 60`, `Lc60` or `lc:60` (|Lc| `0...108`, as the object form's
    /// `lc`); nil when `s` is not of that form. Throws a 400 naming `path` out of range.
    static func lcText(_ s: String, at path: FieldPath) throws(Problem) -> Double? {
        guard s.count <= 32, s.lowercased().hasPrefix("lc") else { return nil }
        var rest = s.dropFirst(2).drop { $0 == " " }
        if rest.first == ":" { rest = rest.dropFirst().drop { $0 == " " } }
        guard let lc = Fields.decimal(String(rest)) else { return nil }
        guard lc.isFinite, (0...108).contains(lc) else {
            throw Problem.invalidField(path, "\(path.display) as an APCA minimum must be between Lc 0 and Lc 108, got \(ClientText.quoted(s))")
        }
        return lc
    }

    static func parse(_ value: JSON, at path: FieldPath, fromQuery: Bool) throws(Problem) -> ContrastTarget {
        switch value {
        case .number(let r):
            guard r.isFinite, (1...21).contains(r) else {
                throw Problem.invalidField(path, "\(path.display) as a number is a WCAG ratio and must be between 1 and 21, got \(Fields.format(r))")
            }
            return .ratio(r)
        case .string(let s):
            if fromQuery, let r = Fields.decimal(s) { return try parse(.number(r), at: path, fromQuery: false) }
            // `4.5:1` and `Lc 60`: a ratio or an APCA minimum as text, the only way a GET query
            // can state an APCA one (the object form's `lc` has no query form).
            if let r = try ratioText(value, at: path) { return .ratio(r) }
            if let lc = try lcText(s, at: path) { return .apcaLc(lc) }
            switch s.lowercased().replacingOccurrences(of: "_", with: "-") {
            case "aa": return .ratio(WCAG.aaNormalText, basis: "WCAG 2.2 SC 1.4.3 AA, normal text")
            case "aaa": return .ratio(WCAG.aaaNormalText, basis: "WCAG 2.2 SC 1.4.6 AAA, normal text")
            case "aa-large": return .ratio(WCAG.aaLargeText, basis: "WCAG 2.2 SC 1.4.3 AA, large text")
            case "aaa-large": return .ratio(WCAG.aaaLargeText, basis: "WCAG 2.2 SC 1.4.6 AAA, large text")
            case "non-text", "nontext": return .ratio(WCAG.aaNonText, basis: "WCAG 2.2 SC 1.4.11 non-text contrast")
            case "hig": return .ratio(AppleContrastPolicy.higCustomSmallText, basis: "HIG Dark Mode: strive for 7:1 for custom colors, especially in small text")
            case "apca": return .apcaLc(APCALevel.minimumBodyText.minimumLc, basis: "APCA in a Nutshell: Lc 75, minimum for body text")
            default:
                // `nan`, `inf`, `infinity` read as numbers, not as misspelled names (a hostile
                // pass: target=nan was offered 'AA').
                if let n = Double(s), !n.isFinite {
                    throw Problem.invalidField(path, "\(path.display) must be a finite number or a name such as AA, got \(ClientText.quoted(s))")
                }
                // A number in a JSON string (`"7"`) says how to write it, not 'did you mean AA?'
                // (a hostile pass: the query's `target=7` is a ratio, JSON's "7" was offered AA).
                if let n = Fields.decimal(s), n.isFinite {
                    throw Problem.invalidField(path, "\(path.display) is the string \(ClientText.quoted(s)): a WCAG ratio is written as the number \(Fields.format(n)) or the text \"\(Fields.format(n)):1\" (an APCA minimum as \"Lc \(Fields.format(n))\")")
                }
                let names = ["AA", "AAA", "AA-large", "AAA-large", "non-text", "hig", "apca"]
                throw Problem.unknownName(path, what: "target", got: s, known: names,
                                          suggestions: NameSuggestions.suggestions(for: s, among: names))
            }
        case .object(let o):
            return try parse(Fields(object: o, path: path, fromQuery: fromQuery))
        default:
            throw Problem.invalidField(path, "\(path.display) must be a ratio, a name such as \"AA\", or an object {\"policy\", \"level\", \"textSize\", \"fontSize\", \"ratio\", \"lc\"}, not \(value.typeName)")
        }
    }

    /// `parse`, for a request that gives the text size beside `target` (`/v1/pick` takes
    /// `fontSize`/`fontWeight` or `textStyle` at its top level): the names whose minimum depends
    /// on the size — `"AA"`, `"AAA"`, `"hig"`, `"apca"` — take it from `text` (so `"AA"` for 24 pt
    /// text is 3:1, and `"apca"` is the font lookup's Lc for that size), as the object form does
    /// with its own `fontSize`. `"AA-large"`, numbers and objects are read as `parse` reads them.
    /// An APCA size the font lookup allows no contrast for is a 400 naming `textPath`.
    static func parse(_ value: JSON, at path: FieldPath, fromQuery: Bool, text: TextSpec?, textPath: FieldPath) throws(Problem) -> ContrastTarget {
        if let text, case .string(let s) = value {
            let remedy = "or give \(path.display) as a number (|Lc| with algorithm apca)"
            switch s.lowercased() {
            case "aa": return try target(policy: .wcag, level: .AA, size: nil, text: text, sizePath: textPath, remedy: remedy)
            case "aaa": return try target(policy: .wcag, level: .AAA, size: nil, text: text, sizePath: textPath, remedy: remedy)
            case "hig": return try target(policy: .hig, level: nil, size: nil, text: text, sizePath: textPath, remedy: remedy)
            case "apca": return try target(policy: .apca, level: nil, size: nil, text: text, sizePath: textPath, remedy: remedy)
            default: break
            }
        }
        return try parse(value, at: path, fromQuery: fromQuery)
    }

    static func parse(_ f: Fields) throws(Problem) -> ContrastTarget {
        try f.rejectUnknown(objectFields)
        func exclusive(_ key: String, _ others: [String]) throws(Problem) {
            for other in others where f.has(other) {
                throw Problem.contradictory(f.field(other), f.field(key), "\(f.field(key).display) states the minimum directly; drop \(f.field(other).display) or \(f.field(key).display)")
            }
        }
        if let r = try f.number("ratio", in: 1...21) {
            try exclusive("ratio", ["policy", "level", "textSize", "fontSize", "fontSizeUnit", "fontWeight", "lc"])
            return .ratio(r)
        }
        if let lc = try f.number("lc", in: 0...108) {
            try exclusive("lc", ["level", "textSize", "fontSize", "fontSizeUnit", "fontWeight"])
            if let p = try f.choice("policy", Policy.self), p != .apca {
                throw Problem.contradictory(f.field("lc"), f.field("policy"), "\(f.field("lc").display) is an APCA minimum; \(f.field("policy").display) \(p.rawValue) is not APCA")
            }
            return .apcaLc(lc)
        }
        let policy = try f.choice("policy", Policy.self) ?? .wcag
        let level = try f.choice("level", Level.self)
        if let level, policy != .wcag {
            throw Problem.contradictory(f.field("level"), f.field("policy"), "\(f.field("level").display) \(level.rawValue) is a WCAG level; \(f.field("policy").display) \(policy.rawValue) has none")
        }
        let size = try f.choice("textSize", TextSize.self)
        if size != nil && f.has("fontSize") {
            throw Problem.contradictory(f.field("textSize"), f.field("fontSize"), "\(f.field("textSize").display) and \(f.field("fontSize").display) both give the text size; send one of them")
        }
        // A bare size whose WCAG verdict pt and px would differ on asks for the unit, as
        // everywhere (a hostile pass, stop 49: a palette's 16 bold was large text as pt).
        let text = try TextSpec.from(f, unitWhereItMatters: true)
        return try target(policy: policy, level: level, size: size, text: text, sizePath: f.field("fontSize"),
                          remedy: "or give \(f.field("lc").display)")
    }

    /// The minimum of a policy and level for a text size (`size`, or `text` whose size decides
    /// large text and, for APCA, the font lookup's Lc). A size APCA's font lookup allows no
    /// contrast for is a 400 naming `sizePath`, ending with `remedy`.
    static func target(policy: Policy, level: Level?, size: TextSize?, text: TextSpec?,
                       sizePath: FieldPath, remedy: String) throws(Problem) -> ContrastTarget {
        let aaa = level == .AAA
        switch policy {
        case .wcag:
            if size == .nonText {
                return .ratio(WCAG.aaNonText, basis: "WCAG 2.2 SC 1.4.11 non-text contrast 3:1\(aaa ? " (there is no AAA level for non-text)" : "")")
            }
            let large = size == .large || (text?.isLarge ?? false)
            let minimum = aaa ? (large ? WCAG.aaaLargeText : WCAG.aaaNormalText) : (large ? WCAG.aaLargeText : WCAG.aaNormalText)
            return .ratio(minimum, basis: "WCAG 2.2 SC \(aaa ? "1.4.6 AAA" : "1.4.3 AA"), \(large ? "large" : "normal") text\(sizeWords(text))")
        case .hig:
            if size == .nonText || size == .large || (text?.isLarge ?? false) {
                return .ratio(AppleContrastPolicy.higMinimum, basis: "HIG Dark Mode: no lower than 4.5:1 (\(size == .nonText ? "non-text" : "large text")\(sizeWords(text)))")
            }
            return .ratio(AppleContrastPolicy.higCustomSmallText, basis: "HIG Dark Mode: strive for 7:1 for custom colors, especially in small text\(sizeWords(text))")
        case .apca:
            if let text {
                // `apcaPx`: px for a CSS size, points read as px for an Apple text style.
                let px = text.apcaPx
                let lc = APCAMinimumLc.minimumLc(px: px, weight: text.weight)
                // A bare size (pt assumed) whose minimum Lc as px differs asks for the unit.
                if text.unitAssumed {
                    let asPixels = APCAMinimumLc.minimumLc(px: text.value, weight: text.weight)
                    func needs(_ lc: Double?) -> String { lc.map { "needs Lc \(Fields.rounded($0))" } ?? "is too small for any Lc" }
                    if asPixels != lc { throw text.apcaUnitMatters(sizePath.sibling("fontSizeUnit"), asPoints: needs(lc), asPixels: needs(asPixels)) }
                }
                guard let lc else {
                    throw Problem.invalidField(sizePath, "\(sizePath.display): APCA's font lookup allows no contrast for \(Fields.rounded(px)) px at weight \(text.weight); use a larger size or weight, \(remedy)")
                }
                return .apcaLc(lc, basis: "APCA font lookup (apca-w3 0.1.9): smallest Lc allowing \(Fields.rounded(px)) px at weight \(text.weight)")
            }
            switch size ?? .normal {
            case .normal: return .apcaLc(APCALevel.minimumBodyText.minimumLc, basis: "APCA in a Nutshell: Lc 75, minimum for body text")
            case .large: return .apcaLc(APCALevel.otherText.minimumLc, basis: "APCA in a Nutshell: Lc 60, content text other than body text")
            case .nonText: return .apcaLc(APCALevel.largeOrHeavyText.minimumLc, basis: "APCA in a Nutshell: Lc 45, fine pictograms and icons")
            }
        }
    }

    static func sizeWords(_ t: TextSpec?) -> String {
        guard let t else { return "" }
        return " (\(Fields.format(t.value)) \(t.unit.rawValue) at weight \(t.weight))"
    }

    /// `{"metric", "minimum", "basis"}` (`minimum` null when unreachable).
    static func json(_ t: ContrastTarget) -> JSON {
        .object([("metric", .string(t.metric.rawValue)), ("minimum", .number(t.minimum.isFinite ? t.minimum : nil)),
                 ("basis", .string(t.basis))])
    }
}

/// One color of a palette request with its role, placement and fixed variants.
struct PaletteRequestColor {
    var name: String
    var role: AppleColorRole
    var color: ResolvedColor
    var on: [String]
    var onSystem: Bool?
    var given: [PaletteVariant: ResolvedColor]
    var target: ContrastTarget
    var increasedTarget: ContrastTarget
    var input: JSON
    /// The variants taken from Apple's own values of a system color name (`systemBlue` in dark
    /// is Apple's dark systemBlue, which iOS shows whatever the palette says).
    var systemVariants: [PaletteVariant] = []
    /// Apple's elevated-level values of those variants where they differ from the base level's
    /// (`secondarySystemBackground` in dark: #2c2c2e, not #1c1c1e), for a background.
    var givenElevated: [PaletteVariant: ResolvedColor] = [:]
    /// The text's CSS weight when a size was given (drawn in the SVG swatch sheet); nil otherwise.
    var fontWeight: Int? = nil

    var entry: PaletteEntry {
        var e = PaletteEntry(name: name, role: role, color: color.color, target: target, increasedTarget: increasedTarget,
                             on: on, onSystemBackgrounds: onSystem, given: given.mapValues(\.color))
        e.givenElevated = givenElevated.mapValues(\.color)
        return e
    }
}

/// The body shared by `/v1/palette/dark` and `/v1/palette/export`.
///
/// `{"colors": [color | {"name"?, "role"?, "color", "dark"?, "increasedContrast"?,
/// "darkIncreasedContrast"?, "on"?, "fontSize"?, "fontSizeUnit"?, "fontWeight"?, "target"?,
/// "increasedContrastTarget"?}] (1 to the palette limit), "policy"?: "hig" (default) | "wcag-aa" |
/// "wcag-aaa" | "apca", "target"?, "increasedContrastTarget"?, "generation"?: "ios26" (default) |
/// "ios15-18", "adjustLight"?: false, "hexOrder"?}`.
///
/// Roles: `text` (default), `secondaryText`, `tint` (alias `accent`), `icon`, `nonText` (alias
/// `fill`), `background`. Targets, most specific first: the color's `target`; the request's
/// `target`; the policy's minimum for the role and size (as `/v1/audit`: HIG 7:1 small text,
/// 4.5:1 otherwise). Increased contrast: `increasedContrastTarget` (color, then request), else
/// the next level up (`ContrastTarget.increased`). `on` lists the names of `background`-role
/// colors of the palette the color is drawn on, plus `"system"` to keep the system backgrounds
/// (default when `on` is absent); at most 8 names per color and 256 placements per request (413
/// beyond). Colors are CSS colors or Apple system color names of `generation`: a system name is
/// the light color, and its dark and increased-contrast variants not given are Apple's own
/// (`PaletteRequest.systemVariants`, measured as given).
struct PaletteRequest {
    var colors: [PaletteRequestColor]
    var policy: AppleContrastPolicy
    var generation: AppleCatalogGeneration
    var adjustLight: Bool
    /// Whether the dark variants are measured at the elevated level too (sheets and popovers,
    /// where Apple lifts its backgrounds); false for a web page or another platform without
    /// that level (a new user's pass, stop 43: a web palette's text was tuned against #1c1c1c,
    /// the page's iOS elevated value, which its CSS export never writes).
    var elevated = true

    static let fields: Set<String> = ["colors", "policy", "target", "increasedContrastTarget", "generation", "adjustLight", "hexOrder", "elevated"]
    static let colorFields: Set<String> = [
        "name", "role", "color", "dark", "increasedContrast", "darkIncreasedContrast", "darkElevated",
        "darkIncreasedContrastElevated", "on", "fontSize", "fontSizeUnit", "fontWeight", "target", "increasedContrastTarget",
    ]
    /// A background's own values at the elevated level (sheets, popovers), by variant.
    static let elevatedKeys: [(String, PaletteVariant)] = [("darkElevated", .dark), ("darkIncreasedContrastElevated", .darkIncreasedContrast)]
    static let variantKeys: [(String, PaletteVariant)] = [
        ("dark", .dark), ("increasedContrast", .lightIncreasedContrast), ("darkIncreasedContrast", .darkIncreasedContrast),
    ]
    static let roleAliases: [String: AppleColorRole] = [
        "accent": .tint, "fill": .nonText, "non-text": .nonText, "secondary": .secondaryText,
        "secondary-text": .secondaryText, "glyph": .icon, "foreground": .text,
    ]
    static let policyAliases: [String: AppleContrastPolicy] = [
        "aa": .wcagAA, "aaa": .wcagAAA, "wcag2-aa": .wcagAA, "wcag2-aaa": .wcagAAA, "wcagaa": .wcagAA, "wcagaaa": .wcagAAA,
    ]
    /// The largest `on` list of one color.
    static let maxOn = 8
    /// The most (color, palette background) placements of one request: each costs a search on
    /// that background in every context, and moving a background regenerates its text, so this
    /// bounds the work of a request (about a second on two cores at the limit).
    static let maxPlacements = 256

    /// Parses and validates the body; `extraFields` are members the caller reads itself.
    static func parse(_ f: Fields, limit: Int, extraFields: Set<String> = []) throws(Problem) -> PaletteRequest {
        try f.rejectUnknown(fields.union(extraFields))
        let policy = try f.appleChoice("policy", AppleContrastPolicy.self, what: "policy", aliases: policyAliases) ?? .hig
        let generation = try f.appleGeneration() ?? .newest
        let adjustLight = try f.bool("adjustLight") ?? false
        let elevated = try f.bool("elevated") ?? true
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        let target = try f.value("target").map { v throws(Problem) in try TargetInput.parse(v, at: f.field("target"), fromQuery: f.fromQuery) }
        let icTarget = try f.value("increasedContrastTarget").map { v throws(Problem) in
            try TargetInput.parse(v, at: f.field("increasedContrastTarget"), fromQuery: f.fromQuery)
        }
        if let target, let icTarget, icTarget.metric == target.metric, icTarget.minimum < target.minimum {
            throw lowerIncreasedTarget(f.field("increasedContrastTarget"), icTarget, below: f.field("target"), target)
        }
        guard let items = try f.array("colors", required: true, maxCount: limit), !items.isEmpty else {
            throw Problem.invalidField(f.field("colors"), "\(f.field("colors").display) must hold at least one color")
        }
        // `on` lists past their limits, and placements past theirs, are counted before any color
        // is read (a hostile pass: 264 placements of var() colors were refused after 0.7 s of
        // reading them), as the loops below count them: each list's entries, and the distinct
        // palette names of each.
        var counted = 0
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item, case .array(let on)? = o["on"] else { continue }
            // The list's own limit, as `OnBackgrounds.parse` reads it below.
            _ = try Fields(object: o, path: f.field("colors").appending(index: i), fromQuery: f.fromQuery).array("on", maxCount: Self.maxOn)
            let path = f.field("colors").appending(index: i).appending("on")
            var names = Set<String>()
            for case .string(let s) in on where !s.isEmpty && s != "system" { names.insert(s) }
            counted += names.count
            if counted > maxPlacements {
                throw Problem.tooLarge(path, "\(path.display) brings the palette to \(counted) placements of colors on palette backgrounds; the limit is \(maxPlacements)", limit: maxPlacements)
            }
        }
        var colors: [PaletteRequestColor] = []
        var names = UniqueNames(of: f.field("colors"))
        for (i, item) in items.enumerated() {
            let path = f.field("colors").appending(index: i)
            let c = try parseColor(item, at: path, fromQuery: f.fromQuery, hexOrder: hexOrder, policy: policy,
                                   target: target, increasedTarget: icTarget, generation: generation)
            if c.name == "system" {
                // `on: ["system"]` means the system backgrounds; a color of that name would be ambiguous.
                throw Problem.invalidField(path.appending("name"), "\(path.appending("name").display): the name 'system' is reserved (in 'on' it stands for the system backgrounds); choose another name")
            }
            try names.add(c.name, at: i)
            colors.append(c)
        }
        // `on` must name background-role colors of this palette.
        try OnBackgrounds.rejectBackgroundNamedSystem(colors.map { ($0.role, $0.name) }, used: colors.contains { !$0.on.isEmpty || $0.onSystem != nil },
                                                      colors: f.field("colors"))
        // (Placements past `maxPlacements` were refused above, before any color was read.)
        for (i, c) in colors.enumerated() {
            for (j, name) in c.on.enumerated() {
                let path = f.field("colors").appending(index: i).appending("on").appending(index: j)
                guard let k = names.firstIndex[name] else {
                    // Nothing to suggest from: say what would make it valid (an iOS designer's
                    // pass got "unknown palette background 'nope'." and an empty list).
                    if !colors.contains(where: { $0.role == .background }) {
                        throw Problem.invalidField(path, "\(path.display): unknown palette background \(ClientText.quoted(name)): the palette has no background-role color; add one ({\"name\": \(ClientText.quoted(name)), \"role\": \"background\", \"color\": …}) or place the color on \"system\"")
                    }
                    throw Problem.unknownName(path, what: "palette background", got: name,
                                              known: colors.filter { $0.role == .background }.map(\.name),
                                              suggestions: NameSuggestions.suggestions(for: name, among: colors.filter { $0.role == .background }.map(\.name)))
                }
                guard colors[k].role == .background else {
                    throw Problem.invalidField(path, "\(path.display): \(ClientText.quoted(name)) has role \(colors[k].role.rawValue); a color can only be placed on a background-role color (or \"system\")")
                }
            }
        }
        if !elevated, let i = items.indices.first(where: { i in
            if case .object(let o) = items[i] { return elevatedKeys.contains { o[$0.0] != nil } } else { return false }
        }), case .object(let o) = items[i], let key = elevatedKeys.first(where: { o[$0.0] != nil })?.0 {
            let path = f.field("colors").appending(index: i).appending(key)
            throw Problem.contradictory(path, f.field("elevated"), "\(path.display) is a value at the elevated level (sheets, popovers), which \(f.field("elevated").display) false leaves out; drop one of them")
        }
        var request = PaletteRequest(colors: colors, policy: policy, generation: generation, adjustLight: adjustLight)
        request.elevated = elevated
        return request
    }

    /// The Apple context a variant is shown in, base level, in `generation`: where a system color
    /// name given for it (or the light color's, for its variants) resolves.
    static func context(of variant: PaletteVariant, _ generation: AppleCatalogGeneration) -> AppleColorContext {
        AppleColorContext(appearance: variant.appearance, level: .base, contrast: variant.contrast, generation: generation)
    }

    /// Fills the dark and increased-contrast variants of a system color name with Apple's own
    /// values in `generation` (HIG Dark Mode; Apple's catalog, `AppleData`): iOS shows those
    /// whatever the palette says, so they are measured, not generated. Returns the variants
    /// filled (none when `color` is not a system color name).
    /// - Throws: `Problem` when a variant does not resolve (the catalog lacks it).
    static func systemVariants(of color: ResolvedColor, at path: FieldPath, into given: inout [PaletteVariant: ResolvedColor],
                               elevated: inout [PaletteVariant: ResolvedColor],
                               generation: AppleCatalogGeneration) throws(Problem) -> [PaletteVariant] {
        guard color.systemColor != nil else { return [] }
        var filled: [PaletteVariant] = []
        for v in PaletteVariant.allCases where v != .light && given[v] == nil {
            let base = try resolveColor(color.input, at: path, context: context(of: v, generation))
            given[v] = base
            filled.append(v)
            if v.appearance == .dark {
                var c = context(of: v, generation)
                c.level = .elevated
                let up = try resolveColor(color.input, at: path, context: c)
                if up.display.srgb != base.display.srgb || up.display.alpha != base.display.alpha { elevated[v] = up }
            }
        }
        return filled
    }

    static func parseColor(_ item: JSON, at path: FieldPath, fromQuery: Bool, hexOrder: HexOrder, policy: AppleContrastPolicy,
                           target: ContrastTarget?, increasedTarget: ContrastTarget?,
                           generation: AppleCatalogGeneration = .newest) throws(Problem) -> PaletteRequestColor {
        func defaultTarget(_ role: AppleColorRole, _ text: AppleTextRequirement?) -> ContrastTarget {
            target ?? ContrastTarget.apple(role: role, policy: policy, text: text)
        }
        let lightContext = context(of: .light, generation)
        let darkContext = context(of: .dark, generation)
        guard case .object(let o) = item else {
            guard case .string(let s) = item else {
                throw Problem.invalidField(path, "\(path.display) must be a color string or an object {\"name\", \"role\", \"color\", …}, not \(item.typeName)")
            }
            let color = try resolveColor(s, at: path, hexOrder: hexOrder, context: lightContext)
            var given: [PaletteVariant: ResolvedColor] = [:]
            // `light-dark(a, b)`: b is the dark variant as given.
            if color.dependsOnAppearance { given[.dark] = try resolveColor(s, at: path, hexOrder: hexOrder, context: darkContext) }
            var elevated: [PaletteVariant: ResolvedColor] = [:]
            let fromSystem = try systemVariants(of: color, at: path, into: &given, elevated: &elevated, generation: generation)
            let t = defaultTarget(.text, nil)
            if !t.isReachable { throw unreachable(path, t) }
            return PaletteRequestColor(name: s, role: .text, color: color, on: [], onSystem: nil, given: given, target: t,
                                       increasedTarget: increasedTarget ?? t.increased, input: item, systemVariants: fromSystem,
                                       givenElevated: elevated)
        }
        let cf = Fields(object: o, path: path, fromQuery: fromQuery)
        try cf.rejectUnknown(colorFields)
        let role = try cf.appleChoice("role", AppleColorRole.self, what: "role", aliases: roleAliases) ?? .text
        let color = try cf.color("color", required: true, hexOrder: hexOrder, context: lightContext)!
        let name = try cf.name("name", maxLength: 128) ?? color.input
        var given: [PaletteVariant: ResolvedColor] = [:]
        for (key, variant) in variantKeys {
            if let c = try cf.color(key, hexOrder: hexOrder, context: context(of: variant, generation)) { given[variant] = c }
        }
        if color.dependsOnAppearance {
            // `light-dark(a, b)`: b is the dark variant as given.
            if given[.dark] != nil {
                throw Problem.lightDarkBeside(cf.field("dark"), cf.field("color"), variant: "dark variant")
            }
            given[.dark] = try cf.color("color", required: true, hexOrder: hexOrder, context: darkContext)!
        }
        if given[.lightIncreasedContrast]?.dependsOnAppearance == true {
            // `increasedContrast: light-dark(a, b)`: b is the dark increased-contrast variant.
            if given[.darkIncreasedContrast] != nil {
                throw Problem.lightDarkBeside(cf.field("darkIncreasedContrast"), cf.field("increasedContrast"), variant: "dark increased-contrast variant")
            }
            given[.darkIncreasedContrast] = try cf.color("increasedContrast", hexOrder: hexOrder, context: context(of: .darkIncreasedContrast, generation))
        }
        // A variant given by hand makes it a custom color that starts from the system color's
        // light value: its other variants are generated (an asset catalog color, which iOS
        // shows in its standard variant where no increased-contrast one is set).
        var elevated: [PaletteVariant: ResolvedColor] = [:]
        let fromSystem = given.isEmpty && !elevatedKeys.contains(where: { cf.has($0.0) })
            ? try systemVariants(of: color, at: cf.field("color"), into: &given, elevated: &elevated, generation: generation) : []
        // Elevated values of its own (a designer's pass: a dark card given as #1c1c1e vanished in a
        // #1c1c1e sheet, with no way to say what it is there). Only backgrounds change with the
        // level: Apple's labels, fills and tints are the same at both.
        for (key, variant) in elevatedKeys {
            var c = context(of: variant, generation)
            c.level = .elevated
            guard let up = try cf.color(key, hexOrder: hexOrder, context: c) else { continue }
            guard role == .background else {
                throw Problem.contradictory(cf.field(key), cf.field("role"), "\(cf.field(key).display) is a background's value in sheets and popovers; only backgrounds change with the interface level (Apple's labels, fills and tints are the same at both levels), and \(cf.field("role").display) is \(role.rawValue)")
            }
            elevated[variant] = up
        }
        var on: [String] = []
        var onSystem: Bool?
        if let placement = try OnBackgrounds.parse(cf, role: role, of: "palette") {
            // Only "system" is the default placement.
            (on, onSystem) = (placement.names, placement.names.isEmpty ? nil : placement.system)
        }
        var text: AppleTextRequirement?
        if let spec = try TextSpec.from(cf, unitWhereItMatters: true) {
            guard role.acceptsTextSize else {
                throw Problem.contradictory(cf.field("fontSize"), cf.field("role"), "\(cf.field("fontSize").display) gives a text size, but \(cf.field("role").display) \(role.rawValue) is not text; use role text, secondaryText or tint, or drop \(cf.field("fontSize").display)")
            }
            // APCA reads pt as px (the Apple convention) and px as given.
            text = AppleTextRequirement(points: spec.points, weight: spec.weight, apcaPx: spec.value)
        }
        var t = defaultTarget(role, text)
        if let v = cf.value("target") { t = try TargetInput.parse(v, at: cf.field("target"), fromQuery: fromQuery) }
        if !t.isReachable { throw unreachable(cf.field(cf.has("target") ? "target" : "fontSize"), t) }
        var ic = increasedTarget ?? t.increased
        if let v = cf.value("increasedContrastTarget") {
            ic = try TargetInput.parse(v, at: cf.field("increasedContrastTarget"), fromQuery: fromQuery)
            if ic.metric == t.metric, ic.minimum < t.minimum {
                // The target it falls below: the color's, the request's, or the policy's for the role.
                let targetPath = cf.has("target") ? cf.field("target") : target != nil ? FieldPath.body("/target") : cf.field("role")
                throw lowerIncreasedTarget(cf.field("increasedContrastTarget"), ic, below: targetPath, t)
            }
        }
        return PaletteRequestColor(name: name, role: role, color: color, on: on, onSystem: onSystem, given: given, target: t,
                                   increasedTarget: ic, input: item, systemVariants: fromSystem, givenElevated: elevated,
                                   fontWeight: text?.weight)
    }

    /// 400: an Increase Contrast target that asks less than the standard target.
    static func lowerIncreasedTarget(_ path: FieldPath, _ ic: ContrastTarget, below targetPath: FieldPath, _ t: ContrastTarget) -> Problem {
        Problem.contradictory(path, targetPath, "\(path.display) (\(Fields.format(ic.minimum))) asks less of the Increase Contrast variant than the target (\(Fields.format(t.minimum))) asks of the standard one; give it at least the target")
    }

    static func unreachable(_ path: FieldPath, _ t: ContrastTarget) -> Problem {
        Problem.invalidField(path, "\(path.display): no pair of colors can meet this target (\(t.basis)); give a larger text size or an explicit target")
    }

    /// The Apple surfaces of `generation`, or a 500 when the bundled data is unusable.
    static func environment(_ generation: AppleCatalogGeneration, elevated: Bool = true) throws(Problem) -> PaletteEnvironment {
        let data = try AppleData.get()
        guard var env = PaletteEnvironment(catalog: data.catalog, generation: generation) else {
            throw Problem(status: 500, kind: "reference-data-unavailable", title: "Reference data unavailable",
                          detail: "the bundled Apple catalog lacks systemBackground or label")
        }
        // Without the elevated level no background is lifted and nothing is measured there.
        if !elevated { env.contexts.removeAll { $0.context.effectiveLevel == .elevated } }
        return env
    }

    /// Generates every variant (deterministic).
    func generate() throws(Problem) -> [PaletteEntryResult] {
        DarkVariants.generate(colors.map(\.entry), in: try PaletteRequest.environment(generation, elevated: elevated), adjustLight: adjustLight)
    }
}

/// A color's `on`, as `/v1/palette/dark` and `/v1/audit` read it: up to `PaletteRequest.maxOn`
/// names of background-role colors of the request, and `"system"` for the system backgrounds.
struct OnBackgrounds {
    /// The background colors named (each once, in order).
    var names: [String]
    /// Whether `"system"` was named.
    var system: Bool

    /// `on` of the color object `cf` of `role`; nil when absent. `of` names the request's
    /// colors in messages ("palette", "request").
    /// - Throws: 400 for `on` on a background (contradictory fields), an entry that is not a
    ///   non-empty string, or a list naming nothing; 413 past `PaletteRequest.maxOn` entries.
    static func parse(_ cf: Fields, role: AppleColorRole, of owner: String) throws(Problem) -> OnBackgrounds? {
        guard let items = try cf.array("on", maxCount: PaletteRequest.maxOn) else { return nil }
        if role == .background {
            throw Problem.contradictory(cf.field("on"), cf.field("role"), "\(cf.field("on").display) places a color on backgrounds; a color of \(cf.field("role").display) background cannot be placed on another")
        }
        var placement = OnBackgrounds(names: [], system: false)
        for (j, v) in items.enumerated() {
            guard case .string(let s) = v, !s.isEmpty else {
                throw Problem.invalidField(cf.field("on").appending(index: j), "\(cf.field("on").appending(index: j).display) must be the name of a background color of the \(owner), or \"system\"")
            }
            if s == "system" { placement.system = true } else if !placement.names.contains(s) { placement.names.append(s) }
        }
        if placement.names.isEmpty && !placement.system {
            throw Problem.invalidField(cf.field("on"), "\(cf.field("on").display) must name at least one background (or \"system\")")
        }
        return placement
    }

    /// "system" in `on` names the system backgrounds, so where any color uses `on` no background
    /// may be called so (it could never be chosen: a hostile pass). `colors` (role, name) in
    /// request order, at `field`.
    /// - Throws: 400 naming `<field>/<i>/name`.
    static func rejectBackgroundNamedSystem(_ colors: [(role: AppleColorRole, name: String)], used: Bool, colors field: FieldPath) throws(Problem) {
        guard used, let i = colors.firstIndex(where: { $0.role == .background && $0.name == "system" }) else { return }
        let path = field.appending(index: i).appending("name")
        throw Problem.invalidField(path, "\(path.display): \"system\" names the system backgrounds in \"on\"; give this background another name")
    }
}
