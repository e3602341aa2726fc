import ColorScience
import CVipsShim

/// How an image's colors are interpreted and what ``ImageFile/dimmed(factor:as:quality:flattenOver:)``
/// does with its ICC profile.
public enum ColorHandling: Sendable, Equatable {
    /// No embedded profile: the pixels are taken as sRGB (the web's and PNG's default).
    case assumedSRGB
    /// A matrix/TRC RGB or gray-TRC profile (sRGB, Display P3, Adobe RGB, Rec. 2020, ...):
    /// dimming runs through the profile's own tone curves in its linear light, and the profile
    /// is kept byte for byte, so colors stay in the image's gamut (a P3 image stays P3).
    case profileKept(description: String)
    /// Any other profile (LUT-based, CMYK) or a CMYK image: converted to sRGB with lcms2
    /// (relative colorimetric) first; the output carries libvips's sRGB profile.
    case convertedToSRGB(description: String)

    /// A short label: `assumed-srgb`, `kept`, `converted-to-srgb`.
    public var kind: String {
        switch self {
        case .assumedSRGB: "assumed-srgb"
        case .profileKept: "kept"
        case .convertedToSRGB: "converted-to-srgb"
        }
    }

    /// The embedded profile's description, if there is one.
    public var profileDescription: String? {
        switch self {
        case .assumedSRGB: nil
        case .profileKept(let d), .convertedToSRGB(let d): d
        }
    }
}

/// An encoded image produced by the service.
public struct EncodedImage: Sendable {
    /// The container format of `bytes`.
    public var format: ImageFormat
    /// The encoded file.
    public var bytes: [UInt8]
    /// Set when translucent pixels had to be composited over this opaque sRGB color (`0...1`)
    /// because the output format (JPEG) has no alpha.
    public var flattenedOver: SIMD3<Double>?

    /// Wraps encoded bytes (for example the input returned unchanged).
    public init(format: ImageFormat, bytes: [UInt8], flattenedOver: SIMD3<Double>? = nil) {
        self.format = format
        self.bytes = bytes
        self.flattenedOver = flattenedOver
    }
}

/// Pixels as decoded, for tests and tools: samples widened to `UInt16` (8-bit values stay
/// `0...255`), bands interleaved, rows top to bottom, in the stored (not EXIF-rotated) order.
public struct RawPixels: Sendable, Equatable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Samples per pixel, alpha included.
    public var bands: Int
    /// 8 or 16: the range of `samples` (`0...255` or `0...65535`).
    public var bitsPerSample: Int
    /// `width × height × bands` samples.
    public var samples: [UInt16]

    /// Pixels from known values.
    public init(width: Int, height: Int, bands: Int, bitsPerSample: Int, samples: [UInt16]) {
        self.width = width
        self.height = height
        self.bands = bands
        self.bitsPerSample = bitsPerSample
        self.samples = samples
    }

    /// The samples of the pixel at `x, y`.
    public func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt16> {
        let i = (y * width + x) * bands
        return samples[i..<i + bands]
    }
}

