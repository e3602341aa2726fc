import Foundation
import JSONValue
import TestSupport
import Testing

/// `POST /v1/contrast/batch` over the real server (a plugin author's pass: a page's pairs took one
/// request each, or a whole matrix). Each result is `/v1/contrast`'s answer for that pair.
@Suite(.serialized) struct ContrastBatchTests {
    static let pairs: [String] = [
        ##"{"foreground": "#777777", "background": "#ffffff", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700}"##,
        ##"{"foreground": "rgb(0 102 161 / 0.5)", "background": "white"}"##,
        ##"{"foreground": "#fff", "background": "rgba(0,0,0,0.4)", "backdrop": "#336699"}"##,
        ##"{"foreground": "#ffffff", "background": "#ffffff", "layers": [{"color": "#00633d", "opacity": 0.65}]}"##,
        ##"{"foreground": "label", "background": "secondarySystemBackground", "appearance": "dark", "level": "elevated"}"##,
        ##"{"foreground": "#000", "background": "oklch(0.6 0.3 140)", "gamutMethod": "clip", "algorithm": "apca"}"##,
        ##"{"foreground": "rgb(0.1 0.2 0.3)", "background": "#fff", "fontSize": 16, "fontSizeUnit": "px"}"##,
    ]

    @Test("each result is /v1/contrast's answer for its pair, in order; variables serve every pair")
    func resultsAreTheSingleAnswers() throws {
        let live = try LiveServer()
        let batch = try live.request("POST", "/v1/contrast/batch", body: #"{"pairs": [\#(Self.pairs.joined(separator: ", "))]}"#)
        #expect(batch.status == 200, "\(batch.text.prefix(400))")
        #expect(batch.json["count"] == .number(Double(Self.pairs.count)))
        let results = try #require(batch.json["results"]?.array)
        #expect(results.count == Self.pairs.count)
        for (pair, result) in zip(Self.pairs, results) {
            let single = try live.request("POST", "/v1/contrast", body: pair)
            #expect(single.status == 200 && result == single.json, "\(pair)")
        }
        // Byte for byte: the batch is the single answers joined.
        let singles = try Self.pairs.map { try live.request("POST", "/v1/contrast", body: $0).text }
        #expect(batch.text == #"{"count":\#(Self.pairs.count),"results":[\#(singles.joined(separator: ","))]}"#)
        // A pair's own `id` comes back first in its answer, the rest byte for byte (a plugin
        // author's pass matched results to layers by order only); a bad one is a 400 naming it.
        let withIDs = try live.request("POST", "/v1/contrast/batch", body: ##"{"pairs": [{"id": "node:12 \"title\"", "foreground": "#777777", "background": "#ffffff", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700}, {"foreground": "#000", "background": "#fff"}]}"##)
        let plain = try live.request("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff"}"##).text
        #expect(withIDs.text == #"{"count":2,"results":[{"id":"node:12 \"title\"",\#(singles[0].dropFirst()),\#(plain)]}"#, "\(withIDs.text.prefix(300))")
        let badID = try live.request("POST", "/v1/contrast/batch", body: ##"{"pairs": [{"id": 12, "foreground": "#000", "background": "#fff"}]}"##)
        #expect(badID.status == 400 && badID.json["pointer"] == "/pairs/0/id" && badID.json["detail"] == "'/pairs/0/id' must be a string of at most 256 characters (your own key for the pair, echoed in its result), not number", "\(badID.text)")
        let longID = try live.request("POST", "/v1/contrast/batch", body: ##"{"pairs": [{"id": "\##(String(repeating: "x", count: 257))", "foreground": "#000", "background": "#fff"}]}"##)
        #expect(longID.status == 400 && longID.json["pointer"] == "/pairs/0/id", "\(longID.text.prefix(300))")
        // Counted as JSON Schema's maxLength counts: 256 "€" (768 bytes) are allowed.
        let euros = try live.request("POST", "/v1/contrast/batch", body: ##"{"pairs": [{"id": "\##(String(repeating: "€", count: 256))", "foreground": "#000", "background": "#fff"}]}"##)
        #expect(euros.status == 200 && euros.json["results"]?.array?.first?["id"]?.string?.count == 256, "\(euros.text.prefix(200))")
        let withVariables = try live.request("POST", "/v1/contrast/batch", body: ##"{"pairs": [{"foreground": "var(--ink)", "background": "#fff"}, {"foreground": "#fff", "background": "var(--ink)"}], "variables": {"--ink": "#1c1c1e"}}"##)
        let ratios = withVariables.json["results"]?.array?.map { $0["ratio"] }
        #expect(withVariables.status == 200 && ratios?.count == 2 && ratios?[0] == ratios?[1] && ratios?[0]?.double.map { $0 > 17 } == true, "\(withVariables.text.prefix(300))")
    }

    /// A hostile pass: 1,000 pairs of 32 layers of a 5-step `var()` chain of `color-mix()`
    /// (443 KB) took 67 s of CPU, going on after the server's 503 at 30 s, and a bad last pair was
    /// found only after all the others were measured. Members are checked first; the measuring
    /// stops at 2 s of work with a 422 naming the pair reached.
    @Test("a batch's work is bounded: bad members are found before any color is read, and measuring stops at 2 s")
    func workIsBounded() throws {
        let live = try LiveServer()
        var chain: [(String, JSON)] = [("--c0", "oklch(0.7 0.4 30 / 0.5)")]
        for i in 1...5 {
            chain.append(("--c\(i)", .string("color-mix(in oklch longer hue, var(--c\(i - 1)) 40%, oklch(from var(--c\(i - 1)) calc(l*0.99) calc(c + 0.01) calc(h + 7) / calc(alpha*0.95)))")))
        }
        let costly = JSON.object(["foreground": "var(--c5)", "background": "#fff", "layers": .array(Array(repeating: "var(--c5)", count: 32))])
        func body(_ pairs: [JSON]) -> String {
            String(decoding: JSON.object(["pairs": .array(pairs), "variables": .object(JSONObject(chain))]).serialized(), as: UTF8.self)
        }
        // Members before colors: with a bad color in the first pair and an unknown member in the
        // last, the member is what is named (measured first, the color would be; no timing here:
        // speed is measured by bench/, not by unit tests).
        let badColor = JSON.object(["foreground": "not-a-color", "background": "#fff"])
        let late = try live.request("POST", "/v1/contrast/batch", body: body([badColor] + Array(repeating: costly, count: 998) + [.object(["foreground": "#000", "background": "#fff", "colour": "#000"])]))
        #expect(late.status == 400 && late.json["pointer"] == "/pairs/999/colour", "\(late.text.prefix(300))")
        // The 1,000 costly pairs stop at 2 s of work, before the last pair.
        let long = try live.request("POST", "/v1/contrast/batch", body: body(Array(repeating: costly, count: 1_000)))
        #expect(long.status == 422 && long.json["type"] == "/problems/limit-exceeded" && long.json["limit"] == 2, "\(long.text.prefix(400))")
        let reached = long.json["pointer"]?.string.flatMap { Int($0.dropFirst("/pairs/".count)) }
        #expect(reached.map { $0 > 0 && $0 < 1_000 } == true && long.json["detail"]?.string?.contains("took more than 2 s of work before pair") == true, "\(long.text.prefix(400))")
    }

    @Test("a bad pair is a 400 naming its member; gradients, empty and over-long lists are refused")
    func problemsNameThePair() throws {
        let live = try LiveServer()
        func problem(_ body: String) throws -> JSON {
            let r = try live.request("POST", "/v1/contrast/batch", body: body)
            #expect(r.status == 400 && r.headers["content-type"] == "application/problem+json", "\(r.status) \(r.text.prefix(300))")
            return r.json
        }
        #expect(try problem(##"{"pairs": [{"foreground": "#000", "background": "#fff"}, {"foreground": "#000", "background": "nope"}]}"##)["pointer"] == "/pairs/1/background")
        #expect(try problem(##"{"pairs": [{"foreground": "#000", "background": "#fff", "box": {"width": 1, "height": 1}}]}"##)["pointer"] == "/pairs/0/box")
        let gradient = try problem(##"{"pairs": [{"foreground": "#000", "background": "linear-gradient(#fff, #000)"}]}"##)
        #expect(gradient["pointer"] == "/pairs/0/background" && gradient["detail"]?.string?.contains("one per request at POST /v1/contrast") == true)
        #expect(try problem(##"{"pairs": [{"foreground": "#000", "background": "#fff", "variables": {}}]}"##)["pointer"] == "/pairs/0/variables")
        #expect(try problem(##"{"pairs": []}"##)["pointer"] == "/pairs")
        #expect(try problem(##"{"pairs": ["#000 on #fff"]}"##)["pointer"] == "/pairs/0")
        #expect(try problem(##"{"pair": [{"foreground": "#000", "background": "#fff"}]}"##)["pointer"] == "/pair")
        let many = "{\"pairs\": [" + Array(repeating: ##"{"foreground": "#000", "background": "#fff"}"##, count: 1_001).joined(separator: ",") + "]}"
        let over = try live.request("POST", "/v1/contrast/batch", body: many)
        #expect(over.status == 413 && over.json["type"] == "/problems/limit-exceeded" && over.json["pointer"] == "/pairs" && over.json["limit"] == 1000, "\(over.text)")
        let most = "{\"pairs\": [" + Array(repeating: ##"{"foreground": "#000", "background": "#fff"}"##, count: 1_000).joined(separator: ",") + "]}"
        let full = try live.request("POST", "/v1/contrast/batch", body: most)
        #expect(full.status == 200 && full.json["results"]?.array?.count == 1_000)
    }
}
