@testable import ContrastAPI
import AppleDesign
import ColorScience
import HTTPServer
import JSONValue
import TestSupport
import Testing

/// `/v1/contrast` writes its answer as bytes (no JSON tree, for speed); the same code writing into
/// a tree must give the same bytes when serialized, for every shape the answer takes.
struct ContrastAnswerWriterTests {
    static let bodies = [
        ##"{"foreground": "#777777", "background": "#ffffff"}"##,
        ##"{"foreground": "#777777", "background": "#ffffff", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700}"##,
        ##"{"foreground": "rgba(0,0,0,0.6)", "background": "rgba(255,255,255,0.5)"}"##,
        ##"{"foreground": "#000", "background": "#fff", "layers": ["rgba(0,0,0,0.1)", {"color": "#00f", "opacity": 0.5}]}"##,
        ##"{"foreground": "secondaryLabel", "background": "systemBackground", "appearance": "dark", "textStyle": "footnote"}"##,
        ##"{"foreground": "color(display-p3 1 0 0)", "background": "#000", "algorithm": "apca", "textShadow": "0 0 0 red"}"##,
        ##"{"foreground": "#777", "background": "white", "backdrop": "black", "fontSize": 9, "fontSizeUnit": "px", "fontWeight": 100}"##,
    ]

    @Test(arguments: bodies)
    func bytesEqualTheSerializedTree(body: String) throws {
        let request = HTTPRequest(method: "POST", path: "/v1/contrast", headers: ["content-type": "application/json"], body: Array(body.utf8))
        let f = try Fields.from(request)
        let apple = try AppleContrastOptions(f)
        let bytes = try apple.run { () throws(Problem) -> [UInt8] in
            var writer = JSONByteWriter()
            try ContrastEndpoint.answer(f, apple, into: &writer)
            return writer.bytes
        }
        let tree = try apple.run { () throws(Problem) -> JSON in
            var builder = JSONTreeBuilder()
            try ContrastEndpoint.answer(f, apple, into: &builder)
            return builder.value
        }
        #expect(bytes == tree.serialized(), "\(String(decoding: bytes, as: UTF8.self))")
        #expect(try JSONParser.parse(bytes) == tree)
        // And the service answers exactly these bytes.
        #expect(ContrastService(configuration: testConfiguration()).router.handle(request).body == bytes)
    }
}

/// The APCA font table's member names are literals: they must name the table's weights in order.
@Test func apcaWeightKeysNameTheWeights() {
    #expect(APCAJSON.weightKeys.map { $0.description } == ColorScience.APCAFontLookup.weights.map { String($0) })
}
