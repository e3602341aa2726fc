import Foundation

extension GradientContrast {
    /// An upper estimate of the work one measurement of `gradient` costs, in units of about one
    /// evaluated gradient color of the search (about 0.4 µs on a 2-core 2026 machine: a hostile
    /// matrix of 1,024 searched measurements at about 41,000 colors each took 15.8 s), before
    /// paying it, so that a request of many measurements can be refused up front:
    /// - searched (repeating, translucent stops or text): the even samples,
    ///   `baseSamplesPerPiece` plus one per `hueDegreesPerSample` a stretch, within
    ///   `samplesPerPiece` and `sampleBudget`; where compositing bends the ratio doubled and each
    ///   polished by up to `refinementSteps` (+ 1), otherwise 10 units each (only each stretch's
    ///   best is polished; a repeating conic gradient of 64 stops measured at 3.8 ms);
    /// - solved: the scan, 6 colors plus one per 15° of hue a stretch (`ScannedLightPath`), each
    ///   about 1.5 units with its root steps (64 stops each turning 350° of oklch: about 1 ms).
    ///
    /// - Parameters:
    ///   - gradient: the parsed gradient (at most `CSSGradient.maximumStops` stops).
    ///   - textIsOpaque: whether the text measured on it is opaque (translucent text is searched).
    /// - Returns: units `≥ 1`, at most about `sampleBudget × 2 × (refinementSteps + 1)`.
    public static func estimatedCost(of gradient: CSSGradient, textIsOpaque: Bool) -> Int {
        let stops = gradient.stops
        guard stops.count >= 2 else { return 1 }
        let searched = gradient.repeating || !textIsOpaque || stops.contains { !($0.color.alpha >= 1) }
        var scanned = 0, samples = 0
        for i in 0..<(stops.count - 1) {
            let pair = ColorInterpolation.Pair(stops[i].color, stops[i + 1].color, in: gradient.space, hue: gradient.hue)
            let turn = Swift.min(pair.hueTravel, 360)
            scanned += Swift.min(64, 6 + Int((turn / 15).rounded(.up)))
            let extra = Int((turn / hueDegreesPerSample).rounded(.up))
            samples += Swift.min(samplesPerPiece.upperBound, Swift.max(samplesPerPiece.lowerBound, baseSamplesPerPiece + extra))
        }
        guard searched else { return Swift.max(1, scanned * 3 / 2) }
        let bent = !textIsOpaque || stops.contains { !($0.color.alpha >= 1) }
        let even = Swift.min(sampleBudget, samples * (bent ? 2 : 1))
        return Swift.max(1, even * (bent ? refinementSteps + 1 : 10))
    }
}
