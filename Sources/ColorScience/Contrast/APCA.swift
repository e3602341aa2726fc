import Foundation

/// APCA (Accessible Perceptual Contrast Algorithm) lightness contrast Lc, version 0.0.98G-4g,
/// as published in apca-w3 0.1.9 (`APCAcontrast`, `sRGBtoY`, `alphaBlend`).
///
/// APCA is informational here: it is not part of WCAG 2.x, and its thresholds are a draft
/// (WCAG 3 working draft). Lc is signed: positive for dark text on a light background,
/// negative for light text on a dark background; range about `-108...106`.
public enum APCA {
    /// The version string of the constants below.
    public static let version = "0.0.98G-4g"

    // 0.0.98G-4g constants.
    @usableFromInline static let mainTRC = 2.4
    @usableFromInline static let sRco = 0.2126729, sGco = 0.7151522, sBco = 0.0721750
    static let normBG = 0.56, normTXT = 0.57, revTXT = 0.62, revBG = 0.65
    static let blkThrs = 0.022, blkClmp = 1.414
    static let scaleBoW = 1.14, scaleWoB = 1.14
    static let loBoWoffset = 0.027, loWoBoffset = 0.027
    static let deltaYmin = 0.0005, loClip = 0.1

    /// APCA screen luminance Ys `0...1` of gamma-encoded sRGB channels `0...1` (simple 2.4
    /// exponent, APCA coefficients). Channels are clamped to `0...1`.
    @inlinable
    public static func screenLuminance(_ srgb: SIMD3<Double>) -> Double {
        let c = srgb.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
        return sRco * channelPower(c.x) + sGco * channelPower(c.y) + sBco * channelPower(c.z)
    }

    /// `c^2.4` (`mainTRC`); an 8-bit level is read from a table of the same values.
    @inlinable
    static func channelPower(_ c: Double) -> Double {
        if let level = EightBitLevel.index(of: c) { return powered8Bit[level] }
        return pow(c, mainTRC)
    }

    /// `pow(k/255, mainTRC)` for k = 0...255.
    @usableFromInline static let powered8Bit: [Double] = EightBitLevel.values.map { pow($0, mainTRC) }

    /// Lc `-108...106` from text and background screen luminances `0...1.1`; 0 for invalid
    /// input, for luminances closer than 0.0005, and for |SAPC| below the 0.1 low clip.
    public static func lc(textY: Double, backgroundY: Double) -> Double {
        // SAPC's sign is the polarity: they can disagree only for luminances near or above 1,
        // and there |SAPC| is below 0.004 (scanned over 0.9...1.1), far below both 0.1 clips, so
        // either clip gives 0.
        let s = sapc(textY: textY, backgroundY: backgroundY)
        return s > 0 ? lc(blackOnWhiteSAPC: s) : lc(whiteOnBlackSAPC: s)
    }

    /// The signed contrast before APCA's low clip and offset (SAPC, about `-1.25...1.14`;
    /// positive for a lighter background) from text and background screen luminances
    /// `0...1.1`: 0 for invalid input and for luminances closer than 0.0005. `|Lc|` rises with
    /// `|SAPC|` (`lc(sapc:)`) but is 0 below the clip, so a search for the strongest or weakest
    /// Lc follows this continuous value instead.
    @inline(__always)
    public static func sapc(textY: Double, backgroundY: Double) -> Double {
        guard isValid(textY), isValid(backgroundY) else { return 0 }
        let txt = softClamped(textY), bg = softClamped(backgroundY)
        if abs(bg - txt) < deltaYmin { return 0 }
        return bg > txt ? sapc(blackOnWhite: pow(bg, normBG), pow(txt, normTXT))
                        : sapc(whiteOnBlack: pow(bg, revBG), pow(txt, revTXT))
    }

    /// A text's screen luminance prepared for many backgrounds (a gradient's colors): the
    /// black-level soft clamp and the two powers SAPC raises text to, taken once.
    struct PreparedText {
        let isValid: Bool
        /// The soft-clamped luminance.
        let y: Double
        let normTXT: Double, revTXT: Double

