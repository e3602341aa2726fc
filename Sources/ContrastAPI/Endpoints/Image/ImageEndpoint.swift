import AppleDesign
import ColorScience
import HTTPServer
import ImageProcessing
import JSONValue

/// `POST /v1/image/analyze` and `POST /v1/image/dim`: images with white backgrounds in dark mode.
///
/// The request body is the image itself (PNG, JPEG or WebP, at most `maxImageBytes`), with
/// `Content-Type: image/png|image/jpeg|image/webp` (or none, `application/octet-stream` or
/// curl's default `application/x-www-form-urlencoded`: then the signature decides). Options are query parameters:
///
/// | parameter | meaning |
/// |---|---|
/// | `background` | the dark background the image is shown on, any opaque CSS color or an Apple system color name (resolved in dark, base level) |
/// | `systemBackground` | `base` (default, #000000) or `elevated` (#1C1C1E): iOS dark `systemBackground` |
/// | `targetLc` | APCA Lc ceiling `15...106` for the dimmed white (default 90, see ``DimRule``) |
/// | `amount` (dim) | luminance multiplier `0...1` to apply instead of the recommendation |
/// | `format` (dim) | `png`, `jpeg` or `webp` (default: the input's) |
/// | `quality` (dim) | JPEG/WebP quality `1...100` (default 90) |
///
/// Errors: 413 over `maxImageBytes`; 422 when the header declares more than `maxImagePixels`
/// (checked before decoding); 415 for other media types; 400 for empty, truncated, corrupt or
/// mislabeled data (the detail says which and why); 422 for valid images this service does
/// not handle.
struct ImageEndpoint: Sendable {
    static let analyzePath = "/v1/image/analyze"
    static let dimPath = "/v1/image/dim"
    static let analyzeFields: Set<String> = ["background", "systemBackground", "targetLc"]
    static let dimFields: Set<String> = analyzeFields.union(["amount", "format", "quality"])

    /// iOS dark-appearance `systemBackground` levels (Resources/apple_system_colors.json,
    /// `backgrounds.systemBackground.dark_base` / `dark_elevated`).
    enum SystemBackground: String, CaseIterable, Sendable {
        case base, elevated

        /// Opaque gamma-encoded sRGB `0...1`.
        var srgb: SIMD3<Double> {
            switch self {
            case .base: SIMD3(0, 0, 0)
            case .elevated: SIMD3(28, 28, 30) / 255
            }
        }
    }

    /// Largest body accepted, bytes.
    let maxBytes: Int
    /// Most pixels a header may declare.
    let maxPixels: Int

    init(configuration: ServiceConfiguration) {
        maxBytes = configuration.maxImageBytes
        maxPixels = configuration.maxImagePixels
    }

    /// The background and rule a request asks for.
    struct Setting {
        var background: SIMD3<Double>
        var backgroundJSON: JSON
        var rule: DimRule
    }

    // MARK: - analyze

