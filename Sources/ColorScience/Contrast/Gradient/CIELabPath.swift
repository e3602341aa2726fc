import Foundation

/// A gradient stretch interpolated in CIE Lab or CIE LCH between opaque colors (CSS Color 4
/// §12.4: the components, the hue fixed up for the hue interpolation method, mix linearly in the
/// weight `w` of the second color). LCH turns its hue into `a = C·cos h`, `b = C·sin h` (§9.3);
/// Lab goes to XYZ D50 through `f⁻¹`, a cube above `ε = 216/24389` and a line below it (§9.1 and
/// the §18 sample code `Lab_to_XYZ`), then Bradford to D65 and to linear sRGB (§18). The
/// channels are smooth except where a component of `f` passes `24/116`, where their slope
/// changes formula, so the stretch is scanned and solved from the scan (`ScannedLightPath`).
struct CIELabPath: ScannedLightPath {
    /// L, a, b (or L, C and the hue in radians) at `w = 0`, and their changes to `w = 1`.
    let start: SIMD3<Double>, change: SIMD3<Double>
    /// Whether the components are LCH's.
    let polar: Bool
    /// The hue's cosine and sine.
    private let hueCircle = HueCircle()

    /// XYZ D50 → linear sRGB: Bradford to D65, then `xyzToLinearSRGB` (CSS Color 4 §18).
    static let xyzD50ToLinearSRGB = ColorSpaceTree.xyzToLinearSRGB.after(ColorSpaceTree.d50ToD65)

    /// The path between two opaque colors as `ColorInterpolation.Pair` holds them in Lab or LCH
    /// (L 0...100, a/b or C in Lab units, h° fixed up; premultiplied by an alpha of 1; a
    /// component missing in both is 0), or nil when a component is not finite or beyond 10⁶
    /// (`maximumCoordinateMagnitude`; the general search measures such stretches).
    init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, missing: ComponentFlags, polar: Bool) {
        var (p, q) = (p, q)
        for k in 0..<3 where missing[k] { p[k] = 0; q[k] = 0 }
        let limit = Color.maximumCoordinateMagnitude
        guard (0..<3).allSatisfy({ abs(p[$0]) <= limit && abs(q[$0]) <= limit }) else { return nil }
        if polar {
            // Negative chroma counts as 0 (CSS Color 4 §9.3); hues in radians.
            (p.y, q.y) = (Swift.max(p.y, 0), Swift.max(q.y, 0))
            (p.z, q.z) = (p.z * Double.pi / 180, q.z * Double.pi / 180)
        }
        (start, change, self.polar) = (p, q - p, polar)
    }

    var hueTravel: Double { polar ? abs(change.z) * 180 / Double.pi : 0 }

    func linearWithSlope(at w: Double) -> (c: SIMD3<Double>, dc: SIMD3<Double>) {
        var lab = start + change * w, dlab = change
        if polar {
            let (chroma, h) = (lab.y, lab.z)
            let (cs, sn) = hueCircle.cosSin(h)
            lab = SIMD3(lab.x, chroma * cs, chroma * sn)
            dlab = SIMD3(change.x, change.y * cs - chroma * change.z * sn, change.y * sn + chroma * change.z * cs)
        }
        // `labToXYZD50` with its slope.
        let kappa = ColorSpaceTree.labKappa, threshold = ColorSpaceTree.labEpsilon3
        let f1 = (lab.x + 16) / 116, d1 = dlab.x / 116
        let f0 = lab.y / 500 + f1, d0 = dlab.y / 500 + d1
        let f2 = f1 - lab.z / 200, d2 = d1 - dlab.z / 200
        let x = f0 > threshold ? (f0 * f0 * f0, 3 * f0 * f0 * d0) : ((116 * f0 - 16) / kappa, 116 * d0 / kappa)
        let y = lab.x > kappa * ColorSpaceTree.labEpsilon ? (f1 * f1 * f1, 3 * f1 * f1 * d1) : (lab.x / kappa, dlab.x / kappa)
        let z = f2 > threshold ? (f2 * f2 * f2, 3 * f2 * f2 * d2) : ((116 * f2 - 16) / kappa, 116 * d2 / kappa)
        let white = ColorSpaceTree.d50White, m = Self.xyzD50ToLinearSRGB
        return (m(SIMD3(x.0, y.0, z.0) * white), m(SIMD3(x.1, y.1, z.1) * white))
    }
}
