import ColorScience
import JSONValue

/// `/v1/pick` on a CSS gradient: which candidate reads best on a hero banner or a gradient
/// button (the `contrast-color()` question where the background is not one color).
///
/// `background` is a gradient as `/v1/contrast` takes it (`linear-`, `radial-`, `conic-` and
/// their `repeating-` forms, CSS Images 3 §3 and 4 §3, interpolated as CSS Color 4 §12), with
/// `box` and `region` (the element it fills and the part under the text, CSS px) as there; a
/// gradient with translucent stops needs an opaque `backdrop`. Each candidate is measured against
/// every color the gradient paints there (`GradientContrast`) and judged by its worst: its
/// `ratio` is the lowest contrast ratio over the gradient, its `apcaLc` the weakest Lc, and the
/// ranking (ratio, or |Lc| for `apca`) and the target use those. Each candidate's `gradient`
/// says where: `min` (ratio, position `0...1` along the gradient, the colors there), `maxRatio`,
/// `weakestLc` (Lc, position, colors).
///
/// Cost: opaque candidates are measured on the gradient walked once (`GradientContrast.Prepared`,
/// as the matrix's gradient cells are); the work is estimated before any of it is paid, the
/// request moves to the heavy-work pool past `ContrastEndpoint.heavyGradientUnits`, and past
/// `MatrixEndpoint.maxGradientCost` (about 1 s) it is a 422 naming `candidates`.
struct PickGradient {
    let gradient: GradientInput
    let box: CSSGradient.Box?
    let region: CSSGradient.Region?

    /// The request's gradient `background`, or nil when it is a color; a `box` or `region`
    /// without a gradient is a 400 naming it (they place a gradient).
    init?(_ f: Fields, hexOrder: HexOrder) throws(Problem) {
        guard case .string(let s)? = f.value("background"), ContrastEndpoint.isGradientText(s) else {
            if let key = ["box", "region"].first(where: { f.has($0) }) {
                throw Problem.invalidField(f.field(key), "\(f.field(key).display) places a gradient background, and \(f.field("background").display) is not one")
            }
            return nil
        }
        box = try f.gradientBox()
        gradient = try resolveGradient(s, at: f.field("background"), hexOrder: hexOrder, box: box,
                                       boxHint: f.fromQuery ? " (\(f.field("box").display), e.g. box=320,120)" : " (\(f.field("box").display): {\"width\": 320, \"height\": 120})")
        region = try f.gradientRegion(box: box)
        if gradient.isTranslucent && !f.has("backdrop") {
            throw Problem.invalidField(f.field("background"), "\(f.field("background").display) has translucent color stops: give an opaque \(f.field("backdrop").display), the color that shows through them")
        }
    }

