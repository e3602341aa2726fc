import Foundation  // pow, cbrt, atan2, cos, sin only

// Color-space conversions of CSS Color 4 (§10 predefined spaces, §9 Lab/LCH and OKLab/OKLCH,
// §7 HSL, §8 HWB), using the matrices of the CSS Color 4 sample code (§18, conversions.js)
// exactly as color.js 0.7 does.
//
// The spaces form a tree rooted at XYZ D65, as in color.js:
//
//     xyz-d65 ─┬─ srgb-linear ── srgb ─┬─ hsl
//              │                        └─ hwb
//              ├─ display-p3 (via its linear form)
//              ├─ rec2020 (via its linear form)
//              ├─ xyz-d50 ── lab ── lch
//              └─ oklab ── oklch
//
// A conversion walks up from the source to the nearest common ancestor and down to the
// destination, so e.g. sRGB → HSL never passes through XYZ.

extension Color {
    /// The largest coordinate magnitude conversions accept; larger or non-finite coordinates
    /// are clamped to `±maximumCoordinateMagnitude` (NaN becomes 0) before converting, so every
    /// conversion result is finite. The parser rejects such values up front.
    public static let maximumCoordinateMagnitude: Double = 1e6

    /// This color expressed in `space`, by the exact CSS Color 4 conversions (§18 sample code,
    /// matrices as in color.js 0.7): sRGB transfer with the 0.04045 threshold, extended
    /// sign-symmetrically to negative values; linear sRGB, Display P3 and Rec. 2020 ↔ XYZ D65
    /// by their rational matrices; Rec. 2020 transfer with α = 1.09929682680944,
    /// β = 0.018053968510807; Bradford D65 ↔ D50; CIE Lab (D50, ε = 216/24389,
    /// κ = 24389/27); OKLab with the 2022 matrices recalculated for the D65 white; polar forms.
    ///
    /// - Returns: a color in `space` with the same alpha. Out-of-gamut values are kept (no
    ///   clipping; see `GamutMapping`). Hues are in degrees `[0, 360)`.
    ///   When the destination is polar and the color is achromatic (LCH chroma < 0.0015,
    ///   OKLCH chroma < 0.000004, as the CSS Color 4 sample code; HSL/HWB when max − min of
    ///   the sRGB channels is below 1e-12), the hue is set to 0, marked in `isNone`, and the
    ///   LCH/OKLCH chroma or HSL saturation is set to 0.
    ///   Components that were `none` in the source count as 0 (CSS Color 4 §4.4); only the
    ///   destination's achromatic hue is marked `none` in the result. If `space` equals the
    ///   source space the color is returned unchanged (apart from the clamping below).
    /// - Note: never produces NaN or infinity: coordinates beyond
    ///   `±Color.maximumCoordinateMagnitude` are clamped first and NaN counts as 0.
    public func converted(to space: ColorSpace) -> Color {
        if space == self.space {
            var same = self
            same.coordinates = ColorSpaceTree.sanitized(coordinates)
            return same
        }
        let (coordinates, hueIsNone) = ColorSpaceTree.convert(
            ColorSpaceTree.sanitized(self.coordinates), from: self.space, to: space)
        var none = ComponentFlags(repeating: false)
        if let hue = space.hueIndex, hueIsNone { none[hue] = true }
        return Color(space: space, coordinates: coordinates, alpha: alpha, isNone: none)
    }

    /// This color with an achromatic hue marked missing (`none`), as a conversion into its space
    /// from another marks it (see `converted(to:)`): for LCH and OKLCH below the chroma thresholds,
    /// for HSL and HWB when the color is a gray. The hue (and LCH/OKLCH chroma, HSL saturation)
    /// then become 0; other spaces, chromatic colors and a hue already missing are unchanged.
    /// `converted(to:)` its own space returns a color as given, e.g. `lch(50 0 120)` keeps hue 120.
    public var withAchromaticHueMissing: Color {
        guard let hue = space.hueIndex, !isNone[hue] else { return self }
        let sanitized = ColorSpaceTree.sanitized(coordinates)
        let (canonical, achromatic) = ColorSpaceTree.fromParent(space, ColorSpaceTree.toParent(space, sanitized))
        guard achromatic else { return self }
        var marked = self
        marked.coordinates = canonical
        marked.isNone[hue] = true
        return marked
    }

