import CVipsShim

/// The container of an image, read and checked in Swift before libvips sees the bytes.
///
/// Why: libvips's decoders either do too much for hostile input or say too little. libpng
/// inflates every compressed text chunk and ICC profile in full, up to 50 MB each and again on
/// every load (hostile test: a 1 MB PNG of `zTXt` chunks cost 7.5 s of CPU per analysis);
/// libvips's error text cannot be read per request (see ``Vips``), so the reasons for refusing
/// a damaged file are found here, in this module's own words; and an APNG's `acTL` frame count
/// is whatever the sender wrote.
///
/// Cost: one pass over the bytes (plus a CRC-32 of each PNG chunk and at most
/// ``maxICCProfileBytes`` of inflating for a PNG's ICC profile).
struct ContainerCheck {
    /// The bytes to decode: for PNG, the critical chunks up to `IEND` and the ancillary chunks
    /// libpng and libvips use, without the compressed text chunks (`zTXt`, compressed `iTXt`),
    /// any `iCCP` or other once-only chunk after the first, text chunks past ``maxTextChunks``,
    /// or APNG and unknown chunks; otherwise the input.
    var bytes: [UInt8]
    /// Frames the file holds: for an APNG, `acTL`'s count when it matches the `fcTL` chunks
    /// present, else 1 (the animation is malformed; the default image is what every viewer
    /// shows); 1 for anything else.
    var frames: Int = 1
    /// What was wrong with an APNG's animation chunks, when they were ignored.
    var animationProblem: String?
    /// The file embeds an ICC profile (a PNG `iCCP` chunk, a JPEG `APP2 ICC_PROFILE` segment):
    /// when the decoder then reports none, the profile was invalid and ignored.
    var declaresICCProfile = false
    /// The decoder holds the whole image before the first row is out: a progressive JPEG (SOF2,
    /// SOF6, SOF10, SOF14: ITU-T T.81 Table B.1), an interlaced PNG (Adam7, ISO/IEC 15948
    /// §8.2), or a WebP (libwebp decodes a frame whole). Such an image cannot be streamed in strips, and peaks at about twice the memory
    /// of a baseline one (`ImageFile.open` counts its pixels twice).
    var decodesWhole = false

    /// Uncompressed text chunks (`tEXt`, `iTXt`) passed on; later ones are dropped. libvips
    /// makes each a metadata item and writes it back, so a file of a million tiny text chunks
    /// would cost far more than it weighs.
    static let maxTextChunks = 64

    /// The largest ICC profile a PNG's `iCCP` chunk may inflate to. Real profiles are a few
    /// hundred bytes (matrix/TRC) to a few hundred kilobytes (LUT-based); 4 MiB leaves room.
    static let maxICCProfileBytes = 4 << 20

    /// The largest EXIF block a PNG `eXIf` or WebP `EXIF` chunk may hold: what a JPEG's APP1
    /// segment can (65,533 bytes of payload). libvips hands EXIF to libexif, which walks every
    /// IFD entry, and writes it back into every answer: a hostile pass's 18 MB block of 60,000
    /// entries cost 2.7 s to analyze and 4–5 s to fail to encode, 73 MB of memory held.
    static let maxEXIFBytes = 65_536

    /// A profile past ``maxICCProfileBytes``, the same limit in every format: `bytes` its size
    /// when known (a WebP's chunk), nil when only known to pass it (a JPEG's segments counted so
    /// far; a PNG's, `inflated`, as it inflates).
    static func profileTooLarge(_ what: String, bytes: Int?, inflated: Bool = false) -> ImageError {
        .unsupported("\(what) \(bytes.map { "is \($0) bytes" } ?? "\(inflated ? "inflates to" : "is") more than \(maxICCProfileBytes) bytes (4 MiB)"), more than this service reads; real profiles are far smaller")
    }

