import ColorScience
import HTTPServer
import JSONValue

/// `GET /api/webaim?fcolor=RRGGBB&bcolor=RRGGBB`: the WebAIM contrast checker API's answer shape,
/// so scripts written for it can point here unchanged.
///
/// Response: `{"ratio": "4.47", "AA": "fail", "AALarge": "pass", "AAA": "fail", "AAALarge": "fail"}`.
/// `ratio` is a string floored to two decimals (a shown value never passes when the real one
/// fails); verdicts use the unrounded ratio. Colors are 3- or 6-digit hex with or without `#`.
struct WebAIMEndpoint {
    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(["fcolor", "bcolor", "api"])
        let fg = try hexColor(f, "fcolor")
        let bg = try hexColor(f, "bcolor")
        let ratio = WCAG.contrastRatio(WCAG.relativeLuminance(fg), WCAG.relativeLuminance(bg))
        func verdict(_ ok: Bool) -> JSON { .string(ok ? "pass" : "fail") }
        return .object([
            ("ratio", .string(WCAG.ratioText(ratio))),
            ("AA", verdict(ratio >= WCAG.aaNormalText)),
            ("AALarge", verdict(ratio >= WCAG.aaLargeText)),
            ("AAA", verdict(ratio >= WCAG.aaaNormalText)),
            ("AAALarge", verdict(ratio >= WCAG.aaaLargeText)),
        ])
    }

    static func hexColor(_ f: Fields, _ key: String) throws(Problem) -> SIMD3<Double> {
        let raw = try f.string(key, required: true, maxLength: 16)!
        let digits = raw.hasPrefix("#") ? String(raw.dropFirst()) : raw
        guard digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit) else {
            throw Problem.invalidColor(f.field(key), "\(f.field(key).display) must be a 3- or 6-digit hex color such as 0000FF, got \(ClientText.quoted(raw))")
        }
        let c = try resolveColor("#" + digits, at: f.field(key))
        return c.display.srgb
    }
}
