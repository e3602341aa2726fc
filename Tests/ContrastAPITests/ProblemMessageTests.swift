@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import TestSupport
import Testing

/// What problem details say, over a real server on port 0: client text echoed bounded (hostile
/// test 10).
@Suite(.serialized) struct ProblemMessageTests {
    static let live = try! LiveServer()

    static func get(_ target: String) throws -> Reply { try live.request("GET", target) }
    static func post(_ path: String, _ body: String) throws -> Reply { try live.request("POST", path, body: body) }

    // MARK: 10. Client text is echoed bounded

    /// A 1 MB unknown member name was echoed in `detail` and in `pointer`: a 2 MB answer. Now
    /// both hold its first 64 characters, the detail says how long it was, and
    /// `pointerShortened` says the pointer no longer resolves.
    @Test func hugeMemberNameIsCut() throws {
        let name = String(repeating: "x", count: 1_000_000)
        let r = try Self.post("/v1/convert", #"{"color": "red", "\#(name)": 1}"#)
        let j = expectProblem(r, 400, kind: "invalid-field")
        let cut = String(repeating: "x", count: 64) + "…"
        #expect(j["detail"] == .string("'/\(cut)' (a name of 1000000 characters, shortened) is unknown; known fields: color, gamut, gamutMethod, hexOrder, to"))
        #expect(j["pointer"] == .string("/" + cut))
        #expect(j["pointerShortened"] == true)
        #expect(r.body.count < 600, "\(r.body.count) bytes")
        // Nested: the pointer keeps its short steps and cuts the long name only.
        let nested = try Self.post("/v1/contrast/matrix", #"{"colors": [{"color": "red", "\#(String(repeating: "n", count: 5000))": 1}]}"#)
        let n = expectProblem(nested, 400, kind: "invalid-field")
        #expect(n["pointer"] == .string("/colors/0/" + String(repeating: "n", count: 64) + "…"))
        #expect(n["detail"]?.string?.hasSuffix("(a name of 5000 characters, shortened) is unknown; known fields: color, name") == true, "\(n)")
        // A short unknown name is whole, with no flag.
        let short = expectProblem(try Self.post("/v1/convert", #"{"color": "red", "colour": 1}"#), 400, pointer: "/colour")
        #expect(short["detail"] == "'/colour' is unknown; known fields: color, gamut, gamutMethod, hexOrder, to")
        #expect(short["pointerShortened"] as JSON? == .none)
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
    }

    /// Cut by Unicode scalars, not by Characters: one Character can hold any number of them.
    @Test func clientTextCountsScalars() {
        let bomb = "a" + String(repeating: "\u{301}", count: 10_000)
        let (text, length) = ClientText.cut(bomb)
        #expect(text.unicodeScalars.count == 65 && length == 10_001)
        #expect(ClientText.quoted("short") == "'short'")
        #expect(ClientText.quoted(String(repeating: "é", count: 65)) == "'\(String(repeating: "é", count: 64))…' (65 characters, shortened)")
    }
}
