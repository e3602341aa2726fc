import ColorScience
import DesignTokens
import JSONValue

/// The JSON report of a token audit (`report: json`, the default): every pair in every mode with
/// both tokens' alias chains and locations, the resolved colors, the unrounded ratio and its
/// floored text, APCA Lc, the verdict, and for failures the nearest passing foreground.
enum TokenAuditJSON {
    /// The name of the one mode of files without modes, in every report (JUnit's suite, the text
    /// table, JSON's `modes` and `mode`).
    static let singleMode = "default"

    static func location(_ l: TokenLocation) -> JSON {
        .object([("file", .string(l.file)), ("line", .number(Double(l.line))), ("column", .number(Double(l.column)))])
    }

    static func token(_ t: ResolvedToken) -> JSON {
        let d = DisplayColor(t.color)
        return .object([
            ("token", .string(t.path)), ("chain", .array(t.chain.map { .string($0) })), ("value", .string(t.css)),
            ("hex", .string(ColorJSON.hex(d.srgb, alpha: d.alpha))), ("location", location(t.tokenLocation)),
        ] + (t.chain.count > 1 ? [("valueLocation", location(t.location))] : []))
    }

    /// A note when the pair's 8-bit hex colors (what the report shows and a designer copies)
    /// get the other verdict than the colors as the tokens write them: shadcn's dark
    /// `--surface-foreground` `oklch(0.708 0 0)` on `--surface` fails 7:1 at 6.98:1 while its hex
    /// `#a1a1a1` on `#161616` is 7.01:1, and its suggestion has that same hex (a new user's
    /// pass, stop 38). From the audit's own reading (`PairResult.hexPair`: opaque WCAG pairs);
    /// nil when the verdicts agree.
    static func hexVerdictNote(_ r: PairResult) -> String? {
        guard let h = r.hexPair else { return nil }
        let value = r.target.metric == .apca ? "Lc is \(TokenAudit.lcText(h.ratio))" : "ratio is \(WCAG.ratioText(h.ratio)):1"
        return "as the 8-bit hex shown (\(ColorJSON.hex(h.foreground)) on \(ColorJSON.hex(h.background))) the \(value) and the pair would \(r.passes ? "fail" : "pass"): the verdict is for the colors as the tokens write them"
    }

    /// A rule as every report names it, `rules[1] (--fg on --bg)`, its patterns written by
    /// `shown` (the text table escapes them).
    static func ruleLabel(_ r: PairRule, shown: (String) -> String = { $0 }) -> String {
        "\(r.source) (\(shown(r.foreground.text)) on \(shown(r.background.text)))"
    }

    /// The warning every report gives for a rule that matched no pair (one wording in all of
    /// them: JSON and SARIF had said "no pair of tokens", a new user's pass).
    static func unmatchedRuleWarning(_ r: PairRule, shown: (String) -> String = { $0 }) -> String {
        ruleLabel(r, shown: shown) + " matched no pair"
    }

    /// Whether the pair's rule exempts it (role `disabled`: WCAG 2.2 SC 1.4.3 and 1.4.11 exempt
    /// inactive components): measured and listed, but shown as exempt, not as a pass (a CI
    /// engineer's pass, stop 38: "3.60:1 1:1 pass" read like any checked pair).
    static func isExempt(_ r: PairResult, in report: TokenAuditReport) -> Bool {
        report.rules.indices.contains(r.rule) && report.rules[r.rule].role == .disabled && r.unresolved == nil
    }

    static func target(_ t: ContrastTarget) -> JSON {
        .object([("metric", .string(t.metric.rawValue)), ("minimum", t.minimum.isFinite ? .number(t.minimum) : .null), ("basis", .string(t.basis))])
    }

    /// A suggested color as the reports write it: as its token's color is written (`text`,
    /// `PairResult.suggestionText`), followed by its hex when that differs (`240 3.8% 40% (#626269)`).
    static func written(_ color: DisplayColor, _ text: String?) -> String {
        let hex = ColorJSON.hex(color.srgb, alpha: color.alpha)
        guard let text, text != hex else { return hex }
        return "\(text) (\(hex))"
    }