    static func exifTooLarge(_ length: Int, _ what: String) -> ImageError {
        .unsupported("\(what) (EXIF metadata) is \(length) bytes; this service reads at most \(maxEXIFBytes) bytes of EXIF, as much as a JPEG can hold; strip the metadata (exiftool -all=, or re-export) and send the image again")
    }

    /// Checks `data` (whose signature says `format`).
    /// - Throws: `.corrupt` naming the first structural problem (truncation, a bad chunk or
    ///   segment length, a CRC mismatch, missing image data), `.unsupported` for an ICC
    ///   profile larger than ``maxICCProfileBytes`` (PNG, JPEG, WebP).
    static func check(_ data: [UInt8], format: ImageFormat) throws(ImageError) -> ContainerCheck {
        switch format {
        case .png: return try png(data)
        case .jpeg:
            var result = ContainerCheck(bytes: data)
            (result.declaresICCProfile, result.decodesWhole) = try jpeg(data)
            return result
        case .webp:
            try webp(data)
            // libwebp decodes a frame whole before libvips sees a row: a 38-byte lossless WebP of
            // 16383 × 2441 (40 MP) peaked at 364 MiB where the same PNG peaks at 178 (a hostile
            // pass, stop 39).
            var result = ContainerCheck(bytes: data)
            result.decodesWhole = true
            return result
        }
    }

    // MARK: - PNG (ISO/IEC 15948, APNG 1.0)