/// One image opened from memory with libvips: the header is read, the pixels are not decoded
/// until an analysis or a dim asks for them (so limits are checked before any decoding).
///
/// ```swift
/// let file = try ImageFile.open(bytes, format: .png, maxPixels: 40_000_000)
/// let stats = try file.statistics(over: SIMD3(0, 0, 0))
/// let out = try file.dimmed(factor: 0.77, as: .png, quality: 90, flattenOver: SIMD3(0, 0, 0))
/// ```
///
/// Not thread-safe; open one per request. Cost: the open copies the bytes once; a dim keeps at
/// most a few strips of pixels in memory (libvips streams top to bottom); an analysis holds one
/// 8-bit RGB copy of the image (3 bytes per pixel).
public final class ImageFile {
    /// The container format (the loader used; never guessed by libvips).
    public let format: ImageFormat
    /// Stored width in pixels (before EXIF orientation).
    public let width: Int
    /// Stored height in pixels (before EXIF orientation).
    public let height: Int
    /// Bands including alpha (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA or CMYK, 5 CMYK+alpha).
    public let bands: Int
    /// 8 or 16.
    public let bitsPerSample: Int
    /// Whether the last band is alpha (straight, not premultiplied).
    public let hasAlpha: Bool
    /// EXIF orientation `1...8` (1 when absent). Kept in dimmed output; pixels are not rotated.
    public let orientation: Int
    /// Frames in the file; only the first is read. For an APNG, the count its `acTL` chunk
    /// declares only when the file holds that many `fcTL` chunks (else 1: see
    /// ``animationProblem``).
    public let pageCount: Int
    /// Why an APNG's animation chunks were not believed (`acTL` and the `fcTL` chunks disagree);
    /// nil otherwise.
    public let animationProblem: String?
    /// The file embeds an ICC profile that the decoder found invalid, or one of another kind
    /// than the image's colors (`ICCProfile.suits`), and it was ignored, as browsers ignore it:
    /// the pixels are then taken as sRGB (``colorHandling`` is `.assumedSRGB`).
    public let invalidProfileIgnored: Bool
    /// Whether the pixels are CMYK.
    public let isCMYK: Bool
    /// The embedded ICC profile.
    public let iccProfile: [UInt8]?
    /// How colors are read and what a dim does with the profile.
    public let colorHandling: ColorHandling

    /// The encoded bytes: libvips streams pixels top to bottom once per load (sequential
    /// access keeps memory at a few strips), so every pixel pass loads them afresh.
    let data: [UInt8]

    /// Width as displayed, after EXIF orientation (5–8 swap width and height).
    public var displayWidth: Int { orientation >= 5 ? height : width }
    /// Height as displayed, after EXIF orientation.
    public var displayHeight: Int { orientation >= 5 ? width : height }
    /// Bands that carry color (without alpha).
    public var colorBands: Int { bands - (hasAlpha ? 1 : 0) }

    init(format: ImageFormat, image: VipsHandle, container: ContainerCheck) throws(ImageError) {
        self.format = format
        self.data = container.bytes
        width = image.width
        height = image.height
        bands = image.bands
        bitsPerSample = image.bitsPerSample
        hasAlpha = image.hasAlpha
        orientation = (1...8).contains(image.orientation) ? image.orientation : 1
        // libvips 8.14 reads an animated PNG (APNG) as its default image only: its frame count
        // comes from the container check, which believes acTL only when the fcTL chunks agree
        // (hostile tests: an APNG reported 1 frame and no note; then acTL's 2147483647 echoed).
        pageCount = max(1, image.pageCount, container.frames)
        animationProblem = container.animationProblem
        isCMYK = image.interpretation == Int32(CVIPS_INTERP_CMYK)
        guard bitsPerSample == 8 || bitsPerSample == 16 else {
            throw .unsupported("the \(format.displayName) image has samples of a kind this service does not handle (libvips band format \(image.bandFormat)); send 8 or 16 bits per sample")
        }
        let color = bands - (hasAlpha ? 1 : 0)
        // A profile of another kind than the image's colors is ignored, as browsers ignore it.
        // So is one no transform to sRGB can be built from (tags that do not fit its header).
        let unsuited = image.iccProfile.map { !ICCProfile.suits($0, channels: color) || !ICCProfile.convertsToSRGB($0) } ?? false
        invalidProfileIgnored = (container.declaresICCProfile && image.iccProfile == nil) || unsuited
        iccProfile = unsuited ? nil : image.iccProfile
        guard isCMYK ? color == 4 : (color == 1 || color == 3) else {
            throw .unsupported("the \(format.displayName) image has \(bands) bands; expected gray, gray+alpha, RGB, RGBA or CMYK")
        }
        var handling = ColorHandling.assumedSRGB
        if let icc = iccProfile {
            let description = ICCProfile.description(icc) ?? "unnamed profile"
            if isCMYK {
                handling = .convertedToSRGB(description: description)
            } else if let probe = ICCProfile.toneCurves(icc, codes: 2) {
                // Two samples are enough to learn the kind; a dim samples every code.
                handling = probe.count == color ? .profileKept(description: description)
                    : .convertedToSRGB(description: description)
            } else {
                handling = .convertedToSRGB(description: description)
            }
        } else if isCMYK {
            handling = .convertedToSRGB(description: "CMYK without a profile (libvips's default CMYK profile)")
        }
        colorHandling = handling
    }