    func analyze(_ request: HTTPRequest) throws(Problem) -> JSON {
        let f = try Fields.query(request)
        try f.rejectUnknown(Self.analyzeFields)
        let setting = try Self.setting(f)
        let file = try openImage(request)
        let stats = try Self.run { () throws(ImageError) in try file.statistics(over: setting.background) }
        let rec = setting.rule.recommend(stats, on: setting.background)

        var out = JSONObject()
        out.append("image", Self.describe(file))
        out.append("background", setting.backgroundJSON)
        out.append("luminance", .object([
            ("mean", .number(stats.meanLuminance)),
            ("median", .number(stats.medianLuminance)),
            ("p99", .number(stats.percentile99Luminance)),
            ("peak", .number(stats.peakLuminance)),
        ]))
        out.append("whiteBackground", .object([
            ("detected", .bool(rec.whiteBackground)),
            ("borderNearWhiteShare", .number(stats.borderNearWhiteShare)),
            ("nearWhiteShare", .number(stats.nearWhiteShare)),
            ("borderWidth", .number(Double(stats.borderWidth))),
            ("whiteLevel", stats.whiteLevel.map { .number($0) } ?? .null),
            ("nearWhiteMinimumChannel", .number(Double(LuminanceStatistics.nearWhiteMinimumChannel))),
            ("borderShareThreshold", .number(DimRule.borderShareThreshold)),
            ("areaShareThreshold", .number(DimRule.areaShareThreshold)),
        ]))
        out.append("recommendation", Self.describe(rec))
        out.append(APCAJSON.versionMember.0, APCAJSON.versionMember.1)
        var notes: [JSON] = []
        switch file.colorHandling {
        case .assumedSRGB:
            notes.append(file.invalidProfileIgnored
                ? "the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB"
                : "no embedded ICC profile: the pixels were taken as sRGB")
        case .profileKept(let d), .convertedToSRGB(let d):
            notes.append(.string("measured after converting \(Self.profileSource(file, d)) to sRGB; colors outside sRGB were clipped, whites are unaffected"))
        }
        if file.hasAlpha {
            // Said of the alpha channel, not of the pixels: an RGBA file may be fully opaque
            // (hostile test: "translucent pixels were composited" on an opaque one).
            notes.append("the image has an alpha channel: any translucent pixels were composited over the background before measuring")
        }
        if file.pageCount > 1 {
            notes.append(.string("the file has \(file.pageCount) frames; only the first was read"))
        }
        if let problem = file.animationProblem {
            notes.append(.string("the APNG animation chunks were ignored (\(problem)): the file was read as the still image every viewer shows"))
        }
        out.append("notes", .array(notes))
        return .object(out)
    }

    // MARK: - dim

    /// `POST /v1/image/dim` as a router handler.
    var dimHandler: HTTPHandler {
        let endpoint = self
        return { request in
            do throws(Problem) {
                return try endpoint.dim(request)
            } catch {
                return error.response
            }
        }
    }

