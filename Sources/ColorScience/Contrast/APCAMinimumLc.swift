// The inverse of APCA's font lookup: the smallest Lc at which a text size and weight are usable.
//
// Source: apca-w3 0.1.9 `fontLookupAPCA` (APCAFontLookup.swift), APCA 0.0.98G-4g.

/// The inverse of APCA's font lookup: the smallest Lc at which a size and weight are usable.
public enum APCAMinimumLc {
    /// Lc resolution of the answer (the grid is i / 10).
    public static let step = 0.1
    /// Highest Lc searched (the lookup's last row).
    static let maxLc = 125.0

    /// Minimum px of each lookup weight (100…900) at Lc 0, 0.1, …, 125; infinity where the
    /// weight is not usable for text. Computed once (about 11 000 values).
    static let grid: [[Double]] = {
        let count = Int((maxLc / step).rounded()) + 1
        var columns = [[Double]](repeating: [Double](repeating: .infinity, count: count), count: 9)
        for i in 0..<count {
            let row = APCAFontLookup.lookupRow(lc: Double(i) / 10)
            for w in 0..<9 { columns[w][i] = row[w].minimumPx ?? .infinity }
        }
        return columns
    }()

    /// The largest |Lc| any pair of sRGB colors reaches: white text on black, about 107.9
    /// (black on white gives 106.0). The lookup's rows go on to Lc 125.
    public static let largestReachableLc = abs(APCA.lc(text: SIMD3(repeating: 1), background: SIMD3(repeating: 0)))

    /// The smallest |Lc| (multiple of 0.1) from which text of `px` CSS px at `weight` (100…900,
    /// other weights round to the nearest hundred) is allowed by APCA's font lookup at every
    /// higher Lc; nil when it never is, when that Lc is above what any colors reach
    /// (``largestReachableLc``: 16 px at weight 300 needs Lc 125), or for non-finite or
    /// non-positive `px`.
    public static func minimumLc(px: Double, weight: Int) -> Double? {
        guard px.isFinite, px > 0 else { return nil }
        let column = min(max((weight + 50) / 100, 1), 9) - 1
        let sizes = grid[column]
        var i = sizes.count - 1
        guard sizes[i] <= px + 1e-9 else { return nil }
        while i > 0 && sizes[i - 1] <= px + 1e-9 { i -= 1 }
        let lc = Double(i) / 10  // = i × step, without the binary error of 0.1 × i
        return lc <= largestReachableLc ? lc : nil
    }
}
