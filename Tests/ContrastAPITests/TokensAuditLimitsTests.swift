import ContrastAPI
import Foundation
import JSONValue
import TestSupport
import Testing

/// `POST /v1/tokens/audit` under hostile input: work and answers bounded before they are paid,
/// client text in reports that cannot forge lines, problems naming the field to change.
@Suite(.serialized)
struct TokensAuditLimitsTests {
    static func body(_ files: [JSON], _ extra: [(String, JSON)]) -> String {
        String(decoding: JSON.object(JSONObject([("files", .array(files))] + extra)).serialized(), as: UTF8.self)
    }

    /// A CSS file of `n` custom properties `--c0` … with distinct colors.
    static func css(_ n: Int) -> String {
        ":root {" + (0..<n).map { String(format: "--c%d: #%06x;", $0, $0 &* 7919 % 0xffffff) }.joined() + "}"
    }

    @Test("too many pairs or too much matching is a 422 limit-exceeded naming /rules or the preset")
    func limits() throws {
        let live = try LiveServer()
        // 150 tokens, every one on every other: 22,350 pairs over the 20,000 limit.
        let r = expectProblem(try live.request("POST", "/v1/tokens/audit", body: Self.body([.object(["name": "t.css", "content": .string(Self.css(150))])],
            [("rules", .array([.object(["foreground": "--c*", "background": "--c*"])]))])), 422, pointer: "/rules")
        #expect(r["type"] == "/problems/limit-exceeded" && r["limit"]?.double == 20_000, "\(r)")
        // The Apple preset puts 1,700 tokens on 6 backgrounds in 2 modes: the preset is named.
        let p = expectProblem(try live.request("POST", "/v1/tokens/audit?preset=apple&name=t.css", body: Self.css(1_700),
                                               headers: ["Content-Type": "text/css"]), 422, parameter: "preset")
        #expect(p["type"] == "/problems/limit-exceeded", "\(p)")
    }

    @Test("the text report escapes controls in client text; SARIF's artifact URI is percent-encoded")
    func controls() throws {
        let live = try LiveServer()
        let forged = "x\n\ndefault: 0 pairs, 0 pass, 0 fail\nPASS\n\u{1B}[8m"
        let tokens = JSON.object([("bg", .object(["$type": "color", "$value": "#fff"])), (forged, .object(["$type": "color", "$value": "#eee"]))])
        let file = JSON.object(["name": "my tokens/#1?.json", "content": .string(String(decoding: tokens.serialized(), as: UTF8.self))])
        let rules: JSON = .array([.object(["foreground": "x*", "background": "bg"])])
        let text = try live.request("POST", "/v1/tokens/audit", body: Self.body([file], [("rules", rules), ("report", "text")]))
        #expect(text.status == 200)
        #expect(!text.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.text)")
        #expect(text.text.contains(#"x\n\ndefault: 0 pairs, 0 pass, 0 fail\nPASS\n\u001B[8m"#), "\(text.text)")
        #expect(text.text.split(separator: "\n").filter { $0 == "PASS" || $0 == "FAIL" } == ["FAIL"], "\(text.text)")
        // Invisible format characters (a CSS escape \FEFF in a CSS token's name; zero-width
        // spaces; bidi controls) are shown escaped too (a hostile pass: U+FEFF reached the table raw).
        let css = ":root { --bg: #fff; --x\\FEFF: #eee; --y\u{200B}z: #ddd; --w\u{202E}v: #ccc; }"
        let cssFile = JSON.object(["name": "t.css", "content": .string(css)])
        let hiddenRules: JSON = .array(["--x*", "--y*", "--w*"].map { .object(["foreground": .string($0), "background": "--bg"]) })
        let hidden = try live.request("POST", "/v1/tokens/audit", body: Self.body([cssFile], [("rules", hiddenRules), ("report", "text")]))
        let invisible = hidden.text.unicodeScalars.filter { $0.properties.generalCategory == .format }
        #expect(invisible.isEmpty && hidden.text.contains(#"--x\uFEFF"#) && hidden.text.contains(#"--y\u200Bz"#) && hidden.text.contains(#"--w\u202Ev"#), "\(hidden.status) \(hidden.text)")
        let sarif = try live.request("POST", "/v1/tokens/audit", body: Self.body([file], [("rules", rules), ("report", "sarif")]))
        let result = sarif.json["runs"]?.array?.first?["results"]?.array?.first
        let uri = result?["locations"]?.array?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.string
        #expect(uri == "my%20tokens/%231%3F.json", "\(sarif.text)")
        // A leading `/` is encoded: `//evil.example/x.json` had been a reference to another host
        // (a hostile pass, 2026-12-07). Pair fingerprints escape `\` and `|`: `a|b` on `c` and `a`
        // on `b|c` had shared one, which code scanning folds alerts by.
        let piped = JSON.object([("c", .object([("$type", "color"), ("a|b", .object(["$value": "#777"])), ("a", .object(["$value": "#888"])),
                                                ("b|c", .object(["$value": "#fff"])), ("c", .object(["$value": "#fff"])), ("plain", .object(["$value": "#999"]))]))])
        let pipedFile = JSON.object(["name": "//evil.example/x.json", "content": .string(String(decoding: piped.serialized(), as: UTF8.self))])
        let pairs: JSON = .array([.object(["foreground": "c.a|b", "background": "c.c"]), .object(["foreground": "c.a", "background": "c.b|c"]),
                                  .object(["foreground": "c.plain", "background": "c.c"])])
        let scanned = try live.request("POST", "/v1/tokens/audit", body: Self.body([pipedFile], [("rules", pairs), ("report", "sarif")]))
        let results = scanned.json["runs"]?.array?.first?["results"]?.array ?? []
        let prints = results.compactMap { $0["partialFingerprints"]?["pair"]?.string }
        #expect(Set(prints) == [#"|c.a\|b|c.c"#, #"|c.a|c.b\|c"#, "|c.plain|c.c"], "\(prints)")
        #expect(results.first?["locations"]?.array?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.string == "%2F/evil.example/x.json", "\(scanned.text.prefix(600))")
    }

