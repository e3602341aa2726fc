// APCA font-size lookup and use-based levels.
//
// Source: the lookup tables and interpolation of apca-w3 0.1.9 `fontLookupAPCA()`
// ("fontLookupAPCA 0.1.7 (G)", Public Beta, May 28 2022, © Myndex Research / Andrew Somers,
// https://github.com/Myndex/apca-w3, src/apca-w3.js), re-implemented here operation for operation
// so the results are identical for every finite Lc. The use-based levels are the "Use-Case & Size
// Ranges" of "APCA in a Nutshell" (apca-w3 docs/APCA_in_a_Nutshell.md).

/// The minimum font size APCA's lookup table asks for at one font weight.
///
/// apca-w3 encodes the two non-size outcomes as magic numbers; `apcaW3Value` gives them back.
public enum FontSizeRequirement: Sendable, Equatable, Hashable {
    /// Text of this weight is usable at this size in CSS px (reference font Helvetica/Arial,
    /// x-height ratio 0.5) or larger.
    case minimumPx(Double)
    /// apca-w3 `777`: not usable for text at this weight; at most non-text or "spot" elements.
    case notUsable
    /// apca-w3 `999`: contrast too low for anything ("prohibited").
    case prohibited

    /// The value apca-w3 returns for this requirement: the size in px, `777` or `999`.
    public var apcaW3Value: Double {
        switch self {
        case .minimumPx(let px): return px
        case .notUsable: return 777
        case .prohibited: return 999
        }
    }

    /// The size in CSS px, or nil for `notUsable` and `prohibited`.
    public var minimumPx: Double? {
        if case .minimumPx(let px) = self { return px }
        return nil
    }
}

/// APCA's font-size lookup: the smallest font size (CSS px) each weight 100...900 needs at an
/// Lc contrast, exactly as apca-w3 0.1.9 `fontLookupAPCA(lc)` computes it.
///
/// The table has one row per Lc 0, 10, 15, 20, …, 125; between rows the size is interpolated
/// downwards from the lower row with the published per-row deltas, in whole px for sizes above
/// 24 px (`Math.round`) and in 0.5 px steps (floor) for sizes of 24 px and below. Below Lc 15
/// every weight is `prohibited`; from Lc 15 to below Lc 29.5 every weight is `notUsable`.
/// Polarity is ignored (`|lc|` is used), as in apca-w3.
///
/// Deliberate differences from apca-w3, only outside its meaningful domain:
/// - `0 < |lc| < 5`: apca-w3 reads its header row (the weights themselves) and returns sizes
///   500…900 px for weights 500…900; here every weight is `prohibited`, like `lc == 0`.
/// - `|lc| >= 130`: apca-w3 throws (row index past the table); here the Lc 125 row applies.
///   (Real colours stay below about Lc 108.)
/// - NaN: every weight is `prohibited`.
public enum APCAFontLookup {
    /// The algorithm this mirrors.
    public static let source = "apca-w3 0.1.9 fontLookupAPCA 0.1.7 (G), 2022-05-28"

    /// The font weights the table covers, in table order.
    public static let weights: [Int] = [100, 200, 300, 400, 500, 600, 700, 800, 900]

    /// Minimum font size in CSS px for text of `weight` at contrast `lc`.
    ///
    /// - Parameters:
    ///   - lc: APCA Lc, signed or unsigned (polarity is ignored), typically `-108...106`.
    ///   - weight: a CSS font weight in `weights` (100, 200, …, 900).
    /// - Returns: the size in px; nil when the weight may not be used for text at this contrast
    ///   (`notUsable`/`prohibited`) and also when `weight` is not one of `weights` — use
    ///   `requirement(lc:weight:)` to tell these apart.
    public static func minimumFontSizePx(lc: Double, weight: Int) -> Double? {
        requirement(lc: lc, weight: weight)?.minimumPx
    }

    /// The requirement for `weight` at contrast `lc`, or nil when `weight` is not one of `weights`.
    public static func requirement(lc: Double, weight: Int) -> FontSizeRequirement? {
        guard let column = weights.firstIndex(of: weight) else { return nil }
        return lookupRow(lc: lc)[column]
    }

    /// Requirements for the nine weights of `weights` (100...900, in that order) at contrast
    /// `lc`, from one table lookup: `requirements(lc:)[i] == requirement(lc:weight: weights[i])`.
    public static func requirements(lc: Double) -> [FontSizeRequirement] {
        lookupRow(lc: lc)
    }