    /// The `num_frames` an APNG's `acTL` chunk declares (APNG 1.0 §2.1), which precedes the
    /// first `IDAT`; nil for a still PNG or a malformed chunk list. Only what the sender wrote:
    /// ``pageCount`` uses it only when the `fcTL` chunks agree (``ContainerCheck``).
    static func apngFrameCount(_ data: [UInt8]) -> Int? {
        func word(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= data.count else { return nil }
            return data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        var position = 8  // after the signature
        while let length = word(position), position + 8 <= data.count {
            let type = data[position + 4..<position + 8]
            if type.elementsEqual("acTL".utf8) { return length >= 8 ? word(position + 8).flatMap { $0 > 0 ? $0 : nil } : nil }
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
            let (next, overflow) = position.addingReportingOverflow(12 + length)
            guard !overflow, next > position else { return nil }
            position = next
        }
        return nil
    }

    /// Most bytes a decoded row may hold, counted as RGBA (width × 4 × bytes per sample): 128 KiB,
    /// a row of 32,768 pixels with 8-bit samples or 16,384 with 16-bit ones (see `open`).
    public static let maximumRowBytes = 131_072

    /// Opens `data` as `format`, reading only the header, and refuses images whose header
    /// declares more than `maxPixels` pixels (decompression bombs) before decoding anything.
    /// The container is checked first (``ContainerCheck``): truncation, bad lengths or CRCs
    /// are refused with their reason, and a PNG's compressed text chunks are dropped unread.
    /// - Throws: `.empty`, `.tooManyPixels`, `.rowTooLong`, `.corrupt` (the container is damaged
    ///   or the header unreadable), `.unsupported`, `.unavailable`.
    public static func open(_ data: [UInt8], format: ImageFormat, maxPixels: Int) throws(ImageError) -> ImageFile {
        guard !data.isEmpty else { throw .empty }
        guard ImageFormat.sniff(data) == format else {
            throw .corrupt(format, "the data does not start with the \(format.displayName) signature")
        }
        let container = try ContainerCheck.check(data, format: format)
        try Vips.start()
        let image = try load(container.bytes, format: format)
        let (w, h) = (image.width, image.height)
        guard w > 0, h > 0 else { throw .corrupt(format, "the header declares \(w) × \(h) pixels") }
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        if overflow || pixels > maxPixels {
            throw .tooManyPixels(format: format, width: w, height: h, limit: maxPixels)
        }
        // A progressive JPEG or an interlaced PNG is held whole by its decoder: 39.6 MP of either
        // (0.47 MB) peaked at 528 and 597 MiB where a baseline one peaks at 300 (a hostile pass,
        // over the Kubernetes manifest's 512 MiB). Its pixels count twice.
        if container.decodesWhole, pixels > maxPixels / 2 {
            throw .tooManyPixels(format: format, width: w, height: h, limit: maxPixels,
                                 decodedWhole: format == .jpeg ? "a progressive JPEG" : format == .webp ? "a WebP" : "an interlaced PNG")
        }
        // libvips decodes a few rows at a time, so its memory grows with a row's bytes: 40 MP as
        // 1,000,000 × 40 16-bit RGBA (311 KB of PNG) peaked at 595 MiB, over the Kubernetes
        // manifest's 512 MiB (a hostile pass); 65,536 × 610 at 429, 32,768 × 1,220 at 297, and
        // 8-bit RGBA 65,536 wide at 299 (`/v1/image/analyze`, release build). Rows are counted
        // as four bands whatever the file holds, as they are processed: a 262,144-pixel row of
        // 8-bit gray peaked at 420 MiB with a preview (a second hostile pass). Previews one after
        // another peak higher (freed memory is not all given back): 8-bit RGBA 65,536 wide
        // reached 504 MiB by the fourth, 32,768 wide levelled at 410.
        let rowBytes = w.multipliedReportingOverflow(by: 4 * max(1, image.bitsPerSample / 8))
        if rowBytes.overflow || rowBytes.partialValue > maximumRowBytes {
            throw .rowTooLong(format: format, width: w, rowBytes: rowBytes.overflow ? .max : rowBytes.partialValue, limit: maximumRowBytes)
        }
        let file = try ImageFile(format: format, image: image, container: container)
        // The compressed pixel data is checked once more where libvips can miss damage: in a
        // baseline JPEG's last 8-row strip (`cvips_jpeg_data_damaged`, a 1/8-scale pass), and in
        // a PNG's deflate stream, for which its loader sometimes gave an image of uninitialised
        // memory (`cvips_png_data_damaged`, IDAT inflated and not kept; a hostile pass: 1 load
        // in 10 to 60 of the same bytes was a 200).
        // A palette PNG's indices are checked in the same pass (PNG §11.2.2: an index past the
        // PLTE's entries is an error; the loader showed black there, a hostile pass).
        var entries: Int32 = -1, index: Int32 = -1
        let damaged: Int32
        switch format {
        case .jpeg: damaged = container.bytes.withUnsafeBytes { cvips_jpeg_data_damaged($0.baseAddress, $0.count) }
        case .png: damaged = container.bytes.withUnsafeBytes { cvips_png_data_damaged($0.baseAddress, $0.count, &entries, &index) }
        case .webp: damaged = 0
        }
        if damaged == 2 {
            throw .corrupt(format, "a pixel uses palette index \(index), past the \(entries) \(entries == 1 ? "color" : "colors") of its PLTE chunk (PNG §11.2.2: an index past the palette is an error)")
        }
        if damaged != 0 { throw file.pixelFailure }
        return file
    }

    static func load(_ data: [UInt8], format: ImageFormat) throws(ImageError) -> VipsHandle {
        try withBytes(data) { (raw: UnsafeRawBufferPointer) throws(ImageError) -> VipsHandle in
            try Vips.make(.corrupt(format, "the \(format.displayName) decoder could not read its header")) {
                cvips_load(Int32(format.cCode), raw.baseAddress, raw.count, $0)
            }
        }
    }

    /// Why decoding the pixels failed, in our words (libvips's own text is not readable per
    /// request): the decoder stopped at its first error or warning.
    var pixelFailure: ImageError {
        let data = format == .png ? "its compressed pixel data (IDAT)" : "its compressed pixel data"
        return .corrupt(format, "\(data) is damaged or ends before all \(height) \(height == 1 ? "row" : "rows") of the \(width) × \(height) pixels its header declares were decoded")
    }

    /// A new load of the bytes for one top-to-bottom pass over the pixels.
    func freshImage() throws(ImageError) -> VipsHandle {
        try Self.load(data, format: format)
    }

    // MARK: - Analysis

    /// Decodes the image and measures it as shown on `background` (opaque gamma-encoded sRGB
    /// `0...1`): converted to 8-bit sRGB (with its ICC profile when it has one; colors outside
    /// sRGB are clipped by lcms2, which leaves whites untouched), translucent pixels composited
    /// over the background (source-over on gamma-encoded values, as browsers and UIKit do).
    /// - Throws: `.corrupt` when the pixel data is truncated or damaged.
    public func statistics(over background: SIMD3<Double>) throws(ImageError) -> LuminanceStatistics {
        try withFlattenedSRGB8(over: background, backdropName: "background") { rgb in
            LuminanceStatistics.measure(rgb: rgb, width: width, height: height)
        }
    }

    /// Decodes the pixels as 8-bit sRGB (through the ICC profile when there is one),
    /// composites translucent pixels over `backdrop` (opaque gamma-encoded sRGB `0...1`; source-over
    /// in float, rounded to the nearest 8-bit level), and
    /// gives `body` the packed RGB bytes, `width × height × 3` in stored (not EXIF-turned) order.
    /// `backdropName` names the backdrop in the error of a failed composite.
    /// - Throws: `.corrupt` when the pixel data is truncated or damaged (the pixels are decoded
    ///   here, so a damaged or short file fails here), `.unsupported` for other band layouts.
    func withFlattenedSRGB8<T>(over backdrop: SIMD3<Double>, backdropName: String,
                               _ body: (UnsafeBufferPointer<UInt8>) -> T) throws(ImageError) -> T {
        var img = try srgb8()
        if img.hasAlpha {
            let bg = [backdrop.x, backdrop.y, backdrop.z].map { min(max($0, 0), 1) * 255 }
            img = try Vips.make(stepFailure("composite its alpha channel over the \(backdropName)")) {
                // Rounded to the nearest level: flattening the 8-bit image truncated, which
                // darkened translucent pixels by up to a level (hostile pass: a 4.48:1 pixel
                // measured 4.54 and passed AA).
                cvips_flatten_rounded(img.pointer, $0, bg, 3, 255)
            }
        }
        guard img.bands == 3, img.bitsPerSample == 8 else {
            throw .unsupported("the image could not be brought to 8-bit RGB for measuring (\(img.bands) bands)")
        }
        var length = 0
        guard let memory = cvips_write_to_memory(img.pointer, &length) else { throw pixelFailure }
        defer { cvips_free(memory) }
        guard length == width * height * 3 else {
            throw .corrupt(format, "decoding gave \(length) bytes for \(width) × \(height) RGB pixels")
        }
        return body(UnsafeBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: length))
    }

