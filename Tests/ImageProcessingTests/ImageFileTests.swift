import Foundation
import ColorScience
@testable import ImageProcessing
import TestSupport
import Testing

@Suite struct ImageFileTests {
    let black = SIMD3<Double>(0, 0, 0)

    @Test func sniffsSignatures() throws {
        #expect(ImageFormat.sniff(try TestImages.png()) == .png)
        #expect(ImageFormat.sniff(try TestImages.jpeg()) == .jpeg)
        #expect(ImageFormat.sniff(Array("GIF89a....".utf8)) == nil)
        #expect(ImageFormat.describeUnrecognized(Array("GIF89a....".utf8)) == "a GIF image")
        #expect(ImageFormat.describeUnrecognized(Array(" {\"a\":1}".utf8)) == "JSON text")
        #expect(ImageFormat.describeUnrecognized([1, 2, 3]) == "unknown data starting with bytes 01 02 03")
    }

    @Test func readsTheHeaderOfAnRGBAPNG() throws {
        let file = try ImageFile.open(try TestImages.png(bands: 4), format: .png, maxPixels: 10_000)
        #expect(file.width == 60 && file.height == 40 && file.bands == 4 && file.hasAlpha)
        #expect(file.bitsPerSample == 8 && file.orientation == 1 && file.colorHandling == .assumedSRGB)
    }

    @Test func whiteBackgroundIsDetected() throws {
        let file = try ImageFile.open(try TestImages.png(), format: .png, maxPixels: 10_000)
        let s = try file.statistics(over: black)
        #expect(s.borderNearWhiteShare == 1)
        #expect(abs(s.nearWhiteShare - 8.0 / 9.0) < 0.01)
        #expect(s.whiteLevel == 1 && s.peakLuminance == 1)
        #expect(DimRule.hasWhiteBackground(s))
    }

    @Test func darkImageIsNotAWhiteBackground() throws {
        let file = try ImageFile.open(try TestImages.png(background: [20, 24, 30]), format: .png, maxPixels: 10_000)
        let s = try file.statistics(over: black)
        #expect(s.nearWhiteShare == 0 && s.whiteLevel == nil && s.meanLuminance < 0.02)
        #expect(!DimRule.hasWhiteBackground(s))
    }

    /// A transparent border shows the dark background, so it is not a white background.
    @Test func transparentPixelsAreMeasuredOverTheBackground() throws {
        let border = { (x: Int, y: Int) -> UInt16 in (x < 5 || y < 5 || x >= 55 || y >= 35) ? 0 : 255 }
        let file = try ImageFile.open(try TestImages.png(bands: 4, alpha: border), format: .png, maxPixels: 10_000)
        #expect(try file.statistics(over: black).borderNearWhiteShare == 0)
        #expect(try file.statistics(over: SIMD3(1, 1, 1)).borderNearWhiteShare == 1)
    }

    @Test func dimKeepsAlphaAndDepthOf16BitPNG() throws {
        let alpha = { (x: Int, _: Int) -> UInt16 in UInt16(x * 4) }
        let source = try TestImages.png(bands: 4, bits: 16, alpha: alpha)
        let file = try ImageFile.open(source, format: .png, maxPixels: 10_000)
        #expect(file.bitsPerSample == 16)
        let out = try file.dimmed(factor: 0.5, flattenOver: black)
        #expect(out.format == .png && out.flattenedOver == nil)
        let back = try ImageFile.open(out.bytes, format: .png, maxPixels: 10_000)
        #expect(back.bitsPerSample == 16 && back.bands == 4)
        let before = try file.rawPixels(), after = try back.rawPixels()
        for (x, y) in [(0, 0), (30, 20), (59, 39), (13, 7)] {
            #expect(before.pixel(x, y).last == after.pixel(x, y).last, "alpha at \(x),\(y)")
        }
        // White halves in linear light: 16-bit code of encode(0.5) = 0.7354 × 65535.
        let white = Double(after.pixel(0, 0).first!) / 65535
        #expect(abs(WCAG.linearize(white) - 0.5) < 1e-4)
    }

    @Test func jpegKeepsExifOrientation() throws {
        let source = try TestImages.jpeg(width: 60, height: 40, orientation: 6)
        let file = try ImageFile.open(source, format: .jpeg, maxPixels: 10_000)
        #expect(file.orientation == 6 && file.displayWidth == 40 && file.displayHeight == 60)
        for format in ImageFormat.allCases {
            let out = try file.dimmed(factor: 0.8, as: format, flattenOver: black)
            let back = try ImageFile.open(out.bytes, format: format, maxPixels: 10_000)
            #expect(back.orientation == 6, "\(format)")
            #expect(back.width == 60 && back.height == 40, "pixels are not rotated")
        }
    }

