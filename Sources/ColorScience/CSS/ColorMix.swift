// color-mix() (CSS Color 5 §3, as Chromium 156 computes it): two colors, each with an optional
// percentage 0%–100%, mixed in an interpolation space (default oklab) by CSS Color 4 §12
// interpolation (ColorInterpolation.swift).

/// Mixing two colors as `color-mix()` does (CSS Color 5 §3.1–§3.3).
public enum ColorMix {
    /// The mix of `a` and `b`.
    ///
    /// - Parameters:
    ///   - a, b: the colors, any spaces (missing components flagged in `isNone`).
    ///   - pa, pb: their percentages as fractions `0...1`, or nil when omitted.
    ///   - space: the interpolation space; `hue` its hue method (polar spaces).
    /// - Returns: the mixed color in `space` (XYZ for a98-rgb, prophoto-rgb,
    ///   display-p3-linear). Percentages are normalized (§3.2): both omitted → 50% each; one
    ///   omitted → 100% minus the other; a sum other than 100% scales both to 100%, and a sum
    ///   below 100% multiplies the result's alpha by the sum. A sum of 0% mixes 50/50 with alpha
    ///   0 (Chromium 156: `color-mix(in srgb, red 0%, blue 0%)` is `color(srgb 0.5 0 0.5 / 0)`).
    public static func mix(_ a: Color, _ pa: Double?, _ b: Color, _ pb: Double?,
                           in space: InterpolationSpace = .oklab,
                           hue: HueInterpolationMethod = .shorter) -> Color {
        var p1: Double, p2: Double
        switch (pa, pb) {
        case (nil, nil): (p1, p2) = (0.5, 0.5)
        case (let x?, nil): (p1, p2) = (x, 1 - x)
        case (nil, let y?): (p1, p2) = (1 - y, y)
        case (let x?, let y?): (p1, p2) = (x, y)
        }
        let sum = p1 + p2
        var multiplier = 1.0
        if sum == 0 {
            (p1, p2, multiplier) = (0.5, 0.5, 0)
        } else if sum != 1 {
            (p1, p2) = (p1 / sum, p2 / sum)
            if sum < 1 { multiplier = sum }
        }
        var mixed = ColorInterpolation.interpolate(a, b, at: p2, in: space, hue: hue)
        mixed.alpha *= multiplier
        return mixed
    }
}

extension ColorSyntax {
    /// `color-mix([in <space> [<hue-method> hue]]?, <color> <percentage>?, <color> <percentage>?)`;
    /// the percentage may come before or after its color.
    func colorMix(_ inner: [CSSToken]) throws(ColorParseError) -> Color {
        var groups = Self.splitAtCommas(inner)
        var space = InterpolationSpace.oklab
        var hue = HueInterpolationMethod.shorter
        let firstValues = Self.componentValues(groups[0])
        if case .ident(let w)? = firstValues.first?.first?.kind, firstValues.first?.count == 1,
           CSSTokenizer.asciiLowercased(w) == "in" {
            (space, hue) = try interpolationMethod(Array(firstValues.dropFirst()))
            groups.removeFirst()
        }
        guard groups.count == 2 else {
            if groups.count < 2 {
                throw .invalid("color-mix() needs two colors separated by a comma, got \(groups.count == 1 && !Self.componentValues(groups[0]).isEmpty ? "one" : "none")")
            }
            throw .invalid("color-mix() mixes two colors, got \(groups.count)")
        }
        var colors: [Color] = []
        var percentages: [Double?] = []
        for (n, group) in groups.enumerated() {
            let values = Self.componentValues(group)
            let which = n == 0 ? "first" : "second"
            guard !values.isEmpty else { throw .invalid("the \(which) color of color-mix() is missing") }
            guard values.count <= 2 else {
                throw .invalid("unexpected '\(text(values[2]))' in the \(which) color of color-mix(): give a color and an optional percentage")
            }
            var percentage: Double? = nil
            var colorTokens = values[0]
            if values.count == 2 {
                if let p = try mixPercentage(values[1]) {
                    percentage = p
                } else if let p = try mixPercentage(values[0]) {
                    percentage = p
                    colorTokens = values[1]
                } else {
                    throw .invalid("unexpected '\(text(values[1]))' after the \(which) color of color-mix(): only a percentage may follow it")
                }
            } else if try mixPercentage(values[0]) != nil {
                throw .invalid("the \(which) argument of color-mix() has a percentage but no color")
            }
            colors.append(try parse(colorTokens))
            percentages.append(percentage)
        }
        noteGrayHue(colors, space: space, function: "color-mix(in \(space.rawValue))")
        return ColorMix.mix(colors[0], percentages[0], colors[1], percentages[1], in: space, hue: hue)
    }