    /// The image as 8-bit sRGB, 3 bands plus alpha if it has one.
    func srgb8() throws(ImageError) -> VipsHandle {
        var img = try freshImage()
        switch colorHandling {
        case .profileKept, .convertedToSRGB:
            if iccProfile != nil {
                img = try Vips.make(profileFailure) { cvips_icc_to_srgb(img.pointer, $0, 8) }
            } else {
                img = try Vips.make(stepFailure("convert its colors to sRGB")) {
                    cvips_colourspace(img.pointer, $0, Int32(CVIPS_INTERP_SRGB))
                }
            }
        case .assumedSRGB:
            break
        }
        if img.bitsPerSample != 8 || img.bands - (img.hasAlpha ? 1 : 0) != 3 || img.interpretation != Int32(CVIPS_INTERP_SRGB) {
            img = try Vips.make(stepFailure("convert its colors to 8-bit sRGB")) {
                cvips_colourspace(img.pointer, $0, Int32(CVIPS_INTERP_SRGB))
            }
        }
        return img
    }

    /// A processing step that failed without being the decoder's doing.
    func stepFailure(_ what: String) -> ImageError {
        .unsupported("the \(format.displayName) image could not be processed: libvips could not \(what)")
    }

    /// The embedded profile could not be turned into a transform to sRGB.
    var profileFailure: ImageError {
        .corrupt(format, "its embedded ICC profile (\(colorHandling.profileDescription ?? "unnamed")) cannot convert its colors to sRGB")
    }

