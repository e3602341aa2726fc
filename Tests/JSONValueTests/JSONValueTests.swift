import Foundation
import JSONValue
import Testing

struct JSONValueTests {
    func parse(_ s: String) throws(JSONParseError) -> JSON { try JSONParser.parse(s) }

    /// Files a person reads and a repository diffs (the DTCG export): one member a line, arrays
    /// of scalars on one line, a final newline; parsed back to the same value.
    @Test func serializedForFilesIsIndentedAndReadsBack() throws {
        let value = try JSONParser.parse(Array(#"{"a":{"b":[0,0.5,1],"c":"x"},"d":[{"e":null}],"f":{},"g":[]}"#.utf8))
        let text = String(decoding: value.serializedForFiles(), as: UTF8.self)
        #expect(text == "{\n  \"a\": {\n    \"b\": [0, 0.5, 1],\n    \"c\": \"x\"\n  },\n  \"d\": [\n    {\n      \"e\": null\n    }\n  ],\n  \"f\": {},\n  \"g\": []\n}\n", "\(text)")
        #expect(try JSONParser.parse(Array(text.utf8)) == value)
    }

    @Test func parsesExactTypesInOrder() throws {
        let v = try parse(#" {"b": true, "a": 1, "c": [1.5, "x", null], "d": {"e": -0.25e2}} "#)
        guard case .object(let o) = v else { Issue.record("not an object"); return }
        #expect(o.keys == ["b", "a", "c", "d"])
        #expect(o["b"] == .bool(true))
        #expect(o["a"] == .number(1))  // a number, never a boolean
        #expect(o["c"] == .array([.number(1.5), .string("x"), .null]))
        #expect(v["d"]?["e"] == .number(-25))
    }

    @Test func rejectsWhatLenientParsersAccept() {
        let bad = ["", "  ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "NaN", "Infinity", "1e999",
                   "{\"a\":1,\"a\":2}", "\"\\x\"", "\"\u{01}\"", "\"\\ud800\"", "{'a':1}", "[1] 2", "tru", "nul",
                   "// c\n1", "{\"a\" 1}", "[1 2]", "\"unterminated"]
        for s in bad {
            #expect(throws: JSONParseError.self, "\(s.debugDescription) should be rejected") { try JSONParser.parse(s) }
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
    }

    @Test func limitsNesting() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONParser.parse(ok)
    }

    @Test func errorsSayWhereAndWhy() {
        do {
            _ = try JSONParser.parse("{\"a\": 1, \"a\": 2}")
            Issue.record("duplicate key accepted")
        } catch {
            #expect(error.reason.contains("duplicate key \"a\""))
            #expect(error.offset == 9)
        }
    }

    /// An error names the value it stopped in by JSON pointer (RFC 6901, tokens escaped), and a
    /// number beyond the double range is told apart from bad syntax.
    @Test func errorsNameThePointerOfTheValue() {
        let cases: [(String, String, Bool)] = [
            (#"{"fontSize": 1e400}"#, "/fontSize", true),
            (##"{"colors": ["#fff", -1E+309]}"##, "/colors/1", true),
            (#"{"a/b": {"m~n": [0, [2e308]]}}"#, "/a~1b/m~0n/1/0", true),
            (#"{"a": [1, 2,]}"#, "/a/2", false),
            (#"{"a": tru}"#, "/a", false),
            ("1e400", "", true),
            ("[1] 2", "", false),
        ]
        for (text, pointer, outOfRange) in cases {
            do {
                _ = try JSONParser.parse(text)
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.pointer == pointer, "\(text)")
                #expect(error.isNumberOutOfRange == outOfRange, "\(text)")
            }
        }
        // The largest finite double and the smallest subnormal still parse; 1e-400 underflows to 0.
        let edges = try? JSONParser.parse("[1.7976931348623157e308, -4.9e-324, 1e-400]")
        #expect(edges == .array([.number(.greatestFiniteMagnitude), .number(-4.9e-324), .number(0)]))
    }

    /// A hostile pass: a font weight of 699.99999999999999999 read as 700, bold, which turned
    /// an AA large-text verdict. Request bodies refuse a number that is no whole number as
    /// written but reads as one; whole numbers written any way still parse.
    @Test func refusesFractionsThatReadAsWholeNumbers() throws {
        for text in ["699.99999999999999999", "6.9999999999999999999e2", "1e-400", "-1e-400", "1.0000000000000000001"] {
            do {
                _ = try JSONParser.parse("{\"w\": \(text)}", refusingInexactWholeNumbers: true)
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.isInexactWholeNumber && error.pointer == "/w" && error.reason.hasPrefix("number \(text) is not a whole number"), "\(text): \(error)")
            }
        }
        for (text, value) in [("700.0", 700.0), ("7e2", 700), ("0.5e3", 500), ("70000e-2", 700), ("-0.0", 0), ("0.1", 0.1), ("699.9999999999999", 699.9999999999999), ("123456789012345678", 123456789012345678)] {
            #expect(try JSONParser.parse("[\(text)]", refusingInexactWholeNumbers: true) == .array([.number(value)]), "\(text)")
        }
        // Without the option (token files), as before.
        #expect(try JSONParser.parse("[699.99999999999999999]") == .array([.number(700)]))
    }

    /// Duplicate keys are found both by the scan of small objects and by the set large ones
    /// switch to (the set replaced a scan per member that made 90k members take 21 s).
    @Test func duplicateKeysFoundInLargeObjects() throws {
        func object(_ keys: [String]) -> String { "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ",") + "}" }
        let many = (0..<50_000).map { "k\($0)" }
        guard case .object(let parsed) = try JSONParser.parse(object(many)) else { Issue.record("not an object"); return }
        #expect(parsed.count == 50_000)
        #expect(parsed.keys.last == "k49999")
        for (duplicate, position) in [("k0", 1), ("k0", 15), ("k0", 16), ("k3", 17), ("k15", 40), ("k16", 40), ("k49999", 50_000)] {
            var keys = many
            keys.insert(duplicate, at: position)
            do {
                _ = try JSONParser.parse(object(keys))
                Issue.record("duplicate \(duplicate) at \(position) accepted")
            } catch {
                #expect(error.reason == "duplicate key \"\(duplicate)\" in object", "\(duplicate) at \(position)")
            }
        }
    }

    @Test func decodesEscapes() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
    }

    @Test func serializesCompactlyAndRoundTrips() throws {
        let v: JSON = .object([("z", 21.0), ("ratio", .number(4.542224959605)), ("tiny", .number(1e-7)),
                               ("neg0", .number(-0.0)), ("s", "é\"\n\u{1}"), ("a", [true, nil, 3])])
        #expect(v.serializedString == #"{"z":21,"ratio":4.542224959605,"tiny":1e-07,"neg0":0,"s":"é\"\n\u0001","a":[true,null,3]}"#)
        #expect(try JSONParser.parse(v.serialized()) == v)
        #expect(JSON.number(.nan).serializedString == "null")
    }

    @Test func numbersRoundTripExactly() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let d = Double.random(in: -1e6...1e6, using: &rng)
            #expect(try parse(JSON.number(d).serializedString) == .number(d))
            #expect(d == d.rounded() || JSON.number(d).serializedString == d.description)
        }
    }

    @Test func escapesStringsAsRFC8259AndFoundationDecodeThem() throws {
        let samples = ["", "plain", "\u{1F}\u{10}\r\u{8}\u{C}", "\\\\\"", "ünïcödé 漢字 😀", "a\u{0}b", "end\\", "\"start",
                       String(repeating: "long run without escapes ", count: 20) + "\n"]
        for sample in samples {
            let quoted = JSON.quoted(sample)
            let decoded = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed) as? String
            #expect(decoded == sample, "\(quoted)")
            #expect(try JSONParser.parse(Array(quoted.utf8)) == .string(sample))
        }
        #expect(JSON.quoted("\u{8}\u{C}\u{7}\u{1F}") == #""\b\f\u0007\u001f""#)
    }

    /// Characters a reader of the raw answer would not see are escaped, losslessly: a bidi
    /// override in a client's token name had reordered the rest of a line of a JSON or SARIF
    /// report where a terminal, a log viewer or a diff shows it (a hostile pass; CVE-2021-42574).
    @Test func escapesHiddenCharactersLosslessly() throws {
        let cases: [(String, String)] = [
            ("x\u{202E}y", #""x\u202ey""#),                    // right-to-left override
            ("\u{2066}a\u{2069}", #""\u2066a\u2069""#),          // isolates
            ("a\u{200B}b\u{200D}c\u{FEFF}", #""a\u200bb\u200dc\ufeff""#),  // zero-width space, joiner, BOM
            ("\u{7F}\u{85}\u{9F}", #""\u007f\u0085\u009f""#),     // DEL, C1 controls
            ("\u{2028}\u{2029}", #""\u2028\u2029""#),            // line and paragraph separators
            ("\u{061C}\u{00AD}", #""\u061c\u00ad""#),            // Arabic letter mark, soft hyphen (Cf)
            ("tag\u{E0041}", #""tag\udb40\udc41""#),             // a tag character: a surrogate pair
            ("ünïcödé 漢字 😀 ½", "\"ünïcödé 漢字 😀 ½\""),         // visible text stays UTF-8
        ]
        for (text, expected) in cases {
            #expect(JSON.quoted(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(try JSONParser.parse(Array(JSON.quoted(text).utf8)) == .string(text))
            let decoded = try JSONSerialization.jsonObject(with: Data(JSON.quoted(text).utf8), options: .fragmentsAllowed) as? String
            #expect(decoded == text)
            // The byte writer (the answers' path) writes the same bytes.
            var writer = JSONByteWriter()
            writer.string(text)
            #expect(writer.bytes == Array(expected.utf8))
        }
        // Random mixes of visible and hidden scalars: read back the same, no hidden one raw.
        var rng = SystemRandomNumberGenerator()
        let pool: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\u{7F}", "\u{85}", "é", "漢", "\u{200E}", "\u{202D}", "\u{2069}",
                                      "\u{FEFF}", "😀", "\u{E0001}", "\u{1D173}", "\u{110BD}", "\u{2028}", "\u{0}"]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &rng) { text.unicodeScalars.append(pool.randomElement(using: &rng)!) }
            let quoted = JSON.quoted(text)
            #expect(try JSONParser.parse(Array(quoted.utf8)) == .string(text))
            #expect(!quoted.unicodeScalars.contains(where: JSON.isHidden), "\(quoted)")
        }
    }

    @Test func integersPrintWithoutFraction() {
        let cases: [(Double, String)] = [(0, "0"), (-0.0, "0"), (7, "7"), (-42, "-42"), (1e15, "1000000000000000"),
                                         (9_007_199_254_740_991, "9007199254740991"), (-9_007_199_254_740_991, "-9007199254740991"),
                                         (9_007_199_254_740_992, "9007199254740992.0"), (0.5, "0.5"),
                                         (1e-7, "1e-07"), (-0.1, "-0.1"), (4.478089453577214, "4.478089453577214"),
                                         (1.7976931348623157e308, "1.7976931348623157e+308"), (5e-324, "5e-324")]
        for (value, text) in cases {
            #expect(JSON.number(value).serializedString == text, "\(value)")
        }
    }
}

/// The byte writer writes what serializing the built tree writes, for the same events.
struct JSONSinkTests {
    func events<S: JSONSink>(into s: inout S) {
        s.object { s in
            s.member("n", 4.478089453577214)
            s.member("i", 21)
            s.member("neg0", -0.0)
            s.member("nan", Double.nan)
            s.member("optional", Double?.none)
            s.member("s", "é\"\n\u{1}")
            s.member("t", true)
            s.key("empty")
            s.object { _ in }
            s.key("list")
            s.array { a in
                a.number(1)
                a.null()
                a.array { _ in }
                a.object { o in o.member("k", "v") }
                a.string("x")
            }
            let dynamicKey = "dynamic \"key\""  // a String: literal keys must need no escaping
            s.key(dynamicKey)
            s.numbers([0.5, 1e-7])
            s.member("tree", JSON.object([("a", [1, "b"]), ("c", .null)]))
        }
    }

    @Test func byteWriterMatchesTheSerializedTree() throws {
        var tree = JSONTreeBuilder()
        events(into: &tree)
        var writer = JSONByteWriter(capacity: 16)
        events(into: &writer)
        #expect(writer.bytes == tree.value.serialized(), "\(String(decoding: writer.bytes, as: UTF8.self))")
        // (NaN is written as null by both, so the bytes, not a re-parse, are the comparison.)
        #expect(try JSONParser.parse(writer.bytes)["list"] == tree.value["list"])
        #expect(tree.value["list"]?.typeName == "array" && tree.value["empty"] == .object(JSONObject()))
        var top = JSONByteWriter()
        top.array { a in a.number(1); a.number(2) }
        #expect(String(decoding: top.bytes, as: UTF8.self) == "[1,2]")
    }

    /// Numbers with one or two decimals are written without Swift's general shortest-digits
    /// algorithm; the text must be exactly `description`'s, for both writers.
    @Test func shortDecimalsPrintAsDescriptionDoes() {
        var values: [Double] = []
        for k in -20_000...20_000 { values.append(Double(k) / 10); values.append(Double(k) / 100) }
        for k in stride(from: 1_000_000_000_000, to: 1_000_000_000_000_000, by: 77_777_777_777_777) {
            values.append(Double(k) / 10); values.append(Double(k) / 100); values.append(-Double(k) / 100)
        }
        values += [0.1 + 0.2, 4.35, 1.005, 0.015, 99.995, 1e13 + 0.5, 1e14 + 0.25, 0.05, -0.05, 0.01, 18.666666666666668,
                   Double.ulpOfOne, 123456789.12, 5e-324, 4.5 * (1 + Double.ulpOfOne),
                   // Around and above 2^53, where every double is an integer and tenths are too.
                   9.3e15, 1e16, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e15 + 0.5, 4.5e15 + 0.5,
                   1e13 - 0.05, 1e13 + 0.5, 1e14 + 0.5, 99_999_999_999_999.9, 1e17 / 3]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let scaled = Double(Int.random(in: -10_000_000...10_000_000, using: &rng))
            values.append(scaled / 100)
            values.append(Double.random(in: -1000...1000, using: &rng))
            values.append((Double.random(in: 1e11...1e17, using: &rng) * 10).rounded() / 10)
        }
        for d in values {
            var tree: [UInt8] = []
            JSON.writeNumber(d, into: &tree)
            var writer = JSONByteWriter(capacity: 8)
            writer.number(d)
            let expected = d == d.rounded() && abs(d) < 9_007_199_254_740_992 ? String(Int64(d)) : d.description
            #expect(String(decoding: tree, as: UTF8.self) == expected, "\(d)")
            #expect(writer.bytes == tree, "\(d)")
        }
    }

    /// Integers of up to 15 digits are read without strtod; every form must equal what strtod
    /// (Swift's `Double(String)`) reads, sign of zero included.
    @Test func integerFastPathEqualsStrtod() throws {
        let texts = ["0", "-0", "7", "-7", "10", "999999999999999", "-999999999999999", "123456789012345",
                     "1234567890123456", "9007199254740993", "-9007199254740993", "12345678901234567890123",
                     "7e2", "7E-2", "7.5", "-0.0", "0e5", "100000000000000000000"]
        for text in texts {
            let parsed = try JSONParser.parse(Array("[\(text)]".utf8))
            guard case .array(let items) = parsed, case .number(let value)? = items.first else {
                Issue.record("\(text) did not parse to a number"); continue
            }
            let expected = Double(text)!
            #expect(value == expected && value.sign == expected.sign, "\(text): \(value) vs \(expected)")
        }
    }

    /// The pointer-written buffer: growth from a tiny capacity past every doubling, escapes that
    /// straddle a growth, integers of every length and sign, and shortest round-trip doubles,
    /// all byte-equal to the tree's serialization.
    @Test func byteWriterGrowsAndEscapesLikeTheTree() throws {
        let numbers: [Double] = [0, -0.0, 7, -7, 10, 99, 100, -1234567, 9_007_199_254_740_991, -9_007_199_254_740_991,
                                 9_007_199_254_740_992, 0.1, -2.5e-8, 1e300, 18.666666666666668, .nan, .infinity]
        let strings = ["", "plain", "quote \" and \\ back", "ctl \u{0} \u{1F} \n\r\t\u{8}\u{C}", "é 🎨 ü",
                       String(repeating: "x", count: 300) + "\"" + String(repeating: "y", count: 300)]
        var writer = JSONByteWriter(capacity: 1)
        var tree = JSONTreeBuilder()
        func events<S: JSONSink>(_ s: inout S) {
            s.array { a in
                for n in numbers { a.number(n) }
                for text in strings { a.string(text); a.object { o in o.key(text); o.null() } }
                for _ in 0..<50 { a.object { o in o.member("k", true); o.member("n", 12345) } }
            }
        }
        events(&writer)
        events(&tree)
        #expect(writer.bytes == tree.value.serialized())
        #expect(writer.count == writer.bytes.count)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.hasPrefix("[0,0,7,-7,10,99,100,-1234567,9007199254740991,-9007199254740991,9007199254740992.0,0.1,-2.5e-08,1e+300,18.666666666666668,null,null,"))
        #expect(text.contains(#""ctl \u0000 \u001f \n\r\t\b\f""#))
    }
}