    /// Requirements for all nine weights at contrast `lc`, keyed by weight (100...900).
    public static func table(lc: Double) -> [Int: FontSizeRequirement] {
        let row = lookupRow(lc: lc)
        var result: [Int: FontSizeRequirement] = [:]
        for (column, weight) in weights.enumerated() { result[weight] = row[column] }
        return result
    }

    /// The nine values apca-w3 returns after its first element (the formatted Lc): sizes in px
    /// for weights 100...900, with `777` = not usable and `999` = prohibited.
    public static func apcaW3Values(lc: Double) -> [Double] {
        lookupRow(lc: lc).map(\.apcaW3Value)
    }

    /// The interpolation of apca-w3 `fontLookupAPCA`, step for step.
    static func lookupRow(lc: Double) -> [FontSizeRequirement] {
        let contrast = abs(lc)
        // apca-w3: `index = (contrast == 0) ? 1 : (contrast * 0.2) | 0`. Rows 1… are Lc 0, 10, 15, …
        // Index 0 (0 < Lc < 5) is the header row there (see the type's notes): treat as Lc 0.
        guard !contrast.isNaN else { return Array(repeating: .prohibited, count: 9) }
        let factor = 0.2
        let scaled = contrast * factor
        var index = contrast == 0 ? 1 : (scaled >= 26 ? 26 : Int(scaled))
        if index == 0 { index = 1 }
        if index > 25 { index = 25 }  // apca-w3 throws here; use the Lc 125 row.
        let row = fontMatrix[index - 1]
        let delta = fontDelta[index - 1]
        // `scoreAdj` in apca-w3; for |lc| beyond 130 it would extrapolate, so pin it to the row.
        let scoreAdj = contrast >= 130 ? 0 : (contrast - row.lc) * factor

        return (0..<9).map { w -> FontSizeRequirement in
            let tempFont = row.sizes[w]
            if tempFont > 400 {
                return tempFont == 999 ? .prohibited : .notUsable
            } else if contrast < 14.5 {
                return .prohibited
            } else if contrast < 29.5 {
                return .notUsable
            } else if tempFont > 24 {
                return .minimumPx(jsRound(tempFont - (delta[w] * scoreAdj)))
            } else {
                // `(n | 0)` truncates toward zero; n >= 0 here.
                return .minimumPx(tempFont - (2.0 * delta[w] * scoreAdj).rounded(.towardZero) * 0.5)
            }
        }
    }

    /// JavaScript `Math.round` for non-negative finite values: nearest integer, halves upwards.
    static func jsRound(_ x: Double) -> Double {
        let floor = x.rounded(.down)
        return x - floor >= 0.5 ? floor + 1 : floor
    }

    /// apca-w3 `fontMatrixAscend` without its header row: Lc, then minimum px for weights
    /// 100...900 (777 = non-text only, 999 = prohibited).
    static let fontMatrix: [(lc: Double, sizes: [Double])] = [
        (0, [999, 999, 999, 999, 999, 999, 999, 999, 999]),
        (10, [999, 999, 999, 999, 999, 999, 999, 999, 999]),
        (15, [777, 777, 777, 777, 777, 777, 777, 777, 777]),
        (20, [777, 777, 777, 777, 777, 777, 777, 777, 777]),
        (25, [777, 777, 777, 120, 120, 108, 96, 96, 96]),
        (30, [777, 777, 120, 108, 108, 96, 72, 72, 72]),
        (35, [777, 120, 108, 96, 72, 60, 48, 48, 48]),
        (40, [120, 108, 96, 60, 48, 42, 32, 32, 32]),
        (45, [108, 96, 72, 42, 32, 28, 24, 24, 24]),
        (50, [96, 72, 60, 32, 28, 24, 21, 21, 21]),
        (55, [80, 60, 48, 28, 24, 21, 18, 18, 18]),
        (60, [72, 48, 42, 24, 21, 18, 16, 16, 18]),
        (65, [68, 46, 32, 21.75, 19, 17, 15, 16, 18]),
        (70, [64, 44, 28, 19.5, 18, 16, 14.5, 16, 18]),
        (75, [60, 42, 24, 18, 16, 15, 14, 16, 18]),
        (80, [56, 38.25, 23, 17.25, 15.81, 14.81, 14, 16, 18]),
        (85, [52, 34.5, 22, 16.5, 15.625, 14.625, 14, 16, 18]),
        (90, [48, 32, 21, 16, 15.5, 14.5, 14, 16, 18]),
        (95, [45, 28, 19.5, 15.5, 15, 14, 13.5, 16, 18]),
        (100, [42, 26.5, 18.5, 15, 14.5, 13.5, 13, 16, 18]),
        (105, [39, 25, 18, 14.5, 14, 13, 12, 16, 18]),
        (110, [36, 24, 18, 14, 13, 12, 11, 16, 18]),
        (115, [34.5, 22.5, 17.25, 12.5, 11.875, 11.25, 10.625, 14.5, 16.5]),
        (120, [33, 21, 16.5, 11, 10.75, 10.5, 10.25, 13, 15]),
        (125, [32, 20, 16, 10, 10, 10, 10, 12, 14]),
    ]

