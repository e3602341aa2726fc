import ColorScience
import Foundation

// Dark-mode and increased-contrast variants of a light palette, checked on every Apple surface
// each color sits on.
//
// Method (docs/algorithms/palettes.md, "Dark variants"; measured against Apple's own tints by bench/apple-likeness):
// - Every variant is searched along the constant-hue OKLCH path of `NearestPassingColor`: hue
//   kept, chroma kept unless sRGB cannot show it, lightness moved as little as possible (ΔE OK),
//   judged as the 8-bit color it is reported as.
// - Surfaces: the opaque system backgrounds (systemBackground … tertiarySystemGroupedBackground)
//   of every context a variant is shown in — dark: base and elevated; increased contrast: the
//   increased-contrast values — plus the palette's own background colors a color is placed `on`
//   (their variant in the same context, composited over each system surface when translucent).
//   Translucent colors are composited source-over on each surface before measuring.
// - Start points: a tint, icon or non-text color starts from itself (the least change). Text
//   whose surface turns from light to dark flips polarity: its dark variant must also keep at
//   least the contrast it had on its light surface (so primary and secondary text keep their
//   order: black text becomes white, not a just-passing gray). On a dark surface text is always
//   lighter: text that was already lighter than its light surface stays light. A light background (relative
//   luminance ≥ 0.1791, where white and black contrast equally) is mirrored: its dark start is the
//   darkest color of the same hue and chroma whose contrast with the dark systemBackground is
//   the contrast it had with the light systemBackground (#f2f2f7 on white → a near-black gray);
//   darker backgrounds keep their color.
// - Repair: from the start, the nearest color (both directions, smaller ΔE OK from the start)
//   that reaches the target on every surface of every context of the variant. A start that
//   already passes is kept unchanged. When no color of the path passes everywhere (e.g. 7:1 on
//   a mid-gray custom surface), the color with the best worst case is returned, marked failing,
//   with the surfaces it fails on: never a silently wrong pass.
// - Backgrounds are judged by the system `label` of each context (or, where it contrasts more, the
//   other appearance's label: white on a dark fill in light mode), unless palette text colors
//   are placed `on` them; then the text is repaired against the background first, and where it
//   still cannot pass, the background moves (nearest color of its hue) until all its text
//   passes, and the text is generated again on it. Such a background's measurements are the
//   palette texts on it.
// - Increased contrast: the light variant (dark variant) is repaired again against the
//   increased-contrast surfaces with the increased target (`ContrastTarget.increased`).
// - The light variant is the color as given; it is measured and, when failing, carries the
//   nearest passing suggestion (or is replaced by it with `adjustLight`).

/// The four appearances a palette color is generated for, as asset catalogs name them.
public enum PaletteVariant: String, Sendable, CaseIterable, Hashable {
    /// Light appearance, standard contrast ("Any" in an asset catalog): the color as given.
    case light
    /// Dark appearance, standard contrast, base and elevated levels.
    case dark
    /// Light appearance with Increase Contrast on ("High Contrast").
    case lightIncreasedContrast
    /// Dark appearance with Increase Contrast on, base and elevated levels.
    case darkIncreasedContrast

    /// Light or dark.
    public var appearance: AppleAppearance { self == .light || self == .lightIncreasedContrast ? .light : .dark }
    /// Standard or increased contrast.
    public var contrast: AppleContrastSetting { self == .light || self == .dark ? .standard : .increased }
    /// Human-readable name, e.g. "Dark, increased contrast".
    public var title: String {
        switch self {
        case .light: return "Light"
        case .dark: return "Dark"
        case .lightIncreasedContrast: return "Light, increased contrast"
        case .darkIncreasedContrast: return "Dark, increased contrast"
        }
    }
}

/// What palette colors sit on in each of the six distinct Apple contexts: the distinct opaque
/// system backgrounds, systemBackground itself and the `label` color.
public struct PaletteEnvironment: Sendable {
    /// One distinct opaque surface color and the system color names that have it.
    public struct Surface: Sendable, Equatable {
        /// System color names sharing this value, catalog order (e.g. systemBackground,
        /// systemGroupedBackground), or `custom:<name>` for a palette background.
        public var names: [String]
        /// Opaque gamma-encoded sRGB `0...1`.
        public var srgb: SIMD3<Double>
        /// The names joined with ", ".
        public var name: String { names.joined(separator: ", ") }

        /// A surface.
        public init(names: [String], srgb: SIMD3<Double>) {
            self.names = names
            self.srgb = srgb
        }
    }

    /// One context's surfaces.
    public struct Context: Sendable {
        /// The trait context.
        public var context: AppleColorContext
        /// The distinct opaque system backgrounds, in catalog order.
        public var surfaces: [Surface]
        /// systemBackground in this context (what translucent custom backgrounds lie over).
        public var systemBackground: SIMD3<Double>
        /// The system `label` color (judges background-role colors).
        public var label: DisplayColor
        /// The `label` of the other appearance at the same contrast setting (white in light, black
        /// in dark): the text a dark fill carries in light mode (a prominent button's white title),
        /// or a light fill in dark mode. Filled in by `PaletteEnvironment.init(contexts:)` when nil.
        public var inverseLabel: DisplayColor?

        /// A context.
        public init(context: AppleColorContext, surfaces: [Surface], systemBackground: SIMD3<Double>, label: DisplayColor,
                    inverseLabel: DisplayColor? = nil) {
            self.context = context
            self.surfaces = surfaces
            self.systemBackground = systemBackground
            self.label = label
            self.inverseLabel = inverseLabel
        }
    }

    /// The six contexts in `AppleColorContext.distinctContexts` order.
    public var contexts: [Context]

    /// An environment from explicit contexts; a context without `inverseLabel` gets the label of
    /// the first context of the other appearance at the same contrast setting.
    public init(contexts: [Context]) {
        self.contexts = contexts.map { c in
            var c = c
            if c.inverseLabel == nil {
                c.inverseLabel = contexts.first {
                    $0.context.appearance != c.context.appearance && $0.context.contrast == c.context.contrast
                }?.label
            }
            return c
        }
    }

    /// The environment of `generation` read from `catalog`: the background and grouped
    /// background names of each distinct context (identical values merged into one surface),
    /// systemBackground and label. Nil when the catalog lacks systemBackground or label.
    public init?(catalog: AppleSystemColorCatalog, generation: AppleCatalogGeneration = .newest) {
        var contexts: [Context] = []
        for context in AppleColorContext.distinctContexts(generation: generation) {
            guard let system = catalog.resolve("systemBackground", in: context),
                let label = catalog.resolve("label", in: context)
            else { return nil }
            var surfaces: [Surface] = []
            for name in catalog.backgroundNames {
                guard let value = catalog.resolve(name, in: context)?.value, value.alpha >= 1 else { continue }
                if let i = surfaces.firstIndex(where: { $0.srgb == value.srgb }) {
                    surfaces[i].names.append(name)
                } else {
                    surfaces.append(Surface(names: [name], srgb: value.srgb))
                }
            }
            contexts.append(Context(context: context, surfaces: surfaces, systemBackground: system.value.srgb,
                                    label: label.value.displayColor))
        }
        self.init(contexts: contexts)
    }

