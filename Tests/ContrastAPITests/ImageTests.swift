import ColorScience
import ContrastAPI
import Foundation
import HTTPServer
import ImageProcessing
import JSONValue
import Synchronization
import TestSupport
import Testing

/// Small real images made here with libvips (`ImageEncoder`), sent over HTTP to a live server.
enum ImageSamples {
    /// White (or `background`) with a dark #202020 square in the middle third.
    static func pixels(width: Int, height: Int, bands: Int = 3, bits: Int = 8, background: [UInt16] = [255, 255, 255],
                       alpha: (Int, Int) -> UInt16 = { _, _ in 255 }) -> [UInt16] {
        let scale: UInt16 = bits == 16 ? 257 : 1
        var out: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= width / 3 && x < 2 * width / 3 && y >= height / 3 && y < 2 * height / 3
                out += (inside ? [32, 32, 32] : background).map { $0 * scale }
                if bands == 4 { out.append(alpha(x, y) * scale) }
            }
        }
        return out
    }

    static func encode(_ format: ImageFormat, width: Int = 60, height: Int = 40, bands: Int = 3, bits: Int = 8,
                       background: [UInt16] = [255, 255, 255], icc: [UInt8]? = nil, orientation: Int? = nil,
                       alpha: (Int, Int) -> UInt16 = { _, _ in 255 }) throws -> [UInt8] {
        try ImageEncoder.encode(pixels: pixels(width: width, height: height, bands: bands, bits: bits,
                                               background: background, alpha: alpha),
                                width: width, height: height, bands: bands, bitsPerSample: bits, format: format,
                                iccProfile: icc, orientation: orientation, quality: 95)
    }

    /// Pseudo-random RGB noise (no compression to speak of): `width × height × 3` bytes of PNG.
    static func noisePNG(width: Int, height: Int) throws -> [UInt8] {
        var state: UInt32 = 0x2545_F491
        let px = (0..<(width * height * 3)).map { _ -> UInt16 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt16(state >> 24)
        }
        return try ImageEncoder.encode(pixels: px, width: width, height: height, bands: 3, format: .png)
    }

    static var displayP3: [UInt8] {
        ICCProfile.make(white: ICCProfile.displayP3Primaries.white, primaries: ICCProfile.displayP3Primaries.primaries,
                        description: "Display P3")!
    }

    /// A PNG whose IHDR declares `width × height` (CRC fixed), with tiny real data.
    static func pngDeclaring(width: UInt32, height: UInt32) throws -> [UInt8] {
        var b = try encode(.png, width: 8, height: 8)
        func put(_ at: Int, _ v: UInt32) { for i in 0..<4 { b[at + i] = UInt8((v >> (24 - 8 * UInt32(i))) & 0xFF) } }
        put(16, width)
        put(20, height)
        var c: UInt32 = 0xFFFF_FFFF
        for byte in b[12..<29] {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        put(29, c ^ 0xFFFF_FFFF)
        return b
    }
}

extension LiveServer {
    /// POSTs raw bytes with `Connection: close`.
    func post(_ target: String, _ body: [UInt8], contentType: String? = "image/png") throws -> Reply {
        var head = "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        return try raw(Array((head + "\r\n").utf8) + body)
    }
}

/// The service in-process with a binary body.
func callImage(_ target: String, _ body: [UInt8], contentType: String? = "image/png",
               configuration: ServiceConfiguration = testConfiguration()) -> Reply {
    let parts = target.split(separator: "?", maxSplits: 1)
    var query: [(name: String, value: String?)] = []
    if parts.count > 1 {
        for item in parts[1].split(separator: "&") {
            let kv = item.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            query.append((kv[0], kv.count > 1 ? kv[1] : nil))
        }
    }
    let request = HTTPRequest(method: "POST", path: String(parts[0]), query: query,
                              headers: contentType.map { ["Content-Type": $0] } ?? [:], body: body)
    return Reply(ContrastService(configuration: configuration).handle(request))
}

@Suite(.serialized)
struct ImageTests {
    let black = SIMD3<Double>(0, 0, 0)

    func decode(_ r: Reply, _ format: ImageFormat) throws -> ImageFile {
        try ImageFile.open(r.body, format: format, maxPixels: 1_000_000)
    }

    // MARK: analyze