    static func png(_ data: [UInt8]) throws(ImageError) -> ContainerCheck {
        func fail(_ why: String) -> ImageError { .corrupt(.png, why) }
        guard data.count >= 8, data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw fail("the PNG signature is incomplete")
        }
        var out: [UInt8] = Array(data[0..<8])
        out.reserveCapacity(data.count)
        var position = 8
        var index = 0
        var sawIDAT = false, sawPLTE = false, sawICC = false, interlaced = false
        var colorType: UInt8 = 0
        var declaredFrames: Int?
        var frameControls = 0
        var textChunks = 0
        // The once-only ancillary chunks seen (`Chunk.used`): PNG §5.6 allows each once, libpng
        // warns of and ignores every later copy, but reads each first (a hostile pass: 1.25
        // million 12-byte `gAMA` chunks in 20 MB held a heavy worker 3.1 s for a 64 × 64 image).
        var seenOnceOnly = Set<UInt32>()
        while true {
            guard position + 8 <= data.count else {
                throw fail(position == data.count
                    ? "the file ends after \(data.count) bytes without an IEND chunk (truncated)"
                    : "the file ends inside a chunk header at byte \(position) (truncated)")
            }
            let length = Int(word(data, position))
            // The type as a number: a file of a million empty chunks must not cost a million strings.
            let code = word(data, position + 4)
            var type: String { String(decoding: data[position + 4..<position + 8], as: UTF8.self) }
            guard data[position + 4..<position + 8].allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw fail("the chunk at byte \(position) has no valid type (bytes \(hex(Array(data[position + 4..<position + 8]))))")
            }
            guard length <= 0x7FFF_FFFF else {
                throw fail("the \(type) chunk at byte \(position) declares \(length) bytes, more than PNG allows")
            }
            let end = position + 12 + length
            guard end <= data.count else {
                throw fail("the \(type) chunk at byte \(position) declares \(length) bytes but only \(max(0, data.count - position - 12)) follow (truncated)")
            }
            let crc = data.withUnsafeBufferPointer { buffer in
                cvips_crc32(0, buffer.baseAddress! + position + 4, 4 + length)
            }
            guard crc == word(data, end - 4) else {
                throw fail("the \(type) chunk at byte \(position) fails its CRC check (damaged)")
            }
            if index == 0 && (code != Chunk.IHDR || length != 13) {
                throw fail(code == Chunk.IHDR ? "the IHDR chunk is \(length) bytes, not 13" : "the first chunk is \(type), not IHDR")
            }
            if index == 0 {
                // libpng's default user limits (PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX): it
                // refuses a longer side with "could not read its header" (hostile pass: 1 ×
                // 39,999,999 is under the pixel limit).
                let (width, height) = (word(data, position + 8), word(data, position + 12))
                // The interlace method, IHDR's last byte: 1 is Adam7.
                interlaced = data[position + 20] == 1
                if max(width, height) > maxPNGSide {
                    throw .unsupported("the PNG header declares \(width) × \(height) pixels; PNG decoders (libpng) read at most \(maxPNGSide) pixels a side")
                }
                try checkIHDR(data, body: position + 8)
                colorType = data[position + 17]
            }
            let body = position + 8
            var keep = true
            switch code {
            case Chunk.IEND:
                guard sawIDAT else { throw fail("there is no IDAT chunk: the file holds no pixel data") }
                out += data[position..<end]
                var result = ContainerCheck(bytes: out)
                result.declaresICCProfile = sawICC
                result.decodesWhole = interlaced
                if let declaredFrames {
                    if declaredFrames == frameControls {
                        result.frames = declaredFrames
                    } else {
                        result.animationProblem = "its acTL chunk declares \(declaredFrames) frames but the file has \(frameControls) fcTL chunks"
                    }
                }
                return result
            case Chunk.IDAT:
                // PNG §11.2.2: a palette image (colour type 3) needs its PLTE before the data.
                if colorType == 3 && !sawPLTE {
                    throw fail("its header declares a palette image (colour type 3) but no PLTE chunk comes before its pixel data (PNG §11.2.2)")
                }
                sawIDAT = true
            case Chunk.PLTE:
                // 1 to 256 RGB entries (PNG §11.2.2).
                guard length % 3 == 0, length >= 3, length <= 768 else {
                    throw fail("the PLTE chunk is \(length) bytes: a palette is 1 to 256 colors of 3 bytes each (PNG §11.2.2)")
                }
                sawPLTE = true
            case Chunk.zTXt:
                keep = false  // compressed text: never inflated (libpng would, in full)
            case Chunk.iTXt:
                // keyword (1–79 bytes), NUL, compression flag: keep only uncompressed text (XMP).
                let limit = min(body + 80, body + length)
                if let nul = data[body..<limit].firstIndex(of: 0), nul + 1 < body + length {
                    keep = data[nul + 1] == 0 && textChunks < maxTextChunks
                } else {
                    keep = false
                }
                if keep { textChunks += 1 }
            case Chunk.tEXt:
                keep = textChunks < maxTextChunks
                if keep { textChunks += 1 }
            case Chunk.iCCP:
                if sawICC || sawIDAT || sawPLTE {
                    keep = false  // a second or misplaced profile: libpng ignores it anyway
                } else {
                    sawICC = true
                    try checkICC(data, body: body, length: length)
                }
            case Chunk.eXIf:
                guard length <= maxEXIFBytes else { throw exifTooLarge(length, "the PNG's eXIf chunk") }
                keep = seenOnceOnly.insert(code).inserted
            case Chunk.acTL:
                if declaredFrames == nil && !sawIDAT && length == 8 {
                    declaredFrames = Int(word(data, body))
                }
            case Chunk.fcTL:
                frameControls += 1
                keep = false
            default:
                if data[position + 4] & 0x20 == 0 {  // critical: an uppercase first letter
                    guard code == Chunk.IHDR && index == 0 else {
                        throw fail(code == Chunk.IHDR ? "the file has a second IHDR chunk at byte \(position)"
                            : "the \(type) chunk at byte \(position) is critical but not part of PNG: no decoder can read the file")
                    }
                } else {
                    // Only the ancillary chunks libpng and libvips use go on; the rest (APNG
                    // frames, private and unknown chunks) would only cost libpng a pass per read.
                    // Each once: a later copy is what libpng would ignore after reading it.
                    keep = Chunk.used.contains(code) && seenOnceOnly.insert(code).inserted
                }
            }
            if keep { out += data[position..<end] }
            position = end
            index += 1
        }
    }

    /// IHDR's fields (PNG §11.2.1), each named when it is not one PNG allows: width and height
    /// 1 to 2³¹ − 1, a colour type of 0, 2, 3, 4 or 6 with a bit depth it allows, compression and
    /// filter method 0, interlace method 0 or 1 (libvips's loader had said only "could not read
    /// its header", a hostile pass).
    static func checkIHDR(_ data: [UInt8], body: Int) throws(ImageError) {
        func fail(_ why: String) -> ImageError { .corrupt(.png, "its IHDR chunk is not valid: \(why) (PNG §11.2.1)") }
        let (width, height) = (word(data, body), word(data, body + 4))
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw fail("it declares \(width) × \(height) pixels; each side is 1 to 2147483647")
        }
        let depth = data[body + 8], type = data[body + 9]
        let depths: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        let names: [UInt8: String] = [0: "greyscale", 2: "truecolour (RGB)", 3: "indexed (palette)", 4: "greyscale with alpha", 6: "truecolour with alpha (RGBA)"]
        guard let allowed = depths[type], let name = names[type] else {
            throw fail("colour type \(type) is none of PNG's (0 greyscale, 2 RGB, 3 palette, 4 greyscale with alpha, 6 RGBA)")
        }
        guard allowed.contains(depth) else {
            throw fail("bit depth \(depth) is not allowed for colour type \(type), \(name) (allowed: \(allowed.map(String.init).joined(separator: ", ")))")
        }
        guard data[body + 10] == 0 else { throw fail("compression method \(data[body + 10]) is not 0, the only one PNG defines") }
        guard data[body + 11] == 0 else { throw fail("filter method \(data[body + 11]) is not 0, the only one PNG defines") }
        guard data[body + 12] <= 1 else { throw fail("interlace method \(data[body + 12]) is neither 0 (none) nor 1 (Adam7)") }
    }

    /// The `iCCP` chunk's profile: a keyword, NUL, method 0, then a zlib stream that must
    /// inflate completely to at most ``maxICCProfileBytes``.
    static func checkICC(_ data: [UInt8], body: Int, length: Int) throws(ImageError) {
        let limit = min(body + 80, body + length)
        guard let nul = data[body..<limit].firstIndex(of: 0), nul > body, nul + 2 <= body + length,
              data[nul + 1] == 0 else {
            throw .corrupt(.png, "the iCCP chunk (embedded ICC profile) has no valid name or compression method")
        }
        let start = nul + 2, count = body + length - start
        let size = data.withUnsafeBufferPointer { buffer in
            cvips_inflated_size(buffer.baseAddress! + start, count, maxICCProfileBytes)
        }
        if size == -2 {
            throw profileTooLarge("the PNG's embedded ICC profile (iCCP chunk)", bytes: nil, inflated: true)
        }
        guard size >= 0 else {
            throw .corrupt(.png, "the iCCP chunk's compressed ICC profile is not a complete zlib stream")
        }
    }

    /// PNG chunk types as big-endian numbers.
    enum Chunk {
        static let IHDR = code("IHDR"), IDAT = code("IDAT"), IEND = code("IEND"), PLTE = code("PLTE")
        static let zTXt = code("zTXt"), iTXt = code("iTXt"), iCCP = code("iCCP")
        static let acTL = code("acTL"), fcTL = code("fcTL"), tEXt = code("tEXt"), eXIf = code("eXIf")
        /// Ancillary chunks that libpng or libvips read: transparency, colour space, background,
        /// resolution, significant bits, EXIF, time (text and ICC are handled on their own).
        /// PNG §5.6 allows each of them once.
        static let used: Set<UInt32> = Set(["tRNS", "gAMA", "cHRM", "sRGB", "bKGD", "pHYs", "sBIT", "eXIf", "tIME"]
            .map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } })

        static func code(_ type: StaticString) -> UInt32 {
            type.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
        }
    }

    // MARK: - JPEG (ITU-T T.81)

    /// The marker segments up to the first scan (lengths inside the data, a frame header with
    /// non-zero dimensions before it), and an end-of-image marker after it.
    /// The longest side libpng decodes by default (`PNG_USER_WIDTH_MAX`, `PNG_USER_HEIGHT_MAX`);
    /// the format allows 2^31 − 1.
    static let maxPNGSide: UInt32 = 1_000_000

    /// The longest side libjpeg decodes (`JPEG_MAX_DIMENSION`); the format allows 65535.
    static let maxJPEGSide = 65500

    /// Most scans (SOS segments) a JPEG may have: libjpeg decodes the whole image once per scan.
    static let maxJPEGScans = 100

    /// Returns whether the file has an `APP2` segment holding an ICC profile (ICC.1:2022 Annex
    /// B.4), and whether its frame is progressive (``decodesWhole``).
    @discardableResult
    static func jpeg(_ data: [UInt8]) throws(ImageError) -> (icc: Bool, progressive: Bool) {
        func fail(_ why: String) -> ImageError { .corrupt(.jpeg, why) }
        var position = 2  // after SOI
        var sawFrame = false
        var progressive = false
        var sawICC = false
        var iccBytes = 0
        var components: [UInt8] = []
        let iccSignature = Array("ICC_PROFILE\0".utf8)
        while true {
            guard position + 2 <= data.count else {
                throw fail("the file ends after \(data.count) bytes, before its image data (no SOS marker; truncated)")
            }
            guard data[position] == 0xFF else {
                throw fail("byte \(position) should start a marker (FF) but is \(hex([data[position]]))")
            }
            let marker = data[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // no length
            if marker == 0xD8 || marker == 0xD9 || marker == 0x00 {
                throw fail("marker FF\(hex([marker])) at byte \(position) comes before any image data")
            }
            guard position + 4 <= data.count else {
                throw fail("the file ends inside the FF\(hex([marker])) segment at byte \(position) (truncated)")
            }
            let length = Int(data[position + 2]) << 8 | Int(data[position + 3])
            guard length >= 2, position + 2 + length <= data.count else {
                throw fail("the FF\(hex([marker])) segment at byte \(position) declares \(length) bytes but only \(data.count - position - 2) follow (truncated)")
            }
            if marker == 0xE2, length >= 2 + iccSignature.count,
               data[(position + 4)..<(position + 4 + iccSignature.count)].elementsEqual(iccSignature) {
                sawICC = true
                // The profile's part in this segment: after the signature, its sequence number
                // and the count of segments (ICC.1:2022 Annex B.4). A hostile pass: 241 segments
                // of a valid 15 MiB profile were called invalid, and /v1/image/dim wrote 100 of
                // them back under a header declaring all.
                iccBytes += Swift.max(0, length - 2 - iccSignature.count - 2)
                guard iccBytes <= maxICCProfileBytes else { throw profileTooLarge("the JPEG's embedded ICC profile (APP2 ICC_PROFILE segments)", bytes: nil) }
            }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard length >= 8 else { throw fail("the frame header (SOF) at byte \(position) is too short") }
                let height = Int(data[position + 5]) << 8 | Int(data[position + 6])
                let width = Int(data[position + 7]) << 8 | Int(data[position + 8])
                guard width > 0, height > 0 else {
                    throw fail("the frame header declares \(width) × \(height) pixels")
                }
                // libjpeg's JPEG_MAX_DIMENSION: it refuses larger sides with its own error.
                if max(width, height) > maxJPEGSide {
                    throw .unsupported("the JPEG header declares \(width) × \(height) pixels; JPEG decoders (libjpeg) read at most \(maxJPEGSide) pixels a side")
                }
                sawFrame = true
                if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { progressive = true }
                // Arithmetic coding (T.81 Table B.1: SOF9–SOF11, SOF13–SOF15): libjpeg decodes a
                // scan cut short as zeros without a warning (a hostile pass: half a scan and FF D9
                // was answered as an image of invented pixels), and browsers do not show them.
                if [0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF].contains(marker) {
                    throw .unsupported("the JPEG is arithmetic-coded (SOF\(marker - 0xC0)), whose truncation cannot be told from its image (libjpeg decodes a scan cut short as zeros, without a warning); re-save it as a baseline or progressive JPEG (Huffman-coded)")
                }
                let count = Int(data[position + 9])
                guard count >= 1, length >= 8 + 3 * count else { throw fail("the frame header (SOF) at byte \(position) declares \(count) components but is \(length) bytes long") }
                components = (0..<count).map { data[position + 10 + 3 * $0] }
            }
            if marker == 0xDA {
                guard sawFrame else { throw fail("the image data (SOS) comes before any frame header (SOF)") }
                // Entropy-coded data never holds FF D9 (FF is followed by 00 or a restart
                // marker), so the first FF D9 after the scan header is the end of the image.
                // Every further FF DA starts another scan: a progressive JPEG of 6000 × 6000
                // with 2500 cheap scans (265 KB) cost 19 s of decoding, and the heavy-work
                // deadline cannot stop libjpeg (outside test). Encoders write about 10.
                var coverage = ScanCoverage(components: components, progressive: progressive)
                try coverage.add(data, scanAt: position, fail)
                var i = position + 2 + length
                var scans = 1
                while i + 1 < data.count {
                    if data[i] == 0xFF {
                        if data[i + 1] == 0xD9 {
                            try coverage.check(fail)
                            return (sawICC, progressive)
                        }
                        if data[i + 1] == 0xDA {
                            scans += 1
                            if scans > maxJPEGScans {
                                throw fail("the image has more than \(maxJPEGScans) scans (progressive passes); encoders write about 10, and each costs a full decoding pass")
                            }
                            try coverage.add(data, scanAt: i, fail)
                        }
                    }
                    i += 1
                }
                throw fail("the file ends without an end-of-image marker (FF D9): it is truncated")
            }
            position += 2 + length
        }
    }

    /// What the scans of a JPEG have coded so far (T.81 §B.2.3 scan header, §G.1.1 progressive
    /// spectral selection): a file cut between scans and closed with FF D9 decodes without a
    /// warning, its missing components or coefficients as flat gray (a hostile pass: a
    /// baseline file of one scan per component, and a progressive one with its chroma scans
    /// first, each cut before the luma scan, were answered as uniform #808080 images).
    struct ScanCoverage {
        let components: [UInt8]
        let progressive: Bool
        /// Per frame component, the coefficients (bit k: zig-zag index k) a first pass (Ah = 0)
        /// has coded; a sequential scan codes all 64.
        var coded: [UInt64]

        init(components: [UInt8], progressive: Bool) {
            (self.components, self.progressive) = (components, progressive)
            coded = Array(repeating: 0, count: components.count)
        }

        /// Reads the scan header at `at` (FF DA).
        mutating func add(_ data: [UInt8], scanAt at: Int, _ fail: (String) -> ImageError) throws(ImageError) {
            guard at + 5 <= data.count else { throw fail("the file ends inside a scan header at byte \(at) (truncated)") }
            let count = Int(data[at + 4])
            let end = at + 5 + 2 * count + 3
            guard count >= 1, end <= data.count else { throw fail("the scan header at byte \(at) is cut short (truncated)") }
            let ss = Int(data[at + 5 + 2 * count]), se = Int(data[at + 6 + 2 * count]), ah = data[at + 7 + 2 * count] >> 4
            guard ah == 0 else { return }  // a refinement pass adds bits to coefficients already coded
            var bits: UInt64 = ~0
            if progressive {
                guard ss <= se, se <= 63 else { throw fail("the scan header at byte \(at) selects coefficients \(ss)…\(se)") }
                bits = (se == 63 ? ~0 : (UInt64(1) << (se + 1)) - 1) & ~((UInt64(1) << ss) - 1)
            }
            for k in 0..<count {
                let id = data[at + 5 + 2 * k]
                guard let c = components.firstIndex(of: id) else {
                    throw fail("the scan header at byte \(at) names component \(id), which the frame header does not declare")
                }
                coded[c] |= bits
            }
        }

        /// Throws when a component, or a coefficient of one, has no scan at the end of the image.
        func check(_ fail: (String) -> ImageError) throws(ImageError) {
            for (c, bits) in coded.enumerated() where bits != ~0 {
                if bits == 0 {
                    throw fail("component \(components[c]) of the image has no scan before the end-of-image marker: the file is truncated between scans")
                }
                throw fail("the scans end before coding every coefficient of component \(components[c]) (a progressive file cut between passes)")
            }
        }
    }

    // MARK: - WebP (RIFF)

    /// The RIFF size and the chunk list inside it: each chunk within the file, the first a
    /// VP8, VP8L or VP8X chunk.
    static func webp(_ data: [UInt8]) throws(ImageError) {
        func fail(_ why: String) -> ImageError { .corrupt(.webp, why) }
        guard data.count >= 12 else { throw fail("the RIFF header is incomplete") }
        let riffSize = Int(littleWord(data, 4))
        guard 8 + riffSize <= data.count else {
            throw fail("the RIFF header declares \(8 + riffSize) bytes but the file has \(data.count) (truncated)")
        }
        let end = 8 + riffSize
        var position = 12
        var first = true
        while position < end {
            guard position + 8 <= end else { throw fail("the file ends inside a chunk header at byte \(position) (truncated)") }
            let fourcc = String(decoding: data[position..<position + 4], as: UTF8.self)
            let size = Int(littleWord(data, position + 4))
            guard position + 8 + size <= end else {
                throw fail("the \(fourcc.trimmingTrailingSpaces) chunk at byte \(position) declares \(size) bytes but only \(end - position - 8) follow (truncated)")
            }
            if fourcc == "EXIF" && size > maxEXIFBytes { throw exifTooLarge(size, "the WebP's EXIF chunk") }
            // libwebp hands libvips the whole chunk, which /v1/image/dim writes back (a hostile
            // pass: a 15 MiB profile on a 64 × 64 image made a 15.7 MB answer).
            if fourcc == "ICCP" && size > maxICCProfileBytes { throw profileTooLarge("the WebP's embedded ICC profile (ICCP chunk)", bytes: size) }
            if first {
                guard ["VP8 ", "VP8L", "VP8X"].contains(fourcc) else {
                    throw fail("the first chunk is \(fourcc.trimmingTrailingSpaces), not VP8, VP8L or VP8X")
                }
                first = false
            }
            position += 8 + size + (size & 1)
        }
        if first { throw fail("the RIFF container holds no chunk") }
    }

    // MARK: - helpers

    /// The inflated size of a zlib stream, stopping past `cap`: -1 incomplete, -2 over `cap`.
    static func inflatedSize(_ stream: [UInt8], cap: Int) -> Int {
        Int(stream.withUnsafeBytes { cvips_inflated_size($0.baseAddress, $0.count, cap) })
    }

    static func word(_ data: [UInt8], _ at: Int) -> UInt32 {
        UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
    }

    static func littleWord(_ data: [UInt8], _ at: Int) -> UInt32 {
        UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 3]) << 24
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return bytes.map { String(decoding: [digits[Int($0 >> 4)], digits[Int($0 & 15)]], as: UTF8.self) }
            .joined(separator: " ")
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