    /// Palette backgrounds' given elevated values by name and variant (`PaletteEntry.givenElevated`),
    /// set by `DarkVariants.generate`.
    var elevatedBackgrounds: [String: [PaletteVariant: DisplayColor]] = [:]
    /// Palette backgrounds whose variants are lifted at the elevated level (`ElevationLift`), by
    /// name, set by `DarkVariants.generate`.
    var liftedBackgrounds: [String: Set<PaletteVariant>] = [:]
    /// `elevationLift` of the variants that lift a background, set by `DarkVariants.generate`.
    var lifts: [PaletteVariant: ElevationLift] = [:]

    /// How Apple's backgrounds climb from the base level to the elevated one in `variant` (dark,
    /// dark increased contrast), read from the two contexts' surfaces; nil in light variants.
    public func elevationLift(_ variant: PaletteVariant) -> ElevationLift? {
        let cs = contexts(for: variant)
        guard let base = cs.first(where: { $0.context.effectiveLevel == .base }),
              let up = cs.first(where: { $0.context.effectiveLevel == .elevated }) else { return nil }
        return ElevationLift(base: base.surfaces, elevated: up.surfaces)
    }

    /// The contexts a variant is shown in: light → light; dark → dark base and elevated;
    /// increased contrast likewise with the increased-contrast values.
    public func contexts(for variant: PaletteVariant) -> [Context] {
        contexts.filter { $0.context.appearance == variant.appearance && $0.context.contrast == variant.contrast }
    }
}

/// One color of a light palette with its role and targets.
public struct PaletteEntry: Sendable {
    /// Unique name within the palette.
    public var name: String
    /// What the color is used for (text, secondaryText, tint, icon, nonText, background).
    public var role: AppleColorRole
    /// The light-mode color as given (any space; gamut-mapped to sRGB for display).
    public var color: Color
    /// The contrast the light and dark variants must reach.
    public var target: ContrastTarget
    /// The contrast the increased-contrast variants must reach.
    public var increasedTarget: ContrastTarget
    /// Names of palette background entries this color is placed on; empty means the system
    /// backgrounds.
    public var on: [String]
    /// Whether the system backgrounds count as surfaces too (default: when `on` is empty).
    public var onSystemBackgrounds: Bool
    /// Variants fixed by the caller (measured, never generated).
    public var given: [PaletteVariant: Color]
    /// For a background whose given dark variants change with the interface level (Apple's
    /// `secondarySystemBackground` is #1c1c1e at the base level and #2c2c2e elevated, in sheets
    /// and popovers): the elevated values, used in the elevated contexts (HIG Dark Mode).
    public var givenElevated: [PaletteVariant: Color] = [:]

    /// An entry; `increasedTarget` defaults to `target.increased`, `onSystemBackgrounds` to
    /// `on.isEmpty`.
    public init(name: String, role: AppleColorRole, color: Color, target: ContrastTarget,
                increasedTarget: ContrastTarget? = nil, on: [String] = [], onSystemBackgrounds: Bool? = nil,
                given: [PaletteVariant: Color] = [:]) {
        self.name = name
        self.role = role
        self.color = color
        self.target = target
        self.increasedTarget = increasedTarget ?? target.increased
        self.on = on
        self.onSystemBackgrounds = onSystemBackgrounds ?? on.isEmpty
        self.given = given
    }

    /// The target a variant must reach.
    public func target(for variant: PaletteVariant) -> ContrastTarget {
        variant.contrast == .increased ? increasedTarget : target
    }
}

/// One measured pair of a palette variant.
public struct PaletteMeasurement: Sendable {
    /// The context of the surface.
    public var context: AppleColorContext
    /// The surface: system names (e.g. "secondarySystemBackground, …"), `custom:<name>`, or for a
    /// background-role color its own name (with " over <system surface>" when translucent).
    public var surface: String
    /// The opaque surface color (after compositing).
    public var surfaceColor: SIMD3<Double>
    /// What is drawn on it: the entry's name, `label`, or a palette text color's name.
    public var foreground: String
    /// The foreground as drawn (8-bit, straight alpha).
    public var foregroundColor: DisplayColor
    /// WCAG ratio and APCA Lc of the (composited) foreground on the surface.
    public var measurement: ContrastMeasurement
    /// The value in the target's metric.
    public var value: Double
    /// The minimum `value` was judged against.
    public var minimum: Double
    /// Whether `value` meets the target.
    public var passes: Bool
    /// `value − minimum` (≥ 0 passes); orders rows judged by different targets.
    public var margin: Double { value - minimum }
}

/// How a variant was obtained.
public enum PaletteVariantMethod: String, Sendable, CaseIterable, Hashable {
    /// The light color as given.
    case original
    /// Given by the caller for this variant.
    case given
    /// The start point already passed everywhere: kept as it was (a tint unchanged in dark mode).
    case unchanged
    /// A mirrored background start, kept: palette text on it is repaired instead, or it passed.
    case mirrored
    /// Moved along its path until it passes everywhere.
    case adjusted
    /// No color of the path passes everywhere: the best worst case, reported as failing.
    case bestEffort
}

/// One generated (or measured) variant of a palette color.
public struct PaletteVariantResult: Sendable {
    /// Which variant.
    public var variant: PaletteVariant
    /// The color (8-bit, exactly its hex).
    public var color: DisplayColor
    /// How it was obtained.
    public var method: PaletteVariantMethod
    /// The direction it moved from `start`, when `method` is `adjusted` or `bestEffort`.
    public var direction: NearestPassingColor.Direction?
    /// Where the search began (the light color, the dark variant, or a mirrored start).
    public var start: DisplayColor
    /// The target this variant is judged by.
    public var target: ContrastTarget
    /// The color at the elevated level (sheets, popovers) when it differs from `color` there: a
    /// background's dark variants, Apple's own for a system background, or lifted as Apple lifts
    /// its backgrounds (`ElevationLift`) for a palette surface. Nil otherwise (`color` at every level).
    public var elevated: DisplayColor? = nil
    /// ΔE OK from the light original as given.
    public var deltaEOK: Double
    /// CIEDE2000 (Lab D65) from the light original as given.
    public var deltaE2000: Double
    /// Every surface of every context of the variant.
    public var measurements: [PaletteMeasurement]
    /// The measurement with the lowest value.
    public var worst: PaletteMeasurement?
    /// True when every measurement passes.
    public var passes: Bool
    /// For a failing light color (without `adjustLight`): the nearest passing color.
    public var suggestion: DisplayColor?
    /// Explanations (why a color could not pass, what constrained it).
    public var notes: [String]
    /// The color as given, when this variant is it (`original` or `given`) and it lies outside
    /// sRGB: `color` is then its CSS Color 4 gamut mapping into sRGB (§13.2), which is what is
    /// measured; a wide-gamut export writes this color instead. Nil otherwise.
    public var wideGamutColor: Color? = nil
}

/// The variants of one palette color.
public struct PaletteEntryResult: Sendable {
    /// The entry as given.
    public var entry: PaletteEntry
    /// Light, dark, light increased contrast, dark increased contrast (`PaletteVariant` order).
    public var variants: [PaletteVariantResult]
    /// True when every variant passes.
    public var passes: Bool { variants.allSatisfy(\.passes) }

    /// The result for `variant`.
    public subscript(_ variant: PaletteVariant) -> PaletteVariantResult {
        variants.first { $0.variant == variant }!
    }
}

