import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/difference` and `GET /v1/difference?a=…&b=…`: color difference of two colors.
///
/// Response: `deltaE76` and `deltaE2000` (CIE Lab, D65 white by default as ColorAide computes
/// them, or `lab: "d50"`), `deltaEOK` (Euclidean in OKLab, `0...~1`), and both colors described.
/// Alpha is left out (the difference of the colors themselves); when either color is translucent
/// the answer adds `alphaDifference` and a note saying so. Sources: CIE 1976; Sharma, Wu and
/// Dalal 2005 (CIEDE2000); Ottosson 2020 (OKLab).
struct DifferenceEndpoint {
    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(["a", "b", "lab", "hexOrder"])
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        let a = try f.color("a", required: true, hexOrder: hexOrder)!
        let b = try f.color("b", required: true, hexOrder: hexOrder)!
        let white = try f.choice("lab", ColorDifference.LabWhite.self) ?? .d65
        var o = JSONObject([
            ("a", ColorJSON.describe(a)),
            ("b", ColorJSON.describe(b)),
            ("deltaE76", .number(ColorDifference.deltaE76(a.color, b.color, lab: white))),
            ("deltaE2000", .number(ColorDifference.deltaE2000(a.color, b.color, lab: white))),
            ("deltaEOK", .number(ColorDifference.deltaEOK(a.color, b.color))),
            ("labWhite", .string(white.rawValue)),
        ])
        if a.color.alpha < 1 || b.color.alpha < 1 {
            // ΔE is defined for opaque colors: say that alpha was left out, and by how much they differ.
            o.append("alphaDifference", .number(abs(a.color.alpha - b.color.alpha)))
            o.append("notes", .array([.string("ΔE compares the colors without their alpha (alpha \(Fields.format(a.color.alpha)) and \(Fields.format(b.color.alpha))); to compare what a screen shows, composite each over its background first (POST /v1/contrast gives effectiveForeground)")]))
        }
        return .object(o)
    }
}
