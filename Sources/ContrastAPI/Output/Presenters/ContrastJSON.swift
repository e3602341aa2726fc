import ColorScience
import JSONValue

/// JSON pieces of a contrast answer shared by every endpoint that reports one (`/v1/contrast`,
/// the matrix, `/v1/simulate`, the Apple endpoints): WCAG verdicts, the text-size verdict and the
/// APCA block. Each writes into a ``JSONSink`` (the byte writer or a `JSON` value) so that both
/// produce the same bytes.
enum ContrastJSON {
    /// `{"AA": {"normalText", "largeText", "nonText"}, "AAA": {"normalText", "largeText"}}`,
    /// each `ratio >= threshold` on the unrounded ratio (WCAG 2.2 SC 1.4.3, 1.4.6, 1.4.11).
    static func wcagVerdicts(_ ratio: Double) -> JSON {
        JSON.build { wcagVerdicts(ratio, into: &$0) }
    }

    static func wcagVerdicts<S: JSONSink>(_ ratio: Double, into s: inout S) {
        s.object { s in
            s.object("AA") { s in
                s.member("normalText", ratio >= WCAG.aaNormalText)
                s.member("largeText", ratio >= WCAG.aaLargeText)
                s.member("nonText", ratio >= WCAG.aaNonText)
            }
            s.object("AAA") { s in
                s.member("normalText", ratio >= WCAG.aaaNormalText)
                s.member("largeText", ratio >= WCAG.aaaLargeText)
            }
        }
    }

    /// The members `"ratio"`, `"ratioText"` (floored to two decimals, WCAG's convention) and, for a
    /// translucent background over an unknown backdrop, `"ratioRange": {"min", "max", "minText",
    /// "maxText", "backdrop", "worstCaseBackdrop"}` (composited over every gray; verdicts use the
    /// minimum), written into the open object `s`.
    static func ratioMembers<S: JSONSink>(_ m: ContrastMeasurement, into s: inout S) {
        s.member("ratio", m.ratio)
        s.member("ratioText", WCAG.ratioText(m.ratio))
        if let range = m.ratioRange {
            s.object("ratioRange") { o in
                o.member("min", range.min)
                o.member("max", range.max)
                o.member("minText", WCAG.ratioText(range.min))
                o.member("maxText", WCAG.ratioText(range.max))
                o.member("backdrop", "unknown: the background is translucent, so it was composited over every gray from black to white; verdicts use the minimum")
                o.member("worstCaseBackdrop", ColorJSON.hex(SIMD3(repeating: m.worstBackdrop ?? 0)))
            }
        }
    }

    /// `{"fontSize", "fontSizeUnit", "points", "px", "fontWeight", "isLarge", "requiredRatio":
    /// {"AA", "AAA"}, "passes": {"AA", "AAA"}}` (WCAG 2.2 large text: 18 pt, or 14 pt bold).
    static func textVerdict<S: JSONSink>(_ t: TextSpec, ratio: Double, into s: inout S) {
        let aa = t.isLarge ? WCAG.aaLargeText : WCAG.aaNormalText
        let aaa = t.isLarge ? WCAG.aaaLargeText : WCAG.aaaNormalText
        s.object { s in
            s.member("fontSize", t.value)
            s.member("fontSizeUnit", t.unit.rawValue)
            s.member("points", t.points)
            s.member("px", t.px)
            s.member("fontWeight", t.weight)
            s.member("isLarge", t.isLarge)
            s.object("requiredRatio") { s in
                s.member("AA", aa)
                s.member("AAA", aaa)
            }
            s.object("passes") { s in
                s.member("AA", ratio >= aa)
                s.member("AAA", ratio >= aaa)
            }
        }
    }

    /// `{"lc", "version", "informational", "level", "minimumFontSizePx", "text"?}`: Lc with its
    /// sign, the highest APCA use level it reaches (|Lc| 15 non-text … 90 preferred body text), the
    /// apca-w3 minimum font size in px per weight 100…900 (`null` = not usable for text), and with a
    /// text size whether that size and weight suffice.
    static func apca<S: JSONSink>(_ lc: Double, text: TextSpec? = nil, into s: inout S) {
        s.object { s in
            s.member("lc", lc)
            s.member("version", APCA.version)
            s.member("informational", true)
            s.key("level")
            APCAJSON.levelJSON(lc, into: &s)
            let row = APCAFontLookup.requirements(lc: lc)
            s.key("minimumFontSizePx")
            APCAJSON.fontTable(row, into: &s)
            if let text {
                s.key("text")
                APCAJSON.sufficiency(row, text: text, into: &s)
            }
        }
    }

    /// The five WCAG verdicts of a ratio as the bits of `0..<32`: AA normal, large, non-text, AAA normal, large.
    static func verdictIndex(_ ratio: Double) -> Int {
        (ratio >= WCAG.aaNormalText ? 1 : 0) | (ratio >= WCAG.aaLargeText ? 2 : 0) | (ratio >= WCAG.aaNonText ? 4 : 0)
            | (ratio >= WCAG.aaaNormalText ? 8 : 0) | (ratio >= WCAG.aaaLargeText ? 16 : 0)
    }
}
