import Foundation

/// A gradient stretch interpolated in OKLCH between opaque colors (CSS Color 4 §12.4: lightness,
/// chroma and the hue, fixed up for the hue interpolation method, mix linearly in the weight `w`
/// of the second color). Its linear sRGB channels are smooth but not polynomials of `w`: the
/// hue turns `a = C·cos h` and `b = C·sin h` (CSS Color 4 §9.3), then OKLab goes to linear sRGB as
/// in `CubicLightPath`. Each color and its slope cost one sine and cosine and no power; the
/// stretch is scanned and solved from the scan (`ScannedLightPath`).
struct OKLCHPath: ScannedLightPath {
    /// Lightness, chroma and hue (radians) at `w = 0`, and their changes to `w = 1`.
    let l0: Double, dl: Double, c0: Double, dc: Double, h0: Double, dh: Double
    /// `ColorSpaceTree.oklabToLMS` and `CubicLightPath.lmsToLinearSRGB`, held here so that each
    /// evaluation reads them without a global's lazy-initialization check.
    private let toLMS = ColorSpaceTree.oklabToLMS, toLinear = CubicLightPath.lmsToLinearSRGB
    /// The hue's cosine and sine.
    private let hueCircle = HueCircle()

    /// The path between two opaque colors as `ColorInterpolation.Pair` holds them in OKLCH
    /// (L, C, h° with the hue fixed up, premultiplied by an alpha of 1; a component missing in
    /// both is 0).
    init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, missing: ComponentFlags) {
        var (p, q) = (p, q)
        for k in 0..<3 where missing[k] { p[k] = 0; q[k] = 0 }
        guard (0..<3).allSatisfy({ p[$0].isFinite && q[$0].isFinite }) else { return nil }
        // Negative chroma counts as 0 (CSS Color 4 §9.3): a mix of non-negative chromas stays so.
        let (cp, cq) = (Swift.max(p.y, 0), Swift.max(q.y, 0))
        // As in `CubicLightPath`: far beyond real colors the cubes lose the digits needed.
        guard abs(p.x) <= 100, abs(q.x) <= 100, cp <= 100, cq <= 100 else { return nil }
        (l0, dl, c0, dc) = (p.x, q.x - p.x, cp, cq - cp)
        (h0, dh) = (p.z * Double.pi / 180, (q.z - p.z) * Double.pi / 180)
    }

    /// Degrees of hue turned per unit of weight.
    var hueTravel: Double { abs(dh) * 180 / Double.pi }

    func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>) {
        let chroma = c0 + dc * w, h = h0 + dh * w
        let (cs, sn) = hueCircle.cosSin(h)
        let lab = SIMD3(l0 + dl * w, chroma * cs, chroma * sn)
        let dlab = SIMD3(dl, dc * cs - chroma * dh * sn, dc * sn + chroma * dh * cs)
        let l = toLMS(lab), dlms = toLMS(dlab)
        let lms = l * l * l, slope = 3 * l * l * dlms
        let n = toLinear
        func row(_ r: SIMD3<Double>, _ v: SIMD3<Double>) -> Double { r.x * v.x + r.y * v.y + r.z * v.z }
        return (SIMD3(row(n.0, lms), row(n.1, lms), row(n.2, lms)), SIMD3(row(n.0, slope), row(n.1, slope), row(n.2, slope)))
    }
}