    @Test func analyzesAWhiteBackgroundPNGWithAlphaOverHTTP() throws {
        let server = try LiveServer()
        // Transparent top-left corner; the rest opaque white around a dark square.
        let png = try ImageSamples.encode(.png, bands: 4, alpha: { x, y in x < 3 && y < 3 ? 0 : 255 })
        let r = try server.post("/v1/image/analyze", png)
        #expect(r.status == 200, "\(r.text)")
        let j = r.json
        #expect(j["image"]?["hasAlpha"] == .bool(true))
        // The note speaks of the alpha channel: an RGBA file may be fully opaque.
        #expect(j["notes"]?.array?.contains(.string("the image has an alpha channel: any translucent pixels were composited over the background before measuring")) == true)
        #expect(j["image"]?["width"] == .number(60) && j["image"]?["height"] == .number(40))
        #expect(j["background"]?["hex"] == .string("#000000"))
        #expect(j["whiteBackground"]?["detected"] == .bool(true))
        let border = try #require(j["whiteBackground"]?["borderNearWhiteShare"]?.double)
        #expect(border > 0.9 && border < 1, "the transparent corner shows the black background")
        let rec = try #require(j["recommendation"])
        #expect(rec["dim"] == .bool(true))
        #expect(abs((rec["factor"]?.double ?? 0) - 0.771) < 0.001)
        #expect(rec["css"]?["filter"] == .string("brightness(0.892)"))
        #expect(abs((rec["overlay"]?["alpha"]?.double ?? 0) - 0.108) < 0.001)
        #expect(rec["whiteLevel"]?["after"]?["hex"] == .string("#e3e3e3"))
        #expect(abs((rec["whiteLevel"]?["after"]?["apcaLc"]?.double ?? 0) + 90) < 0.01)
        #expect(rec["whiteLevel"]?["before"]?["wcagRatio"] == .number(21))
    }

    /// An animated PNG reports its frames and that only the first was read (hostile test: libvips
    /// reads APNG as a still image, so it said 1 frame and no note; animated WebP was right).
    @Test func animatedPNGCountsItsFrames() throws {
        let apng = Array(try Data(contentsOf: FixtureLoader.url("images/animated-3-frames.png")))
        let j = callImage("/v1/image/analyze", apng).json
        #expect(j["image"]?["frames"] == 3)
        #expect(j["notes"]?.array?.contains { $0.string == "the file has 3 frames; only the first was read" } == true)
        #expect(j["luminance"]?["peak"] == 1)  // the first frame is white
        let still = try ImageSamples.encode(.png, background: [18, 18, 24])
        #expect(callImage("/v1/image/analyze", still).json["image"]?["frames"] == 1)
    }

    /// A CMYK JPEG without a profile goes through libvips's default CMYK profile, and the note
    /// says so (a hostile pass: it said "converting from the embedded profile", and the file
    /// embeds none).
    @Test func cmykWithoutAProfileSaysWhichProfileConvertedIt() throws {
        let jpeg = Array(try Data(contentsOf: FixtureLoader.url("images/cmyk-no-profile-16x16.jpg")))
        let j = callImage("/v1/image/analyze", jpeg, contentType: "image/jpeg").json
        let notes = j["notes"]?.array?.compactMap(\.string) ?? []
        #expect(notes.contains("measured after converting from CMYK through libvips's default CMYK profile (the file embeds no ICC profile) to sRGB; colors outside sRGB were clipped, whites are unaffected"), "\(j)")
        #expect(!notes.contains { $0.contains("embedded profile (") }, "\(notes)")
    }

    @Test func darkImageIsLeftAlone() throws {
        let png = try ImageSamples.encode(.png, background: [18, 18, 24])
        let j = callImage("/v1/image/analyze", png).json
        #expect(j["whiteBackground"]?["detected"] == .bool(false))
        #expect(j["recommendation"]?["dim"] == .bool(false))
        #expect(j["recommendation"]?["factor"] == .number(1))
        #expect(j["whiteBackground"]?["whiteLevel"] == .null)
        #expect((j["luminance"]?["mean"]?.double ?? 1) < 0.02)
    }

    @Test func elevatedAndCustomBackgrounds() throws {
        let png = try ImageSamples.encode(.png)
        let base = callImage("/v1/image/analyze", png).json["recommendation"]?["factor"]?.double ?? 0
        let elevated = callImage("/v1/image/analyze?systemBackground=elevated", png).json
        #expect(elevated["background"]?["hex"] == .string("#1c1c1e"))
        let up = elevated["recommendation"]?["factor"]?.double ?? 0
        #expect(up > base && up < 1)
        let custom = callImage("/v1/image/analyze?background=%231c1c1e", png).json
        #expect(custom["recommendation"]?["factor"]?.double == up)
        expectProblem(callImage("/v1/image/analyze?background=black&systemBackground=base", png), 400, parameter: "systemBackground")
        expectProblem(callImage("/v1/image/analyze?systemBackground=dark", png), 400, parameter: "systemBackground")
        expectProblem(callImage("/v1/image/analyze?background=nope", png), 400, parameter: "background")
        expectProblem(callImage("/v1/image/analyze?background=%23fff8", png), 400, parameter: "background")
        expectProblem(callImage("/v1/image/analyze?targetLc=200", png), 400, parameter: "targetLc")
        expectProblem(callImage("/v1/image/analyze?size=2", png), 400, parameter: "size")
        let lower = callImage("/v1/image/analyze?targetLc=75", png).json["recommendation"]?["factor"]?.double ?? 1
        #expect(lower < base)
        // An Apple system color name resolves in dark mode here, not in the light default.
        let named = callImage("/v1/image/analyze?background=systemBackground", png).json
        #expect(named["background"]?["hex"] == .string("#000000"), "\(named["background"] ?? .null)")
        #expect(named["recommendation"]?["factor"]?.double == base)
        let grouped = callImage("/v1/image/analyze?background=secondarySystemBackground", png).json
        #expect(grouped["background"]?["hex"] == .string("#1c1c1e"))
        #expect(grouped["background"]?["systemColor"] != nil)
    }