    /// Notes a gray written outside the sRGB family (`oklch(0.6 0 0)`, `lab(50 0 0)`) mixed in
    /// HSL or HWB with a color: its hue is powerless (CSS Color 4 §4.4.1) and the mix takes the
    /// other color's, as measured here, where Chromium 156 keeps the hue its conversion to sRGB
    /// rounds to (a front-end pass: `color-mix(in hsl, #3b82f6, oklch(0.6 0 0))` is #5880c1 here,
    /// 4.00:1 on white, and #589cc1 in Chromium, 3.04:1). The same difference as a gradient's
    /// (`CSSGradient.graySweepsHueInBrowsers`).
    func noteGrayHue(_ colors: [Color], space: InterpolationSpace, function: String) {
        guard space == .hsl || space == .hwb, colors.count == 2 else { return }
        let srgbFamily: Set<ColorSpace> = [.srgb, .hsl, .hwb]
        // A gray: no OKLab chroma to speak of (a hostile pass: `color(xyz 0.2 0.2 0.2)`, which
        // is not neutral under D65, was noted though the mix used its hue).
        func isGray(_ c: Color) -> Bool {
            let lab = c.converted(to: .oklab).coordinates
            return (lab.y * lab.y + lab.z * lab.z).squareRoot() < 1e-4
        }
        let hueMissing = colors.map { space.coordinates(of: $0).hueMissing }
        let grays = colors.indices.map { i in !srgbFamily.contains(colors[i].space) && hueMissing[i] && isGray(colors[i]) }
        let colored = hueMissing.map { !$0 }
        for i in 0..<2 where grays[i] && colored[1 - i] {
            notes.append("\(function): a gray written in another space (\(colors[i].space.rawValue)) has no hue there (CSS Color 4 §4.4.1), so the mix takes the other color's hue; Chromium 156 gives the gray the hue its conversion rounds to and can show another color (docs/api/colors.md)")
            return
        }
    }

    /// The percentage of a color-mix() argument as a fraction, or nil when `value` is not a
    /// percentage; outside 0%–100% a 400.
    func mixPercentage(_ value: [CSSToken]) throws(ColorParseError) -> Double? {
        guard let t = value.first else { return nil }
        var p: Double
        switch t.kind {
        case .percentage(let v):
            guard value.count == 1 else { return nil }
            p = v
        case .function(let raw) where CSSMath.functions.contains(CSSTokenizer.asciiLowercased(raw)):
            var math = CSSMath(tokens: value, keywords: [:], quote: { self.text($0) })
            let v = try math.evaluate()
            guard v.kind == .percentage else {
                throw .invalid("'\(text(value))' in color-mix() must be a percentage")
            }
            p = v.value
        default:
            return nil
        }
        guard p >= 0 && p <= 100 else {
            throw .invalid("percentages in color-mix() must be between 0% and 100%, got '\(text(value))'")
        }
        return p / 100
    }

    /// `<color-space> [<hue-method> hue]?` after `in` (CSS Color 4 §12.1).
    func interpolationMethod(_ values: [[CSSToken]]) throws(ColorParseError) -> (InterpolationSpace, HueInterpolationMethod) {
        let known = InterpolationSpace.allCases.map(\.cssName).joined(separator: ", ")
        guard let first = values.first, first.count == 1, case .ident(let raw) = first[0].kind else {
            throw .invalid("color-mix() needs a color space after 'in': \(known)")
        }
        guard let space = InterpolationSpace(rawValue: CSSTokenizer.asciiLowercased(raw)) else {
            throw .invalid("unknown interpolation color space '\(raw.prefix(40))' in color-mix(); expected \(known)")
        }
        if values.count == 1 { return (space, .shorter) }
        guard values.count == 3, values[1].count == 1, values[2].count == 1,
              case .ident(let rawMethod) = values[1][0].kind, case .ident(let hueWord) = values[2][0].kind,
              CSSTokenizer.asciiLowercased(hueWord) == "hue",
              let method = HueInterpolationMethod(rawValue: CSSTokenizer.asciiLowercased(rawMethod)) else {
            throw .invalid("unexpected '\(text(values[1] + values.dropFirst(2).flatMap { $0 }))' after the color space of color-mix(); a polar space may be followed by 'shorter hue', 'longer hue', 'increasing hue' or 'decreasing hue'")
        }
        guard space.hueIndex != nil else {
            throw .invalid("'\(rawMethod) hue' applies only to the polar spaces hsl, hwb, lch and oklch, not \(space.cssName)")
        }
        return (space, method)
    }
}
