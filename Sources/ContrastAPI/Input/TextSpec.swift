import ColorScience

/// Contrast metrics selectable with `algorithm`.
enum ContrastAlgorithm: String, CaseIterable, Sendable {
    /// WCAG 2.x contrast ratio `1...21` (default).
    case wcag2
    /// APCA Lc `-108...106` (informational).
    case apca
    /// Difference of CIE Lab (D50) lightness `0...100`.
    case lstar
    /// Weber contrast `0...50000`.
    case weber
    /// Michelson contrast `0...1`.
    case michelson

    /// The measured value in this algorithm's unit: the ratio, Lc (signed), ΔL*, Weber or Michelson.
    func value(of m: ContrastMeasurement) -> Double {
        switch self {
        case .wcag2: return m.ratio
        case .apca: return m.apcaLc
        case .lstar: return PerceptualContrast.lstarDifference(m.effectiveForeground, m.effectiveBackground)
        case .weber: return PerceptualContrast.weber(m.effectiveForeground, m.effectiveBackground)
        case .michelson: return PerceptualContrast.michelson(m.effectiveForeground, m.effectiveBackground)
        }
    }
}

/// Units of `fontSize`: typographic points (WCAG 2.2's unit for large text, "18 point or 14
/// point bold"), CSS px (1pt = 4/3 px, CSS Values 4 §6.2), or `rem` at the initial root font size,
/// `medium` = 16px (CSS Fonts 4 §2.5; a page or user that changes the root size changes it).
enum FontSizeUnit: String, CaseIterable, Sendable {
    case pt, px, rem

    /// `size` in this unit as typographic points.
    func points(_ size: Double) -> Double {
        switch self {
        case .pt: size
        case .px: size * 3 / 4
        case .rem: size * 12
        }
    }

    /// `size` in this unit as CSS px.
    func cssPixels(_ size: Double) -> Double {
        switch self {
        case .pt: size * 4 / 3
        case .px: size
        case .rem: size * 16
        }
    }
}

/// A text size and weight from a request, in both units.
struct TextSpec: Sendable {
    var points: Double
    var weight: Int
    var unit: FontSizeUnit
    var value: Double

    var px: Double { points * 4 / 3 }
    /// The size APCA's font lookup is given, in CSS px: `px`, except for an iOS text style, whose
    /// points are read as px (the HIG convention in docs/algorithms/apca.md, "Two meanings of pt for APCA"; `apcaPointsAsPx`).
    var apcaPx: Double { apcaPointsAsPx ? points : px }
    /// Set for sizes from an Apple text style.
    var apcaPointsAsPx = false
    /// Whether `fontSizeUnit` was left out and pt assumed (false when it was given, or the size
    /// came from a text style): APCA's answers, whose tables are in px, ask for it where the pt
    /// and px readings differ (`apcaUnitMatters`). A flag, not the field's path: `TextSpec` is
    /// copied on the hot path of every POST /v1/contrast with a size (a path here cost 400
    /// instructions a request, `bench/profile post`).
    var unitAssumed = false
    var isLarge: Bool { WCAG.isLargeText(points: points, weight: weight) }

    /// `fontSize` (with `fontSizeUnit`, pt by default) and `fontWeight` (1–1000, default 400).
    ///
    /// `unitWhereItMatters`: a size without `fontSizeUnit` whose WCAG verdict would differ as
    /// pt and as px (16 bold: large text as 16 pt, not as 16 px) is a 400 asking for the unit
    /// (new users' passes, stop 43: two web developers sent 16 bold meaning 16px, which needs
    /// 4.5:1, and it passed at 3.03:1 as 16 pt). Where both readings agree, pt is taken.
    static func from(_ f: Fields, unitWhereItMatters: Bool = false) throws(Problem) -> TextSpec? {
        // The CSS-like spellings are looked for only once a member has failed: the hot path of
        // POST /v1/contrast pays nothing for the better message.
        let weight: Int
        do { weight = try f.integer("fontWeight", in: 1...1000) ?? 400 } catch { try cssLikeSizeAndWeight(f, failed: "fontWeight"); throw error }
        let givenUnit: FontSizeUnit?
        do { givenUnit = try f.choice("fontSizeUnit", FontSizeUnit.self) } catch { try cssLikeSizeAndWeight(f, failed: "fontSizeUnit"); throw error }
        let unit = givenUnit ?? .pt
        let given: Double?
        do { given = try f.number("fontSize", in: 0.1...1000) } catch { try cssLikeSizeAndWeight(f, failed: "fontSize"); throw error }
        guard let size = given else {
            if let given = ["fontWeight", "fontSizeUnit"].first(where: f.has) {
                // Weight alone cannot decide large text; say so instead of guessing a size.
                throw Problem.invalidField(f.field("fontSize"), "\(f.field("fontSize").display) is required when \(f.field(given).display) is given")
            }
            return nil
        }
        let points = unit.points(size)
        var spec = TextSpec(points: points, weight: weight, unit: unit, value: size)
        spec.unitAssumed = givenUnit == nil
        if unitWhereItMatters, givenUnit == nil, spec.isLarge != WCAG.isLargeText(points: size * 3 / 4, weight: weight) {
            throw unitMatters(f, size: size, weight: weight, largeAsPoints: spec.isLarge)
        }
        return spec
    }

