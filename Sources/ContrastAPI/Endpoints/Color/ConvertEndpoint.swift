import Foundation
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/convert` and `GET /v1/convert?color=…&to=oklch,lab`: one color into other spaces.
///
/// Request: `color`; `to`: a space or list of spaces (default: all) among `srgb`, `srgb-linear`,
/// `display-p3`, `rec2020`, `xyz-d65`, `xyz-d50`, `lab` (D50), `lch`, `oklab`, `oklch`, `hsl`,
/// `hwb`, `hex` (GET: comma-separated); `gamut`: `srgb`, `display-p3` or `rec2020` to gamut-map first;
/// `gamutMethod`: `css4` (default, CSS Color 4 §13.2) or `clip`.
///
/// Response: `input`, `space` (as parsed), `alpha`, `systemColor` (an Apple system color name:
/// which one, in which context), `inGamut` (`srgb`, `display-p3`, `rec2020`),
/// `gamutMapping` when asked (destination, method, `applied`), and `conversions`: per space
/// `{"coordinates": [c0, c1, c2], "css": "…"}` where an achromatic hue is `null` / `none`, hues
/// lie in [0, 360); `hex` is the sRGB value (CSS Color 4 gamut-mapped when outside sRGB, said by
/// `hexGamutMapped`); `notes` when the input was read in a way worth saying (a hex without `#`,
/// `var()` substituted, the `light-dark()` branch taken).
struct ConvertEndpoint {
    enum Target: String, CaseIterable {
        case srgb, srgbLinear = "srgb-linear", displayP3 = "display-p3", rec2020, xyzD65 = "xyz-d65",
             xyzD50 = "xyz-d50", lab, lch, oklab, oklch, hsl, hwb, hex

        var space: ColorSpace? { ColorSpace(rawValue: rawValue) }
    }

    enum Gamut: String, CaseIterable {
        case srgb, displayP3 = "display-p3", rec2020

        var space: ColorSpace {
            switch self {
            case .srgb: .srgb
            case .displayP3: .displayP3
            case .rec2020: .rec2020
            }
        }
    }

    static func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.from(request)
        try f.rejectUnknown(["color", "to", "gamut", "gamutMethod", "hexOrder"])
        let hexOrder = try f.choice("hexOrder", HexOrder.self) ?? .rgba
        let input = try f.color("color", required: true, hexOrder: hexOrder)!
        let targets = try parseTargets(f)
        // A method given as the gamut (`gamut=css4`, a new user's mix-up) is pointed at the
        // member that takes it.
        if let given = try f.string("gamut"), Gamut(rawValue: given.lowercased()) == nil,
           let asMethod = GamutMapping.Method.allCases.first(where: { $0.rawValue == given.lowercased() }) {
            throw Problem.invalidField(f.field("gamut"), "\(f.field("gamut").display) must be one of \(Gamut.allCases.map(\.rawValue).joined(separator: ", ")), got \(ClientText.quoted(given)): '\(asMethod.rawValue)' is a method, given as \(f.field("gamutMethod").display) beside the gamut it maps into (gamut srgb, gamutMethod \(asMethod.rawValue))")
        }
        let gamut = try f.choice("gamut", Gamut.self)
        let method = try f.choice("gamutMethod", GamutMapping.Method.self)
        if method != nil && gamut == nil {
            throw Problem.invalidField(f.field("gamutMethod"), "\(f.field("gamutMethod").display) needs \(f.field("gamut").display) (srgb, display-p3 or rec2020)")
        }