    // MARK: - Dimming

    /// The image with every pixel's linear-light luminance multiplied by `factor` `0...1`,
    /// encoded as `output` (default: the input's format).
    ///
    /// - Color: per ``colorHandling``. Untagged images are dimmed through the sRGB curve; kept
    ///   profiles through their own tone curves (exact to the nearest code value, chromaticity
    ///   unchanged); others are converted to sRGB first.
    /// - Alpha is copied unchanged. JPEG output has no alpha: translucent pixels are composited
    ///   over `flattenOver` (opaque sRGB `0...1`, normally the dark background) and the result
    ///   says so.
    /// - Depth: 16-bit stays 16-bit in PNG; JPEG and WebP are 8-bit, so 16-bit input is reduced.
    /// - Metadata: EXIF (orientation included), XMP and the ICC profile are written back as they
    ///   were read; pixels are never rotated.
    /// - Parameter quality: JPEG/WebP quality `1...100` (ignored for PNG).
    /// - Throws: `.corrupt` when the pixel data is damaged, `.encodeFailed`.
    public func dimmed(factor: Double, as output: ImageFormat? = nil, quality: Int = 90,
                       flattenOver: SIMD3<Double>) throws(ImageError) -> EncodedImage {
        let target = output ?? format
        var img = try freshImage()
        var curves: [ToneCurve]
        switch colorHandling {
        case .assumedSRGB:
            curves = Array(repeating: ToneCurve.srgb(codes: bitsPerSample == 16 ? 65536 : 256), count: colorBands)
        case .profileKept:
            curves = iccProfile.flatMap { ICCProfile.toneCurves($0, codes: bitsPerSample == 16 ? 65536 : 256) } ?? []
        case .convertedToSRGB:
            if iccProfile != nil {
                img = try Vips.make(profileFailure) { cvips_icc_to_srgb(img.pointer, $0, Int32(bitsPerSample)) }
            } else {
                img = try Vips.make(stepFailure("convert its colors to sRGB")) {
                    cvips_colourspace(img.pointer, $0, Int32(CVIPS_INTERP_SRGB))
                }
            }
            curves = Array(repeating: ToneCurve.srgb(codes: img.bitsPerSample == 16 ? 65536 : 256), count: 3)
        }
        let colorCount = img.bands - (img.hasAlpha ? 1 : 0)
        guard curves.count == colorCount, img.bitsPerSample == 8 || img.bitsPerSample == 16 else {
            throw .unsupported("the image's color bands (\(colorCount)) do not match its profile's tone curves (\(curves.count))")
        }
        if factor < 1 {
            img = try applyCurves(img, curves: curves, factor: factor, colorCount: colorCount)
        }
        var flattened: SIMD3<Double>?
        if target == .jpeg && img.hasAlpha {
            let scale = img.bitsPerSample == 16 ? 65535.0 : 255.0
            let bg = colorCount == 1
                ? [DimRecommendation.encode(WCAG.relativeLuminance(flattenOver)) * scale]
                : [flattenOver.x, flattenOver.y, flattenOver.z].map { min(max($0, 0), 1) * scale }
            img = try Vips.make(stepFailure("composite its alpha channel over the background")) {
                cvips_flatten_rounded(img.pointer, $0, bg, Int32(bg.count), scale)
            }
            flattened = flattenOver
        }
        if target != .png && img.bitsPerSample == 16 {
            img = try Vips.make(stepFailure("reduce it to 8 bits")) {
                cvips_colourspace(img.pointer, $0, Int32(colorCount == 1 ? CVIPS_INTERP_B_W : CVIPS_INTERP_SRGB))
            }
            // colourspace may drop the profile of a kept P3 image when it changes depth: put it back.
            if case .profileKept = colorHandling, let icc = iccProfile, img.iccProfile == nil {
                img = try withBytes(icc) { (raw: UnsafeRawBufferPointer) throws(ImageError) -> VipsHandle in
                    try Vips.make(stepFailure("attach its ICC profile")) {
                        cvips_copy_with(img.pointer, $0, raw.baseAddress, raw.count, 0, -1)
                    }
                }
            }
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_save(Int32(target.cCode), img.pointer, Int32(min(max(quality, 1), 100)), &buffer, &length) == 0,
              let buffer else {
            // Pixels are decoded while saving, so a damaged input fails here too. libvips's
            // text cannot tell (and is not read), so decode once more, keeping nothing, to
            // learn whose fault it is.
            let check = try freshImage()
            if cvips_decode_check(check.pointer) != 0 { throw pixelFailure }
            throw .encodeFailed(target, "libvips's \(target.displayName) encoder failed")
        }
        defer { cvips_free(buffer) }
        let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        return EncodedImage(format: target, bytes: bytes, flattenedOver: flattened)
    }

    /// Maps the color bands through the dim tables of `curves`; alpha is joined back untouched.
    func applyCurves(_ img: VipsHandle, curves: [ToneCurve], factor: Double, colorCount: Int) throws(ImageError) -> VipsHandle {
        let fail = stepFailure("apply the dimming tables")
        let tables = curves.map { $0.dimTable(factor: factor) }
        let codes = tables[0].count
        let sixteen = img.bitsPerSample == 16
        guard codes == (sixteen ? 65536 : 256) else {
            throw .unsupported("tone curve has \(codes) codes for a \(img.bitsPerSample)-bit image")
        }
        var lutImage: OpaquePointer?
        if sixteen {
            var interleaved = [UInt16](repeating: 0, count: codes * colorCount)
            for (c, table) in tables.enumerated() {
                for v in 0..<codes { interleaved[v * colorCount + c] = table[v] }
            }
            lutImage = interleaved.withUnsafeBytes {
                cvips_new_from_memory($0.baseAddress, $0.count, Int32(codes), 1, Int32(colorCount), Int32(CVIPS_BAND_USHORT))
            }
        } else {
            var interleaved = [UInt8](repeating: 0, count: codes * colorCount)
            for (c, table) in tables.enumerated() {
                for v in 0..<codes { interleaved[v * colorCount + c] = UInt8(truncatingIfNeeded: table[v]) }
            }
            lutImage = interleaved.withUnsafeBytes {
                cvips_new_from_memory($0.baseAddress, $0.count, Int32(codes), 1, Int32(colorCount), Int32(CVIPS_BAND_UCHAR))
            }
        }
        guard let lutImage else { throw .unavailable("libvips could not make a look-up table") }
        let lut = VipsHandle(lutImage)
        let color = img.bands == colorCount ? img
            : try Vips.make(fail) { cvips_extract_bands(img.pointer, $0, 0, Int32(colorCount)) }
        var mapped = try Vips.make(fail) { cvips_maplut(color.pointer, $0, lut.pointer) }
        if img.bands > colorCount {
            let alpha = try Vips.make(fail) { cvips_extract_bands(img.pointer, $0, Int32(colorCount), Int32(img.bands - colorCount)) }
            mapped = try Vips.make(fail) { cvips_bandjoin2(mapped.pointer, alpha.pointer, $0) }
        }
        // maplut's output keeps the input's metadata; restore the interpretation it may reset.
        return try Vips.make(fail) { cvips_copy_with(mapped.pointer, $0, nil, 0, 0, img.interpretation) }
    }

    // MARK: - Pixels

    /// Decodes the stored pixels as they are (no color conversion, no rotation).
    public func rawPixels() throws(ImageError) -> RawPixels {
        var length = 0
        let image = try freshImage()
        guard let memory = cvips_write_to_memory(image.pointer, &length) else {
            throw pixelFailure
        }
        defer { cvips_free(memory) }
        let samples: [UInt16]
        if bitsPerSample == 16 {
            samples = Array(UnsafeBufferPointer(start: memory.assumingMemoryBound(to: UInt16.self), count: length / 2))
        } else {
            samples = UnsafeBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: length).map { UInt16($0) }
        }
        return RawPixels(width: width, height: height, bands: bands, bitsPerSample: bitsPerSample, samples: samples)
    }
}

extension ImageFormat {
    /// The `cvips_format` value.
    var cCode: Int32 {
        switch self {
        case .png: Int32(CVIPS_FORMAT_PNG.rawValue)
        case .jpeg: Int32(CVIPS_FORMAT_JPEG.rawValue)
        case .webp: Int32(CVIPS_FORMAT_WEBP.rawValue)
        }
    }
}
