import Foundation

/// A gradient stretch interpolated in a gamma-encoded RGB space between opaque colors (CSS
/// Color 4 §12.4: the encoded channels mix linearly in the weight `w` of the second color):
/// sRGB with a stop outside it (within sRGB `AffineSRGBPath` solves it outright), display-p3,
/// a98-rgb, prophoto-rgb and rec2020. Each channel is decoded by its space's transfer function
/// (CSS Color 4 §10 and the §18 sample code: sRGB's for display-p3, gamma 563/256 for a98-rgb,
/// 1.8 with a line below 16/512 for prophoto-rgb, ITU-R BT.2020-2's for rec2020; all
/// sign-symmetric), then a matrix takes the linear channels to linear sRGB. The channels are
/// smooth but not polynomials, so the stretch is scanned and solved from the scan
/// (`ScannedLightPath`).
struct EncodedRGBPath: ScannedLightPath {
    /// A transfer function from encoded to linear light.
    enum Transfer { case srgb, a98, prophoto, rec2020 }

    /// The encoded channels at `w = 0` and their changes to `w = 1`.
    let start: SIMD3<Double>, change: SIMD3<Double>
    let transfer: Transfer
    /// The space's linear channels → linear sRGB (nil for sRGB itself).
    let toLinearSRGB: ColorSpaceTree.Matrix3?

    static let p3ToLinearSRGB = ColorSpaceTree.xyzToLinearSRGB.after(ColorSpaceTree.linearP3ToXYZ)
    static let rec2020ToLinearSRGB = ColorSpaceTree.xyzToLinearSRGB.after(ColorSpaceTree.linearRec2020ToXYZ)
    static let a98ToLinearSRGB = ColorSpaceTree.xyzToLinearSRGB.after(PredefinedRGB.a98ToXYZ)
    static let prophotoToLinearSRGB = ColorSpaceTree.xyzToLinearSRGB.after(ColorSpaceTree.d50ToD65.after(PredefinedRGB.prophotoToXYZ))

    /// The path between two opaque colors as `ColorInterpolation.Pair` holds them in `space`
    /// (encoded channels, nominally `0...1`; premultiplied by an alpha of 1), or nil for a space
    /// that is not gamma-encoded RGB, or when a channel is beyond 10⁶ or not finite (the general
    /// search measures such stretches).
    init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, in space: InterpolationSpace) {
        switch space {
        case .srgb: (transfer, toLinearSRGB) = (.srgb, nil)
        case .displayP3: (transfer, toLinearSRGB) = (.srgb, Self.p3ToLinearSRGB)
        case .a98RGB: (transfer, toLinearSRGB) = (.a98, Self.a98ToLinearSRGB)
        case .prophotoRGB: (transfer, toLinearSRGB) = (.prophoto, Self.prophotoToLinearSRGB)
        case .rec2020: (transfer, toLinearSRGB) = (.rec2020, Self.rec2020ToLinearSRGB)
        default: return nil
        }
        let limit = Color.maximumCoordinateMagnitude
        guard (0..<3).allSatisfy({ abs(p[$0]) <= limit && abs(q[$0]) <= limit }) else { return nil }
        (start, change) = (p, q - p)
    }

    var hueTravel: Double { 0 }
    var hasKinks: Bool { true }

    /// Where a channel's slope jumps, or its curvature: where an encoded channel passes the end
    /// of its transfer function's linear segment, ±16/512 for prophoto-rgb (slope 1/16 below,
    /// 1.8·(1/32)^0.8 ≈ 0.11 above), ±0.04045 for sRGB and display-p3 and ±0.0812 for rec2020
    /// (slopes nearly equal, curvature from 0 to large). Mixed into linear sRGB, a channel that
    /// crosses there can turn the luminance twice between two scanned colors (a hostile pass:
    /// display-p3 out of gamut near 0, a maximum ratio 3.7112 instead of 3.7178). a98-rgb's
    /// pure power `|e|^2.2` has no linear segment; it is cut where an encoded channel passes 0,
    /// where its slope falls to 0 (a hostile pass: strongest Lc 105.58 instead of 105.94).
    func kinks(from a: Double, to b: Double, into cuts: inout ScanCuts) {
        let edge = Self.linearSegmentEnd(transfer)
        for k in 0..<3 where change[k] != 0 {
            cuts.add((-edge - start[k]) / change[k], kink: true)
            if edge > 0 { cuts.add((edge - start[k]) / change[k], kink: true) }
        }
    }

    func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>) {
        let e = start + change * w
        let (r, g, b) = (Self.decoded(e.x, transfer), Self.decoded(e.y, transfer), Self.decoded(e.z, transfer))
        let c = SIMD3(r.0, g.0, b.0), dc = SIMD3(r.1, g.1, b.1) * change
        guard let m = toLinearSRGB else { return (c, dc) }
        return (m(c), m(dc))
    }

    /// Where `transfer`'s linear segment ends (|encoded| up to it; 0 for a98-rgb, which has none).
    static func linearSegmentEnd(_ transfer: Transfer) -> Double {
        switch transfer {
        case .srgb: return 0.04045
        case .a98: return 0
        case .prophoto: return 16.0 / 512
        case .rec2020: return ColorSpaceTree.rec2020Beta * 4.5
        }
    }

    /// The linear value of an encoded channel `v` and its slope in `v` under `transfer` (the
    /// same formulas as `ColorSpaceTree.srgbToLinear`, `rec2020ToLinear` and `PredefinedRGB`;
    /// the functions are odd, so the slopes are even). `HSLPath` decodes with `.srgb`.
    @inline(__always) static func decoded(_ v: Double, _ transfer: Transfer) -> (Double, Double) {
        let a = abs(v)
        var r: Double, slope: Double
        switch transfer {
        case .srgb:
            if a <= 0.04045 { return (v / 12.92, 1 / 12.92) }
            r = pow((a + 0.055) / 1.055, 2.4)
            slope = 2.4 * r / (a + 0.055)
        case .a98:
            r = pow(a, 563.0 / 256)
            slope = a > 0 ? 563.0 / 256 * r / a : 0
        case .prophoto:
            if a <= 16.0 / 512 { return (v / 16, 1.0 / 16) }
            r = pow(a, 1.8)
            slope = 1.8 * r / a
        case .rec2020:
            let alpha = ColorSpaceTree.rec2020Alpha
            if a < ColorSpaceTree.rec2020Beta * 4.5 { return (v / 4.5, 1 / 4.5) }
            r = pow((a + alpha - 1) / alpha, 1 / 0.45)
            slope = r / (0.45 * (a + alpha - 1))
        }
        return (v < 0 ? -r : r, slope)
    }
}