    @Test func displayP3ProfileIsKeptByteForByte() throws {
        let p3 = TestImages.displayP3
        let file = try ImageFile.open(try TestImages.png(icc: p3), format: .png, maxPixels: 10_000)
        #expect(file.colorHandling == .profileKept(description: "Display P3"))
        for format in ImageFormat.allCases {
            let out = try file.dimmed(factor: 0.7, as: format, flattenOver: black)
            let back = try ImageFile.open(out.bytes, format: format, maxPixels: 10_000)
            #expect(back.iccProfile == p3, "\(format)")
        }
        // 16-bit P3 to JPEG: the depth drops, the profile stays.
        let deep = try ImageFile.open(try TestImages.png(bits: 16, icc: p3), format: .png, maxPixels: 10_000)
        let jpeg = try ImageFile.open(try deep.dimmed(factor: 0.7, as: .jpeg, flattenOver: black).bytes,
                                      format: .jpeg, maxPixels: 10_000)
        #expect(jpeg.iccProfile == p3 && jpeg.bitsPerSample == 8)
    }

    @Test func jpegOutputFlattensAlphaOverTheBackground() throws {
        let clear = { (_: Int, _: Int) -> UInt16 in 0 }
        let file = try ImageFile.open(try TestImages.png(bands: 4, alpha: clear), format: .png, maxPixels: 10_000)
        let bg = SIMD3<Double>(28, 28, 30) / 255
        let out = try file.dimmed(factor: 1, as: .jpeg, flattenOver: bg)
        #expect(out.flattenedOver == bg)
        let px = try ImageFile.open(out.bytes, format: .jpeg, maxPixels: 10_000).rawPixels()
        #expect(px.bands == 3)
        #expect(abs(Int(px.pixel(0, 0)[px.pixel(0, 0).startIndex]) - 28) <= 2)
    }