/// Generates dark and increased-contrast variants of a light palette (see the file header for
/// the method). Pure and deterministic.
public enum DarkVariants {
    /// Relative luminance where white and black give the same WCAG contrast
    /// (√(1.05 × 0.05) − 0.05): at or above it a surface counts as light.
    public static let midLuminance = (1.05 * 0.05).squareRoot() - 0.05

    /// A surface a foreground is measured on.
    struct Placed {
        var context: AppleColorContext
        var name: String
        var srgb: SIMD3<Double>
        /// WCAG relative luminance of `srgb`, computed once.
        var luminance: Double

        init(context: AppleColorContext, name: String, srgb: SIMD3<Double>) {
            self.context = context
            self.name = name
            self.srgb = srgb
            luminance = WCAG.relativeLuminance(srgb)
        }
    }

    /// Generates every variant of every entry.
    ///
    /// - Parameters:
    ///   - entries: the palette; names should be unique and `on` should name background-role
    ///     entries (others are ignored).
    ///   - environment: the Apple surfaces (see `PaletteEnvironment.init(catalog:generation:)`).
    ///   - adjustLight: when true, a failing light color is replaced by its nearest passing color
    ///     (and the other variants start from it); by default it is kept and reported.
    /// - Returns: one result per entry, in entry order.
    /// - Complexity: per variant at most about 2 × 290 path points, each measured on every
    ///   surface of the variant's contexts (6 system surfaces in dark).
    public static func generate(_ entries: [PaletteEntry], in environment: PaletteEnvironment,
                                adjustLight: Bool = false) -> [PaletteEntryResult] {
        var environment = environment
        for e in entries where e.role == .background && !e.givenElevated.isEmpty {
            var values = e.givenElevated.mapValues { DisplayColor($0).quantized }
            // With Increase Contrast, a sheet shows `darkElevated` when neither of that setting's
            // own values is given, as `/v1/audit` reads the same members (a new user's pass: the
            // palette and its Swift export kept the base `dark` there, #1c1c1e under a #242426
            // sheet, where the audit of the same input measured `darkElevated`).
            if values[.darkIncreasedContrast] == nil, e.given[.darkIncreasedContrast] == nil, let up = values[.dark] {
                values[.darkIncreasedContrast] = up
            }
            environment.elevatedBackgrounds[e.name] = values
        }
        // Palette surfaces climb at the elevated level as Apple's backgrounds do (a card kept at
        // its base value sat darker than the sheet around it).
        // Not when its dark variant is given (its increased-contrast one starts from it; a
        // designer's pass found that one lifted), nor where an elevated value is given.
        for e in entries where e.role == .background && e.given[.dark] == nil && isLightSurface(e, environment) {
            for v in [PaletteVariant.dark, .darkIncreasedContrast] where e.given[v] == nil && e.givenElevated[v] == nil {
                guard let lift = environment.lifts[v] ?? environment.elevationLift(v) else { continue }
                environment.lifts[v] = lift
                environment.liftedBackgrounds[e.name, default: []].insert(v)
            }
        }
        var backgrounds: [String: [PaletteVariant: DisplayColor]] = [:]
        var results = [PaletteEntryResult?](repeating: nil, count: entries.count)
        let backgroundNames = Set(entries.filter { $0.role == .background }.map(\.name))
        // Backgrounds with palette text placed on them are judged by that text.
        var textOn: [String: [Int]] = [:]
        for (i, e) in entries.enumerated() where e.role != .background {
            for name in e.on where backgroundNames.contains(name) { textOn[name, default: []].append(i) }
        }

        for (i, e) in entries.enumerated() where e.role == .background {
            let r = background(e, judgedByText: textOn[e.name] != nil, environment: environment, adjustLight: adjustLight)
            results[i] = r
            backgrounds[e.name] = Dictionary(uniqueKeysWithValues: r.variants.map { ($0.variant, $0.color) })
        }
        for (i, e) in entries.enumerated() where e.role != .background {
            results[i] = foreground(e, backgrounds: backgrounds, environment: environment, adjustLight: adjustLight)
        }
        // Backgrounds with palette text the text could not pass on: move the background (against
        // the text as generated so far), then generate the affected text once more, per variant.
        // An increased-contrast variant starts from its standard one (light → light increased,
        // dark → dark increased): when a background's standard variant moves, its increased one
        // starts again from there, and the text on it is generated again at that index too. The
        // dark increased variant had kept the dark search's start, so Increase Contrast could
        // lower the contrast the dark variant had reached (hostile test).
        var pending: [Int: Set<Int>] = [:]
        for (index, v) in PaletteVariant.allCases.enumerated() {
            var regenerate = pending[index] ?? []
            let increased: PaletteVariant? = v == .light ? .lightIncreasedContrast : v == .dark ? .darkIncreasedContrast : nil
            let increasedIndex = increased.flatMap { PaletteVariant.allCases.firstIndex(of: $0) }
            for (i, e) in entries.enumerated() where e.role == .background && e.given[v] == nil {
                guard let texts = textOn[e.name], let r = results[i] else { continue }
                let texted = texts.compactMap { results[$0] }
                let (variant, moved) = repair(e, r.variants[index], under: texted, environment: environment, adjustLight: adjustLight)
                results[i]!.variants[index] = variant
                if moved {
                    backgrounds[e.name]?[v] = variant.color
                    regenerate.formUnion(texts)
                    if let increased, let increasedIndex, e.given[increased] == nil {
                        let old = results[i]!.variants[increasedIndex]
                        results[i]!.variants[increasedIndex] = PaletteVariantResult(
                            variant: increased, color: variant.color, method: .unchanged, direction: nil, start: variant.color,
                            target: old.target, deltaEOK: deltaEOK(variant.color, e.color), deltaE2000: deltaE2000(variant.color, e.color),
                            measurements: [], worst: nil, passes: true, suggestion: nil, notes: [])
                        backgrounds[e.name]?[increased] = variant.color
                        pending[increasedIndex, default: []].formUnion(texts)
                    }
                }
            }
            // Text generated again here starts its increased-contrast variant from the new one.
            if let increasedIndex { pending[increasedIndex, default: []].formUnion(regenerate) }
            for t in regenerate.sorted() {
                guard var text = results[t] else { continue }
                text.variants[index] = generated(text, v, backgrounds: backgrounds, environment: environment)
                results[t] = text
            }
        }
        // Backgrounds judged by palette text: their measurements are that text on them.
        for (i, e) in entries.enumerated() where e.role == .background {
            guard let texts = textOn[e.name], var r = results[i] else { continue }
            for v in r.variants.indices {
                let variant = r.variants[v].variant
                var rows: [PaletteMeasurement] = []
                for t in texts {
                    guard let text = results[t] else { continue }
                    let fg = text[variant].color
                    let target = text.entry.target(for: variant)
                    for c in environment.contexts(for: variant) {
                        let color = atLevel(r.variants[v].color, of: e.name, variant, in: c, environment)
                        for s in placements(ofBackground: color, named: e.name, in: c) {
                            rows.append(measure(fg, named: text.entry.name, on: s, target: target))
                        }
                    }
                }
                r.variants[v].measurements = rows
                r.variants[v].worst = rows.min { $0.margin < $1.margin }
                r.variants[v].passes = rows.allSatisfy(\.passes)
                // A generated variant that fails is a best effort, whatever its start was called
                // (it had stayed `unchanged` or `mirrored` with passes false; hostile test). The
                // light color as given stays `original`, with its suggestion.
                if !r.variants[v].passes && variant != .light && r.variants[v].method != .given {
                    r.variants[v].method = .bestEffort
                }
            }
            results[i] = r
        }
        for (i, e) in entries.enumerated() where e.role == .background {
            for v in results[i]!.variants.indices {
                let variant = results[i]!.variants[v]
                guard let up = elevated(variant.color, of: e.name, variant.variant, environment), up != variant.color else {
                    // A surface whose dark value is given and has none of its own at the elevated
                    // level, where it is one of Apple's elevated backgrounds: it vanishes there.
                    if variant.variant.appearance == .dark, variant.color.alpha >= 1, e.given[variant.variant] != nil,
                       e.givenElevated[variant.variant] == nil, isLightSurface(e, environment),
                       let sheet = environment.contexts(for: variant.variant).first(where: { $0.context.effectiveLevel == .elevated })?
                           .surfaces.first(where: { DisplayColor(srgb: $0.srgb, alpha: 1) == variant.color }) {
                        results[i]!.variants[v].notes.append("At the elevated level (sheets, popovers) it stays \(variant.color.hex), the color of \(sheet.name) there, so it does not stand out from a sheet; give \(variant.variant == .dark ? "darkElevated" : "darkIncreasedContrastElevated") for a value of its own there.")
                    }
                    continue
                }
                results[i]!.variants[v].elevated = up
                if variant.variant == .darkIncreasedContrast, e.givenElevated[.darkIncreasedContrast] == nil,
                   environment.elevatedBackgrounds[e.name]?[.darkIncreasedContrast] != nil {
                    results[i]!.variants[v].notes.append("At the elevated level (sheets, popovers) it is \(up.hex), darkElevated as given, as /v1/audit reads it there; give darkIncreasedContrastElevated for a value of its own with Increase Contrast.")
                }
                if environment.elevatedBackgrounds[e.name]?[variant.variant] == nil, let lift = environment.lifts[variant.variant] {
                    let steps = lift.ladderText
                    results[i]!.variants[v].notes.append("At the elevated level (sheets, popovers) it is \(up.hex), lifted as Apple lifts its own backgrounds there (\(steps)): the elevated contexts measure that color; hex is the base level's.")
                }
            }
        }
        return results.map { $0! }
    }

