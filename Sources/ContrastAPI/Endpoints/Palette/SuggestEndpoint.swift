import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/suggest` (and `GET /v1/suggest?foreground=…&background=…`): the nearest colors that
/// make a failing pair pass (`NearestPassingColor`).
///
/// Request: `{"foreground", "background", "backdrop"?, "target"? (see `TargetInput`; default
/// "AA": 4.5:1), "fontSize"?, "fontSizeUnit"?, "fontWeight"? (the text's size, which a
/// target's name such as "AA" reads as in `/v1/pick`; the default target is then AA for that
/// size), "move"?: "foreground" (default) | "background" | "both", "hexOrder"?, "appearance"?,
/// "level"?, "contrast"?, "generation"?}`. Colors are CSS colors or Apple system
/// color names, resolved in the given Apple context (default light, base, standard, newest).
///
/// Response: `{"foreground", "background", "backdrop"?, "target": {"metric", "minimum",
/// "basis"}, "apcaVersion", "move", "current": pair, "passes", "suggestions": [{"direction": "lighter" |
/// "darker", "found", pair… | "reason", "bestReachable"}], "best": pair | null, "notes"}` where
/// a pair is `{"direction", "foreground": color, "background": color, "deltaEOK", "deltaE2000",
/// "ratio", "ratioText", "apcaLc", "value", "passes"}` and a color `{"hex", "rgba", "oklch",
/// "changed", "deltaEOK", "deltaE2000"}`. Every hex passes when measured as that hex.
struct SuggestEndpoint {
    static let fields: Set<String> = [
        "foreground", "background", "backdrop", "target", "move", "hexOrder", "appearance", "level", "contrast", "generation",
        "fontSize", "fontSizeUnit", "fontWeight",
    ]

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(fields)
        let context = try f.appleContext()
        return try AppleRequestScope.run(context) { () throws(Problem) -> JSON in try handle(f, mayMoveToHeavyPool: request.mayMoveToHeavyPool) }
    }

    /// `mayMoveToHeavyPool`: translucent text on a translucent background with no backdrop
    /// measures every candidate over 256 gray backdrops (60–130 ms: a hostile pass's 58-byte
    /// request, four clients of which held `/healthz` at 229 ms); such a request throws
    /// `Problem.moveToHeavyPool` before the search, to run on the heavy-work pool.
    static func handle(_ f: Fields, mayMoveToHeavyPool: Bool = false) throws(Problem) -> JSON {
        let pair = try f.colorPair()
        let (fg, bg, backdrop) = (pair.foreground, pair.background, pair.backdrop)
        if mayMoveToHeavyPool, fg.display.alpha < 1, bg.display.alpha < 1, backdrop == nil { throw Problem.moveToHeavyPool }
        // The text's size beside the target, as /v1/pick and /v1/contrast take it (a new user's
        // pass: `fontSize` here was "unknown" with no word of `target.fontSize`).
        let text = try TextSpec.from(f, unitWhereItMatters: true)
        if text != nil, case .object(let o)? = f.value("target"), let inner = ["fontSize", "textSize"].first(where: { o[$0] != nil }) {
            throw Problem.contradictory(f.field("target").appending(inner), f.field("fontSize"), "\(f.field("fontSize").display) and \(f.field("target").appending(inner).display) both give the text size; send one of them")
        }
        let sizePath = f.field("fontSize")
        let target: ContrastTarget
        if let v = f.value("target") {
            target = try TargetInput.parse(v, at: f.field("target"), fromQuery: f.fromQuery, text: text, textPath: sizePath)
        } else if let text {
            target = try TargetInput.target(policy: .wcag, level: .AA, size: nil, text: text, sizePath: sizePath, remedy: "")
        } else {
            target = .ratio(WCAG.aaNormalText, basis: "WCAG 2.2 SC 1.4.3 AA, normal text (the default target)")
        }
        let moving = try f.choice("move", NearestPassingColor.Moving.self) ?? .foreground

        let s = NearestPassingColor.suggest(foreground: fg.color, background: bg.color,
                                            backdrop: backdrop.map { EightBit.quantize($0.display.srgb) },
                                            target: target, moving: moving)
        var o = JSONObject()
        o.append("foreground", ColorJSON.describe(fg))
        o.append("background", ColorJSON.describe(bg))
        if let backdrop { o.append("backdrop", ColorJSON.describe(backdrop)) }
        o.append("target", TargetInput.json(target))
        o.append(APCAJSON.versionMember.0, APCAJSON.versionMember.1)
        o.append("move", .string(moving.rawValue))
        let current = pairObject(s.current, target: target)
        o.append("current", .object(JSONObject(current.members.filter { $0.key != "direction" }.map { ($0.key, $0.value) })))
        o.append("passes", .bool(s.alreadyPasses))
        // Translucent text: the same color made more opaque (lightness alone cannot lift white
        // text at 40% on a dark surface; new-user test).
        let offersOpacity = moving == .foreground && !s.alreadyPasses && s.current.foreground.alpha < 1
        let opacity: MinimumOpacity? = offersOpacity
            ? MinimumOpacity.search(foreground: fg.color, background: bg.color,
                                    backdrop: backdrop.map { EightBit.quantize($0.display.srgb) }, target: target)
            : nil
        var suggestions: [JSON] = []
        for outcome in s.outcomes {
            if let c = outcome.candidate {
                var p = pairObject(c, target: target)
                p.set("found", .bool(true))
                suggestions.append(.object(p))
            } else {
                var p = JSONObject()
                p.append("direction", .string(outcome.direction.rawValue))
                p.append("found", .bool(false))
                var why = reason(outcome, moving: moving, target: target, current: s.current)
                if let opacity {
                    why += "; the same color at opacity \(Fields.format((opacity.foreground.alpha * 1000).rounded() / 1000)) (\(opacity.foreground.hex)) passes: see opacity"
                }
                p.append("reason", .string(why))
                p.append("bestReachable", outcome.bestReachable.map { pairJSON($0, target: target) } ?? .null)
                suggestions.append(.object(p))
            }
        }
        o.append("suggestions", .array(suggestions))
        if offersOpacity {
            var p = JSONObject()
            if let opacity {
                p.append("found", .bool(true))
                p.append("alpha", .number(opacity.foreground.alpha))
                p.append("foreground", colorJSON(opacity.foreground, moved: true, deltaEOK: 0, deltaE2000: 0))
                p.append("ratio", .number(opacity.measurement.ratio))
                p.append("ratioText", .string(WCAG.ratioText(opacity.measurement.ratio)))
                p.append("apcaLc", .number(opacity.measurement.apcaLc))
                p.append("value", .number(opacity.value))
            } else {
                p.append("found", .bool(false))
                p.append("reason", .string("even fully opaque, the foreground's color does not reach the target; see suggestions"))
            }
            o.append("opacity", .object(p))
        }
        o.append("best", s.best.map { pairJSON($0, target: target) } ?? .null)
        var notes: [JSON] = [
            .string("Candidates keep the hue and move OKLCH lightness, reducing chroma only where sRGB cannot show it; each is the first 8-bit color of its path that passes, measured as the hex it is reported as."),
            .string("deltaEOK is the Euclidean distance in OKLab (about 0.02 is just noticeable); deltaE2000 is CIEDE2000 in Lab D65 (about 1 is just noticeable). Distances are from the colors as given."),
        ]
        if s.alreadyPasses { notes.insert(.string("The pair already meets the target as its 8-bit hex: nothing needs to move."), at: 0) }
        if bg.display.alpha < 1 && backdrop == nil {
            notes.append(.string("The background is translucent and no backdrop was given: contrast is the worst case over every gray backdrop from black to white."))
        }
        if backdrop != nil && bg.display.alpha >= 1 {
            notes.append(.string("backdrop was not used: the background is opaque, so nothing behind it shows through."))
        }
        if opacity != nil {
            notes.append(.string("opacity is the foreground's own color at the smallest 8-bit alpha that passes (its deltaEOK and deltaE2000 are 0: the color does not change, only how much of the background shows through)."))
        }
        if moving == .both {
            notes.append(.string("move both: the two colors move the same OKLCH lightness distance in opposite directions; direction names the foreground's (lighter = lighter text on a darker background); deltaEOK is the sum of both."))
        }
        o.append("notes", .array(notes))
        return .object(o)
    }

    static func reason(_ outcome: NearestPassingColor.DirectionOutcome, moving: NearestPassingColor.Moving,
                       target: ContrastTarget, current: NearestPassingColor.Candidate) -> String {
        let what: String
        switch moving {
        case .foreground: what = "foreground"
        case .background: what = "background"
        case .both: what = "pair of colors moved apart"
        }
        let goal = target.minimumText
        if current.foreground.alpha == 0 {
            return "the foreground is fully transparent (alpha 0), so no lightness of it or of the background can reach \(goal); give the text an opacity"
        }
        guard let best = outcome.bestReachable else {
            return "no \(what) \(outcome.direction.rawValue) than the original can reach \(goal)"
        }
        // The best is the pair itself when it is the pair's own 8-bit colors: a Display P3 text
        // is measured as given, and its hex is where a move starts (a new user's pass: "the best
        // in this direction is #0082ff … at 3.72:1" for the text #0082ff itself, at 3.74:1).
        if best.foreground.hex == current.foreground.hex && best.background.hex == current.background.hex {
            // Over an unknown backdrop the limit is the backdrop, not the direction (hostile
            // test: both directions said "only lowers the contrast" for a transparent background).
            if current.measurement.ratioRange != nil && current.background.alpha == 0 {
                return "the background is fully transparent (alpha 0) and no backdrop was given, so some gray backdrop "
                    + "shows through as light as the text (1:1) whatever the \(what); give a backdrop or a background opacity"
            }
            if current.measurement.ratioRange != nil {
                return "no \(what) \(outcome.direction.rawValue) than the original reaches \(goal) over every gray backdrop "
                    + "the translucent background (alpha \(Fields.format((current.background.alpha * 1000).rounded() / 1000))) may show; give a backdrop or a more opaque background"
            }
            // Already at the end of this direction (white cannot get lighter, black darker): said
            // so, not that moving would lower the contrast (a new user's pass: white text at 40%
            // on #1e1e1e was told that moving lighter lowers it).
            let moved: DisplayColor? = moving == .foreground ? current.foreground : moving == .background ? current.background : nil
            if let moved {
                let lighter = outcome.direction == .lighter
                let atEnd = lighter ? moved.srgb.min() >= 1 - 1e-9 : moved.srgb.max() <= 1e-9
                if atEnd {
                    return "no \(what) \(outcome.direction.rawValue) than the original reaches \(goal): nothing is \(outcome.direction.rawValue) than \(lighter ? "white" : "black"), which the \(what) already is"
                }
            }
            return "no \(what) \(outcome.direction.rawValue) than the original reaches \(goal): moving \(outcome.direction.rawValue) only lowers the contrast"
        }
        return "no \(what) \(outcome.direction.rawValue) than the original reaches \(goal): the best in this direction is \(best.foreground.hex) on \(best.background.hex) at \(target.valueText(best.value))"
    }

    static func pairJSON(_ c: NearestPassingColor.Candidate, target: ContrastTarget) -> JSON {
        .object(pairObject(c, target: target))
    }

    static func pairObject(_ c: NearestPassingColor.Candidate, target: ContrastTarget) -> JSONObject {
        var o = JSONObject()
        o.append("direction", .string(c.direction.rawValue))
        o.append("foreground", colorJSON(c.foreground, moved: c.foregroundDeltaEOK > 0, deltaEOK: c.foregroundDeltaEOK, deltaE2000: c.foregroundDeltaE2000))
        o.append("background", colorJSON(c.background, moved: c.backgroundDeltaEOK > 0, deltaEOK: c.backgroundDeltaEOK,
                                         deltaE2000: c.backgroundDeltaE2000))
        o.append("deltaEOK", .number(c.deltaEOK))
        o.append("deltaE2000", .number(c.deltaE2000))
        o.append("ratio", .number(c.measurement.ratio))
        o.append("ratioText", .string(WCAG.ratioText(c.measurement.ratio)))
        if let range = c.measurement.ratioRange {
            o.append("ratioRange", .object([("min", .number(range.min)), ("max", .number(range.max))]))
        }
        o.append("apcaLc", .number(c.measurement.apcaLc))
        o.append("value", .number(c.value))
        o.append("passes", .bool(c.passes))
        return o
    }

    /// `{"hex", "rgba", "oklch", "changed", "deltaEOK", "deltaE2000"}` of an 8-bit color.
    static func colorJSON(_ c: DisplayColor, moved: Bool, deltaEOK: Double, deltaE2000: Double) -> JSON {
        var o = JSONObject()
        o.append("hex", .string(c.hex))
        o.append("rgba", ColorJSON.rgba(c.srgb, alpha: c.alpha))
        o.append("oklch", PaletteJSON.oklch(c))
        o.append("changed", .bool(moved))
        o.append("deltaEOK", .number(deltaEOK))
        o.append("deltaE2000", .number(deltaE2000))
        return .object(o)
    }
}