    /// The same size read as CSS px (what a bare size means to a web developer and to APCA).
    var readAsPixels: TextSpec { TextSpec(points: value * 3 / 4, weight: weight, unit: .px, value: value) }

    /// The 400 for a bare size (pt assumed: `unitAssumed`, which callers check) whose APCA
    /// answer differs read as pt (`asPoints`, what it says then) and as px (`asPixels`): APCA's
    /// font tables are in px, and a web developer's 16 means 16 px.
    func apcaUnitMatters(_ unitPath: FieldPath, asPoints: String, asPixels: String, at lc: Double? = nil) -> Problem {
        let n = Fields.format(value)
        return Problem.invalidField(unitPath, "\(unitPath.display) is needed with \(unitPath.sibling("fontSize").display) \(n) at weight \(weight): for APCA\(lc.map { " at Lc \(Fields.rounded(abs($0)))" } ?? ""), \(n) pt (\(Fields.rounded(px)) px) \(asPoints), \(n) px (APCA's unit) \(asPixels); give \"px\", \"pt\" or \"rem\"")
    }

    /// The 400 for a size whose unit decides the verdict (kept out of `from`'s common path).
    @inline(never)
    static func unitMatters(_ f: Fields, size: Double, weight: Int, largeAsPoints: Bool) -> Problem {
        let n = Fields.format(size)
        func kind(_ large: Bool) -> String { large ? "large text (3:1 for AA)" : "normal text (4.5:1 for AA)" }
        return Problem.invalidField(f.field("fontSizeUnit"), "\(f.field("fontSizeUnit").display) is needed with \(f.field("fontSize").display) \(n) at weight \(weight): as \(n) pt (WCAG's unit) it is \(kind(largeAsPoints)), as \(n) px (CSS) \(kind(!largeAsPoints)); give \"pt\", \"px\" or \"rem\"")
    }

    /// A size, unit or weight written as CSS writes it (`"14px"`, `"1.5rem"`, `"large"`, `"em"`,
    /// `"bold"`, `"700"`) is refused with the members that say it here (new-user passes: "must
    /// be a number, not string" and "must be one of pt, px, rem" did not). Called only once a
    /// member has failed, and only for that member (`failed`): a hostile pass's GET with
    /// `fontWeight=1001` was told that `fontSize=12` "is a number, not a string". A query
    /// parameter is always text, so a plain number there is no mistake.
    static func cssLikeSizeAndWeight(_ f: Fields, failed: String) throws(Problem) {
        let size = f.field("fontSize").display, unitField = f.field("fontSizeUnit").display
        let inQuery = f.field(failed).parameter != nil
        if failed == "fontSize", case .string(let s)? = f.value("fontSize") {
            let t = s.trimmingCharacters(in: .whitespaces).lowercased()
            for unit in ["rem", "px", "pt"] where t.hasSuffix(unit) {
                if let n = Fields.decimal(String(t.dropLast(unit.count))) {
                    throw Problem.invalidField(f.field("fontSize"), "\(size) is a number; for \(ClientText.quoted(s)) give \(size) \(Fields.format(n)) and \(unitField) \"\(unit)\"")
                }
            }
            if t.hasSuffix("em") || t.hasSuffix("%") {
                throw Problem.invalidField(f.field("fontSize"), "\(size) is a number in pt, px or rem (\(unitField)); \(ClientText.quoted(s)) depends on the parent element's font size: give its computed size in px")
            }
            // Chromium's sizes for the keywords at the default 16px (CSS Fonts 4 §2.5 leaves them to the browser).
            let keywords: [String: Int] = ["xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18,
                                           "x-large": 24, "xx-large": 32, "xxx-large": 48]
            if let px = keywords[t] {
                throw Problem.invalidField(f.field("fontSize"), "\(size) is a number; the keyword \(ClientText.quoted(s)) is \(px)px in Chromium at the default root size: give \(size) \(px) and \(unitField) \"px\" (or the size your page computes)")
            }
            if !inQuery, let n = Fields.decimal(t) {
                throw Problem.invalidField(f.field("fontSize"), "\(size) is a number, not a string: give \(size) \(Fields.format(n)) (and \(unitField) \"pt\", \"px\" or \"rem\")")
            }
        }
        if failed == "fontSizeUnit", case .string(let s)? = f.value("fontSizeUnit") {
            let t = s.trimmingCharacters(in: .whitespaces).lowercased()
            if t == "em" || t == "%" || t == "percent" {
                throw Problem.invalidField(f.field("fontSizeUnit"), "\(unitField) is pt, px or rem; \(ClientText.quoted(s)) depends on the parent element's font size: give its computed size in px")
            }
        }
        if failed == "fontWeight", case .string(let s)? = f.value("fontWeight") {
            let named: [String: Int] = ["normal": 400, "bold": 700, "thin": 100, "light": 300,
                                        "regular": 400, "medium": 500, "semibold": 600, "heavy": 800, "black": 900]
            let t = s.trimmingCharacters(in: .whitespaces).lowercased()
            if let w = named[t] ?? (inQuery ? nil : Fields.decimal(t).flatMap({ $0 >= 1 && $0 <= 1000 && $0 == $0.rounded() ? Int($0) : nil })) {
                throw Problem.invalidField(f.field("fontWeight"), "\(f.field("fontWeight").display) is a number from 1 to 1000; for \(ClientText.quoted(s)) give \(w)")
            }
        }
    }
}