        var out = JSONObject()
        out.append("input", .string(input.input))
        out.append("space", .string(input.color.space.rawValue))
        out.append("alpha", .number(input.color.alpha))
        // An Apple system color name resolves in the default context (light, base, standard,
        // newest generation: this route takes no context); the answer names it (a hostile pass:
        // systemBlue was converted with no word of which systemBlue).
        if let system = input.systemColor { out.append("systemColor", AppleJSON.systemColor(system)) }
        out.append("inGamut", .object([
            ("srgb", .bool(input.color.isInGamut(.srgb))),
            ("display-p3", .bool(input.color.isInGamut(.displayP3))),
            ("rec2020", .bool(input.color.isInGamut(.rec2020))),
        ]))
        var color = input.color
        if let gamut {
            let destination = gamut.space
            let m = method ?? .css4
            let applied = !input.color.isInGamut(destination)
            color = GamutMapping.map(input.color, to: destination, method: m)
            out.append("gamutMapping", .object([
                ("destination", .string(destination.rawValue)),
                ("method", .string(m.rawValue)),
                ("applied", .bool(applied)),
            ]))
        }
        var conversions = JSONObject()
        for t in targets {
            if let space = t.space {
                // Into its own space a color comes back as given: its achromatic hue is marked
                // missing here too, as for every other space (hostile test: lch(50 0 120) kept 120).
                var converted = color.converted(to: space).withAchromaticHueMissing
                // XYZ also stores a98-rgb, prophoto-rgb and display-p3-linear colors, with their
                // channels' `none` flags (for interpolation); as XYZ numbers they are the
                // conversion of a 0, not a missing X, Y or Z.
                if space == .xyzD65 || space == .xyzD50 { for k in 0..<3 { converted.isNone[k] = false } }
                conversions.append(t.rawValue, coordinates(converted))
            } else {
                // The input's own sRGB mapping, not that of a color `gamut` has mapped already
                // (a hostile pass: mapped twice, `oklch(0.7 0.4 150)` in display-p3 gave #00c537
                // where its one mapping, ColorAide's too, is #00c248).
                // With `gamut` srgb the mapped color is the hex's, by the method asked for.
                let source = gamut?.space == .srgb ? color : input.color
                let inSRGB = source.isInGamut(.srgb)
                let srgb = inSRGB ? source.converted(to: .srgb) : GamutMapping.map(source, to: .srgb, method: .css4)
                conversions.append("hex", .string(srgb.hex))
                if !inSRGB { out.append("hexGamutMapped", .bool(true)) }
            }
        }
        out.append("conversions", .object(conversions))
        // How the input was read (a hex without '#', var(), light-dark()), as /v1/contrast says
        // it per color (hostile pass: this answer had dropped it).
        var notes = input.notes
        // hsl() and hwb() of a color outside sRGB hold a saturation over 100% or a negative
        // whiteness or blackness, which Chromium 156 clamps as it parses them (a front-end pass:
        // `hsl(151.9624 225.9924% 32.7615%)` for oklch(0.9 0.3 150) pasted paints #00a759, the
        // color #00ff60).
        let polar = targets.compactMap(\.space).filter { $0 == .hsl || $0 == .hwb }
        if !polar.isEmpty, !color.isInGamut(.srgb) {
            notes.append("this color lies outside sRGB, so its \(polar.map { "\($0.rawValue)()" }.joined(separator: " and ")) hold\(polar.count == 1 ? "s" : "") values past their ranges (a saturation over 100%, a negative whiteness or blackness), which Chromium 156 clamps when it parses them: pasted into CSS \(polar.count == 1 ? "it paints" : "they paint") another color; the color() or oklch() form keeps this one")
        }
        if !notes.isEmpty { out.append("notes", .array(notes.map { .string($0) })) }
        return .object(out)
    }

    /// Most spaces `to` may list.
    static let maxTargets = 32

    /// `to`, read by the one path GET and POST share (`Fields.names`): the same limit, the same
    /// refusal of empty entries and unknown names; repeated spaces are kept once.
    static func parseTargets(_ f: Fields) throws(Problem) -> [Target] {
        let known = Target.allCases.map(\.rawValue)
        guard let listed = try f.names("to", what: "color space", maxCount: maxTargets, known: known, resolve: { name in
            let key = name.lowercased()
            return Target(rawValue: key == "xyz" ? "xyz-d65" : key)
        }) else { return Target.allCases }
        var targets: [Target] = []
        for t in listed where !targets.contains(t) { targets.append(t) }
        return targets
    }

    /// `{"coordinates": [...], "css": "..."}` with a missing (achromatic) hue as null.
    static func coordinates(_ c: Color) -> JSON {
        var coords: [JSON] = []
        for i in 0..<3 {
            if let hue = c.space.hueIndex, hue == i, c.isNone[i] { coords.append(.null) } else { coords.append(.number(c.coordinates[i])) }
        }
        return .object([("coordinates", .array(coords)), ("css", .string(c.cssString))])
    }
}