    func dim(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let f = try Fields.query(request)
        try f.rejectUnknown(Self.dimFields)
        let setting = try Self.setting(f)
        let amount = try f.number("amount", in: 0...1)
        if amount != nil && f.has("targetLc") {
            throw Problem.contradictory(f.field("targetLc"), f.field("amount"), "\(f.field("targetLc").display) chooses the recommended factor; it cannot be combined with an explicit \(f.field("amount").display)")
        }
        // `jpg` as well, as `Content-Type: image/jpg` is accepted on the way in (hostile test).
        let output = try f.appleChoice("format", ImageFormat.self, what: "output format", aliases: ["jpg": .jpeg])
        let quality = try f.integer("quality", in: 1...100) ?? 90
        let file = try openImage(request)
        let target = output ?? file.format
        if f.has("quality") && target == .png {
            throw Problem.contradictory(f.field("quality"), f.field("format"), "\(f.field("quality").display) applies to JPEG and WebP output; this answer is PNG (lossless), so it would be ignored")
        }
        if target == .webp && max(file.width, file.height) > 16383 {
            throw Problem(status: 422, kind: "unsupported-image", title: "Unsupported image",
                          detail: "WebP holds at most 16383 pixels per side; this image is \(file.width) × \(file.height): ask for format=png or format=jpeg",
                          parameter: "format")
        }
        // libwebp encodes from whole copies in memory, and its memory grows with what the pixels
        // hold: a 6000 × 6600 dim to WebP with alpha peaked at 593–612 MiB from a flat 39 KB
        // palette PNG (a hostile pass), and a noisy 39.6 MP photo without alpha at 1,130 MiB
        // (quality 100, 22.8 s; a second hostile pass), where PNG or JPEG output peaks at 74–361.
        // Noise at 10 MP peaked at 313 MiB (RGB) and 414 MiB (RGBA), quality 100, 3.5–4.2 s
        // (release build, 2026-12-05): WebP output may have at most a quarter of `maxImagePixels`.
        if target == .webp && file.width * file.height > maxPixels / 4 {
            throw Problem.limitExceeded("WebP output is encoded from whole copies of the image in memory, up to about 41 MiB a megapixel for a noisy photo, so it may have at most a quarter of the limit of \(maxPixels) pixels (\(maxPixels / 4)); this image is \(file.width) × \(file.height) = \(file.width * file.height) pixels: ask for format=jpeg or format=png (maxImagePixels)",
                                        parameter: "format", limit: maxPixels / 4, [("width", file.width), ("height", file.height)])
        }
        if target == .jpeg && max(file.width, file.height) > 65535 {
            throw Problem(status: 422, kind: "unsupported-image", title: "Unsupported image",
                          detail: "JPEG holds at most 65535 pixels per side; this image is \(file.width) × \(file.height): ask for format=png",
                          parameter: "format")
        }
        // The answer's size, bounded from the header, is reserved before the image is decoded.
        if let refused = Self.reserve(Self.largestEncodedBytes(width: file.width, height: file.height, bytesPerPixel: file.hasAlpha ? 4 : 3),
                                      for: request, what: "dimmed \(file.width)×\(file.height) image") {
            return refused
        }
        let factor: Double
        let basis: String
        if let amount {
            factor = amount
            basis = "amount"
        } else {
            let stats = try Self.run { () throws(ImageError) in try file.statistics(over: setting.background) }
            let rec = setting.rule.recommend(stats, on: setting.background)
            factor = rec.factor
            basis = rec.whiteBackground ? "recommendation" : "recommendation (no white background: unchanged)"
        }
        let encoded: EncodedImage
        if amount == nil && factor >= 1 && target == file.format {
            // Nothing to do, and the analysis has decoded every pixel: the bytes go back as sent.
            encoded = EncodedImage(format: target, bytes: request.body, flattenedOver: nil)
        } else {
            encoded = try Self.run { () throws(ImageError) in
                try file.dimmed(factor: factor, as: target, quality: quality, flattenOver: setting.background)
            }
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", encoded.format.mediaType),
            ("Cache-Control", "no-store"),
            ("Content-Disposition", "inline; filename=\"dimmed.\(encoded.format == .jpeg ? "jpg" : encoded.format.rawValue)\""),
            ("X-Dim-Factor", JSON.number(factor).serializedString),
            ("X-Dim-Basis", basis),
            ("X-Color-Profile", Self.profileHeader(file.colorHandling)),
            ("X-Image-Orientation", String(file.orientation)),
        ]
        if let over = encoded.flattenedOver {
            headers.append(("X-Flattened-Over", ColorJSON.hex(over)))
        }
        return HTTPResponse(status: 200, headers: headers, body: encoded.bytes)
    }

    // MARK: - request parts

    /// The background (`background` or `systemBackground`) and the rule (`targetLc`).
    static func setting(_ f: Fields) throws(Problem) -> Setting {
        if f.has("background") && f.has("systemBackground") {
            throw Problem.contradictory(f.field("systemBackground"), f.field("background"), "give either \(f.field("background").display) or \(f.field("systemBackground").display), not both")
        }
        let rule = DimRule(targetLc: try f.number("targetLc", in: 15...106) ?? DimRule.defaultTargetLc)
        // These routes are about dark mode: a system color name resolves in dark (base) there.
        if let c = try f.color("background", context: AppleColorContext(appearance: .dark, level: .base)) {
            guard c.display.alpha >= 1 else {
                throw Problem.invalidField(f.field("background"), "\(f.field("background").display) must be opaque: it is what the image is shown on")
            }
            var o = JSONObject()
            o.append("source", "background")
            o.append("input", .string(c.input))
            o.append("hex", .string(ColorJSON.hex(c.display.srgb)))
            o.append("relativeLuminance", .number(c.display.relativeLuminance))
            o.append("apcaY", .number(ColorJSON.apcaY(c.display.srgb)))
            if let system = c.systemColor { o.append("systemColor", AppleJSON.systemColor(system)) }
            return Setting(background: c.display.srgb, backgroundJSON: .object(o), rule: rule)
        }
        let level = try f.choice("systemBackground", SystemBackground.self) ?? .base
        let bg = level.srgb
        return Setting(background: bg, backgroundJSON: .object([
            ("source", .string("systemBackground")),
            ("appearance", "dark"),
            ("level", .string(level.rawValue)),
            ("hex", .string(ColorJSON.hex(bg))),
            ("relativeLuminance", .number(WCAG.relativeLuminance(bg))),
            ("apcaY", .number(ColorJSON.apcaY(bg))),
        ]), rule: rule)
    }