    /// Whether a background is a light surface in light mode (opaque, relative luminance at least
    /// `midLuminance`): the backgrounds mirrored dark, which climb at the elevated level.
    /// A mid-tone kept as given because its mirror is itself (`visibleMirror`) is a fill, which
    /// keeps one value at both levels as Apple's fills do (a new user's pass: Tailwind's
    /// indigo-500 as a brand fill, luminance 0.1795, was lifted to #6260ff in sheets, and its
    /// dark value moved to #544dec so that white text passed on the lifted one).
    static func isLightSurface(_ e: PaletteEntry, _ environment: PaletteEnvironment) -> Bool {
        let light = DisplayColor(e.given[.light] ?? e.color).quantized
        guard light.alpha >= 1, WCAG.relativeLuminance(light.srgb) >= midLuminance else { return false }
        return visibleMirror(light, environment: environment).mirrored
    }

    /// `mirror`, except that a mirror within `unseenMirror` of the light color is no mirror: the
    /// light color, not mirrored.
    static func visibleMirror(_ light: DisplayColor, environment: PaletteEnvironment) -> (color: DisplayColor, mirrored: Bool) {
        let mirrored = mirror(light, environment: environment)
        // A mid-tone background (as far from white as from black) mirrors to itself give or take
        // an 8-bit step: kept as it is, as given, so a wide-gamut brand fill stays wide-gamut in
        // dark and is not counted as changed (a new user's pass: oklch(58.5% 0.233 277.117) went
        // from #615fff to a "mirrored" #615ffe, ΔEOK 0.004, written as its sRGB copy in P3).
        if mirrored.mirrored && ColorDifference.deltaEOK(oklab1: NearestPassingColor.oklab(mirrored.color.srgb),
                                                         oklab2: NearestPassingColor.oklab(light.srgb)) < Self.unseenMirror {
            return (light, false)
        }
        return mirrored
    }

    /// A palette background's color at the elevated level of `variant` (nil where it has none of
    /// its own: light variants, and backgrounds neither given one nor lifted).
    static func elevated(_ color: DisplayColor, of name: String, _ variant: PaletteVariant, _ environment: PaletteEnvironment) -> DisplayColor? {
        if let given = environment.elevatedBackgrounds[name]?[variant] { return given }
        guard environment.liftedBackgrounds[name]?.contains(variant) == true, let lift = environment.lifts[variant] else { return nil }
        return lift.elevated(color)
    }

    // MARK: Foregrounds

    /// Where a foreground is measured in `variant`: the system surfaces (unless placed only on
    /// palette backgrounds) and its palette backgrounds' variants, a translucent one composited
    /// over each distinct system surface, exactly where the background's own rows measure it
    /// (see `placements`). Over systemBackground alone, text on `rgba(0,0,0,0.05)` was reported
    /// passing while the background's rows failed it on the tertiary surfaces (hostile test).
    static func surfaces(_ e: PaletteEntry, _ variant: PaletteVariant, backgrounds: [String: [PaletteVariant: DisplayColor]],
                         environment: PaletteEnvironment) -> [Placed] {
        var out: [Placed] = []
        for c in environment.contexts(for: variant) {
            if e.onSystemBackgrounds {
                for s in c.surfaces { out.append(Placed(context: c.context, name: s.name, srgb: s.srgb)) }
            }
            for name in e.on {
                guard let bg = backgrounds[name]?[variant] else { continue }
                out.append(contentsOf: placements(ofBackground: atLevel(bg, of: name, variant, in: c, environment), named: "custom:\(name)", in: c))
            }
        }
        return out
    }

    /// Said of light text that fails on its surfaces when no color of its hue passes there.
    static let unreachableLightNote = "No color of the same hue reaches the target on every light surface."

    static func foreground(_ e: PaletteEntry, backgrounds: [String: [PaletteVariant: DisplayColor]],
                           environment: PaletteEnvironment, adjustLight: Bool) -> PaletteEntryResult {
        let original = DisplayColor(e.color).quantized
        // Light: as given (or adjusted), measured, with a suggestion when failing.
        let lightSurfaces = surfaces(e, .light, backgrounds: backgrounds, environment: environment)
        var light: PaletteVariantResult
        if let given = e.given[.light] {
            light = finish(e, .light, DisplayColor(given).quantized, method: .given, start: original, direction: nil, on: lightSurfaces)
        } else {
            light = finish(e, .light, original, method: .original, start: original, direction: nil, on: lightSurfaces)
        }
        if !light.passes && e.given[.light] == nil && !lightSurfaces.isEmpty {
            // On palette backgrounds the suggestion keeps the color's polarity (white text on a
            // button stays light and the button moves), as the increased variants do.
            let keeper = e.on.isEmpty ? nil : polarityKeeper(original, on: lightSurfaces)
            let (move, unchanged) = NearestPassingColor.nearest(to: original) { c in
                let m = margin(c, on: lightSurfaces, target: e.target)
                return keeper.map { Swift.min(m, $0(c)) } ?? m
            }
            if move.passes && !unchanged {
                if adjustLight {
                    light = finish(e, .light, move.color, method: .adjusted, start: original, direction: move.direction, on: lightSurfaces)
                } else {
                    light.suggestion = move.color
                }
            } else if !move.passes {
                light.notes.append(unreachableLightNote)
            }
        }
        var r = PaletteEntryResult(entry: e, variants: [light])
        for v in [PaletteVariant.dark, .lightIncreasedContrast, .darkIncreasedContrast] {
            r.variants.append(generated(r, v, backgrounds: backgrounds, environment: environment))
        }
        // A fully transparent color shows only the surface beneath it: no variant of it can
        // reach a target, and the notes say why (a hostile pass got only "no color of the same
        // hue reaches the target").
        if original.alpha == 0 {
            for i in r.variants.indices {
                r.variants[i].notes.insert("The color is fully transparent (alpha 0): it shows the surface beneath it, so no variant of it can reach a target; give the color it is meant to be.", at: 0)
            }
        }
        return r
    }