    @Test("a selector list is one mode per selector; long token names are refused; a report too large is refused before it is built")
    func answerSize() throws {
        let live = try LiveServer()
        // Unknown selectors in a list: each its own mode, not one mode named by the whole list.
        let css = ":root { --fg: #000; --bg: #fff; } .a, .b, .c { --fg: #777; }"
        let modes = try live.request("POST", "/v1/tokens/audit", body: Self.body([.object(["name": "t.css", "content": .string(css)])],
            [("rules", .array([.object(["foreground": "--fg", "background": "--bg"])]))]))
        #expect(modes.status == 200, "\(modes.text)")
        #expect(modes.json["modes"]?.array?.compactMap(\.string) == ["default", ".a", ".b", ".c"], "\(modes.text.prefix(300))")
        // A token name over 512 bytes: 400 naming it.
        let long = String(repeating: "n", count: 600)
        let named = expectProblem(try live.request("POST", "/v1/tokens/audit", body: Self.body(
            [.object(["name": "t.css", "content": .string(":root { --\(long): #000; --bg: #fff; }")])],
            [("rules", .array([.object(["foreground": "--n*", "background": "--bg"])]))])), 400, kind: "invalid-tokens")
        #expect(named["token"]?.string?.hasPrefix("--nnnn") == true, "\(named)")
        // 100 tokens with 500-byte names, every one on every other: ~40 MiB of JSON.
        let big = ":root {" + (0..<100).map { String(format: "--%@%d: #%06x;", String(repeating: "x", count: 500), $0, $0 &* 7919 % 0xffffff) }.joined() + "}"
        for report in ["json", "junit"] {
            let r = expectProblem(try live.request("POST", "/v1/tokens/audit", body: Self.body([.object(["name": "t.css", "content": .string(big)])],
                [("rules", .array([.object(["foreground": "--x*", "background": "--x*"])])), ("suggest", false), ("report", .string(report))])), 422, pointer: "/rules")
            #expect(r["type"] == "/problems/limit-exceeded" && r["limit"]?.double == 33_554_432, "\(r)")
        }
    }