    /// Checks size, media type and signature, then opens the image (header only).
    func openImage(_ request: HTTPRequest) throws(Problem) -> ImageFile {
        let body = request.body
        if body.count > maxBytes {
            throw Problem.limitExceeded(status: 413, "the image is \(body.count) bytes; the limit is \(maxBytes) (maxImageBytes)",
                                        limit: maxBytes, [])
        }
        if body.isEmpty {
            throw Self.invalidImage("the request body is empty: send the image bytes as the body, with Content-Type image/png, image/jpeg or image/webp")
        }
        var declared: ImageFormat?
        var media = ""
        if let type = request.header("content-type") {
            media = (type.split(separator: ";").first.map(String.init) ?? "").trimmingSpaces.lowercased()
            // Undeclared: no type, octet-stream, or curl's default for --data-binary.
            let undeclared = ["", "application/octet-stream", "application/x-www-form-urlencoded"]
            if !undeclared.contains(media) {
                guard let format = ImageFormat(mediaType: media) else {
                    throw Problem.unsupportedMediaType("send the image as image/png, image/jpeg or image/webp, not \(ClientText.quoted(media))")
                }
                declared = format
            }
        }
        guard let actual = ImageFormat.sniff(body) else {
            let what = ImageFormat.describeUnrecognized(body)
            let claim = declared.map { " although Content-Type says \($0.mediaType)" } ?? ""
            throw Self.invalidImage("the body is not a PNG, JPEG or WebP image\(claim): it looks like \(what)")
        }
        if let declared, declared != actual {
            throw Problem(status: 400, kind: "mislabeled-image", title: "Image does not match its Content-Type",
                          detail: "Content-Type says \(media) but the body is a \(actual.displayName) image (by its signature); send Content-Type: \(actual.mediaType)",
                          extra: [("declared", .string(declared.mediaType)), ("actual", .string(actual.mediaType))])
        }
        return try Self.run { () throws(ImageError) in try ImageFile.open(body, format: actual, maxPixels: maxPixels) }
    }

    /// Runs image work, mapping `ImageError` to problem details.
    static func run<T>(_ body: () throws(ImageError) -> T) throws(Problem) -> T {
        do throws(ImageError) {
            return try body()
        } catch {
            throw problem(error)
        }
    }

    static func invalidImage(_ detail: String) -> Problem {
        Problem(status: 400, kind: "invalid-image", title: "Invalid image", detail: detail)
    }

    static func problem(_ error: ImageError) -> Problem {
        switch error {
        case .empty, .unrecognized, .corrupt:
            return invalidImage(error.message)
        case .tooManyPixels(_, let width, let height, let limit, let whole):
            // `limit` is the one that applies: half `maxImagePixels` for an image decoded whole.
            return Problem.limitExceeded(error.message + " (maxImagePixels)", limit: whole == nil ? limit : limit / 2,
                                         [("width", width), ("height", height)])
        case .rowTooLong(_, let width, let rowBytes, let limit):
            return Problem.limitExceeded(error.message, limit: limit, [("width", width), ("rowBytes", rowBytes)])
        case .unsupported, .encodeFailed:
            return Problem(status: 422, kind: "unsupported-image", title: "Unsupported image", detail: error.message)
        case .unavailable:
            return Problem(status: 503, kind: "image-processing-unavailable", title: "Image processing unavailable",
                           detail: error.message)
        }
    }