    /// One line per pair for humans: "color.text.subtle on color.surface.default (dark): 2.54:1, needs 4.5:1".
    static func describe(_ r: PairResult) -> String {
        let mode = r.mode.map { " (\($0))" } ?? ""
        guard let m = r.measurement, r.value != nil else {
            return "\(r.foregroundPath) on \(r.backgroundPath)\(mode): not measured: \(r.unresolved?.message ?? "unresolved")"
        }
        return "\(r.foregroundPath) on \(r.backgroundPath)\(mode): \(r.target.measuredText(m)), \(r.passes ? "meets" : "needs") \(r.target.minimumText)"
    }

    /// A suggested color as a DTCG 2025.10 color object (`{"colorSpace": "srgb", "components",
    /// "alpha"?, "hex"}`, components of the 8-bit color to 4 decimals, which round back to it),
    /// for a DTCG file whose tokens hold objects: the hex string alone is no conformant `$value`
    /// there (a new user's pass). Empty for other formats.
    static func dtcgValue(_ c: DisplayColor, _ report: TokenAuditReport) -> [(String, JSON)] {
        guard report.format == .dtcg else { return [] }
        let q = c.quantized
        func r4(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
        var o: [(String, JSON)] = [("colorSpace", .string("srgb")), ("components", .array([.number(r4(q.srgb.x)), .number(r4(q.srgb.y)), .number(r4(q.srgb.z))]))]
        if q.alpha < 1 { o.append(("alpha", .number(r4(q.alpha)))) }
        o.append(("hex", .string(ColorJSON.hex(q.srgb))))
        return [("dtcgValue", .object(JSONObject(o)))]
    }

    /// `failedOnWarnings`: the audit passes but `failOn: "warning"` fails it on its warnings
    /// (answered 422): `"failedOn": "warning"` says so.
    static func document(_ report: TokenAuditReport, policy: TokenPolicy, failedOnWarnings: Bool = false) -> JSON {
        var o = JSONObject()
        o.append("format", .string(report.format.rawValue))
        o.append("policy", .string(policy.rawValue))
        o.append("passes", .bool(report.passes))
        if failedOnWarnings { o.append("failedOn", .string("warning")) }
        o.append("apcaVersion", .string(APCA.version))
        o.append("modes", .array(report.modes.map { .string($0 ?? singleMode) }))
        let total = report.summaries.reduce(into: (0, 0, 0, 0)) { $0.0 += $1.pairs; $0.1 += $1.passing; $0.2 += $1.failing; $0.3 += $1.unresolved }
        o.append("summary", .object([
            ("tokens", .number(Double(report.tokenCount))), ("skippedNonColor", .number(Double(report.skippedNonColor))),
            ("skippedPairs", .number(Double(report.skippedPairs))),
            ("skippedAliasPairs", .number(Double(report.skippedAliasPairs))),
            ("pairs", .number(Double(total.0))), ("passing", .number(Double(total.1))), ("failing", .number(Double(total.2))),
            ("unresolved", .number(Double(total.3))),
            ("byMode", .array(report.summaries.map { s in
                .object([("mode", .string(s.mode ?? singleMode)), ("pairs", .number(Double(s.pairs))), ("passing", .number(Double(s.passing))),
                         ("failing", .number(Double(s.failing))), ("unresolved", .number(Double(s.unresolved)))])
            })),
        ]))
        // The pairs left out as aliases, each with the pair it was checked as.
        o.append("aliasPairs", .array(report.aliasPairs.map { a in
            .object([("foreground", .string(a.foreground)), ("background", .string(a.background)),
                     ("checkedAs", .object([("foreground", .string(a.checkedForeground)), ("background", .string(a.checkedBackground))]))])
        }))
        o.append("rules", .array(report.rules.enumerated().map { (i, r) in
            var ro = JSONObject()
            ro.append("index", .number(Double(i)))
            ro.append("source", .string(r.source))
            ro.append("foreground", .string(r.foreground.text))
            ro.append("background", .string(r.background.text))
            if let b = r.backdrop { ro.append("backdrop", .string(b.text)) }
            ro.append("role", .string(r.role.rawValue))
            if let s = r.fontSize { ro.append("fontSize", .number(s)) }
            if let w = r.fontWeight { ro.append("fontWeight", .number(Double(w))) }
            ro.append("target", target(r.target(r.policy ?? policy)))
            ro.append("matched", .bool(!report.unmatchedRules.contains(i)))
            return .object(ro)
        }))
        o.append("pairs", .array(report.results.map { r in
            var p = JSONObject()
            p.append("mode", .string(r.mode ?? singleMode))
            p.append("rule", .number(Double(r.rule)))
            p.append("foreground", r.foreground.map(token) ?? .object([("token", .string(r.foregroundPath))]))
            p.append("background", r.background.map(token) ?? .object([("token", .string(r.backgroundPath))]))
            if let b = r.backdrop { p.append("backdrop", token(b)) }
            if let m = r.measurement {
                p.append("ratio", .number(m.ratio))
                p.append("ratioText", .string(WCAG.ratioText(m.ratio)))
                p.append("apcaLc", .number(m.apcaLc))
                if let range = m.ratioRange { p.append("ratioRange", .object([("min", .number(range.min)), ("max", .number(range.max))])) }
                // A translucent color is measured as composited: the opaque colors measured, as
                // 8-bit hex (a new user's pass: `#00000080` on white gave 3.97:1 with no word of
                // the #808080 it was).
                if m.ratioRange == nil, r.foreground.map({ $0.color.alpha < 1 }) == true || r.background.map({ $0.color.alpha < 1 }) == true {
                    p.append("effectiveForeground", .string(ColorJSON.hex(m.effectiveForeground)))
                    p.append("effectiveBackground", .string(ColorJSON.hex(m.effectiveBackground)))
                }
            }
            p.append("target", target(r.target))
            if let v = r.value { p.append("value", .number(v)) }
            if let note = hexVerdictNote(r) { p.append("hexNote", .string(note)) }
            // An unresolved pair was not measured: neither passing nor failing (a new user's pass:
            // `false` read as a failure to a client filtering on it).
            p.append("passes", r.unresolved == nil ? .bool(r.passes) : .null)
            if isExempt(r, in: report) { p.append("exempt", .bool(true)) }
            if let e = r.unresolved {
                var u = JSONObject()
                u.append("reason", .string(e.message))
                if let path = e.path { u.append("token", .string(path)) }
                if let l = e.location { u.append("location", location(l)) }
                p.append("unresolved", .object(u))
            }
            if let s = r.suggestion {
                let fg = r.foreground!
                p.append("suggestion", .object([
                    ("token", .string(fg.path)), ("definedBy", .string(fg.chain.last ?? fg.path)),
                    ("hex", .string(ColorJSON.hex(s.foreground.srgb, alpha: s.foreground.alpha))),
                    ("css", .string(r.suggestionText ?? ColorJSON.hex(s.foreground.srgb, alpha: s.foreground.alpha))),
                ] + dtcgValue(s.foreground, report) + [
                    ("ratio", .number(s.measurement.ratio)), ("ratioText", .string(WCAG.ratioText(s.measurement.ratio))),
                    ("apcaLc", .number(s.measurement.apcaLc)), ("value", .number(s.value)), ("deltaEOK", .number(s.foregroundDeltaEOK)),
                ] + (r.suggestionConflict.map { [("conflict", JSON.string($0))] } ?? [])))
            }
            if let s = r.backgroundSuggestion, let bg = r.background {
                // The text would flip from light to dark (or back): the background moved instead.
                p.append("backgroundSuggestion", .object([
                    ("token", .string(bg.path)), ("definedBy", .string(bg.chain.last ?? bg.path)),
                    ("hex", .string(ColorJSON.hex(s.background.srgb, alpha: s.background.alpha))),
                    ("css", .string(r.backgroundSuggestionText ?? ColorJSON.hex(s.background.srgb, alpha: s.background.alpha))),
                ] + dtcgValue(s.background, report) + [
                    ("ratio", .number(s.measurement.ratio)), ("ratioText", .string(WCAG.ratioText(s.measurement.ratio))),
                    ("apcaLc", .number(s.measurement.apcaLc)), ("value", .number(s.value)), ("deltaEOK", .number(s.backgroundDeltaEOK)),
                ] + (r.backgroundSuggestionConflict.map { [("conflict", JSON.string($0))] } ?? [])))
            }
            p.append("summary", .string(describe(r)))
            return .object(p)
        }))
        var warnings: [JSON] = report.warnedUnmatchedRules.map { .string(unmatchedRuleWarning(report.rules[$0])) }
        if let reason = report.nothingCheckedReason { warnings.append(.string(reason)) }
        warnings += report.unresolvedWarnings.map { .string($0) }
        warnings += report.coverageWarnings.map { .string($0) }
        o.append("warnings", .array(warnings))
        o.append("notes", .array(report.notes.map { .string($0) }))
        return .object(o)
    }
}
