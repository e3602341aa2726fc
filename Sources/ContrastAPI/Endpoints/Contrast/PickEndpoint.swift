import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/pick`: which of several candidate colors reads best on one background (CSS
/// `contrast-color()`, black-or-white text on a button, the best of a brand's grays).
///
/// Request: `{"background": color or gradient, "candidates": [color, …] (1…256), "algorithm"?: "wcag2"
/// (default) | "apca", "target"?, "backdrop"?, "hexOrder"?, "fontSize"?, "fontSizeUnit"?,
/// "fontWeight"?, "appearance"?, "level"?, "contrast"?, "generation"?, "textStyle"?,
/// "contentSizeCategory"?}`. Colors are CSS colors or Apple system color names, resolved in the
/// Apple context as `/v1/contrast` resolves them; the text size members are `/v1/contrast`'s.
/// `target` is what `/v1/suggest` takes (`TargetInput`: `"AA"`, `"AAA"`, `"AA-large"`,
/// `"AAA-large"`, `"non-text"`, `"hig"`, `"apca"`, a number, an object), except that a number is
/// an |Lc| (`0...108`) with `"algorithm": "apca"`, and that the names whose minimum depends on the
/// text size take the request's size. Without `algorithm`, an APCA target ranks by APCA; a
/// target in the other metric than `algorithm` is a 400.
///
/// Each candidate is measured as text on the background as `/v1/contrast` measures a pair
/// (`ContrastMeasurement`: a translucent candidate composited source-over, a translucent
/// background over `backdrop`, or its worst case over every gray backdrop without one) and ranked
/// best first by the WCAG ratio, or by |Lc| for `apca`; equal values (to 1e-9) keep list order.
///
/// On a CSS gradient (`box`, `region`), each candidate is judged by its worst place on it
/// (`PickGradient`).
///
/// The winner (CSS Color 6 draft, `contrast-color()`): without `target`, the first ranked; with
/// `target`, the first candidate *in list order* that meets it, else the first ranked, and
/// `met: false` says none did.
///
/// Response: `{"background", "backdrop"?, "effectiveBackground"?, "algorithm", "apcaVersion",
/// "target"?, "text"?, "textStyle"?, "appleContext"?, "met"?, "winner": {"index", "input",
/// "rank", "hex", "ratio", "ratioText", "apcaLc", "value", "meetsTarget"?, "chosenBy"},
/// "candidates": [{"index", "rank", color members…, "effectiveForeground"?,
/// "effectiveBackground"?, "ratio", "ratioText", "ratioRange"?, "apcaLc", "value", "wcag",
/// "textPasses"?, "meetsTarget"?}] (ranked), "notes"}`; `value` is the ranking value (ratio or |Lc|).
struct PickEndpoint {
    static let fields: Set<String> = Set([
        "background", "candidates", "algorithm", "target", "backdrop", "hexOrder", "fontSize", "fontSizeUnit", "fontWeight",
        "box", "region",
    ]).union(AppleContrastOptions.fields)
    /// Most candidates in one request: each is one measurement (up to ~0.1 ms for a translucent
    /// candidate on a translucent background without a backdrop, sampled over 256 grays).
    static let maxCandidates = 256

    /// One measured candidate.
    struct Entry {
        var index: Int
        var color: ResolvedColor
        var measurement: ContrastMeasurement
        /// On a gradient background, the candidate measured on every color of it; `measurement`
        /// is then its worst case: the lowest ratio (at the colors there) and the weakest Lc.
        var gradient: GradientContrast? = nil
        /// The ranking value: ratio (`wcag2`) or |Lc| (`apca`).
        var value: Double
        /// `value` in units of 1e-9, what ranking compares: values closer than that are ties.
        /// Compositing leaves noise in the last bits (over an unknown backdrop, an opaque label
        /// measured 1:1 exactly and a translucent one 1.0000000000000002:1), which must not
        /// decide a winner; rounding keeps the order a strict weak order, as sorting needs.
        var key: Double { (value * 1e9).rounded() }
    }

    static func handle(_ request: HTTPRequest) throws(Problem) -> [UInt8] {
        let f = try Fields.body(request)
        try f.rejectUnknown(fields)
        let apple = try AppleContrastOptions(f)  // system color names resolve in its context
        let inline = InlineWork(request)
        return try apple.run { () throws(Problem) -> [UInt8] in
            var writer = JSONByteWriter()
            try answer(f, apple, inline: inline, into: &writer)
            return writer.bytes
        }
    }

    /// The algorithm (`algorithm`, else the target's metric, else wcag2) and the target.
    static func algorithmAndTarget(_ f: Fields, text: TextSpec?) throws(Problem) -> (ContrastTarget.Metric, ContrastTarget?) {
        let requested = try f.choice("algorithm", ContrastTarget.Metric.self)
        guard let v = f.value("target") else { return (requested ?? .wcag2, nil) }
        let path = f.field("target")
        let target: ContrastTarget
        if case .number(let n) = v, requested == .apca {
            guard n.isFinite, (0...108).contains(n) else {
                throw Problem.invalidField(path, "\(path.display) as a number with \(f.field("algorithm").display) apca is an |Lc| and must be between 0 and 108, got \(Fields.format(n))")
            }
            target = .apcaLc(n)
        } else if case .number(let n) = v, requested == nil, n.isFinite, !(1...21).contains(n), (0...108).contains(n) {
            throw Problem.invalidField(path, "\(path.display) as a number is a WCAG ratio and must be between 1 and 21, got \(Fields.format(n)); for an APCA |Lc| add \(f.field("algorithm").display): \"apca\"")
        } else {
            let textPath = f.has("textStyle") ? f.field("textStyle") : f.field("fontSize")
            target = try TargetInput.parse(v, at: path, fromQuery: f.fromQuery, text: text, textPath: textPath)
        }
        if let requested, requested != target.metric {
            let stated = target.metric == .wcag2 ? "a WCAG 2 contrast ratio" : "an APCA |Lc|"
            throw Problem.contradictory(path, f.field("algorithm"),
                "\(path.display) is \(stated) (\(target.basis)), but \(f.field("algorithm").display) \(requested.rawValue) ranks by \(requested == .wcag2 ? "the WCAG ratio" : "|Lc|"): give a target in the same metric, or leave out \(f.field("algorithm").display)")
        }
        return (requested ?? target.metric, target)
    }

    /// Reads and validates the request, measures and ranks, and writes the answer into `out`
    /// (nothing is written when it throws).
    /// `inline` is checked at each candidate, parsed and measured (`InlineWork`): a hostile
    /// pass's 256 translucent candidates on a translucent background (each measured over 256
    /// grays) took 88 ms, 256 literal nested `lch(from …)` colors 145 ms, and four clients sending
    /// either held `/healthz` at 125 ms.
    static func answer<S: JSONSink>(_ f: Fields, _ apple: AppleContrastOptions, inline: InlineWork = .stays,
                                    into out: inout S) throws(Problem) {
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        let onGradient = try PickGradient(f, hexOrder: hexOrder)
        let background = onGradient == nil ? try f.color("background", required: true, hexOrder: hexOrder)! : nil
        let backdrop = try f.opaqueBackdrop(hexOrder: hexOrder)
        let list = f.field("candidates")
        let items = try f.array("candidates", required: true, maxCount: maxCandidates)!
        if items.isEmpty {
            throw Problem.invalidField(list, "\(list.display) is an empty list; give at least one candidate color")
        }
        var candidates: [ResolvedColor] = []
        candidates.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let path = list.appending(index: i)
            guard case .string(let s) = item else { throw notAColorString(item, at: path) }
            try inline.check()
            candidates.append(try resolveColor(s, at: path, hexOrder: hexOrder))
        }
        let text = try apple.textSpec(orFrom: f)
        let (metric, target) = try algorithmAndTarget(f, text: text)

        let behind = backdrop?.display.srgb
        var entries: [Entry] = []
        entries.reserveCapacity(candidates.count)
        // A translucent Apple system color is drawn over the system backgrounds, as /v1/contrast
        // measures it (a hostile pass: `label` on `systemFill` ranked at 1.18:1, the worst over
        // every gray, where /v1/contrast gives 15.02:1, and lost to white).
        let unders = background?.isTranslucentSystemColor == true && behind == nil
            ? try ContrastEndpoint.systemBackgrounds(at: f.field("background")) : []
        var systemBackdrops = Set<String>()
        if let onGradient {
            entries = try onGradient.measure(candidates, at: list, backdrop: behind, inline: inline)
        } else if let bg = background?.display {
            for (i, c) in candidates.enumerated() {
                try inline.check()
                var m = ContrastMeasurement(foreground: c.display, background: bg, backdrop: behind)
                if let (weakest, name) = ContrastEndpoint.weakest(c.display, on: bg, over: unders) {
                    m = weakest
                    systemBackdrops.insert(name)
                }
                entries.append(Entry(index: i, color: c, measurement: m, value: 0))
            }
        }
        for k in entries.indices {
            let m = entries[k].measurement
            entries[k].value = metric == .wcag2 ? m.ratio : abs(m.apcaLc)
            // Each candidate's `textPasses.apca`, as /v1/contrast answers it.
            if let text { try APCAJSON.requireUnitWhereItMatters(lc: m.apcaLc, text: text, unitPath: f.field("fontSizeUnit")) }
        }
        // Best first; equal values keep list order (as CSS contrast-color() breaks ties).
        let ranked = entries.sorted { $0.key != $1.key ? $0.key > $1.key : $0.index < $1.index }
        var rank = [Int](repeating: 0, count: entries.count)
        for (r, e) in ranked.enumerated() { rank[e.index] = r + 1 }
        let firstMeeting = target.flatMap { t in entries.first { t.isMet(by: $0.measurement) } }
        let winner = firstMeeting ?? ranked[0]

        out.beginObject()
        out.key("background")
        if let onGradient { onGradient.describe(into: &out) } else { ColorJSON.describe(background!, into: &out) }
        if let backdrop {
            out.key("backdrop")
            ColorJSON.describe(backdrop, into: &out)
        }
        if let bg = background?.display, bg.alpha < 1, let behind {
            out.key("effectiveBackground")
            ColorJSON.effective(Compositing.sourceOver(bg.srgb, alpha: bg.alpha, overOpaque: behind), into: &out)
        }
        out.member("algorithm", metric.rawValue)
        out.member("apcaVersion", APCA.version)
        if let target { out.member("target", TargetInput.json(target)) }
        if let text {
            out.key("text")
            textJSON(text, into: &out)
        }
        if let style = apple.textStyle { out.member("textStyle", style.json(ratio: nil, lc: nil)) }
        let usedSystemColor = background?.systemColor != nil || backdrop?.systemColor != nil || candidates.contains { $0.systemColor != nil }
        if apple.contextGiven || usedSystemColor { out.member("appleContext", AppleJSON.context(apple.context)) }
        if target != nil { out.member("met", firstMeeting != nil) }
        out.object("winner") { o in
            o.member("index", winner.index)
            o.member("input", winner.color.input)
            o.member("rank", rank[winner.index])
            o.member("hex", ColorJSON.hex(winner.color.display.srgb, alpha: winner.color.display.alpha))
            o.member("ratio", winner.measurement.ratio)
            o.member("ratioText", WCAG.ratioText(winner.measurement.ratio))
            o.member("apcaLc", winner.measurement.apcaLc)
            o.member("value", winner.value)
            if let target { o.member("meetsTarget", target.isMet(by: winner.measurement)) }
            o.member("chosenBy", firstMeeting != nil ? "firstMeetingTarget" : "highestContrast")
        }
        out.key("candidates")
        out.array { a in
            for e in ranked {
                a.object { o in
                    o.member("index", e.index)
                    o.member("rank", rank[e.index])
                    ColorJSON.describeMembers(e.color, into: &o)
                    let m = e.measurement
                    if e.color.display.alpha < 1 {
                        o.key("effectiveForeground")
                        ColorJSON.effective(m.effectiveForeground, into: &o)
                    }
                    if e.gradient != nil || (background?.display.alpha ?? 1) < 1 && behind == nil {
                        // Over an unknown backdrop (or the system backgrounds), or on a gradient:
                        // the background of this candidate's worst case (on a gradient, where its
                        // ratio is lowest).
                        o.key("effectiveBackground")
                        ColorJSON.effective(m.effectiveBackground, into: &o)
                    }
                    ContrastJSON.ratioMembers(m, into: &o)
                    o.member("apcaLc", m.apcaLc)
                    o.member("value", e.value)
                    o.key("wcag")
                    ContrastJSON.wcagVerdicts(m.ratio, into: &o)
                    if let text {
                        o.object("textPasses") { p in
                            p.member("AA", m.ratio >= (text.isLarge ? WCAG.aaLargeText : WCAG.aaNormalText))
                            p.member("AAA", m.ratio >= (text.isLarge ? WCAG.aaaLargeText : WCAG.aaaNormalText))
                            p.member("apca", APCAJSON.isSufficient(lc: m.apcaLc, text: text))
                        }
                    }
                    if let target { o.member("meetsTarget", target.isMet(by: m)) }
                    if let g = e.gradient, let onGradient { onGradient.writeWorst(g, into: &o) }
                }
            }
        }
        var notes: [String]
        if let onGradient {
            notes = self.notes(ranked: ranked, winner: winner, firstMeeting: firstMeeting, target: target, metric: metric,
                               background: nil, backdrop: nil, candidates: candidates)
            notes += onGradient.notes(metric: metric, backdrop: backdrop, candidates: candidates)
        } else {
            notes = self.notes(ranked: ranked, winner: winner, firstMeeting: firstMeeting, target: target,
                               metric: metric, background: background, backdrop: backdrop, candidates: candidates,
                               overSystemBackgrounds: !unders.isEmpty)
            if let background, !unders.isEmpty {
                let names = systemBackdrops.sorted()
                notes.append("backdrop: \(background.input) is a translucent system color, drawn over the system backgrounds of its context: each candidate was measured over each (systemBackground, secondary-, tertiary- and the grouped ones) and judged by the weakest (effectiveBackground), on \(names.joined(separator: ", ")); give backdrop to measure over another color")
            }
        }
        out.key("notes")
        out.array { a in for note in notes { a.string(note) } }
        out.endObject()
    }

    /// `{"fontSize", "fontSizeUnit", "points", "px", "apcaPx", "fontWeight", "isLarge",
    /// "requiredRatio": {"AA", "AAA"}}`: the size every candidate's `textPasses` is for.
    static func textJSON<S: JSONSink>(_ t: TextSpec, into s: inout S) {
        s.object { s in
            s.member("fontSize", t.value)
            s.member("fontSizeUnit", t.unit.rawValue)
            s.member("points", t.points)
            s.member("px", t.px)
            s.member("apcaPx", t.apcaPx)
            s.member("fontWeight", t.weight)
            s.member("isLarge", t.isLarge)
            s.object("requiredRatio") { s in
                s.member("AA", t.isLarge ? WCAG.aaLargeText : WCAG.aaNormalText)
                s.member("AAA", t.isLarge ? WCAG.aaaLargeText : WCAG.aaaNormalText)
            }
        }
    }

    /// When WCAG's winner reads weakly by APCA (|Lc| below 45, APCA's floor for large text) and
    /// another candidate reaches 45 and at least 15 more, a note naming both Lc: on mid-tone
    /// backgrounds WCAG 2's ratio can favor dark text where light text reads better (black on
    /// Tailwind's indigo-500 → pink-500 passes at 4.64:1 with Lc 33.0; white has Lc −67.2: a
    /// new user's pass). APCA 0.0.98G-4g; informational, it does not change the winner.
    static func apcaDisagreement(ranked: [Entry], winner: Entry) -> String? {
        let weak = abs(winner.measurement.apcaLc)
        guard weak < 45, let other = ranked.filter({ $0.index != winner.index }).max(by: { abs($0.measurement.apcaLc) < abs($1.measurement.apcaLc) }) else { return nil }
        let strong = abs(other.measurement.apcaLc)
        guard strong >= 45, strong >= weak + 15 else { return nil }
        func lc(_ v: Double) -> String { String(format: "%.1f", v) }
        return "By APCA (informational, \(APCA.version)) candidate \(other.index) (\(ClientText.quoted(other.color.input))) reads more clearly: Lc \(lc(other.measurement.apcaLc)) against the winner's \(lc(winner.measurement.apcaLc)), below Lc 45, APCA's floor for large text; WCAG 2's ratio and APCA disagree most on mid-tone backgrounds (algorithm \"apca\" ranks by |Lc|)."
    }

    /// How the winner was chosen, in words, and what else shaped the numbers.
    static func notes(ranked: [Entry], winner: Entry, firstMeeting: Entry?, target: ContrastTarget?,
                      metric: ContrastTarget.Metric, background: ResolvedColor?, backdrop: ResolvedColor?,
                      candidates: [ResolvedColor], overSystemBackgrounds: Bool = false) -> [String] {
        var notes: [String] = []
        let measure = metric == .wcag2 ? "contrast ratio" : "APCA |Lc|"
        func name(_ e: Entry) -> String { "candidate \(e.index) (\(ClientText.quoted(e.color.input)))" }
        if let target {
            if let firstMeeting {
                if firstMeeting.index != ranked[0].index {
                    notes.append("The winner is the first candidate in list order that meets the target (\(target.basis)), as CSS contrast-color() with a target contrast chooses (CSS Color 6 draft); \(name(ranked[0])) has a higher \(measure).")
                } else {
                    notes.append("The winner is the first candidate in list order that meets the target (\(target.basis)), as CSS contrast-color() with a target contrast chooses (CSS Color 6 draft).")
                }
            } else {
                notes.append("No candidate meets the target (\(target.basis)): the winner is the candidate with the highest \(measure), and met is false.")
            }
        }
        if firstMeeting == nil {
            let tied = ranked.dropFirst().prefix { $0.key == winner.key }.map(\.index)
            if !tied.isEmpty {
                let which = tied.map(String.init).joined(separator: ", ")
                notes.append("Candidate\(tied.count > 1 ? "s" : "") \(which) \(tied.count > 1 ? "have" : "has") the same \(measure) as the winner; the first in the list wins, as CSS contrast-color() does.")
            }
        }
        if metric == .apca {
            notes.append("APCA is informational (not part of WCAG 2); candidates are ranked by |Lc|, whatever the polarity.")
        } else if let note = apcaDisagreement(ranked: ranked, winner: winner) {
            notes.append(note)
        }
        if let background, background.display.alpha < 1 && backdrop == nil && !overSystemBackgrounds {
            notes.append("The background is translucent and no backdrop was given: each candidate's contrast is its worst case over every gray backdrop from black to white (ratioRange).")
        }
        if backdrop != nil, let background, background.display.alpha >= 1 {
            notes.append("backdrop was not used: the background is opaque, so nothing behind it shows through.")
        }
        if background != nil, candidates.contains(where: { $0.display.alpha < 1 }) {
            notes.append("Translucent candidates are composited source-over on the background before measuring (effectiveForeground); their APCA Lc blends as apca-w3 does, each channel rounded to 8 bits.")
        }
        if background?.display.wasGamutMapped == true || candidates.contains(where: { $0.display.wasGamutMapped }) {
            notes.append(ContrastEndpoint.gamutNote(.css4))
        }
        return notes
    }
}
