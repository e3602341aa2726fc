import Foundation
@testable import ImageProcessing
import TestSupport
import Testing

/// Inputs from the hostile test, each a kind of fault: compressed PNG metadata that inflates to
/// far more than it weighs, damaged JPEGs the decoder papered over, an absurd APNG frame count,
/// libvips error text that outlived its request, loaders that must never run, and colour
/// transforms whose set-up cost did not depend on the image.
@Suite struct HostileInputTests {
    let black = SIMD3<Double>(0, 0, 0)

    // MARK: - helpers

    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let n = UInt32(payload.count)
        let body = Array(type.utf8) + payload
        var c = [UInt8](repeating: 0, count: 4)
        TestImages.put32(&c, 0, TestImages.crc32(body[...]))
        return [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + body + c
    }

    /// The chunks of a PNG (type, payload), signature skipped.
    static func chunks(_ png: [UInt8]) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        var i = 8
        while i + 8 <= png.count {
            let n = Int(ContainerCheck.word(png, i))
            out.append((String(decoding: png[i + 4..<i + 8], as: UTF8.self), Array(png[i + 8..<i + 8 + n])))
            i += 12 + n
        }
        return out
    }

    /// `png` with `extra` chunks inserted after IHDR.
    static func inserting(_ extra: [[UInt8]], into png: [UInt8]) -> [UInt8] {
        let parts = chunks(png)
        var out = Array(png.prefix(8)) + chunk(parts[0].0, parts[0].1)
        for c in extra { out += c }
        for (type, payload) in parts.dropFirst() { out += chunk(type, payload) }
        return out
    }



    /// CPU seconds used by this thread (libvips reads PNG headers on the calling thread).
    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func noiseJPEG(width: Int = 96, height: Int = 96) throws -> [UInt8] {
        var state: UInt32 = 12345
        let px = (0..<(width * height * 3)).map { _ -> UInt16 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt16(state >> 24)
        }
        return try ImageEncoder.encode(pixels: px, width: width, height: height, bands: 3, format: .jpeg, quality: 90)
    }

    // MARK: - 1. compressed ancillary PNG chunks

    @Test func theHandWrittenZlibStreamInflatesToItsCount() {
        for count in [1, 258, 259, 1000, 70_000] {
            let stream = ZlibStreams.zeros(count)
            #expect(ContainerCheck.inflatedSize(stream, cap: 1 << 20) == count)
        }
    }

    /// Ten zTXt and ten compressed iTXt chunks of 40 MB each (about 160 KB apiece): libpng
    /// inflated every one in full on each of libvips's header reads (hostile test: 7.5 s of CPU
    /// per analysis of a 1 MB file). They are dropped unread now.
    @Test func compressedTextChunksAreNeverInflated() throws {
        let bomb = ZlibStreams.zeros(40_000_000)
        var extra: [[UInt8]] = []
        for i in 0..<10 {
            extra.append(Self.chunk("zTXt", Array("k\(i)".utf8) + [0, 0] + bomb))
            extra.append(Self.chunk("iTXt", Array("k\(i)".utf8) + [0, 1, 0, 0, 0] + bomb))
        }
        extra.append(Self.chunk("tEXt", Array("Comment".utf8) + [0] + Array("kept".utf8)))
        let png = Self.inserting(extra, into: try TestImages.png())
        #expect(png.count > 3_000_000)
        let start = Self.threadCPU()
        let file = try ImageFile.open(png, format: .png, maxPixels: 10_000)
        let stats = try file.statistics(over: black)
        let cpu = Self.threadCPU() - start
        #expect(stats.borderNearWhiteShare == 1)
        // Inflating 800 MB takes seconds; reading the chunk list and decoding 60 × 40 pixels
        // takes milliseconds (CRC-32 of 3 MB included).
        #expect(cpu < 0.5, "open + statistics used \(cpu) s of CPU on this thread")
        let kept = Self.chunks(file.data).map(\.0)
        #expect(!kept.contains("zTXt") && !kept.contains("iTXt"))
        #expect(kept.contains("tEXt"), "uncompressed text costs nothing to read and is kept")
    }

    @Test func uncompressedITXtIsKept() throws {
        let xmp = Self.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<x/>".utf8))
        let file = try ImageFile.open(Self.inserting([xmp], into: try TestImages.png()), format: .png, maxPixels: 10_000)
        #expect(Self.chunks(file.data).map(\.0).contains("iTXt"))
    }

    /// An ICC profile is inflated only up to 4 MiB; larger is refused before libvips sees it.
    @Test func oversizedICCProfileIsRefused() throws {
        let big = Self.chunk("iCCP", Array("p".utf8) + [0, 0] + ZlibStreams.zeros(ContainerCheck.maxICCProfileBytes + 1))
        let png = Self.inserting([big], into: try TestImages.png())
        #expect(throws: ImageError.unsupported("the PNG's embedded ICC profile (iCCP chunk) inflates to more than 4194304 bytes (4 MiB), more than this service reads; real profiles are far smaller")) {
            try ImageFile.open(png, format: .png, maxPixels: 10_000)
        }
        // JPEG and WebP the same (a hostile pass: a valid 15 MiB profile in 241 APP2 segments
        // was called invalid and /v1/image/dim wrote 100 of them back; a WebP's came back whole
        // in a 15.7 MB answer for 64 × 64 pixels).
        let jpeg = try TestImages.jpeg()
        func app2(_ index: Int, of count: Int) -> [UInt8] {
            [0xFF, 0xE2, 0xFF, 0xFD] + Array("ICC_PROFILE\0".utf8) + [UInt8(index), UInt8(count)] + [UInt8](repeating: 0xAB, count: 65_533 - 2 - 14)
        }
        // 65 full segments hold 4,258,605 bytes of profile; 64 hold 4,193,088, within the limit.
        let over = Array(jpeg[0..<2]) + (1...65).flatMap { app2($0, of: 65) } + Array(jpeg[2...])
        #expect(throws: ImageError.unsupported("the JPEG's embedded ICC profile (APP2 ICC_PROFILE segments) is more than 4194304 bytes (4 MiB), more than this service reads; real profiles are far smaller")) {
            try ContainerCheck.check(over, format: .jpeg)
        }
        let within = Array(jpeg[0..<2]) + (1...64).flatMap { app2($0, of: 64) } + Array(jpeg[2...])
        #expect(try ContainerCheck.check(within, format: .jpeg).declaresICCProfile)
        var webp = try ImageEncoder.encode(pixels: [UInt16](repeating: 200, count: 64 * 64 * 3), width: 64, height: 64, bands: 3, format: .webp)
        let size = ContainerCheck.maxICCProfileBytes + 2
        webp += Array("ICCP".utf8) + withUnsafeBytes(of: UInt32(size).littleEndian, Array.init) + [UInt8](repeating: 0, count: size)
        let riff = UInt32(webp.count - 8).littleEndian
        webp.replaceSubrange(4..<8, with: withUnsafeBytes(of: riff, Array.init))
        #expect(throws: ImageError.unsupported("the WebP's embedded ICC profile (ICCP chunk) is 4194306 bytes, more than this service reads; real profiles are far smaller")) {
            try ContainerCheck.check(webp, format: .webp)
        }
        let broken = Self.chunk("iCCP", Array("p".utf8) + [0, 0, 0x78, 0x01, 0xFF])
        #expect(throws: ImageError.corrupt(.png, "the iCCP chunk's compressed ICC profile is not a complete zlib stream")) {
            try ImageFile.open(Self.inserting([broken], into: try TestImages.png()), format: .png, maxPixels: 10_000)
        }
    }

    /// A real profile passes, and only the first of several iCCP chunks is kept.
    @Test func aRealProfileIsKeptAndASecondIsDropped() throws {
        let png = try TestImages.png(icc: TestImages.displayP3)
        let iccp = try #require(Self.chunks(png).first { $0.0 == "iCCP" })
        let twice = Self.inserting([Self.chunk("iCCP", iccp.1)], into: png)
        let file = try ImageFile.open(twice, format: .png, maxPixels: 10_000)
        #expect(file.iccProfile == TestImages.displayP3)
        #expect(Self.chunks(file.data).filter { $0.0 == "iCCP" }.count == 1)
    }

    /// Private, unknown and APNG chunks are not passed on (libpng walked each on every header
    /// read: 1.5 million empty chunks in 18 MB took seconds), nor text past 64 chunks; an unknown
    /// critical chunk makes the file unreadable, and says so.
    @Test func onlyTheChunksLibpngUsesArePassedOn() throws {
        let png = try TestImages.png()
        let many = Self.inserting((0..<2000).map { _ in Self.chunk("prIv", []) }
            + (0..<100).map { Self.chunk("tEXt", Array("k\($0)".utf8) + [0, 0x41]) }
            + [Self.chunk("pHYs", [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1])], into: png)
        let file = try ImageFile.open(many, format: .png, maxPixels: 10_000)
        let types = Self.chunks(file.data).map(\.0)
        #expect(!types.contains("prIv"))
        #expect(types.filter { $0 == "tEXt" }.count == ContainerCheck.maxTextChunks)
        #expect(types.contains("pHYs"))
        // Once-only chunks are passed on once (a hostile pass: 1.25 million `gAMA` chunks in
        // 20 MB held a heavy worker 3.1 s; libpng reads each copy, then ignores it).
        let gamma = Self.chunk("gAMA", [0, 0, 0xB1, 0x8F])
        let repeated = Self.inserting([gamma] + Array(repeating: Self.chunk("gAMA", [0, 0, 0x9C, 0x40]), count: 20_000)
            + Array(repeating: Self.chunk("tIME", [0x07, 0xE4, 1, 1, 0, 0, 0]), count: 20_000)
            + Array(repeating: Self.chunk("eXIf", Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0]), count: 100), into: png)
        let once = try ImageFile.open(repeated, format: .png, maxPixels: 10_000)
        let kept = Self.chunks(once.data)
        #expect(kept.filter { $0.0 == "gAMA" }.map(\.1) == [[0, 0, 0xB1, 0x8F]], "the first gAMA, as libpng reads it")
        #expect(kept.filter { $0.0 == "tIME" }.count == 1 && kept.filter { $0.0 == "eXIf" }.count == 1)
        #expect(once.data.count < png.count + 200, "\(once.data.count) bytes passed on")
        let critical = Self.inserting([Self.chunk("ABCD", [])], into: png)
        #expect(throws: ImageError.corrupt(.png, "the ABCD chunk at byte 33 is critical but not part of PNG: no decoder can read the file")) {
            try ImageFile.open(critical, format: .png, maxPixels: 10_000)
        }
    }

    @Test func damagedPNGChunkListsAreNamed() throws {
        let png = try TestImages.png()
        func message(_ bytes: [UInt8]) -> String? {
            do {
                _ = try ImageFile.open(bytes, format: .png, maxPixels: 10_000)
                return nil
            } catch {
                return error.message
            }
        }
        var badCRC = png
        badCRC[29] ^= 0xFF  // IHDR's CRC
        #expect(message(badCRC) == "the PNG data is truncated or corrupt: the IHDR chunk at byte 8 fails its CRC check (damaged)")
        let noEnd = Array(png.dropLast(12))
        #expect(message(noEnd) == "the PNG data is truncated or corrupt: the file ends after \(noEnd.count) bytes without an IEND chunk (truncated)")
        #expect(message(Array(png.prefix(40)))?.contains("(truncated)") == true)
        let noData = Array(png.prefix(33)) + Self.chunk("IEND", [])
        #expect(message(noData) == "the PNG data is truncated or corrupt: there is no IDAT chunk: the file holds no pixel data")
    }

    // MARK: - 2. no libvips text, no other request's text

    /// A JPEG whose data ends early made libjpeg put "Corrupt JPEG data: premature end of data
    /// segment" in libvips's process-wide error buffer, where the next failing request (any
    /// client's) read it as its own reason. Messages are ours now, naming the file's own format.
    @Test func oneRequestsDecoderTextNeverReachesAnother() throws {
        let jpeg = try Self.noiseJPEG()
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10)) + [0xFF, 0xD9]
        _ = try? ImageFile.open(cut, format: .jpeg, maxPixels: 100_000).statistics(over: black)
        let png = try TestImages.png(width: 200, height: 200)
        let idat = try #require(Self.chunks(png).first { $0.0 == "IDAT" })
        let shortIDAT = Self.chunks(png).flatMap { $0.0 == "IDAT" ? Self.chunk("IDAT", Array(idat.1.prefix(idat.1.count / 2))) : Self.chunk($0.0, $0.1) }
        let brokenPNG = Array(png.prefix(8)) + shortIDAT
        var message = ""
        do {
            _ = try ImageFile.open(brokenPNG, format: .png, maxPixels: 100_000).statistics(over: black)
        } catch {
            message = error.message
        }
        #expect(message == "the PNG data is truncated or corrupt: its compressed pixel data (IDAT) is damaged or ends before all 200 rows of the 200 × 200 pixels its header declares were decoded")
        #expect(!message.contains("JPEG") && !message.contains("Vips"))
    }

    // MARK: - 3. damaged JPEGs are refused

    /// Cut at 60% with an end-of-image marker appended: libjpeg warned and filled the rest with
    /// grey, and the service answered 200. A baseline JPEG's data is now checked when it is
    /// opened (a 1/8-scale pass, since libvips misses damage in the last strip), and the
    /// decoder stops at its first warning as well.
    @Test func jpegCutShortWithAnEndMarkerIsRefused() throws {
        let jpeg = try Self.noiseJPEG()
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10)) + [0xFF, 0xD9]
        let expected = ImageError.corrupt(.jpeg, "its compressed pixel data is damaged or ends before all 96 rows of the 96 × 96 pixels its header declares were decoded")
        #expect(throws: expected) { try ImageFile.open(cut, format: .jpeg, maxPixels: 100_000) }
    }

    /// A header that claims 6000 × 6000 pixels over data for 96 × 96 was decoded as mostly
    /// grey and dimmed.
    @Test func jpegHeaderClaimingMoreRowsThanItsDataIsRefused() throws {
        let jpeg = try TestImages.jpegDeclaring(width: 6000, height: 6000)
        let expected = ImageError.corrupt(.jpeg, "its compressed pixel data is damaged or ends before all 6000 rows of the 6000 × 6000 pixels its header declares were decoded")
        #expect(throws: expected) { try ImageFile.open(jpeg, format: .jpeg, maxPixels: 40_000_000) }
    }

    @Test func jpegWithoutAnEndMarkerIsNamedAsTruncated() throws {
        let jpeg = try Self.noiseJPEG()
        #expect(throws: ImageError.corrupt(.jpeg, "the file ends without an end-of-image marker (FF D9): it is truncated")) {
            try ImageFile.open(Array(jpeg.prefix(jpeg.count - 2)), format: .jpeg, maxPixels: 100_000)
        }
        let sos = try #require((2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        #expect(throws: ImageError.corrupt(.jpeg, "the file ends after \(sos) bytes, before its image data (no SOS marker; truncated)")) {
            try ImageFile.open(Array(jpeg.prefix(sos)), format: .jpeg, maxPixels: 100_000)
        }
        #expect(throws: ImageError.corrupt(.jpeg, "the FFDA segment at byte \(sos) declares 12 bytes but only 4 follow (truncated)")) {
            try ImageFile.open(Array(jpeg.prefix(sos + 6)), format: .jpeg, maxPixels: 100_000)
        }
    }

    @Test func webpWhoseRIFFSizeIsLongerThanTheFileIsNamedAsTruncated() throws {
        let webp = try ImageEncoder.encode(pixels: TestImages.pixels(width: 32, height: 32), width: 32, height: 32,
                                           bands: 3, format: .webp)
        let cut = Array(webp.prefix(webp.count - 10))
        #expect(throws: ImageError.corrupt(.webp, "the RIFF header declares \(webp.count) bytes but the file has \(cut.count) (truncated)")) {
            try ImageFile.open(cut, format: .webp, maxPixels: 100_000)
        }
    }

    // MARK: - 4. only three loaders

    /// libvips's sniffing loader opens nothing but PNG, JPEG and WebP: SVG (librsvg), PDF
    /// (poppler), GIF, TIFF, BMP/ImageMagick and the rest are blocked at start-up.
    @Test func onlyThePNGJPEGAndWebPLoadersCanRun() throws {
        #expect(Vips.genericLoaderOpens(try TestImages.png()), "the probe itself works")
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"/></svg>".utf8)
        let pdf = Array("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 10 10]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF".utf8)
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
        let ppm = Array("P3\n1 1\n255\n0 0 0\n".utf8)
        let bmpHeader: [UInt8] = [0x42, 0x4D, 58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 24, 0]
        let bmp = bmpHeader + [UInt8](repeating: 0, count: 28)
        for (name, bytes) in [("SVG", svg), ("PDF", pdf), ("GIF", gif), ("PPM", ppm), ("BMP", bmp)] {
            #expect(!Vips.genericLoaderOpens(bytes), "\(name) was opened")
        }
    }

    // MARK: - 5. APNG frame counts are validated

    @Test func apngFrameCountMustMatchItsFrameControlChunks() throws {
        let still = try TestImages.png(width: 20, height: 20)
        let fctl = Self.chunk("fcTL", [0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 14))
        let absurd = Self.inserting([Self.chunk("acTL", [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]), fctl], into: still)
        let file = try ImageFile.open(absurd, format: .png, maxPixels: 10_000)
        #expect(file.pageCount == 1)
        #expect(file.animationProblem == "its acTL chunk declares 2147483647 frames but the file has 1 fcTL chunks")
        #expect(ImageFile.apngFrameCount(absurd) == 2_147_483_647, "what the sender wrote is still readable")
        let two = Self.inserting([Self.chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0]), fctl, fctl], into: still)
        let animated = try ImageFile.open(two, format: .png, maxPixels: 10_000)
        #expect(animated.pageCount == 2 && animated.animationProblem == nil)
    }

    // MARK: - colour transforms of small images

    /// libvips builds an lcms2 transform per request, and lcms2 precalculated a 17^4 grid for
    /// CMYK input before converting a pixel (hostile test: 130 ms for a 1.2 KB JPEG). Images
    /// smaller than the grid are converted pixel by pixel; large ones still get the grid.
    @Test func smallCMYKImagesSkipTheTransformPrecalculation() throws {
        func cmyk(_ width: Int, _ height: Int) throws -> ImageFile {
            let px = (0..<(width * height)).flatMap { i -> [UInt16] in i % width < width / 2 ? [0, 0, 0, 0] : [0, 0, 0, 255] }
            let jpeg = try ImageEncoder.encode(pixels: px, width: width, height: height, bands: 4, format: .jpeg, cmyk: true)
            return try ImageFile.open(jpeg, format: .jpeg, maxPixels: 1_000_000)
        }
        let small = try cmyk(48, 48), large = try cmyk(300, 300)
        let before = Vips.precalcSkipped
        let s = try small.statistics(over: black)
        let afterSmall = Vips.precalcSkipped
        #expect(afterSmall > before)
        let l = try large.statistics(over: black)
        #expect(abs(s.nearWhiteShare - 0.5) < 0.05 && abs(l.nearWhiteShare - 0.5) < 0.05)
        // Both paths give the same white and black (to a code value or two).
        #expect(abs((s.whiteLevel ?? 0) - (l.whiteLevel ?? 1)) < 0.01)
    }

    /// A zlib stream of stored (uncompressed) deflate blocks holding `data`, for PNG image data
    /// written byte by byte (RFC 1950, RFC 1951 §3.2.4).
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var (a, b): (UInt32, UInt32) = (1, 0)
        for x in data { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        var i = 0
        repeat {
            let n = Swift.min(65535, data.count - i)
            out += [i + n == data.count ? 1 : 0, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
            out += data[i..<i + n]
            i += n
        } while i < data.count
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 255), UInt8(adler >> 8 & 255), UInt8(adler & 255)]
    }

    /// A palette PNG (`depth` bits an index) of `width × height` with `palette` (RGB triples)
    /// and one IDAT chunk of `rows` (filter bytes included), stored.
    static func palettePNG(width: Int, height: Int, depth: UInt8, palette: [UInt8], rows: [UInt8], interlaced: Bool = false) -> [UInt8] {
        var ihdr = [UInt8](repeating: 0, count: 13)
        TestImages.put32(&ihdr, 0, UInt32(width))
        TestImages.put32(&ihdr, 4, UInt32(height))
        ihdr[8] = depth
        ihdr[9] = 3
        ihdr[12] = interlaced ? 1 : 0
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("PLTE", palette)
            + chunk("IDAT", storedZlib(rows)) + chunk("IEND", [])
    }

    /// A hostile pass: an IHDR with colour type 5, or bit depth 3 for RGB, or a palette image
    /// without PLTE was a 400 saying only that the decoder "could not read its header"; each
    /// field is now named.
    @Test func invalidIHDRFieldsAreNamed() throws {
        func png(depth: UInt8, type: UInt8, compression: UInt8 = 0, filter: UInt8 = 0, interlace: UInt8 = 0, palette: [UInt8]? = nil) -> [UInt8] {
            var ihdr = [UInt8](repeating: 0, count: 13)
            TestImages.put32(&ihdr, 0, 2)
            TestImages.put32(&ihdr, 4, 2)
            (ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]) = (depth, type, compression, filter, interlace)
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.chunk("IHDR", ihdr) + (palette.map { Self.chunk("PLTE", $0) } ?? [])
                + Self.chunk("IDAT", Self.storedZlib([0, 0, 0, 0, 0, 0])) + Self.chunk("IEND", [])
        }
        func message(_ bytes: [UInt8]) -> String {
            do { _ = try ImageFile.open(bytes, format: .png, maxPixels: 100); return "opened" } catch { return error.message }
        }
        #expect(message(png(depth: 8, type: 5)) == "the PNG data is truncated or corrupt: its IHDR chunk is not valid: colour type 5 is none of PNG's (0 greyscale, 2 RGB, 3 palette, 4 greyscale with alpha, 6 RGBA) (PNG §11.2.1)")
        #expect(message(png(depth: 3, type: 2)) == "the PNG data is truncated or corrupt: its IHDR chunk is not valid: bit depth 3 is not allowed for colour type 2, truecolour (RGB) (allowed: 8, 16) (PNG §11.2.1)")
        #expect(message(png(depth: 8, type: 0, compression: 1)) == "the PNG data is truncated or corrupt: its IHDR chunk is not valid: compression method 1 is not 0, the only one PNG defines (PNG §11.2.1)")
        #expect(message(png(depth: 8, type: 0, interlace: 2)) == "the PNG data is truncated or corrupt: its IHDR chunk is not valid: interlace method 2 is neither 0 (none) nor 1 (Adam7) (PNG §11.2.1)")
        #expect(message(png(depth: 1, type: 3)) == "the PNG data is truncated or corrupt: its header declares a palette image (colour type 3) but no PLTE chunk comes before its pixel data (PNG §11.2.2)")
        #expect(message(png(depth: 1, type: 3, palette: [0, 0, 0, 255])) == "the PNG data is truncated or corrupt: the PLTE chunk is 4 bytes: a palette is 1 to 256 colors of 3 bytes each (PNG §11.2.2)")
        // The valid forms of the same still open.
        #expect(message(png(depth: 1, type: 3, palette: [0, 0, 0, 255, 255, 255])) == "opened")
    }

    /// A second hostile pass: a palette PNG whose pixels use an index past its PLTE was decoded
    /// with those pixels black and measured (PNG §11.2.2 calls it an error). The indices are now
    /// checked after each row's filter is undone; padding bits after a row's last pixel are not
    /// indices.
    @Test func paletteIndexPastThePLTEIsRefused() throws {
        let two: [UInt8] = [255, 255, 255, 0, 0, 0]
        // 4 × 2, 8 bits: indices 0 1 0 1 / 1 0 1 0 (filter 0) are fine.
        let fine: [UInt8] = [0, 0, 1, 0, 1, 0, 1, 0, 1, 0]
        let file = try ImageFile.open(Self.palettePNG(width: 4, height: 2, depth: 8, palette: two, rows: fine), format: .png, maxPixels: 100)
        #expect(try file.statistics(over: SIMD3(1, 1, 1)).pixelCount == 8)
        // Index 5 in the second row.
        let five: [UInt8] = [0, 0, 1, 0, 1, 0, 1, 5, 1, 0]
        #expect(throws: ImageError.corrupt(.png, "a pixel uses palette index 5, past the 2 colors of its PLTE chunk (PNG §11.2.2: an index past the palette is an error)")) {
            try ImageFile.open(Self.palettePNG(width: 4, height: 2, depth: 8, palette: two, rows: five), format: .png, maxPixels: 100)
        }
        // Filtered rows: every filtered byte is 0 or 1, but Sub (1) makes the second row 1 2 … and
        // Up (2) the same from the first: only the unfiltered index 2 is past the palette.
        let sub: [UInt8] = [0, 0, 1, 0, 1, 1, 1, 1, 0, 0]
        #expect(throws: ImageError.corrupt(.png, "a pixel uses palette index 2, past the 2 colors of its PLTE chunk (PNG §11.2.2: an index past the palette is an error)")) {
            try ImageFile.open(Self.palettePNG(width: 4, height: 2, depth: 8, palette: two, rows: sub), format: .png, maxPixels: 100)
        }
        let up: [UInt8] = [0, 0, 1, 0, 1, 2, 0, 1, 0, 1]
        #expect(throws: ImageError.corrupt(.png, "a pixel uses palette index 2, past the 2 colors of its PLTE chunk (PNG §11.2.2: an index past the palette is an error)")) {
            try ImageFile.open(Self.palettePNG(width: 4, height: 2, depth: 8, palette: two, rows: up), format: .png, maxPixels: 100)
        }
        let upFine: [UInt8] = [0, 0, 1, 0, 1, 2, 1, 0, 1, 0]
        _ = try ImageFile.open(Self.palettePNG(width: 4, height: 2, depth: 8, palette: two, rows: upFine), format: .png, maxPixels: 100)
        // 3 × 1 at 2 bits with three colors: 0b00_01_10_11, the last two bits padding, is fine;
        // 0b11_00_00_00 uses index 3.
        let three: [UInt8] = two + [128, 128, 128]
        _ = try ImageFile.open(Self.palettePNG(width: 3, height: 1, depth: 2, palette: three, rows: [0, 0b0001_1011]), format: .png, maxPixels: 100)
        #expect(throws: ImageError.corrupt(.png, "a pixel uses palette index 3, past the 3 colors of its PLTE chunk (PNG §11.2.2: an index past the palette is an error)")) {
            try ImageFile.open(Self.palettePNG(width: 3, height: 1, depth: 2, palette: three, rows: [0, 0b1100_0000]), format: .png, maxPixels: 100)
        }
        // A full palette for the depth leaves no index out of range (1 bit, two colors).
        _ = try ImageFile.open(Self.palettePNG(width: 8, height: 1, depth: 1, palette: two, rows: [0, 0b1010_1010]), format: .png, maxPixels: 100)
        // Interlaced 2 × 2 at 8 bits: Adam7's passes 1 (0,0), 6 (1,0) and 7 (row 1) carry the
        // pixels; index 7 in pass 7.
        let adam7: [UInt8] = [0, 0] + [0, 1] + [0, 1, 7]
        #expect(throws: ImageError.corrupt(.png, "a pixel uses palette index 7, past the 2 colors of its PLTE chunk (PNG §11.2.2: an index past the palette is an error)")) {
            try ImageFile.open(Self.palettePNG(width: 2, height: 2, depth: 8, palette: two, rows: adam7, interlaced: true), format: .png, maxPixels: 100)
        }
        _ = try ImageFile.open(Self.palettePNG(width: 2, height: 2, depth: 8, palette: two, rows: [0, 0, 0, 1, 0, 1, 0], interlaced: true), format: .png, maxPixels: 100)
    }

    /// An 8-bit gray PNG of `width × height` whose one IDAT chunk is `idat`.
    static func grayPNG(width: Int, height: Int, idat: [UInt8], interlaced: Bool = false) -> [UInt8] {
        var ihdr = [UInt8](repeating: 0, count: 13)
        TestImages.put32(&ihdr, 0, UInt32(width))
        TestImages.put32(&ihdr, 4, UInt32(height))
        ihdr[8] = 8
        ihdr[12] = interlaced ? 1 : 0
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// A hostile pass: a 10 × 10 PNG whose IDAT is a zlib header and an invalid deflate block
    /// (`78 9C` and fifty `FF`) was a 400 most times, but 1 request in 10 to 60 a 200 whose
    /// pixels were uninitialised memory (libvips 8.14's PNG loader). The image data is now
    /// inflated once more when the file is opened, and must hold every row the header declares
    /// (each with a filter type 0–4, Adam7's passes for an interlaced file).
    @Test func pngImageDataMustHoldEveryRow() throws {
        let expected = ImageError.corrupt(.png, "its compressed pixel data (IDAT) is damaged or ends before all 4 rows of the 6 × 4 pixels its header declares were decoded")
        // 6 × 4 gray, each row filter 0 and six levels.
        let rows: [UInt8] = (0..<4).flatMap { y -> [UInt8] in [0] + (0..<6).map { UInt8(40 * $0 + y) } }
        let intact = try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: Self.storedZlib(rows)), format: .png, maxPixels: 100)
        #expect(try intact.statistics(over: SIMD3(1, 1, 1)).pixelCount == 24)
        // Data after the last row is not read (libpng ignores it too).
        _ = try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: Self.storedZlib(rows + [0, 9, 9])), format: .png, maxPixels: 100)
        let invalid: [UInt8] = [0x78, 0x9C] + [UInt8](repeating: 0xFF, count: 50)
        for _ in 0..<50 {
            #expect(throws: expected) { try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: invalid), format: .png, maxPixels: 100) }
        }
        var badFilter = rows
        badFilter[14] = 5  // the third row's filter type
        #expect(throws: expected) { try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: Self.storedZlib(badFilter)), format: .png, maxPixels: 100) }
        #expect(throws: expected) { try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: Self.storedZlib(Array(rows.prefix(21)))), format: .png, maxPixels: 100) }
        // Adam7 on 6 × 4: passes of 1×1, 1×1, none, 1×1, 3×1, 3×2 and 6×2 pixels, 32 bytes with
        // the filter bytes. libpng decodes 32; 31 ends inside the last row.
        let adam7 = try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: Self.storedZlib([UInt8](repeating: 0, count: 32)), interlaced: true),
                                       format: .png, maxPixels: 100)
        #expect(try adam7.statistics(over: SIMD3(1, 1, 1)).pixelCount == 24)
        #expect(throws: expected) {
            try ImageFile.open(Self.grayPNG(width: 6, height: 4, idat: Self.storedZlib([UInt8](repeating: 0, count: 31)), interlaced: true), format: .png, maxPixels: 100)
        }
        // Real files, interlaced and animated, open.
        for name in ["interlaced-64x48.png", "animated-3-frames.png"] {
            let bytes = try [UInt8](Data(contentsOf: FixtureLoader.url("images/" + name)))
            _ = try ImageFile.open(bytes, format: .png, maxPixels: 100_000)
        }
    }

    /// A hostile pass: an 18 MB `eXIf` block of 60,000 entries cost 2.7 s to analyze and 4–5 s
    /// to fail to encode. EXIF is read up to what a JPEG can hold (64 KiB), in PNG and WebP; more
    /// is a 4xx naming the chunk and its size, before any decoding.
    @Test func exifLargerThanAJPEGCanHoldIsRefusedUnread() throws {
        func exif(_ bytes: Int) -> [UInt8] { Array("II*\u{0}".utf8) + [8, 0, 0, 0] + [UInt8](repeating: 0, count: bytes - 8) }
        let big = Self.inserting([Self.chunk("eXIf", exif(ContainerCheck.maxEXIFBytes + 1))], into: try TestImages.png())
        #expect {
            _ = try ImageFile.open(big, format: .png, maxPixels: 10_000)
        } throws: { e in
            guard case .unsupported(let why)? = e as? ImageError else { return false }
            return why.hasPrefix("the PNG's eXIf chunk (EXIF metadata) is 65537 bytes; this service reads at most 65536 bytes of EXIF")
        }
        let fits = Self.inserting([Self.chunk("eXIf", exif(ContainerCheck.maxEXIFBytes))], into: try TestImages.png())
        #expect(throws: Never.self) { _ = try ContainerCheck.check(fits, format: .png) }
        // WebP: a RIFF of a VP8L chunk header and an EXIF chunk one byte over.
        var webp = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        webp += Array("VP8L".utf8) + [0, 0, 0, 0]
        let size = ContainerCheck.maxEXIFBytes + 1
        webp += Array("EXIF".utf8) + [UInt8(size & 255), UInt8(size >> 8 & 255), UInt8(size >> 16 & 255), 0] + exif(size) + [0]
        let riff = webp.count - 8
        (webp[4], webp[5], webp[6], webp[7]) = (UInt8(riff & 255), UInt8(riff >> 8 & 255), UInt8(riff >> 16 & 255), 0)
        #expect {
            _ = try ContainerCheck.check(webp, format: .webp)
        } throws: { e in
            guard case .unsupported(let why)? = e as? ImageError else { return false }
            return why.hasPrefix("the WebP's EXIF chunk (EXIF metadata) is 65537 bytes")
        }
    }
}