    /// The systemBackground values are the dark base and elevated colors the sources cite
    /// (apple_reference_values.jsonl, typed from docs/apple-system-colors-sources.md §1).
    @Test func systemBackgroundsMatchTheColorCatalog() throws {
        let rows = try FixtureLoader.jsonValues("apple_reference_values.jsonl").filter {
            $0["name"] == "systemBackground" && $0["generation"] == "ios26" && $0["appearance"] == "dark" && $0["contrast"] == "standard"
        }
        #expect(rows.count == 2)
        for (level, hex) in [("base", "#000000"), ("elevated", "#1c1c1e")] {
            let row = try #require(rows.first { $0["level"] == .string(level) })
            let c = (row["rgb"]?.array ?? []).compactMap(\.double)
            try #require(c.count == 3)
            #expect(ColorJSONProbe.hex(SIMD3(c[0], c[1], c[2]) / 255) == hex, "\(level)")
        }
        let j = callImage("/v1/image/analyze?systemBackground=elevated", try ImageSamples.encode(.png)).json
        #expect(j["background"]?["hex"] == .string("#1c1c1e"))
    }

    @Test func jpegWithExifOrientation() throws {
        let server = try LiveServer()
        let jpeg = try ImageSamples.encode(.jpeg, width: 60, height: 40, orientation: 6)
        let a = try server.post("/v1/image/analyze", jpeg, contentType: "image/jpeg")
        #expect(a.status == 200, "\(a.text)")
        #expect(a.json["image"]?["orientation"] == .number(6))
        #expect(a.json["image"]?["displayWidth"] == .number(40) && a.json["image"]?["displayHeight"] == .number(60))
        let d = try server.post("/v1/image/dim", jpeg, contentType: "image/jpeg")
        #expect(d.status == 200 && d.headers["content-type"] == "image/jpeg")
        #expect(d.headers["x-image-orientation"] == "6")
        let out = try decode(d, .jpeg)
        #expect(out.orientation == 6 && out.width == 60 && out.height == 40)
    }

    @Test func displayP3ImageKeepsItsProfile() throws {
        let server = try LiveServer()
        let p3 = ImageSamples.displayP3
        let png = try ImageSamples.encode(.png, icc: p3)
        let a = try server.post("/v1/image/analyze", png)
        #expect(a.json["image"]?["colorProfile"]?["description"] == .string("Display P3"))
        #expect(a.json["image"]?["colorProfile"]?["dimHandling"] == .string("kept"))
        #expect(a.json["whiteBackground"]?["detected"] == .bool(true))
        let d = try server.post("/v1/image/dim?format=jpeg", png)
        #expect(d.status == 200 && d.headers["x-color-profile"] == "kept; Display P3")
        #expect(try decode(d, .jpeg).iccProfile == p3)
    }

    // MARK: dim

    @Test func dimsA16BitPNGAndKeepsAlpha() throws {
        let server = try LiveServer()
        // Opaque except a translucent ramp in the first six columns.
        let png = try ImageSamples.encode(.png, bands: 4, bits: 16, alpha: { x, _ in x < 6 ? UInt16(x * 40) : 255 })
        let r = try server.post("/v1/image/dim", png)
        #expect(r.status == 200 && r.headers["content-type"] == "image/png", "\(r.text.prefix(300))")
        let factor = try #require(r.headers["x-dim-factor"].flatMap(Double.init))
        #expect(abs(factor - 0.771) < 0.001)
        #expect(r.headers["x-dim-basis"] == "recommendation")
        let out = try decode(r, .png)
        #expect(out.bitsPerSample == 16 && out.bands == 4)
        let before = try ImageFile.open(png, format: .png, maxPixels: 10_000).rawPixels()
        let after = try out.rawPixels()
        for x in [0, 1, 3, 5, 59] {
            #expect(before.pixel(x, 0).last == after.pixel(x, 0).last, "alpha at x=\(x)")
        }
        // The white lands on the target luminance in linear light.
        let white = Double(after.pixel(30, 1).first!) / 65535
        #expect(abs(WCAG.linearize(white) - factor) < 1e-3)
    }

