import Foundation
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/contrast/matrix`: every foreground × background pair of a palette.
///
/// Request: `{"colors": [color | {"name", "color"}], "algorithm"?, "backdrop"?, "format"?, "gamutMethod"?}`
/// (`gamutMethod`: `css4`, CSS Color 4 §13.2 mapping, the default, or `clip`, §13.1); the
/// format may also come as `?format=json|csv|svg`. Response (JSON): `colors` (palette order),
/// `algorithm`, `apcaVersion` and `rows`, where `rows[i][j]` is foreground `i` on background `j`: `ratio`, `ratioText`, `AA`,
/// `AAA`, `apcaLc` (and `value` for another `algorithm`). CSV has one line per pair; SVG draws the
/// grid: each cell in its colors with sample text, the ratio and an AA mark.
///
/// `gradients` (optional, at most 16): CSS gradient backgrounds, each color of the palette is
/// measured as text on each (see `gradients(_:)`); JSON adds `gradients` and `onGradients`, CSV
/// one line per color and gradient (the colors at the lowest ratio); SVG draws the color grid only.
struct MatrixEndpoint {
    enum Format: String, CaseIterable { case json, csv, svg }

    /// The media types `Accept` may name a format by (`HTTPRequest.preferred(byAccept:)`, as the
    /// token audit reads its report).
    static let acceptedTypes: KeyValuePairs<String, Format> = ["application/json": .json, "text/csv": .csv, "image/svg+xml": .svg]

    let maxPaletteSize: Int
    /// Most pairs of a translucent foreground on a translucent background in one matrix without
    /// a `backdrop` (32 such colors): each is measured over the 256 gray backdrop levels.
    static let maxTranslucentPairs = 1024
    /// Largest CSV or SVG answer built, in bytes (32 MiB). Those formats repeat both names in
    /// every cell, so their size grows with n² × name length: a 41 KB request of 256 colors with
    /// 128-byte names of `&` had built a 101 MB SVG (outside tester, issue #17). 256 colors with 40-character names
    /// make a 23 MB SVG, under the limit. JSON names each color once and needs no such bound.
    static let maxAnswerBytes = 32 << 20
    /// Answers estimated at this size or more reserve it in the server's memory budget before
    /// they are built (`ImageEndpoint.reserve`); smaller ones are counted once queued.
    static let reservedAnswerBytes = 1 << 20
    /// The request's members (`variables` is read for every JSON body: `CSSRequestScope`).
    static let fields: Set<String> = ["colors", "algorithm", "backdrop", "format", "hexOrder", "gradients", "gamutMethod",
                                      "appearance", "level", "contrast", "generation"]

    /// One measured pair.
    struct Cell {
        var ratio: Double
        var lc: Double
        var value: Double?
        var effectiveForeground: SIMD3<Double>
        var effectiveBackground: SIMD3<Double>
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        do throws(Problem) {
            let f = try Fields.body(request, allowedQuery: ["format"])
            try f.rejectUnknown(Self.fields)
            // light-dark() and system color names resolve in the request's Apple context, as in
            // /v1/contrast (new-user test: the matrix refused `appearance`, so light-dark() was
            // always light there).
            let context = try f.appleContext()
            return try AppleRequestScope.run(context) { () throws(Problem) -> HTTPResponse in try handle(f, request) }
        } catch {
            return error.response
        }
    }

    /// The answer in the request's Apple context; problems go to `handle(_:)`, which renders them.
    func handle(_ f: Fields, _ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        var format = try f.choice("format", Format.self)
        if let q = request.queryValue("format") {
            guard let qf = Format.allCases.first(where: { $0.rawValue == q.lowercased() }) else {
                throw Problem.invalidField(.query("format"), "\(FieldPath.query("format").display) must be one of json, csv, svg, got \(ClientText.quoted(q))")
            }
            if let format, format != qf {
                throw Problem.contradictory(.query("format"), f.field("format"), "\(FieldPath.query("format").display) (\(qf.rawValue)) contradicts \(f.field("format").display) (\(format.rawValue)) of the body")
            }
            format = qf
        }
        // Neither the body nor the query names one: the `Accept` header may (a plugin author's
        // pass: `Accept: text/csv` was answered with JSON, where the token audit honours it).
        let byAccept = format == nil ? request.preferred(byAccept: Self.acceptedTypes) : nil
        if let byAccept { format = byAccept }
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        // Counted before any color is read (a hostile pass: 256 var() colors on 16 gradients were
        // read for a second before this 422). The only count needed: lists past their own limits
        // (or not lists) are refused as they are read below.
        if case .array(let colors)? = f.value("colors"), case .array(let gradients)? = f.value("gradients"),
           colors.count <= maxPaletteSize, gradients.count <= MatrixEndpoint.maxGradients {
            try MatrixEndpoint.checkGradientPairs(colors.count, gradients.count, f)
        }
        // And a list past its own limit before any color is read (a hostile pass: 17 gradients
        // were refused after 0.8 s of reading the palette's var() colors).
        _ = try f.array("gradients", maxCount: MatrixEndpoint.maxGradients)
        var palette = try f.palette("colors", limit: maxPaletteSize, hexOrder: hexOrder)
        let algorithm = try f.choice("algorithm", ContrastAlgorithm.self) ?? .wcag2
        var backdrop = try f.color("backdrop", hexOrder: hexOrder)
        // Colors outside sRGB clipped channel by channel, as Chromium paints them, on request, as
        // /v1/contrast and the token audit take `gamutMethod` (a new user's pass: the matrix
        // refused it, so its verdicts could not be those of a clipping browser).
        if try ResolvedColor.gamutMethod(f) == .clip {
            for i in palette.indices { palette[i].color = palette[i].color.clippedIntoSRGB() }
            backdrop = backdrop?.clippedIntoSRGB()
        }
        if let backdrop, backdrop.display.alpha < 1 {
            throw Problem.invalidField(f.field("backdrop"), "\(f.field("backdrop").display) must be opaque")
        }
        if backdrop == nil {
            // Each pair of translucent colors is measured over every gray backdrop level
            // (~0.1 ms a pair): 256 translucent colors took 7 s of a worker (hostile test).
            let translucent = palette.count { $0.color.display.alpha < 1 }
            if translucent * translucent > MatrixEndpoint.maxTranslucentPairs {
                throw Problem.tooLarge(
                    f.field("colors"),
                    "\(translucent) translucent colors make \(translucent * translucent) translucent-on-translucent pairs, "
                        + "each measured over all 256 gray backdrops; at most \(MatrixEndpoint.maxTranslucentPairs) "
                        + "(32 translucent colors) without a backdrop: give an opaque \(f.field("backdrop").display) to measure them over it",
                    limit: MatrixEndpoint.maxTranslucentPairs, status: 422)
            }
        }
        let gradients = try MatrixEndpoint.gradients(f, hexOrder: hexOrder, backdrop: backdrop)
        if format == .svg && !gradients.isEmpty && byAccept != nil {
            // Asked by `Accept` only: the gradients are the request's, so JSON, which carries them.
            format = .json
        }
        if format == .svg && !gradients.isEmpty {
            // The SVG draws the color grid only; gradients would be measured and dropped unseen
            // (hostile pass: the answer was the same with or without them).
            throw Problem.contradictory(f.field("gradients"), request.queryValue("format") != nil ? .query("format") : f.field("format"),
                "\(f.field("gradients").display) are not drawn in the SVG answer (it shows the color grid only): ask for JSON or CSV to get them, or leave them out")
        }
        var prepared: [GradientContrast.Prepared] = []
        if !gradients.isEmpty {
            // The work, estimated before any of it is paid (GradientContrast.estimatedCost): a
            // hostile matrix of 64 translucent colors on 16 gradients of 64 stops turning the hue
            // took 16 s within the pair limit. Opaque colors are measured on each gradient
            // prepared once (`estimatedPreparingCost`; then `estimatedCostPerText` a color).
            let translucent = palette.filter { $0.color.display.alpha < 1 }.count
            let opaque = palette.count - translucent
            var cost = 0
            func refuseOverBudget() throws(Problem) {
                guard cost > MatrixEndpoint.maxGradientCost else { return }
                throw Problem.tooLarge(
                    f.field("gradients"),
                    "measuring \(palette.count) colors on these \(gradients.count) gradients would take about \(String(format: "%.1f", Double(cost) * 0.4e-6)) s "
                        + "(\(cost) units of work; at most \(MatrixEndpoint.maxGradientCost), about \(String(format: "%.1f", Double(MatrixEndpoint.maxGradientCost) * 0.4e-6)) s): translucent colors, repeating or translucent "
                        + "gradients and many stops turning the hue cost the most; split the palette or the gradients, or give opaque colors",
                    limit: MatrixEndpoint.maxGradientCost, status: 422)
            }
            for g in gradients {
                if opaque > 0 { cost += GradientContrast.estimatedPreparingCost(of: g.gradient.gradient) }
                if translucent > 0 { cost += translucent * GradientContrast.estimatedCost(of: g.gradient.gradient, textIsOpaque: false) }
            }
            try refuseOverBudget()
            if opaque > 0 {
                let behind = backdrop?.display.srgb ?? SIMD3(1, 1, 1)
                prepared = gradients.map { GradientContrast.Prepared(gradient: $0.gradient.gradient, box: $0.box, region: $0.region, backdrop: behind) }
                for p in prepared { cost += opaque * p.estimatedCostPerText }
                try refuseOverBudget()
            }
        }
        // JSON too: its cells name no color, but they grow with the square of the palette (a
        // hostile pass: with maxPaletteSize raised to 4096, one request built a 2.96 GB answer
        // and the server's peak memory reached 7.7 GB).
        let answerFormat = format ?? .json
        let bytes = MatrixEndpoint.answerBytes(palette, format: answerFormat)
        if bytes > MatrixEndpoint.maxAnswerBytes {
            let mib = Double(bytes) / Double(1 << 20)
            throw Problem.tooLarge(
                f.field("colors"),
                "the \(answerFormat.rawValue.uppercased()) answer would take about \(Int(mib.rounded(.up))) MiB "
                    + "(\(palette.count) × \(palette.count) cells\(answerFormat == .json ? "" : ", each naming its two colors")); at most "
                    + "\(MatrixEndpoint.maxAnswerBytes >> 20) MiB: "
                    + (answerFormat == .json ? "split the palette (a matrix of a part against another is its rows and columns)" : "shorten the names, split the palette, or ask for JSON"),
                limit: MatrixEndpoint.maxAnswerBytes, status: 422)
        }
        // A large answer reserves its size in the memory budget before it is built, as an image
        // answer does (a hostile pass: nine 24 MB SVG matrices for clients that read slowly were
        // built at once under a 16 MiB budget, peak RSS 280 MB).
        if bytes >= MatrixEndpoint.reservedAnswerBytes,
           let refused = ImageEndpoint.reserve(bytes, for: request, what: "\(answerFormat.rawValue.uppercased()) matrix answer") {
            return refused
        }
        // Translucent Apple system colors as backgrounds are drawn over the system backgrounds,
        // as /v1/contrast measures them (a hostile pass: `label` on `systemFill` was 1.18:1,
        // the worst over every gray, where /v1/contrast gives 15.02:1).
        let unders = backdrop == nil && palette.contains { $0.color.isTranslucentSystemColor }
            ? try ContrastEndpoint.systemBackgrounds(at: f.field("colors")) : []
        try request.stopIfAbandoned()
        let cells = MatrixEndpoint.measure(palette, algorithm: algorithm, backdrop: backdrop?.display.srgb, systemBackgrounds: unders)
        try request.stopIfAbandoned()
        let gradientCells = MatrixEndpoint.measure(palette, on: gradients, prepared: prepared, backdrop: backdrop?.display.srgb)
        try request.stopIfAbandoned()
        // Writing a large answer takes most of the time (a 24 MB SVG: a second hostile pass
        // measured 0.45 s of a 0.5 s request after its client had gone): looked at every row.
        let ticket = request.workTicket
        func stop() -> Bool { ticket?.isAbandoned == true }
        switch format ?? .json {
        case .json:
            var body = MatrixEndpoint.json(palette, cells, algorithm: algorithm, stop: stop)
            try request.stopIfAbandoned()
            if !gradients.isEmpty { MatrixEndpoint.appendGradients(gradients, gradientCells, algorithm: algorithm, to: &body) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
        case .csv:
            var text = MatrixEndpoint.csv(palette, cells, algorithm: algorithm, stop: stop)
            try request.stopIfAbandoned()
            let paletteNames = gradientCells.isEmpty ? [] : palette.map { MatrixEndpoint.csvField($0.name) }
            let gradientNames = gradients.map { MatrixEndpoint.csvField($0.name) }
            for (i, row) in gradientCells.enumerated() {
                for (k, m) in row.enumerated() {
                    let r = m.min.ratio
                    let fields = [
                        paletteNames[i], gradientNames[k],
                        ColorJSON.hex(m.min.text), ColorJSON.hex(m.min.background),
                        Fields.format(r), WCAG.ratioText(r),
                        String(r >= WCAG.aaNormalText), String(r >= WCAG.aaLargeText), String(r >= WCAG.aaNonText),
                        String(r >= WCAG.aaaNormalText), String(r >= WCAG.aaaLargeText), Fields.format(m.weakestLc.lc),
                    ] + (algorithm != .wcag2 ? [Fields.format(MatrixEndpoint.gradientValue(m, algorithm))] : [])
                    text += fields.joined(separator: ",") + "\r\n"
                }
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/csv; charset=utf-8"),
                                                       ("Content-Disposition", "attachment; filename=\"contrast-matrix.csv\"")],
                                body: Array(text.utf8))
        case .svg:
            let svg = MatrixEndpoint.svg(palette, cells, stop: stop)
            try request.stopIfAbandoned()
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml; charset=utf-8")], body: Array(svg.utf8))
        }
    }

    /// 422 `limit-exceeded` naming `gradients` when `colors` palette colors on `gradients`
    /// gradients make more than `maxGradientPairs` measurements.
    static func checkGradientPairs(_ colors: Int, _ gradients: Int, _ f: Fields) throws(Problem) {
        guard colors * gradients > maxGradientPairs else { return }
        throw Problem.tooLarge(
            f.field("gradients"),
            "\(colors) colors on \(gradients) gradients make \(colors * gradients) measurements, "
                + "each over the whole gradient; at most \(maxGradientPairs): split the palette or the gradients",
            limit: maxGradientPairs, status: 422)
    }

    /// Most gradients in one matrix (each costs about as much as a `/v1/contrast` with a
    /// gradient, per palette color).
    static let maxGradients = 16
    /// Most palette color × gradient measurements in one matrix (each about 150 gradient colors
    /// evaluated; see docs/performance.md).
    static let maxGradientPairs = 1024
    /// Most estimated work of a matrix's gradient measurements, in `GradientContrast.estimatedCost`
    /// units (about 0.4 µs each here: about 1 s).
    static let maxGradientCost = 2_500_000

    /// A named gradient background of the matrix.
    struct NamedGradient {
        var name: String
        var gradient: GradientInput
        var box: CSSGradient.Box?
        var region: CSSGradient.Region?
    }

    /// `gradients`: optional gradient backgrounds, strings or `{"name", "gradient", "box"?,
    /// "region"?}` (as in `/v1/contrast`), at most `maxGradients`; names unique. Each palette
    /// color is measured as text on each (translucent gradients need the opaque `backdrop`).
    static func gradients(_ f: Fields, hexOrder: HexOrder, backdrop: ResolvedColor?) throws(Problem) -> [NamedGradient] {
        guard let items = try f.array("gradients", maxCount: maxGradients) else { return [] }
        var out: [NamedGradient] = []
        var names = UniqueNames(of: f.field("gradients"))
        for (k, item) in items.enumerated() {
            let path = f.field("gradients").appending(index: k)
            var g: NamedGradient
            switch item {
            case .string(let s):
                g = NamedGradient(name: s, gradient: try resolveGradient(s, at: path, hexOrder: hexOrder,
                    boxHint: " (write this gradient as {\"gradient\": ..., \"box\": {\"width\": 320, \"height\": 120}})"))
            case .object(let o):
                let gf = Fields(object: o, path: path, fromQuery: f.fromQuery)
                try gf.rejectUnknown(["name", "gradient", "box", "region"])
                // The name first: it is cheap to check, and an empty one would key the answer by nothing
                // (a hostile pass: `"name": ""` was taken, where a color's empty name is a 400).
                let name = try gf.name("name", maxLength: 128)
                let text = try gf.string("gradient", required: true, maxLength: CSSGradient.maximumLength)!
                let box = try gf.gradientBox()
                let gradient = try resolveGradient(text, at: gf.field("gradient"), hexOrder: hexOrder, box: box,
                                                   boxHint: " (\(gf.field("box").display): {\"width\": 320, \"height\": 120})")
                g = NamedGradient(name: name ?? text, gradient: gradient,
                                  box: box, region: try gf.gradientRegion(box: box))
            default:
                throw Problem.invalidField(path, "\(path.display) must be a CSS gradient string or {\"name\", \"gradient\", \"box\", \"region\"}, not \(item.typeName)")
            }
            if g.gradient.isTranslucent && backdrop == nil {
                throw Problem.invalidField(path, "\(path.display) has translucent color stops: give an opaque \(f.field("backdrop").display), the color that shows through them")
            }
            try names.add(g.name, at: k)
            out.append(g)
        }
        return out
    }

    /// Each palette color as text on each gradient: `[color][gradient]`, on the gradients
    /// `prepared` for opaque colors when given (one per gradient; the same answers).
    static func measure(_ palette: [PaletteColor], on gradients: [NamedGradient], prepared: [GradientContrast.Prepared],
                        backdrop: SIMD3<Double>?) -> [[GradientContrast]] {
        guard !gradients.isEmpty else { return [] }
        let behind = backdrop ?? SIMD3(1, 1, 1)
        return palette.map { c in
            gradients.indices.map { k in
                if k < prepared.count { return prepared[k].measure(text: c.color.display.srgb, textAlpha: c.color.display.alpha) }
                let g = gradients[k]
                return GradientContrast(text: c.color.display.srgb, textAlpha: c.color.display.alpha, gradient: g.gradient.gradient,
                                        box: g.box, region: g.region, backdrop: behind)
            }
        }
    }

    /// Adds `gradients` (`name`, `input`, `function`, `box` and `region` when given) and `onGradients[i][k]` (palette color `i`
    /// as text on gradient `k`: the lowest `ratio` with `ratioText` and verdicts, `position` of
    /// it along the gradient, `foregroundHex` and `backgroundHex` there, `maxRatio`, the weakest `apcaLc`, and with an `algorithm` other than
    /// wcag2 its `value` at the lowest ratio's colors, as `/v1/contrast` gives it) before the
    /// answer's closing brace.
    static func appendGradients(_ gradients: [NamedGradient], _ cells: [[GradientContrast]], algorithm: ContrastAlgorithm,
                                to body: inout [UInt8]) {
        guard body.last == UInt8(ascii: "}") else { return }
        body.removeLast()
        var out = JSONByteWriter(capacity: 64 + cells.count * gradients.count * 260)
        out.raw(#","gradients":["#)
        for g in gradients {
            // (The writer puts the commas between objects.)
            out.object { w in
                w.member("name", g.name)
                w.member("input", g.gradient.input)
                w.member("function", g.gradient.gradient.functionName)
                // What decided its cells (a new user's pass: they were not echoed).
                ContrastEndpoint.writeBoxAndRegion(g.box, g.region, into: &w)
            }
        }
        out.raw(#"],"onGradients":["#)
        for (i, row) in cells.enumerated() {
            if i > 0 { out.raw(UInt8(ascii: ",")) }
            out.raw(UInt8(ascii: "["))
            for (k, m) in row.enumerated() {
                if k > 0 { out.raw(UInt8(ascii: ",")) }
                out.raw(#"{"ratio":"#)
                out.rawNumber(m.min.ratio)
                out.raw(#","ratioText":""#)
                appendRatioText(m.min.ratio, into: &out)
                out.raw(verdictPieces[ContrastJSON.verdictIndex(m.min.ratio)])
                out.rawNumber(m.weakestLc.lc)
                out.raw(#","position":"#)
                out.rawNumber(m.min.position)
                // The colors there, as the CSV gives them (new-user pass: JSON had left them out).
                out.raw(#","foregroundHex":"#)
                out.rawString(ColorJSON.hex(m.min.text))
                out.raw(#","backgroundHex":"#)
                out.rawString(ColorJSON.hex(m.min.background))
                out.raw(#","maxRatio":"#)
                out.rawNumber(m.max.ratio)
                if algorithm != .wcag2 {
                    // The rows' cells carry it; the gradient cells had left it out (hostile pass).
                    out.raw(#","value":"#)
                    out.rawNumber(gradientValue(m, algorithm))
                }
                out.raw(UInt8(ascii: "}"))
            }
            out.raw(UInt8(ascii: "]"))
        }
        out.raw("]}")
        body += out.bytes
    }

    /// `algorithm`'s value at the colors of a gradient cell's lowest ratio (text over the color there).
    static func gradientValue(_ m: GradientContrast, _ algorithm: ContrastAlgorithm) -> Double {
        algorithm.value(of: .opaque(foreground: DisplayColor(srgb: m.min.text), background: m.min.background))
    }

    /// An upper bound of the answer's size in bytes, from the names alone, before anything is
    /// measured: in CSV and SVG each name appears n times as a foreground and n times as a
    /// background, escaped as the format escapes it, plus a fixed size per cell (a CSV line takes at
    /// most 96 bytes and an SVG cell 300 besides the names; measured: 93 and 289) and per header;
    /// a JSON cell names no color and takes at most 200 bytes (measured: 180, translucent and
    /// system colors included), each color's own entry 400 and its name and input, escaped at worst (6 bytes a byte).
    static func answerBytes(_ palette: [PaletteColor], format: Format) -> Int {
        let n = palette.count
        if format == .json {
            return 1024 + palette.reduce(0) { $0 + 400 + 12 * $1.name.utf8.count } + n * n * 200
        }
        // Each name as the format writes it: XML's entities, CSV's doubled quotes, and a hidden
        // character as `\u202E` in both (a hostile pass: 256 names of 125 U+0007 made a 104 MB
        // CSV past the 32 MiB cap, which had counted their raw bytes).
        var names = 0
        for c in palette {
            for u in c.name.unicodeScalars {
                if ClientText.mayHide(u) {
                    names += format == .svg && u.value < 0x20 ? 3 : ClientText.escaped(u).utf8.count
                    continue
                }
                switch format {
                case .svg: names += u == "&" ? 5 : u == "\"" || u == "'" ? 6 : u == "<" || u == ">" ? 4 : UTF8.width(u)
                case .csv, .json: names += u == "\"" ? 2 : UTF8.width(u)
                }
            }
            names += 3   // CSV quotes and formula apostrophe
        }
        let perCell = format == .svg ? 300 : 96
        let perColor = format == .svg ? 600 : 0
        return 1024 + n * perColor + 2 * n * names + n * n * perCell
    }

    /// Measures all n × n pairs; luminances are computed once per color. Without `backdrop`, a
    /// translucent Apple system color as the background is measured over each of
    /// `systemBackgrounds` (`ContrastEndpoint.systemBackgrounds`), the weakest kept.
    static func measure(_ palette: [PaletteColor], algorithm: ContrastAlgorithm, backdrop: SIMD3<Double>?,
                        systemBackgrounds: [(name: String, srgb: SIMD3<Double>)] = []) -> [[Cell]] {
        let displays = palette.map(\.color.display)
        let lum = displays.map(\.relativeLuminance)
        let apcaY = displays.map { APCA.PreparedLuminance(APCA.screenLuminance($0.srgb)) }
        return displays.indices.map { i in
            displays.indices.map { j in
                let fg = displays[i], bg = displays[j]
                let m: ContrastMeasurement
                if fg.alpha >= 1 && bg.alpha >= 1 {
                    // Hot path: both opaque.
                    let ratio = WCAG.contrastRatio(lum[i], lum[j])
                    let lc = APCA.lc(text: apcaY[i], background: apcaY[j])
                    let value = algorithm == .wcag2 ? nil : (algorithm == .apca ? lc : nil)
                    var cell = Cell(ratio: ratio, lc: lc, value: value, effectiveForeground: fg.srgb, effectiveBackground: bg.srgb)
                    if algorithm != .wcag2 && algorithm != .apca {
                        cell.value = algorithm.value(of: .flattened(foreground: fg.srgb, background: bg.srgb))
                    }
                    return cell
                }
                if backdrop == nil, palette[j].color.isTranslucentSystemColor,
                   let (weakest, _) = ContrastEndpoint.weakest(fg, on: bg, over: systemBackgrounds) {
                    m = weakest
                } else {
                    m = ContrastMeasurement(foreground: fg, background: bg, backdrop: backdrop)
                }
                return Cell(ratio: m.ratio, lc: m.apcaLc,
                            value: algorithm == .wcag2 ? nil : algorithm.value(of: m),
                            effectiveForeground: m.effectiveForeground, effectiveBackground: m.effectiveBackground)
            }
        }
    }

    // MARK: JSON

    static func json(_ palette: [PaletteColor], _ cells: [[Cell]], algorithm: ContrastAlgorithm, stop: () -> Bool = { false }) -> [UInt8] {
        var out = JSONByteWriter(capacity: 256 + palette.count * 200 + palette.count * palette.count * 190)
        out.raw(#"{"count":"#)
        out.rawNumber(Double(palette.count))
        out.raw(#","colors":["#)
        for c in palette {
            out.object { w in
                w.member("name", c.name)
                ColorJSON.describeMembers(c.color, into: &w)
            }
        }
        out.raw(#"],"algorithm":"#)
        out.rawString(algorithm.rawValue)
        out.raw(#","apcaVersion":"#)
        out.rawString(APCA.version)
        out.raw(#","rows":["#)
        // A cell's bytes from `{"ratio":` to `"apcaLc":` are a function of its ratio alone, and
        // the WCAG ratio of an opaque pair is the same both ways round: a cell below the diagonal
        // whose ratio equals its mirror's (above it, written earlier) copies the mirror's bytes
        // instead of printing the number again. The offsets of those pieces, by i * n + j.
        let n = cells.count
        let square = cells.allSatisfy { $0.count == n }  // as `measure` makes it; else no mirrors
        var pieceStart = [Int](repeating: 0, count: n * n)
        var pieceEnd = [Int](repeating: 0, count: n * n)
        for (i, row) in cells.enumerated() {
            if stop() { break }  // abandoned: the caller drops what was written
            if i > 0 { out.raw(UInt8(ascii: ",")) }
            out.raw(UInt8(ascii: "["))
            for (j, cell) in row.enumerated() {
                if j > 0 { out.raw(UInt8(ascii: ",")) }
                let mirror = j * n + i
                if square && j < i && cells[j][i].ratio == cell.ratio {
                    out.rawRepeat(pieceStart[mirror]..<pieceEnd[mirror])
                } else {
                    let start = out.count
                    out.raw(#"{"ratio":"#)
                    out.rawNumber(cell.ratio)
                    out.raw(#","ratioText":""#)
                    appendRatioText(cell.ratio, into: &out)
                    // The five verdicts as one precomputed piece (from `","AA":` to `"apcaLc":`).
                    out.raw(verdictPieces[ContrastJSON.verdictIndex(cell.ratio)])
                    if square && j > i {
                        pieceStart[i * n + j] = start
                        pieceEnd[i * n + j] = out.count
                    }
                }
                out.rawNumber(cell.lc)
                if let v = cell.value {
                    out.raw(#","value":"#)
                    out.rawNumber(v)
                }
                out.raw(UInt8(ascii: "}"))
            }
            out.raw(UInt8(ascii: "]"))
        }
        out.raw("]}")
        return out.bytes
    }

    /// For each `verdictIndex`, the JSON between a cell's ratio text and its Lc:
    /// `","AA":{"normalText":…,"largeText":…,"nonText":…},"AAA":{"normalText":…,"largeText":…},"apcaLc":`.
    static let verdictPieces: [[UInt8]] = (0..<32).map { bits in
        func b(_ bit: Int) -> String { bits & bit != 0 ? "true" : "false" }
        return Array(#"","AA":{"normalText":\#(b(1)),"largeText":\#(b(2)),"nonText":\#(b(4))},"AAA":{"normalText":\#(b(8)),"largeText":\#(b(16))},"apcaLc":"#.utf8)
    }

    /// `WCAG.ratioText(ratio)` (two decimals, floored) written straight into `out`.
    static func appendRatioText(_ ratio: Double, into out: inout JSONByteWriter) {
        let hundredths = WCAG.ratioHundredths(ratio)
        out.rawNumber(Double(hundredths / 100))
        let fraction = hundredths % 100
        out.raw(UInt8(ascii: "."))
        out.raw(0x30 + UInt8(fraction / 10))
        out.raw(0x30 + UInt8(fraction % 10))
    }

    // MARK: CSV

    /// RFC 4180 CSV, one line per ordered pair. Names that a spreadsheet would run as a formula
    /// (leading `=`, `+`, `-`, `@`) get a leading apostrophe.
    static func csv(_ palette: [PaletteColor], _ cells: [[Cell]], algorithm: ContrastAlgorithm, stop: () -> Bool = { false }) -> String {
        var s = "foreground,background,foregroundHex,backgroundHex,ratio,ratioText,AA_normalText,AA_largeText,AA_nonText,AAA_normalText,AAA_largeText,apcaLc"
        if algorithm != .wcag2 { s += ",\(algorithm.rawValue)" }
        s += "\r\n"
        // Each name escaped once, not once per cell (a hostile pass: 256 names of 100 quotes
        // each held the heavy worker 16 s, escaped 131,072 times).
        let names = palette.map { csvField($0.name) }
        for (i, row) in cells.enumerated() {
            if stop() { break }  // abandoned: the caller drops what was written
            for (j, c) in row.enumerated() {
                let fields = [
                    names[i], names[j],
                    ColorJSON.hex(c.effectiveForeground), ColorJSON.hex(c.effectiveBackground),
                    Fields.format(c.ratio), WCAG.ratioText(c.ratio),
                    String(c.ratio >= WCAG.aaNormalText), String(c.ratio >= WCAG.aaLargeText),
                    String(c.ratio >= WCAG.aaNonText), String(c.ratio >= WCAG.aaaNormalText),
                    String(c.ratio >= WCAG.aaaLargeText), Fields.format(c.lc),
                ] + (c.value.map { [Fields.format($0)] } ?? [])
                s += fields.joined(separator: ",") + "\r\n"
            }
        }
        return s
    }

    static func csvField(_ text: String) -> String {
        // Hidden characters (bidi overrides, zero-width spaces, line breaks) as `\u202E`, as the
        // text reports write them: a spreadsheet shows the cell's text (a hostile pass).
        var t = ClientText.visible(text)
        // A formula start, also after leading spaces (spreadsheets trim them: hostile test), and
        // a leading tab, carriage return or line feed (a hostile pass: LF then `=`).
        if let first = t.unicodeScalars.first(where: { $0 != " " }), "=+-@\t\r\n".unicodeScalars.contains(first) { t = "'" + t }
        guard t.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return t }
        // Quotes doubled in one pass over the bytes.
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(t.utf8.count + 8)
        for b in t.utf8 {
            if b == UInt8(ascii: "\"") { bytes.append(b) }
            bytes.append(b)
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: SVG

    /// Characters of a name the SVG grid's labels show (about 80 px at 11 px: sixteen ran into
    /// the next column's label, and row labels were cut at the grid: a new user's pass).
    static let svgLabelCharacters = 13

    /// The grid as a picture: row headers are foregrounds, column headers backgrounds; each cell
    /// is painted in its effective colors with sample text "Aa", the floored ratio and an AA mark
    /// (`AA ✓` normal text, `AA large` large text only, `✗` fail; `—` for a color on itself).
    static func svg(_ palette: [PaletteColor], _ cells: [[Cell]], stop: () -> Bool = { false }) -> String {
        let cw = 96, ch = 64, head = 132, n = palette.count
        let width = head + n * cw, height = head + n * ch
        var s = SVGDrawing.open(width: width, height: height, title: "Contrast matrix: rows are text (foreground), columns are backgrounds")
        s += "<text x=\"8\" y=\"20\" font-size=\"12\" fill=\"#1c1c1e\">text ↓ / background →</text>\n"
        for (j, c) in palette.enumerated() {
            let x = head + j * cw
            s += "<rect x=\"\(x + 4)\" y=\"\(head - 36)\" width=\"\(cw - 8)\" height=\"28\" fill=\"\(ColorJSON.hex(c.color.display.srgb))\" stroke=\"#8e8e93\"/>"
            s += "<text x=\"\(x + cw / 2)\" y=\"\(head - 44)\" font-size=\"11\" text-anchor=\"middle\" fill=\"#1c1c1e\">\(SVGDrawing.xml(SVGDrawing.short(c.name, max: Self.svgLabelCharacters)))</text>\n"
        }
        for (i, c) in palette.enumerated() {
            let y = head + i * ch
            s += "<rect x=\"8\" y=\"\(y + 4)\" width=\"28\" height=\"\(ch - 8)\" fill=\"\(ColorJSON.hex(c.color.display.srgb))\" stroke=\"#8e8e93\"/>"
            s += "<text x=\"42\" y=\"\(y + ch / 2 + 4)\" font-size=\"11\" fill=\"#1c1c1e\">\(SVGDrawing.xml(SVGDrawing.short(c.name, max: Self.svgLabelCharacters)))</text>\n"
        }
        for (i, row) in cells.enumerated() {
            if stop() { break }  // abandoned: the caller drops what was written
            for (j, cell) in row.enumerated() {
                let x = head + j * cw, y = head + i * ch
                let bg = ColorJSON.hex(cell.effectiveBackground), fg = ColorJSON.hex(cell.effectiveForeground)
                // Caption color: whichever of black and white reads better on this background.
                let caption = SVGDrawing.captionColor(on: cell.effectiveBackground)
                // A color on itself is no pair: "—", as the page's table shows it (a new user's
                // pass read "1.00 ✗" on the diagonal as a failure).
                let mark = cell.ratio >= WCAG.aaNormalText ? "AA ✓" : (cell.ratio >= WCAG.aaLargeText ? "AA large" : "✗")
                let captionText = i == j ? "—" : "\(WCAG.ratioText(cell.ratio)) \(mark)"
                s += "<g><title>\(SVGDrawing.xml(palette[i].name)) on \(SVGDrawing.xml(palette[j].name)): \(WCAG.ratioText(cell.ratio)):1</title>"
                s += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cw)\" height=\"\(ch)\" fill=\"\(bg)\" stroke=\"#c7c7cc\" stroke-width=\"0.5\"/>"
                s += "<text x=\"\(x + 8)\" y=\"\(y + 28)\" font-size=\"22\" font-weight=\"600\" fill=\"\(fg)\">Aa</text>"
                s += "<text x=\"\(x + 8)\" y=\"\(y + 50)\" font-size=\"11\" fill=\"\(caption)\">\(captionText)</text></g>\n"
            }
        }
        s += "</svg>\n"
        return s
    }
}
