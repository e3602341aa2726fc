import ContrastAPI
import Foundation
import JSONValue
import TestSupport
import Testing

/// `/v1/contrast` and `/api/webaim` answered in-process (no sockets).
struct ContrastEndpointTests {
    @Test func postReturnsRatioVerdictsAndAPCA() {
        let r = call("POST", "/v1/contrast", body: ##"{"foreground": "#777777", "background": "#ffffff"}"##)
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/json")
        let j = r.json
        #expect(abs(j["ratio"]!.double! - 4.478089453577214) < 1e-9)
        #expect(j["ratioText"] == "4.47")
        #expect(j["wcag"]?["AA"]?["normalText"] == false)
        #expect(j["wcag"]?["AA"]?["largeText"] == true)
        #expect(j["wcag"]?["AA"]?["nonText"] == true)
        #expect(j["wcag"]?["AAA"]?["normalText"] == false)
        #expect(j["wcag"]?["AAA"]?["largeText"] == false)
        #expect(j["apca"]?["version"] == "0.0.98G-4g")
        #expect(j["apca"]?["lc"]?.double.map { $0 > 0 } == true)
        #expect(j["foreground"]?["hex"] == "#777777")
        #expect(j["foreground"]?["input"] == "#777777")
        #expect(j["foreground"]?["rgba"] == [119, 119, 119, 1])
        #expect(abs(j["foreground"]!["relativeLuminance"]!.double! - 0.184474994500441) < 1e-9)
        #expect(j["effectiveForeground"] == nil)
    }

    /// A new user's pass: the matrix refused `gamutMethod`, which /v1/contrast and the token
    /// audit take, so its verdicts for a color outside sRGB could not be a clipping browser's.
    @Test func matrixTakesGamutMethod() throws {
        let green = "oklch(0.7 0.3 140)"
        func pair(_ gamut: String?) -> (ratio: Double?, hex: String?) {
            let extra = gamut.map { ##", "gamutMethod": "\##($0)""## } ?? ""
            let r = call("POST", "/v1/contrast", body: ##"{"foreground": "#ffffff", "background": "\##(green)"\##(extra)}"##)
            return (r.json["ratio"]?.double, r.json["background"]?["hex"]?.string)
        }
        for gamut in [nil, "clip", "css4"] {
            let extra = gamut.map { ##", "gamutMethod": "\##($0)""## } ?? ""
            let m = call("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#ffffff", "\##(green)"]\##(extra)}"##)
            #expect(m.status == 200, "\(m.text)")
            let expected = pair(gamut)
            #expect(m.json["rows"]?.array?[0].array?[1]["ratio"]?.double == expected.ratio && expected.ratio != nil, "\(gamut ?? "default"): \(m.text.prefix(400))")
            #expect(m.json["colors"]?.array?[1]["hex"]?.string == expected.hex, "\(m.text.prefix(300))")
        }
        // The two methods differ for this green (2.44:1 mapped, 2.34:1 clipped, as the pass found).
        #expect(pair(nil).ratio != pair("clip").ratio)
        let bad = call("POST", "/v1/contrast/matrix", body: ##"{"colors": ["#fff"], "gamutMethod": "squash"}"##)
        #expect(bad.status == 400 && bad.json["pointer"] == "/gamutMethod", "\(bad.text)")
    }

    /// The matrix's format by `Accept` when neither the body nor the query names one, as the
    /// token audit's report (a plugin author's pass: `Accept: text/csv` was answered with JSON).
    @Test func matrixFormatByAccept() throws {
        let live = try LiveServer()
        let body = ##"{"colors": ["#000", "#fff"]}"##
        func type(_ accept: String, _ target: String = "/v1/contrast/matrix", _ body: String = body) throws -> String? {
            try live.request("POST", target, body: body, headers: ["Content-Type": "application/json", "Accept": accept]).headers["content-type"]
        }
        #expect(try type("text/csv")?.hasPrefix("text/csv") == true)
        #expect(try type("image/svg+xml")?.hasPrefix("image/svg+xml") == true)
        #expect(try type("text/csv;q=0, application/json") == "application/json")
        #expect(try type("application/json;q=0.5, text/csv;q=0.9")?.hasPrefix("text/csv") == true)
        #expect(try type("*/*") == "application/json")
        // A range of a major type names its types (RFC 9110 §12.5.1; a hostile pass: `image/*`
        // was answered with JSON); the most specific range's weight holds; every type refused
        // leaves the default.
        #expect(try type("image/*")?.hasPrefix("image/svg+xml") == true)
        #expect(try type("text/*;q=0.8, application/json;q=0.5")?.hasPrefix("text/csv") == true)
        #expect(try type("text/*, text/csv;q=0, application/json;q=0.1") == "application/json")
        #expect(try type("image/*, text/*")?.hasPrefix("image/svg+xml") == true)
        #expect(try type("application/json;q=0, text/csv;q=0, image/svg+xml;q=0") == "application/json")
        // `*/*` gives its weight to every type no other range names (a hostile pass: the lowest
        // weighted type had won).
        #expect(try type("*/*;q=0.5, text/csv;q=0.1") == "application/json")
        #expect(try type("image/*;q=0.5, */*;q=0.9") == "application/json")
        #expect(try type("application/json;q=0, */*")?.hasPrefix("text/csv") == true)
        // What the request itself names wins.
        #expect(try type("text/csv", "/v1/contrast/matrix?format=svg")?.hasPrefix("image/svg+xml") == true)
        #expect(try type("text/csv", "/v1/contrast/matrix", ##"{"colors": ["#000", "#fff"], "format": "json"}"##) == "application/json")
        // SVG draws no gradients: asked by Accept only, the answer is JSON, which carries them.
        #expect(try type("image/svg+xml", "/v1/contrast/matrix", ##"{"colors": ["#000", "#fff"], "gradients": ["linear-gradient(#000, #fff)"]}"##) == "application/json")
    }

    @Test func getWithQueryGivesTheSameAnswer() {
        let get = call("GET", "/v1/contrast?foreground=\(q("rgb(0 102 161 / 0.5)"))&background=white")
        let post = call("POST", "/v1/contrast", body: ##"{"foreground": "rgb(0 102 161 / 0.5)", "background": "white"}"##)
        #expect(get.status == 200)
        #expect(get.json == post.json)
        // C12: translucent text composited: 2.2755, not 6.149.
        #expect(abs(get.json["ratio"]!.double! - 2.2755) < 1e-4)
        // Exactly (127.5, 178.5, 208) rounded half up; C12's "#80b2d0" rounds 178.5 down (see
        // ContrastReferenceTests.transparentAndTranslucentText).
        #expect(get.json["effectiveForeground"]?["hex"] == "#80b3d0")
        #expect(get.json["effectiveForeground"]?["rgba"] == [127.5, 178.5, 208, 1])
    }

    /// A composited color's channels are given without binary float noise: 0.35·20 + 0.65·240
    /// is 163 (the sum of doubles had printed 163.00000000000003; a user's pass).
    @Test func effectiveColorsHaveNoFloatNoise() {
        let r = call("POST", "/v1/contrast", body: ##"{"foreground": "rgb(10 20 30 / 0.35)", "background": "#f0f0f0"}"##)
        #expect(r.status == 200)
        #expect(r.json["effectiveForeground"]?["rgba"] == [159.5, 163, 166.5, 1])
        #expect(r.json["effectiveForeground"]?["hex"] == "#a0a3a7")
    }

    @Test func referenceRowsThroughTheAPI() throws {
        let rows = try FixtureLoader.jsonValues("contrast.jsonl", expectedCount: 309)
        for row in rows.prefix(120) {
            let fg = row["foreground"]!.string!, bg = row["background"]!.string!
            let r = call("GET", "/v1/contrast?foreground=\(q(fg))&background=\(q(bg))")
            let want = row["wcag2"]!.double!
            #expect(abs(r.json["ratio"]!.double! - want) < 1e-6, "\(fg) on \(bg)")
            #expect(abs(r.json["apca"]!["lc"]!.double! - row["apca_lc"]!.double!) < 1e-6)
            #expect(r.json["wcag"]?["AA"]?["normalText"] == .bool(want >= 4.5))
            #expect(r.json["wcag"]?["AAA"]?["normalText"] == .bool(want >= 7))
            #expect(r.json["wcag"]?["AAA"]?["largeText"] == .bool(want >= 4.5))
            #expect(r.json["wcag"]?["AA"]?["largeText"] == .bool(want >= 3))
        }
    }

    @Test func fontSizeDecidesLargeText() {
        // C09: #7c7cff on white is 3.3958: passes AA only as large text.
        func verdict(_ extra: String) -> JSON {
            call("POST", "/v1/contrast", body: ##"{"foreground": "#7c7cff", "background": "#ffffff", \##(extra)}"##).json["text"] ?? .null
        }
        let pt14bold = verdict(##""fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700"##)
        #expect(pt14bold["isLarge"] == true && pt14bold["requiredRatio"]?["AA"] == 3 && pt14bold["passes"]?["AA"] == true)
        let px = verdict(##""fontSize": 18.6667, "fontSizeUnit": "px", "fontWeight": 700"##)
        #expect(px["isLarge"] == true && px["passes"]?["AA"] == true)
        let pt18 = verdict(##""fontSize": 18, "fontSizeUnit": "pt""##)
        #expect(pt18["isLarge"] == true && pt18["passes"]?["AA"] == true)
        // Without a unit, where pt and px disagree on large text, the unit is asked for (new
        // users' passes, stop 43: 16 bold meant 16px, 4.5:1, and passed at 3.03:1 as 16 pt);
        // where they agree, pt is taken as before.
        let bare = call("POST", "/v1/contrast", body: ##"{"foreground": "#949494", "background": "#fff", "fontSize": 16, "fontWeight": 700}"##)
        #expect(bare.status == 400 && bare.json["pointer"] == "/fontSizeUnit", "\(bare.text)")
        #expect(bare.json["detail"] == "'/fontSizeUnit' is needed with '/fontSize' 16 at weight 700: as 16 pt (WCAG's unit) it is large text (3:1 for AA), as 16 px (CSS) normal text (4.5:1 for AA); give \"pt\", \"px\" or \"rem\"", "\(bare.text)")
        #expect(verdict(##""fontSize": 12"##)["isLarge"] == false && verdict(##""fontSize": 40"##)["isLarge"] == true)
        #expect(verdict(##""fontSize": 12"##)["fontSizeUnit"] == "pt")
        let gradient = call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "linear-gradient(#000, #333)", "fontSize": 18}"##)
        #expect(gradient.status == 400 && gradient.json["pointer"] == "/fontSizeUnit", "\(gradient.text)")
        let pick = call("POST", "/v1/pick", body: ##"{"background": "#fff", "candidates": ["#000"], "fontSize": 14, "fontWeight": 700}"##)
        #expect(pick.status == 400 && pick.json["pointer"] == "/fontSizeUnit", "\(pick.text)")
        // Where WCAG's verdict agrees but APCA's (its tables are in px) does not, the unit is asked
        // for too (a new user's pass: 16 on #767676 and white was sufficient as 21.3 px, an APCA
        // target from 16 was Lc 66.2 where 16 px needs Lc 90).
        let apca = call("POST", "/v1/contrast", body: ##"{"foreground": "#767676", "background": "#fff", "fontSize": 16}"##)
        #expect(apca.status == 400 && apca.json["pointer"] == "/fontSizeUnit", "\(apca.text)")
        #expect(apca.json["detail"]?.string?.contains("for APCA at Lc 71.57, 16 pt (21.33 px) suffices, 16 px (APCA's unit) does not suffice;") == true, "\(apca.text)")
        let apcaPx = call("POST", "/v1/contrast", body: ##"{"foreground": "#767676", "background": "#fff", "fontSize": 16, "fontSizeUnit": "px"}"##).json
        #expect(apcaPx["apca"]?["text"]?["sufficient"] == false && apcaPx["apca"]?["text"]?["px"] == 16)
        let pickAPCA = call("POST", "/v1/pick", body: ##"{"background": "#fff", "candidates": ["#767676"], "fontSize": 16, "target": "apca"}"##)
        #expect(pickAPCA.status == 400 && pickAPCA.json["pointer"] == "/fontSizeUnit", "\(pickAPCA.text)")
        #expect(pickAPCA.json["detail"]?.string?.contains("16 pt (21.33 px) needs Lc 66.2") == true, "\(pickAPCA.text)")
        let pickPx = call("POST", "/v1/pick", body: ##"{"background": "#fff", "candidates": ["#767676"], "fontSize": 16, "fontSizeUnit": "px", "target": "apca"}"##).json
        #expect(pickPx["target"]?["minimum"] == 90 && pickPx["target"]?["basis"] == "APCA font lookup (apca-w3 0.1.9): smallest Lc allowing 16 px at weight 400")
        let ptBasis = call("POST", "/v1/pick", body: ##"{"background": "#fff", "candidates": ["#767676"], "fontSize": 16, "fontSizeUnit": "pt", "target": "apca"}"##).json
        #expect(ptBasis["target"]?["basis"] == "APCA font lookup (apca-w3 0.1.9): smallest Lc allowing 21.33 px at weight 400")
        let px18bold = verdict(##""fontSize": 18, "fontSizeUnit": "px", "fontWeight": 700"##)
        #expect(px18bold["isLarge"] == false && px18bold["requiredRatio"]?["AA"] == 4.5 && px18bold["passes"]?["AA"] == false)
        #expect(abs(px18bold["points"]!.double! - 13.5) < 1e-12)
    }

    @Test func fieldCasesThroughTheAPI() {
        // C11: transparent text is 1:1.
        let c11 = call("POST", "/v1/contrast", body: ##"{"foreground": "rgba(0, 0, 0, 0)", "background": "#ffffff"}"##).json
        #expect(c11["ratio"] == 1 && c11["effectiveForeground"]?["hex"] == "#ffffff" && c11["wcag"]?["AA"]?["largeText"] == false)
        // C13: group opacity via layers.
        let c13 = call("POST", "/v1/contrast", body: ##"{"background": "#ffffff", "layers": [{"color": "#00633d", "opacity": 0.65}], "foreground": "#ffffff"}"##).json
        #expect(c13["effectiveBackground"]?["hex"] == "#599a81")
        #expect(c13["effectiveForeground"]?["hex"] == "#ffffff")
        #expect(abs(c13["ratio"]!.double! - 3.3125) < 1e-4)
        // C15: layer stack.
        let c15 = call("POST", "/v1/contrast", body: ##"{"background": "#ffffff", "layers": ["rgba(0,0,0,0.5)", "rgba(255,255,255,0.2)"], "foreground": "rgba(0,0,0,0.85)"}"##).json
        #expect(c15["effectiveBackground"]?["hex"] == "#999999")
        #expect(c15["effectiveForeground"]?["hex"] == "#171717")
        #expect(abs(c15["ratio"]!.double! - 6.2956) < 1e-4)
        #expect(c15["wcag"]?["AAA"]?["normalText"] == false && c15["wcag"]?["AA"]?["normalText"] == true)
        // C18: translucent background without backdrop: a range, judged on the minimum.
        let c18 = call("POST", "/v1/contrast", body: ##"{"foreground": "#ffffff", "background": "rgba(0, 0, 0, 0.5)"}"##).json
        #expect(abs(c18["ratioRange"]!["min"]!.double! - 3.9767) < 1e-4)
        #expect(c18["ratioRange"]?["max"] == 21)
        #expect(c18["wcag"]?["AA"]?["normalText"] == false)
        #expect(abs(c18["ratio"]!.double! - 3.9767) < 1e-4)
        // C18 with a backdrop: one value.
        let over = call("POST", "/v1/contrast", body: ##"{"foreground": "#ffffff", "background": "rgba(0, 0, 0, 0.5)", "backdrop": "black"}"##).json
        #expect(over["ratioRange"] == nil && over["ratio"] == 21)
        // C19: #66ffffff is CSS order by default; ARGB only when asked.
        let css = call("POST", "/v1/contrast", body: ##"{"foreground": "#66ffffff", "background": "#000000"}"##).json
        #expect(css["foreground"]?["rgba"] == [102, 255, 255, 1])
        let argb = call("POST", "/v1/contrast", body: ##"{"foreground": "#66ffffff", "background": "#000000", "hexOrder": "argb"}"##).json
        #expect(argb["foreground"]?["rgba"] == [255, 255, 255, 0.4])
        // C32: out-of-gamut input stays within [1, 21] and says it was mapped.
        let c32 = call("POST", "/v1/contrast", body: ##"{"foreground": "color(srgb 2 2 2)", "background": "black"}"##).json
        #expect(c32["ratio"] == 21 && c32["foreground"]?["gamutMapped"] == true && c32["notes"] != nil)
        // C46.
        let c46 = call("GET", "/v1/contrast?foreground=%23ffffff&background=%230066cc").json
        #expect(c46["wcag"]?["AA"]?["normalText"] == true && c46["wcag"]?["AAA"]?["normalText"] == false && c46["wcag"]?["AAA"]?["largeText"] == true)
    }

    @Test func zeroTextShadowIsIgnored() {
        // C44: a 0 0 0 shadow hides behind the glyphs; #0f833e on white stays 4.8427 and passes AA.
        let r = call("POST", "/v1/contrast", body: ##"{"foreground": "#0f833e", "background": "#ffffff", "textShadow": "0 0 0 #000"}"##)
        #expect(r.status == 200)
        #expect(abs(r.json["ratio"]!.double! - 4.8427) < 1e-4)
        #expect(r.json["wcag"]?["AA"]?["normalText"] == true)
        #expect(r.json["notes"]?.array?.contains { $0.string?.contains("no visible effect") == true } == true)
        let two = call("POST", "/v1/contrast", body: ##"{"foreground": "#0f833e", "background": "#ffffff", "textShadow": "0px 0 0 rgba(0, 0, 0, 0.5), 0 0 #fff"}"##)
        #expect(two.status == 200)
        // A fully transparent shadow paints nothing, whatever its offset (a hostile pass).
        let clear = call("POST", "/v1/contrast", body: ##"{"foreground": "#0f833e", "background": "#ffffff", "textShadow": "2px 2px 4px transparent, 1px 1px rgb(0 0 0 / 0)"}"##)
        #expect(clear.status == 200 && clear.json["notes"]?.array?.contains { $0.string?.contains("fully transparent") == true } == true, "\(clear.text.prefix(300))")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "textShadow": "2px 2px 4px transparent, 1px 1px #000"}"##), 422, pointer: "/textShadow")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "textShadow": "1px 1px 2px #000"}"##), 422, pointer: "/textShadow")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "textShadow": "0 0 0 #ggg"}"##), 400, pointer: "/textShadow")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "textShadow": "shadow"}"##), 400, pointer: "/textShadow")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "textShadow": "0 0 -1px red"}"##), 400, pointer: "/textShadow")
    }

    @Test func otherAlgorithms() {
        let r = call("POST", "/v1/contrast", body: ##"{"foreground": "#000000", "background": "#ffffff", "algorithm": "weber"}"##).json
        #expect(r["algorithm"] == "weber" && r["value"] == 50000)
        let m = call("GET", "/v1/contrast?foreground=black&background=white&algorithm=michelson").json
        #expect(m["value"] == 1)
        let l = call("GET", "/v1/contrast?foreground=black&background=white&algorithm=lstar").json
        #expect(abs(l["value"]!.double! - 100) < 1e-9)
        let a = call("GET", "/v1/contrast?foreground=black&background=white&algorithm=APCA").json
        #expect(abs(a["value"]!.double! - 106.0406732127) < 1e-6)
    }

    @Test func badInputGetsProblemDetails() {
        expectProblem(call("POST", "/v1/contrast", body: "{not json"), 400)
        expectProblem(call("POST", "/v1/contrast", body: "[1]"), 400, pointer: "")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"background": "#fff"}"##), 400, pointer: "/foreground")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": 12, "background": "#fff"}"##), 400, pointer: "/foreground")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#ggg", "background": "#fff"}"##), 400, pointer: "/foreground")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "currentcolor"}"##), 422, pointer: "/background")
        // A number no double holds is valid JSON: the member is named, not the body called malformed
        // (found by a hostile test: `fontSize: 1e400` was a malformed-json problem).
        let huge = expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "fontSize": 1e400}"##),
                                 400, pointer: "/fontSize")
        #expect(huge["type"] == "/problems/invalid-field")
        expectProblem(call("POST", "/v1/contrast/matrix", body: ##"{"colors": ["red", -2e308]}"##), 400, pointer: "/colors/1")
        #expect(expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": }"##), 400)["type"] == "/problems/malformed-json")
        // JSON is UTF-8: a declared other charset is refused, not read as UTF-8 anyway.
        let pair = ##"{"foreground": "red", "background": "white"}"##
        expectProblem(call("POST", "/v1/contrast", body: pair, contentType: "application/json; charset=latin1"), 415)
        #expect(call("POST", "/v1/contrast", body: pair, contentType: "application/json; charset=UTF-8").status == 200)
        #expect(call("POST", "/v1/contrast", body: pair, contentType: "application/json;charset=\"utf-8\"").status == 200)
        // A +json suffix needs a type and a subtype in front (found by a hostile test).
        #expect(call("POST", "/v1/contrast", body: pair, contentType: "application/vnd.api+json").status == 200)
        #expect(call("POST", "/v1/contrast", body: pair, contentType: "Application/JSON").status == 200)
        for malformed in ["+json", "application/+json", "/x+json"] {
            expectProblem(call("POST", "/v1/contrast", body: pair, contentType: malformed), 415)
        }
        // Apple system color names are trimmed of the ASCII whitespace CSS colors may carry, and
        // of nothing else: U+00A0 before a name is refused as it is before a CSS color.
        #expect(call("POST", "/v1/contrast", body: ##"{"foreground": " \tsystemRed\n", "background": "white"}"##).status == 200)
        for text in ["\u{A0}systemRed", "\u{200B}systemRed", "\u{A0}red"] {
            let r = call("POST", "/v1/contrast", body: #"{"foreground": "\#(text)", "background": "white"}"#)
            #expect(r.status == 400, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // The verdicts are for the colors as given; when the 8-bit hex shown judges otherwise, a
        // note says so (hostile test: an oklch pair at 4.5145 is #fd9a00 on #004f3b at 4.4917).
        let oklch = call("POST", "/v1/contrast", body: ##"{"foreground": "oklch(76.9% 0.188 70.08)", "background": "oklch(37.8% 0.077 168.94)"}"##).json
        #expect(oklch["wcag"]?["AA"]?["normalText"] == true)
        #expect(oklch["notes"]?.array?.contains { $0.string?.hasPrefix("as the 8-bit hex shown (#fd9a00 on #004f3b) the ratio is 4.49:1") == true } == true)
        let hexPair = call("POST", "/v1/contrast", body: ##"{"foreground": "#fd9a00", "background": "#004f3b"}"##).json
        #expect(hexPair["wcag"]?["AA"]?["normalText"] == false && hexPair["notes"] == nil)
        // A POST reads the body: a query parameter it would ignore is a 400, not silence.
        expectProblem(call("POST", "/v1/contrast?foreground=black", body: ##"{"foreground": "red", "background": "white"}"##), 400, parameter: "foreground")
        expectProblem(call("POST", "/v1/suggest?foo=1", body: ##"{"foreground": "red", "background": "white"}"##), 400, parameter: "foo")
        expectProblem(call("POST", "/v1/contrast/matrix?format=csv&format=svg", body: ##"{"colors": ["red"]}"##), 400, parameter: "format")
        expectProblem(call("POST", "/v1/contrast/matrix?format=csv&bogus=1", body: ##"{"colors": ["red"]}"##), 400, parameter: "bogus")
        expectProblem(call("POST", "/v1/palette/export?format=css&format=svg", body: ##"{"colors": ["red"]}"##), 400, parameter: "format")
        #expect(call("POST", "/v1/contrast/matrix?format=csv", body: ##"{"colors": ["red"]}"##).status == 200)
        // An opaque background hides the backdrop: said, not silently dropped.
        let unused = call("POST", "/v1/contrast", body: ##"{"foreground": "#777", "background": "white", "backdrop": "black"}"##).json
        #expect(unused["notes"]?.array?.contains { $0.string?.hasPrefix("backdrop was not used") == true } == true)
        #expect(unused["ratioText"] == "4.47")
        // With an iOS text style, APCA reads its points as px in both places that judge it.
        let body = call("POST", "/v1/contrast", body: ##"{"foreground": "#777777", "background": "#ffffff", "textStyle": "body"}"##).json
        #expect(body["apca"]?["text"]?["px"] == 17)
        #expect(body["apca"]?["text"]?["sufficient"] == false && body["textStyle"]?["passes"]?["apca"] == false)
        // A ratio a hair below 4.5 (a non-8-bit gray) fails and shows 4.49, never 4.50.
        let hair = call("POST", "/v1/contrast", body: ##"{"foreground": "rgb(118.65635698027957 118.65635698027957 118.65635698027957)", "background": "#fff"}"##).json
        #expect((hair["ratio"]?.double ?? 5) < 4.5)
        #expect(hair["ratioText"] == "4.49" && hair["wcag"]?["AA"]?["normalText"] == false)
        // Unknown member names become JSON pointer tokens (RFC 6901): "~" as "~0", "/" as "~1".
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "a/b~c": 1}"##), 400, pointer: "/a~1b~0c")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "plain": 1}"##), 400, pointer: "/plain")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "forground": "#000"}"##), 400, pointer: "/forground")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "fontSize": -1}"##), 400, pointer: "/fontSize")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "fontSize": 12, "fontWeight": 450.5}"##), 400, pointer: "/fontWeight")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "fontWeight": 700}"##), 400, pointer: "/fontSize")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "fontSizeUnit": "em", "fontSize": 1}"##), 400, pointer: "/fontSizeUnit")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "algorithm": "wcag3"}"##), 400, pointer: "/algorithm")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "layers": [{"color": "red", "opacity": 2}]}"##), 400, pointer: "/layers/0/opacity")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "layers": [true]}"##), 400, pointer: "/layers/0")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000", "backdrop": "rgba(0,0,0,.5)"}"##), 400, pointer: "/backdrop")
        expectProblem(call("POST", "/v1/contrast", body: ##"{"foreground": "#fff", "background": "#000"}"##, contentType: "image/png"), 415)
        expectProblem(call("GET", "/v1/contrast?foreground=%23fff"), 400, parameter: "background")
        expectProblem(call("GET", "/v1/contrast?foreground=%23fff&background=%23000&fontSize=big"), 400, parameter: "fontSize")
        expectProblem(call("GET", "/v1/contrast?foreground=%23fff&foreground=%23000&background=%23000"), 400, parameter: "foreground")
        // C28: garbage never yields a ratio.
        for bad in ["#red", "#############123456", "hsla(0, 100%, 100%, 1);", "", "rgb(0,0)", "#ggg"] {
            let r = call("GET", "/v1/contrast?foreground=\(q(bad))&background=white")
            expectProblem(r, 400, parameter: "foreground")
            #expect(r.json["ratio"] == nil)
        }
        let long = String(repeating: "a", count: 300)
        expectProblem(call("GET", "/v1/contrast?foreground=\(long)&background=white"), 400, parameter: "foreground")
    }

    @Test func unknownPathAndWrongMethod() {
        expectProblem(call("GET", "/v1/nope"), 404)
        let r = call("DELETE", "/v1/contrast")
        expectProblem(r, 405)
        #expect(r.headers["allow"]?.contains("GET") == true && r.headers["allow"]?.contains("POST") == true)
    }

    @Test func webAIMCompatible() {
        let r = call("GET", "/api/webaim?fcolor=777777&bcolor=FFFFFF&api")
        #expect(r.status == 200)
        #expect(r.json == .object([("ratio", "4.47"), ("AA", "fail"), ("AALarge", "pass"), ("AAA", "fail"), ("AAALarge", "fail")]))
        let blue = call("GET", "/api/webaim?fcolor=0000FF&bcolor=FFF").json
        #expect(blue["ratio"] == "8.59" && blue["AAA"] == "pass")
        expectProblem(call("GET", "/api/webaim?fcolor=blue&bcolor=FFFFFF"), 400, parameter: "fcolor")
        expectProblem(call("GET", "/api/webaim?fcolor=000000"), 400, parameter: "bcolor")
    }

    @Test func healthz() {
        let r = call("GET", "/healthz")
        #expect(r.status == 200 && r.json["status"] == "ok")
    }

    /// Sizes and weights written as CSS writes them were "must be a number, not string" (new-user
    /// test): the answer now says which members to send instead.
    @Test func cssLikeSizesAndWeightsNameTheMembersToSend() {
        func detail(_ extra: String) -> String? {
            call("POST", "/v1/contrast", body: ##"{"foreground": "#777", "background": "#fff", "##
                 + extra + "}").json["detail"]?.string
        }
        #expect(detail(##""fontSize": "14px""##) == "'/fontSize' is a number; for '14px' give '/fontSize' 14 and '/fontSizeUnit' \"px\"")
        #expect(detail(##""fontSize": "1.5rem""##) == "'/fontSize' is a number; for '1.5rem' give '/fontSize' 1.5 and '/fontSizeUnit' \"rem\"")
        #expect(detail(##""fontSize": 14, "fontWeight": "bold""##) == "'/fontWeight' is a number from 1 to 1000; for 'bold' give 700")
        #expect(detail(##""fontSize": "big""##) == "'/fontSize' must be a number, not string")
        // A new user's pass, stop 43: these were bare "must be a number, not string" / "must be one of pt, px".
        #expect(detail(##""fontSize": 14, "fontWeight": "700""##) == "'/fontWeight' is a number from 1 to 1000; for '700' give 700")
        #expect(detail(##""fontSize": "large""##) == "'/fontSize' is a number; the keyword 'large' is 18px in Chromium at the default root size: give '/fontSize' 18 and '/fontSizeUnit' \"px\" (or the size your page computes)")
        #expect(detail(##""fontSize": "16""##) == "'/fontSize' is a number, not a string: give '/fontSize' 16 (and '/fontSizeUnit' \"pt\", \"px\" or \"rem\")")
        #expect(detail(##""fontSize": "1.2em""##) == "'/fontSize' is a number in pt, px or rem ('/fontSizeUnit'); '1.2em' depends on the parent element's font size: give its computed size in px")
        #expect(detail(##""fontSize": 1.2, "fontSizeUnit": "em""##) == "'/fontSizeUnit' is pt, px or rem; 'em' depends on the parent element's font size: give its computed size in px")
        let query = call("GET", "/v1/contrast?foreground=%23777&background=white&fontSize=14px")
        #expect(query.status == 400 && query.json["parameter"]?.string == "fontSize")
        #expect(call("GET", "/v1/contrast?foreground=%23777&background=white&fontSize=14&fontSizeUnit=px").status == 200)
        // A query's numbers are text: a bad weight, unit or range is named as itself (a hostile
        // pass: each was "query parameter 'fontSize' is a number, not a string").
        for (q, parameter, detail) in [
            ("fontSize=12&fontSizeUnit=px&fontWeight=1001", "fontWeight", "query parameter 'fontWeight' must be between 1 and 1000, got 1001"),
            ("fontSize=0&fontSizeUnit=px", "fontSize", "query parameter 'fontSize' must be between 0.1 and 1000, got 0"),
            ("fontSize=12&fontSizeUnit=pz", "fontSizeUnit", "query parameter 'fontSizeUnit' must be one of pt, px, rem, got 'pz'; did you mean 'pt'?"),
            ("fontSize=12&fontSizeUnit=px&fontWeight=bold", "fontWeight", "query parameter 'fontWeight' is a number from 1 to 1000; for 'bold' give 700"),
        ] {
            let r = call("GET", "/v1/contrast?foreground=%23777&background=white&" + q)
            #expect(r.status == 400 && r.json["parameter"]?.string == parameter && r.json["detail"]?.string == detail, "\(q): \(r.text)")
        }
        // Anywhere in a detail, as an unknown member's name (the pointer keeps it, to resolve).
        let member = call("POST", "/v1/contrast", body: "{\"foreground\": \"#000\", \"background\": \"#fff\", \"a\u{202E}b\u{200B}\": 1}")
        let memberDetail = member.json["detail"]?.string ?? ""
        #expect(member.status == 400 && memberDetail.contains(#"a\u202Eb\u200B"#) && !memberDetail.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(memberDetail)")
        // A bidi override in echoed text is shown escaped, not raw (a hostile pass).
        let bidi = call("GET", "/v1/contrast?foreground=%23777&background=white&fontSize=%E2%80%AE14&fontSizeUnit=px")
        let bidiDetail = bidi.json["detail"]?.string ?? ""
        #expect(bidi.status == 400 && bidiDetail.contains(#"'\u202E14'"#) && !bidiDetail.unicodeScalars.contains { $0.value == 0x202E }, "\(bidiDetail)")
        let font = call("GET", "/v1/apca/font?lc=60&fontSize=2000&fontSizeUnit=px")
        #expect(font.json["detail"]?.string == "query parameter 'fontSize' must be between 0.1 and 1000, got 2000", "\(font.text)")
        // In a body, only the member that failed is looked at (a string size beside a bad weight).
        #expect(detail(##""fontSize": 14, "fontWeight": 1001"##) == "'/fontWeight' must be between 1 and 1000, got 1001")
        // A new user's pass, stop 43: Tailwind's --alpha() was "unknown color function"; the
        // CSS Tailwind compiles it to is suggested, and that reads.
        let alpha = call("POST", "/v1/contrast", body: ##"{"foreground": "--alpha(var(--color-blue-500) / 50%)", "background": "#fff", "variables": "tailwind"}"##)
        #expect(alpha.status == 400 && alpha.json["suggestions"]?.array == ["color-mix(in oklab, var(--color-blue-500) 50%, transparent)"], "\(alpha.text)")
        #expect(alpha.json["detail"]?.string?.hasSuffix("--alpha() is Tailwind v4's build-time function, which compiles to color-mix(in oklab, var(--color-blue-500) 50%, transparent): send that") == true, "\(alpha.text)")
        let mixed = call("POST", "/v1/contrast", body: ##"{"foreground": "color-mix(in oklab, var(--color-blue-500) 50%, transparent)", "background": "#fff", "variables": "tailwind"}"##)
        #expect(mixed.status == 200, "\(mixed.text)")
        // ...and a custom property or Tailwind utility named without var() (was "unknown color name").
        for (written, property) in [("--color-blue-500", "--color-blue-500"), ("blue-500", "--color-blue-500"), ("text-white", "--color-white")] {
            let r = call("POST", "/v1/contrast", body: ##"{"foreground": "\##(written)", "background": "#fff", "variables": "tailwind"}"##)
            #expect(r.status == 400 && r.json["suggestions"]?.array?.first?.string == "var(\(property))", "\(r.text)")
            #expect(r.json["detail"]?.string?.hasSuffix("'\(written)' names the custom property \(property) of \"variables\": CSS reads it as var(\(property))") == true, "\(r.text)")
        }
        // A misspelt custom property gets the closest defined names (a second new user's pass).
        let grey = call("POST", "/v1/contrast", body: ##"{"foreground": "var(--color-grey-500)", "background": "#fff", "variables": "tailwind"}"##)
        #expect(grey.status == 400 && grey.json["suggestions"]?.array?.first?.string == "var(--color-gray-500)", "\(grey.text)")
        #expect(grey.json["detail"]?.string?.hasSuffix("did you mean '--color-gray-500'?") == true, "\(grey.text)")
        // A new user's pass, stop 43: `variables` in a query was only "unknown".
        let variables = call("GET", "/v1/contrast?foreground=var(--color-blue-500)&background=white&variables=tailwind")
        #expect(variables.status == 400 && variables.json["parameter"]?.string == "variables")
        #expect(variables.json["detail"]?.string?.contains("custom properties are read from a JSON body only: POST the request with \"variables\" in it") == true, "\(variables.text)")
    }

    /// `rem` at the initial root size (CSS Fonts 4 §2.5: medium = 16px): 1.5rem is 24px = 18pt,
    /// large text at any weight; 1rem bold is 16px = 12pt, not large (needs 4.5:1).
    @Test func remSizesAreSixteenPixels() {
        func text(_ size: String, _ weight: Int) -> JSON {
            call("POST", "/v1/contrast", body: ##"{"foreground": "#949494", "background": "#fff", "fontSize": \##(size), "fontSizeUnit": "rem", "fontWeight": \##(weight)}"##).json
        }
        let large = text("1.5", 400)
        #expect(large["text"]?["px"] == 24 && large["text"]?["points"] == 18 && large["text"]?["fontSizeUnit"] == "rem")
        #expect(large["text"]?["isLarge"] == true && large["text"]?["passes"]?["AA"] == true)
        let body = text("1", 700)
        #expect(body["text"]?["px"] == 16 && body["text"]?["points"] == 12 && body["text"]?["isLarge"] == false)
        #expect(body["text"]?["passes"]?["AA"] == false && body["text"]?["requiredRatio"]?["AA"] == 4.5)
    }
}