    @Test func explicitAmountAndOutputFormats() throws {
        let png = try ImageSamples.encode(.png)
        let same = callImage("/v1/image/dim?amount=1", png)
        #expect(same.status == 200 && same.headers["x-dim-factor"] == "1" && same.headers["x-dim-basis"] == "amount")
        #expect(try decode(same, .png).rawPixels() == (try ImageFile.open(png, format: .png, maxPixels: 10_000).rawPixels()))
        let half = callImage("/v1/image/dim?amount=0.5&format=webp&quality=100", png)
        #expect(half.status == 200 && half.headers["content-type"] == "image/webp")
        let px = try decode(half, .webp).rawPixels()
        #expect(abs(WCAG.linearize(Double(px.pixel(0, 0).first!) / 255) - 0.5) < 0.01)
        expectProblem(callImage("/v1/image/dim?amount=0.5&targetLc=80", png), 400, parameter: "targetLc")
        expectProblem(callImage("/v1/image/dim?format=gif", png), 400, parameter: "format")
        expectProblem(callImage("/v1/image/dim?quality=0", png), 400, parameter: "quality")
        // quality would be ignored for PNG output: said, not silently dropped.
        let ignored = expectProblem(callImage("/v1/image/dim?quality=90&format=png", png), 400, parameter: "quality")
        #expect(ignored["type"] == "/problems/contradictory-fields" && ignored["conflictsWith"] == "format")
    }

    @Test func jpegOutputOfATranslucentImageIsFlattenedOverTheBackground() throws {
        let png = try ImageSamples.encode(.png, bands: 4, alpha: { _, _ in 0 })
        // `jpg` is JPEG too (hostile test: a 400, while Content-Type image/jpg was accepted).
        let jpg = callImage("/v1/image/dim?format=JPG&amount=0.5", png)
        #expect(jpg.status == 200 && jpg.headers["content-type"] == "image/jpeg", "\(jpg.text)")
        let r = callImage("/v1/image/dim?format=jpeg&amount=1&systemBackground=elevated", png)
        #expect(r.status == 200 && r.headers["x-flattened-over"] == "#1c1c1e")
    }

    @Test func darkImageComesBackUnchanged() throws {
        let png = try ImageSamples.encode(.png, background: [10, 10, 10])
        let r = callImage("/v1/image/dim", png)
        #expect(r.headers["x-dim-factor"] == "1")
        #expect(r.headers["x-dim-basis"]?.hasPrefix("recommendation (no white background") == true)
        #expect(r.body == png, "returned as sent, not re-encoded")
    }

    // MARK: hostile input

    @Test(arguments: [ImageFormat.png, .jpeg, .webp])
    func truncatedImagesGet400(format: ImageFormat) throws {
        let whole = try ImageSamples.encode(format, width: 64, height: 64)
        for path in ["/v1/image/analyze", "/v1/image/dim"] {
            let r = callImage(path, Array(whole.prefix(whole.count / 2)), contentType: format.mediaType)
            let j = expectProblem(r, 400)
            #expect(j["type"] == .string("/problems/invalid-image"), "\(format) \(path): \(r.text)")
        }
    }

