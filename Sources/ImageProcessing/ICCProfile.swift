import CVipsShim

/// ICC profile helpers over lcms2 (the library libvips uses for color management).
public enum ICCProfile {
    /// The profile's description tag ("Display P3", "sRGB IEC61966-2.1"), printable ASCII only,
    /// at most 120 characters; nil when absent or unreadable.
    public static func description(_ profile: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = profile.withUnsafeBytes { raw in
            cvips_icc_description(raw.baseAddress, raw.count, &buffer, buffer.count)
        }
        guard n > 0 else { return nil }
        let bytes = buffer.prefix(n).map { UInt8(bitPattern: $0) }.filter { $0 >= 0x20 && $0 < 0x7F }
        let text = String(decoding: bytes.prefix(120), as: UTF8.self).trimmingSpaces
        return text.isEmpty ? nil : text
    }

    /// Whether `profile` can describe the colors of an image with `channels` color channels
    /// (1 gray, 3 RGB, 4 CMYK): whole (its header's size is its own), an input, display, output or color-space profile (ICC.1:2022
    /// §7.2.5: not an abstract, device-link or named-color one) whose data color space (§7.2.6,
    /// header bytes 16–19) is `GRAY`, `RGB ` or `CMYK` to match. Browsers ignore a profile that
    /// does not, and so does libvips's transform (a hostile pass: an RGB JPEG carrying Pillow's
    /// `Lab identity built-in`, an abstract Lab profile, was said to be converted through it and
    /// was measured unconverted).
    public static func suits(_ profile: [UInt8], channels: Int) -> Bool {
        // The header's size (§7.2.2) is the profile's: a profile cut short or claiming more is
        // not one (a hostile pass: a JPEG's profile cut to 200 bytes was "converted" through,
        // and one claiming 10⁹ bytes kept and written back).
        guard profile.count >= 128 else { return false }
        let declared = profile[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard declared == profile.count else { return false }
        let signature = { (at: Int) in String(decoding: profile[at..<at + 4], as: UTF8.self) }
        guard ["scnr", "mntr", "prtr", "spac"].contains(signature(12)) else { return false }
        switch channels {
        case 1: return signature(16) == "GRAY"
        case 3: return signature(16) == "RGB "
        case 4: return signature(16) == "CMYK"
        default: return false
        }
    }

    /// Whether lcms2 can build a transform from `profile` to sRGB (relative colorimetric), as
    /// libvips's `icc_transform` must: false for a profile whose tags do not fit its header (a
    /// hostile pass: an RGB matrix/TRC profile relabelled GRAY on a gray image made the image
    /// a 400, where browsers ignore the profile).
    public static func convertsToSRGB(_ profile: [UInt8]) -> Bool {
        profile.withUnsafeBytes { raw in cvips_icc_converts_to_srgb(raw.baseAddress, raw.count) } == 1
    }

    /// The tone curves of a matrix/TRC RGB profile (3) or a gray-TRC profile (1), sampled at
    /// `codes` code values; nil for other kinds of profile (LUT-based, CMYK, Lab) or a profile
    /// lcms2 cannot parse.
    public static func toneCurves(_ profile: [UInt8], codes: Int) -> [ToneCurve]? {
        var out = [Float](repeating: 0, count: 3 * codes)
        let channels = profile.withUnsafeBytes { raw in
            cvips_icc_tone_curves(raw.baseAddress, raw.count, Int32(codes), &out)
        }
        guard channels == 1 || channels == 3 else { return nil }
        return (0..<Int(channels)).map { ToneCurve(samples: Array(out[$0 * codes..<($0 + 1) * codes])) }
    }

    /// CIE 1931 xy white point and primaries of Display P3 (SMPTE EG 432-1 primaries, D65
    /// white) with the sRGB tone curve, as Apple devices tag their photos.
    public static let displayP3Primaries: (white: [Double], primaries: [Double]) =
        ([0.3127, 0.3290], [0.680, 0.320, 0.265, 0.690, 0.150, 0.060])

    /// A matrix/TRC ICC profile (v4, sRGB tone curve) made by lcms2, e.g. Display P3 for tests
    /// and tools: `ICCProfile.make(white: displayP3Primaries.white, primaries: displayP3Primaries.primaries, description: "Display P3")`.
    ///
    /// The same arguments give the same bytes: lcms2 stamps the header with the time of saving,
    /// which is replaced by ``fixedCreationDate`` (a profile made on either side of a second's
    /// boundary had compared unequal).
    /// - Parameters:
    ///   - white: CIE 1931 x, y of the white point (2 values).
    ///   - primaries: CIE 1931 x, y of red, green and blue (6 values).
    /// - Returns: the profile's bytes; nil when the counts are wrong or lcms2 fails.
    public static func make(white: [Double], primaries: [Double], description: String) -> [UInt8]? {
        guard white.count == 2, primaries.count == 6 else { return nil }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_icc_make_rgb(white, primaries, description, &buffer, &length) == 0, let buffer else { return nil }
        defer { cvips_free(buffer) }
        var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        guard bytes.count >= 128 else { return nil }
        bytes.replaceSubrange(creationDateBytes, with: fixedCreationDate)
        return bytes
    }

    /// Where the header's creation date lies: six big-endian UInt16 (year, month, day, hours,
    /// minutes, seconds) at bytes 24–35 (ICC.1:2022 §7.2.1 and §4.2 dateTimeNumber).
    static let creationDateBytes = 24..<36

    /// The creation date ``make(white:primaries:description:)`` writes: 2026-01-01 00:00:00 UTC.
    public static let fixedCreationDate: [UInt8] = [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
