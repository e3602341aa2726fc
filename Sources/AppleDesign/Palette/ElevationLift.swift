import ColorScience

/// The elevated value of a custom dark background, lifted the way Apple lifts its own.
///
/// HIG, Dark Mode: "the system uses two sets of background colors — called base and elevated —
/// to enhance the perception of depth when one dark interface is layered above another … the
/// background color automatically changes from base to elevated when an interface is in the
/// foreground, such as a popover or modal sheet." Apple's backgrounds climb one step of a gray
/// ladder (dark: #000000 → #1c1c1e, #1c1c1e → #2c2c2e, #2c2c2e → #3a3a3c; with Increase
/// Contrast #000000 → #242426, #242426 → #363638, #363638 → #444446; docs/apple-system-colors-sources.md).
/// A palette's own surface (a card mirrored from a light one) that kept its base value in a sheet
/// sat darker than the sheet around it (#131115 under #1c1c1e: an iOS designer's pass).
///
/// Method: the ladder is read from the environment (each system background's OKLCH lightness
/// at the base level and at the elevated one, paired by name); a color's lightness `L` goes to
/// the piecewise-linear interpolation of those pairs (below the first pair's base, from
/// `(0, first elevated)`; above the last, the last step's lift is added), and its hue and chroma
/// stay (`LightnessPath`: chroma drops only where sRGB cannot show it), 8-bit as reported. So
/// Apple's own ladder maps onto itself (to its 8-bit rounding), darker surfaces climb more than
/// lighter ones as Apple's do (0.227 in L from black, 0.055 from #2c2c2e), and the order of a
/// palette's surfaces is kept.
public struct ElevationLift: Sendable, Equatable {
    /// `(base L, elevated L)` in OKLCH lightness `0...1`, increasing in base L, distinct bases.
    public let ladder: [SIMD2<Double>]
    /// The ladder as Apple's colors, darkest first: "#000000 → #1c1c1e, #1c1c1e → #2c2c2e, …".
    public let ladderText: String

    /// The ladder of one appearance and contrast: `base` and `elevated` are that variant's two
    /// contexts' opaque system backgrounds (`PaletteEnvironment.Surface`, names shared between
    /// them pair the values). Nil when no name pairs a value that climbs.
    init?(base: [PaletteEnvironment.Surface], elevated: [PaletteEnvironment.Surface]) {
        var pairs: [(l: SIMD2<Double>, text: String)] = []
        for b in base {
            guard let up = elevated.first(where: { !Set($0.names).isDisjoint(with: b.names) }) else { continue }
            let pair = SIMD2(Self.lightness(b.srgb), Self.lightness(up.srgb))
            guard pair.y > pair.x, !pairs.contains(where: { $0.l.x == pair.x }) else { continue }
            pairs.append((pair, "\(DisplayColor(srgb: b.srgb, alpha: 1).hex) → \(DisplayColor(srgb: up.srgb, alpha: 1).hex)"))
        }
        guard !pairs.isEmpty else { return nil }
        pairs.sort { $0.l.x < $1.l.x }
        ladder = pairs.map(\.l)
        ladderText = pairs.map(\.text).joined(separator: ", ")
    }

    /// The elevated lightness of base lightness `l` (`0...1`), at most 1.
    public func elevatedLightness(_ l: Double) -> Double {
        var lo = SIMD2(0, ladder[0].y)
        if ladder[0].x <= 0 { lo = ladder[0] }
        for p in ladder {
            if l <= p.x {
                let t = p.x > lo.x ? (l - lo.x) / (p.x - lo.x) : 1
                return Swift.min(1, lo.y + t * (p.y - lo.y))
            }
            lo = p
        }
        return Swift.min(1, l + (lo.y - lo.x))
    }

    /// `color` at the elevated level: its lightness lifted, hue, chroma and alpha kept, as the
    /// 8-bit color it is reported as.
    public func elevated(_ color: DisplayColor) -> DisplayColor {
        let path = LightnessPath(color)
        return path.quantized(atLightness: elevatedLightness(path.lightness))
    }

    static func lightness(_ srgb: SIMD3<Double>) -> Double {
        Color.srgb(srgb.x, srgb.y, srgb.z).converted(to: .oklch).coordinates.x
    }
}