    @Test func mislabeledAndUnrecognizedBodies() throws {
        let png = try ImageSamples.encode(.png)
        let j = expectProblem(callImage("/v1/image/analyze", png, contentType: "image/jpeg"), 400)
        #expect(j["type"] == .string("/problems/mislabeled-image"))
        #expect(j["detail"]?.string?.contains("is a PNG image") == true)
        #expect(j["actual"] == .string("image/png"))
        let gif = Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)
        let g = expectProblem(callImage("/v1/image/analyze", gif, contentType: "image/png"), 400)
        #expect(g["detail"]?.string?.contains("a GIF image") == true)
        expectProblem(callImage("/v1/image/analyze", Array("{\"a\":1}".utf8), contentType: "application/json"), 415)
        // No Content-Type, or octet-stream: the signature decides.
        #expect(callImage("/v1/image/analyze", png, contentType: nil).status == 200)
        #expect(callImage("/v1/image/analyze", png, contentType: "application/octet-stream").status == 200)
        #expect(callImage("/v1/image/analyze", png, contentType: "application/x-www-form-urlencoded").status == 200)
        #expect(callImage("/v1/image/analyze", png, contentType: "IMAGE/PNG; q=1").status == 200)
        expectProblem(callImage("/v1/image/analyze", [], contentType: "image/png"), 400)
    }

    /// A 150-byte PNG that declares 100000 × 100000 pixels is refused from its header.
    @Test func decompressionBombIsRefusedBeforeDecoding() throws {
        let server = try LiveServer()
        let bomb = try ImageSamples.pngDeclaring(width: 100_000, height: 100_000)
        let started = Date()
        for path in ["/v1/image/analyze", "/v1/image/dim"] {
            let j = expectProblem(try server.post(path, bomb), 422)
            #expect(j["type"] == .string("/problems/limit-exceeded"))
            #expect(j["limit"] == .number(40_000_000) && j["width"] == .number(100_000))
        }
        // Refused from the header: decoding 10^10 pixels would take far longer than this generous
        // bound (or run out of memory); the limit fields above come from the header alone.
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    /// 1 × 39,999,999 is under the pixel limit, but libpng reads at most 1,000,000 rows: the
    /// problem says so instead of "could not read its header" (hostile pass).
    @Test func aPNGSideLongerThanLibpngReadsIsNamed() throws {
        let tall = try ImageSamples.pngDeclaring(width: 1, height: 39_999_999)
        let r = callImage("/v1/image/text-contrast?textColor=%23fff", tall)
        #expect(r.status >= 400 && r.status < 500 && r.text.contains("at most 1000000 pixels a side"), "\(r.text)")
    }

    @Test func imageLimitsComeFromConfiguration() throws {
        var c = testConfiguration()
        c.maxImagePixels = 1000
        expectProblem(callImage("/v1/image/analyze", try ImageSamples.encode(.png, width: 40, height: 30), configuration: c), 422)
        c.maxImageBytes = 100
        let j = expectProblem(callImage("/v1/image/analyze", try ImageSamples.encode(.png), configuration: c), 413)
        #expect(j["limit"] == .number(100))
    }

    /// Hostile passes: a 6000 × 6600 dim to WebP with alpha peaked at 593–612 MiB (libwebp
    /// encodes from whole copies), and a noisy 39.6 MP photo without alpha at 1,130 MiB, over
    /// the Kubernetes manifest's 512 MiB. WebP output may have at most a quarter of
    /// `maxImagePixels`, with alpha or without; PNG output the whole.
    @Test func webPOutputHasAQuarterOfThePixelLimit() throws {
        var c = testConfiguration()
        c.maxImagePixels = 9599
        let rgba = try ImageSamples.encode(.png, width: 60, height: 40, bands: 4, alpha: { x, _ in UInt16(x * 4) })
        let rgb = try ImageSamples.encode(.png, width: 60, height: 40)
        for image in [rgba, rgb] {
            let j = expectProblem(callImage("/v1/image/dim?amount=0.5&format=webp", image, configuration: c), 422)
            #expect(j["limit"] == .number(2399) && j["parameter"] == "format", "\(j)")
            #expect(j["detail"]?.string?.contains("ask for format=jpeg or format=png") == true)
            #expect(callImage("/v1/image/dim?amount=0.5&format=png", image, configuration: c).status == 200)
        }
        c.maxImagePixels = 9600
        for image in [rgba, rgb] { #expect(callImage("/v1/image/dim?amount=0.5&format=webp", image, configuration: c).status == 200) }
    }

    /// Image routes get `maxImageBytes` as their body cap, other routes keep `maxBodyBytes`.
    @Test func imageRoutesHaveTheirOwnBodyCap() throws {
        var c = testConfiguration()
        c.maxBodyBytes = 4096
        c.maxImageBytes = 4_000_000
        let server = try LiveServer(configuration: c)
        let big = try ImageSamples.noisePNG(width: 700, height: 500)
        #expect(big.count > 1_000_000)
        let r = try server.post("/v1/image/analyze", big)
        #expect(r.status == 200, "\(r.text.prefix(300))")
        #expect(r.json["whiteBackground"]?["detected"] == .bool(false))
        let json = "{\"foreground\":\"#000\",\"background\":\"#fff\",\"pad\":\"\(String(repeating: "x", count: 5000))\"}"
        #expect(try server.request("POST", "/v1/contrast", body: json).status == 413)
        c.maxImageBytes = 100_000
        let small = try LiveServer(configuration: c)
        expectProblem(try small.post("/v1/image/dim", big), 413)
        #expect(try small.request("GET", "/healthz").status == 200)
    }

    /// Guards a bug: libvips's error buffer is process-wide, so under concurrency a truncated
    /// image's decoder message could be taken by another request and the failure blamed on the
    /// encoder (422). Whose fault it is must not depend on the message.
    @Test func concurrentGoodAndTruncatedImages() throws {
        let server = try LiveServer()
        let good = try ImageSamples.encode(.png, width: 400, height: 300)
        let cut = Array(good.prefix(good.count / 2))
        let results = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            for i in 0..<6 {
                let truncated = (worker + i) % 2 == 0
                let path = i % 3 == 0 ? "/v1/image/analyze" : "/v1/image/dim?amount=0.5&format=\(i % 2 == 0 ? "jpeg" : "png")"
                let status = (try? server.post(path, truncated ? cut : good).status) ?? 0
                results.withLock { $0.append("\(truncated ? "cut" : "good") \(status)") }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 36)
        #expect(all.allSatisfy { $0 == "good 200" || $0 == "cut 400" }, "\(all.filter { $0 != "good 200" && $0 != "cut 400" })")
    }

    @Test func configurationKeys() throws {
        var c = ServiceConfiguration()
        #expect(c.maxImageBytes == 20_971_520 && c.maxImagePixels == 40_000_000)
        try c.apply(fileContents: Array("{\"maxImageBytes\": 5000000, \"maxImagePixels\": 12000000}".utf8), baseDirectory: nil)
        #expect(c.maxImageBytes == 5_000_000 && c.maxImagePixels == 12_000_000)
        try c.apply(environment: ["CONTRAST_MAX_IMAGE_PIXELS": "24000000"])
        #expect(c.maxImagePixels == 24_000_000)
        #expect(c.server.maxBodyBytesByPath["/v1/image/dim"] == 5_000_000)
        #expect(throws: ConfigurationError.self) {
            try c.apply(fileContents: Array("{\"maxImagePixels\": 0}".utf8), baseDirectory: nil)
        }
    }
}

