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

/// Units of `fontSize`.
enum FontSizeUnit: String, CaseIterable, Sendable {
    case pt, px
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
    var isLarge: Bool { WCAG.isLargeText(points: points, weight: weight) }

    /// `fontSize` (with `fontSizeUnit`, pt by default) and `fontWeight` (1–1000, default 400).
    static func from(_ f: Fields) throws(Problem) -> TextSpec? {
        // The CSS-like spellings are looked for only once a member has failed: the hot path of
        // POST /v1/contrast pays nothing for the better message.
        let weight: Int
        do { weight = try f.integer("fontWeight", in: 1...1000) ?? 400 } catch { try cssLikeSizeAndWeight(f); throw error }
        let unit = try f.choice("fontSizeUnit", FontSizeUnit.self) ?? .pt
        let given: Double?
        do { given = try f.number("fontSize", in: 0.1...1000) } catch { try cssLikeSizeAndWeight(f); throw error }
        guard let size = given else {
            if let given = ["fontWeight", "fontSizeUnit"].first(where: f.has) {
                // Weight alone cannot decide large text; say so instead of guessing a size.
                throw Problem.invalidField(f.field("fontSize"), "\(f.field("fontSize").display) is required when \(f.field(given).display) is given")
            }
            return nil
        }
        let points = unit == .pt ? size : size * 3 / 4
        return TextSpec(points: points, weight: weight, unit: unit, value: size)
    }

    /// A size or weight written as CSS writes it (`"14px"`, `"1.5rem"`, `"bold"`) is refused
    /// with the members that say it here (new-user test: "must be a number, not string" did not).
    static func cssLikeSizeAndWeight(_ f: Fields) throws(Problem) {
        if case .string(let s)? = f.value("fontSize") {
            let t = s.trimmingCharacters(in: .whitespaces).lowercased()
            for unit in ["px", "pt"] where t.hasSuffix(unit) {
                if let n = Fields.decimal(String(t.dropLast(2))) {
                    throw Problem.invalidField(f.field("fontSize"), "\(f.field("fontSize").display) is a number; for \(ClientText.quoted(s)) give \(f.field("fontSize").display) \(Fields.format(n)) and \(f.field("fontSizeUnit").display) \"\(unit)\"")
                }
            }
            if t.hasSuffix("rem") || t.hasSuffix("em") {
                throw Problem.invalidField(f.field("fontSize"), "\(f.field("fontSize").display) is a number in pt or px (\(f.field("fontSizeUnit").display)); \(ClientText.quoted(s)) depends on the root font size: give it in px (1rem is 16px by default)")
            }
        }
        if case .string(let s)? = f.value("fontWeight") {
            let named: [String: Int] = ["normal": 400, "bold": 700, "thin": 100, "light": 300,
                                        "regular": 400, "medium": 500, "semibold": 600, "heavy": 800, "black": 900]
            if let w = named[s.trimmingCharacters(in: .whitespaces).lowercased()] {
                throw Problem.invalidField(f.field("fontWeight"), "\(f.field("fontWeight").display) is a number from 1 to 1000; for \(ClientText.quoted(s)) give \(w)")
            }
        }
    }
}
