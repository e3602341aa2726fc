import ColorScience
import Foundation
import ImageProcessing
import JSONValue
import TestSupport
import Testing

/// APCA's screen luminance (`apcaY`) beside `relativeLuminance`, and the APCA version in every
/// answer that carries an Lc, over HTTP (the service on a free port).
@Suite(.serialized)
struct APCAAnswerTests {
    /// APCA 0.0.98G-4g `sRGBtoY` (apca-w3 0.1.9), written out here rather than called: each
    /// gamma-encoded channel `0...1` to the power 2.4, weighted 0.2126729, 0.7151522, 0.0721750.
    static func ys(_ r: Double, _ g: Double, _ b: Double) -> Double {
        0.2126729 * pow(r, 2.4) + 0.7151522 * pow(g, 2.4) + 0.0721750 * pow(b, 2.4)
    }

    /// APCA 0.0.98G-4g Lc for Ys above the black threshold (0.022), normal or reverse polarity.
    static func lc(textY: Double, backgroundY: Double) -> Double {
        if backgroundY > textY {
            return ((pow(backgroundY, 0.56) - pow(textY, 0.57)) * 1.14 - 0.027) * 100
        }
        return ((pow(backgroundY, 0.65) - pow(textY, 0.62)) * 1.14 + 0.027) * 100
    }