    @Test func headerDeclaringHugeDimensionsIsRefusedBeforeDecoding() throws {
        let png = try TestImages.pngDeclaring(width: 100_000, height: 100_000)
        #expect(throws: ImageError.tooManyPixels(format: .png, width: 100_000, height: 100_000, limit: 40_000_000)) {
            try ImageFile.open(png, format: .png, maxPixels: 40_000_000)
        }
        let jpeg = try TestImages.jpegDeclaring(width: 65_000, height: 65_000)
        #expect(throws: ImageError.tooManyPixels(format: .jpeg, width: 65_000, height: 65_000, limit: 40_000_000)) {
            try ImageFile.open(jpeg, format: .jpeg, maxPixels: 40_000_000)
        }
    }

    /// A hostile pass: a 1,000,000 × 40 16-bit RGBA PNG (40 MP, 311 KB) peaked at 595 MiB on
    /// every image route, over the manifest's 512 MiB, because libvips's few buffered rows grow
    /// with the width. A decoded row may hold at most 128 KiB as RGBA, checked from the header.
    @Test func rowsWiderThanTheRowLimitAreRefusedFromTheHeader() throws {
        let wide = try TestImages.pngDeclaring(width: 1_000_000, height: 40)  // 8-bit: 4 bytes a pixel as RGBA
        #expect(throws: ImageError.rowTooLong(format: .png, width: 1_000_000, rowBytes: 4_000_000, limit: 131_072)) {
            try ImageFile.open(wide, format: .png, maxPixels: 40_000_000)
        }
        // 32,768 × 4 = 131,072 bytes: at the limit (the tiny data then fails to decode); one
        // pixel more is refused, whatever the file's bands (a second hostile pass: 8-bit gray
        // 262,144 wide peaked at 420 MiB).
        #expect(throws: ImageError.rowTooLong(format: .png, width: 32_769, rowBytes: 131_076, limit: 131_072)) {
            try ImageFile.open(try TestImages.pngDeclaring(width: 32_769, height: 40), format: .png, maxPixels: 40_000_000)
        }
        let under = try TestImages.pngDeclaring(width: 32_768, height: 40)
        do {
            _ = try ImageFile.open(under, format: .png, maxPixels: 40_000_000)
        } catch {
            if case .rowTooLong = error { Issue.record("refused at 131,072 bytes a row") }
        }
        #expect(ImageFile.maximumRowBytes == 131_072)
    }

    /// A hostile pass: a progressive JPEG and an interlaced 16-bit PNG of 6000 × 6600 (39.6 MP,
    /// under the limit; 0.47 MB each) peaked at 528 and 597 MiB in text-contrast, where a
    /// baseline one peaks at 300: their decoders hold the whole image. Their pixels count twice.
    @Test func progressiveAndInterlacedImagesCountTwice() throws {
        let limit = 40_000_000
        let png = try TestImages.pngDeclaring(width: 6000, height: 4000, interlaced: true)
        #expect(throws: ImageError.tooManyPixels(format: .png, width: 6000, height: 4000, limit: limit, decodedWhole: "an interlaced PNG")) {
            try ImageFile.open(png, format: .png, maxPixels: limit)
        }
        let jpeg = try TestImages.jpegDeclaring(width: 6000, height: 4000, progressive: true)
        #expect(throws: ImageError.tooManyPixels(format: .jpeg, width: 6000, height: 4000, limit: limit, decodedWhole: "a progressive JPEG")) {
            try ImageFile.open(jpeg, format: .jpeg, maxPixels: limit)
        }
        // A WebP too (a hostile pass, stop 39: a 38-byte lossless WebP of 40 MP peaked at 364 MiB,
        // the same PNG at 178): libwebp decodes a frame whole.
        let webp = try ImageEncoder.encode(pixels: TestImages.pixels(width: 64, height: 48), width: 64, height: 48, bands: 3, format: .webp)
        #expect(throws: ImageError.tooManyPixels(format: .webp, width: 64, height: 48, limit: 64 * 48 * 2 - 2, decodedWhole: "a WebP")) {
            try ImageFile.open(webp, format: .webp, maxPixels: 64 * 48 * 2 - 2)
        }
        let opened = try ImageFile.open(webp, format: .webp, maxPixels: 64 * 48 * 2).rawPixels()
        #expect(opened.width == 64 && opened.height == 48)
        #expect(ImageError.tooManyPixels(format: .webp, width: 64, height: 48, limit: 6142, decodedWhole: "a WebP").message.hasSuffix("(save it as a PNG or JPEG, or smaller)"))
        #expect(ImageError.tooManyPixels(format: .jpeg, width: 6000, height: 4000, limit: limit, decodedWhole: "a progressive JPEG").message
                == "the JPEG header declares 6000 × 4000 = 24000000 pixels; a progressive JPEG is decoded whole into memory, not in strips, so it may have at most half the limit of 40000000 (20000000); it was refused before decoding (save it as a baseline JPEG, or smaller)")
        // The same sizes, baseline and not interlaced, pass the pixel check (their tiny data
        // then fails to decode: only the header was made large).
        for (bytes, format) in [(try TestImages.pngDeclaring(width: 6000, height: 4000), ImageFormat.png),
                                (try TestImages.jpegDeclaring(width: 6000, height: 4000), .jpeg)] {
            do {
                let file = try ImageFile.open(bytes, format: format, maxPixels: limit)
                _ = try? file.rawPixels()
            } catch {
                if case .tooManyPixels = error { Issue.record("\(format): \(error.message)") }
            }
        }
        // Real files (made by Pillow and by hand: Tests/Fixtures/images/README.md): under half
        // the limit they open and decode; one pixel over it, they are refused.
        // (10, 7) is (40, 35, 128) in the PNG, and (36, 36, 126) in the JPEG as Pillow 11 decodes it.
        for (name, format, expected) in [("progressive-64x48.jpg", ImageFormat.jpeg, [36, 36, 126]), ("interlaced-64x48.png", .png, [40, 35, 128])] {
            let bytes = Array(try Data(contentsOf: FixtureLoader.url("images/\(name)")))
            let px = try ImageFile.open(bytes, format: format, maxPixels: 64 * 48 * 2).rawPixels()
            #expect(px.width == 64 && px.height == 48 && px.bands == 3, "\(name)")
            let p = Array(px.pixel(10, 7)).map(Int.init)
            #expect(zip(p, expected).allSatisfy { abs($0 - $1) <= (format == .jpeg ? 1 : 0) }, "\(name): \(p)")
            #expect(throws: ImageError.self) { try ImageFile.open(bytes, format: format, maxPixels: 64 * 48 * 2 - 2) }
        }
    }

    @Test(arguments: [ImageFormat.png, .jpeg, .webp])
    func truncatedFilesFailCleanly(format: ImageFormat) throws {
        let whole = try ImageEncoder.encode(pixels: TestImages.pixels(width: 64, height: 64), width: 64, height: 64,
                                            bands: 3, format: format)
        for keep in [whole.count / 2, whole.count * 3 / 4, 40, 20] {
            let cut = Array(whole.prefix(keep))
            var failed = false
            do {
                let file = try ImageFile.open(cut, format: format, maxPixels: 1_000_000)
                _ = try file.statistics(over: black)
                _ = try file.dimmed(factor: 0.8, flattenOver: black)
            } catch {
                failed = true
                if case .corrupt = error {} else { Issue.record("\(format) cut at \(keep): \(error)") }
            }
            #expect(failed, "\(format) truncated to \(keep) of \(whole.count) bytes was accepted")
        }
    }

    @Test func garbageAfterAValidSignatureFails() {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += [UInt8](repeating: 0x41, count: 100)
        #expect(throws: ImageError.self) { try ImageFile.open(bytes, format: .png, maxPixels: 1000) }
        #expect(throws: ImageError.empty) { try ImageFile.open([], format: .png, maxPixels: 1000) }
    }

    /// CMYK JPEGs (print workflows) are converted to sRGB; no ink is white.
    @Test func cmykJPEGIsConvertedToSRGB() throws {
        let px = (0..<(40 * 30)).flatMap { i -> [UInt16] in i % 40 < 20 ? [0, 0, 0, 0] : [0, 0, 0, 255] }
        let jpeg = try ImageEncoder.encode(pixels: px, width: 40, height: 30, bands: 4, format: .jpeg, cmyk: true)
        let file = try ImageFile.open(jpeg, format: .jpeg, maxPixels: 10_000)
        #expect(file.isCMYK && !file.hasAlpha)
        guard case .convertedToSRGB = file.colorHandling else {
            Issue.record("\(file.colorHandling)")
            return
        }
        let s = try file.statistics(over: black)
        #expect(abs(s.nearWhiteShare - 0.5) < 0.05)
        let out = try ImageFile.open(try file.dimmed(factor: 0.8, flattenOver: black).bytes, format: .jpeg, maxPixels: 10_000)
        #expect(!out.isCMYK && out.bands == 3)
    }

    @Test func grayAndGrayAlphaPNGs() throws {
        for bands in [1, 2] {
            let px = TestImages.pixels(width: 30, height: 30, bands: bands, background: [250], square: [10])
            let png = try ImageEncoder.encode(pixels: px, width: 30, height: 30, bands: bands, format: .png)
            let file = try ImageFile.open(png, format: .png, maxPixels: 10_000)
            #expect(file.colorBands == 1 && file.hasAlpha == (bands == 2))
            #expect(DimRule.hasWhiteBackground(try file.statistics(over: black)))
            for format in ImageFormat.allCases {
                let out = try file.dimmed(factor: 0.7, as: format, flattenOver: black)
                #expect(!out.bytes.isEmpty, "\(bands) bands to \(format)")
            }
        }
    }
}