    /// apca-w3 `fontDeltaAscend` without its header and Lc columns: how much each size shrinks
    /// per 5 Lc above the row (the published values, not recomputed: a few differ from the
    /// row differences, e.g. 0.188 at Lc 75/80).
    static let fontDelta: [[Double]] = [
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 12, 12, 12, 24, 24, 24],
        [0, 0, 12, 12, 36, 36, 24, 24, 24],
        [0, 12, 12, 36, 24, 18, 16, 16, 16],
        [12, 12, 24, 18, 16, 14, 8, 8, 8],
        [12, 24, 12, 10, 4, 4, 3, 3, 3],
        [16, 12, 12, 4, 4, 3, 3, 3, 3],
        [8, 12, 6, 4, 3, 3, 2, 2, 0],
        [4, 2, 10, 2.25, 2, 1, 1, 0, 0],
        [4, 2, 4, 2.25, 1, 1, 0.5, 0, 0],
        [4, 2, 4, 1.5, 2, 1, 0.5, 0, 0],
        [4, 3.75, 1, 0.75, 0.188, 0.188, 0, 0, 0],
        [4, 3.75, 1, 0.75, 0.188, 0.188, 0, 0, 0],
        [4, 2.5, 1, 0.5, 0.125, 0.125, 0, 0, 0],
        [3, 4, 1.5, 0.5, 0.5, 0.5, 0.5, 0, 0],
        [3, 1.5, 1, 0.5, 0.5, 0.5, 0.5, 0, 0],
        [3, 1.5, 0.5, 0.5, 0.5, 0.5, 1, 0, 0],
        [3, 1, 0, 0.5, 1, 1, 1, 0, 0],
        [1.5, 1.5, 0.75, 1.5, 1.125, 0.75, 0.375, 1.5, 1.5],
        [1.5, 1.5, 0.75, 1.5, 1.125, 0.75, 0.375, 1.5, 1.5],
        [1, 1, 0.5, 1, 0.75, 0.5, 0.25, 1, 1],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
}

/// APCA's use-based contrast levels ("APCA in a Nutshell", Use-Case & Size Ranges), each the
/// minimum |Lc| for its use. Raw values are that minimum Lc.
///
/// These are the basic minimums ("what you might think of as AA"); APCA suggests adding Lc 15
/// for an enhanced ("AAA"-like) level. Below Lc 15 treat content as invisible.
public enum APCALevel: Int, Sendable, CaseIterable, Comparable, Hashable {
    /// Lc 15: absolute minimum for discernible non-text (dividers, thick focus outlines, ≥ 6 px).
    case nonText = 15
    /// Lc 30: absolute minimum for any text (placeholder, disabled, copyright), solid icons.
    case anyText = 30
    /// Lc 45: minimum for large or heavy text (≥ 36 px normal or 24 px bold), fine pictograms.
    case largeOrHeavyText = 45
    /// Lc 60: minimum for content text that is not body text (≥ 24 px/400, 16 px/700).
    case otherText = 60
    /// Lc 75: minimum for body text (≥ 18 px/400, 16 px/500, 14 px/700).
    case minimumBodyText = 75
    /// Lc 90: preferred for body text (≥ 14 px/400).
    case preferredBodyText = 90

    /// The minimum |Lc| of this level.
    public var minimumLc: Double { Double(rawValue) }

    /// The highest level whose minimum `|lc|` reaches, or nil below Lc 15 (and for NaN).
    ///
    /// - Parameter lc: APCA Lc, signed or unsigned; polarity is ignored.
    public static func level(for lc: Double) -> APCALevel? {
        let magnitude = abs(lc)
        return allCases.last { magnitude >= $0.minimumLc }
    }

    /// Orders levels by their minimum Lc (`nonText` lowest).
    public static func < (lhs: APCALevel, rhs: APCALevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
