import ColorScience
@testable import ContrastAPI
import Foundation
import JSONValue
import TestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 3 endpoints: convert, matrix, simulate, difference, APCA font; against the references.
struct ScienceEndpointsTests {
    static func fixture(_ name: String) throws -> [JSON] {
        try FixtureLoader.jsonValues(name)
    }

    func numbers(_ j: JSON?) -> [Double?] { (j?.array ?? []).map(\.double) }

    // MARK: convert

    @Test func convertMatchesColorJS() throws {
        let spaces = ["srgb-linear", "xyz-d65", "xyz-d50", "lab", "lch", "oklab", "oklch", "hsl", "hwb", "display-p3"]
        for row in try Self.fixture("convert.jsonl") {
            let hex = row["srgb_hex"]!.string!
            let r = call("POST", "/v1/convert", body: ##"{"color": "\##(hex)"}"##)
            #expect(r.status == 200)
            for space in spaces {
                let key = space == "display-p3" ? "p3" : space
                let want = numbers(row[key])
                let got = numbers(r.json["conversions"]?[space]?["coordinates"])
                #expect(got.count == 3, "\(hex) \(space)")
                for i in 0..<min(3, got.count) {
                    let isHue = (["lch", "oklch"].contains(space) && i == 2) || (["hsl", "hwb"].contains(space) && i == 0)
                    guard let g = got[i], let w = want[i] else {
                        // An achromatic hue is null; the reference then has some angle or 0.
                        #expect(isHue, "\(hex) \(space)[\(i)] is null")
                        continue
                    }
                    var d = abs(g - w)
                    if isHue { d = min(d, 360 - d) }
                    #expect(d < 1e-6, "\(hex) \(space)[\(i)]: \(g) vs \(w)")
                }
            }
            #expect(r.json["conversions"]?["hex"]?.string == hex.lowercased())
        }
    }

    @Test func convertReportsAchromaticHueAsNullAndGamut() {
        let gray = call("GET", "/v1/convert?color=%23777777&to=oklch,hsl,hex").json
        #expect(gray["conversions"]?["oklch"]?["coordinates"]?.array?[2] == .null)
        #expect(gray["conversions"]?["hsl"]?["coordinates"]?.array?[0] == .null)
        #expect(gray["conversions"]?["oklch"]?["css"]?.string?.contains("none") == true)
        #expect(gray["conversions"]?["hex"] == "#777777")
        #expect(gray["conversions"]?["srgb"] == nil)
        #expect(gray["notes"] == nil)
        // A hex without '#' says how it was read, as /v1/contrast does per color (hostile pass).
        let bare = call("GET", "/v1/convert?color=1F2937&to=hex").json
        #expect(bare["conversions"]?["hex"] == "#1f2937")
        #expect(bare["notes"]?.array?.first?.string?.contains("has no '#'") == true, "\(bare)")
        let p3 = call("POST", "/v1/convert", body: ##"{"color": "color(display-p3 1 0 0)", "to": ["srgb", "hex"], "gamut": "srgb"}"##).json
        #expect(p3["inGamut"]?["srgb"] == false && p3["inGamut"]?["display-p3"] == true)
        #expect(p3["gamutMapping"]?["applied"] == true && p3["gamutMapping"]?["method"] == "css4")
        let mappedSRGB = numbers(p3["conversions"]?["srgb"]?["coordinates"])
        #expect(mappedSRGB.count == 3 && mappedSRGB.allSatisfy { $0 != nil }, "\(mappedSRGB)")
        for c in mappedSRGB { #expect(c! >= -1e-9 && c! <= 1 + 1e-9) }
        let hexOnly = call("POST", "/v1/convert", body: ##"{"color": "color(display-p3 1 0 0)", "to": "hex"}"##).json
        #expect(hexOnly["hexGamutMapped"] == true)
        // The hex is the input's own sRGB mapping, not that of the display-p3 mapping (a hostile
        // pass: #00c537; ColorAide's CSS Color 4 mapping of oklch(0.7 0.4 150) is #00c248).
        let wide = call("POST", "/v1/convert", body: ##"{"color": "oklch(0.7 0.4 150)", "to": ["hex"], "gamut": "display-p3"}"##).json
        #expect(wide["conversions"]?["hex"] == "#00c248" && wide["hexGamutMapped"] == true, "\(wide)")
        #expect(call("POST", "/v1/convert", body: ##"{"color": "oklch(0.7 0.4 150)", "to": ["hex"]}"##).json["conversions"]?["hex"] == "#00c248")
        // Into its own space too (hostile test: lch(50 0 120) kept hue 120, hsl(200 -50% 50%) 200).
        let cases: [(String, String, [JSON])] = [
            ("lch(50 0 120)", "lch", [50, 0, .null]), ("oklch(0.5 0 200)", "oklch", [0.5, 0, .null]),
            ("hsl(200 -50% 50%)", "hsl", [.null, 0, 50]), ("hwb(120 60% 40%)", "hwb", [.null, 60, 40]),
            ("lch(50 10 120)", "lch", [50, 10, 120]), ("hsl(200 50% 50%)", "hsl", [200, 50, 50]),
        ]
        for (input, space, expected) in cases {
            let j = call("POST", "/v1/convert", body: ##"{"color": "\##(input)", "to": "\##(space)"}"##).json
            #expect(j["conversions"]?[space]?["coordinates"]?.array == expected, "\(input)")
        }
    }

    @Test func convertGamutMappingMatchesColorAide() throws {
        for row in try Self.fixture("gamut_map.jsonl").prefix(60) {
            let o = numbers(row["oklch"]).map { $0! }
            let css = "oklch(\(o[0]) \(o[1]) \(o[2]))"
            for (method, key, tol) in [("css4", "srgb_css4", 1e-4), ("clip", "srgb_clip", 1e-6)] {
                let r = call("POST", "/v1/convert", body: ##"{"color": "\##(css)", "to": "srgb", "gamut": "srgb", "gamutMethod": "\##(method)"}"##).json
                let got = numbers(r["conversions"]?["srgb"]?["coordinates"])
                let want = numbers(row[key])
                for i in 0..<3 { #expect(abs(got[i]! - want[i]!) < tol, "\(css) \(method)") }
            }
        }
    }

    @Test func convertBadInput() {
        expectProblem(call("GET", "/v1/convert?color=red&to=cmyk"), 400, parameter: "to")
        expectProblem(call("POST", "/v1/convert", body: ##"{"color": "red", "to": [1]}"##), 400, pointer: "/to/0")
        expectProblem(call("POST", "/v1/convert", body: ##"{"color": "red", "to": []}"##), 400, pointer: "/to")
        expectProblem(call("POST", "/v1/convert", body: ##"{"color": "red", "gamutMethod": "clip"}"##), 400, pointer: "/gamutMethod")
        expectProblem(call("POST", "/v1/convert", body: ##"{"color": "red", "gamut": "cmyk"}"##), 400, pointer: "/gamut")
        expectProblem(call("POST", "/v1/convert", body: ##"{"to": "lab"}"##), 400, pointer: "/color")
    }

    // MARK: matrix

    @Test func matrixCellsEqualSinglePairs() {
        let palette = ["#ffffff", "#1c1c1e", "#007aff", "rgba(0,0,0,0.6)", "oklch(70% 0.2 30)", "#000000", "#767676"]
        let body = ##"{"colors": [\##(palette.map { "\"\($0)\"" }.joined(separator: ","))]}"##
        let r = call("POST", "/v1/contrast/matrix", body: body)
        #expect(r.status == 200)
        let j = r.json
        #expect(j["count"] == 7)
        #expect(j["colors"]?.array?.map { $0["name"]?.string ?? "" } == palette)
        let rows = j["rows"]!.array!
        #expect(rows.count == 7)
        for (i, fg) in palette.enumerated() {
            for (k, bg) in palette.enumerated() {
                let cell = rows[i].array![k]
                let single = call("GET", "/v1/contrast?foreground=\(q(fg))&background=\(q(bg))").json
                #expect(abs(cell["ratio"]!.double! - single["ratio"]!.double!) < 1e-12, "\(fg) on \(bg)")
                #expect(cell["ratioText"] == single["ratioText"])
                #expect(cell["AA"] == single["wcag"]?["AA"])
                #expect(cell["AAA"] == single["wcag"]?["AAA"])
                #expect(abs(cell["apcaLc"]!.double! - single["apca"]!["lc"]!.double!) < 1e-12)
            }
        }
    }

    @Test func matrixCSVAndSVG() throws {
        let body = ##"{"colors": [{"name": "paper", "color": "#fff"}, {"name": "=ink, \"dark\"", "color": "#111"}]}"##
        let csv = call("POST", "/v1/contrast/matrix?format=csv", body: body)
        #expect(csv.status == 200 && csv.headers["content-type"]?.hasPrefix("text/csv") == true)
        let lines = csv.text.split(separator: "\r\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("foreground,background,"))
        // Formula-like names are neutralised and quoted.
        #expect(lines[2].hasPrefix("paper,\"'=ink, \"\"dark\"\"\",#ffffff,#111111,"))
        // Hidden characters in names are written `\u202E` (a hostile pass: a bidi override and a
        // line break reached the cells raw).
        let hidden = call("POST", "/v1/contrast/matrix?format=csv", body: ##"{"colors": [{"name": "\u202e=bidi", "color": "#fff"}, {"name": "x\ny\u200b", "color": "#111"}]}"##)
        #expect(hidden.text.contains("\\u202E=bidi,") && hidden.text.contains("x\\u000Ay\\u200B,") && !hidden.text.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{200B}" }, "\(hidden.text)")
        let ratio = Double(lines[2].split(separator: ",")[5])!
        #expect(abs(ratio - WCAG.contrastRatio(1, WCAG.relativeLuminance(SIMD3(repeating: 17.0 / 255)))) < 1e-9)

        let svg = call("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#fff", "<b>&"], "format": "svg"}"##)
        expectProblem(svg, 400, pointer: "/colors/1")
        let good = call("POST", "/v1/contrast/matrix", body: ##"{"colors": [{"name": "<a&b>", "color": "#fff"}, "#000"], "format": "svg"}"##)
        #expect(good.status == 200 && good.headers["content-type"]?.hasPrefix("image/svg+xml") == true)
        let parser = XMLParser(data: Data(good.body))
        #expect(parser.parse(), "SVG must be well-formed XML")
        #expect(good.text.contains("&lt;a&amp;b&gt;"))
        #expect(good.text.contains("21.00 AA ✓"))
        // The diagonal is no pair: "—", not "1.00 ✗"; names are cut to 13 characters so labels
        // do not run into each other (a new user's pass).
        #expect(!good.text.contains("1.00 ✗") && good.text.contains(">—</text>"), "\(good.text)")
        let long = call("POST", "/v1/contrast/matrix", body: ##"{"colors": [{"name": "card-foreground-strong", "color": "#fff"}, "#000"], "format": "svg"}"##)
        #expect(long.text.contains(">card-foregro…</text>") && !long.text.contains(">card-foreground-strong</text>"), "\(long.text.prefix(800))")
        // Characters XML 1.0 forbids (U+FFFE, U+FFFF, C0 controls) become U+FFFD (hostile test:
        // U+FFFF in a name made the SVG unparseable).
        let odd = call("POST", "/v1/contrast/matrix", body: ##"{"colors": [{"name": "g\uffffh\ufffe\u0001", "color": "#fff"}, "#000"], "format": "svg"}"##)
        #expect(odd.status == 200)
        #expect(XMLParser(data: Data(odd.body)).parse(), "SVG with U+FFFF in a name must be well-formed XML")
        #expect(odd.text.contains("g\u{FFFD}h\u{FFFD}\u{FFFD}"))
    }

    @Test func matrixLimitsAndBadInput() {
        var config = testConfiguration()
        config.maxPaletteSize = 3
        let over = call("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#000", "#111", "#222", "#333"]}"##, configuration: config)
        let j = expectProblem(over, 413, pointer: "/colors")
        #expect(j["limit"] == 3)
        // A JSON answer is bounded like CSV and SVG (a hostile pass: maxPaletteSize 4096 let one
        // request build a 2.96 GB answer, 7.7 GB at the peak). 409 colors fit, 410 do not: the
        // estimate's 200 bytes a cell (180 measured) over 32 MiB.
        var wide = testConfiguration()
        wide.maxPaletteSize = 4096
        func grays(_ n: Int) -> String {
            let colors = (0..<n).map { i in "\"#" + String(format: "%06x", i * 40_000) + "\"" }
            return "{\"colors\": [" + colors.joined(separator: ",") + "]}"
        }
        let big = expectProblem(call("POST", "/v1/contrast/matrix", body: grays(410), configuration: wide), 422, pointer: "/colors")
        #expect(big["limit"] == .number(Double(32 << 20)) && big["detail"]?.string?.hasPrefix("the JSON answer would take about 33 MiB (410 × 410 cells); at most 32 MiB: split the palette") == true, "\(big)")
        let fits = call("POST", "/v1/contrast/matrix", body: grays(400), configuration: wide)
        #expect(fits.status == 200 && fits.body.count < 400 * 400 * 200, "\(fits.body.count)")
        expectProblem(call("POST", "/v1/contrast/matrix", body: ##"{"colors": []}"##), 400, pointer: "/colors")
        // Translucent on translucent without a backdrop is measured over 256 grays: at most 32
        // such colors (256 took 7 s of a worker, found by a hostile test); a backdrop lifts it.
        func translucent(_ n: Int, opaque: Int = 0, backdrop: String? = nil) -> String {
            let colors = (0..<n).map { "\"#\(String(format: "%02x%02x%02x80", $0, 255 - $0, $0 / 2))\"" }
                + (0..<opaque).map { "\"#\(String(format: "%02x%02x%02x", $0, $0, 255 - $0))\"" }
            return ##"{"colors": [\##(colors.joined(separator: ","))]\##(backdrop.map { #", "backdrop": "\#($0)""# } ?? "")}"##
        }
        #expect(call("POST", "/v1/contrast/matrix", body: translucent(32, opaque: 100)).status == 200)
        let tooMany = expectProblem(call("POST", "/v1/contrast/matrix", body: translucent(33)), 422, pointer: "/colors")
        #expect(tooMany["type"] == "/problems/limit-exceeded" && tooMany["limit"] == 1024)
        #expect(call("POST", "/v1/contrast/matrix", body: translucent(40, backdrop: "#808080")).status == 200)
        expectProblem(call("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#000", "#000"]}"##), 400, pointer: "/colors/1")
        expectProblem(call("POST", "/v1/contrast/matrix", body: ##"{"colors": [{"name": "a", "color": "#000"}, {"name": "a", "color": "#fff"}]}"##), 400, pointer: "/colors/1")
        expectProblem(call("POST", "/v1/contrast/matrix", body: ##"{"colors": "#000"}"##), 400, pointer: "/colors")
        expectProblem(call("POST", "/v1/contrast/matrix", body: ##"{"colors": [42]}"##), 400, pointer: "/colors/0")
        expectProblem(call("POST", "/v1/contrast/matrix?format=pdf", body: ##"{"colors": ["#000"]}"##), 400, parameter: "format")
        expectProblem(call("GET", "/v1/contrast/matrix"), 405)
    }

    // MARK: simulate

    @Test func simulateMatchesReference() throws {
        // cvd.jsonl is linear-light sRGB, unclamped; the API shows it gamma-encoded and clipped.
        func encode(_ v: Double) -> Double {
            let c = min(max(v, 0), 1)
            return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
        }
        for row in try Self.fixture("cvd.jsonl").prefix(40) {
            let hex = row["srgb_hex"]!.string!
            for (key, type, model, severity) in [("protan_machado", "protanopia", "machado", 1.0),
                                                 ("deutan_machado", "deuteranopia", "machado", 1.0),
                                                 ("tritan_machado", "tritanopia", "machado", 1.0),
                                                 ("protan_machado_0.5", "protan", "machado", 0.5),
                                                 ("deutan_vienot", "deutan", "vienot", 1.0),
                                                 ("tritan_brettel", "tritanopia", "brettel", 1.0)] {
                let r = call("POST", "/v1/simulate", body: ##"{"colors": ["\##(hex)"], "type": "\##(type)", "model": "\##(model)", "severity": \##(severity)}"##)
                #expect(r.status == 200, "\(r.text)")
                let got = numbers(r.json["colors"]?.array?.first?["simulated"]?["rgba"])
                let want = numbers(row[key])
                for i in 0..<3 { #expect(abs(got[i]! - encode(want[i]!) * 255) < 1e-6, "\(hex) \(key)") }
            }
        }
    }

    /// A hostile pass, stop 49: one translucent pair sent 27,000 times (972 KB) held the heavy
    /// worker 5 s for a 16 MB answer. `pairs` is capped at 1,024 (a 413 naming it), and a pair
    /// repeated is answered the same each time.
    @Test func simulatePairsAreBounded() {
        func body(_ n: Int) -> String {
            let pair = ##"{"foreground": "ink", "background": "veil"}"##
            return ##"{"colors": [{"name": "ink", "color": "#777"}, {"name": "veil", "color": "rgb(255 0 0 / 0.5)"}], "type": "protan", "severity": 0.6, "pairs": [\##(Array(repeating: pair, count: n).joined(separator: ","))]}"##
        }
        let over = expectProblem(call("POST", "/v1/simulate", body: body(1_025)), 413, pointer: "/pairs")
        #expect(over["limit"] == 1024)
        // Counted before any color is read (a hostile pass: refused after 0.8 s of reading var()
        // colors): a palette that cannot be read is not read.
        expectProblem(call("POST", "/v1/simulate", body: body(1_025).replacingOccurrences(of: "#777", with: "not-a-color")), 413, pointer: "/pairs")
        // The same for the matrix's gradients and the palette's placements.
        let seventeen = (0..<17).map { "{\"name\": \"g\($0)\", \"background\": \"linear-gradient(#000, #fff)\"}" }.joined(separator: ",")
        expectProblem(call("POST", "/v1/contrast/matrix", body: "{\"colors\": [\"not-a-color\", \"#fff\"], \"gradients\": [\(seventeen)]}"), 413, pointer: "/gradients")
        let backgrounds = (0..<8).map { "{\"name\": \"b\($0)\", \"role\": \"background\", \"color\": \"#eee\"}" }
        let texts = (0..<33).map { "{\"name\": \"t\($0)\", \"color\": \"not-a-color\", \"on\": [\"b0\", \"b1\", \"b2\", \"b3\", \"b4\", \"b5\", \"b6\", \"b7\"]}" }
        let placed = expectProblem(call("POST", "/v1/palette/dark", body: "{\"colors\": [\((backgrounds + texts).joined(separator: ","))]}"), 413, pointer: "/colors/40/on")
        #expect(placed["limit"] == 256)
        let nine = "{\"colors\": [{\"name\": \"t\", \"color\": \"not-a-color\", \"on\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\"]}]}"
        expectProblem(call("POST", "/v1/palette/dark", body: nine), 413, pointer: "/colors/0/on")
        let at = call("POST", "/v1/simulate", body: body(1_024)).json
        let pairs = at["pairs"]?.array ?? []
        #expect(pairs.count == 1_024 && pairs.allSatisfy { $0 == pairs[0] } && pairs[0]["simulatedRatioRange"] != nil)
        // The answer is bounded from the names before simulating (a hostile pass: 256 names of
        // 125 control characters made a 52 MB answer); 256 plain names of 64 letters fit.
        func palette(_ name: (Int) -> String) -> String {
            let colors = (0..<256).map { i in "{\"name\": \"\(name(i))\", \"color\": \"#\(String(format: "%06x", i * 65_000))\"}" }
            return "{\"colors\": [" + colors.joined(separator: ",") + "], \"type\": \"protanopia\", \"threshold\": 1}"
        }
        let control = String(repeating: "\\u0001", count: 125)
        let big = expectProblem(call("POST", "/v1/simulate", body: palette { "\($0)" + control }), 422, pointer: "/colors")
        #expect(big["limit"] == .number(Double(32 << 20)) && big["detail"]?.string?.contains("32640 confusable pairs") == true, "\(big)")
        let plain = call("POST", "/v1/simulate", body: palette { String(format: "%03d", $0) + String(repeating: "n", count: 61) })
        #expect(plain.status == 200 && plain.body.count <= SimulateEndpoint.answerBytes(names: (0..<256).map { String(format: "%03d", $0) + String(repeating: "n", count: 61) }), "\(plain.status) \(plain.body.count)")
    }

    @Test func simulateReportsPairsAndConfusableColors() {
        // Red and green collapse for a deuteranope.
        let body = ##"{"colors": [{"name": "stop", "color": "#d32f2f"}, {"name": "go", "color": "#388e3c"}, {"name": "paper", "color": "#ffffff"}], "type": "deuteranopia", "pairs": [{"foreground": "stop", "background": "paper"}], "threshold": 0.1}"##
        let j = call("POST", "/v1/simulate", body: body).json
        #expect(j["model"] == "machado" && j["severity"] == 1 && j["threshold"] == 0.1)
        let pair = j["pairs"]!.array![0]
        #expect(pair["foreground"] == "stop" && pair["simulatedRatio"]!.double! >= 1)
        let confusable = j["confusable"]!.array!
        #expect(confusable.contains { $0["a"] == "stop" && $0["b"] == "go" })
        #expect(!confusable.contains { $0["b"] == "paper" })
        // Achromatopsia: every simulated color is a gray.
        let mono = call("POST", "/v1/simulate", body: ##"{"colors": ["#ff0000", "#00ff00"], "type": "achromatopsia"}"##).json
        for c in mono["colors"]!.array! {
            let rgba = numbers(c["simulated"]?["rgba"])
            #expect(abs(rgba[0]! - rgba[1]!) < 1e-9 && abs(rgba[1]! - rgba[2]!) < 1e-9)
        }
        // A dichromacy model with achromatopsia would go unused: refused, naming both (hostile test).
        let both = expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#ff0000"], "type": "achromatopsia", "model": "brettel"}"##),
                                 400, pointer: "/model")
        #expect(both["conflictsWith"] == "/type")
    }

    @Test func simulateBadInput() {
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "protanopia", "severity": 2}"##), 400, pointer: "/severity")
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "protanopia", "severity": "1"}"##), 400, pointer: "/severity")
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "colorblind"}"##), 400, pointer: "/type")
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#000"]}"##), 400, pointer: "/type")
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": [], "type": "protanopia"}"##), 400, pointer: "/colors")
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "protanopia", "model": "coblis"}"##), 400, pointer: "/model")
        expectProblem(call("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "protanopia", "pairs": [{"foreground": "#000", "background": "nope"}]}"##), 400, pointer: "/pairs/0/background")
    }

    // MARK: difference and APCA font

    @Test func differenceMatchesColorAide() throws {
        for row in try Self.fixture("delta_e.jsonl") {
            let a = row["a"]!.string!, b = row["b"]!.string!
            let j = call("GET", "/v1/difference?a=\(q(a))&b=\(q(b))").json
            #expect(abs(j["deltaE2000"]!.double! - row["de2000"]!.double!) < 1e-6, "\(a) \(b)")
            #expect(abs(j["deltaEOK"]!.double! - row["deok"]!.double!) < 1e-6)
            #expect(abs(j["deltaE76"]!.double! - row["de76"]!.double!) < 1e-6)
        }
        expectProblem(call("GET", "/v1/difference?a=red"), 400, parameter: "b")
        expectProblem(call("GET", "/v1/difference?a=red&b=blue&lab=d75"), 400, parameter: "lab")
        // Alpha is left out of ΔE, and the answer says so instead of a silent 0.
        let clear = call("GET", "/v1/difference?a=transparent&b=black").json
        #expect(clear["deltaE2000"] == 0 && clear["alphaDifference"] == 1)
        #expect(clear["notes"]?.array?.count == 1)
        #expect(call("GET", "/v1/difference?a=red&b=blue").json["alphaDifference"] == nil)
    }

    @Test func apcaFontTableMatchesApcaW3() throws {
        for row in try Self.fixture("apca_font.jsonl") {
            let lc = row["lc"]!.double!
            let j = call("GET", "/v1/apca/font?lc=\(lc)").json
            let want = numbers(row["sizes_by_weight_100_to_900"])
            for (k, w) in [100, 200, 300, 400, 500, 600, 700, 800, 900].enumerated() {
                let got = j["minimumFontSizePx"]?[String(w)]
                if want[k]! >= 777 { #expect(got == .null, "Lc \(lc) weight \(w)") } else { #expect(got?.double == want[k], "Lc \(lc) weight \(w)") }
            }
            // Polarity does not matter.
            #expect(call("GET", "/v1/apca/font?lc=\(-lc)").json["minimumFontSizePx"] == j["minimumFontSizePx"])
        }
        let body = call("GET", "/v1/apca/font?lc=75&fontSize=18&fontSizeUnit=px&fontWeight=400").json
        #expect(body["level"]?["name"] == "minimumBodyText")
        #expect(body["text"]?["sufficient"] == true)
        let small = call("GET", "/v1/apca/font?lc=75&fontSize=12&fontSizeUnit=px&fontWeight=400").json
        #expect(small["text"]?["sufficient"] == false)
        expectProblem(call("GET", "/v1/apca/font?lc=500"), 400, parameter: "lc")
        // A bare size whose answer differs as pt (21.3 px, enough at Lc 75 and 400) and as px
        // (16, not enough) asks for the unit; where both agree pt is taken as before.
        let ambiguous = call("GET", "/v1/apca/font?lc=75&fontSize=16&fontWeight=400")
        expectProblem(ambiguous, 400, parameter: "fontSizeUnit")
        #expect(ambiguous.text.contains("for APCA at Lc 75, 16 pt (21.33 px) suffices, 16 px (APCA's unit) does not suffice"))
        #expect(call("GET", "/v1/apca/font?lc=75&fontSize=16&fontSizeUnit=pt").json["text"]?["sufficient"] == true)
        #expect(call("GET", "/v1/apca/font?lc=75&fontSize=40").json["text"]?["px"]?.double == 160.0 / 3)
        expectProblem(call("GET", "/v1/apca/font"), 400, parameter: "lc")
        // The contrast endpoint carries the same table and level.
        let c = call("GET", "/v1/contrast?foreground=black&background=white").json
        #expect(c["apca"]?["level"]?["name"] == "preferredBodyText")
        #expect(c["apca"]?["minimumFontSizePx"]?["400"]?.double != nil)
    }

    // MARK: over HTTP

    @Test func everyEndpointOverHTTP() throws {
        let live = try LiveServer()
        #expect(try live.request("GET", "/v1/convert?color=red&to=oklch").status == 200)
        #expect(try live.request("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#000", "#fff"]}"##).json["rows"]?.array?.count == 2)
        #expect(try live.request("POST", "/v1/contrast/matrix?format=svg", body: ##"{"colors": ["#000", "#fff"]}"##).status == 200)
        #expect(try live.request("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "tritan"}"##).status == 200)
        #expect(try live.request("GET", "/v1/difference?a=red&b=blue").status == 200)
        #expect(try live.request("GET", "/v1/apca/font?lc=60").status == 200)
        expectProblem(try live.request("POST", "/v1/simulate", body: ##"{"colors": ["#000"], "type": "tritan", "severity": -0.1}"##), 400, pointer: "/severity")
    }
}

/// The independent references for layer stacks and wide-gamut mapping, through the API.
struct ReferenceThroughTheAPITests {
    /// `/v1/contrast` with `layers` against composite_layers.jsonl (ColorAide 8.13.1): every row's
    /// effective background and foreground (rgba is unrounded 0–255) and WCAG ratio within 1e-6.
    @Test func layerStacksMatchColorAide() throws {
        let rows = try FixtureLoader.jsonValues("composite_layers.jsonl", expectedCount: 150)
        for row in rows {
            let bg = try #require(row["background"]?.string), fg = try #require(row["foreground"]?.string)
            let layers = try #require(row["layers_bottom_to_top"]?.array).compactMap(\.string)
            #expect(layers.count >= 2)
            let body = #"{"background": "\#(bg)", "foreground": "\#(fg)", "layers": [\#(layers.map { "\"\($0)\"" }.joined(separator: ", "))]}"#
            let r = call("POST", "/v1/contrast", body: body)
            #expect(r.status == 200, "\(body): \(r.text)")
            let label = "\(bg) \(layers) text \(fg)"
            for (key, want) in [("effectiveBackground", "effective_background_srgb"), ("effectiveForeground", "effective_foreground_srgb")] {
                let got = (r.json[key]?["rgba"]?.array ?? []).compactMap(\.double)
                let expected = (row[want]?.array ?? []).compactMap(\.double)
                try #require(got.count == 4 && expected.count == 3, "\(label) \(key): \(r.text)")
                for i in 0..<3 { #expect(abs(got[i] / 255 - expected[i]) <= 1e-6, "\(label) \(key)[\(i)] \(got[i] / 255) vs \(expected[i])") }
                #expect(got[3] == 1)
            }
            let ratio = try #require(r.json["ratio"]?.double)
            #expect(abs(ratio - (row["wcag2"]?.double ?? .nan)) <= 1e-6, "\(label) ratio \(ratio)")
        }
    }

    /// `/v1/convert` with `gamut` `display-p3` and `rec2020` (rec2020 was not offered before
    /// issue 21) against gamut_map_wide.jsonl: mapping flags, CSS Color 4 within 1e-4 as the core
    /// test, clipping within 1e-6.
    /// The BT.2020 OETF inverted, sign-symmetric (the service's rec2020 encoding).
    static func linearBT2020(_ e: Double) -> Double {
        let alpha = 1.09929682680944, beta = 0.018053968510807
        let a = abs(e)
        let l = a < beta * 4.5 ? a / 4.5 : pow((a + alpha - 1) / alpha, 1 / 0.45)
        return e < 0 ? -l : l
    }

    @Test func wideGamutMappingMatchesColorAide() throws {
        let rows = try FixtureLoader.jsonValues("gamut_map_wide.jsonl", expectedCount: 150)
        for row in rows {
            let css = try #require(row["css"]?.string)
            for destination in ["display-p3", "rec2020"] {
                let inGamut = try #require(row["in_\(destination)"]?.bool)
                for (method, key, tolerance) in [("css4", "\(destination)_css4", 1e-4), ("clip", "\(destination)_clip", 1e-6)] {
                    let body = #"{"color": "\#(css)", "to": "\#(destination)", "gamut": "\#(destination)", "gamutMethod": "\#(method)"}"#
                    let r = call("POST", "/v1/convert", body: body)
                    #expect(r.status == 200, "\(body): \(r.text)")
                    #expect(r.json["inGamut"]?[destination] == .bool(inGamut), "\(css) in \(destination)")
                    #expect(r.json["gamutMapping"]?["destination"] == .string(destination))
                    #expect(r.json["gamutMapping"]?["method"] == .string(method))
                    #expect(r.json["gamutMapping"]?["applied"] == .bool(!inGamut), "\(css) → \(destination)")
                    let got = (r.json["conversions"]?[destination]?["coordinates"]?.array ?? []).compactMap(\.double)
                    let want = (row[key]?.array ?? []).compactMap(\.double)
                    try #require(got.count == 3 && want.count == 3, "\(body): \(r.text)")
                    for i in 0..<3 {
                        // rec2020 in linear light: the reference encodes it with gamma 2.4 (CSS WG
                        // resolution of 2025), the service with the BT.2020 OETF, as Chromium 156
                        // does (see GamutMappingWideTests.rec2020Curve).
                        let (g, w) = destination == "rec2020"
                            ? (Self.linearBT2020(got[i]), want[i] < 0 ? -pow(-want[i], 2.4) : pow(want[i], 2.4))
                            : (got[i], want[i])
                        #expect(abs(g - w) <= tolerance, "\(css) → \(destination) \(method)[\(i)]: \(got[i]) vs \(want[i])")
                    }
                }
            }
        }
    }

    /// rec2020 is a gamut-mapping destination wherever display-p3 is: /v1/convert (POST and GET),
    /// documented in openapi.json; unknown gamuts still name the choices.
    @Test func rec2020IsAGamutDestination() throws {
        // Display P3 green lies inside rec2020 (P3 red does not, by a hair: -0.0012 in linear blue).
        let get = call("GET", "/v1/convert?color=\(q("color(display-p3 0 1 0)"))&to=rec2020&gamut=rec2020")
        #expect(get.status == 200, "\(get.text)")
        #expect(get.json["gamutMapping"]?["destination"] == "rec2020" && get.json["gamutMapping"]?["applied"] == false)
        let wide = call("POST", "/v1/convert", body: ##"{"color": "oklch(0.7 0.5 150)", "to": "rec2020", "gamut": "rec2020", "gamutMethod": "clip"}"##)
        #expect(wide.status == 200 && wide.json["gamutMapping"]?["applied"] == true, "\(wide.text)")
        let coordinates = (wide.json["conversions"]?["rec2020"]?["coordinates"]?.array ?? []).compactMap(\.double)
        #expect(coordinates.count == 3 && coordinates.allSatisfy { $0 >= -1e-9 && $0 <= 1 + 1e-9 }, "\(coordinates)")
        let bad = call("GET", "/v1/convert?color=red&gamut=rec709")
        let problem = expectProblem(bad, 400, parameter: "gamut")
        #expect(problem["detail"]?.string?.contains("rec2020") == true, "\(bad.text)")
        let doc = try JSONParser.parse(Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Sources/ContrastAPI/Resources/openapi.json"))))
        let gamutEnum = doc["components"]?["schemas"]?["ConvertRequest"]?["properties"]?["gamut"]?["enum"]?.array
        #expect(gamutEnum?.contains("rec2020") == true, "ConvertRequest.gamut: \(String(describing: gamutEnum))")
    }
}