    /// Whether this color lies inside the gamut of `space`: converted to `space`, every channel
    /// lies in `-epsilon...1 + epsilon` (CSS Color 4 §13.1).
    ///
    /// - Parameters:
    ///   - space: `.srgb`, `.srgbLinear`, `.displayP3` or `.rec2020`; `.hsl` and `.hwb` test the
    ///     sRGB gamut. Spaces without gamut limits (XYZ, Lab, LCH, OKLab, OKLCH) always return
    ///     `true`.
    ///   - epsilon: tolerance on each channel of the 0...1 range (default 1e-6).
    public func isInGamut(_ space: ColorSpace, epsilon: Double = 1e-6) -> Bool {
        guard let gamut = space.gamutSpace else { return true }
        let c = converted(to: gamut).coordinates
        let low = -epsilon, high = 1 + epsilon
        return c.x >= low && c.x <= high && c.y >= low && c.y <= high && c.z >= low && c.z <= high
    }
}

extension ColorSpace {
    /// The RGB space whose `0...1` cube is this space's gamut (`.hsl`/`.hwb` → `.srgb`), or nil
    /// for spaces without gamut limits (CSS Color 4 §13).
    var gamutSpace: ColorSpace? {
        switch self {
        case .srgb, .hsl, .hwb: return .srgb
        case .srgbLinear: return .srgbLinear
        case .displayP3: return .displayP3
        case .rec2020: return .rec2020
        case .xyzD65, .xyzD50, .lab, .lch, .oklab, .oklch: return nil
        }
    }
}

/// The conversion tree and the per-edge formulas (internal).
enum ColorSpaceTree {
    /// A 3×3 matrix stored by rows.
    struct Matrix3: Sendable {
        let r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>

        init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
            self.r0 = r0; self.r1 = r1; self.r2 = r2
        }

        /// `self × v`, summed left to right like the sample code's `multiplyMatrices`. (Inlined:
        /// the gradient paths call it for every scanned color and its slope, where the call cost
        /// a tenth of the work.)
        @inline(__always)
        func callAsFunction(_ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(r0.x * v.x + r0.y * v.y + r0.z * v.z,
                  r1.x * v.x + r1.y * v.y + r1.z * v.z,
                  r2.x * v.x + r2.y * v.y + r2.z * v.z)
        }

