@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import TestSupport
import Testing

/// What problem details say, over a real server on port 0: client text echoed bounded, stray
/// characters in colors named where they are, malformed query names as sent, `to` read alike
/// from GET and POST, and every field named in one form (hostile tests 10 to 12).
@Suite(.serialized) struct ProblemMessageTests {
    static let live = try! LiveServer()

    static func get(_ target: String) throws -> Reply { try live.request("GET", target) }
    static func post(_ path: String, _ body: String) throws -> Reply { try live.request("POST", path, body: body) }

    // MARK: 10. Client text is echoed bounded

    /// A 1 MB unknown member name was echoed in `detail` and in `pointer`: a 2 MB answer. Now
    /// both hold its first 64 characters, the detail says how long it was, and
    /// `pointerShortened` says the pointer no longer resolves.
    /// A new user's pass, stop 49: a hex literal as code writes it, a shortened choice, and a
    /// forced token format that is not the file's were each refused without the way out.
    @Test func codeHexAndShortenedChoicesNameTheWayOut() throws {
        let hex = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "0xFF0000", "background": "white"}"##), 400, kind: "invalid-color")
        #expect(hex["detail"]?.string?.contains("'0xFF0000' is a hex number as code writes it, not a CSS color; did you mean '#FF0000'?") == true, "\(hex)")
        // Hex without '#' inside a function says to write the '#' (a new user's pass: "'3b82f6'
        // is a number, not a color"); three decimal digits stay a number.
        for (color, says) in [("oklch(from 3b82f6 l c h)", "'3b82f6' looks like a hex color without '#': write #3b82f6"),
                              ("color-mix(in oklab, 000000, white)", "'000000' looks like a hex color without '#': write #000000"),
                              ("rgb(from 100 r g b)", "'100' is a number, not a color")] {
            let p = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "\##(color)", "background": "white"}"##), 400, kind: "invalid-color")
            #expect(p["detail"]?.string?.contains(says) == true, "\(p)")
        }
        let argb = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "0xFF336699", "background": "white"}"##), 400, kind: "invalid-color")
        #expect(argb["detail"]?.string?.contains("as Android's 0xAARRGGBB it is '#336699FF'") == true, "\(argb)")
        // The ways out are `suggestions` too, as for other near misses (a second new user's pass).
        #expect(hex["suggestions"] == ["#FF0000"] && argb["suggestions"] == ["#336699FF", "#FF336699"], "\(hex) \(argb)")
        let figma = expectProblem(try Self.live.request("POST", "/v1/tokens/audit?tokenFormat=figma", body: ":root { --a: white; }"), 400, kind: "invalid-field")
        #expect(figma["detail"]?.string?.hasSuffix("got 'figma'; did you mean 'figma-variables'?") == true, "\(figma)")
        let material = ##"{"seed": "#6750a4", "schemes": {"light": {"primary": "#6750a4", "onPrimary": "#ffffff"}}}"##
        let forced = try Self.live.request("POST", "/v1/tokens/audit?tokenFormat=dtcg&preset=material3", body: material)
        #expect(forced.status == 400 && forced.json["detail"]?.string?.contains("they read as material: leave the format out to detect it, or give material") == true, "\(forced.text)")
    }

    @Test func hugeMemberNameIsCut() throws {
        let name = String(repeating: "x", count: 1_000_000)
        let r = try Self.post("/v1/convert", #"{"color": "red", "\#(name)": 1}"#)
        let j = expectProblem(r, 400, kind: "invalid-field")
        let cut = String(repeating: "x", count: 64) + "…"
        #expect(j["detail"] == .string("'/\(cut)' (a name of 1000000 characters, shortened) is unknown; known fields: color, gamut, gamutMethod, hexOrder, to, variables"))
        #expect(j["pointer"] == .string("/" + cut))
        #expect(j["pointerShortened"] == true)
        #expect(r.body.count < 600, "\(r.body.count) bytes")
        // Nested: the pointer keeps its short steps and cuts the long name only.
        let nested = try Self.post("/v1/contrast/matrix", #"{"colors": [{"color": "red", "\#(String(repeating: "n", count: 5000))": 1}]}"#)
        let n = expectProblem(nested, 400, kind: "invalid-field")
        #expect(n["pointer"] == .string("/colors/0/" + String(repeating: "n", count: 64) + "…"))
        #expect(n["detail"]?.string?.hasSuffix("(a name of 5000 characters, shortened) is unknown; known fields: color, name") == true, "\(n)")
        // Counted in scalars, escapes as one character, never cut in half an escape (the bytes
        // are now read in place: a 1 MB name had taken 0.1 s of a light thread to name).
        let accents = String(repeating: "é", count: 70) + "~x"
        let a = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "\#(accents)": 1}"#), 400, kind: "invalid-field")
        #expect(a["pointer"] == .string("/" + String(repeating: "é", count: 64) + "…"), "\(a)")
        #expect(a["detail"]?.string?.contains("(a name of 72 characters, shortened)") == true, "\(a)")
        let tilde = String(repeating: "a", count: 63) + "~" + String(repeating: "b", count: 10)
        let t = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "\#(tilde)": 1}"#), 400, kind: "invalid-field")
        #expect(t["pointer"] == .string("/" + String(repeating: "a", count: 63) + "…"), "\(t)")
        #expect(t["detail"]?.string?.contains("(a name of 74 characters, shortened)") == true, "\(t)")
        // A short unknown name is whole, with no flag.
        let short = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "colour": 1}"#), 400, pointer: "/colour")
        #expect(short["detail"] == "'/colour' is unknown; did you mean 'color'? Known fields: color, gamut, gamutMethod, hexOrder, to, variables")
        #expect(short["pointerShortened"] as JSON? == .none)
    }

    /// A new user's pass: `fontsize` was refused with a list that left out `box`, `region` and
    /// `variables` (all read by /v1/contrast) and without the near miss.
    @Test func unknownContrastMemberNamesEveryMemberAndTheNearMiss() throws {
        let r = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#000", "background": "#fff", "fontsize": 16}"##), 400, pointer: "/fontsize")
        let detail = r["detail"]?.string ?? ""
        #expect(detail.hasPrefix("'/fontsize' is unknown; did you mean 'fontSize'? Known fields: "), "\(detail)")
        for name in ["box", "region", "variables", "layers", "fontWeight"] { #expect(detail.contains(name), "\(name): \(detail)") }
        // Another new user's pass: `minimum` on /v1/contrast and `fontSize` on the matrix were
        // refused with lists that left out `variables`; every JSON body takes it.
        for (path, body) in [("/v1/contrast", ##"{"foreground": "#000", "background": "#fff", "minimum": 4.5}"##),
                             ("/v1/contrast/matrix", ##"{"colors": ["#000"], "fontSize": 24}"##),
                             ("/v1/pick", ##"{"background": "#000", "candidates": ["#fff"], "colour": 1}"##)] {
            let d = expectProblem(try Self.post(path, body), 400)["detail"]?.string ?? ""
            #expect(d.contains("known fields: ") && d.contains("variables"), "\(path): \(d)")
        }
        // `target` aims a gradient's fixes: on one color it says so and where to go instead.
        let target = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#000", "background": "#fff", "target": "AAA"}"##), 400, pointer: "/target")
        #expect(target["detail"]?.string?.contains("/v1/suggest finds the nearest color that meets a target") == true, "\(target)")
        // `w` begins `width`: offered that, not the nearest spelling `x`.
        let w = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#000", "background": "linear-gradient(#fff, #000)", "box": {"width": 320, "height": 48}, "region": {"x": 0, "y": 0, "w": 120, "h": 24}}"##), 400, pointer: "/region/w")
        #expect(w["detail"]?.string?.contains("did you mean 'width'?") == true, "\(w)")
        // A box's coordinates at the root belong in `region` (hostile pass).
        let x = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#000", "background": "linear-gradient(#fff, #000)", "box": {"width": 320, "height": 48}, "x": 0}"##), 400, pointer: "/x")
        #expect(x["detail"]?.string?.hasPrefix(#"'/x' is unknown; the text's box is one member, "region": {"x", "y", "width", "height"}; known fields: "#) == true, "\(x)")
        let q = expectProblem(try Self.get("/v1/contrast?foreground=%23000&background=%23fff&fg=1"), 400)
        let qd = q["detail"]?.string ?? ""
        #expect(qd.contains("box") && qd.contains("region") && !qd.contains("variables"), "\(qd)")
    }

    /// A new user's pass on gradient messages: hex without '#' had been called a misplaced color
    /// hint first; a pasted CSS background list (a scrim fix's `css`) said only "unexpected text".
    @Test func gradientMessagesLeadWithTheFix() throws {
        let hex = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#fff", "background": "linear-gradient(to right, 6366f1, ec4899)"}"##), 400, pointer: "/background")
        #expect(hex["detail"]?.string?.hasPrefix("'/background' is not a valid CSS gradient: '6366f1' looks like a hex color without '#': inside a gradient write #6366f1 (read as CSS: ") == true, "\(hex)")
        // Valid CSS that cannot be evaluated is a 422 in a stop as in a color member (it was a 400).
        let current = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#000", "background": "linear-gradient(currentcolor, red)"}"##), 422, pointer: "/background")
        #expect(current["detail"]?.string?.contains("stop 1 'currentcolor': currentcolor depends on the element's color") == true, "\(current)")
        // A component of a color function is no stop (a hostile pass: `1e9` there had been said
        // to look like hex, before the real fault, out of range).
        let component = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#000", "background": "linear-gradient(in oklab, color(display-p3 1e9 -1e9 0), #fff)"}"##), 400, pointer: "/background")
        #expect(component["detail"]?.string?.hasPrefix("'/background' is not a valid CSS gradient: linear-gradient(): stop 1 'color(display-p3 1e9 -1e9 0)' is not a color: red '1e9' in color() is out of the supported range") == true, "\(component)")
        let list = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#fff", "background": "linear-gradient(rgb(0 0 0 / 0.128), rgb(0 0 0 / 0.128)), linear-gradient(135deg, #6366f1, #ec4899)"}"##), 400, pointer: "/background")
        #expect(list["detail"]?.string?.contains("give the bottom one as 'background' and each one above it in 'layers', bottom to top") == true, "\(list)")
        // A declaration pasted whole, and an image URL.
        let declaration = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#fff", "background": "background-image: linear-gradient(#000, #fff)"}"##), 400, pointer: "/background")
        #expect(declaration["detail"]?.string?.contains("it starts with the CSS declaration name 'background-image:': send only the value after it") == true, "\(declaration)")
        let url = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#fff", "background": "url(hero.jpg)"}"##), 400, pointer: "/background")
        #expect(url["detail"]?.string?.contains("POST /v1/image/text-contrast") == true, "\(url)")
        // A hue method without `hue` is the method's fault, not the direction's; a conic angle
        // too large says so (helper passes).
        for (css, said) in [("linear-gradient(to right in oklch longer, #6366f1, #ec4899)", "interpolation method 'in oklch longer' lacks the word 'hue': write 'in oklch longer hue'"),
                            ("linear-gradient(in oklch shorter, #000, #fff)", "interpolation method 'in oklch shorter' lacks the word 'hue'"),
                            ("conic-gradient(from 1e10deg, #000, #fff)", "conic-gradient() angle 'from 1e10deg' is out of range"),
                            ("linear-gradient(to right, #fff #000)", "linear-gradient(): '#000' after '#fff' is a color, not a stop position: a comma is missing between them ('#fff, #000')"),
                            ("linear-gradient(red 10% blue, #000)", "'blue' after 'red 10%' is a color, not a stop position: a comma is missing between them ('red 10%, blue')")] {
            let p = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#fff", "background": "\##(css)"}"##), 400, pointer: "/background")
            #expect(p["detail"]?.string?.contains(said) == true, "\(css): \(p)")
        }
        // A query's box is written as a query writes it.
        let box = expectProblem(try Self.get("/v1/contrast?foreground=%23fff&background=repeating-radial-gradient(%23000%200,%20%23fff%2010px)"), 400)
        #expect(box["detail"]?.string?.contains("e.g. box=320,120") == true && box["detail"]?.string?.contains("{") == false, "\(box)")
        // In the matrix there are no layers to point at.
        let matrix = expectProblem(try Self.post("/v1/contrast/matrix", ##"{"colors": ["#fff"], "gradients": ["linear-gradient(#000, #fff), linear-gradient(#fff, #000)"]}"##), 400, pointer: "/gradients/0")
        #expect(matrix["detail"]?.string?.contains("'layers'") == false && matrix["detail"]?.string?.contains("give one gradient here") == true, "\(matrix)")
        // Two colors with a comma: the gradient they would make.
        let pair = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#fff", "background": "#6366f1, #ec4899"}"##), 400, pointer: "/background")
        #expect(pair["detail"]?.string?.contains("linear-gradient(#6366f1, #ec4899)") == true, "\(pair)")
    }

    /// The same for a query parameter's name, for a value echoed in a detail, and for the JSON
    /// parser's messages (a duplicate key, a number no double holds under a long name).
    @Test func otherEchoesAreCut() throws {
        let name = String(repeating: "q", count: 5000)
        let cut = String(repeating: "q", count: 64) + "…"
        let query = expectProblem(try Self.get("/v1/convert?color=red&\(name)=1"), 400, kind: "invalid-field")
        #expect(query["detail"] == .string("query parameter '\(cut)' (a name of 5000 characters, shortened) is unknown; known parameters: color, gamut, gamutMethod, hexOrder, to"))
        #expect(query["parameter"] == .string(cut) && query["parameterShortened"] == true)
        let value = String(repeating: "v", count: 1000)
        let choice = expectProblem(try Self.get("/v1/contrast?foreground=red&background=white&algorithm=\(value)"), 400, parameter: "algorithm")
        #expect(choice["detail"] == .string("query parameter 'algorithm' must be one of wcag2, apca, lstar, weber, michelson, got '\(String(repeating: "v", count: 64))…' (1000 characters, shortened)"))
        let key = String(repeating: "k", count: 400_000)
        let duplicate = expectProblem(try Self.post("/v1/convert", #"{"\#(key)": 1, "\#(key)": 2}"#), 400, kind: "malformed-json")
        #expect(duplicate["detail"] == .string("request body is not valid JSON: duplicate key \"\(String(repeating: "k", count: 64))…\" (400000 characters, shortened) in object at byte 400008"))
        let number = expectProblem(try Self.post("/v1/convert", #"{"\#(key)": 1e400}"#), 400, kind: "invalid-field")
        #expect(number["pointer"] == .string("/" + String(repeating: "k", count: 64) + "…") && number["pointerShortened"] == true)
        #expect(number["detail"]?.string?.hasPrefix("'/\(String(repeating: "k", count: 64))…' (a name of 400000 characters, shortened): number 1e400 is outside the double range") == true, "\(number)")
        // A weight that is no whole number but reads as 700 (bold): refused, not judged bold.
        let weight = expectProblem(try Self.post("/v1/contrast", ##"{"foreground": "#949494", "background": "#fff", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 699.99999999999999999}"##), 400, pointer: "/fontWeight")
        #expect(weight["detail"] == .string("'/fontWeight': number 699.99999999999999999 is not a whole number, but no 64-bit number holds it and it would read as 700, a whole number: write at most 17 significant digits"), "\(weight)")
        let queryWeight = expectProblem(try Self.get("/v1/contrast?foreground=%23949494&background=%23fff&fontSize=14&fontSizeUnit=pt&fontWeight=699.99999999999999999"), 400, parameter: "fontWeight")
        #expect(queryWeight["detail"]?.string?.contains("number '699.99999999999999999' is not a whole number") == true, "\(queryWeight)")
        #expect(try Self.get("/v1/contrast?foreground=%23949494&background=%23fff&fontSize=14&fontSizeUnit=pt&fontWeight=+7e2").status == 200)
    }

    /// A plugin author's pass: a body beginning with a UTF-8 byte-order mark (Windows tools write
    /// one) was "unexpected character '\xef' at byte 0"; RFC 8259 §8.1 lets a parser ignore it,
    /// and one is. Two are still refused, and a body of marks costs one retry, not a call each.
    @Test func aByteOrderMarkIsIgnored() throws {
        let r = try Self.live.request("POST", "/v1/contrast", body: "\u{FEFF}" + ##"{"foreground": "#000", "background": "white"}"##)
        #expect(r.status == 200 && r.json["ratio"] == 21, "\(r.text)")
        let bad = try Self.live.request("POST", "/v1/contrast", body: "\u{FEFF}" + ##"{"foreground": "#000""##)
        #expect(bad.status == 400 && bad.json["type"] == "/problems/malformed-json", "\(bad.text)")
        let twice = try Self.live.request("POST", "/v1/contrast", body: "\u{FEFF}\u{FEFF}" + ##"{"foreground": "#000", "background": "white"}"##)
        #expect(twice.status == 400 && twice.json["type"] == "/problems/malformed-json", "\(twice.text)")
        // Errors after the mark are placed in the body as sent (a hostile pass: the second mark
        // was said to be at byte 0).
        #expect(twice.json["detail"]?.string?.hasSuffix("at byte 3") == true, "\(twice.text)")
        #expect(bad.json["detail"]?.string?.hasSuffix("at byte 24") == true, "\(bad.text)")
        let many = try Self.live.request("POST", "/v1/contrast", body: String(repeating: "\u{FEFF}", count: 100_000))
        #expect(many.status == 400 && many.json["type"] == "/problems/malformed-json", "\(many.status)")
    }

    /// A hostile pass: form fields sent as curl -d sends them got "invalid literal: expected
    /// false at byte 0"; the detail now says they are form fields and what to send. JSON sent as
    /// form data (curl -d '{…}') is still read.
    @Test func formFieldsAreNamedAsSuch() throws {
        let form = expectProblem(try Self.live.request("POST", "/v1/contrast", body: "foreground=%23000&background=white",
                                                       headers: ["Content-Type": "application/x-www-form-urlencoded"]), 400, kind: "malformed-json")
        #expect(form["detail"]?.string?.hasPrefix("request body is not valid JSON: it looks like form fields (name=value&…), as curl -d sends them") == true, "\(form)")
        let json = try Self.live.request("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "white"}"##,
                                         headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(json.status == 200)
        let broken = expectProblem(try Self.live.request("POST", "/v1/contrast", body: ##"{"foreground": "#000","##,
                                                         headers: ["Content-Type": "application/x-www-form-urlencoded"]), 400, kind: "malformed-json")
        #expect(broken["detail"]?.string?.contains("form fields") == false, "\(broken)")
    }

    /// Cut by Unicode scalars, not by Characters: one Character can hold any number of them.
    @Test func clientTextCountsScalars() {
        let bomb = "a" + String(repeating: "\u{301}", count: 10_000)
        let (text, length) = ClientText.cut(bomb)
        #expect(text.unicodeScalars.count == 65 && length == 10_001)
        #expect(ClientText.quoted("short") == "'short'")
        #expect(ClientText.quoted(String(repeating: "é", count: 65)) == "'\(String(repeating: "é", count: 64))…' (65 characters, shortened)")
    }

    // MARK: 11. Confusing messages

    /// U+00A0 or U+000B before a color: the character, its position and "before the color",
    /// and the color without it suggested (not systemRed); the same in a query.
    @Test func strayCharactersBeforeAColor() throws {
        let around = "is not whitespace CSS allows around a color (only space, tab, LF, CR and FF are)"
        let cases: [(String, String, String)] = [
            (#"\u00a0#fff"#, "U+00A0 (no-break space) at character 1, before the color, \(around); without it, '#fff' is a color", "#fff"),
            (#"\u00a0red"#, "U+00A0 (no-break space) at character 1, before the color, \(around); without it, 'red' is a color", "red"),
            (#"\u000bred"#, "U+000B (line tabulation) at character 1, before the color, \(around); without it, 'red' is a color", "red"),
            (#"\u000bsystemRed"#, "U+000B (line tabulation) at character 1, before the color, \(around); without it, 'systemRed' is a color", "systemRed"),
        ]
        for (json, message, suggestion) in cases {
            let r = try Self.post("/v1/contrast", #"{"foreground": "\#(json)", "background": "white"}"#)
            let j = expectProblem(r, 400, kind: "invalid-color")
            #expect(j["detail"] == .string("'/foreground' is not a valid CSS color: " + message), "\(json)")
            #expect(j["pointer"] == "/foreground" && j["suggestions"]?.array == [.string(suggestion)], "\(json): \(r.text)")
        }
        let q = expectProblem(try Self.get("/v1/contrast?foreground=%C2%A0red&background=white"), 400, parameter: "foreground")
        #expect(q["detail"] == .string("query parameter 'foreground' is not a valid CSS color: U+00A0 (no-break space) at character 1, before the color, \(around); without it, 'red' is a color"))
        #expect(q["suggestions"]?.array == ["red"])
        // Not a color without it either: the suggestions are for what is left.
        let redd = expectProblem(try Self.post("/v1/contrast", #"{"foreground": "\u00a0redd", "background": "white"}"#), 400, pointer: "/foreground")
        #expect(redd["detail"] == .string("'/foreground' is not a valid CSS color: U+00A0 (no-break space) at character 1, before the color, \(around); without it, 'redd' is not a color either: unknown color name 'redd'; did you mean the CSS color 'red'?"))
        #expect(redd["suggestions"]?.array?.first == "red")
        // Tab, LF, CR, FF and space around a name are CSS whitespace, trimmed.
        #expect(try Self.post("/v1/contrast", #"{"foreground": " \t\n\r\fsystemRed ", "background": "white"}"#).status == 200)
    }

    /// A bad escape in a query parameter's name is reported as the client sent it, not with
    /// U+FFFD, which the client cannot match.
    @Test func malformedQueryNameIsReportedAsSent() throws {
        let tail = " is not valid percent-encoded UTF-8: every % must start an escape of two hex digits (%25 for % itself), %00 is refused, and the decoded bytes must be UTF-8"
        for name in ["fore%ZZground", "x%00", "caf%C3", "%", "a%2"] {
            let j = expectProblem(try Self.get("/v1/contrast?\(name)=red&background=white"), 400, kind: "invalid-field")
            #expect(j["parameter"] == .string(name) && j["detail"] == .string("query parameter '\(name)'" + tail), "\(name): \(j)")
        }
        // A good name with a bad value is named decoded, as every parameter is.
        expectProblem(try Self.get("/v1/contrast?fore%67round=%ZZ&background=white"), 400, parameter: "foreground")
    }

    // MARK: 12. GET and POST read `to` alike

    @Test func convertTargetsHaveOneLimitAndOneValidation() throws {
        let spaces = Array(repeating: "%20", count: 1000).joined(separator: ",")
        let many = expectProblem(try Self.get("/v1/convert?color=red&to=\(spaces)"), 400, parameter: "to")
        #expect(many["detail"] == "query parameter 'to' lists 1000 color spaces; at most 32" && many["limit"] == 32)
        let names33 = Array(repeating: "srgb", count: 33)
        let get33 = expectProblem(try Self.get("/v1/convert?color=red&to=\(names33.joined(separator: ","))"), 400, parameter: "to")
        #expect(get33["detail"] == "query parameter 'to' lists 33 color spaces; at most 32" && get33["limit"] == 32)
        let post33 = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "to": [\#(names33.map { "\"\($0)\"" }.joined(separator: ","))]}"#), 400, pointer: "/to")
        #expect(post33["detail"] == "'/to' lists 33 color spaces; at most 32" && post33["limit"] == 32)
        let names32 = Array(repeating: "srgb", count: 32).joined(separator: ",")
        #expect(try Self.get("/v1/convert?color=red&to=\(names32)").status == 200)
        // Blank entries are refused, naming the parameter or the element.
        let blank = expectProblem(try Self.get("/v1/convert?color=red&to=srgb,,hex"), 400, parameter: "to")
        #expect(blank["detail"] == "query parameter 'to' (entry 2 of 3) is blank; give a color space")
        let space = expectProblem(try Self.get("/v1/convert?color=red&to=%20"), 400, parameter: "to")
        #expect(space["detail"] == "query parameter 'to' is blank; give a color space")
        let postBlank = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "to": ["srgb", " "]}"#), 400, pointer: "/to/1")
        #expect(postBlank["detail"] == "'/to/1' is blank; give a color space")
        let unknown = expectProblem(try Self.get("/v1/convert?color=red&to=oklch,%20xyzz"), 400, parameter: "to")
        #expect(unknown["detail"] == "query parameter 'to' (entry 2 of 2): unknown color space 'xyzz'; known: srgb, srgb-linear, display-p3, rec2020, xyz-d65, xyz-d50, lab, lch, oklab, oklch, hsl, hwb, hex")
        // Spaces around entries are trimmed in both forms.
        let getAnswer = try Self.get("/v1/convert?color=red&to=oklch,%20hex").json
        let postAnswer = try Self.post("/v1/convert", #"{"color": "red", "to": ["oklch", " hex"]}"#).json
        #expect(getAnswer["conversions"] == postAnswer["conversions"] && getAnswer["conversions"]?["hex"] == "#ff0000")
    }

    // MARK: One form for field names

    /// A message names a body member by its pointer and a query parameter as such, also when it
    /// names a second field.
    @Test func fieldsAreNamedInOneForm() throws {
        let get = expectProblem(try Self.get("/v1/contrast?foreground=red&background=white&fontWeight=700"), 400, parameter: "fontSize")
        #expect(get["detail"] == "query parameter 'fontSize' is required when query parameter 'fontWeight' is given")
        let post = expectProblem(try Self.post("/v1/contrast", #"{"foreground": "red", "background": "white", "fontSizeUnit": "px"}"#), 400, pointer: "/fontSize")
        #expect(post["detail"] == "'/fontSize' is required when '/fontSizeUnit' is given")
        let backdrop = expectProblem(try Self.get("/v1/contrast?foreground=red&background=white&backdrop=%230008"), 400, parameter: "backdrop")
        #expect(backdrop["detail"] == "query parameter 'backdrop' must be opaque: it is what lies behind everything")
        let method = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "gamutMethod": "clip"}"#), 400, pointer: "/gamutMethod")
        #expect(method["detail"] == "'/gamutMethod' needs '/gamut' (srgb, display-p3 or rec2020)")
        // A body on a GET would be ignored: a 400 saying so, not an answer from the query alone
        // (a hostile pass: `#000` in the body, `#777` answered). An empty body is no body.
        let withBody = try Self.live.request("GET", "/v1/contrast?foreground=%23777&background=white", body: ##"{"foreground": "#000"}"##)
        #expect(withBody.status == 400 && withBody.json["type"] == "/problems/malformed-request", "\(withBody.text)")
        #expect(withBody.json["detail"] == "GET /v1/contrast reads its input from the query string, and this request has a body (22 bytes), which would be ignored: send it with POST where the route takes POST, or give the fields as query parameters (curl -G --data-urlencode 'name=value')", "\(withBody.text)")
        for path in ["/v1/materials", "/api/webaim?fcolor=000000&bcolor=ffffff"] {
            #expect(try Self.live.request("GET", path, body: "hello").status == 400, "\(path)")
        }
        #expect(try Self.live.request("GET", "/v1/contrast?foreground=%23777&background=white", body: "").status == 200)
        // A method given as the gamut names the member that takes it (a new user's pass).
        let mixedUp = expectProblem(try Self.get("/v1/convert?color=red&gamut=CSS4"), 400, parameter: "gamut")
        #expect(mixedUp["detail"] == "query parameter 'gamut' must be one of srgb, display-p3, rec2020, got 'CSS4': 'css4' is a method, given as query parameter 'gamutMethod' beside the gamut it maps into (gamut srgb, gamutMethod css4)")
        let type = expectProblem(try Self.post("/v1/simulate", #"{"colors": ["red"], "type": "blue"}"#), 400, pointer: "/type")
        #expect(type["detail"] == "'/type' must be one of protanopia, deuteranopia, tritanopia, achromatopsia (or protan, deutan, tritan), got 'blue'")
        // An anomalous trichromacy by name says how to ask for it (a new user's pass).
        let anomaly = expectProblem(try Self.post("/v1/simulate", ##"{"colors": ["#336699"], "type": "Deuteranomaly"}"##), 400, kind: "invalid-field")
        #expect(anomaly["detail"] == "'/type' 'Deuteranomaly' is deuteranopia at a severity below 1: give '/type' \"deuteranopia\" and '/severity' from 0 to 1 (anomalous trichromacy, as Machado 2009 models it)", "\(anomaly)")
    }
}
