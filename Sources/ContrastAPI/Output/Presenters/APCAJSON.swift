import ColorScience
import JSONValue

/// JSON pieces of APCA answers (`/v1/apca/font` and the `apca` block of contrast answers): the
/// use level an Lc reaches, the apca-w3 0.1.9 font-size row, and whether a size suffices.
enum APCAJSON {
    /// `("apcaVersion", "0.0.98G-4g")`: the member every answer carrying an Lc (measured or a
    /// minimum) has once, at its top level, so a client knows which APCA the numbers are from.
    /// `/v1/contrast` states it as `apca.version` and `/v1/apca/font` as `version`.
    static let versionMember: (String, JSON) = ("apcaVersion", .string(APCA.version))

    /// The highest level |lc| reaches: `{"name", "minimumLc", "use"}`, or null below Lc 15.
    static func levelJSON(_ lc: Double) -> JSON {
        JSON.build { levelJSON(lc, into: &$0) }
    }

    static func levelJSON<S: JSONSink>(_ lc: Double, into s: inout S) {
        guard let level = APCALevel.level(for: lc) else { return s.null() }
        s.object { s in
            s.member("name", name(level))
            s.member("minimumLc", level.minimumLc)
            s.member("use", use(level))
        }
    }

    /// `{"100": px | null, …, "900": px | null}`.
    static func fontTable(_ lc: Double) -> JSON {
        JSON.build { fontTable(APCAFontLookup.requirements(lc: lc), into: &$0) }
    }

    /// The weights of `APCAFontLookup.weights` as member names, `"100"` … `"900"` (literals, so
    /// the byte writer copies them without escaping; a test holds them equal to the weights).
    static let weightKeys: [StaticString] = ["100", "200", "300", "400", "500", "600", "700", "800", "900"]

    /// `{"100": px | null, …, "900": px | null}` of a row from `APCAFontLookup.requirements(lc:)`.
    static func fontTable<S: JSONSink>(_ row: [FontSizeRequirement], into s: inout S) {
        s.object { s in
            for (key, requirement) in zip(weightKeys, row) {
                s.key(key)
                if let px = requirement.minimumPx { s.number(px) } else { s.null() }
            }
        }
    }

    /// Whether a text size and weight suffice for `lc`. Weights between table columns use the
    /// next lighter column (the stricter one).
    static func sufficiency(lc: Double, text: TextSpec) -> JSON {
        JSON.build { sufficiency(APCAFontLookup.requirements(lc: lc), text: text, into: &$0) }
    }

    /// `{"px", "fontWeight", "weightColumn", "minimumPx", "sufficient"}` with the row already looked up.
    static func sufficiency<S: JSONSink>(_ row: [FontSizeRequirement], text: TextSpec, into s: inout S) {
        let (index, minimum, sufficient) = lookup(row, text: text)
        s.object { s in
            s.member("px", text.apcaPx)
            s.member("fontWeight", text.weight)
            s.member("weightColumn", APCAFontLookup.weights[index])
            s.member("minimumPx", minimum)
            s.member("sufficient", sufficient)
        }
    }

    /// Throws the 400 naming `fontSizeUnit` when `text`'s size was given without a unit (pt
    /// assumed) and whether it suffices for `lc` differs read as px, APCA's unit (a new user's
    /// pass: `fontSize` 16 on `#767676` and white reported sufficient as 21.3 px).
    static func requireUnitWhereItMatters(lc: Double, text: TextSpec, unitPath: FieldPath) throws(Problem) {
        guard text.unitAssumed else { return }
        let (pt, px) = (isSufficient(lc: lc, text: text), isSufficient(lc: lc, text: text.readAsPixels))
        guard pt != px else { return }
        func verdict(_ ok: Bool) -> String { ok ? "suffices" : "does not suffice" }
        throw text.apcaUnitMatters(unitPath, asPoints: verdict(pt), asPixels: verdict(px), at: lc)
    }

    /// Whether the text size and weight suffice for `lc` (`sufficient` of `sufficiency`).
    static func isSufficient(lc: Double, text: TextSpec) -> Bool {
        lookup(APCAFontLookup.requirements(lc: lc), text: text).sufficient
    }

    /// The weight column of `text` (the next lighter one between columns), its minimum px in
    /// `row` (nil: not usable for text) and whether the size reaches it.
    private static func lookup(_ row: [FontSizeRequirement], text: TextSpec) -> (index: Int, minimumPx: Double?, sufficient: Bool) {
        let index = APCAFontLookup.weights.lastIndex { $0 <= text.weight } ?? 0
        let minimum = row[index].minimumPx
        return (index, minimum, minimum.map { text.apcaPx >= $0 - 1e-9 } ?? false)
    }

    static func name(_ level: APCALevel) -> String {
        switch level {
        case .nonText: return "nonText"
        case .anyText: return "anyText"
        case .largeOrHeavyText: return "largeOrHeavyText"
        case .otherText: return "otherText"
        case .minimumBodyText: return "minimumBodyText"
        case .preferredBodyText: return "preferredBodyText"
        }
    }

    static func use(_ level: APCALevel) -> String {
        switch level {
        case .nonText: return "Lc 15: minimum for non-text (dividers, focus outlines)"
        case .anyText: return "Lc 30: minimum for any text (placeholder, disabled)"
        case .largeOrHeavyText: return "Lc 45: large or heavy text"
        case .otherText: return "Lc 60: other content text"
        case .minimumBodyText: return "Lc 75: minimum for body text"
        case .preferredBodyText: return "Lc 90: preferred for body text"
        }
    }
}