    @Test("problems echo client text cut to 64 characters with its length")
    func echoes() throws {
        let live = try LiveServer()
        func audit(_ tokens: String) throws -> JSON {
            expectProblem(try live.request("POST", "/v1/tokens/audit", body: Self.body([.object(["name": "t.json", "content": .string(tokens)])],
                [("rules", .array([.object(["foreground": "fg", "background": "bg"])]))])), 400, kind: "invalid-tokens")
        }
        let alias = String(repeating: "x", count: 500_000)
        let a = try audit(##"{"fg": {"$type": "color", "$value": "{"## + alias + ##"}"}, "bg": {"$type": "color", "$value": "#fff"}}"##)
        let detail = a["detail"]?.string ?? ""
        #expect(detail.contains("alias to '" + String(repeating: "x", count: 64) + "…' (500000 characters, shortened)"), "\(detail.prefix(300))")
        #expect(!detail.contains(String(repeating: "x", count: 65)), "\(detail.count)")
        let value = String(repeating: "q", count: 5_000)
        let v = try audit(##"{"fg": {"$type": "color", "$value": ""## + value + ##""}, "bg": {"$type": "color", "$value": "#fff"}}"##)
        #expect(v["detail"]?.string?.contains("'" + String(repeating: "q", count: 64) + "…' (5000 characters, shortened) is not a color") == true, "\(v)")
        #expect(v["detail"]?.string?.contains("...") == false, "\(v)")
        // A token name over the limit: named cut to 64 characters, its length said.
        let long = "--" + String(repeating: "n", count: 600)
        let n = expectProblem(try live.request("POST", "/v1/tokens/audit", body: Self.body(
            [.object(["name": "t.css", "content": .string(":root { \(long): #000; --bg: #fff; }")])],
            [("rules", .array([.object(["foreground": "--n*", "background": "--bg"])]))])), 400, kind: "invalid-tokens")
        #expect(n["token"]?.string == String(long.prefix(64)) + "…", "\(n)")
        #expect(n["detail"]?.string?.contains("(602 characters, shortened): the token name is 602 bytes long; the limit is 512 bytes") == true, "\(n)")
    }

    @Test("variables: var() in DTCG values and CSS aliases resolve to the request's custom properties")
    func variables() throws {
        let live = try LiveServer()
        let rules: JSON = .array([.object(["foreground": "fg", "background": "bg"])])
        let dtcg = ##"{"fg": {"$type": "color", "$value": "var(--a)"}, "bg": {"$type": "color", "$value": "#fff"}}"##
        let d = try live.request("POST", "/v1/tokens/audit", body: Self.body([.object(["name": "t.json", "content": .string(dtcg)])],
            [("rules", rules), ("variables", .object(["--a": "red"]))]))
        #expect(d.status == 200, "\(d.text.prefix(300))")
        let fg = d.json["pairs"]?.array?.first?["foreground"]
        #expect(fg?["hex"]?.string == "#ff0000" && fg?["value"]?.string == "red", "\(d.text.prefix(400))")
        let css = ":root { --fg: var(--a); --bg: #fff; }"
        let c = try live.request("POST", "/v1/tokens/audit", body: Self.body([.object(["name": "t.css", "content": .string(css)])],
            [("rules", .array([.object(["foreground": "--fg", "background": "--bg"])])), ("variables", .object(["--a": "oklch(from var(--bg) 0.3 c h)"]))]))
        #expect(c.status == 200, "\(c.text.prefix(300))")
        let cfg = c.json["pairs"]?.array?.first?["foreground"]
        #expect(cfg?["chain"]?.array?.compactMap(\.string) == ["--fg", "--a"], "\(c.text.prefix(400))")
        #expect(cfg?["value"]?.string == "oklch(from #fff 0.3 c h)", "\(c.text.prefix(400))")
        // Variables are not tokens: a pattern does not pair them.
        #expect(c.json["pairs"]?.array?.count == 1)
    }

    @Test("files without modes: the one mode is named default in JSON and text, as in JUnit")
    func singleMode() throws {
        let live = try LiveServer()
        func body(_ report: JSON) -> String {
            Self.body([.object(["name": "t.css", "content": ":root { --fg: #777; --bg: #fff; }"])],
                      [("rules", .array([.object(["foreground": "--fg", "background": "--bg"])])), ("report", report)])
        }
        let j = try live.request("POST", "/v1/tokens/audit", body: body("json"))
        #expect(j.json["modes"] == ["default"], "\(j.text.prefix(300))")
        #expect(j.json["pairs"]?.array?.first?["mode"] == "default")
        #expect(j.json["summary"]?["byMode"]?.array?.first?["mode"] == "default")
        let t = try live.request("POST", "/v1/tokens/audit", body: body("text"))
        #expect(t.text.split(separator: "\n").dropFirst().first?.hasPrefix("default  --fg") == true, "\(t.text)")
    }
}
