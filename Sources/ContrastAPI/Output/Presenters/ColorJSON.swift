import ColorScience
import JSONValue

/// JSON encodings of colors shared by the endpoints.
enum ColorJSON {
    /// `#rrggbb` (or `#rrggbbaa` when translucent) of displayable sRGB `0...1`, round half up.
    static func hex(_ srgb: SIMD3<Double>, alpha: Double = 1) -> String {
        Color.srgb(srgb.x, srgb.y, srgb.z, alpha: alpha).hex
    }

    /// `[r, g, b, alpha]` with r, g, b on the 0–255 scale, unrounded, alpha `0...1`.
    static func rgba(_ srgb: SIMD3<Double>, alpha: Double = 1) -> JSON {
        .numbers([srgb.x * 255, srgb.y * 255, srgb.z * 255, alpha])
    }

    /// `rgba(_:alpha:)` into a sink.
    static func rgba<S: JSONSink>(_ srgb: SIMD3<Double>, alpha: Double = 1, into s: inout S) {
        s.beginArray()
        s.number(srgb.x * 255)
        s.number(srgb.y * 255)
        s.number(srgb.z * 255)
        s.number(alpha)
        s.endArray()
    }

    /// The description of a request color: input, hex, rgba, relative luminance, APCA screen
    /// luminance, gamut mapping.
    static func describe(_ c: ResolvedColor) -> JSON {
        JSON.build { describe(c, into: &$0) }
    }

    /// `{"input", "hex", "rgba", "relativeLuminance", "apcaY", "space", "gamutMapped", "systemColor"?}`.
    /// Both luminances ignore alpha (see `apcaY(_:)`). `luminances` are the color's relative
    /// luminance and Ys when the caller measured them already (`ContrastMeasurement` of the opaque
    /// color: the same functions of the same channels, so the same bits), else they are computed.
    static func describe<S: JSONSink>(_ c: ResolvedColor, luminances: (relative: Double, apcaY: Double)? = nil, into s: inout S) {
        s.object { s in describeMembers(c, luminances: luminances, into: &s) }
    }

    /// The members of `describe` inside an object the caller opened (to add its own first).
    static func describeMembers<S: JSONSink>(_ c: ResolvedColor, luminances: (relative: Double, apcaY: Double)? = nil, into s: inout S) {
        s.member("input", c.input)
        s.member("hex", hex(c.display.srgb, alpha: c.display.alpha))
        s.key("rgba")
        rgba(c.display.srgb, alpha: c.display.alpha, into: &s)
        s.member("relativeLuminance", luminances?.relative ?? c.display.relativeLuminance)
        s.member("apcaY", luminances?.apcaY ?? apcaY(c.display.srgb))
        s.member("space", c.color.space.rawValue)
        s.member("gamutMapped", c.display.wasGamutMapped)
        if let system = c.systemColor { s.member("systemColor", AppleJSON.systemColor(system)) }
        if !c.notes.isEmpty {
            s.key("notes")
            s.array { a in for note in c.notes { a.value(.string(note)) } }
        }
    }

    /// An effective (opaque, composited) color: hex, rgba, relative luminance, APCA screen luminance.
    static func effective(_ srgb: SIMD3<Double>) -> JSON {
        JSON.build { effective(srgb, into: &$0) }
    }

    /// `{"hex", "rgba", "relativeLuminance", "apcaY"}` of an opaque color. Its channels come from
    /// arithmetic (compositing), so `rgba` gives them to 1e-9 of the 0–255 scale: 163, not the
    /// 163.00000000000003 that `0.35·10 + 0.65·240` rounds to in binary (a user's pass); far
    /// below what any measurement here can tell apart, and the luminances are of the unrounded color.
    static func effective<S: JSONSink>(_ srgb: SIMD3<Double>, into s: inout S) {
        s.object { s in
            s.member("hex", hex(srgb))
            s.key("rgba")
            s.beginArray()
            for k in 0..<3 { s.number((srgb[k] * 255 * 1e9).rounded() / 1e9) }
            s.number(1)
            s.endArray()
            s.member("relativeLuminance", WCAG.relativeLuminance(srgb))
            s.member("apcaY", apcaY(srgb))
        }
    }

    /// APCA's screen luminance Ys `0...1.0000001` (the weights' sum) of gamma-encoded sRGB `0...1`
    /// (APCA 0.0.98G-4g `sRGBtoY`: each channel to the power 2.4, weighted 0.2126729, 0.7151522, 0.0721750), as
    /// computed before APCA's soft clamp of near-black luminances: the `apcaY` beside
    /// `relativeLuminance` (which linearizes with the piecewise sRGB curve and weighs with the
    /// BT.709 coefficients, so the two differ most on mid grays, where APCA and WCAG disagree).
    static func apcaY(_ srgb: SIMD3<Double>) -> Double {
        APCA.screenLuminance(srgb)
    }

    /// One measured surface of an audit or a palette variant: `{"context"?, "surface",
    /// "surfaceHex", "foreground", "effectiveForeground", "ratio", "ratioText", "apcaLc", "value",
    /// "minimum"?, "passes"}`; `value` is the measurement in the target's metric (ratio or |Lc|),
    /// `minimum` the value the row was judged against, when given.
    static func surfaceRow(context: String? = nil, surface: String, surfaceColor: SIMD3<Double>, foreground: String,
                           _ m: ContrastMeasurement, value: Double, minimum: Double? = nil, passes: Bool) -> JSON {
        var o = JSONObject()
        if let context { o.append("context", .string(context)) }
        o.append("surface", .string(surface))
        o.append("surfaceHex", .string(hex(surfaceColor)))
        o.append("foreground", .string(foreground))
        o.append("effectiveForeground", .string(hex(m.effectiveForeground)))
        o.append("ratio", .number(m.ratio))
        o.append("ratioText", .string(WCAG.ratioText(m.ratio)))
        o.append("apcaLc", .number(m.apcaLc))
        o.append("value", .number(value))
        if let minimum { o.append("minimum", .number(minimum)) }
        o.append("passes", .bool(passes))
        return .object(o)
    }

}