    @Test func apcaYOf777777IsTheScreenLuminanceOfApcaW3() throws {
        let server = try LiveServer()
        let r = try server.request("POST", "/v1/contrast", body: ##"{"foreground": "#777777", "background": "#ffffff"}"##)
        #expect(r.status == 200, "\(r.text)")
        let want = Self.ys(119.0 / 255, 119.0 / 255, 119.0 / 255)  // 0.16055222098925486
        #expect(abs(want - 0.160552220989255) < 1e-14)
        let y = try #require(r.json["foreground"]?["apcaY"]?.double, "\(r.text)")
        #expect(abs(y - want) < 1e-12)
        // Not the WCAG luminance under another name: 0.1845 for the same gray.
        let wcag = try #require(r.json["foreground"]?["relativeLuminance"]?.double)
        #expect(abs(wcag - 0.184474994500441) < 1e-12 && abs(y - wcag) > 0.02)
        // White: the weights sum to 1.0000001.
        let white = try #require(r.json["background"]?["apcaY"]?.double)
        #expect(abs(white - 1.0000001) < 1e-15)
        // The answer's Lc follows from the two Ys (both above the black threshold).
        let lc = try #require(r.json["apca"]?["lc"]?.double)
        #expect(abs(lc - Self.lc(textY: y, backgroundY: white)) < 1e-9)
        #expect(abs(lc - 71.11110332561125) < 1e-9)
    }

    @Test func apcaYOfEffectiveColorsAndOtherContrastAnswers() throws {
        let server = try LiveServer()
        // Translucent text: effectiveForeground is the composite rgb(127.5 127.5 127.5).
        let t = try server.request("POST", "/v1/contrast", body: ##"{"foreground": "rgba(0, 0, 0, 0.5)", "background": "#ffffff"}"##)
        let eff = try #require(t.json["effectiveForeground"]?["apcaY"]?.double, "\(t.text)")
        #expect(abs(eff - Self.ys(0.5, 0.5, 0.5)) < 1e-12)
        // The described color ignores alpha, as relativeLuminance does: black is 0.
        #expect(t.json["foreground"]?["apcaY"] == 0)
        // A translucent background over a backdrop: effectiveBackground #808080 exactly (127.5 + 0.5).
        let b = try server.request("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "rgba(255, 255, 255, 0.5)", "backdrop": "#000"}"##)
        let effBg = try #require(b.json["effectiveBackground"]?["apcaY"]?.double, "\(b.text)")
        #expect(abs(effBg - Self.ys(0.5, 0.5, 0.5)) < 1e-12)
        // The translucent background itself: white, alpha ignored.
        #expect(b.json["background"]?["apcaY"] == 1.0000001 && b.json["background"]?["relativeLuminance"] == 1)
        // The matrix, suggest and simulate describe their colors the same way.
        let m = try server.request("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#777777", "#336699"]}"##)
        let blue = try #require(m.json["colors"]?.array?[1]["apcaY"]?.double, "\(m.text)")
        #expect(abs(blue - Self.ys(0x33 / 255.0, 0x66 / 255.0, 0x99 / 255.0)) < 1e-12)
        // /v1/contrast takes an opaque color's luminances from its measurement; the matrix
        // computes them from the color: the same bits.
        let pair = try server.request("POST", "/v1/contrast", body: ##"{"foreground": "#777777", "background": "#336699"}"##)
        for (key, i) in [("foreground", 0), ("background", 1)] {
            for member in ["relativeLuminance", "apcaY"] {
                #expect(pair.json[key]?[member] == m.json["colors"]?.array?[i][member], "\(key).\(member)")
            }
        }
        let s = try server.request("GET", "/v1/suggest?foreground=%23777777&background=%23ffffff")
        #expect(s.json["foreground"]?["apcaY"]?.double.map { abs($0 - Self.ys(119.0 / 255, 119.0 / 255, 119.0 / 255)) < 1e-12 } == true, "\(s.text)")
        let sim = try server.request("POST", "/v1/simulate", body: ##"{"colors": ["#777777"], "type": "achromatopsia"}"##)
        let simulated = try #require(sim.json["colors"]?.array?[0]["simulated"], "\(sim.text)")
        let rgba = (simulated["rgba"]?.array ?? []).compactMap(\.double)
        try #require(rgba.count == 4, "\(sim.text)")
        #expect(abs(simulated["apcaY"]!.double! - Self.ys(rgba[0] / 255, rgba[1] / 255, rgba[2] / 255)) < 1e-12)
    }

    /// A hostile pass: /v1/simulate's pair on a translucent background answered 1:1 and Lc 0
    /// with no word why (the worst case over every gray backdrop). It now says so, with the range.
    @Test func simulatedPairsOnTranslucentBackgroundsSayWhy() throws {
        let server = try LiveServer()
        let r = try server.request("POST", "/v1/simulate", body: ##"{"colors": ["#f00", "rgba(0,0,0,0.1)", "#fff"], "type": "protanopia", "pairs": [{"foreground": "#f00", "background": "rgba(0,0,0,0.1)"}, {"foreground": "#f00", "background": "#fff"}]}"##)
        let pairs = r.json["pairs"]?.array ?? []
        #expect(pairs.count == 2, "\(r.text.prefix(300))")
        #expect(pairs.first?["note"]?.string?.hasPrefix("the background is translucent") == true)
        let range = pairs.first?["simulatedRatioRange"]
        #expect((range?["min"]?.double ?? 0) >= 1 && (range?["max"]?.double ?? 0) > (range?["min"]?.double ?? 0), "\(String(describing: range))")
        #expect(pairs.last?["note"] == nil && pairs.last?["simulatedRatioRange"] == nil)
    }

    /// The GET form of /v1/suggest could not ask for an APCA minimum (the object form's `lc` has
    /// no query form); `target=Lc 60` and `target=4.5:1` state one as text, in the body too.
    @Test func targetsAsTextStateAnAPCAMinimumInAQuery() throws {
        let server = try LiveServer()
        for q in ["Lc%2060", "Lc60", "lc:60", "LC%20%3A%2060"] {
            let s = try server.request("GET", "/v1/suggest?foreground=%23999999&background=%23ffffff&target=\(q)")
            #expect(s.status == 200 && s.json["target"]?["metric"] == "apca" && s.json["target"]?["minimum"]?.double == 60, "\(q): \(s.text.prefix(300))")
            // The suggestion meets |Lc| 60 on white.
            let best = try #require(s.json["best"]?["foreground"]?["hex"]?.string, "\(s.text.prefix(300))")
            let c = try CSSColorParser.parse(best).converted(to: .srgb).coordinates
            #expect(abs(APCA.lc(textY: APCA.screenLuminance(c), backgroundY: 1.0000001)) >= 60, "\(best)")
        }
        let ratio = try server.request("POST", "/v1/suggest", body: ##"{"foreground": "#999999", "background": "#ffffff", "target": "3:1"}"##)
        #expect(ratio.json["target"]?["metric"] == "wcag2" && ratio.json["target"]?["minimum"]?.double == 3, "\(ratio.text.prefix(300))")
        expectProblem(try server.request("GET", "/v1/suggest?foreground=%23999&background=white&target=Lc%20200"), 400, parameter: "target")
        expectProblem(try server.request("GET", "/v1/suggest?foreground=%23999&background=white&target=30:1"), 400, parameter: "target")
    }

    /// Every answer that carries an Lc (measured, or a minimum) names the APCA version once:
    /// `apca.version` in `/v1/contrast`, `version` in `/v1/apca/font`, `apcaVersion` elsewhere.
    @Test func everyAnswerWithAnLcNamesTheAPCAVersion() throws {
        #expect(APCA.version == "0.0.98G-4g")
        let server = try LiveServer()
        let requests: [(String, String, String?)] = [
            ("POST", "/v1/contrast/matrix", ##"{"colors": ["#000", "#fff"]}"##),
            ("GET", "/v1/suggest?foreground=%23999&background=white", nil),
            ("POST", "/v1/suggest", ##"{"foreground": "#777", "background": "#fff", "target": "apca"}"##),
            ("POST", "/v1/audit", ##"{"colors": ["#777777"]}"##),
            ("GET", "/v1/labels?appearance=dark&level=base&contrast=standard", nil),
            ("GET", "/v1/materials?material=thin&appearance=dark", nil),
            ("GET", "/v1/text-styles?textStyle=body", nil),
            ("POST", "/v1/table-stripes", ##"{"textColors": ["label"]}"##),
            ("POST", "/v1/palette/dark", ##"{"colors": ["#007aff"]}"##),
            ("POST", "/v1/simulate", ##"{"colors": ["red", "green"], "type": "deutan", "pairs": [{"foreground": "red", "background": "green"}]}"##),
        ]
        for (method, target, body) in requests {
            let r = try server.request(method, target, body: body)
            #expect(r.status == 200, "\(method) \(target): \(r.text.prefix(300))")
            #expect(r.json["apcaVersion"] == "0.0.98G-4g", "\(method) \(target) has no apcaVersion")
            #expect(r.json["apca"] == nil && r.json["version"] == nil, "\(method) \(target): one version member")
        }
        // Where it was already: once, in the APCA block or as the answer's subject.
        let contrast = try server.request("GET", "/v1/contrast?foreground=%23777&background=white")
        #expect(contrast.json["apca"]?["version"] == "0.0.98G-4g" && contrast.json["apcaVersion"] == nil)
        let font = try server.request("GET", "/v1/apca/font?lc=60")
        #expect(font.json["version"] == "0.0.98G-4g")
        // No Lc, no version: simulate without pairs, the system colors, WebAIM's shape.
        let plain = try server.request("POST", "/v1/simulate", body: ##"{"colors": ["red"], "type": "deutan"}"##)
        #expect(plain.status == 200 && plain.json["apcaVersion"] == nil)
        #expect(try server.request("GET", "/api/webaim?fcolor=777777&bcolor=FFFFFF").json["apcaVersion"] == nil)
        // The image analysis (targetLc, apcaLc of the white levels).
        let analyzed = callImage("/v1/image/analyze", try ImageSamples.encode(.png, width: 40, height: 30))
        #expect(analyzed.status == 200 && analyzed.json["apcaVersion"] == "0.0.98G-4g", "\(analyzed.text.prefix(300))")
        #expect(analyzed.json["recommendation"]?["whiteLevel"]?["before"]?["apcaY"]?.double != nil)
    }
}
