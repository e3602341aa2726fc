import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/difference` and `GET /v1/difference?a=…&b=…`: color difference of two colors.
///
/// Response: `deltaE76` and `deltaE2000` (CIE Lab, D65 white by default as ColorAide computes
/// them, or `lab: "d50"`), `deltaEOK` (Euclidean in OKLab, `0...~1`), and both colors described.
/// Alpha is ignored (the difference of the colors themselves). Sources: CIE 1976; Sharma, Wu and
/// Dalal 2005 (CIEDE2000); Ottosson 2020 (OKLab).
struct DifferenceEndpoint {
    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(["a", "b", "lab", "hexOrder"])
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        let a = try f.color("a", required: true, hexOrder: hexOrder)!
        let b = try f.color("b", required: true, hexOrder: hexOrder)!
        let white = try f.choice("lab", ColorDifference.LabWhite.self) ?? .d65
        return .object([
            ("a", ColorJSON.describe(a)),
            ("b", ColorJSON.describe(b)),
            ("deltaE76", .number(ColorDifference.deltaE76(a.color, b.color, lab: white))),
            ("deltaE2000", .number(ColorDifference.deltaE2000(a.color, b.color, lab: white))),
            ("deltaEOK", .number(ColorDifference.deltaEOK(a.color, b.color))),
            ("labWhite", .string(white.rawValue)),
        ])
    }
}