/// `#rrggbb` of sRGB `0...1` (as the API writes colors).
enum ColorJSONProbe {
    static func hex(_ c: SIMD3<Double>) -> String {
        Color.srgb(c.x, c.y, c.z, alpha: 1).hex
    }
}

/// The hostile test's inputs over HTTP: each a kind of fault, each a 4xx problem (or a bounded
/// 200) that names what is wrong.
@Suite(.serialized)
struct HostileImageTests {
    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        var c: UInt32 = 0xFFFF_FFFF
        for byte in body {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        c ^= 0xFFFF_FFFF
        let n = payload.count
        return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + body
            + [UInt8(c >> 24), UInt8(c >> 16 & 255), UInt8(c >> 8 & 255), UInt8(c & 255)]
    }

    /// `png` (from libvips: IHDR is its first 33 bytes) with `extra` chunks after IHDR.
    static func inserting(_ extra: [[UInt8]], into png: [UInt8]) -> [UInt8] {
        Array(png.prefix(33)) + extra.flatMap { $0 } + Array(png.dropFirst(33))
    }



    static func noiseJPEG() throws -> [UInt8] {
        var state: UInt32 = 99
        let px = (0..<(80 * 80 * 3)).map { _ -> UInt16 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt16(state >> 24)
        }
        return try ImageEncoder.encode(pixels: px, width: 80, height: 80, bands: 3, format: .jpeg, quality: 90)
    }

    /// 1 MB of zTXt chunks that inflate to 100 MB each froze the server for 7.5 s (analyze)
    /// and 12 s (dim); they are dropped unread, so both answer in milliseconds.
    @Test func pngOfCompressedTextChunksAnswersAtOnce() throws {
        let bomb = ZlibStreams.zeros(40_000_000)  // 250 KB
        let extra = (0..<8).map { Self.chunk("zTXt", Array("k\($0)".utf8) + [0, 0] + bomb) }
        let png = Self.inserting(extra, into: try ImageSamples.encode(.png))
        #expect(png.count > 1_000_000)
        for path in ["/v1/image/analyze", "/v1/image/dim?amount=0.8"] {
            let start = ContinuousClock.now
            let r = callImage(path, png)
            let elapsed = ContinuousClock.now - start
            #expect(r.status == 200, "\(r.text)")
            // Inflating 320 MB three times per load takes seconds; the chunk walk, milliseconds.
            #expect(elapsed < .seconds(2), "\(path) took \(elapsed)")
        }
    }

    @Test func oversizedICCProfileIs422() throws {
        let iccp = Self.chunk("iCCP", Array("p".utf8) + [0, 0] + ZlibStreams.zeros(5_000_000))
        let png = Self.inserting([iccp], into: try ImageSamples.encode(.png))
        let j = expectProblem(callImage("/v1/image/analyze", png), 422, kind: "unsupported-image")
        #expect(j["detail"]?.string?.contains("ICC profile (iCCP chunk) inflates to more than 4194304 bytes") == true)
    }

