import ColorScience
import HTTPServer
import JSONValue

/// `/v1/contrast` with a CSS gradient as the `background` or as one of the `layers`.
///
/// Request members besides those of a plain pair: `box` (`{"width", "height"}` in CSS px,
/// `1...16384`; in a query `width,height`): the size of the element the gradient fills, which
/// places corners, radial ending shapes and conic centers; `region` (`{"x", "y", "width",
/// "height"}` in px from the box's top-left corner; in a query `x,y,width,height`; needs `box`,
/// must lie in it): the part under the text. Without a box the whole gradient line, ray or turn
/// is measured (a box's aspect ratio matters only for `to <corner>`, radial and conic shapes).
///
/// At most one gradient per request. A gradient with translucent stops needs something opaque
/// behind it: the page (`background`, when the gradient is a layer) or `backdrop`.
///
/// The answer keeps the plain pair's shape, for the worst case: `ratio`, `ratioText`, `wcag`,
/// `text` are for the lowest ratio, `apca` for the weakest |Lc|, `effectiveForeground` and
/// `effectiveBackground` the colors there; `gradient` adds where it is and the rest (see
/// `writeGradient`). Measured by `GradientContrast` (CSS Images 3 §3, CSS Images 4 §3, CSS
/// Color 4 §12).
extension ContrastEndpoint {
    /// Members read only with a gradient.
    static let gradientFields: Set<String> = ["box", "region", "target"]

    /// `target` for a gradient's `fixes`: a WCAG level sized by the text (`AA`, the default,
    /// `AAA`, `AA-large`, `AAA-large`, `non-text`, `hig`), a ratio (`7`, `"7:1"`, `1...21`).
    /// The fixes are searched for a WCAG ratio (the text color from the gradient's luminance
    /// range), so an APCA target is refused (400), as is one written wrong.
    static func gradientFixTarget(_ f: Fields, text: TextSpec?) throws(Problem) -> ContrastTarget {
        let path = f.field("target")
        guard let v = f.value("target") else {
            return text?.isLarge == true ? .ratio(WCAG.aaLargeText, basis: "WCAG 2.2 AA, large text") : .ratio(WCAG.aaNormalText, basis: "WCAG 2.2 AA, normal text")
        }
        if let r = try TargetInput.ratioText(v, at: path) { return .ratio(r) }
        let target = try TargetInput.parse(v, at: path, fromQuery: f.fromQuery, text: text, textPath: f.field("fontSize"))
        guard target.metric == .wcag2 else {
            throw Problem.invalidField(path, "\(path.display) must be a WCAG target here, not an APCA one (\(target.basis)): a gradient's fixes are searched for a WCAG ratio; give AA, AAA or a ratio such as 7:1 (the answer's apca gives the weakest Lc on the gradient)")
        }
        return target
    }

    /// Whether `s` is a gradient: written as one, or a `var()` that the request's `variables`
    /// make one (`"background": "var(--hero)"` with `"--hero": "linear-gradient(…)"`: a new
    /// user's pass, stop 38, had been told "unknown color function 'linear-gradient()'").
    /// Without `variables` a `var()` takes its fallback, as in a color member
    /// (`var(--hero, linear-gradient(…))` had been read as a color and refused).
    /// Substitution is bounded by `CSSVariables`; a failed one is not a gradient (the color
    /// reading then names the fault).
    static func isGradientText(_ s: String) -> Bool {
        if CSSGradient.looksLikeGradient(s) { return true }
        guard CSSVariables.mayReferToVariables(s),
              let substituted = try? (CSSRequestScope.variables ?? CSSVariables([:])).substitute(in: s) else { return false }
        return CSSGradient.looksLikeGradient(substituted)
    }

    /// Whether the request has a gradient as `background` or in `layers` (looked at without
    /// parsing; asked only once a plain reading has failed, so a plain pair pays nothing).
    static func hasGradient(_ f: Fields) -> Bool { gradientMember(f) != nil }