    /// Generates foreground variant `v` (not light) from the variants already in `r`: dark from
    /// light (text keeps its light contrast), light increased contrast from light, dark
    /// increased contrast from dark.
    static func generated(_ r: PaletteEntryResult, _ v: PaletteVariant, backgrounds: [String: [PaletteVariant: DisplayColor]],
                          environment: PaletteEnvironment) -> PaletteVariantResult {
        let e = r.entry
        let on = surfaces(e, v, backgrounds: backgrounds, environment: environment)
        switch v {
        case .light:
            let light = r[.light]
            var again = finish(e, .light, light.color, method: light.method, start: light.start, direction: light.direction, on: on)
            again.suggestion = light.suggestion
            again.notes = light.notes
            // Passing now that its background moved: what was said of it failing no longer holds
            // (an iOS developer's pass: white on a button moved to #0074e5, 4.53:1, still said no
            // color of its hue reached the target).
            if again.passes {
                again.suggestion = nil
                again.notes.removeAll { $0 == unreachableLightNote }
            }
            return again
        case .dark:
            let light = r[.light].color
            var keeper: ((DisplayColor) -> Double)?
            // Each surface the text is placed on, light and dark: the text keeps on every one the
            // contrast it had there (a new user's pass: ink on `page` and `surface` kept its
            // contrast on `page` only, and the note said it kept it: 18.07:1 on the dark surface
            // where it had 18.10:1 on the light one).
            let keepers = referenceSurfaces(e, backgrounds: backgrounds, environment: environment).map {
                contrastKeeper(light, lightReference: $0.light, darkReference: $0.dark)
            }
            if e.role == .text || e.role == .secondaryText, !keepers.isEmpty {
                keeper = { c in keepers.reduce(Double.infinity) { Swift.min($0, $1(c)) } }
            }
            return variant(e, .dark, from: light, on: on, extra: keeper,
                           extraNote: keepers.count > 1 ? "keeps on each of its surfaces at least the contrast it had there in light (text polarity flips)"
                                                        : "keeps at least the contrast it had on its light surface (text polarity flips)")
        case .lightIncreasedContrast, .darkIncreasedContrast:
            let start = r[v == .lightIncreasedContrast ? .light : .dark].color
            // On palette backgrounds (a button's title), increased contrast strengthens the
            // polarity the color has: white text on a green button stays light and the button
            // darkens, as Apple's increased-contrast fills do. The search had flipped it to black
            // and lightened the button (hostile test).
            let keeper = e.on.isEmpty ? nil : polarityKeeper(start, on: on)
            return variant(e, v, from: start, on: on, extra: keeper,
                           extraNote: "keeps its polarity on its surfaces (increased contrast never turns light text dark or dark text light)")
        }
    }

    /// A generated (or given) foreground variant: nearest passing from `start` on `surfaces`.
    static func variant(_ e: PaletteEntry, _ v: PaletteVariant, from start: DisplayColor, on surfaces: [Placed],
                        extra: ((DisplayColor) -> Double)?, extraNote: String) -> PaletteVariantResult {
        if let given = e.given[v] {
            return finish(e, v, DisplayColor(given).quantized, method: .given, start: start, direction: nil, on: surfaces)
        }
        let target = e.target(for: v)
        let (move, unchanged) = NearestPassingColor.nearest(to: start) { margin($0, on: surfaces, target: target, extra: extra) }
        // Only a miss on the surfaces is a best effort: a color that passes everywhere but keeps
        // less than its light contrast is adjusted, with a note (it was "bestEffort" yet "passes").
        let passesSurfaces = move.passes || margin(move.color, on: surfaces, target: target) >= 0
        let method: PaletteVariantMethod = passesSurfaces ? (unchanged ? .unchanged : .adjusted) : .bestEffort
        var r = finish(e, v, move.color, method: method, start: start, direction: unchanged ? nil : move.direction, on: surfaces)
        if let extra, extra(move.color) < 0 {
            r.notes.append("Does not keep the contrast it had on its light surface: no color of the same hue both \(extraNote) and reaches the target everywhere.")
        } else if extra != nil && !unchanged {
            r.notes.append("Text: \(extraNote).")
        }
        if !passesSurfaces {
            r.notes.append("No color of the same hue reaches \(ContrastTarget.format(target.minimum))\(target.metric == .wcag2 ? ":1" : " Lc") on every surface; this is the best worst case, failing on: \(r.measurements.filter { !$0.passes }.map { "\($0.context.id) \($0.surface)" }.joined(separator: "; ")).")
            if start.alpha < 1, let note = opaqueHint(start, on: surfaces, target: target, extra: extra) { r.notes.append(note) }
        }
        return r
    }

    /// `margin(_:on:target:)`, and no more than what `extra` (a variant's own condition, such as
    /// keeping its light contrast) leaves.
    static func margin(_ color: DisplayColor, on surfaces: [Placed], target: ContrastTarget,
                       extra: ((DisplayColor) -> Double)?) -> Double {
        let m = margin(color, on: surfaces, target: target)
        return extra.map { Swift.min(m, $0(color)) } ?? m
    }

    /// For a translucent color no color of its opacity can make pass: what its opacity costs.
    /// At alpha 0.5 the lightest color is white at half strength, so the best worst case lost
    /// its hue (a new user's pass: `rgb(0 122 255 / 0.5)` as a tint became `#ffffff80` in dark,
    /// its note speaking of "the same hue"); the nearest passing color of the same hue made
    /// opaque is named instead, when there is one.
    static func opaqueHint(_ start: DisplayColor, on surfaces: [Placed], target: ContrastTarget,
                           extra: ((DisplayColor) -> Double)?) -> String? {
        let alpha = AppleFormatting.number(start.alpha)
        let opaque = DisplayColor(srgb: start.srgb, alpha: 1)
        let (move, _) = NearestPassingColor.nearest(to: opaque) { margin($0, on: surfaces, target: target, extra: extra) }
        guard move.passes || margin(move.color, on: surfaces, target: target) >= 0 else {
            return "Its opacity (alpha \(alpha)) is not what holds it back: no opaque color of the same hue passes either."
        }
        return "Its opacity (alpha \(alpha)) holds it back: no color at alpha \(alpha) passes on these surfaces; opaque, the nearest passing color of the same hue is \(move.color.quantized.hex) (POST /v1/suggest finds the lowest opacity that passes)."
    }

