import CVipsShim

extension ImageFile {
    /// Decodes the image as it is displayed: 8-bit sRGB (through its ICC profile when it has
    /// one, as ``statistics(over:)`` does), translucent pixels composited over `backdrop` (opaque
    /// gamma-encoded sRGB `0...1`), and turned by its EXIF orientation, so coordinates are those
    /// of ``displayWidth`` × ``displayHeight``.
    /// - Throws: `.corrupt` when the pixel data is truncated or damaged.
    public func orientedSRGB(over backdrop: SIMD3<Double>) throws(ImageError) -> RGBImage {
        try withFlattenedSRGB8(over: backdrop, backdropName: "backdrop") { stored in
            RGBImage.oriented(stored, width: width, height: height, orientation: orientation)
        }
    }
}

extension RGBImage {
    /// Stored pixels turned by EXIF `orientation` `1...8` (TIFF/EXIF 2.32, tag 0x0112) into
    /// display order: 2 mirrors, 3 turns 180°, 4 flips, 5 transposes, 6 turns 90° clockwise,
    /// 7 transverses, 8 turns 90° counter-clockwise.
    public static func oriented(_ stored: UnsafeBufferPointer<UInt8>, width W: Int, height H: Int, orientation: Int) -> RGBImage {
        if orientation <= 1 || orientation > 8 { return RGBImage(width: W, height: H, pixels: Array(stored)) }
        let (w, h) = orientation >= 5 ? (H, W) : (W, H)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<h {
                for x in 0..<w {
                    let (sx, sy): (Int, Int)
                    switch orientation {
                    case 2: (sx, sy) = (W - 1 - x, y)
                    case 3: (sx, sy) = (W - 1 - x, H - 1 - y)
                    case 4: (sx, sy) = (x, H - 1 - y)
                    case 5: (sx, sy) = (y, x)
                    case 6: (sx, sy) = (y, H - 1 - x)
                    case 7: (sx, sy) = (W - 1 - y, H - 1 - x)
                    default: (sx, sy) = (W - 1 - y, x)  // 8
                    }
                    let s = (sy * W + sx) * 3, d = (y * w + x) * 3
                    dst[d] = stored[s]; dst[d + 1] = stored[s + 1]; dst[d + 2] = stored[s + 2]
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }

    /// Encodes the pixels as PNG.
    public func png() throws(ImageError) -> [UInt8] {
        try ImageEncoder.encodeRGB8(pixels, width: width, height: height, format: .png)
    }
}

extension ImageEncoder {
    /// Encodes 8-bit sRGB pixels (`width × height × 3` bytes) as `format`.
    public static func encodeRGB8(_ pixels: [UInt8], width: Int, height: Int, format: ImageFormat, quality: Int = 90) throws(ImageError) -> [UInt8] {
        try Vips.start()
        let fail = ImageError.encodeFailed(format, "libvips's \(format.displayName) encoder failed")
        guard width > 0, height > 0, pixels.count == width * height * 3 else { throw fail }
        let made = pixels.withUnsafeBytes {
            cvips_new_from_memory($0.baseAddress, $0.count, Int32(width), Int32(height), 3, Int32(CVIPS_BAND_UCHAR))
        }
        guard let made else { throw fail }
        let source = VipsHandle(made)
        let img = try Vips.make(fail) { cvips_copy_with(source.pointer, $0, nil, 0, 0, Int32(CVIPS_INTERP_SRGB)) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_save(Int32(format.cCode), img.pointer, Int32(quality), &buffer, &length) == 0, let buffer else { throw fail }
        defer { cvips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