        /// - Parameter screenLuminance: Ys `0...1.1`; anything else (or NaN) gives SAPC 0 on every background.
        init(_ screenLuminance: Double) {
            isValid = APCA.isValid(screenLuminance)
            y = isValid ? APCA.softClamped(screenLuminance) : 0
            normTXT = pow(y, APCA.normTXT)
            revTXT = pow(y, APCA.revTXT)
        }
    }

    /// `sapc(textY:backgroundY:)` for prepared text, bit for bit.
    static func sapc(text: PreparedText, backgroundY: Double) -> Double {
        guard text.isValid, isValid(backgroundY) else { return 0 }
        let bg = softClamped(backgroundY)
        if abs(bg - text.y) < deltaYmin { return 0 }
        return bg > text.y ? sapc(blackOnWhite: pow(bg, normBG), text.normTXT)
                           : sapc(whiteOnBlack: pow(bg, revBG), text.revTXT)
    }

    /// Lc `-108...106` from `sapc(textY:backgroundY:)`: the low clip and offset, so that
    /// `lc(sapc: sapc(textY: t, backgroundY: b)) == lc(textY: t, backgroundY: b)` bit for bit.
    public static func lc(sapc: Double) -> Double {
        guard sapc.isFinite else { return 0 }
        return sapc > 0 ? lc(blackOnWhiteSAPC: sapc) : lc(whiteOnBlackSAPC: sapc)
    }

    /// A screen luminance prepared for many Lc values (a contrast matrix): the black-level soft
    /// clamp and the four powers APCA may raise it to, computed once instead of per pair.
    /// `lc(text:background:)` on two of them equals `lc(textY:backgroundY:)` bit for bit.
    public struct PreparedLuminance: Sendable {
        let isValid: Bool
        /// The soft-clamped luminance.
        let y: Double
        let normBG: Double, normTXT: Double, revBG: Double, revTXT: Double

        /// - Parameter screenLuminance: Ys `0...1.1`; anything else (or NaN) gives Lc 0 in every pair.
        public init(_ screenLuminance: Double) {
            isValid = APCA.isValid(screenLuminance)
            y = isValid ? APCA.softClamped(screenLuminance) : 0
            normBG = pow(y, APCA.normBG)
            normTXT = pow(y, APCA.normTXT)
            revBG = pow(y, APCA.revBG)
            revTXT = pow(y, APCA.revTXT)
        }
    }

    /// Lc `-108...106` of prepared text and background luminances (see `lc(textY:backgroundY:)`).
    public static func lc(text: PreparedLuminance, background: PreparedLuminance) -> Double {
        guard text.isValid, background.isValid else { return 0 }
        if abs(background.y - text.y) < deltaYmin { return 0 }
        return background.y > text.y ? lc(blackOnWhite: background.normBG, text.normTXT)
                                     : lc(whiteOnBlack: background.revBG, text.revTXT)
    }

    @inline(__always) static func isValid(_ y: Double) -> Bool { y.isFinite && (0...1.1).contains(y) }

    /// The soft clamp of luminances below the black threshold (`blkThrs`, `blkClmp`).
    @inline(__always) static func softClamped(_ y: Double) -> Double {
        y > blkThrs ? y : y + pow(blkThrs - y, blkClmp)
    }

    /// Normal polarity (background lighter): `bg^0.56 - txt^0.57`, scaled, clipped, offset.
    @inline(__always) static func lc(blackOnWhite bgPower: Double, _ txtPower: Double) -> Double {
        lc(blackOnWhiteSAPC: sapc(blackOnWhite: bgPower, txtPower))
    }

    /// Reverse polarity (text lighter): `bg^0.65 - txt^0.62`, scaled, clipped, offset.
    @inline(__always) static func lc(whiteOnBlack bgPower: Double, _ txtPower: Double) -> Double {
        lc(whiteOnBlackSAPC: sapc(whiteOnBlack: bgPower, txtPower))
    }

    /// Normal polarity's SAPC: `bg^0.56 - txt^0.57` (the powers given), scaled.
    @inline(__always) static func sapc(blackOnWhite bgPower: Double, _ txtPower: Double) -> Double {
        (bgPower - txtPower) * scaleBoW
    }