    /// Where the request's gradient is: `background`, `layers` (a string), a layer, or a layer's
    /// `color`; nil without one (the batch names it: a designer's pass had a gradient layer
    /// reported at the background).
    static func gradientMember(_ f: Fields) -> FieldPath? {
        if case .string(let s)? = f.value("background"), isGradientText(s) { return f.field("background") }
        switch f.value("layers") {
        case .string(let s)?: return isGradientText(s) ? f.field("layers") : nil
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                let at = f.field("layers").appending(index: i)
                switch item {
                case .string(let s) where isGradientText(s): return at
                case .object(let o):
                    if case .string(let s)? = o["color"], isGradientText(s) { return at.appending("color") }
                default: break
                }
            }
            return nil
        default: return nil
        }
    }

    /// One layer of the stack over the page: a color, or the gradient (`color` unused).
    private enum StackLayer {
        case color(Compositing.Layer)
        case gradient(opacity: Double)
    }

    /// The gradient answer (see the type's comment); nothing is written when it throws.
    /// A gradient request moves off the HTTP worker threads to the heavy-work pool (where it is
    /// measured again from the start) when its measurement is estimated at more than
    /// `heavyGradientUnits` (`GradientContrast.estimatedCost` units, about 0.4 µs each, times the
    /// layers composited at each color), or when its work on the worker thread passes
    /// `InlineWork.nanoseconds` at a check (after the measurement, before each fix's): the
    /// fixes' cost is known only as they run. A hostile pass's 2.7 KB request (a repeating
    /// 64-stop `in oklch longer hue` layer under 31 translucent layers, translucent text) took
    /// 100–150 ms on a worker thread, and four clients sending it held small requests 220 ms
    /// (median); a designer's two-stop gradient takes 0.8 ms (`#fff` on the README's), 6 ms
    /// with its fixes in OKLCH (measured in a release build, docs/performance.md).
    static let heavyGradientUnits = 20_000

    /// The answer for a gradient background or layer; `request` says whether the work may move
    /// to the heavy-work pool and how soon (`InlineWork`).
    static func gradientAnswer<S: JSONSink>(_ f: Fields, _ apple: AppleContrastOptions, request: HTTPRequest,
                                            into out: inout S) throws(Problem) {
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        // Gradient colors are clipped as browsers paint them; `gamutMethod: "clip"` clips the
        // text and backdrop alike.
        let gamut = try ResolvedColor.gamutMethod(f)
        var fg = try f.color("foreground", required: true, hexOrder: hexOrder)!
        var backdrop = try f.opaqueBackdrop(hexOrder: hexOrder)
        if gamut == .clip { (fg, backdrop) = (fg.clippedIntoSRGB(), backdrop?.clippedIntoSRGB()) }
        // The box first: it places px stop positions.
        let box = try f.gradientBox()
        var gradient: GradientInput? = nil
        func parse(_ s: String, at path: FieldPath) throws(Problem) -> GradientInput {
            try resolveGradient(s, at: path, hexOrder: hexOrder, box: box,
                                boxHint: f.fromQuery ? " (\(f.field("box").display), e.g. box=320,120)" : " (\(f.field("box").display): {\"width\": 320, \"height\": 120})")
        }
        func take(_ s: String, at path: FieldPath) throws(Problem) -> GradientInput {
            try take(parse(s, at: path), at: path)
        }
        func take(_ g: GradientInput, at path: FieldPath) throws(Problem) -> GradientInput {
            if let first = gradient {
                throw Problem.invalidField(path, "\(path.display) is a second gradient; one request measures one gradient (the first is \(first.path.display)): measure each separately")
            }
            gradient = g
            return g
        }

        // The page: the background color, or the gradient.
        var pageColor: ResolvedColor? = nil
        let bgPath = f.field("background")
        guard let bgValue = f.value("background") else {
            throw Problem.invalidField(bgPath, "\(bgPath.display) is required: give a CSS color or gradient")
        }
        guard case .string(let bgText) = bgValue else {
            throw Problem.invalidField(bgPath, "\(bgPath.display) must be a CSS color or gradient string, not \(bgValue.typeName)")
        }
        if isGradientText(bgText) { _ = try take(bgText, at: bgPath) } else {
            pageColor = try resolveColor(bgText, at: bgPath, hexOrder: hexOrder)
        }
        // Layers over it, bottom to top.
        var stack: [StackLayer] = []
        // A layer written as a gradient of one color (`linear-gradient(rgb(0 0 0 / 0.4), rgb(0 0 0 / 0.4))`,
        // as CSS writes a uniform layer and this route's scrim fixes give it) is that color next to
        // another gradient: a new user pasting a fix back into `layers` had been told it was a
        // second gradient. Alone it is the gradient measured, as before; a later gradient with
        // more than one color takes its place, and it becomes a color layer.
        var uniformGradientLayer: (index: Int, layer: Compositing.Layer)? = nil
        func layer(_ s: String, at path: FieldPath, opacity: Double) throws(Problem) -> StackLayer {
            let g = try parse(s, at: path)
            let uniform = g.gradient.uniformColor.map { Compositing.Layer(color: $0.srgb, alpha: $0.alpha, opacity: opacity) }
            if let uniform, gradient != nil { return .color(uniform) }
            if let taken = uniformGradientLayer {
                stack[taken.index] = .color(taken.layer)
                (gradient, uniformGradientLayer) = (nil, nil)
            }
            _ = try take(g, at: path)
            if let uniform { uniformGradientLayer = (stack.count, uniform) }
            return .gradient(opacity: opacity)
        }
        let hasLayers = f.has("layers")
        if let items = try f.array("layers", maxCount: maxLayers) {
            for (i, item) in items.enumerated() {
                let path = f.field("layers").appending(index: i)
                switch item {
                case .string(let s) where isGradientText(s):
                    stack.append(try layer(s, at: path, opacity: 1))
                case .string(let s):
                    let c = try resolveColor(s, at: path, hexOrder: hexOrder)
                    stack.append(.color(Compositing.Layer(color: c.display.srgb, alpha: c.display.alpha)))
                case .object(let o):
                    let lf = Fields(object: o, path: path, fromQuery: f.fromQuery)
                    try lf.rejectUnknown(["color", "opacity"])
                    let opacity = try lf.number("opacity", in: 0...1) ?? 1
                    if case .string(let s)? = lf.value("color"), isGradientText(s) {
                        stack.append(try layer(s, at: lf.field("color"), opacity: opacity))
                    } else {
                        let c = try lf.color("color", required: true, hexOrder: hexOrder)!
                        stack.append(.color(Compositing.Layer(color: c.display.srgb, alpha: c.display.alpha, opacity: opacity)))
                    }
                default:
                    throw Problem.invalidField(path, "\(path.display) must be a color or gradient string or {\"color\", \"opacity\"}, not \(item.typeName)")
                }
            }
        }
        guard let gradient else {
            throw Problem.invalidField(bgPath, "\(bgPath.display) must be a CSS color or gradient")   // hasGradient said otherwise
        }
        let region = try f.gradientRegion(box: box)
        let algorithm = try f.choice("algorithm", ContrastAlgorithm.self) ?? .wcag2
        let text = try apple.textSpec(orFrom: f)
        let shadowNote = try textShadowNote(f, hexOrder: hexOrder)

        // What lies behind the gradient when it is the page, or the page under it when a layer.
        var page = SIMD3<Double>(1, 1, 1)
        if let pageColor {
            page = pageColor.display.srgb
            if pageColor.display.alpha < 1 {
                guard let backdrop else {
                    throw Problem.invalidField(bgPath, "with \(f.field("layers").display), \(bgPath.display) is the page color and must be opaque (or give an opaque \(f.field("backdrop").display))")
                }
                page = Compositing.sourceOver(pageColor.display.srgb, alpha: pageColor.display.alpha, overOpaque: backdrop.display.srgb)
            }
        } else if gradient.isTranslucent {
            guard let backdrop else {
                throw Problem.invalidField(bgPath, "\(bgPath.display) has translucent color stops: give an opaque \(f.field("backdrop").display), the color that shows through them")
            }
            page = backdrop.display.srgb
        }
        let textLayer = Compositing.Layer(color: fg.display.srgb, alpha: fg.display.alpha)
        // Estimated before any of it is paid: one measurement, times the layers composited at
        // each color; the fixes measure it again within `fixSampleBudget`, checked as they run.
        let inline = InlineWork(request)
        if inline.mayMove,
           GradientContrast.estimatedCost(of: gradient.gradient, textIsOpaque: fg.display.alpha >= 1) * (1 + stack.count) > heavyGradientUnits {
            throw Problem.moveToHeavyPool
        }
        let gradientIsPage = pageColor == nil
        /// The gradient measured with `textLayer` as the text, and `scrim` (a fix) between the
        /// background and the text.
        func measure(_ textLayer: Compositing.Layer, scrim: Compositing.Layer? = nil) -> GradientContrast {
            GradientContrast(gradient: gradient.gradient, box: box, region: region) { rgb, alpha in
                if !hasLayers {
                    var bg = GradientContrast.seen(rgb, alpha: alpha, over: page)
                    if let scrim { bg = Compositing.sourceOver(scrim.color, alpha: scrim.alpha, overOpaque: bg) }
                    let tx = textLayer.alpha < 1 ? Compositing.sourceOver(textLayer.color, alpha: textLayer.alpha, overOpaque: bg) : textLayer.color
                    return (bg, tx)
                }
                var layers: [Compositing.Layer] = []
                layers.reserveCapacity(stack.count + 1)
                var base = page
                if gradientIsPage { base = GradientContrast.seen(rgb, alpha: alpha, over: page) }
                for l in stack {
                    switch l {
                    case .color(let c): layers.append(c)
                    case .gradient(let opacity): layers.append(Compositing.Layer(color: rgb, alpha: alpha, opacity: opacity))
                    }
                }
                if let scrim { layers.append(scrim) }
                return (Compositing.flatten(page: base, layers: layers), Compositing.flatten(page: base, layers: layers, top: textLayer))
            }
        }
        let measured = measure(textLayer)
        let worst = measured.min
        let fixTarget = try gradientFixTarget(f, text: text)
        let target = fixTarget.minimum
        if worst.ratio < target { try inline.check() }
        let m = ContrastMeasurement.flattened(foreground: worst.text, background: worst.background)
        if let text { try APCAJSON.requireUnitWhereItMatters(lc: measured.weakestLc.lc, text: text, unitPath: f.field("fontSizeUnit")) }

        out.beginObject()
        out.key("foreground")
        ColorJSON.describe(fg, into: &out)
        out.key("background")
        if let pageColor { ColorJSON.describe(pageColor, into: &out) } else {
            out.object { o in
                o.member("input", gradient.input)
                o.member("kind", "gradient")
            }
        }
        if fg.display.alpha < 1 || hasLayers {
            out.key("effectiveForeground")
            ColorJSON.effective(worst.text, into: &out)
        }
        out.key("effectiveBackground")
        ColorJSON.effective(worst.background, into: &out)
        out.member("ratio", worst.ratio)
        out.member("ratioText", WCAG.ratioText(worst.ratio))
        out.key("wcag")
        ContrastJSON.wcagVerdicts(worst.ratio, into: &out)
        if let text {
            out.key("text")
            ContrastJSON.textVerdict(text, ratio: worst.ratio, into: &out)
        }
        out.key("apca")
        ContrastJSON.apca(measured.weakestLc.lc, text: text, into: &out)
        out.key("gradient")
        writeGradient(gradient, measured, box: box, region: region, into: &out)
        // The fixes, when the weakest ratio misses the target (WCAG AA for the text's size).
        if worst.ratio < target {
            out.key("fixes")
            var moved = false
            writeGradientFixes(target: target, basis: fixTarget.basis, gradient: gradient.input, overLayers: hasLayers,
                               baseSamples: measured.samples,
                               text: textLayer, measure: measure, into: &out, shouldMove: {
                                   moved = moved || inline.isOver
                                   return moved
                               })
            if moved { throw Problem.moveToHeavyPool }
        }
        apple.annotate(into: &out, m, usedSystemColor: fg.systemColor != nil || pageColor?.systemColor != nil || backdrop?.systemColor != nil)
        if algorithm != .wcag2 {
            out.member("algorithm", algorithm.rawValue)
            out.member("value", algorithm.value(of: m))
        }
        var notes: [String] = gradient.notes
        if fg.display.wasGamutMapped {
            notes.append(gamutNote(gamut))
        }
        notes += gradientNotes(gradient, box: box)
        if let shadowNote { notes.append(shadowNote) }
        let opacities = stack.map { layer -> Double in
            switch layer {
            case .color(let c): return c.opacity
            case .gradient(let opacity): return opacity
            }
        }
        if let note = layerOpacityNote(opacities) { notes.append(note) }
        if algorithm != .wcag2 { notes.append("value is \(algorithm.rawValue) at the lowest WCAG ratio's colors") }
        if backdrop != nil && !gradient.isTranslucent && (pageColor?.display.alpha ?? 1) >= 1 {
            notes.append("backdrop was not used: nothing translucent lies over it")
        }
        if !notes.isEmpty {
            out.key("notes")
            out.array { a in for note in notes { a.string(note) } }
        }
        out.endObject()
    }

    /// The most gradient colors the scrim searches of one answer may measure (about 50 ms).
    static let fixSampleBudget = 100_000

    /// `fixes` (see `GradientFixes`), each measured again on the whole gradient (or region) and
    /// written with `after` (`ratio`, `ratioText`, `apcaLc` weakest, `passes`): `target` (the
    /// request's WCAG target, `gradientFixTarget`; by default AA for the text's size), `scrim` (`black`, `white`: `alpha`, `css`, with `layers` a
    /// `placement`; nil when even an opaque one misses; the opaque one with `lightest: false` when
    /// the search ran out of `fixSampleBudget`, then also `complete: false` and a `note`;
    /// `recommended`, the lighter passing one) and `textColor` (the nearest text color of the same
    /// OKLCH hue: `hex`, `deltaEOK`, `direction` (`lighter`, `darker`: white text can only pass by
    /// turning dark); nil when none of that hue passes or the text is translucent). Costs at most
    /// 61 measurements: 2 for the gradient's luminance range, up to 26 + 3 for each scrim (the
    /// search, the alpha as written and up to two 0.001 lighter), 1 for the color; usually about
    /// 17 (an opaque scrim that cannot pass is not searched; one under which the weakest ratio must
    /// rise is bisected in 11); the scrims' within `fixSampleBudget` gradient colors. When
    /// `shouldMove` (asked before each measurement after the first) says true, the rest is not
    /// measured: the caller discards the answer and moves the request to the heavy-work pool.
    static func writeGradientFixes<S: JSONSink>(target: Double, basis: String, gradient: String, overLayers: Bool,
                                                baseSamples: Int, text: Compositing.Layer,
                                                measure: (Compositing.Layer, Compositing.Layer?) -> GradientContrast,
                                                into out: inout S, shouldMove: () -> Bool = { false }) {
        func after(_ ratio: Double, _ lc: Double, into o: inout S) {
            o.object("after") { a in
                a.member("ratio", ratio)
                a.member("ratioText", WCAG.ratioText(ratio))
                a.member("apcaLc", lc)
                a.member("passes", ratio >= target)
            }
        }
        // The scrims' measurements are searched (a layer over the gradient), each up to tens of
        // thousands of colors on a gradient of 64 stops turning the hue: their colors are
        // counted, and once `fixSampleBudget` is spent no further scrim is measured (a hostile
        // pass: 57 such measurements took a second).
        var spent = 0, stopped = false, largest = baseSamples
        func budgeted(_ scrim: Compositing.Layer) -> GradientContrast? {
            // The next measurement is taken to cost as much as the dearest so far (one had cost
            // 60 times the gradient's own measurement, a hostile pass), so the budget is not overrun.
            guard !stopped, spent + largest < fixSampleBudget, !shouldMove() else { stopped = true; return nil }
            let m = measure(text, scrim)
            spent += m.samples
            largest = Swift.max(largest, m.samples)
            return m
        }
        // The gradient's darkest and lightest luminances (black and white text on it), unless
        // one measurement of this gradient is already a third of the budget (a hostile pass: a
        // flat layer over a 64-stop conic gradient, 160,000 colors a measurement).
        let affordable = baseSamples * 3 <= fixSampleBudget && !shouldMove()
        if !affordable { stopped = true }
        let range = affordable ? GradientFixes.luminanceRange(
            weakestWithWhite: measure(Compositing.Layer(color: SIMD3(1, 1, 1), alpha: 1), nil).min.ratio,
            weakestWithBlack: measure(Compositing.Layer(color: SIMD3(0, 0, 0), alpha: 1), nil).min.ratio) : nil
        let textL = text.alpha >= 1 ? WCAG.relativeLuminance(text.color) : nil
        // Whether a fix turns the polarity: opaque text on one side of every gradient color before
        // (a new user's pass: black at 0.88 was recommended for blue text on a pale banner, which
        // it turns near-black, where a slightly darker blue passed), on the other after.
        // The text is dark when no gradient color is darker (it may equal the darkest: white text
        // on a gradient ending in white is light text, a new user's pass), light when none is
        // lighter; text inside the range, or a gradient of its one luminance, has no polarity.
        let darkText: Bool? = textL.flatMap { l in
            range.flatMap { r in l <= r.lowerBound && l < r.upperBound ? true : l >= r.upperBound && l > r.lowerBound ? false : nil }
        }
        func reverses(_ after: (text: SIMD3<Double>, background: SIMD3<Double>)) -> Bool {
            guard let darkText else { return false }
            return darkText != (WCAG.relativeLuminance(after.text) < WCAG.relativeLuminance(after.background))
        }
        var scrims: [(kind: GradientScrimFix.Kind, fix: GradientScrimFix?)] = []
        for kind in GradientScrimFix.Kind.allCases {
            let color = kind.color
            // An opaque scrim shows the text on its color alone: when that misses, none passes.
            let seen = text.alpha >= 1 ? text.color : Compositing.sourceOver(text.color, alpha: text.alpha, overOpaque: color)
            let opaque = ContrastMeasurement.flattened(foreground: seen, background: color)
            guard opaque.ratio >= target else {
                scrims.append((kind, nil))
                continue
            }
            // Searched to pass as painted: the weakest color with each channel two 8-bit steps
            // toward the text, the gradient's and the scrim's rounding (`GradientFixes.paintedRatio`);
            // `after` gives the exact ratio.
            func painted(_ m: GradientContrast) -> Double { GradientFixes.paintedRatio(text: m.min.text, background: m.min.background, steps: 2) }
            func margin(_ a: Double) -> Double {
                budgeted(Compositing.Layer(color: color, alpha: a)).map { painted($0) - target } ?? -.infinity
            }
            // Opaque text lighter than every color under black, or darker than every color under
            // white: the weakest ratio rises with the opacity, and bisection finds it in 11
            // measurements; otherwise the scan.
            let rising = textL.flatMap { l in range.map { kind == .black ? l >= $0.upperBound : l <= $0.lowerBound } } ?? false
            let found = rising ? GradientFixes.lightestScrim(rising: margin) : GradientFixes.lightestScrim(margin: margin)
            var fix: GradientScrimFix? = nil
            if let a = found, !stopped {
                // Written to 3 decimals, rounded up, then as light as passes (bisection leaves up to
                // 1/2048 above the threshold, so 0.001 lighter could pass too: a hostile pass).
                var alpha = Swift.min((a * 1000).rounded(.up) / 1000, 1)
                var m = budgeted(Compositing.Layer(color: color, alpha: alpha))
                for _ in 0..<2 where alpha > 0.001 && m != nil {
                    guard let lighter = budgeted(Compositing.Layer(color: color, alpha: alpha - 0.001)), painted(lighter) >= target else { break }
                    alpha -= 0.001
                    m = lighter
                }
                if let m, painted(m) >= target {
                    fix = GradientScrimFix(alpha: alpha, ratio: m.min.ratio, lc: m.weakestLc.lc, lightest: true, reversesPolarity: reverses((m.min.text, m.min.background)))
                }
            }
            // Out of budget: the opaque scrim, which passes (the text on its color alone).
            if fix == nil && stopped {
                fix = GradientScrimFix(alpha: 1, ratio: opaque.ratio, lc: opaque.apcaLc, lightest: false, reversesPolarity: reverses((seen, color)))
            }
            scrims.append((kind, fix))
        }
        func polarityNote(into o: inout S) {
            o.member("reversesPolarity", true)
            // Said plainly (a new user's pass read the earlier wording three times).
            o.member("note", darkText == true ? "this fix turns the design around: the dark text ends up lighter than what lies under it (light text on a dark background)"
                                 : "this fix turns the design around: the light text ends up darker than what lies under it (dark text on a light background)")
        }
        var textColor: (hex: String, deltaEOK: Double, direction: String, after: GradientContrast)? = nil
        if text.alpha >= 1, let range, !shouldMove() {
            // Searched against the range as painted (each end one 8-bit step wider), so that it
            // passes on the pixels a browser draws too.
            let paintedRange = GradientFixes.paintedRange(range)
            let found = NearestPassingColor.nearest(to: DisplayColor(srgb: text.color)) { c in
                GradientFixes.wcagMargin(text: WCAG.relativeLuminance(c.srgb), backgrounds: paintedRange, target: target)
            }
            if found.move.passes {
                let c = found.move.color.srgb
                textColor = (ColorJSON.hex(c), found.move.deltaEOK, found.move.direction.rawValue, measure(Compositing.Layer(color: c, alpha: 1), nil))
            }
        }
        out.object { o in
            o.object("target") { t in
                t.member("metric", "wcag2")
                t.member("minimum", target)
                t.member("basis", basis)
            }
            o.object("scrim") { so in
                for (kind, fix) in scrims {
                    guard let scrim = fix else { so.key(kind.name); so.null(); continue }
                    so.object(kind.name) { x in
                        let channel = kind.cssChannels
                        let alpha = scrim.alpha == 1 ? "1" : "\(scrim.alpha)"
                        x.member("alpha", scrim.alpha)
                        if overLayers {
                            // Measured above the layers too: over the gradient alone it would lie under them.
                            x.member("css", "background: rgb(\(channel) / \(alpha))")
                            // Layers nest (each a child of the one below, the text inside the
                            // topmost), and the scrim is measured as one more: inside a layer's
                            // opacity group, not above it (a new user's pass: "above … all its
                            // layers" measured 4.70:1 by hand where `after` said 4.62:1).
                            x.member("placement", "an element nested in the topmost layer and wrapping the text, as one more layer: inside every layer's opacity, as the text is")
                        } else {
                            x.member("css", "background-image: linear-gradient(rgb(\(channel) / \(alpha)), rgb(\(channel) / \(alpha))), \(gradient)")
                        }
                        if !scrim.lightest { x.member("lightest", false) }
                        if scrim.reversesPolarity { polarityNote(into: &x) }
                        after(scrim.ratio, scrim.lc, into: &x)
                    }
                }
                // The lighter of those that pass, one that keeps the polarity before one that turns it;
                // none when each turns it and the text color keeps it (a new user's pass, stop 43:
                // black at 0.888 was recommended for blue text on a pale banner, which it turns
                // near-black, where a blue 0.08 ΔEOK darker passed).
                let passing = scrims.compactMap { s in s.fix.map { (s.kind, $0) } }.filter { $0.1.ratio >= target }
                let best = passing.min(by: { ($0.1.reversesPolarity ? 1 : 0, $0.1.alpha) < ($1.1.reversesPolarity ? 1 : 0, $1.1.alpha) })
                let textColorKeeps = textColor.map { $0.after.min.ratio >= target && !reverses(($0.after.min.text, $0.after.min.background)) } ?? false
                var notes: [String] = []
                if let best, !(best.1.reversesPolarity && textColorKeeps) {
                    so.member("recommended", "\(best.0.name)")
                } else {
                    so.key("recommended"); so.null()
                    if best != nil { notes.append("every scrim that passes turns the text's polarity (reversesPolarity), and textColor passes keeping it: no scrim is recommended") }
                }
                if stopped {
                    so.member("complete", false)
                    notes.append("the search stopped after measuring \(spent) gradient colors (at most \(fixSampleBudget)): a scrim marked lightest: false is the opaque one, which passes, and a lighter one may too; a gradient with fewer stops or less hue turned measures faster")
                }
                if !notes.isEmpty { so.member("note", notes.joined(separator: "; ")) }
            }
            if let textColor {
                o.object("textColor") { t in
                    t.member("hex", textColor.hex)
                    t.member("deltaEOK", textColor.deltaEOK)
                    t.member("direction", textColor.direction)
                    if reverses((textColor.after.min.text, textColor.after.min.background)) { polarityNote(into: &t) }
                    after(textColor.after.min.ratio, textColor.after.weakestLc.lc, into: &t)
                }
            } else {
                o.key("textColor")
                o.null()
            }
        }
    }

    /// `box` (`width`, `height`) and `region` (`x`, `y`, `width`, `height`), in CSS px, each when given.
    static func writeBoxAndRegion<S: JSONSink>(_ box: CSSGradient.Box?, _ region: CSSGradient.Region?, into o: inout S) {
        if let box {
            o.object("box") { b in
                b.member("width", box.width)
                b.member("height", box.height)
            }
        }
        if let region {
            o.object("region") { r in
                r.member("x", region.x)
                r.member("y", region.y)
                r.member("width", region.width)
                r.member("height", region.height)
            }
        }
    }

    /// What the answer says of the gradient itself, whoever's text is on it: colors outside sRGB
    /// clipped as browsers paint them, the solid color measured for a gradient of no size or no
    /// length, a gray stop whose hue Chromium sweeps (`/v1/contrast`, `/v1/pick`).
    static func gradientNotes(_ gradient: GradientInput, box: CSSGradient.Box?) -> [String] {
        var notes: [String] = []
        if gradient.gradient.stops.contains(where: { s in
            let c = s.color.converted(to: .srgb).coordinates
            return c.x < -1e-9 || c.y < -1e-9 || c.z < -1e-9 || c.x > 1 + 1e-9 || c.y > 1 + 1e-9 || c.z > 1 + 1e-9
        }) {
            notes.append("gradient colors outside sRGB were clipped to sRGB, as browsers draw them on an sRGB screen")
        }
        // The solid colors GradientContrast measured for a gradient of no size or no length, as
        // hex with alpha where translucent (each was measured over what lies behind it).
        let g = gradient.gradient
        var average: String { DisplayColor(g.averageColor).hex }
        var last: String { DisplayColor(g.stops[g.stops.count - 1].color).hex }
        if g.hasEmptyEndingShape(in: box) {
            notes.append(g.repeating
                ? "the radial gradient's ending shape has no size, so its pattern has no length: CSS and Chromium paint the average of its colors (\(average)), and that color was measured"
                : "the radial gradient's ending shape has no size: CSS Images 3 §3.2.3 draws its last stop's color (\(last)) everywhere but on a line of no width, and that color was measured")
        } else if g.repeatsWithNoLength {
            notes.append("the repeating gradient's stops share one position, so its pattern has no length: CSS Images 3 paints the average of its colors (\(average)) and Chromium its last stop's color (\(last)); both were measured")
        }
        // A hint off the midpoint (and not a hard stop) is drawn as Chromium and WebKit draw
        // it, not by the spec's exact curve (a new user's pass computed the curve by hand at a
        // region's edge: 4.50:1 there, 4.54:1 here, and read it as an error).
        if g.hasCurvedHint {
            notes.append("a color hint is drawn as Chromium and WebKit draw it, the curve u^(log 0.5 / log hint) of CSS Images 4 §3.5.3 followed by nine straight pieces: near a stop the colors can differ from the exact curve by up to 19/255 per channel, and so can a ratio computed from it")
            // Two ways Chromium 156 paints a hinted gradient otherwise than CSS says (a pass
            // against its pixels: black on shadcn's chart colors with a 30% hint passed here at
            // 5.65:1 and is painted at 3.87:1).
            if !g.explicitMethod && g.space == .oklab {
                notes.append("this gradient has a color hint and no interpolation method, and a stop that is not a legacy color: CSS Images 4 interpolates it in oklab, as measured here, but Chromium 156 paints it in sRGB, which can be far darker or lighter between the stops; write 'in oklab' after the direction (or 'in srgb') so that what browsers paint is what is measured")
            }
            if g.hue == .longer && g.space.hueIndex != nil {
                notes.append("with 'longer hue' and a color hint, Chromium 156 turns the hue the long way on each of the pieces it draws the hint with, several turns in all, where CSS Color 4 turns it once, as measured here; drop the hint or 'longer' so that what browsers paint is what is measured")
            }
        }
        if g.nearGrayLosesItsHueInChromium {
            notes.append("a stop of OKLCH chroma below 0.02 written in another space (a near gray such as #71717a) meets a colored one in oklch: Chromium 156 takes its hue as missing and paints the colored stop's hue across, where CSS Color 4 keeps the stop's own hue, as measured here (Chromium can paint up to about 0.2 lower); write the gray as oklch(L C h) with the other stop's hue, or interpolate in oklab")
        }
        if g.graySweepsHueInBrowsers {
            // A new user's pass, stop 39: white on `in oklch, oklch(0.56 0 0), oklch(0.56 0.2 30)`
            // passed here at 4.654:1 where Chromium paints 4.463:1, with no word.
            notes.append("a gray stop meets a colored one in \(g.space.rawValue): CSS Color 4 gives the gray no hue (powerless), so the color's chroma ramps at its own hue as measured here, but Chromium 156 paints a hue sweep there and can measure up to 0.2 lower; to paint what is measured, give the gray a tiny chroma at the other stop's hue (oklch(L 0.001 h)) or interpolate in oklab")
        }
        return notes
    }

    /// `key`: one color of a measurement on `gradient`: `ratio` and `ratioText` (or `lc`), its
    /// `position` along the gradient, with `box` the `pixel` `{x, y}` (of `box` whose square holds
    /// the point of `region` nearest to it, kept inside the region), and the `background` and
    /// `foreground` hex there (`/v1/contrast`'s `gradient`, `/v1/pick`'s candidates).
    static func writeSample<S: JSONSink>(_ key: StaticString, _ s: GradientContrast.Sample, lc: Bool, on gradient: CSSGradient,
                                         box: CSSGradient.Box?, region: CSSGradient.Region?, into o: inout S) {
        o.object(key) { so in
            if lc {
                so.member("lc", s.lc)
            } else {
                so.member("ratio", s.ratio)
                so.member("ratioText", WCAG.ratioText(s.ratio))
            }
            so.member("position", s.position)
            if let box {
                let p = gradient.point(nearest: s.position, box: box, region: region)
                let r = region ?? CSSGradient.Region(x: 0, y: 0, width: box.width, height: box.height)
                let x = Swift.min(Swift.max(p.x.rounded(.down), r.x.rounded(.down)), (r.x + r.width).rounded(.up) - 1)
                let y = Swift.min(Swift.max(p.y.rounded(.down), r.y.rounded(.down)), (r.y + r.height).rounded(.up) - 1)
                so.object("pixel") { px in
                    px.member("x", x)
                    px.member("y", y)
                }
            }
            so.member("background", ColorJSON.hex(s.background))
            so.member("foreground", ColorJSON.hex(s.text))
        }
    }

    /// `at`, `function`, `repeating`, `interpolation`, `stops` (sRGB hex, position, hint), and
    /// `box` and `region` when given: the gradient as read, in `writeGradient`'s object.
    static func writeGradientShape<S: JSONSink>(_ g: GradientInput, box: CSSGradient.Box?, region: CSSGradient.Region?, into o: inout S) {
        let gradient = g.gradient
        o.member("at", g.path.pointer ?? g.path.parameter ?? "")
        o.member("function", gradient.functionName)
        o.member("repeating", gradient.repeating)
        o.object("interpolation") { i in
            i.member("space", gradient.space.rawValue)
            if gradient.space.hueIndex != nil { i.member("hue", gradient.hue.rawValue) }
            i.member("specified", gradient.explicitMethod)
        }
        o.key("stops")
        o.array { a in
            for s in gradient.stops {
                a.object { so in
                    let c = s.color.converted(to: .srgb)
                    var rgb = c.coordinates
                    for k in 0..<3 { rgb[k] = rgb[k].isFinite ? Swift.min(Swift.max(rgb[k], 0), 1) : 0 }
                    so.member("color", ColorJSON.hex(rgb, alpha: c.alpha.isFinite ? c.alpha : 1))
                    so.member("position", s.position)
                    if s.hint != 0.5 { so.member("hint", s.hint) }
                }
            }
        }
        writeBoxAndRegion(box, region, into: &o)
    }

    /// `gradient`: `at` (the JSON pointer or query parameter of the gradient), `function`,
    /// `repeating`, `interpolation` (`space`, `hue` for polar spaces, `specified`: false when
    /// the CSS Images 4 default was used), `stops` after fixup (`color` as 8-bit sRGB hex with
    /// alpha when translucent, `position` as a fraction of the gradient line / ray / turn,
    /// `hint` when not 0.5), `box` and `region` when given, `min` and `max` (the ratio, its text,
    /// `position` 0–1 along the gradient, for `min` with a box the `pixel` `{x, y}`, and the
    /// colors there), `weakestLc` and `strongestLc` (the APCA Lc, its position, for the weakest
    /// the pixel),
    /// `samples` (gradient colors evaluated).
    static func writeGradient<S: JSONSink>(_ g: GradientInput, _ m: GradientContrast, box: CSSGradient.Box?,
                                           region: CSSGradient.Region?, into out: inout S) {
        let gradient = g.gradient
        out.object { o in
            writeGradientShape(g, box: box, region: region, into: &o)
            writeSample("min", m.min, lc: false, on: gradient, box: box, region: region, into: &o)
            writeSample("max", m.max, lc: false, on: gradient, box: nil, region: nil, into: &o)
            writeSample("weakestLc", m.weakestLc, lc: true, on: gradient, box: box, region: region, into: &o)
            writeSample("strongestLc", m.strongestLc, lc: true, on: gradient, box: nil, region: nil, into: &o)
            o.member("samples", Double(m.samples))
        }
    }
}

/// A scrim found for text on a gradient: its opacity as written, and the gradient measured again
/// under it.
struct GradientScrimFix {
    /// The scrim's color: its name in the answer, sRGB `0...1`, and its channels in CSS `rgb()`.
    enum Kind: CaseIterable {
        case black, white
        var name: StaticString { self == .black ? "black" : "white" }
        var color: SIMD3<Double> { self == .black ? SIMD3(0, 0, 0) : SIMD3(1, 1, 1) }
        var cssChannels: String { self == .black ? "0 0 0" : "255 255 255" }
    }
    var alpha: Double
    /// The weakest ratio and APCA Lc with the scrim.
    var ratio: Double, lc: Double
    /// False for the opaque scrim given when the search ran out of budget.
    var lightest: Bool
    /// The text, as dark (light) as the gradient's darkest (lightest) color or more, is lighter
    /// (darker) than the background under the scrim: the design's polarity turns.
    var reversesPolarity = false
}