    /// The surfaces text is placed on, each in the first light and the first dark context: its
    /// custom backgrounds (the `on` names the palette defines), else systemBackground.
    static func referenceSurfaces(_ e: PaletteEntry, backgrounds: [String: [PaletteVariant: DisplayColor]],
                                  environment: PaletteEnvironment) -> [(light: SIMD3<Double>, dark: SIMD3<Double>)] {
        guard let l = environment.contexts(for: .light).first, let d = environment.contexts(for: .dark).first else { return [] }
        if !e.onSystemBackgrounds {
            let custom = e.on.compactMap { name -> (light: SIMD3<Double>, dark: SIMD3<Double>)? in
                guard let lb = backgrounds[name]?[.light], let db = backgrounds[name]?[.dark] else { return nil }
                return (AppleCompositing.flatten(lb, over: l.systemBackground), AppleCompositing.flatten(db, over: d.systemBackground))
            }
            if !custom.isEmpty { return custom }
        }
        return [(l.systemBackground, d.systemBackground)]
    }

    /// A margin that is +∞ while a candidate stays on the same side (lighter or darker) of every
    /// surface as `start`, and far below any contrast margin (−1000) once it crosses one.
    static func polarityKeeper(_ start: DisplayColor, on surfaces: [Placed]) -> (DisplayColor) -> Double {
        let lighter = surfaces.map { WCAG.relativeLuminance(AppleCompositing.flatten(start, over: $0.srgb)) > $0.luminance }
        return { candidate in
            for (s, wasLighter) in zip(surfaces, lighter)
            where (WCAG.relativeLuminance(AppleCompositing.flatten(candidate, over: s.srgb)) > s.luminance) != wasLighter {
                return -1000
            }
            return .infinity
        }
    }

    /// A margin that is ≥ 0 when a dark candidate has at least the WCAG contrast `light` had on
    /// `lightReference`, on the side of `darkReference` that keeps (or, when the surface turns
    /// from light to dark, flips) its polarity.
    static func contrastKeeper(_ light: DisplayColor, lightReference: SIMD3<Double>,
                               darkReference: SIMD3<Double>) -> (DisplayColor) -> Double {
        let lightFG = AppleCompositing.flatten(light, over: lightReference)
        let yText = WCAG.relativeLuminance(lightFG), yLightRef = WCAG.relativeLuminance(lightReference)
        let c0 = WCAG.contrastRatio(yText, yLightRef)
        let yDarkRef = WCAG.relativeLuminance(darkReference)
        let flips = (yLightRef >= midLuminance) != (yDarkRef >= midLuminance)
        let textWasLighter = yText > yLightRef
        // On a dark surface the text is lighter, whichever side it was on in light: dark text on a
        // light surface flips, and light text on a light surface (a white label on a light card or
        // button, the surface mirrored dark) stays light. Darker than a near-black surface was
        // asked before, and the search gave up or turned the label black (hostile test).
        let wantLighter = yDarkRef < midLuminance || (flips ? !textWasLighter : textWasLighter)
        return { candidate in
            let y = WCAG.relativeLuminance(AppleCompositing.flatten(candidate, over: darkReference))
            let ratio = WCAG.contrastRatio(y, yDarkRef)
            let lighter = y > yDarkRef
            return lighter == wantLighter || ratio == 1 ? ratio - c0 : -(ratio - 1) - c0
        }
    }

    /// Why a background no color of its hue repairs fails: the palette text that misses on it,
    /// each with its worst value there and the text's own suggestion when it has one, since the
    /// fix is then the text (a new user's pass: a white page was "failing" for the red text on
    /// it, which had a passing suggestion, with a note saying no background lets it pass).
    static func textToFix(on e: PaletteEntry, _ color: DisplayColor, _ v: PaletteVariant, under texts: [PaletteEntryResult],
                          environment: PaletteEnvironment) -> String {
        var missing: [String] = []
        for text in texts {
            let fg = text[v].color, target = text.entry.target(for: v)
            var worst = Double.infinity
            for ctx in environment.contexts(for: v) {
                for s in placements(ofBackground: atLevel(color, of: e.name, v, in: ctx, environment), named: e.name, in: ctx) {
                    worst = Swift.min(worst, target.value(of: ContrastMeasurement.opaque(foreground: fg, background: s.srgb)))
                }
            }
            guard worst < target.minimum else { continue }
            let fix = text[v].suggestion.map { "; its suggestion \($0.hex) passes" } ?? ""
            missing.append("\(text.entry.name) (\(target.valueText(worst)) against \(target.minimumText)\(fix))")
        }
        let list = missing.isEmpty ? "The palette text on it" : missing.joined(separator: ", ")
        return "\(list) \(missing.count > 1 ? "miss their targets" : "misses its target") on it, and no color of this background's hue lets every text on it pass: change the text."
    }

    /// Moves a background variant (nearest color of its hue) until every palette text on it
    /// reaches its target; returns the variant (with a suggestion only, for light without
    /// `adjustLight`) and whether the color changed.
    static func repair(_ e: PaletteEntry, _ current: PaletteVariantResult, under texts: [PaletteEntryResult],
                       environment: PaletteEnvironment, adjustLight: Bool) -> (PaletteVariantResult, Bool) {
        let v = current.variant
        let contexts = environment.contexts(for: v)
        let margin: (DisplayColor) -> Double = { c in
            var m = Double.infinity
            for ctx in contexts {
                let under = placements(ofBackground: atLevel(c, of: e.name, v, in: ctx, environment), named: e.name, in: ctx)
                for text in texts {
                    let fg = text[v].color, target = text.entry.target(for: v)
                    for s in under {
                        m = Swift.min(m, target.value(of: ContrastMeasurement.opaque(foreground: fg, background: s.srgb)) - target.minimum)
                    }
                }
            }
            return m
        }
        guard margin(current.color) < 0 else { return (current, false) }
        var r = current
        let (move, unchanged) = NearestPassingColor.nearest(to: current.color, margin: margin)
        guard move.passes, !unchanged else {
            r.notes.append(textToFix(on: e, current.color, v, under: texts, environment: environment))
            return (r, false)
        }
        if v == .light && !adjustLight {
            r.suggestion = move.color
            return (r, false)
        }
        r.color = move.color
        if r.wideGamutColor != nil {  // no longer the color as given
            r.wideGamutColor = nil
            r.notes.removeAll { $0 == wideGamutNote(current.color) }
        }
        r.method = .adjusted
        r.direction = move.direction
        r.deltaEOK = deltaEOK(move.color, e.color)
        r.deltaE2000 = deltaE2000(move.color, e.color)
        r.notes.append("Moved so the palette text on it can reach its target.")
        return (r, true)
    }

    // MARK: Backgrounds

