import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// The Apple trait context system color names resolve in while a request is handled.
///
/// Endpoints that take `appearance`/`level`/`contrast`/`generation` bind it around their work
/// with `run`; everywhere else (and outside any request) names resolve in the default context:
/// light, base, standard contrast, newest generation. A task-local value, bound per request, so
/// concurrent requests never see each other's context.
enum AppleRequestScope {
    @TaskLocal static var context: AppleColorContext = .default

    /// Runs `body` with `context` bound.
    static func run<T>(_ context: AppleColorContext, _ body: () throws(Problem) -> T) throws(Problem) -> T {
        // Binding a task-local allocates; when the context in force is already this one (the
        // default light context of most requests), there is nothing to bind.
        if context == self.context { return try body() }
        let result: Result<T, Problem> = $context.withValue(context) {
            do throws(Problem) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension Problem {
    /// 400: a name is not one of the known names; `suggestions` lists close matches.
    static func unknownName(_ field: FieldPath, what: String, got: String, known: [String], suggestions: [String]) -> Problem {
        var detail = "\(field.display): unknown \(what) \(ClientText.quoted(got))"
        detail += suggestions.first.map { "; did you mean '\($0)'?" } ?? "."
        if !known.isEmpty && known.count <= 16 { detail += " Known: \(known.joined(separator: ", "))." }
        return Problem(status: 400, kind: "invalid-field", title: "Invalid request field", detail: detail,
                       pointer: field.pointer, parameter: field.parameter,
                       extra: [("suggestions", .array(suggestions.map { .string($0) }))])
    }

    /// 400 `contradictory-fields`: `given`, a dark variant, beside `lightDark`, a `light-dark()`
    /// whose dark color is that variant (`variant`), in `/v1/audit` and `/v1/palette/dark` alike.
    static func lightDarkBeside(_ given: FieldPath, _ lightDark: FieldPath, variant: String) -> Problem {
        Problem.contradictory(given, lightDark, "\(lightDark.display) depends on the appearance through light-dark(), whose dark color is the \(variant); give \(given.display) or use light-dark(), not both")
    }

    /// 400: two members of a request contradict each other.
    static func contradictory(_ field: FieldPath, _ other: FieldPath, _ detail: String) -> Problem {
        Problem(status: 400, kind: "contradictory-fields", title: "Contradictory request fields", detail: detail,
                pointer: field.pointer, parameter: field.parameter,
                extra: [("conflictsWith", .string(other.pointer ?? other.parameter ?? ""))])
    }
}

extension Fields {
    /// A member that must be one of `E`'s raw values (or an alias), case-insensitive; unknown
    /// values get a 400 naming the field with close-match suggestions.
    func appleChoice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type, what: String,
                                                         aliases: [String: E] = [:]) throws(Problem) -> E? where E.RawValue == String {
        guard let s = try string(key, maxLength: 64) else { return nil }
        // Case and inner spaces do not matter (`Dark`, `iOS 26`: an iOS developer's pass).
        let t = s.trimmingWhitespace(newlines: false).lowercased().replacingOccurrences(of: " ", with: "")
        if let e = E.allCases.first(where: { $0.rawValue.lowercased() == t }) { return e }
        if let e = aliases.first(where: { $0.key.lowercased() == t })?.value { return e }
        let names = E.allCases.map(\.rawValue)
        // Suggest canonical names only: an alias close to the input suggests what it stands for.
        var suggestions: [String] = []
        for candidate in NameSuggestions.suggestions(for: s, among: names + aliases.keys.sorted(), limit: 6) {
            let canonical = aliases[candidate]?.rawValue ?? candidate
            if !suggestions.contains(canonical) { suggestions.append(canonical) }
        }
        throw Problem.unknownName(field(key), what: what, got: s, known: names, suggestions: Array(suggestions.prefix(3)))
    }

    /// The generation member (`ios15-18`, `ios26`; aliases `ios15`…`ios18`, `latest`, `newest`).
    func appleGeneration(_ key: String = "generation") throws(Problem) -> AppleCatalogGeneration? {
        try appleChoice(key, AppleCatalogGeneration.self, what: "catalog generation", aliases: Fields.generationAliases)
    }

    /// Other names of catalog generations (built once: a dictionary literal per request costs).
    static let generationAliases: [String: AppleCatalogGeneration] = [
        "ios15": .ios15to18, "ios16": .ios15to18, "ios17": .ios15to18, "ios18": .ios15to18,
        "ios15_18": .ios15to18, "ios26": .ios26, "latest": .newest, "newest": .newest,
    ]

    /// Other names of the contrast settings.
    /// `high` as Xcode's asset catalogs name it; `more` and `no-preference` as CSS's
    /// `prefers-contrast` does (Safari answers `more` under iOS's Increase Contrast).
    static let contrastAliases: [String: AppleContrastSetting] = ["high": .increased, "more": .increased, "normal": .standard,
                                                                  "no-preference": .standard]

    /// `appearance`, `level`, `contrast`, `generation` as a context; absent members take the
    /// defaults (light, base, standard, newest). `level: elevated` with light appearance is
    /// accepted and resolves as base.
    func appleContext() throws(Problem) -> AppleColorContext {
        AppleColorContext(
            appearance: try appleChoice("appearance", AppleAppearance.self, what: "appearance") ?? .light,
            level: try appleChoice("level", AppleInterfaceLevel.self, what: "interface level") ?? .base,
            contrast: try appleChoice("contrast", AppleContrastSetting.self, what: "contrast setting",
                                      aliases: Fields.contrastAliases) ?? .standard,
            generation: try appleGeneration() ?? .newest)
    }

    /// A font weight given as a number `1...1000` or a system weight name (`light`, `semibold`, …).
    func appleFontWeight(_ key: String = "fontWeight", emphasized: AppleFontWeight? = nil) throws(Problem) -> Int? {
        guard let v = value(key) else { return nil }
        if case .string(let s) = v, !fromQuery || Fields.decimal(s) == nil {
            if s.lowercased() == "emphasized", let emphasized { return emphasized.cssWeight }
            if let w = AppleFontWeight(name: s) { return w.cssWeight }
            let names = AppleFontWeight.allCases.map(\.rawValue) + (emphasized == nil ? [] : ["emphasized"])
            throw Problem.unknownName(field(key), what: "font weight", got: s, known: names,
                                      suggestions: NameSuggestions.suggestions(for: s, among: names))
        }
        return try integer(key, in: 1...1000)
    }
}

/// A Dynamic Type text style at a content size category, from `textStyle` and
/// `contentSizeCategory` (default Large), with an optional `fontWeight` override.
struct TextStyleSelection: Sendable {
    var style: AppleTextStyle
    var category: AppleContentSizeCategory
    var points: Double
    var leading: Double
    /// CSS weight of the text: the style's weight unless `fontWeight` overrides it.
    var weight: Int
    var requirement: AppleTextRequirement
    /// Without `contentSizeCategory`, for a style that is large text at the default size: the
    /// note naming the smallest category at which it is not; nil otherwise. A string, not the
    /// category: every `/v1/contrast` carries this struct's optional, and a category in it had
    /// made a plain POST 294 instructions costlier.
    var sizeNote: String? = nil

    /// Members this selection reads.
    static let fields: Set<String> = ["textStyle", "contentSizeCategory"]

    /// The selection, nil when neither `textStyle` nor `contentSizeCategory` is given.
    /// `contentSizeCategory` without `textStyle`, or `textStyle` together with `fontSize` or
    /// `fontSizeUnit`, is a 400 (contradictory fields).
    static func from(_ f: Fields, table: AppleDynamicTypeTable) throws(Problem) -> TextStyleSelection? {
        guard let name = try f.string("textStyle", maxLength: 64) else {
            if f.has("contentSizeCategory") {
                throw Problem.contradictory(f.field("contentSizeCategory"), f.field("textStyle"),
                                            "\(f.field("contentSizeCategory").display) needs \(f.field("textStyle").display): a category only scales a text style")
            }
            return nil
        }
        for key in ["fontSize", "fontSizeUnit"] where f.has(key) {
            throw Problem.contradictory(f.field("textStyle"), f.field(key),
                                        "\(f.field("textStyle").display) and \(f.field(key).display) both set the text size; send one of them")
        }
        guard let style = table.style(named: name) else {
            let names = table.styles.map(\.name)
            throw Problem.unknownName(f.field("textStyle"), what: "text style", got: name, known: names,
                                      suggestions: NameSuggestions.suggestions(for: name, among: names + table.aliases.keys.sorted()))
        }
        var index = table.defaultCategoryIndex
        let categoryGiven = f.has("contentSizeCategory")
        if let c = try f.string("contentSizeCategory", maxLength: 64) {
            guard let i = table.categoryIndex(named: c) else {
                throw Problem.unknownName(f.field("contentSizeCategory"), what: "content size category", got: c,
                                          known: table.categories.map(\.name),
                                          suggestions: NameSuggestions.suggestions(for: c, among: table.categoryNames))
            }
            index = i
        }
        let weight = try f.appleFontWeight(emphasized: style.emphasizedWeight) ?? style.weight.cssWeight
        let points = style.sizes[index]
        var selection = TextStyleSelection(style: style, category: table.categories[index], points: points,
                                           leading: style.leading[index], weight: weight,
                                           requirement: AppleTextRequirement(points: points, weight: weight))
        // A style judged at the default size can be large text there and small text at a smaller
        // Dynamic Type size (an iOS developer's pass: title3 is 20 pt at Large, 3:1; 17 pt at
        // xSmall, 4.5:1), with no word of it.
        // Only that way round: where a larger size makes it large text, less is needed there.
        if !categoryGiven, selection.requirement.isLargeText,
           let i = style.sizes.indices.first(where: { i in i < table.categories.count && !WCAG.isLargeText(points: style.sizes[i], weight: weight) }) {
            selection.sizeNote = "judged at the \(table.categories[index].name) size (\(Fields.format(points)) pt, large text); at \(table.categories[i].name) \(style.name) is \(Fields.format(style.sizes[i])) pt, not large text, and needs \(Fields.format(WCAG.aaNormalText)):1 for WCAG AA: give contentSizeCategory to judge the smallest size your app allows"
        }
        return selection
    }

    /// The size as the contrast endpoint's text spec (points).
    var textSpec: TextSpec { TextSpec(points: points, weight: weight, unit: .pt, value: points, apcaPointsAsPx: true) }

    /// The style block of a response; with a measurement, also whether it passes.
    func json(ratio: Double?, lc: Double?) -> JSON {
        let r = requirement
        var o = JSONObject()
        o.append("name", .string(style.name))
        o.append("title", .string(style.title))
        o.append("contentSizeCategory", AppleJSON.category(category))
        o.append("size", .number(points))
        o.append("leading", .number(leading))
        o.append("sizeUnit", .string("pt"))
        o.append("weight", .string(AppleFontWeight(cssWeight: weight).rawValue))
        o.append("cssWeight", .number(Double(weight)))
        o.append("styleWeight", .string(style.weight.rawValue))
        o.append("emphasizedWeight", .string(style.emphasizedWeight.rawValue))
        o.append("isLargeText", .bool(r.isLargeText))
        o.append("requiredRatio", .object([("AA", .number(r.wcagAA)), ("AAA", .number(r.wcagAAA)), ("hig", .number(r.hig))]))
        o.append("apcaMinimumLc", .number(r.apcaMinimumLc))
        if let ratio {
            var passes: [(String, JSON)] = [("AA", .bool(ratio >= r.wcagAA)), ("AAA", .bool(ratio >= r.wcagAAA)), ("hig", .bool(ratio >= r.hig))]
            if let lc { passes.append(("apca", .bool(r.apcaMinimumLc.map { abs(lc) >= $0 } ?? false))) }
            o.append("passes", .object(passes))
        }
        var notes: [JSON] = [.string(AppleJSON.sizeNote)]
        if let sizeNote { notes.append(.string(sizeNote)) }
        if r.apcaMinimumLc == nil { notes.append(.string("APCA's font lookup allows no contrast for this size and weight")) }
        o.append("notes", .array(notes))
        o.append("warnings", .array(r.weightWarning.map { [.string($0)] } ?? []))
        return .object(o)
    }
}

/// What `/v1/contrast` accepts beyond colors and sizes: the Apple context for system color names
/// and a Dynamic Type text style in place of `fontSize`.
struct AppleContrastOptions: Sendable {
    /// The members added to `/v1/contrast`.
    static let fields: Set<String> = Set(["appearance", "level", "contrast", "generation"]).union(TextStyleSelection.fields)

    var context: AppleColorContext
    var contextGiven: Bool
    var textStyle: TextStyleSelection?

    /// `fields` as a list: a request with none of them takes the defaults without a lookup per
    /// member (comparing a few short names costs less than hashing each member's).
    private static let memberNames = Array(fields)

    init(_ f: Fields) throws(Problem) {
        guard f.object.storage.contains(where: { AppleContrastOptions.memberNames.contains($0.key) }) else {
            context = .default  // what `appleContext()` gives when no member is present
            contextGiven = false
            return
        }
        context = try f.appleContext()
        contextGiven = ["appearance", "level", "contrast", "generation"].contains { f.has($0) }
        if f.has("textStyle") || f.has("contentSizeCategory") {
            textStyle = try TextStyleSelection.from(f, table: try AppleData.get().dynamicType)
        }
    }

    /// Runs the endpoint with the context bound, so every color member resolves in it.
    func run<T>(_ body: () throws(Problem) -> T) throws(Problem) -> T {
        try AppleRequestScope.run(context, body)
    }

    /// The text spec from the text style, or else from `fontSize`/`fontWeight`.
    func textSpec(orFrom f: Fields) throws(Problem) -> TextSpec? {
        if let textStyle { return textStyle.textSpec }
        return try TextSpec.from(f, unitWhereItMatters: true)
    }

    /// Adds `textStyle` (when given) and `appleContext` (when given or when a color was a system
    /// color name) to a contrast response.
    func annotate<S: JSONSink>(into out: inout S, _ m: ContrastMeasurement, usedSystemColor: Bool) {
        if let textStyle { out.member("textStyle", textStyle.json(ratio: m.ratio, lc: m.apcaLc)) }
        if contextGiven || usedSystemColor { out.member("appleContext", AppleJSON.context(context)) }
    }
}

extension Fields {
    /// The contexts selected by the optional filters `appearance`, `level`, `contrast` (absent =
    /// all values) in `generation`. Light elevated is included only when `level` asks for
    /// elevated (it equals light base and carries a note).
    func appleContextFilter(generation: AppleCatalogGeneration) throws(Problem) -> [AppleColorContext] {
        let appearances = try appleChoice("appearance", AppleAppearance.self, what: "appearance").map { [$0] } ?? AppleAppearance.allCases
        let levelFilter = try appleChoice("level", AppleInterfaceLevel.self, what: "interface level")
        let contrasts = try appleChoice("contrast", AppleContrastSetting.self, what: "contrast setting",
                                        aliases: Fields.contrastAliases).map { [$0] } ?? AppleContrastSetting.allCases
        var contexts: [AppleColorContext] = []
        for contrast in contrasts {
            for appearance in appearances {
                let levels: [AppleInterfaceLevel] = levelFilter.map { [$0] } ?? (appearance == .dark ? [.base, .elevated] : [.base])
                for level in levels {
                    contexts.append(AppleColorContext(appearance: appearance, level: level, contrast: contrast, generation: generation))
                }
            }
        }
        return contexts
    }
}

/// A custom color that may differ per appearance and contrast, like an asset-catalog color set,
/// and in dark mode per interface level, like a dynamic `UIColor`: either a color string, or
/// `{"color", "dark"?, "increasedContrast"?, "darkIncreasedContrast"?, "darkElevated"?,
/// "darkIncreasedContrastElevated"?}`. Each string is a CSS color or an Apple system color name
/// (which resolves per context).
///
/// Fallbacks: dark → `color`; increased contrast → `color`; dark increased contrast → `dark`, then
/// `color` (appearance outranks contrast, as asset catalogs fall back); at the elevated level the
/// elevated value of the same contrast first, then as at the base level, a dark increased
/// contrast one taking `darkElevated` after its own base value (a palette's Swift export writes
/// these: re-auditing it measures what the app shows in sheets; a designer's pass). An
/// `increasedContrast` written `light-dark(a, b)` serves dark increased contrast with `b` before
/// `dark` (a new user's pass: `b` was dropped without a word, and `dark` measured there).
struct AdaptiveColorInput: Sendable {
    var variants: [(key: String, text: String, path: FieldPath)]
    var hexOrder: HexOrder
    /// Whether `increasedContrast` depends on the appearance (a `light-dark()`).
    var increasedContrastIsAdaptive = false

    static let objectFields: Set<String> = ["color", "dark", "increasedContrast", "darkIncreasedContrast", "darkElevated",
                                            "darkIncreasedContrastElevated"]
    /// The member a `light-dark()` in `color` or `increasedContrast` gives itself, and its name.
    static let lightDarkGives: [String: (key: String, variant: String)] = [
        "color": ("dark", "dark variant"), "increasedContrast": ("darkIncreasedContrast", "dark increased-contrast variant"),
    ]

    /// Parses a string or object member value at `path`; every variant is checked now, so a bad
    /// color is reported with its own pointer.
    static func parse(_ value: JSON, at path: FieldPath, fromQuery: Bool, hexOrder: HexOrder,
                      extraFields: Set<String> = []) throws(Problem) -> AdaptiveColorInput {
        var variants: [(String, String, FieldPath)] = []
        switch value {
        case .string(let s):
            variants = [("color", s, path)]
        case .object(let o):
            let f = Fields(object: o, path: path, fromQuery: fromQuery)
            for key in ["color", "dark", "increasedContrast", "darkIncreasedContrast", "darkElevated", "darkIncreasedContrastElevated"] {
                guard let v = f.value(key) else {
                    if key == "color" { throw Problem.invalidField(f.field(key), "\(f.field(key).display) is required: give a color such as \"#1c1c1e\" or \"systemBlue\"") }
                    continue
                }
                guard case .string(let s) = v else {
                    throw Problem.invalidField(f.field(key), "\(f.field(key).display) must be a color string, not \(v.typeName)")
                }
                variants.append((key, s, f.field(key)))
            }
        default:
            throw Problem.invalidField(path, "\(path.display) must be a color string or an object {\"color\", \"dark\", \"increasedContrast\", \"darkIncreasedContrast\", \"darkElevated\", \"darkIncreasedContrastElevated\"}, not \(value.typeName)")
        }
        var input = AdaptiveColorInput(variants: variants, hexOrder: hexOrder)
        for v in input.variants {
            let c = try resolveColor(v.text, at: v.path, hexOrder: hexOrder, context: .default)
            // `light-dark(a, b)` gives the dark variant itself: one given beside it contradicts it,
            // as `/v1/palette/dark` says (a hostile pass, stop 42: here its own value had won
            // without a word).
            if c.dependsOnAppearance, let (own, what) = lightDarkGives[v.key],
               let other = input.variants.first(where: { $0.key == own }) {
                throw Problem.lightDarkBeside(other.path, v.path, variant: what)
            }
            if v.key == "increasedContrast" && c.dependsOnAppearance { input.increasedContrastIsAdaptive = true }
        }
        return input
    }

    /// The variant used in `context` (see the type's fallbacks).
    func variant(for context: AppleColorContext) -> (key: String, text: String, path: FieldPath) {
        func find(_ key: String) -> (key: String, text: String, path: FieldPath)? { variants.first { $0.key == key } }
        let order: [String]
        let elevated = context.effectiveLevel == .elevated
        switch (context.appearance, context.contrast) {
        case (.light, .standard): order = ["color"]
        case (.dark, .standard): order = elevated ? ["darkElevated", "dark", "color"] : ["dark", "color"]
        case (.light, .increased): order = ["increasedContrast", "color"]
        case (.dark, .increased):
            let adaptive = increasedContrastIsAdaptive ? ["increasedContrast"] : []
            order = elevated ? ["darkIncreasedContrastElevated", "darkIncreasedContrast"] + adaptive + ["darkElevated", "dark", "color"]
                : ["darkIncreasedContrast"] + adaptive + ["dark", "color"]
        }
        for key in order { if let v = find(key) { return v } }
        return variants[0]
    }

    /// The color in `context` (system names resolve in it).
    func resolve(in context: AppleColorContext) throws(Problem) -> (variant: String, color: ResolvedColor) {
        let v = variant(for: context)
        return (v.key, try resolveColor(v.text, at: v.path, hexOrder: hexOrder, context: context))
    }

    /// The text of the plain color (for labels in responses).
    var text: String { variants[0].text }
}