    /// An iCCP chunk holding no valid profile was dropped by libpng and the answer said "no
    /// embedded ICC profile" (outside tester): it now says the profile was invalid and ignored.
    @Test func anInvalidICCProfileIsSaidToBeIgnored() throws {
        let iccp = Self.chunk("iCCP", Array("p".utf8) + [0, 0] + ZlibStreams.zeros(600))
        let png = Self.inserting([iccp], into: try ImageSamples.encode(.png))
        let r = callImage("/v1/image/analyze", png)
        #expect(r.status == 200, "\(r.text)")
        #expect(r.json["notes"]?.array?.first?.string
            == "the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB")
        let plain = callImage("/v1/image/analyze", try ImageSamples.encode(.png))
        #expect(plain.json["notes"]?.array?.first?.string == "no embedded ICC profile: the pixels were taken as sRGB")
    }

    /// A profile of another kind than the image's colors is ignored, as browsers and libvips's
    /// transform ignore it (a hostile pass: an RGB JPEG carrying an abstract Lab profile was said
    /// to be "converted from the embedded profile" and measured unconverted, #808080).
    @Test func aProfileOfAnotherKindIsSaidToBeIgnored() throws {
        let lab = Array(try Data(contentsOf: FixtureLoader.url("images/lab-identity.icc")))
        #expect(!ICCProfile.suits(lab, channels: 3) && ICCProfile.suits(ImageSamples.displayP3, channels: 3))
        #expect(!ICCProfile.suits(ImageSamples.displayP3, channels: 1) && !ICCProfile.suits(ImageSamples.displayP3, channels: 4))
        let jpeg = try ImageSamples.encode(.jpeg, width: 40, height: 40, background: [128, 128, 128], icc: lab)
        let r = callImage("/v1/image/text-contrast?textColor=white", jpeg, contentType: "image/jpeg")
        #expect(r.status == 200, "\(r.text)")
        #expect(r.json["notes"]?.array?.contains("the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB") == true, "\(r.text)")
        #expect(r.json["notes"]?.array?.contains { $0.string?.contains("converting from the embedded profile") == true } == false)
        #expect(r.json["image"]?["colorProfile"]?["dimHandling"] != "converted-to-srgb", "\(r.text)")
        let analyzed = callImage("/v1/image/analyze", jpeg, contentType: "image/jpeg")
        #expect(analyzed.json["notes"]?.array?.first?.string == "the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB", "\(analyzed.text)")
    }

    /// A hostile pass: a JPEG's profile cut to 200 bytes was "converted" through, and one whose
    /// header claims 10⁹ bytes was kept and written back. A profile whose header's size is not
    /// its own is ignored, with the note. (libvips will not write the cut one into a JPEG; its
    /// check is the same test of the header.)
    @Test func profilesOfTheWrongSizeAreIgnored() throws {
        let p3 = ImageSamples.displayP3
        var claims = p3
        (claims[0], claims[1], claims[2], claims[3]) = (0x3B, 0x9A, 0xCA, 0x00)   // 1,000,000,000
        #expect(ICCProfile.suits(p3, channels: 3))
        #expect(!ICCProfile.suits(Array(p3.prefix(200)), channels: 3) && !ICCProfile.suits(claims, channels: 3))
        let jpeg = try ImageSamples.encode(.jpeg, width: 16, height: 16, background: [128, 128, 128], icc: claims)
        let r = callImage("/v1/image/text-contrast?textColor=white", jpeg, contentType: "image/jpeg")
        #expect(r.status == 200, "\(r.text)")
        #expect(r.json["notes"]?.array?.contains("the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB") == true, "\(r.text)")
        let dim = callImage("/v1/image/dim?format=jpeg", jpeg, contentType: "image/jpeg")
        #expect(dim.status == 200 && dim.headers["x-color-profile"] == "assumed-srgb", "\(dim.headers)")
    }

    /// A hostile pass: an RGB matrix/TRC profile relabelled GRAY, on a gray PNG, made the image
    /// a 400 ("cannot convert its colors to sRGB"); browsers ignore such a profile, and so does
    /// the service now, with the note.
    @Test func aProfileNoTransformFitsIsIgnored() throws {
        var gray = ImageSamples.displayP3
        (gray[16], gray[17], gray[18], gray[19]) = (0x47, 0x52, 0x41, 0x59)   // "GRAY"
        #expect(ICCProfile.suits(gray, channels: 1) && !ICCProfile.convertsToSRGB(gray))
        #expect(ICCProfile.convertsToSRGB(ImageSamples.displayP3))
        let png = Self.inserting([Self.chunk("iCCP", Array("p".utf8) + [0, 0] + ZlibStreams.stored(gray))],
                                 into: try ImageEncoder.encode(pixels: [UInt16](repeating: 128, count: 256), width: 16, height: 16, bands: 1, format: .png))
        for route in ["/v1/image/text-contrast?textColor=white", "/v1/image/analyze"] {
            let r = callImage(route, png)
            #expect(r.status == 200, "\(route): \(r.text)")
            #expect(r.json["notes"]?.array?.contains("the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB") == true, "\(route): \(r.text)")
        }
        #expect(callImage("/v1/image/dim?format=png", png).status == 200)
    }

    /// A JPEG over libjpeg's 65500-pixel side was a vague 400 ("could not read its header"):
    /// the format allows 65535, the decoder does not, so it is a 422 saying so.
    @Test func aJPEGSideOverLibjpegsLimitIs422() throws {
        var jpeg = try ImageSamples.encode(.jpeg, width: 8, height: 8)
        let sof = try #require((2..<jpeg.count - 9).first { jpeg[$0] == 0xFF && (0xC0...0xC2).contains(jpeg[$0 + 1]) })
        jpeg.replaceSubrange(sof + 5..<sof + 9, with: [0x00, 0x01, 0xFF, 0xDD])  // 65501 × 1
        let j = expectProblem(callImage("/v1/image/analyze", jpeg, contentType: "image/jpeg"), 422, kind: "unsupported-image")
        #expect(j["detail"] == .string("the JPEG header declares 65501 × 1 pixels; JPEG decoders (libjpeg) read at most 65500 pixels a side"))
    }

    /// A JPEG cut at 60% with FFD9 appended, and one whose header claims 6000 × 6000 over data
    /// for 8 × 8, were answered 200 (grey fill, and dimmed). Both are 400 on both routes now.
    @Test func damagedJPEGsAre400OnBothRoutes() throws {
        let jpeg = try Self.noiseJPEG()
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10)) + [0xFF, 0xD9]
        var claims = try ImageSamples.encode(.jpeg, width: 8, height: 8)
        let sof = try #require((2..<claims.count - 9).first { claims[$0] == 0xFF && (0xC0...0xC2).contains(claims[$0 + 1]) })
        claims.replaceSubrange(sof + 5..<sof + 9, with: [0x17, 0x70, 0x17, 0x70])  // 6000 × 6000
        for (bytes, rows) in [(cut, "all 80 rows of the 80 × 80 pixels"), (claims, "all 6000 rows of the 6000 × 6000 pixels")] {
            for path in ["/v1/image/analyze", "/v1/image/dim", "/v1/image/dim?amount=0.5&format=png"] {
                let j = expectProblem(callImage(path, bytes, contentType: "image/jpeg"), 400, kind: "invalid-image")
                #expect(j["detail"] == .string("the JPEG data is truncated or corrupt: its compressed pixel data is damaged or ends before \(rows) its header declares were decoded"), "\(path)")
            }
        }
    }

    /// libvips 8.14 checks libjpeg's warnings at the start of each 8-row strip, for the strip
    /// before, so damage in a baseline JPEG's last strip was filled with grey and answered 200:
    /// a header claiming 6000 × 1 over data for 80 × 80, and an 80 × 80 file cut in its last
    /// MCU row (found while checking #17's item 8). Both are 400 now.
    @Test func damageInAJPEGsLastRowsIs400() throws {
        let jpeg = try Self.noiseJPEG()
        var wide = jpeg
        let sof = try #require((2..<wide.count - 9).first { wide[$0] == 0xFF && (0xC0...0xC2).contains(wide[$0 + 1]) })
        wide.replaceSubrange(sof + 5..<sof + 9, with: [0x00, 0x01, 0x17, 0x70])  // 6000 × 1
        let lastRow = Array(jpeg.prefix(jpeg.count * 95 / 100)) + [0xFF, 0xD9]
        for (bytes, rows) in [(wide, "all 1 row of the 6000 × 1 pixels"), (lastRow, "all 80 rows of the 80 × 80 pixels")] {
            for path in ["/v1/image/analyze", "/v1/image/dim"] {
                let j = expectProblem(callImage(path, bytes, contentType: "image/jpeg"), 400, kind: "invalid-image")
                #expect(j["detail"] == .string("the JPEG data is truncated or corrupt: its compressed pixel data is damaged or ends before \(rows) its header declares were decoded"), "\(path)")
            }
        }
        // The intact file is read.
        #expect(callImage("/v1/image/analyze", jpeg, contentType: "image/jpeg").status == 200)
    }

    /// A successful request's decoder warning stayed in libvips's process-wide error buffer and
    /// became a later client's 400 detail. Each detail now speaks of its own file only.
    @Test func decoderTextNeverCrossesRequests() throws {
        let server = try LiveServer()
        let jpeg = try Self.noiseJPEG()
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10)) + [0xFF, 0xD9]
        let png = try ImageSamples.encode(.png, width: 120, height: 90)
        let idatAt = try #require((8..<png.count - 4).first { png[$0..<$0 + 4].elementsEqual("IDAT".utf8) }) - 4
        let idatLength = Int(png[idatAt]) << 24 | Int(png[idatAt + 1]) << 16 | Int(png[idatAt + 2]) << 8 | Int(png[idatAt + 3])
        let idat = Array(png[idatAt + 8..<idatAt + 8 + idatLength])
        let shortPNG = Array(png.prefix(idatAt)) + Self.chunk("IDAT", Array(idat.prefix(idat.count / 3))) + Self.chunk("IEND", [])
        let details = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<6 {
                let isJPEG = (worker + i) % 2 == 0
                let r = try? server.post("/v1/image/analyze", isJPEG ? cut : shortPNG, contentType: nil)
                details.withLock { $0.append("\(isJPEG ? "jpeg" : "png") \(r?.status ?? 0) \(r?.json["detail"]?.string ?? "")") }
            }
        }
        let all = details.withLock { $0 }
        #expect(all.count == 24)
        for line in all {
            if line.hasPrefix("jpeg") {
                #expect(line.hasPrefix("jpeg 400 the JPEG data is truncated or corrupt: ") && !line.contains("PNG") && !line.contains("Vips"), "\(line)")
            } else {
                #expect(line == "png 400 the PNG data is truncated or corrupt: its compressed pixel data (IDAT) is damaged or ends before all 90 rows of the 120 × 90 pixels its header declares were decoded", "\(line)")
            }
        }
    }

    /// An APNG whose acTL says 2147483647 frames over one fcTL chunk: `frames` was the echo.
    @Test func apngFramesAreValidatedAgainstItsFrameControls() throws {
        let still = try ImageSamples.encode(.png, width: 20, height: 20)
        let fctl = Self.chunk("fcTL", [0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 14))
        let apng = Self.inserting([Self.chunk("acTL", [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]), fctl], into: still)
        let j = callImage("/v1/image/analyze", apng).json
        #expect(j["image"]?["frames"] == 1)
        #expect(j["notes"]?.array?.contains(.string("the APNG animation chunks were ignored (its acTL chunk declares 2147483647 frames but the file has 1 fcTL chunks): the file was read as the still image every viewer shows")) == true, "\(j)")
    }
}