    static func background(_ e: PaletteEntry, judgedByText: Bool, environment: PaletteEnvironment,
                           adjustLight: Bool) -> PaletteEntryResult {
        let original = DisplayColor(e.color).quantized
        // The label judging each variant (`.best` until the light variant has chosen): a fill's
        // text keeps its color across the variants (a new user's pass: #615fff was judged by
        // black in light, 4.59:1, and by white with Increase Contrast, which darkened it to
        // #4a3ddc, where the app's black text shows 3:1; no one text color served every variant).
        var choices: [PaletteVariant: BackgroundPlacement.LabelChoice] = [:]
        /// The one label of a variant shown at two levels (base and elevated): the one with the
        /// better worst case over both, as an app's text cannot change with the level (a hostile
        /// pass: #3b82f6 mirrored to #1861d2 was judged by white at the base level and, lifted to
        /// #2b73e5, by black in sheets, where white shows 4.48:1, and passed).
        func variantChoice(_ c: DisplayColor, _ v: PaletteVariant) -> BackgroundPlacement.LabelChoice {
            if let chosen = choices[v] { return chosen }
            // One context: its better label, which `.best` picks without measuring both twice.
            return environment.contexts(for: v).count > 1 ? betterLabel(c, v) : .best
        }
        /// The label with the better worst case for `c` over the contexts of `v`.
        func betterLabel(_ c: DisplayColor, _ v: PaletteVariant) -> BackgroundPlacement.LabelChoice {
            let contexts = environment.contexts(for: v), target = e.target(for: v)
            var own = Double.infinity, inverse = Double.infinity
            for ctx in contexts {
                let placed = atLevel(c, of: e.name, v, in: ctx, environment)
                own = Swift.min(own, textLabel(on: placed, named: e.name, in: ctx, target: target, choice: .own).margin)
                inverse = Swift.min(inverse, textLabel(on: placed, named: e.name, in: ctx, target: target, choice: .inverse).margin)
            }
            return inverse > own ? .inverse : .own
        }
        func judged(_ v: PaletteVariant, _ color: DisplayColor, method: PaletteVariantMethod, start: DisplayColor,
                    direction: NearestPassingColor.Direction?) -> PaletteVariantResult {
            let target = e.target(for: v)
            let rows = judgedByText ? [] : labelRows(color, e.name, environment.contexts(for: v), target: target, environment: environment,
                                                     variant: v, choice: variantChoice(color, v))
            return result(e, v, color, method: method, start: start, direction: direction, target: target, rows: rows)
        }
        func labelMargin(_ v: PaletteVariant) -> (DisplayColor) -> Double {
            let contexts = environment.contexts(for: v), target = e.target(for: v)
            return { c in
                let choice = variantChoice(c, v)
                var m = Double.infinity
                for ctx in contexts {
                    m = Swift.min(m, textLabel(on: atLevel(c, of: e.name, v, in: ctx, environment), named: e.name, in: ctx, target: target,
                                               choice: choice).margin)
                }
                return m
            }
        }

        func generate(_ v: PaletteVariant, from start: DisplayColor, startMethod: PaletteVariantMethod) -> PaletteVariantResult {
            if let given = e.given[v] { return judged(v, DisplayColor(given).quantized, method: .given, start: start, direction: nil) }
            if judgedByText { return judged(v, start, method: startMethod, start: start, direction: nil) }
            let (move, unchanged) = NearestPassingColor.nearest(to: start, margin: labelMargin(v))
            let method: PaletteVariantMethod = move.passes ? (unchanged ? startMethod : .adjusted) : .bestEffort
            var r = judged(v, move.color, method: method, start: start, direction: unchanged ? nil : move.direction)
            if !move.passes {
                r.notes.append("No color of the same hue lets the system label reach the target on it in every context; this is the best worst case.")
            }
            return r
        }

        var light: PaletteVariantResult
        if let given = e.given[.light] {
            light = judged(.light, DisplayColor(given).quantized, method: .given, start: original, direction: nil)
        } else {
            light = judged(.light, original, method: .original, start: original, direction: nil)
            if !judgedByText && !light.passes {
                let (move, unchanged) = NearestPassingColor.nearest(to: original, margin: labelMargin(.light))
                if move.passes && !unchanged {
                    if adjustLight {
                        light = judged(.light, move.color, method: .adjusted, start: original, direction: move.direction)
                    } else {
                        light.suggestion = move.color
                    }
                }
            }
        }
        let mirrored = visibleMirror(light.color, environment: environment)
        // Increase Contrast keeps the text of its appearance's standard variant; a fill kept in
        // dark (not mirrored) keeps light's text color, which is the other appearance's label
        // there (black `label` in light is dark's `label (light appearance)`). A mirrored
        // surface's text turns with it: the better label.
        // (The label each was judged by: none when by palette text.)
        let lightChoice = judgedByText ? nil : betterLabel(light.color, .light)
        choices[.lightIncreasedContrast] = lightChoice
        // (Opaque only: a translucent one shows the page under it, dark in dark mode.)
        if !mirrored.mirrored, e.given[.dark] == nil, light.color.alpha >= 1, let lightChoice {
            choices[.dark] = lightChoice == .own ? .inverse : .own
        }
        // A mirror that lands on the same color (`transparent`) changed nothing: `unchanged`.
        let dark = generate(.dark, from: mirrored.color,
                            startMethod: mirrored.mirrored && mirrored.color != light.color ? .mirrored : .unchanged)
        choices[.darkIncreasedContrast] = judgedByText ? nil : choices[.dark] ?? betterLabel(dark.color, .dark)
        let lightIC = generate(.lightIncreasedContrast, from: light.color, startMethod: .unchanged)
        let darkIC = generate(.darkIncreasedContrast, from: dark.color, startMethod: .unchanged)
        return PaletteEntryResult(entry: e, variants: [light, dark, lightIC, darkIC])
    }

    /// Below this ΔE OK (about a just-noticeable difference, Björn Ottosson's OKLab scale) a
    /// mirrored background is the light one: kept as it is.
    static let unseenMirror = 0.02

    /// The dark start of a background: a light surface (luminance ≥ `midLuminance` over the light
    /// systemBackground) becomes the darkest color of its hue and chroma whose contrast with the
    /// dark systemBackground is the contrast it had with the light one, among the colors that keep
    /// at least half its chroma (a tint stays a tint); a dark one is kept.
    static func mirror(_ light: DisplayColor, environment: PaletteEnvironment) -> (color: DisplayColor, mirrored: Bool) {
        guard let lc = environment.contexts(for: .light).first, let dc = environment.contexts(for: .dark).first else {
            return (light, false)
        }
        let effective = AppleCompositing.flatten(light, over: lc.systemBackground)
        let y = WCAG.relativeLuminance(effective)
        guard y >= midLuminance else { return (light, false) }
        let c0 = WCAG.contrastRatio(y, WCAG.relativeLuminance(lc.systemBackground))
        let yDark = WCAG.relativeLuminance(dc.systemBackground)
        let start = LightnessPath(light)
        let path = LightnessPath(lightness: 0, chroma: start.chroma, hue: start.hue, alpha: light.alpha)
        // A tinted color keeps its tint: the search stops where sRGB leaves less than half its
        // chroma (near white). A red 8% wash otherwise reached its contrast only as a white wash,
        // chroma 0 (hostile test); past that point it takes the lightest color that keeps the tint.
        var span = 1.0
        if start.chroma >= 0.02 {
            while span > 0, path.quantized(atLightness: span).color.converted(to: .oklch).coordinates.y < start.chroma / 2 {
                span -= 0.005
            }
            span = Swift.max(span, 0)
        }
        let scan = NearestPassingColor.scan(span: span) { s in
            let c = path.quantized(atLightness: s)
            let yc = WCAG.relativeLuminance(AppleCompositing.flatten(c, over: dc.systemBackground))
            return yc >= yDark ? WCAG.contrastRatio(yc, yDark) - c0 : -1
        }
        return (path.quantized(atLightness: scan.passing ?? span), true)
    }

