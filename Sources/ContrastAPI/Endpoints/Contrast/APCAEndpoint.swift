import ColorScience
import HTTPServer
import JSONValue

/// `GET /v1/apca/font?lc=…[&fontSize=…&fontSizeUnit=px&fontWeight=…]`: APCA readability.
///
/// For an Lc (`-108...108`; polarity is ignored), the minimum font size in px for weights
/// 100…900 from apca-w3 0.1.9 `fontLookupAPCA` (`null` where the weight is not usable for text),
/// the APCA use level it reaches, and with a size and weight whether they suffice (a bare size,
/// pt by default, is a 400 naming `fontSizeUnit` where pt and px would answer differently). APCA is
/// informational: it is not part of WCAG 2 (its levels are from the WCAG 3 working draft).
struct APCAEndpoint {
    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(["lc", "fontSize", "fontSizeUnit", "fontWeight"])
        let lc = try f.number("lc", in: -108...108, required: true)!
        let text = try TextSpec.from(f)
        // A bare size whose sufficiency differs as pt and as px (APCA's tables are in px) is a
        // 400 asking for the unit, as /v1/contrast asks where WCAG's verdict differs.
        if let text { try APCAJSON.requireUnitWhereItMatters(lc: lc, text: text, unitPath: f.field("fontSizeUnit")) }
        var o = JSONObject()
        o.append("lc", .number(lc))
        o.append("version", .string(APCA.version))
        o.append("informational", .bool(true))
        o.append("level", APCAJSON.levelJSON(lc))
        o.append("minimumFontSizePx", APCAJSON.fontTable(lc))
        if let text { o.append("text", APCAJSON.sufficiency(lc: lc, text: text)) }
        o.append("levels", .array(APCALevel.allCases.map { level in
            .object([("name", .string(APCAJSON.name(level))), ("minimumLc", .number(level.minimumLc)), ("use", .string(APCAJSON.use(level)))])
        }))
        o.append("source", .string(APCAFontLookup.source))
        return .object(o)
    }
}