    // MARK: - JSON

    static func describe(_ file: ImageFile) -> JSON {
        var o = JSONObject()
        o.append("format", .string(file.format.rawValue))
        o.append("mediaType", .string(file.format.mediaType))
        o.append("width", .number(Double(file.width)))
        o.append("height", .number(Double(file.height)))
        o.append("orientation", .number(Double(file.orientation)))
        o.append("displayWidth", .number(Double(file.displayWidth)))
        o.append("displayHeight", .number(Double(file.displayHeight)))
        o.append("bands", .number(Double(file.bands)))
        o.append("bitsPerSample", .number(Double(file.bitsPerSample)))
        o.append("hasAlpha", .bool(file.hasAlpha))
        o.append("frames", .number(Double(file.pageCount)))
        o.append("colorProfile", .object([
            ("embedded", .bool(file.iccProfile != nil)),
            ("description", file.colorHandling.profileDescription.map { .string($0) } ?? .null),
            ("dimHandling", .string(file.colorHandling.kind)),
        ]))
        return .object(o)
    }

    /// A gray of luminance `y` with its APCA screen luminance, WCAG ratio and APCA Lc against
    /// the background.
    static func level(_ y: Double, _ rec: DimRecommendation) -> JSON {
        let gray = SIMD3<Double>(repeating: DimRecommendation.encode(y))
        return .object([
            ("relativeLuminance", .number(y)),
            ("apcaY", .number(ColorJSON.apcaY(gray))),
            ("hex", .string(ColorJSON.hex(gray))),
            ("wcagRatio", .number(rec.wcagRatio(y))),
            ("apcaLc", .number(rec.apcaLc(y))),
        ])
    }

    static func describe(_ rec: DimRecommendation) -> JSON {
        var o = JSONObject()
        o.append("dim", .bool(rec.shouldDim))
        o.append("factor", .number(rec.factor))
        o.append("reason", .string(rec.reason))
        o.append("rule", .string("images with a white background (≥ 50% of the border band or of the image near-white) are dimmed in linear light until their white level has APCA Lc \(Fields.format(rec.targetLc)) against the background (Apple HIG, Dark Mode: soften white backgrounds in content images)"))
        o.append("targetLc", .number(rec.targetLc))
        o.append("targetWhite", rec.targetLuminance.map { level($0, rec) } ?? .null)
        o.append("whiteLevel", .object([
            ("before", level(rec.whiteLevel, rec)),
            ("after", level(rec.dimmedWhiteLevel, rec)),
        ]))
        let b = (rec.cssBrightness * 1000).rounded() / 1000
        o.append("css", .object([
            ("filter", .string("brightness(\(Fields.format(b)))")),
            ("brightness", .number(rec.cssBrightness)),
        ]))
        o.append("overlay", .object([
            ("color", "#000000"),
            ("alpha", .number(rec.blackOverlayAlpha)),
        ]))
        o.append("equivalence", "factor multiplies linear-light luminance; CSS brightness() and a black overlay act on gamma-encoded values, so they match exactly at the white level and within a few 8-bit codes elsewhere")
        return .object(o)
    }

    static func profileHeader(_ handling: ColorHandling) -> String {
        guard let d = handling.profileDescription else { return handling.kind }
        return "\(handling.kind); \(d)"
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}

extension ImageEndpoint {
    /// What a converted image's colors came from, for its note: the embedded profile by its
    /// description, or for a CMYK file without one libvips's default CMYK profile (a hostile
    /// pass: such a file was said to be converted "from the embedded profile", and none was).
    static func profileSource(_ file: ImageFile, _ description: String) -> String {
        file.iccProfile == nil ? "from CMYK through libvips's default CMYK profile (the file embeds no ICC profile)"
            : "from the embedded profile (\(description))"
    }
}
