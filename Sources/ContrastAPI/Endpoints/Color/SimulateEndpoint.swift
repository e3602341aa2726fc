import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/simulate`: how a palette reads with a color-vision deficiency.
///
/// Request: `colors` (palette), `type` (`protanopia`, `deuteranopia`, `tritanopia`,
/// `achromatopsia`; also `protan`, `deutan`, `tritan`), `severity` `0...1` (default 1; below 1 is
/// anomalous trichromacy), `model` (`machado` default, `brettel`, `vienot`), optional `pairs`
/// (`[{"foreground": name, "background": name}]`) whose contrast is reported before and after
/// simulation, and `threshold` (ΔE OK below which two simulated colors are "hard to tell apart",
/// default 0.05 ≈ 2.5 × the CSS Color 4 gamut-mapping JND of 0.02).
///
/// Simulated colors are computed in linear sRGB (Machado, Oliveira and Fernandes 2009; Brettel,
/// Viénot and Mollon 1997; Viénot, Brettel and Mollon 1999) and clipped into sRGB for display.
struct SimulateEndpoint {
    static let defaultThreshold = 0.05
    /// An upper bound of the answer's bytes from the colors' names: each color's entry (at most
    /// 400 bytes besides its name) and every pair confusable (at most 160 bytes besides the two
    /// names; measured: 199 and 100), names weighed as JSON escapes them (6 bytes for a control
    /// character, 2 for a quote or backslash), and 2 MB for the `pairs` section (at most 1,024).
    static func answerBytes(names: [String]) -> Int {
        let weights = names.map { name in
            name.utf8.reduce(0) { $0 + ($1 < 0x20 ? 6 : $1 == 0x22 || $1 == 0x5C ? 2 : 1) }
        }
        let n = names.count, total = weights.reduce(0, +)
        return 2_000_000 + n * 400 + total + n * (n - 1) / 2 * 160 + (n - 1) * total
    }

    /// Most `pairs` in one request (a 413 beyond): a pair on a translucent background is measured
    /// over 256 gray backdrops, before and after simulation (about 0.9 ms), so 1,024 such pairs
    /// take about a second. A hostile pass sent one translucent pair 27,000 times (972 KB): 5 s
    /// of the heavy worker and a 16 MB answer. A pair repeated is measured once.
    static let maxPairs = 1_024
    let maxPaletteSize: Int

    func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.body(request)
        try f.rejectUnknown(["colors", "type", "severity", "model", "pairs", "threshold", "hexOrder"])
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        // Counted before any color is read (a hostile pass: 1,025 pairs were refused after 0.8 s
        // of reading var() colors).
        _ = try f.array("pairs", maxCount: Self.maxPairs)
        let palette = try f.palette("colors", limit: maxPaletteSize, hexOrder: hexOrder)
        let typeName = try f.string("type", required: true, maxLength: 32)!
        guard let type = CVDType(name: typeName.lowercased()) else {
            // The anomalous trichromacies by name (a new user's pass: deuteranomaly, the most
            // common, got only the list): the dichromacy at a severity below 1 (Machado 2009).
            let lower = typeName.lowercased()
            let anomalies = [("protanomal", "protanopia"), ("deuteranomal", "deuteranopia"), ("tritanomal", "tritanopia")]
            if let (_, dichromacy) = anomalies.first(where: { lower.hasPrefix($0.0) }) {
                throw Problem.invalidField(f.field("type"), "\(f.field("type").display) \(ClientText.quoted(typeName)) is \(dichromacy) at a severity below 1: give \(f.field("type").display) \"\(dichromacy)\" and \(f.field("severity").display) from 0 to 1 (anomalous trichromacy, as Machado 2009 models it)")
            }
            throw Problem.invalidField(f.field("type"), "\(f.field("type").display) must be one of protanopia, deuteranopia, tritanopia, achromatopsia (or protan, deutan, tritan), got \(ClientText.quoted(typeName))")
        }
        let severity = try f.number("severity", in: 0...1) ?? 1
        let model = try f.choice("model", CVDModel.self) ?? .machado2009
        if type == .achromatopsia && f.has("model") {
            // Achromatopsia is simulated from luminance, by no dichromacy model: a model asked
            // for would silently go unused (hostile test).
            throw Problem.contradictory(f.field("model"), f.field("type"),
                                        "\(f.field("model").display) chooses a dichromacy simulation; achromatopsia is simulated from relative luminance, so leave \(f.field("model").display) out")
        }
        let threshold = try f.number("threshold", in: 0...1) ?? Self.defaultThreshold
        // Every pair may be confusable, each naming both colors: the answer's size is bounded
        // from the names before anything is simulated, as the matrix's is (a hostile pass: 256
        // names of 125 control characters, escaped six-fold, made a 52 MB answer, three at
        // once peaking at 282 MB).
        let bytes = Self.answerBytes(names: palette.map(\.name))
        if bytes > MatrixEndpoint.maxAnswerBytes {
            throw Problem.tooLarge(f.field("colors"), "the answer could take about \(Int((Double(bytes) / Double(1 << 20)).rounded(.up))) MiB (\(palette.count) colors, and up to \(palette.count * (palette.count - 1) / 2) confusable pairs, each naming both colors as JSON escapes them); at most \(MatrixEndpoint.maxAnswerBytes >> 20) MiB: shorten the names or split the palette",
                                   limit: MatrixEndpoint.maxAnswerBytes, status: 422)
        }

        // Simulate each color once (straight alpha kept; the simulation acts on the color).
        let simulated: [DisplayColor] = palette.map { p in
            let s = ColorVisionDeficiency.simulate(Color(space: .srgb, coordinates: p.color.display.srgb), type: type, severity: severity, model: model)
            let clipped = s.coordinates.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
            return DisplayColor(srgb: clipped, alpha: p.color.display.alpha)
        }
        var colors: [JSON] = []
        for (i, p) in palette.enumerated() {
            colors.append(.object([
                ("name", .string(p.name)),
                ("hex", .string(ColorJSON.hex(p.color.display.srgb, alpha: p.color.display.alpha))),
                ("simulated", .object([
                    ("hex", .string(ColorJSON.hex(simulated[i].srgb, alpha: simulated[i].alpha))),
                    ("rgba", ColorJSON.rgba(simulated[i].srgb, alpha: simulated[i].alpha)),
                    ("relativeLuminance", .number(simulated[i].relativeLuminance)),
                    ("apcaY", .number(ColorJSON.apcaY(simulated[i].srgb))),
                ])),
            ]))
        }

        var out = JSONObject()
        out.append("type", .string(type.rawValue))
        out.append("model", .string(type == .achromatopsia ? "luminance" : model.rawValue))
        out.append("severity", .number(severity))
        out.append("colors", .array(colors))

        if let pairItems = try f.array("pairs", maxCount: Self.maxPairs) {
            let index = Dictionary(palette.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
            var pairs: [JSON] = []
            var measured: [Int: JSON] = [:]
            for (k, item) in pairItems.enumerated() {
                let path = f.field("pairs").appending(index: k)
                guard case .object(let o) = item else {
                    throw Problem.invalidField(path, "\(path.display) must be {\"foreground\": name, \"background\": name}, not \(item.typeName)")
                }
                let pf = Fields(object: o, path: path, fromQuery: false)
                try pf.rejectUnknown(["foreground", "background"])
                var ends: [Int] = []
                for key in ["foreground", "background"] {
                    let name = try pf.string(key, required: true, maxLength: 256)!
                    guard let i = index[name] else {
                        throw Problem.invalidField(pf.field(key), "\(pf.field(key).display) names no color of the palette: \(ClientText.quoted(name))")
                    }
                    ends.append(i)
                }
                let key = ends[0] * palette.count + ends[1]
                if let done = measured[key] { pairs.append(done); continue }
                let before = ContrastMeasurement(foreground: palette[ends[0]].color.display, background: palette[ends[1]].color.display)
                let after = ContrastMeasurement(foreground: simulated[ends[0]], background: simulated[ends[1]])
                var members: [(String, JSON)] = [
                    ("foreground", .string(palette[ends[0]].name)),
                    ("background", .string(palette[ends[1]].name)),
                    ("ratio", .number(before.ratio)),
                    ("simulatedRatio", .number(after.ratio)),
                    ("simulatedRatioText", .string(WCAG.ratioText(after.ratio))),
                    ("simulatedWcag", ContrastJSON.wcagVerdicts(after.ratio)),
                    ("apcaLc", .number(before.apcaLc)),
                    ("simulatedApcaLc", .number(after.apcaLc)),
                ]
                // A translucent background has no one color without what lies behind it (a
                // hostile pass: 1:1 with no word why): the ratios are the worst over every gray
                // backdrop, as /v1/contrast measures it, said with the range.
                if palette[ends[1]].color.display.alpha < 1 {
                    if let r = after.ratioRange {
                        members.append(("simulatedRatioRange", .object([("min", .number(r.min)), ("max", .number(r.max))])))
                    }
                    members.append(("note", .string("the background is translucent and lies over an unknown backdrop: the ratios and Lc are the worst over every gray backdrop (simulatedRatioRange the range); composite it over its backdrop first (/v1/contrast with backdrop) for one value")))
                }
                measured[key] = .object(members)
                pairs.append(.object(members))
            }
            out.append("pairs", .array(pairs))
            // Only pairs carry an Lc.
            out.append(APCAJSON.versionMember.0, APCAJSON.versionMember.1)
        }

        // Pairs that become hard to tell apart.
        let oklab = simulated.map { Color(space: .srgb, coordinates: $0.srgb).converted(to: .oklab).coordinates }
        let originalOklab = palette.map { Color(space: .srgb, coordinates: $0.color.display.srgb).converted(to: .oklab).coordinates }
        var confusable: [JSON] = []
        for i in palette.indices {
            for j in palette.indices where j > i {
                let d = ColorDifference.deltaEOK(oklab1: oklab[i], oklab2: oklab[j])
                if d < threshold {
                    confusable.append(.object([
                        ("a", .string(palette[i].name)),
                        ("b", .string(palette[j].name)),
                        ("deltaEOK", .number(ColorDifference.deltaEOK(oklab1: originalOklab[i], oklab2: originalOklab[j]))),
                        ("simulatedDeltaEOK", .number(d)),
                    ]))
                }
            }
        }
        out.append("threshold", .number(threshold))
        out.append("confusable", .array(confusable))
        return .object(out)
    }
}
