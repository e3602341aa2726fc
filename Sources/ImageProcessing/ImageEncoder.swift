import CVipsShim

/// Encodes raw pixels with libvips: for tests, fixtures and tools that need real files.
public enum ImageEncoder {
    /// Encodes `pixels` (interleaved bands, rows top to bottom; values `0...255` when
    /// `bitsPerSample` is 8, `0...65535` when 16) as `format`.
    /// - Parameters:
    ///   - bands: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    ///   - iccProfile: embedded as is when given.
    ///   - orientation: EXIF orientation `1...8` to record (JPEG, PNG and WebP keep EXIF).
    ///   - quality: JPEG/WebP quality `1...100`.
    ///   - cmyk: the 4 bands are C, M, Y, K (0 = no ink) rather than RGBA; JPEG only.
    public static func encode(pixels: [UInt16], width: Int, height: Int, bands: Int, bitsPerSample: Int = 8,
                              format: ImageFormat, iccProfile: [UInt8]? = nil, orientation: Int? = nil,
                              quality: Int = 90, cmyk: Bool = false) throws(ImageError) -> [UInt8] {
        try Vips.start()
        guard width > 0, height > 0, (1...4).contains(bands), bitsPerSample == 8 || bitsPerSample == 16,
              pixels.count == width * height * bands else {
            throw .unsupported("encode: \(pixels.count) samples do not make \(width) × \(height) × \(bands) bands")
        }
        let fail = ImageError.encodeFailed(format, "libvips's \(format.displayName) encoder failed")
        let made: OpaquePointer?
        if bitsPerSample == 16 {
            made = pixels.withUnsafeBytes {
                cvips_new_from_memory($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), Int32(CVIPS_BAND_USHORT))
            }
        } else {
            let bytes = pixels.map { UInt8(clamping: $0) }
            made = bytes.withUnsafeBytes {
                cvips_new_from_memory($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), Int32(CVIPS_BAND_UCHAR))
            }
        }
        guard let made else { throw fail }
        var img = VipsHandle(made)
        let interpretation: Int32 = cmyk && bands == 4 ? Int32(CVIPS_INTERP_CMYK) : bands <= 2
            ? Int32(bitsPerSample == 16 ? CVIPS_INTERP_GREY16 : CVIPS_INTERP_B_W)
            : Int32(bitsPerSample == 16 ? CVIPS_INTERP_RGB16 : CVIPS_INTERP_SRGB)
        let source = img
        img = try withBytes(iccProfile ?? []) { (raw: UnsafeRawBufferPointer) throws(ImageError) -> VipsHandle in
            try Vips.make(fail) {
                cvips_copy_with(source.pointer, $0, iccProfile == nil ? nil : raw.baseAddress, raw.count,
                                Int32(orientation ?? 0), interpretation)
            }
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_save(Int32(format.cCode), img.pointer, Int32(quality), &buffer, &length) == 0, let buffer else {
            throw fail
        }
        defer { cvips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