    /// Where a background color is measured in a context (``BackgroundPlacement``): itself when
    /// opaque, else composited over each distinct system surface.
    /// A palette background's color in context `c`: at the elevated level its given elevated value
    /// (`PaletteEntry.givenElevated`) or `color` lifted (`ElevationLift`) when it has one, else
    /// `color`, the variant's.
    static func atLevel(_ color: DisplayColor, of name: String, _ variant: PaletteVariant, in c: PaletteEnvironment.Context,
                        _ environment: PaletteEnvironment) -> DisplayColor {
        guard c.context.effectiveLevel == .elevated else { return color }
        return elevated(color, of: name, variant, environment) ?? color
    }

    static func placements(ofBackground color: DisplayColor, named name: String, in c: PaletteEnvironment.Context) -> [Placed] {
        BackgroundPlacement.placements(of: color, named: name, over: c.surfaces.map { ($0.name, $0.srgb) })
            .map { Placed(context: c.context, name: $0.name, srgb: $0.srgb) }
    }

    /// The system label text on a background in context `c`: `label`, or the other appearance's
    /// label where that contrasts more (white on a dark fill in light mode; a background with no
    /// palette text was judged by black `label` alone, so a near-black button "failed" in light at
    /// 1.18:1 and Increase Contrast turned it gray; hostile test). One label per context, the one
    /// with the better worst case over the background's placements (a translucent fill lies over
    /// several surfaces, and its text cannot change color between them).
    static func textLabel(on color: DisplayColor, named name: String, in c: PaletteEnvironment.Context,
                          target: ContrastTarget, choice: BackgroundPlacement.LabelChoice = .best) -> (label: DisplayColor, labelName: String, margin: Double) {
        BackgroundPlacement.textLabel(under: placements(ofBackground: color, named: name, in: c).map(\.srgb), label: c.label,
                  inverseLabel: c.inverseLabel, appearance: c.context.appearance, target: target, choice: choice)
    }

    static func labelRows(_ color: DisplayColor, _ name: String, _ contexts: [PaletteEnvironment.Context],
                          target: ContrastTarget, environment: PaletteEnvironment, variant: PaletteVariant,
                          choice: BackgroundPlacement.LabelChoice = .best) -> [PaletteMeasurement] {
        var rows: [PaletteMeasurement] = []
        for c in contexts {
            let under = placements(ofBackground: atLevel(color, of: name, variant, in: c, environment), named: name, in: c)
            let text = BackgroundPlacement.textLabel(under: under.map(\.srgb), label: c.label, inverseLabel: c.inverseLabel,
                                 appearance: c.context.appearance, target: target, choice: choice)
            for s in under {
                rows.append(measure(text.label, named: text.labelName, on: s, target: target))
            }
        }
        return rows
    }

    // MARK: Shared

    /// The smallest value − minimum of `color` over `surfaces` (+∞ with no surfaces). WCAG
    /// targets take a short path (luminances only, the same numbers as `ContrastMeasurement`).
    static func margin(_ color: DisplayColor, on surfaces: [Placed], target: ContrastTarget) -> Double {
        var m = Double.infinity
        if target.metric == .wcag2 {
            let opaque = color.alpha >= 1
            let y = opaque ? WCAG.relativeLuminance(color.srgb) : 0
            for s in surfaces {
                let yf = opaque ? y : WCAG.relativeLuminance(Compositing.sourceOver(color.srgb, alpha: color.alpha, overOpaque: s.srgb))
                m = Swift.min(m, WCAG.contrastRatio(yf, s.luminance) - target.minimum)
            }
            return m
        }
        for s in surfaces {
            m = Swift.min(m, target.value(of: ContrastMeasurement.opaque(foreground: color, background: s.srgb)) - target.minimum)
        }
        return m
    }

    static func measure(_ fg: DisplayColor, named name: String, on s: Placed, target: ContrastTarget) -> PaletteMeasurement {
        let m = ContrastMeasurement.opaque(foreground: fg, background: s.srgb)
        let v = target.value(of: m)
        return PaletteMeasurement(context: s.context, surface: s.name, surfaceColor: s.srgb, foreground: name,
                                  foregroundColor: fg, measurement: m, value: v, minimum: target.minimum,
                                  passes: v >= target.minimum)
    }

    static func finish(_ e: PaletteEntry, _ v: PaletteVariant, _ color: DisplayColor, method: PaletteVariantMethod,
                       start: DisplayColor, direction: NearestPassingColor.Direction?, on surfaces: [Placed]) -> PaletteVariantResult {
        let target = e.target(for: v)
        let rows = surfaces.map { measure(color, named: e.name, on: $0, target: target) }
        return result(e, v, color, method: method, start: start, direction: direction, target: target, rows: rows)
    }

    /// A variant's result from its measured rows: worst row, verdict, ΔE from the given color,
    /// and the wide-gamut note.
    static func result(_ e: PaletteEntry, _ v: PaletteVariant, _ color: DisplayColor, method: PaletteVariantMethod,
                       start: DisplayColor, direction: NearestPassingColor.Direction?, target: ContrastTarget,
                       rows: [PaletteMeasurement]) -> PaletteVariantResult {
        var r = PaletteVariantResult(
            variant: v, color: color, method: method, direction: direction, start: start, target: target,
            deltaEOK: deltaEOK(color, e.color), deltaE2000: deltaE2000(color, e.color), measurements: rows,
            worst: rows.min { $0.margin < $1.margin }, passes: rows.allSatisfy(\.passes), suggestion: nil, notes: [])
        noteWideGamut(&r, e)
        return r
    }

    /// For a variant that is the color as given (`original`, `given` for this variant, or an
    /// `unchanged` variant equal to the light color as given, which is that same color) and lies
    /// outside sRGB: keeps that color in `wideGamutColor` and says what is measured instead.
    static func noteWideGamut(_ r: inout PaletteVariantResult, _ e: PaletteEntry) {
        let asGiven: Color?
        switch r.method {
        case .original: asGiven = e.color
        case .given: asGiven = e.given[r.variant]
        case .unchanged:
            // Kept from a start that is the light color as given (dark mode kept a tint unchanged):
            // the export had written the sRGB mapping in every block but the light one (hostile test).
            let light = e.given[.light] ?? e.color
            asGiven = r.color == DisplayColor(light).quantized ? light : nil
        default: asGiven = nil
        }
        guard let asGiven, DisplayColor(asGiven).wasGamutMapped else { return }
        r.wideGamutColor = asGiven
        r.notes.append(wideGamutNote(r.color))
    }

    /// The note of a variant that is a color given outside sRGB, measured as `measured`.
    static func wideGamutNote(_ measured: DisplayColor) -> String {
        "The color as given is outside sRGB: \(measured.hex), its CSS Color 4 gamut mapping into sRGB (what an sRGB display shows), is measured and reported; a display-p3 export keeps the color as given."
    }

    static func deltaEOK(_ c: DisplayColor, _ original: Color) -> Double {
        ColorDifference.deltaEOK(oklab1: NearestPassingColor.oklab(c.srgb), oklab2: original.converted(to: .oklab).coordinates)
    }

    static func deltaE2000(_ c: DisplayColor, _ original: Color) -> Double {
        ColorDifference.deltaE2000(c.color, original)
    }
}
