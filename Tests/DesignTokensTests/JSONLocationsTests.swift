import JSONValue
import Testing
@testable import DesignTokens

/// The key-position scanner and the JSON document wrapper: positions by path, escapes, columns in
/// Unicode scalars, array elements, and parse errors mapped to line and column.
@Suite struct JSONLocationsTests {
    @Test("keys of nested objects are found at their opening quote")
    func nestedKeys() throws {
        let text = """
        {
          "color": {
            "text": { "default": { "$value": "#000" } },
            "bg":   {"$value": "#fff"}
          }
        }
        """
        let l = JSONLocations(text)
        #expect(l.position(["color"])! == (2, 3))
        #expect(l.position(["color", "text"])! == (3, 5))
        #expect(l.position(["color", "text", "default"])! == (3, 15))
        #expect(l.position(["color", "text", "default", "$value"])! == (3, 28))
        #expect(l.position(["color", "bg"])! == (4, 5))
        #expect(l.position(["color", "bg", "$value"])! == (4, 14))
        #expect(l.position(["color", "missing"]) == nil)
        #expect(l.position(["color", "text", "default", "$value", "deeper"]) == nil)
    }

    @Test("a key with escapes is found by its decoded text; columns count Unicode scalars, not bytes")
    func escapesAndScalars() throws {
        // "é" is 2 UTF-8 bytes, "🎨" 4: one column each.
        let text = "{\"é🎨\": 1, \"a\\\"b\\u00e9\\ud83c\\udfa8\": {\"x\\ny\": 2}, \"after\": 3}"
        let parsed = try JSONParser.parse(text)
        guard case .object(let o) = parsed else { Issue.record("not an object"); return }
        #expect(o.keys == ["é🎨", "a\"bé🎨", "after"])
        let l = JSONLocations(text)
        #expect(l.position(["é🎨"])! == (1, 2))
        #expect(l.position(["a\"bé🎨"])! == (1, 11))
        #expect(l.position(["a\"bé🎨", "x\ny"])! == (1, 38))
        // After the escapes, columns still count what is written (scalar 50).
        #expect(l.position(["after"])! == (1, 50))
    }

    @Test("array elements that are containers are found by index; scalars in arrays are not recorded")
    func arrays() {
        let text = """
        {"entities": [
          {"id": "a"},
          1,
          [2, 3],
          {"id": "b"}
        ]}
        """
        let l = JSONLocations(text)
        #expect(l.position(["entities", "0"])! == (2, 3))
        #expect(l.position(["entities", "0", "id"])! == (2, 4))
        #expect(l.position(["entities", "1"]) == nil)
        #expect(l.position(["entities", "2"])! == (4, 3))
        #expect(l.position(["entities", "3", "id"])! == (5, 4))
    }

    @Test("strings holding braces, brackets, commas and colons do not confuse the scan")
    func punctuationInStrings() {
        let text = ##"{"a": "{x}, [y]: \"z\"", "b": {"c": "}]"}, "d": 1}"##
        let l = JSONLocations(text)
        #expect(l.position(["b", "c"])! == (1, 32))
        #expect(l.position(["d"])! == (1, 44))
    }

    @Test("CRLF line ends count one line; the document root is at 1:1")
    func crlf() {
        let l = JSONLocations("{\r\n  \"a\": {\r\n    \"b\": 1\r\n  }\r\n}")
        #expect(l.position(["a", "b"])! == (3, 5))
        #expect(l.position([])! == (1, 1))
    }

    @Test("a byte offset maps to line and column (what JSONParseError reports)")
    func byteOffsets() {
        let bytes = Array("{\n  \"é\": [1,\n  x]\n}".utf8)
        // The `x` is at byte 16 (é is two bytes): line 3, column 3.
        #expect(bytes[16] == UInt8(ascii: "x"))
        #expect(JSONLocations.lineColumn(ofByte: 16, in: bytes) == (3, 3))
        #expect(JSONLocations.lineColumn(ofByte: 0, in: bytes) == (1, 1))
        #expect(JSONLocations.lineColumn(ofByte: 999, in: bytes) == (4, 2))
    }

    @Test("malformed JSON is a TokenError naming the file, the line and column, and the JSON pointer")
    func malformed() {
        let file = TokenFile(name: "brand.tokens.json", content: "{\n  \"color\": {\n    \"bg\": {\"$value\": \"#fff\",}\n  }\n}")
        do {
            _ = try JSONTokenDocument.parse(file)
            Issue.record("a trailing comma was accepted")
        } catch {
            #expect(error.file == "brand.tokens.json")
            #expect(error.location == TokenLocation(file: "brand.tokens.json", line: 3, column: 29))
            #expect(error.reason.contains("not valid JSON"))
            #expect(error.reason.contains("/color/bg"))
            #expect(error.message.hasPrefix("brand.tokens.json line 3, column 29: not valid JSON"))
        }
    }

    @Test("a UTF-8 byte-order mark is skipped and columns are counted after it")
    func byteOrderMark() throws {
        let document = try JSONTokenDocument.parse(TokenFile(name: "t.json", content: "\u{FEFF}{\"a\": {\"$value\": \"#fff\"}}"))
        #expect(document.location(["a"]) == TokenLocation(file: "t.json", line: 1, column: 2))
    }

    @Test("nesting: 64 levels parse, 65 are a TokenError at the line where the limit is passed")
    func depthLimit() throws {
        func nested(_ levels: Int) -> String {
            // `levels` objects: groups g0…, the innermost holding a token.
            var text = ""
            for i in 0..<(levels - 2) { text += "{\"g\(i)\":\n" }
            text += "{\"t\": {\"$value\": \"#fff\"}}"
            text += String(repeating: "}", count: levels - 2)
            return text
        }
        let ok = try JSONTokenDocument.parse(TokenFile(name: "deep.json", content: nested(64)))
        #expect(ok.root["g0"] != nil)
        do {
            _ = try JSONTokenDocument.parse(TokenFile(name: "deep.json", content: nested(65)))
            Issue.record("65 levels were accepted")
        } catch {
            #expect(error.file == "deep.json")
            #expect(error.reason.contains("nesting deeper than 64 levels"))
            // Level 65 is the `{` of the token, on the 64th line.
            #expect(error.location?.line == 64)
        }
    }

    @Test("the scan is linear: a 1.9 MB file of 40,000 groups is scanned and every key found")
    func largeFile() {
        var text = "{"
        for i in 0..<40_000 { text += (i == 0 ? "" : ",") + "\n  \"group\(i)\": {\"token\": {\"$value\": \"#000000\"}}" }
        text += "\n}"
        #expect(text.utf8.count > 1_900_000)
        let l = JSONLocations(text)
        #expect(l.position(["group0", "token"])! == (2, 14))
        #expect(l.position(["group39999", "token", "$value"])! == (40_001, 28))
    }
}