    /// Reverse polarity's SAPC: `bg^0.65 - txt^0.62` (the powers given), scaled.
    @inline(__always) static func sapc(whiteOnBlack bgPower: Double, _ txtPower: Double) -> Double {
        (bgPower - txtPower) * scaleWoB
    }

    /// Normal polarity's low clip and offset, as Lc.
    @inline(__always) static func lc(blackOnWhiteSAPC sapc: Double) -> Double {
        (sapc < loClip ? 0 : sapc - loBoWoffset) * 100 + 0  // + 0 turns -0 into 0
    }

    /// Reverse polarity's low clip and offset, as Lc.
    @inline(__always) static func lc(whiteOnBlackSAPC sapc: Double) -> Double {
        (sapc > -loClip ? 0 : sapc + loWoBoffset) * 100 + 0
    }

    /// Lc of opaque text on an opaque background, both gamma-encoded sRGB `0...1`.
    public static func lc(text: SIMD3<Double>, background: SIMD3<Double>) -> Double {
        lc(textY: screenLuminance(text), backgroundY: screenLuminance(background))
    }

    /// Lc of possibly translucent text over an opaque background, as apca-w3 `calcAPCA` does:
    /// translucent text is first alpha-blended over the background in gamma-encoded sRGB and each
    /// channel rounded to 8 bits (apca-w3 `alphaBlend(…, round = true)`).
    /// - Parameters:
    ///   - text: gamma-encoded sRGB `0...1`; `textAlpha` straight alpha `0...1`.
    ///   - background: opaque gamma-encoded sRGB `0...1`.
    public static func lc(text: SIMD3<Double>, textAlpha: Double, background: SIMD3<Double>) -> Double {
        lc(textY: textScreenLuminance(text, alpha: textAlpha, over: background), backgroundY: screenLuminance(background))
    }

    /// The screen luminance Ys `lc(text:textAlpha:background:)` takes for the text: of `text`
    /// when opaque, else of its alpha blend over `background` with each channel rounded to 8 bits
    /// (apca-w3 `alphaBlend(…, round = true)`).
    public static func textScreenLuminance(_ text: SIMD3<Double>, alpha: Double, over background: SIMD3<Double>) -> Double {
        guard alpha < 1 else { return screenLuminance(text) }
        let a = min(max(alpha, 0), 1)
        let bg255 = background * 255, fg255 = text * 255
        var blended = bg255 * (1 - a) + fg255 * a
        blended = SIMD3(min(blended.x.rounded(.toNearestOrAwayFromZero), 255),
                        min(blended.y.rounded(.toNearestOrAwayFromZero), 255),
                        min(blended.z.rounded(.toNearestOrAwayFromZero), 255))
        return screenLuminance(blended / 255)
    }

    /// |Lc| as a report shows it: floored to tenths, so that a shown number never reaches a
    /// minimum the measurement misses (`74.997 → "74.9"`, `-60.04 → "60"`, as
    /// `WCAG.ratioText` floors ratios); `lc` any finite Lc (`-108...106`), 0 for a non-finite one.
    public static func magnitudeText(_ lc: Double) -> String {
        let tenths = lc.isFinite ? (abs(lc) * 10).rounded(.down) : 0
        return ColorFormatting.number(tenths / 10, decimals: 1)
    }

    /// Screen luminance Ys `0...1` of a gamma-encoded Display P3 color `0...1` (clamped), as
    /// apca-w3 0.1.9 `displayP3toY` takes it: each channel to the 2.4 power, weighted by Display
    /// P3's luminance row (0.2289829594805780, 0.6917492625852380, 0.0792677779341829).
    public static func screenLuminance(displayP3 p3: SIMD3<Double>) -> Double {
        func g(_ c: Double) -> Double { pow(Swift.min(Swift.max(c.isFinite ? c : 0, 0), 1), mainTRC) }
        return 0.2289829594805780 * g(p3.x) + 0.6917492625852380 * g(p3.y) + 0.0792677779341829 * g(p3.z)
    }
}