    /// Each candidate (the list at `list`) measured on the gradient (over `backdrop` where its
    /// stops are translucent),
    /// in list order, its `measurement` the worst case (the colors at its lowest ratio, with the
    /// weakest Lc); `value` is left for the caller.
    /// - Throws: 422 `limit-exceeded` naming `candidates` when the estimated work passes
    ///   `MatrixEndpoint.maxGradientCost`; `Problem.moveToHeavyPool` past `heavyGradientUnits`
    ///   or `inline`'s time, when the request may move.
    func measure(_ candidates: [ResolvedColor], at list: FieldPath, backdrop: SIMD3<Double>?, inline: InlineWork) throws(Problem) -> [PickEndpoint.Entry] {
        let g = gradient.gradient
        let behind = backdrop ?? SIMD3(1, 1, 1)
        let translucent = candidates.filter { $0.display.alpha < 1 }.count
        let opaque = candidates.count - translucent
        var cost = (opaque > 0 ? GradientContrast.estimatedPreparingCost(of: g) : 0)
            + translucent * GradientContrast.estimatedCost(of: g, textIsOpaque: false)
        func check() throws(Problem) {
            if cost > MatrixEndpoint.maxGradientCost {
                throw Problem.tooLarge(list,
                    "measuring \(candidates.count) candidates on this gradient would take about \(String(format: "%.1f", Double(cost) * 0.4e-6)) s "
                        + "(\(cost) units of work; at most \(MatrixEndpoint.maxGradientCost)): translucent candidates, repeating or translucent "
                        + "gradients and many stops turning the hue cost the most; send fewer candidates, or opaque ones",
                    limit: MatrixEndpoint.maxGradientCost, status: 422)
            }
            if inline.mayMove && cost > ContrastEndpoint.heavyGradientUnits { throw Problem.moveToHeavyPool }
        }
        try check()
        let prepared = opaque > 0 ? GradientContrast.Prepared(gradient: g, box: box, region: region, backdrop: behind) : nil
        if let prepared {
            cost += opaque * prepared.estimatedCostPerText
            try check()
        }
        var entries: [PickEndpoint.Entry] = []
        entries.reserveCapacity(candidates.count)
        for (i, c) in candidates.enumerated() {
            try inline.check()
            let d = c.display
            let measured = d.alpha >= 1 && prepared != nil
                ? prepared!.measure(text: d.srgb)
                : GradientContrast(text: d.srgb, textAlpha: d.alpha, gradient: g, box: box, region: region, backdrop: behind)
            var m = ContrastMeasurement.flattened(foreground: measured.min.text, background: measured.min.background)
            // The solver's values, as `gradient` gives them (the colors' ratio can differ in the last digit).
            (m.ratio, m.apcaLc) = (measured.min.ratio, measured.weakestLc.lc)
            entries.append(PickEndpoint.Entry(index: i, color: c, measurement: m, gradient: measured, value: 0))
        }
        return entries
    }

    /// The answer's `background`: `{"input", "kind": "gradient"}` and the gradient as read
    /// (`at`, `function`, `repeating`, `interpolation`, `stops`, `box`, `region`).
    func describe<S: JSONSink>(into out: inout S) {
        out.object { o in
            o.member("input", gradient.input)
            o.member("kind", "gradient")
            ContrastEndpoint.writeGradientShape(gradient, box: box, region: region, into: &o)
        }
    }

    /// A candidate's `gradient`: `min` (`ratio`, `ratioText`, `position`, with a box the
    /// `pixel`, `background` and `foreground` hex there), `maxRatio`, `weakestLc` (`lc`,
    /// `position`, `pixel`, the colors there), written as `/v1/contrast`'s `gradient` writes them.
    func writeWorst<S: JSONSink>(_ m: GradientContrast, into o: inout S) {
        o.object("gradient") { g in
            ContrastEndpoint.writeSample("min", m.min, lc: false, on: gradient.gradient, box: box, region: region, into: &g)
            g.member("maxRatio", m.max.ratio)
            ContrastEndpoint.writeSample("weakestLc", m.weakestLc, lc: true, on: gradient.gradient, box: box, region: region, into: &g)
        }
    }

    /// How the candidates were measured on the gradient, and what `/v1/contrast` says of it.
    func notes(metric: ContrastTarget.Metric, backdrop: ResolvedColor?, candidates: [ResolvedColor]) -> [String] {
        let measure = metric == .wcag2 ? "lowest contrast ratio" : "weakest APCA |Lc|"
        var notes = ["The background is a gradient: each candidate was measured against every color it paints\(region != nil ? " in the region" : ""), and is ranked by its \(measure) there, where it reads worst (gradient.min and gradient.weakestLc say where)."]
        notes += gradient.notes
        notes += ContrastEndpoint.gradientNotes(gradient, box: box)
        if candidates.contains(where: { $0.display.alpha < 1 }) {
            notes.append("Translucent candidates are composited source-over on each color of the gradient before measuring.")
        }
        if backdrop != nil && !gradient.isTranslucent {
            notes.append("backdrop was not used: the gradient is opaque, so nothing behind it shows through.")
        }
        return notes
    }
}
