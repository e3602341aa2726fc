import Foundation
import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/contrast` and `GET /v1/contrast?foreground=…&background=…`.
struct ContrastEndpoint {
    static let fields: Set<String> = Set([
        "foreground", "background", "backdrop", "layers", "fontSize", "fontSizeUnit", "fontWeight",
        "algorithm", "hexOrder", "textShadow",
    ]).union(AppleContrastOptions.fields)
    /// `fields` and `gamutMethod`, which is found only when the plain reading fails (as a
    /// gradient is), so a plain pair pays nothing for it (a lookup had cost the bench's
    /// four-member POST about 370 instructions).
    static let fieldsWithGamutMethod = fields.union(["gamutMethod"])
    /// `fields`, `gamutMethod` and the members a gradient background takes (`box`, `region`).
    static let fieldsWithGradient = fieldsWithGamutMethod.union(gradientFields)
    static let maxLayers = 32

    /// The answer as JSON bytes, written without a JSON tree (this is the hottest endpoint).
    static func handle(_ request: HTTPRequest) throws(Problem) -> [UInt8] {
        let f = try Fields.from(request)
        // A gradient is found only when the plain reading fails (an unknown `box`, a background
        // that is no color), so a plain pair pays nothing for it (bench/profile post).
        var readsGamutMethod = false
        do throws(Problem) { try f.rejectUnknown(fields) } catch {
            if hasGradient(f) {
                try f.rejectUnknown(fieldsWithGradient)
            } else if f.object["gamutMethod"] != nil, (try? f.rejectUnknown(fieldsWithGamutMethod)) != nil {
                // Present, `null` (absent, as for every member) included (a hostile pass).
                readsGamutMethod = true
            } else if f.has("target") {
                throw Problem.invalidField(f.field("target"), "\(f.field("target").display) sets what a gradient background's fixes aim for, and \(f.field("background").display) is one color: the answer's wcag gives every WCAG verdict, and /v1/suggest finds the nearest color that meets a target")
            } else if let key = ["box", "region"].first(where: { f.has($0) }) {
                throw Problem.invalidField(f.field(key), "\(f.field(key).display) applies only to a gradient: \(f.field("background").display) (or a layer) must be a CSS gradient such as \"linear-gradient(#fff, #000)\"")
            } else {
                // Named with every member this route reads: a gradient's and, in a body,
                // `variables` (taken out before this check).
                try f.rejectUnknown(fields, listing: f.fromQuery ? fieldsWithGradient : fieldsWithGradient.union(["variables"]))
                throw error
            }
        }
        let apple = try AppleContrastOptions(f)  // system color names resolve in its context
        return try apple.run { () throws(Problem) -> [UInt8] in
            var writer = JSONByteWriter()
            do throws(Problem) { try answer(f, apple, readsGamutMethod: readsGamutMethod, into: &writer) } catch {
                // `answer` wrote nothing: a gradient background or layer was not a color.
                guard hasGradient(f) else { throw error }
                try gradientAnswer(f, apple, request: request, into: &writer)
            }
            return writer.bytes
        }
    }

    /// A note when the 8-bit hex of the colors (what a designer copies) gets other WCAG verdicts
    /// than the colors as given: an `oklch()` pair at 4.5145 is `#fd9a00` on `#004f3b` at 4.4917
    /// (hostile test). Nil for 8-bit colors and when the verdicts agree.
    static func hexVerdictNote(_ fg: SIMD3<Double>, _ bg: SIMD3<Double>, ratio: Double) -> String? {
        let (fg8, bg8) = (EightBit.quantize(fg), EightBit.quantize(bg))
        guard fg8 != fg || bg8 != bg else { return nil }
        let ratio8 = WCAG.contrastRatio(WCAG.relativeLuminance(fg8), WCAG.relativeLuminance(bg8))
        guard ContrastJSON.verdictIndex(ratio8) != ContrastJSON.verdictIndex(ratio) else { return nil }
        return "as the 8-bit hex shown (\(ColorJSON.hex(fg8)) on \(ColorJSON.hex(bg8))) the ratio is \(WCAG.ratioText(ratio8)):1, "
            + "and a WCAG verdict changes: the verdicts here are for the colors as given; use /v1/suggest for a hex pair that passes"
    }

    /// What the other `gamutMethod` shows for an opaque pair, and its WCAG 2 ratio (WCAG 2.2
    /// SC 1.4.3), when a color lies outside sRGB. Measured with `css4`: what a browser that clips
    /// shows: Chromium 156 clips solid colors (`oklch(0.6 0.3 140)` paints `#00a400`, measured in
    /// headless Chromium; CSS Color 4 §13.2 maps it to `#039d00`), as it clips gradients (a new
    /// user's pass found the two disagree unexplained: 3.62:1 alone, 3.35:1 in a gradient).
    /// Measured with `clip`: what CSS Color 4's gamut mapping gives. Translucent colors are
    /// composited as the answer composites them (a hostile pass found the note missing there);
    /// nil when the other method shows the same 8-bit colors.
    static func otherGamutMethodNote(_ fg: ResolvedColor, _ bg: ResolvedColor, _ backdrop: ResolvedColor?, _ gamut: GamutMapping.Method) -> String? {
        // Clipped as a gradient's colors are: the note's pair is what the gradient measures.
        // As Chromium parses them (each read once).
        let (parsedFG, parsedBG) = (chromiumParsed(fg), chromiumParsed(bg))
        func other(_ c: ResolvedColor, _ parsed: Color) -> DisplayColor { gamut == .clip ? DisplayColor(c.color) : DisplayColor(clipping: parsed) }
        let m = ContrastMeasurement(foreground: other(fg, parsedFG), background: other(bg, parsedBG),
                                    backdrop: backdrop.map { other($0, chromiumParsed($0)).srgb })
        let (f, b) = (m.effectiveForeground, m.effectiveBackground)
        // Nothing to say when clipping shows the same 8-bit colors as the mapping (a new user's
        // pass: Tailwind's blue-500 was "#2b7fff on #ffffff: 3.76:1" beside that very answer).
        let shown = ContrastMeasurement(foreground: fg.display, background: bg.display, backdrop: backdrop?.display.srgb)
        if ColorJSON.hex(f) == ColorJSON.hex(shown.effectiveForeground), ColorJSON.hex(b) == ColorJSON.hex(shown.effectiveBackground) { return nil }
        let ratio = m.ratio
        if gamut == .clip {
            return "CSS Color 4 gamut mapping (gamutMethod css4, the default) shows \(ColorJSON.hex(f)) on \(ColorJSON.hex(b)): \(WCAG.ratioText(ratio)):1"
        }
        if let clamped = parsedFG != fg.color ? fg : parsedBG != bg.color ? bg : nil {
            return "Chromium 156 clamps this \(clamped.color.space == .hwb ? "hwb()'s negative whiteness or blackness to 0%" : "hsl()'s saturation to 100%") as it parses it, where CSS Color 4 keeps the color outside sRGB, and shows \(ColorJSON.hex(f)) on \(ColorJSON.hex(b)): \(WCAG.ratioText(ratio)):1; gamutMethod clip clips the color as CSS Color 4 reads it"
        }
        return "browsers that clip to sRGB instead (Chromium 156 does, in solid colors and gradients) show \(ColorJSON.hex(f)) on \(ColorJSON.hex(b)): \(WCAG.ratioText(ratio)):1; gamutMethod clip measures that"
    }

    /// `c` as Chromium 156 parses it, measured in headless Chromium (the computed style of each
    /// form): a literal `hwb()` with its whiteness and blackness at least 0% (`hwb(200 -10% 0%)`,
    /// `hwb(200 -10 0)` and `hwb(200 calc(-10%) 0%)` all paint #00aaff); a literal `hsl()` or
    /// `hsla()` written in lower case with plain components and its saturation as a percentage
    /// (`hsl(200 150% 50%)`, `hsl(200, 150%, 50%)`, `hsl(200deg 150% 50% / 0.5)`) with its
    /// saturation clamped to 100% (#00aaff), which Chromium's parser for such simple colors
    /// does, where its full parser, as CSS Color 4 §7, keeps the color outside sRGB
    /// (`hsl(200 150 50)`, `hsl(200 calc(150%) 50%)` and `HSL(200 150% 50%)` paint #00bfff, the
    /// clip). Else `c.color`: relative colors keep their values in Chromium too, and an `hsl()`
    /// inside another function (`light-dark()`, `color-mix()`) is not looked at (a note there
    /// names the clip). A front-end pass: the note had named #00bfff for `hsl(200, 150%, 50%)`.
    static func chromiumParsed(_ c: ResolvedColor) -> Color {
        let text = c.input.trimmingCharacters(in: .whitespaces)
        guard c.color.space == .hsl || c.color.space == .hwb, let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return c.color }
        let name = text[..<open]
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        // A relative color or var() is not read here.
        guard !inner.lowercased().contains("from"), !inner.contains("var(") else { return c.color }
        // `hwb()` clamps with math inside it too; `hsl()` only with plain components.
        if name.lowercased() == "hwb" { return clampedHWB(c.color) }
        guard name == "hsl" || name == "hsla", !inner.contains("(") else { return c.color }
        let parts = inner.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" || $0 == "\t" })
        guard parts.count >= 3, parts[1].hasSuffix("%") else { return c.color }
        var color = c.color
        color.coordinates.y = Swift.min(Swift.max(color.coordinates.y, 0), 100)
        return color
    }

    /// An `hwb()` color with its whiteness and blackness at least 0%.
    static func clampedHWB(_ color: Color) -> Color {
        var color = color
        color.coordinates.y = Swift.max(color.coordinates.y, 0)
        color.coordinates.z = Swift.max(color.coordinates.z, 0)
        return color
    }

    /// The note of an answer with a color outside sRGB: how it was brought into sRGB.
    static func gamutNote(_ gamut: GamutMapping.Method) -> String {
        gamut == .clip
            ? "colors outside sRGB were clipped into it channel by channel (gamutMethod clip, CSS Color 4 §13.1), as Chromium 156 paints them, before luminance was taken"
            : "colors outside sRGB were gamut-mapped with the CSS Color 4 algorithm (OKLCH chroma reduction) before luminance was taken"
    }

    /// A translucent Apple system color as the background, without a `backdrop` (`systemFill`):
    /// UIKit draws it over the system backgrounds of the request's context, so it is measured
    /// over each of them (systemBackground, secondary-, tertiary- and the grouped ones) and the
    /// weakest kept, with the name of the one under it; nil when none resolves. An iOS designer's
    /// pass, stop 39: `label` on dark `systemFill` had been measured over every gray, 1.56:1 on
    /// white, where over the dark system backgrounds it is 9.23:1 at the weakest (#2c2c2e).
    /// `/v1/pick` and `/v1/contrast/matrix` measure such a background the same way.
    @inline(never)
    static func overSystemBackgrounds(_ fg: ResolvedColor, _ bg: ResolvedColor, at path: FieldPath) throws(Problem) -> (ContrastMeasurement, String)? {
        weakest(fg.display, on: bg.display, over: try systemBackgrounds(at: path))
    }

    /// The opaque system backgrounds of the request's context (`AppleRequestScope.context`),
    /// as `"name #hex"` and sRGB, that a translucent system color is drawn over.
    static func systemBackgrounds(at path: FieldPath) throws(Problem) -> [(name: String, srgb: SIMD3<Double>)] {
        var out: [(name: String, srgb: SIMD3<Double>)] = []
        for name in ["systemBackground", "secondarySystemBackground", "tertiarySystemBackground",
                     "systemGroupedBackground", "secondarySystemGroupedBackground", "tertiarySystemGroupedBackground"] {
            guard let under = try resolveSystemColor(name, at: path, context: AppleRequestScope.context), under.display.alpha >= 1 else { continue }
            out.append(("\(name) \(ColorJSON.hex(under.display.srgb))", under.display.srgb))
        }
        return out
    }

    /// `fg` on `bg` over each of `unders`, the weakest (lowest ratio) with its name; nil when
    /// `unders` is empty.
    static func weakest(_ fg: DisplayColor, on bg: DisplayColor, over unders: [(name: String, srgb: SIMD3<Double>)]) -> (ContrastMeasurement, String)? {
        var weakest: (ContrastMeasurement, String)? = nil
        for under in unders {
            let m = ContrastMeasurement(foreground: fg, background: bg, backdrop: under.srgb)
            if weakest.map({ m.ratio < $0.0.ratio }) ?? true { weakest = (m, under.name) }
        }
        return weakest
    }

    /// Reads and validates the request, measures, and writes the answer into `out` (nothing is
    /// written when it throws).
    /// `readsGamutMethod`: the request has a `gamutMethod` member (found by `handle`).
    static func answer<S: JSONSink>(_ f: Fields, _ apple: AppleContrastOptions, readsGamutMethod: Bool = false,
                                    into out: inout S) throws(Problem) {
        let pair: ColorPairInput, gamut: GamutMapping.Method
        if readsGamutMethod {
            gamut = try ResolvedColor.gamutMethod(f)
            pair = gamut == .clip ? try f.colorPair().clippedIntoSRGB() : try f.colorPair()
        } else {
            (pair, gamut) = (try f.colorPair(), .css4)
        }
        let (hexOrder, fg, bg, backdrop) = (pair.hexOrder, pair.foreground, pair.background, pair.backdrop)
        var layerMapped = false
        let layers = try parseLayers(f, hexOrder: hexOrder, gamut: gamut, mapped: &layerMapped)
        let algorithm = try f.choice("algorithm", ContrastAlgorithm.self) ?? .wcag2
        let text = try apple.textSpec(orFrom: f)
        let shadowNote = try textShadowNote(f, hexOrder: hexOrder)

        let m: ContrastMeasurement
        let effectiveForeground: Bool, effectiveBackground: Bool
        let systemBackdrop: String?
        if let layers {
            // The background is the opaque page; layers nest on it and the text sits in the top one.
            var page = bg.display.srgb
            if bg.display.alpha < 1 {
                guard let backdrop else {
                    throw Problem.invalidField(f.field("background"), "with \(f.field("layers").display), \(f.field("background").display) is the page color and must be opaque (or give an opaque \(f.field("backdrop").display))")
                }
                page = Compositing.sourceOver(bg.display.srgb, alpha: bg.display.alpha, overOpaque: backdrop.display.srgb)
            }
            let top = Compositing.Layer(color: fg.display.srgb, alpha: fg.display.alpha)
            let effBg = Compositing.flatten(page: page, layers: layers)
            let effFg = Compositing.flatten(page: page, layers: layers, top: top)
            m = ContrastMeasurement.flattened(foreground: effFg, background: effBg)
            (effectiveForeground, effectiveBackground, systemBackdrop) = (true, true, nil)
        } else if bg.isTranslucentSystemColor, backdrop == nil,
                  let (weakest, name) = try overSystemBackgrounds(fg, bg, at: f.field("background")) {
            (m, systemBackdrop) = (weakest, name)
            (effectiveForeground, effectiveBackground) = (fg.display.alpha < 1, true)
        } else {
            m = ContrastMeasurement(foreground: fg.display, background: bg.display, backdrop: backdrop?.display.srgb)
            (effectiveForeground, effectiveBackground, systemBackdrop) = (fg.display.alpha < 1, bg.display.alpha < 1, nil)
        }

        if let text, text.unitAssumed { try APCAJSON.requireUnitWhereItMatters(lc: m.apcaLc, text: text, unitPath: f.field("fontSizeUnit")) }
        out.beginObject()
        // An opaque color outside layers is its own effective color: the measurement has its
        // luminances already (the hottest path: two colors' luminances not computed twice).
        let measured = layers == nil
        out.key("foreground")
        ColorJSON.describe(fg, luminances: measured && fg.display.alpha >= 1 ? (m.foregroundLuminance, m.apcaTextY) : nil, into: &out)
        out.key("background")
        ColorJSON.describe(bg, luminances: measured && bg.display.alpha >= 1 ? (m.backgroundLuminance, m.apcaBackgroundY) : nil, into: &out)
        if effectiveForeground {
            out.key("effectiveForeground")
            ColorJSON.effective(m.effectiveForeground, into: &out)
        }
        if effectiveBackground {
            out.key("effectiveBackground")
            ColorJSON.effective(m.effectiveBackground, into: &out)
        }
        ContrastJSON.ratioMembers(m, into: &out)
        out.key("wcag")
        ContrastJSON.wcagVerdicts(m.ratio, into: &out)
        if let text {
            out.key("text")
            ContrastJSON.textVerdict(text, ratio: m.ratio, into: &out)
        }
        out.key("apca")
        ContrastJSON.apca(m.apcaLc, text: text, into: &out)
        let usedSystemColor = fg.systemColor != nil || bg.systemColor != nil || backdrop?.systemColor != nil
        apple.annotate(into: &out, m, usedSystemColor: usedSystemColor)
        if algorithm != .wcag2 {
            out.member("algorithm", algorithm.rawValue)
            out.member("value", algorithm.value(of: m))
        }
        var notes: [String] = []
        if fg.display.wasGamutMapped || bg.display.wasGamutMapped || backdrop?.display.wasGamutMapped == true || layerMapped {
            notes.append(gamutNote(gamut))
            if layers == nil, let note = otherGamutMethodNote(fg, bg, backdrop, gamut) { notes.append(note) }
        }
        if let shadowNote { notes.append(shadowNote) }
        if let layers {
            if let note = layerOpacityNote(layers.map(\.opacity)) { notes.append(note) }
        } else if backdrop != nil && bg.display.alpha >= 1 {
            notes.append("backdrop was not used: the background is opaque, so nothing behind it shows through")
        }
        if let systemBackdrop {
            notes.append("backdrop: \(bg.input) is a translucent system color, drawn over the system backgrounds of its context: measured over each (systemBackground, secondary-, tertiary- and the grouped ones), the weakest on \(systemBackdrop); give backdrop to measure over another color")
        }
        if layers == nil && fg.display.alpha >= 1 && bg.display.alpha >= 1, let note = hexVerdictNote(fg.display.srgb, bg.display.srgb, ratio: m.ratio) {
            notes.append(note)
        }
        if !notes.isEmpty {
            out.key("notes")
            out.array { a in for note in notes { a.string(note) } }
        }
        out.endObject()
    }

    /// `textShadow` (CSS `text-shadow`, comma-separated shadows of `offsetX offsetY [blur] [color]`).
    /// A shadow with zero offsets and zero blur lies entirely behind the glyphs, and one of a fully
    /// transparent color paints nothing: neither has a visible effect, so it is ignored (field
    /// case C44). Any visible shadow changes what surrounds the
    /// glyph edges, which a single ratio cannot express: 422 rather than a guess.
    static func textShadowNote(_ f: Fields, hexOrder: HexOrder) throws(Problem) -> String? {
        guard let raw = try f.string("textShadow", maxLength: 512) else { return nil }
        let path = f.field("textShadow")
        if raw.trimmingWhitespace(newlines: false).lowercased() == "none" { return nil }
        for shadow in splitTopLevel(raw, separator: ",") {
            var lengths: [Double] = []
            var colorParts: [String] = []
            for token in splitTopLevel(shadow, separator: " ") where !token.isEmpty {
                if let length = cssLength(token), colorParts.isEmpty || lengths.isEmpty {
                    lengths.append(length)
                } else {
                    colorParts.append(token)
                }
            }
            guard (2...3).contains(lengths.count) else {
                throw Problem.invalidField(path, "\(path.display) must be CSS text-shadow: 2 or 3 lengths and an optional color per shadow, got \(ClientText.quoted(shadow))")
            }
            if lengths.count == 3 && lengths[2] < 0 {
                throw Problem.invalidField(path, "\(path.display): a text-shadow blur radius cannot be negative (CSS Text Decoration 3 §4), got \(ClientText.quoted(shadow))")
            }
            // A fully transparent shadow (`transparent`, alpha 0) paints nothing wherever it
            // lies (a hostile pass had it called visible).
            if !colorParts.isEmpty, try resolveColor(colorParts.joined(separator: " "), at: path, hexOrder: hexOrder).display.alpha == 0 { continue }
            if lengths.contains(where: { $0 != 0 }) {
                throw Problem.unsupportedColor(path, "\(path.display) has a visible shadow (offset or blur); its effect on legibility is not a single contrast ratio. Measure the text against the shadow color as the background, or remove the shadow")
            }
        }
        return "textShadow has no visible effect (zero offset and zero blur, so it lies behind the glyphs, or a fully transparent color) and was ignored"
    }

    /// A CSS length in px-like units (`0`, `2px`, `0.5em`…); only whether it is zero matters here.
    static func cssLength(_ token: String) -> Double? {
        let t = token.lowercased()
        let units = ["px", "em", "rem", "pt", "pc", "in", "cm", "mm", "q", "ex", "ch", "vw", "vh", "vmin", "vmax"]
        var number = t
        if let unit = units.first(where: { t.hasSuffix($0) && t.count > $0.count }) { number = String(t.dropLast(unit.count)) }
        guard let d = Fields.decimal(number) else { return nil }
        if number == t && d != 0 { return nil }  // a unitless length must be 0
        return d
    }

    /// Splits on `separator` outside parentheses.
    static func splitTopLevel(_ s: String, separator: Character) -> [String] {
        var parts: [String] = [], current = "", depth = 0
        for ch in s {
            if ch == "(" { depth += 1 } else if ch == ")" { depth = max(0, depth - 1) }
            if ch == separator && depth == 0 { parts.append(current); current = "" } else { current.append(ch) }
        }
        parts.append(current)
        return parts.map { $0.trimmingWhitespace(newlines: false) }.filter { !$0.isEmpty || separator == "," }
    }

    /// The note for layers of group opacity below 1 (`opacities`, bottom to top): the layers
    /// nest and the text sits in the top one, so every such opacity fades the text too. A new
    /// user's pass meant a 5% black overlay under opaque text and got the text at 5%, with every
    /// fix null and no word why; another set the opacity on a lower layer and had no note at all
    /// (the note had named only the top layer, and advised moving the overlay below it, where its
    /// opacity applies to the text all the same).
    static func layerOpacityNote(_ opacities: [Double]) -> String? {
        let fading = opacities.indices.filter { opacities[$0] < 1 }
        guard !fading.isEmpty else { return nil }
        let parts = fading.prefix(3).map { "\(Fields.format(opacities[$0])) of /layers/\($0)" }
        let named = fading.count == 1 ? "opacity \(parts[0]) applies"
            : "opacities " + parts.dropLast().joined(separator: ", ") + (fading.count > 3 ? ", …" : "") + " and \(parts[parts.count - 1]) apply"
        // To 4 decimals: 0.8 × 0.4 × 0.9 had been "0.2880000000000001" (a hostile pass).
        let seen = Fields.format((fading.reduce(1.0) { $0 * opacities[$1] } * 10_000).rounded() / 10_000)
        let first = Fields.format(opacities[fading[0]])
        return "the layers nest and the text sits in the top one, so the \(named) to the text too: the text is seen at \(seen) of its own alpha; for a translucent overlay under opaque text, give that layer's color an alpha instead (\"rgb(0 0 0 / \(first))\") and leave its opacity 1"
    }

    /// The `layers` of `f`, each color's display clipped into sRGB when `gamut` is `.clip`;
    /// `mapped` is set when a layer's color lay outside sRGB.
    static func parseLayers(_ f: Fields, hexOrder: HexOrder, gamut: GamutMapping.Method, mapped: inout Bool) throws(Problem) -> [Compositing.Layer]? {
        guard let items = try f.array("layers", maxCount: maxLayers) else { return nil }
        var layers: [Compositing.Layer] = []
        for (i, item) in items.enumerated() {
            let path = f.field("layers").appending(index: i)
            func shown(_ c: ResolvedColor) -> DisplayColor {
                if c.display.wasGamutMapped { mapped = true }
                return gamut == .clip ? c.clippedIntoSRGB().display : c.display
            }
            switch item {
            case .string(let s):
                let c = shown(try resolveColor(s, at: path, hexOrder: hexOrder))
                layers.append(Compositing.Layer(color: c.srgb, alpha: c.alpha))
            case .object(let o):
                let lf = Fields(object: o, path: path, fromQuery: f.fromQuery)
                try lf.rejectUnknown(["color", "opacity"])
                let c = shown(try lf.color("color", required: true, hexOrder: hexOrder)!)
                let opacity = try lf.number("opacity", in: 0...1) ?? 1
                layers.append(Compositing.Layer(color: c.srgb, alpha: c.alpha, opacity: opacity))
            default:
                throw Problem.invalidField(path, "\(path.display) must be a color string or {\"color\", \"opacity\"}, not \(item.typeName)")
            }
        }
        return layers
    }
}