        /// `self × m`: the conversion that applies `m`, then `self`.
        func after(_ m: Matrix3) -> Matrix3 {
            func row(_ r: SIMD3<Double>) -> SIMD3<Double> { r.x * m.r0 + r.y * m.r1 + r.z * m.r2 }
            return Matrix3(row(r0), row(r1), row(r2))
        }
    }

    // MARK: Matrices (CSS Color 4 §18 sample code, conversions.js)

    /// Linear sRGB → XYZ D65.
    static let linearSRGBToXYZ = Matrix3(
        SIMD3(506752.0 / 1228815, 87881.0 / 245763, 12673.0 / 70218),
        SIMD3(87098.0 / 409605, 175762.0 / 245763, 12673.0 / 175545),
        SIMD3(7918.0 / 409605, 87881.0 / 737289, 1001167.0 / 1053270))
    /// XYZ D65 → linear sRGB.
    static let xyzToLinearSRGB = Matrix3(
        SIMD3(12831.0 / 3959, -329.0 / 214, -1974.0 / 3959),
        SIMD3(-851781.0 / 878810, 1648619.0 / 878810, 36519.0 / 878810),
        SIMD3(705.0 / 12673, -2585.0 / 12673, 705.0 / 667))
    /// Linear Display P3 → XYZ D65.
    static let linearP3ToXYZ = Matrix3(
        SIMD3(608311.0 / 1250200, 189793.0 / 714400, 198249.0 / 1000160),
        SIMD3(35783.0 / 156275, 247089.0 / 357200, 198249.0 / 2500400),
        SIMD3(0, 32229.0 / 714400, 5220557.0 / 5000800))
    /// XYZ D65 → linear Display P3.
    static let xyzToLinearP3 = Matrix3(
        SIMD3(446124.0 / 178915, -333277.0 / 357830, -72051.0 / 178915),
        SIMD3(-14852.0 / 17905, 63121.0 / 35810, 423.0 / 17905),
        SIMD3(11844.0 / 330415, -50337.0 / 660830, 316169.0 / 330415))
    /// Linear Rec. 2020 → XYZ D65.
    static let linearRec2020ToXYZ = Matrix3(
        SIMD3(63426534.0 / 99577255, 20160776.0 / 139408157, 47086771.0 / 278816314),
        SIMD3(26158966.0 / 99577255, 472592308.0 / 697040785, 8267143.0 / 139408157),
        SIMD3(0, 19567812.0 / 697040785, 295819943.0 / 278816314))
    /// XYZ D65 → linear Rec. 2020.
    static let xyzToLinearRec2020 = Matrix3(
        SIMD3(30757411.0 / 17917100, -6372589.0 / 17917100, -4539589.0 / 17917100),
        SIMD3(-19765991.0 / 29648200, 47925759.0 / 29648200, 467509.0 / 29648200),
        SIMD3(792561.0 / 44930125, -1921689.0 / 44930125, 42328811.0 / 44930125))
    /// Bradford chromatic adaptation D65 → D50.
    static let d65ToD50 = Matrix3(
        SIMD3(1.0479297925449969, 0.022946870601609652, -0.05019226628920524),
        SIMD3(0.02962780877005599, 0.9904344267538799, -0.017073799063418826),
        SIMD3(-0.009243040646204504, 0.015055191490298152, 0.7518742814281371))
    /// Bradford chromatic adaptation D50 → D65.
    static let d50ToD65 = Matrix3(
        SIMD3(0.955473421488075, -0.02309845494876471, 0.06325924320057072),
        SIMD3(-0.0283697093338637, 1.0099953980813041, 0.021041441191917323),
        SIMD3(0.012314014864481998, -0.020507649298898964, 1.330365926242124))
    /// XYZ D65 → LMS (OKLab, 2022 recalculation for the D65 white, CSS Color 4 §18).
    static let xyzToLMS = Matrix3(
        SIMD3(0.8190224379967030, 0.3619062600528904, -0.1288737815209879),
        SIMD3(0.0329836539323885, 0.9292868615863434, 0.0361446663506424),
        SIMD3(0.0481771893596242, 0.2642395317527308, 0.6335478284694309))
    /// LMS → XYZ D65 (inverse of `xyzToLMS`).
    static let lmsToXYZ = Matrix3(
        SIMD3(1.2268798758459243, -0.5578149944602171, 0.2813910456659647),
        SIMD3(-0.0405757452148008, 1.1122868032803170, -0.0717110580655164),
        SIMD3(-0.0763729366746601, -0.4214933324022432, 1.5869240198367816))
    /// Non-linear LMS → OKLab.
    static let lmsToOKLab = Matrix3(
        SIMD3(0.2104542683093140, 0.7936177747023054, -0.0040720430116193),
        SIMD3(1.9779985324311684, -2.4285922420485799, 0.4505937096174110),
        SIMD3(0.0259040424655478, 0.7827717124575296, -0.8086757549230774))
    /// OKLab → non-linear LMS.
    static let oklabToLMS = Matrix3(
        SIMD3(1.0000000000000000, 0.3963377773761749, 0.2158037573099136),
        SIMD3(1.0000000000000000, -0.1055613458156586, -0.0638541728258133),
        SIMD3(1.0000000000000000, -0.0894841775298119, -1.2914855480194092))

    /// The D50 reference white (x 0.3457, y 0.3585) with Y = 1, as CSS Color 4 §18 / color.js.
    static let d50White = SIMD3<Double>(0.3457 / 0.3585, 1, (1 - 0.3457 - 0.3585) / 0.3585)

    /// CIE Lab constants (CSS Color 4 §18): ε = 216/24389, κ = 24389/27.
    static let labEpsilon = 216.0 / 24389
    static let labKappa = 24389.0 / 27
    /// Cube root of ε = 6/29 (= 24/116 in color.js).
    static let labEpsilon3 = 24.0 / 116

    /// Achromatic chroma thresholds of the CSS Color 4 sample code (`Lab_to_LCH`,
    /// `OKLab_to_OKLCH`).
    static let lchAchromaticChroma = 0.0015
    static let oklchAchromaticChroma = 0.000004
    /// HSL/HWB: sRGB max − min below this is achromatic (hides float noise).
    static let hslAchromaticRange = 1e-12

    // MARK: Transfer functions

    /// sRGB (and Display P3) gamma-encoded → linear, sign-symmetric for negatives (CSS Color 4
    /// §10.2, sample code `lin_sRGB`). A channel that is exactly `k/255` (every hex color and
    /// every `rgb()` of whole numbers) is read from `eightBitLinear`, which holds this formula's
    /// result for those 256 values bit for bit, without its power (two of a stop's conversions
    /// were a third of a polar gradient check's setup).
    @inline(__always) static func srgbToLinear(_ v: Double) -> Double {
        let a = abs(v)
        if a <= 0.04045 { return v / 12.92 }
        if a <= 1 {
            // `a·255` rounded to the nearest whole number (the sum with 1.5·2⁵² rounds it).
            let k = (a * 255 + 0x1.8p52) - 0x1.8p52
            if k / 255 == a {
                let r = eightBitLinear[Int(k)]
                return v < 0 ? -r : r
            }
        }
        return srgbPowerToLinear(v)
    }

    /// `srgbToLinear` by its formula, for any channel.
    @inline(__always) static func srgbPowerToLinear(_ v: Double) -> Double {
        let a = abs(v)
        if a <= 0.04045 { return v / 12.92 }
        let r = pow((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -r : r
    }

    /// `srgbPowerToLinear(k/255)` for `k = 0...255`.
    static let eightBitLinear: [Double] = (0...255).map { srgbPowerToLinear(Double($0) / 255) }

    /// Linear → sRGB (and Display P3) gamma-encoded, sign-symmetric for negatives.
    @inline(__always) static func linearToSRGB(_ v: Double) -> Double {
        let a = abs(v)
        if a <= 0.0031308 { return 12.92 * v }
        let r = 1.055 * pow(a, 1 / 2.4) - 0.055
        return v < 0 ? -r : r
    }

    static let rec2020Alpha = 1.09929682680944
    static let rec2020Beta = 0.018053968510807

    /// Rec. 2020 gamma-encoded → linear (ITU-R BT.2020-2 table 4), sign-symmetric.
    @inline(__always) static func rec2020ToLinear(_ v: Double) -> Double {
        let a = abs(v)
        if a < rec2020Beta * 4.5 { return v / 4.5 }
        let r = pow((a + rec2020Alpha - 1) / rec2020Alpha, 1 / 0.45)
        return v < 0 ? -r : r
    }

    /// Linear → Rec. 2020 gamma-encoded, sign-symmetric.
    @inline(__always) static func linearToRec2020(_ v: Double) -> Double {
        let a = abs(v)
        if a < rec2020Beta { return 4.5 * v }
        let r = rec2020Alpha * pow(a, 0.45) - (rec2020Alpha - 1)
        return v < 0 ? -r : r
    }

    static func map(_ v: SIMD3<Double>, _ f: (Double) -> Double) -> SIMD3<Double> {
        SIMD3(f(v.x), f(v.y), f(v.z))
    }

    /// Hue in degrees reduced to `[0, 360)`; -0 becomes 0.
    static func normalizedHue(_ h: Double) -> Double {
        guard h.isFinite else { return 0 }
        var r = h.truncatingRemainder(dividingBy: 360)
        if r < 0 { r += 360 }
        if r >= 360 { r = 0 }
        return r + 0  // turns -0 into +0
    }

    /// Clamps coordinates into `±Color.maximumCoordinateMagnitude`; NaN becomes 0.
    static func sanitized(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let m = Color.maximumCoordinateMagnitude
        return map(c) { $0.isNaN ? 0 : Swift.min(Swift.max($0, -m), m) }
    }

    // MARK: Tree

    /// The parent of each space in the conversion tree (nil for the root, XYZ D65).
    static func parent(of space: ColorSpace) -> ColorSpace? {
        switch space {
        case .xyzD65: return nil
        case .srgbLinear, .displayP3, .rec2020, .xyzD50, .oklab: return .xyzD65
        case .srgb: return .srgbLinear
        case .hsl, .hwb: return .srgb
        case .lab: return .xyzD50
        case .lch: return .lab
        case .oklch: return .oklab
        }
    }

    /// How many edges lie between `space` and XYZ D65 (at most 4).
    static func depth(_ space: ColorSpace) -> Int {
        var d = 0, s = space
        while let p = parent(of: s) { d += 1; s = p }
        return d
    }

    /// Converts coordinates along the tree: up from the source to the nearest common ancestor,
    /// then down to the destination. Returns whether the destination hue is missing. Walks the
    /// tree by depth, without building the two ancestries (this runs for every gradient sample).
    static func convert(_ c: SIMD3<Double>, from source: ColorSpace,
                        to destination: ColorSpace) -> (SIMD3<Double>, Bool) {
        var a = source, b = destination
        var (da, db) = (depth(a), depth(b))
        while da > db, let p = parent(of: a) { a = p; da -= 1 }
        while db > da, let p = parent(of: b) { b = p; db -= 1 }
        while a != b, let pa = parent(of: a), let pb = parent(of: b) { (a, b) = (pa, pb) }
        let common = a
        var v = c
        var s = source
        while s != common, let p = parent(of: s) { v = toParent(s, v); s = p }
        var hueNone = false
        descend(to: destination, from: common, &v, &hueNone)
        return (v, hueNone)
    }

    /// The edges from `common` down to `space`, top first.
    private static func descend(to space: ColorSpace, from common: ColorSpace, _ v: inout SIMD3<Double>, _ hueNone: inout Bool) {
        guard space != common, let p = parent(of: space) else { return }
        descend(to: p, from: common, &v, &hueNone)
        (v, hueNone) = fromParent(space, v)
    }

    /// Converts coordinates of `space` into its parent space.
    static func toParent(_ space: ColorSpace, _ c: SIMD3<Double>) -> SIMD3<Double> {
        switch space {
        case .xyzD65: return c
        case .srgb: return map(c, srgbToLinear)
        case .srgbLinear: return linearSRGBToXYZ(c)
        case .displayP3: return linearP3ToXYZ(map(c, srgbToLinear))
        case .rec2020: return linearRec2020ToXYZ(map(c, rec2020ToLinear))
        case .xyzD50: return d50ToD65(c)
        case .lab: return labToXYZD50(c)
        case .lch, .oklch: return polarToRectangular(c)
        case .oklab: return oklabToXYZ(c)
        case .hsl: return hslToSRGB(c)
        case .hwb: return hwbToSRGB(c)
        }
    }

    /// Converts coordinates of the parent of `space` into `space`; the flag tells whether the
    /// result is achromatic and its hue missing.
    static func fromParent(_ space: ColorSpace, _ c: SIMD3<Double>) -> (SIMD3<Double>, Bool) {
        switch space {
        case .xyzD65: return (c, false)
        case .srgb: return (map(c, linearToSRGB), false)
        case .srgbLinear: return (xyzToLinearSRGB(c), false)
        case .displayP3: return (map(xyzToLinearP3(c), linearToSRGB), false)
        case .rec2020: return (map(xyzToLinearRec2020(c), linearToRec2020), false)
        case .xyzD50: return (d65ToD50(c), false)
        case .lab: return (xyzD50ToLab(c), false)
        case .lch: return rectangularToPolar(c, achromaticBelow: lchAchromaticChroma)
        case .oklab: return (xyzToOKLab(c), false)
        case .oklch: return rectangularToPolar(c, achromaticBelow: oklchAchromaticChroma)
        case .hsl: return srgbToHSL(c)
        case .hwb: return srgbToHWB(c)
        }
    }

    // MARK: Lab (CSS Color 4 §9.1, sample code XYZ_to_Lab / Lab_to_XYZ)

    static func xyzD50ToLab(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let scaled = xyz / d50White
        let f = map(scaled) { $0 > labEpsilon ? cbrt($0) : (labKappa * $0 + 16) / 116 }
        return SIMD3(116 * f.y - 16, 500 * (f.x - f.y), 200 * (f.y - f.z))
    }

    static func labToXYZD50(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        let f1 = (lab.x + 16) / 116
        let f0 = lab.y / 500 + f1
        let f2 = f1 - lab.z / 200
        let x = f0 > labEpsilon3 ? f0 * f0 * f0 : (116 * f0 - 16) / labKappa
        let y = lab.x > labKappa * labEpsilon ? f1 * f1 * f1 : lab.x / labKappa
        let z = f2 > labEpsilon3 ? f2 * f2 * f2 : (116 * f2 - 16) / labKappa
        return SIMD3(x, y, z) * d50White
    }

    // MARK: OKLab (CSS Color 4 §9.2, sample code XYZ_to_OKLab / OKLab_to_XYZ)

    static func xyzToOKLab(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        lmsToOKLab(map(xyzToLMS(xyz), cbrt))
    }

    static func oklabToXYZ(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        lmsToXYZ(map(oklabToLMS(lab)) { $0 * $0 * $0 })
    }

    // MARK: Polar forms (LCH, OKLCH)

    /// (L, C, h°) → (L, a, b); negative chroma counts as 0 (CSS Color 4 §9.3, as color.js).
    static func polarToRectangular(_ lch: SIMD3<Double>) -> SIMD3<Double> {
        let c = Swift.max(lch.y, 0)
        let h = lch.z * Double.pi / 180
        return SIMD3(lch.x, c * cos(h), c * sin(h))
    }

    /// (L, a, b) → (L, C, h° in [0, 360)); achromatic below `threshold` (hue 0, chroma 0).
    static func rectangularToPolar(_ lab: SIMD3<Double>,
                                   achromaticBelow threshold: Double) -> (SIMD3<Double>, Bool) {
        let c = (lab.y * lab.y + lab.z * lab.z).squareRoot()
        if c < threshold { return (SIMD3(lab.x, 0, 0), true) }
        let h = normalizedHue(atan2(lab.z, lab.y) * 180 / Double.pi)
        return (SIMD3(lab.x, c, h), false)
    }

    // MARK: HSL and HWB (CSS Color 4 §7, §8; color.js hsl.js)

    /// HSL (h°, s %, l %) → sRGB, as color.js `hsl.toBase` (CSS Color 4 §7.1 `hslToRgb`).
    static func hslToSRGB(_ hsl: SIMD3<Double>) -> SIMD3<Double> {
        var h = hsl.x.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        let s = hsl.y / 100, l = hsl.z / 100
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * Swift.min(l, 1 - l)
            return l - a * Swift.max(-1, Swift.min(k - 3, 9 - k, 1))
        }
        return SIMD3(f(0), f(8), f(4))
    }

    /// The HSL hue of sRGB in degrees, nil when achromatic (max − min below 1e-12).
    static func hslHue(_ rgb: SIMD3<Double>) -> (hue: Double, max: Double, min: Double)? {
        let mx = Swift.max(rgb.x, rgb.y, rgb.z), mn = Swift.min(rgb.x, rgb.y, rgb.z)
        let d = mx - mn
        guard d >= hslAchromaticRange else { return nil }
        var h: Double
        if mx == rgb.x {
            h = (rgb.y - rgb.z) / d + (rgb.y < rgb.z ? 6 : 0)
        } else if mx == rgb.y {
            h = (rgb.z - rgb.x) / d + 2
        } else {
            h = (rgb.x - rgb.y) / d + 4
        }
        h *= 60
        return (h, mx, mn)
    }

    /// sRGB → HSL (h°, s %, l %), as color.js `hsl.fromBase` (CSS Color 4 better-rgbToHsl.js):
    /// negative saturation of far out-of-gamut colors turns the hue by 180°.
    static func srgbToHSL(_ rgb: SIMD3<Double>) -> (SIMD3<Double>, Bool) {
        let mx = Swift.max(rgb.x, rgb.y, rgb.z), mn = Swift.min(rgb.x, rgb.y, rgb.z)
        let l = (mx + mn) / 2
        guard let hue = hslHue(rgb) else { return (SIMD3(0, 0, l * 100), true) }
        var h = hue.hue
        var s = (l == 0 || l == 1) ? 0 : (mx - l) / Swift.min(l, 1 - l)
        if s < 0 {
            h += 180
            s = abs(s)
        }
        if s == 0 { return (SIMD3(0, 0, l * 100), true) }
        return (SIMD3(normalizedHue(h), s * 100, l * 100), false)
    }

    /// HWB (h°, w %, b %) → sRGB (CSS Color 4 §8.1 `hwbToRgb`); w + b ≥ 100% is the gray
    /// w / (w + b).
    static func hwbToSRGB(_ hwb: SIMD3<Double>) -> SIMD3<Double> {
        let w = hwb.y / 100, b = hwb.z / 100
        if w + b >= 1 {
            let gray = w / (w + b)
            return SIMD3(repeating: gray)
        }
        let pure = hslToSRGB(SIMD3(hwb.x, 100, 50))
        return pure * (1 - w - b) + w
    }

    /// sRGB → HWB (CSS Color 4 §8.2 `rgbToHwb`): w = min, b = 1 − max, hue as HSL.
    static func srgbToHWB(_ rgb: SIMD3<Double>) -> (SIMD3<Double>, Bool) {
        let mx = Swift.max(rgb.x, rgb.y, rgb.z), mn = Swift.min(rgb.x, rgb.y, rgb.z)
        guard let hue = hslHue(rgb) else { return (SIMD3(0, mn * 100, (1 - mx) * 100), true) }
        return (SIMD3(normalizedHue(hue.hue), mn * 100, (1 - mx) * 100), false)
    }
}