/// The APNG frame count reads only a well-formed chunk list before the first IDAT: truncated,
/// oversized or garbage lengths give nil, never a trap.
@Test func apngFrameCountIsReadDefensively() {
    func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let n = payload.count
        return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + Array(type.utf8) + payload + [0, 0, 0, 0]
    }
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = chunk("IHDR", [UInt8](repeating: 0, count: 13))
    let actl = chunk("acTL", [0, 0, 0, 7, 0, 0, 0, 0])
    #expect(ImageFile.apngFrameCount(signature + ihdr + actl + chunk("IDAT", [1])) == 7)
    #expect(ImageFile.apngFrameCount(signature + ihdr + chunk("IDAT", [1]) + actl) == nil)  // after IDAT: not APNG
    #expect(ImageFile.apngFrameCount(signature + ihdr) == nil)
    #expect(ImageFile.apngFrameCount(signature + ihdr + Array(actl.prefix(10))) == nil)
    #expect(ImageFile.apngFrameCount(signature + [0xFF, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8)) == nil)
    #expect(ImageFile.apngFrameCount(signature + [0x7F, 0xFF, 0xFF, 0xF0] + Array("tEXt".utf8)) == nil)
    #expect(ImageFile.apngFrameCount(Array(signature.prefix(5))) == nil)
    #expect(ImageFile.apngFrameCount(signature + ihdr + chunk("acTL", [0, 0, 0, 0, 0, 0, 0, 0])) == nil)
}
