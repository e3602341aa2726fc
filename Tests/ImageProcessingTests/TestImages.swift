import ImageProcessing

/// Small real images made by the tests (encoded by libvips through `ImageEncoder`).
enum TestImages {
    /// `width × height` pixels: white (or `background`) with a dark (#202020) square in the
    /// middle third; `bands` 3 or 4 (alpha 255 everywhere), 8 or 16 bits.
    static func pixels(width: Int, height: Int, bands: Int = 3, bits: Int = 8,
                       background: [UInt16] = [255, 255, 255], square: [UInt16] = [32, 32, 32],
                       alpha: (Int, Int) -> UInt16 = { _, _ in 255 }) -> [UInt16] {
        let scale: UInt16 = bits == 16 ? 257 : 1
        var out: [UInt16] = []
        out.reserveCapacity(width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= width / 3 && x < 2 * width / 3 && y >= height / 3 && y < 2 * height / 3
                let c = inside ? square : background
                out += c.prefix(min(3, bands)).map { $0 * scale }
                if bands == 2 || bands == 4 { out.append(alpha(x, y) * scale) }
            }
        }
        return out
    }

    static func png(width: Int = 60, height: Int = 40, bands: Int = 3, bits: Int = 8,
                    background: [UInt16] = [255, 255, 255], icc: [UInt8]? = nil,
                    alpha: @escaping (Int, Int) -> UInt16 = { _, _ in 255 }) throws -> [UInt8] {
        try ImageEncoder.encode(pixels: pixels(width: width, height: height, bands: bands, bits: bits,
                                               background: background, alpha: alpha),
                                width: width, height: height, bands: bands, bitsPerSample: bits, format: .png,
                                iccProfile: icc)
    }

    static func jpeg(width: Int = 60, height: Int = 40, background: [UInt16] = [255, 255, 255],
                     orientation: Int? = nil, icc: [UInt8]? = nil) throws -> [UInt8] {
        try ImageEncoder.encode(pixels: pixels(width: width, height: height, background: background),
                                width: width, height: height, bands: 3, format: .jpeg, iccProfile: icc,
                                orientation: orientation, quality: 95)
    }

    static var displayP3: [UInt8] {
        ICCProfile.make(white: ICCProfile.displayP3Primaries.white, primaries: ICCProfile.displayP3Primaries.primaries,
                        description: "Display P3")!
    }

    /// A PNG whose IHDR declares `width × height` (CRC fixed up), with the original tiny data.
    /// `interlaced` sets IHDR's interlace method to Adam7 (the data stays as it was: a header only).
    static func pngDeclaring(width: UInt32, height: UInt32, interlaced: Bool = false) throws -> [UInt8] {
        var bytes = try png(width: 8, height: 8)
        // Signature (8) + length (4) + "IHDR" (4): width at 16, height at 20, interlace at 28, CRC at 29.
        put32(&bytes, 16, width)
        put32(&bytes, 20, height)
        if interlaced { bytes[28] = 1 }
        put32(&bytes, 29, crc32(bytes[12..<29]))
        return bytes
    }

    /// A JPEG whose SOF header declares `width × height`; `progressive` makes it an SOF2 (the
    /// data stays baseline: a header only).
    static func jpegDeclaring(width: UInt16, height: UInt16, progressive: Bool = false) throws -> [UInt8] {
        var bytes = try jpeg(width: 8, height: 8)
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { break }
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xC2).contains(marker) {
                bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
                if progressive { bytes[i + 1] = 0xC2 }
                return bytes
            }
            i += 2 + length
        }
        fatalError("no SOF marker")
    }

    static func put32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        b[at] = UInt8(v >> 24); b[at + 1] = UInt8((v >> 16) & 0xFF); b[at + 2] = UInt8((v >> 8) & 0xFF); b[at + 3] = UInt8(v & 0xFF)
    }

    static func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}
