import Foundation

extension GradientContrast {
    /// An upper estimate of the work one measurement of `gradient` costs, in units of about one
    /// evaluated gradient color of the search (about 0.4 µs on a 2-core 2026 machine: a hostile
    /// matrix of 1,024 searched measurements at about 41,000 colors each took 15.8 s), before
    /// paying it, so that a request of many measurements can be refused up front:
    /// - searched (repeating, translucent stops or text): the even samples,
    ///   `baseSamplesPerPiece` plus one per `hueDegreesPerSample` a stretch, within
    ///   `samplesPerPiece` and `sampleBudget`; where compositing bends the ratio doubled and each
    ///   counted as twice `refinementSteps` (+ 1), otherwise 10 units each (1 in sRGB: only each
    ///   stretch's best is polished; a repeating conic gradient of 64 stops measured at 3.8 ms, a
    ///   repeating sRGB one at 0.1 ms);
    /// - solved: the scan, 6 colors plus one per 15° of hue a stretch (`ScannedLightPath`), each
    ///   1 to 10 units by space with its root steps (64 stops each turning 350°: about 1 ms in
    ///   oklch, 5 ms in hsl).
    ///
    /// - Parameters:
    ///   - gradient: the parsed gradient (at most `CSSGradient.maximumStops` stops).
    ///   - textIsOpaque: whether the text measured on it is opaque (translucent text is searched).
    /// - Returns: units `≥ 1`, at most about `sampleBudget × 2 × (refinementSteps + 1)`.
    public static func estimatedCost(of gradient: CSSGradient, textIsOpaque: Bool) -> Int {
        let stops = gradient.stops
        guard stops.count >= 2 else { return 1 }
        // Translucent stops or text bend the ratio (compositing): searched, every sample polished.
        let bent = !textIsOpaque || stops.contains { !($0.color.alpha >= 1) }
        let searched = gradient.repeating || bent
        let inSRGB = gradient.isSRGBInsideGamut
        let (solved, samples) = scanAndSamples(of: gradient)
        guard searched else { return solved }
        // Where compositing bends the ratio every sample is polished, and samples that tie
        // (a flat stretch under translucent text) each take the polishing's full steps: 28 ms a
        // measurement on 64 equal stops.
        let even = Swift.min(sampleBudget, samples * (bent ? 2 : 1))
        return Swift.max(1, even * (bent ? 2 * (refinementSteps + 1) : inSRGB ? 1 : 10))
    }
}

extension GradientContrast {
    /// What preparing `gradient` for opaque text costs (`Prepared.init`), in `estimatedCost`
    /// units: its walk, which stops at once for a repeating gradient and at the first stretch
    /// with a translucent stop, so at most the solved scan of its stretches (a hostile pass: one
    /// opaque color on 16 gradients of translucent stops was refused at "about 2 s", counted as
    /// two searched measurements, where a translucent color, one, was measured in 0.25–0.55 s).
    public static func estimatedPreparingCost(of gradient: CSSGradient) -> Int {
        guard gradient.stops.count >= 2, !gradient.repeating else { return 1 }
        return scanAndSamples(of: gradient).solved
    }

    /// The solved scan's cost (`ScannedLightPath`'s colors by space; see `estimatedCost`) and
    /// the general search's even samples, over every stretch of `gradient` (at least 2 stops).
    static func scanAndSamples(of gradient: CSSGradient) -> (solved: Int, samples: Int) {
        let stops = gradient.stops
        // Units per scanned color by space, from a hostile pass's timings of 1,024-cell matrices:
        // oklch 0.64 µs, hsl 2.6 µs, sRGB with stops outside it 3.9 µs (cut at every transfer
        // threshold and clipping corner).
        let perColor: Double
        switch gradient.space {
        case .srgb: perColor = gradient.isSRGBInsideGamut ? 1 : 10
        case .oklab, .srgbLinear, .displayP3Linear, .xyz, .xyzD65, .xyzD50: perColor = 1.5
        case .oklch, .lch, .lab: perColor = 2
        case .hsl, .hwb: perColor = 6.5
        case .displayP3, .a98RGB, .prophotoRGB, .rec2020: perColor = 10
        }
        var scanned = 0, samples = 0
        for i in 0..<(stops.count - 1) {
            let pair = ColorInterpolation.Pair(stops[i].color, stops[i + 1].color, in: gradient.space, hue: gradient.hue)
            let turn = Swift.min(pair.hueTravel, 360)
            scanned += scannedColors(turning: turn)
            let extra = Int((turn / hueDegreesPerSample).rounded(.up))
            samples += Swift.min(samplesPerPiece.upperBound, Swift.max(samplesPerPiece.lowerBound, baseSamplesPerPiece + extra))
        }
        return (Swift.max(1, Int(Double(scanned) * perColor)), samples)
    }
}

extension GradientContrast.Prepared {
    /// An upper estimate of the work measuring one opaque text color on the prepared gradient
    /// costs, in `GradientContrast.estimatedCost` units: on a plan, three quarters of a unit per
    /// color it holds (a WCAG ratio and an APCA Lc each), 8 per light path and 2 per straight
    /// sRGB stretch for the text's crossings (root steps on the path); unplanned, a whole
    /// measurement (`estimatedCost(of:textIsOpaque:)`). Calibrated on matrices of 64 colors on
    /// 16 gradients of 64 HSL stops turning the long way: 1,622 colors a plan, estimated 0.77 s
    /// with preparing, measured 0.76 s; 672 colors, 0.47 s against 0.40 s (docs/performance.md).
    public var estimatedCostPerText: Int {
        guard let plan else { return GradientContrast.estimatedCost(of: gradient, textIsOpaque: true) }
        var quarters = 4 + 3 * plan.colorCount
        for step in plan.steps {
            switch step {
            case .flat: break
            case .straight: quarters += 8
            case .light: quarters += 32
            }
        }
        return quarters / 4
    }
}
