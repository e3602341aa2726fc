import Foundation  // pow

// The predefined RGB spaces that only the CSS parser reads today: a98-rgb and prophoto-rgb to
// XYZ (CSS Color 4 §10.5 and §10.6; matrices and transfer functions as in the spec's sample code).

/// The two CSS predefined RGB spaces without a `ColorSpace` case (CSS Color 4 §10.5, §10.6;
/// §18 sample code `lin_a98rgb`, `lin_a98rgb_to_XYZ`, `lin_ProPhoto`, `lin_ProPhoto_to_XYZ`).
enum PredefinedRGB {
    static let a98ToXYZ = ColorSpaceTree.Matrix3(
        SIMD3(573536.0 / 994567, 263643.0 / 1420810, 187206.0 / 994567),
        SIMD3(591459.0 / 1989134, 6239551.0 / 9945670, 374412.0 / 4972835),
        SIMD3(53769.0 / 1989134, 351524.0 / 4972835, 4929758.0 / 4972835))
    static let prophotoToXYZ = ColorSpaceTree.Matrix3(
        SIMD3(0.79776664490064230, 0.13518129740053308, 0.03134773412839220),
        SIMD3(0.28807482881940130, 0.71183523424187300, 0.00008993693872564),
        SIMD3(0.00000000000000000, 0.00000000000000000, 0.82510460251046020))

    /// a98-rgb (gamma 563/256, sign-symmetric) → XYZ D65.
    static func a98RGBToXYZD65(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let linear = ColorSpaceTree.map(c) { v in
            let r = pow(abs(v), 563.0 / 256)
            return v < 0 ? -r : r
        }
        return a98ToXYZ(linear)
    }

    /// prophoto-rgb (gamma 1.8, linear below 16/512, sign-symmetric) → XYZ D50.
    static func prophotoRGBToXYZD50(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let linear = ColorSpaceTree.map(c) { v in
            let a = abs(v)
            if a <= 16.0 / 512 { return v / 16 }
            let r = pow(a, 1.8)
            return v < 0 ? -r : r
        }
        return prophotoToXYZ(linear)
    }

    /// The inverse of a 3×3 matrix (the two above are well conditioned; the result agrees with
    /// the sample code's rational inverses to about 1e-15).
    static func inverse(_ m: ColorSpaceTree.Matrix3) -> ColorSpaceTree.Matrix3 {
        let (a, b, c) = (m.r0.x, m.r0.y, m.r0.z)
        let (d, e, f) = (m.r1.x, m.r1.y, m.r1.z)
        let (g, h, i) = (m.r2.x, m.r2.y, m.r2.z)
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return ColorSpaceTree.Matrix3(
            SIMD3(e * i - f * h, c * h - b * i, b * f - c * e) / det,
            SIMD3(f * g - d * i, a * i - c * g, c * d - a * f) / det,
            SIMD3(d * h - e * g, b * g - a * h, a * e - b * d) / det)
    }
    static let xyzToA98 = inverse(a98ToXYZ)
    static let xyzToProphoto = inverse(prophotoToXYZ)

    /// XYZ D65 → a98-rgb (inverse of `a98RGBToXYZD65`; gamma 256/563, sign-symmetric).
    static func xyzD65ToA98RGB(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        ColorSpaceTree.map(xyzToA98(xyz)) { v in
            let r = pow(abs(v), 256.0 / 563)
            return v < 0 ? -r : r
        }
    }

    /// XYZ D50 → prophoto-rgb (inverse of `prophotoRGBToXYZD50`; 1/1.8 power, linear below
    /// 1/512, sign-symmetric).
    static func xyzD50ToProphotoRGB(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        ColorSpaceTree.map(xyzToProphoto(xyz)) { v in
            let a = abs(v)
            if a < 1.0 / 512 { return v * 16 }
            let r = pow(a, 1 / 1.8)
            return v < 0 ? -r : r
        }
    }
}
