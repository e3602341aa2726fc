import ColorScience

/// Luminance and near-white measurements of an image as it shows on a background: every
/// pixel's WCAG 2.x relative luminance `0...1` (sRGB, D65), after translucent pixels were
/// composited over the background.
///
/// Definitions (chosen here, stated in docs/algorithms/image-dim.md, "Measurements"):
/// - near-white: every sRGB channel ≥ 230 of 255 (0.902), which takes in off-white paper and
///   UI grays such as `#F2F2F7` and JPEG noise around white, and leaves out tinted colors;
/// - border band: the outer `max(1, round(2% of the shorter side))` pixels on all four edges.
public struct LuminanceStatistics: Sendable, Equatable {
    /// Pixels measured (`width × height`).
    public var pixelCount: Int
    /// Mean relative luminance `0...1`.
    public var meanLuminance: Double
    /// Median relative luminance `0...1` (from a 1000-bin histogram: ±0.0005; never outside the
    /// darkest and the brightest pixel's luminance).
    public var medianLuminance: Double
    /// 99th-percentile relative luminance `0...1` (same histogram): the "peak" without outliers.
    public var percentile99Luminance: Double
    /// Highest relative luminance `0...1` of any pixel.
    public var peakLuminance: Double
    /// Share `0...1` of all pixels that are near-white.
    public var nearWhiteShare: Double
    /// Width in pixels of the border band.
    public var borderWidth: Int
    /// Share `0...1` of the border band's pixels that are near-white.
    public var borderNearWhiteShare: Double
    /// Mean relative luminance of the near-white pixels of the border band (or, when the band
    /// has none, of all near-white pixels); nil when the image has no near-white pixel.
    public var whiteLevel: Double?

    /// Statistics from known values (tests, or measurements made elsewhere).
    public init(pixelCount: Int, meanLuminance: Double, medianLuminance: Double, percentile99Luminance: Double,
                peakLuminance: Double, nearWhiteShare: Double, borderWidth: Int, borderNearWhiteShare: Double,
                whiteLevel: Double?) {
        self.pixelCount = pixelCount
        self.meanLuminance = meanLuminance
        self.medianLuminance = medianLuminance
        self.percentile99Luminance = percentile99Luminance
        self.peakLuminance = peakLuminance
        self.nearWhiteShare = nearWhiteShare
        self.borderWidth = borderWidth
        self.borderNearWhiteShare = borderNearWhiteShare
        self.whiteLevel = whiteLevel
    }

    /// Lowest value of every sRGB channel (0–255) for a pixel to count as near-white.
    public static let nearWhiteMinimumChannel: UInt8 = 230
    /// Border band width as a share of the shorter side.
    public static let borderShare = 0.02

    /// The band width for an image of `width × height`: 2% of the shorter side, at least 1.
    public static func borderWidth(width: Int, height: Int) -> Int {
        let shorter = min(width, height)
        return max(1, min((shorter + 1) / 2, Int((Double(shorter) * borderShare).rounded())))
    }

    /// Measures opaque 8-bit sRGB pixels, 3 bytes each (R, G, B), rows top to bottom.
    /// - Precondition: `rgb.count == width * height * 3`, `width, height > 0`.
    public static func measure(rgb: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> LuminanceStatistics {
        precondition(width > 0 && height > 0 && rgb.count == width * height * 3)
        var linear = [Double](repeating: 0, count: 256)
        for v in 0..<256 { linear[v] = WCAG.linearize(Double(v) / 255) }
        let bins = 1000
        var histogram = [Int](repeating: 0, count: bins + 1)
        let band = borderWidth(width: width, height: height)
        var sum = 0.0, peak = 0.0, darkest = 1.0
        var nearWhite = 0, border = 0, borderWhite = 0
        var borderWhiteSum = 0.0, whiteSum = 0.0
        let threshold = nearWhiteMinimumChannel
        linear.withUnsafeBufferPointer { lin in
            histogram.withUnsafeMutableBufferPointer { hist in
                var i = 0
                for y in 0..<height {
                    let edgeRow = y < band || y >= height - band
                    for x in 0..<width {
                        let r = rgb[i], g = rgb[i + 1], b = rgb[i + 2]
                        i += 3
                        let lum = 0.2126 * lin[Int(r)] + 0.7152 * lin[Int(g)] + 0.0722 * lin[Int(b)]
                        sum += lum
                        if lum > peak { peak = lum }
                        if lum < darkest { darkest = lum }
                        hist[min(bins, Int(lum * Double(bins)))] += 1
                        let white = r >= threshold && g >= threshold && b >= threshold
                        if white {
                            nearWhite += 1
                            whiteSum += lum
                        }
                        if edgeRow || x < band || x >= width - band {
                            border += 1
                            if white {
                                borderWhite += 1
                                borderWhiteSum += lum
                            }
                        }
                    }
                }
            }
        }
        let count = width * height
        func percentile(_ p: Double) -> Double {
            let rank = Int((p * Double(count - 1)).rounded(.down))
            var seen = 0
            for (bin, n) in histogram.enumerated() {
                seen += n
                // The bin's center, kept within the luminances seen: a bin's center could lie
                // above the peak (a flat #202020 image had median 0.0145, peak 0.014444) or
                // above 0 for a black image.
                if seen > rank { return min(peak, max(darkest, (Double(bin) + 0.5) / Double(bins))) }
            }
            return 1
        }
        let whiteLevel: Double? = borderWhite > 0 ? borderWhiteSum / Double(borderWhite)
            : nearWhite > 0 ? whiteSum / Double(nearWhite) : nil
        return LuminanceStatistics(
            pixelCount: count,
            meanLuminance: sum / Double(count),
            medianLuminance: percentile(0.5),
            percentile99Luminance: percentile(0.99),
            peakLuminance: peak,
            nearWhiteShare: Double(nearWhite) / Double(count),
            borderWidth: band,
            borderNearWhiteShare: border > 0 ? Double(borderWhite) / Double(border) : 0,
            whiteLevel: whiteLevel)
    }

    /// `measure(rgb:width:height:)` over an array.
    public static func measure(rgb: [UInt8], width: Int, height: Int) -> LuminanceStatistics {
        rgb.withUnsafeBufferPointer { measure(rgb: $0, width: width, height: height) }
    }
}
