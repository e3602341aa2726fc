import ColorScience
import ContrastAPI
import Foundation
import HTTPServer
import ImageProcessing
import JSONValue
import TestSupport
import Testing

/// `POST /v1/image/text-contrast`: synthetic images with hand-computed answers, a real
/// photograph, and a 4xx naming the parameter for every bad input.
@Suite struct TextContrastEndpointTests {
    /// Left half black, right half white (gray codes), `width × height`.
    func halfAndHalf(_ format: ImageFormat = .png, width: Int = 64, height: Int = 32, orientation: Int? = nil) throws -> [UInt8] {
        var px: [UInt16] = []
        for _ in 0..<height { for x in 0..<width { px += Array(repeating: x < width / 2 ? 0 : 255, count: 3) } }
        return try ImageEncoder.encode(pixels: px, width: width, height: height, bands: 3, format: format, orientation: orientation)
    }

    /// A translucent pixel is composited over the backdrop and rounded to the nearest 8-bit
    /// level: 237 at alpha 128 over black is 118.96, so 119 (4.478:1 with white, failing AA),
    /// not 118 (4.542:1, passing), as flattening the 8-bit image had truncated it (hostile pass).
    @Test func translucentPixelsRoundToTheNearestLevel() throws {
        let server = try LiveServer()
        let px = [UInt16]((0..<64).flatMap { _ in [237, 237, 237, 128] as [UInt16] })
        let png = try ImageEncoder.encode(pixels: px, width: 8, height: 8, bands: 4, format: .png)
        let r = try server.post("/v1/image/text-contrast?textColor=%23fff&backdrop=%23000", png)
        #expect(r.status == 200, "\(r.text)")
        let gray = WCAG.relativeLuminance(SIMD3(repeating: 119.0 / 255))
        let expected = WCAG.contrastRatio(1, gray)
        #expect(abs((r.json["wcag"]?["minimum"]?.double ?? 0) - expected) < 1e-4, "\(r.text)")
        #expect(r.json["passes"] == .bool(false), "\(r.text)")
    }

    /// The worst block's mean is summed from the distribution's bins: under black text a uniform
    /// #458301 (4.4999:1 everywhere, by the formula) showed a mean of 4.5001, above the region's
    /// maximum and rounded onto the target (a new user's pass, stop 38).
    @Test func worstAreaMeanStaysWithinTheRegionAndBelowTheTarget() throws {
        let server = try LiveServer()
        let px = [UInt16]((0..<(64 * 64)).flatMap { _ in [0x45, 0x83, 0x01] as [UInt16] })
        let png = try ImageEncoder.encode(pixels: px, width: 64, height: 64, bands: 3, format: .png)
        let r = try server.post("/v1/image/text-contrast?textColor=black", png)
        #expect(r.status == 200, "\(r.text)")
        let exact = WCAG.contrastRatio(WCAG.relativeLuminance(SIMD3(0x45, 0x83, 0x01) / 255), 0)
        #expect(exact < 4.5 && exact > 4.4999, "\(exact)")
        #expect(r.json["wcag"]?["maximum"] == .number(4.4999), "\(r.text)")
        #expect(r.json["worstArea"]?["mean"] == .number(4.4999), "\(r.text)")
    }

    /// A new user's pass, stop 39: white text on a photo was "fixed" by #2a2a2a with no word,
    /// where the gradient route says a fix turns the polarity. On a #777777 image (white text
    /// 4.48:1, failing AA) the nearest text color that passes is dark: said; dark text on a
    /// light image given a darker gray keeps its polarity: not said.
    @Test func aTextColorThatTurnsThePolaritySaysSo() throws {
        let server = try LiveServer()
        func solid(_ v: UInt16) throws -> [UInt8] {
            try ImageEncoder.encode(pixels: Array(repeating: v, count: 64 * 32 * 3), width: 64, height: 32, bands: 3, format: .png)
        }
        let turned = try server.post("/v1/image/text-contrast?textColor=white", try solid(0x77))
        let fix = turned.json["fixes"]?["textColor"]
        #expect(turned.json["passes"] == .bool(false) && fix?["after"]?["passes"] == .bool(true), "\(turned.text)")
        #expect(fix?["reversesPolarity"] == .bool(true), "\(turned.text)")
        #expect(fix?["note"] == .string("the text is lighter than the median pixel under it and this color is darker: the text turns from lighter than the image to darker than it (its polarity reverses)"))
        // On a light image the same words (stop 49: "light text on a dark image" about a light sky).
        let light = try server.post("/v1/image/text-contrast?textColor=white", try solid(0xdd))
        #expect(light.json["fixes"]?["textColor"]?["note"] == fix?["note"], "\(light.text)")
        let kept = try server.post("/v1/image/text-contrast?textColor=%23999999", try solid(0xee))
        #expect(kept.json["passes"] == .bool(false) && kept.json["fixes"]?["textColor"]?["after"]?["passes"] == .bool(true), "\(kept.text)")
        #expect(kept.json["fixes"]?["textColor"]?["reversesPolarity"] == nil, "\(kept.text)")
        // Scrims too, as on gradients (a new user's pass: slate #94a3b8 text on a white label was
        // recommended a black scrim at 0.75, turning the label dark under it, where a darker
        // slate keeps the design): the black scrim says so, none is recommended, and no gradient
        // scrim is offered in its color.
        let label = try server.post("/v1/image/text-contrast?textColor=%2394a3b8&fontSize=16&fontSizeUnit=px", try solid(0xff))
        let scrim = label.json["fixes"]?["scrim"]
        #expect(label.json["passes"] == .bool(false) && scrim?["white"] == .null, "\(label.text)")
        #expect(scrim?["black"]?["after"]?["passes"] == .bool(true) && scrim?["black"]?["reversesPolarity"] == .bool(true), "\(label.text)")
        #expect(scrim?["black"]?["note"] == .string("the text is darker than the median pixel under it, and after this fix lighter: the text turns from darker than the image to lighter than it (its polarity reverses)"), "\(label.text)")
        #expect(scrim?["recommended"] == .null && scrim?["gradient"] == .null, "\(label.text)")
        #expect(scrim?["note"] == .string("every scrim that passes turns the text's polarity (reversesPolarity), and textColor passes keeping it: no scrim is recommended"), "\(label.text)")
        #expect(label.json["fixes"]?["textColor"]?["after"]?["passes"] == .bool(true) && label.json["fixes"]?["textColor"]?["reversesPolarity"] == nil, "\(label.text)")
        #expect(label.json["fixes"]?["brightness"]?["reversesPolarity"] == .bool(true), "\(label.text)")
        // The preview that draws it says so too (a hostile pass: it drew the scrim silently).
        let drawn = try server.post("/v1/image/text-contrast?textColor=%2394a3b8&fontSize=16&fontSizeUnit=px&preview=true&scrim=black", try solid(0xff))
        #expect(drawn.status == 200 && drawn.headers["x-scrim-reverses-polarity"] == "true", "\(drawn.headers)")
        // White text on a mid-gray image: the black scrim keeps it and is recommended, unmarked.
        let dark = try server.post("/v1/image/text-contrast?textColor=white", try solid(0x77))
        #expect(dark.json["fixes"]?["scrim"]?["recommended"] == "black" && dark.json["fixes"]?["scrim"]?["black"]?["reversesPolarity"] == nil, "\(dark.text)")
        let keptPreview = try server.post("/v1/image/text-contrast?textColor=white&preview=true", try solid(0x77))
        #expect(keptPreview.status == 200 && keptPreview.headers["x-scrim-reverses-polarity"] == nil && keptPreview.headers["x-scrim"]?.hasPrefix("linear-gradient(rgb(0 0 0") == true, "\(keptPreview.headers)")
    }

    /// A new user's pass: one white pixel in a black 200 × 120 image under white text failed
    /// (the heat map showed it) while `failingShare` said 0 (4 decimals of 1/24,000).
    @Test func aFewFailingPixelsAreNeverAShareOfZero() throws {
        let server = try LiveServer()
        var px = [UInt16](repeating: 0, count: 200 * 120 * 3)
        for k in 0..<3 { px[(60 * 200 + 150) * 3 + k] = 255 }
        let png = try ImageEncoder.encode(pixels: px, width: 200, height: 120, bands: 3, format: .png)
        let r = try server.post("/v1/image/text-contrast?textColor=white", png)
        #expect(r.json["passes"] == .bool(true) && r.json["wcag"]?["failingShare"] == .number(0.0001), "\(r.text.prefix(400))")
        let heat = try server.post("/v1/image/text-contrast?textColor=white&heatmap=true", png)
        #expect(heat.headers["x-failing-share"] == "0.0001", "\(heat.headers)")
        // And never 1 when one pixel passes: black text on the same image.
        let black = try server.post("/v1/image/text-contrast?textColor=black", png)
        #expect(black.json["wcag"]?["failingShare"] == .number(0.9999), "\(black.text.prefix(400))")
    }

    @Test func halfBlackHalfWhiteWithWhiteText() throws {
        let server = try LiveServer()
        let r = try server.post("/v1/image/text-contrast?textColor=white", try halfAndHalf())
        #expect(r.status == 200, "\(r.text)")
        let j = r.json
        #expect(j["passes"] == .bool(false))
        #expect(j["wcag"]?["failingShare"] == .number(0.5))
        #expect(j["wcag"]?["percentile5"] == .number(1))
        #expect(j["wcag"]?["minimum"] == .number(1))
        #expect(j["wcag"]?["maximum"] == .number(21))
        #expect(j["apca"]?["failingShare"] == .null)
        #expect(j["target"]?["minimum"] == .number(4.5))
        #expect((j["worstArea"]?["x"]?.double ?? 0) >= 32)
        #expect(j["fixes"]?["scrim"]?["recommended"] == .string("black"))
        #expect(j["fixes"]?["scrim"]?["black"]?["after"]?["passes"] == .bool(true))
        #expect(j["fixes"]?["scrim"]?["white"] == .null, "a white scrim cannot help white text")
        #expect(j["fixes"]?["brightness"]?["after"]?["passes"] == .bool(true))
        // White at 0.46 is 4.59:1 under white text, at 0.47 4.42:1; a factor so far from 1 says
        // what it does to the photo (a new user's pass: brightness(2.67) came without a word).
        #expect(j["fixes"]?["brightness"]?["factor"] == .number(0.46), "\(r.text)")
        #expect(j["fixes"]?["brightness"]?["note"] == .string("a strong darkening: the whole image keeps 46% of its light; a scrim under the text, or another text color, changes less of it"))
        #expect(j["fixes"]?["textColor"]?["hex"] == .string("#767676"))
        #expect(j["fixes"]?["textColor"]?["after"]?["passes"] == .bool(true))
        // The gradient scrim is solid at the right edge (the white half) and fades to the left.
        let g = j["fixes"]?["scrim"]?["gradient"]
        #expect(g?["edge"] == .string("right"), "\(r.text)")
        #expect(g?["after"]?["passes"] == .bool(true))
        #expect((g?["alpha"]?.double ?? 0) > (j["fixes"]?["scrim"]?["black"]?["alpha"]?.double ?? 1))
        #expect(g?["css"]?.string?.hasPrefix("background-image: linear-gradient(to left, rgb(0 0 0 / ") == true)
        #expect(g?["element"]?["x"] == .number(-64) && g?["element"]?["width"] == .number(128))
    }

    /// A new user's pass: a photo card with `bg-black/40` under white text could not be checked
    /// as built. `overlay` draws the design's layer over the whole image first: the white half
    /// under black at 0.6 is 102 (255 × 0.4), white text on it 5.74:1, passing; the black half
    /// stays 21:1.
    @Test func anOverlayIsDrawnBeforeMeasuring() throws {
        let server = try LiveServer()
        let r = try server.post("/v1/image/text-contrast?textColor=white&overlay=rgb(0%200%200%20/%200.6)", try halfAndHalf())
        #expect(r.status == 200, "\(r.text)")
        // The pixel at the 5th percentile is the composite itself; the minimum is its bin's
        // (luminance in 1/65535 steps: within 4.8e-4 of 5.7425:1 here).
        #expect(r.json["wcag"]?["percentile5Pixel"] == .string("#666666"), "\(r.text)")
        let gray = WCAG.contrastRatio(1, WCAG.relativeLuminance(SIMD3(repeating: 102.0 / 255)))
        #expect(abs((r.json["wcag"]?["minimum"]?.double ?? 0) - gray) < 4.8e-4, "\(r.text)")
        #expect(r.json["wcag"]?["maximum"] == .number(21) && r.json["passes"] == .bool(true))
        #expect(r.json["overlay"]?["hex"] == .string("#000000") && r.json["overlay"]?["alpha"] == .number(0.6))
        #expect(r.json["notes"]?.array?.contains { $0.string?.hasPrefix("measured with the overlay #000000 at alpha 0.6 ('rgb(0 0 0 / 0.6)') drawn over the whole image") == true } == true, "\(r.text)")
        // Without it the white half fails (1:1); the heat map sees the overlay too.
        let plain = try server.post("/v1/image/text-contrast?textColor=white", try halfAndHalf())
        #expect(plain.json["passes"] == .bool(false))
        let heat = try server.post("/v1/image/text-contrast?textColor=white&overlay=rgb(0%200%200%20/%200.6)&heatmap=true", try halfAndHalf())
        #expect(heat.status == 200 && heat.headers["x-passes"] == "true" && heat.headers["x-failing-share"] == "0", "\(heat.text.prefix(200))")
        // A tie rounds half up, as integer blending does: 40 under white at 0.5 is 147.5, so 148
        // (#949494), where the float sum, 147.49999999999997, had given 147 (a pass found 11 of
        // the 128 ties rounded down); 0 is 127.5, so 128.
        for (gray, hex) in [(40, "#949494"), (0, "#808080"), (254, "#ffffff")] {
            let one = try ImageEncoder.encode(pixels: [UInt16](repeating: UInt16(gray), count: 3), width: 1, height: 1, bands: 3, format: .png)
            let tie = try server.post("/v1/image/text-contrast?textColor=%23000&overlay=rgb(255%20255%20255%20/%200.5)", one)
            #expect(tie.json["wcag"]?["percentile5Pixel"] == .string(hex), "\(gray): \(tie.text.prefix(300))")
        }
        // A system color name resolves in the Apple context, which the answer then echoes.
        let named = try server.post("/v1/image/text-contrast?textColor=white&overlay=systemBlue", try halfAndHalf())
        #expect(named.json["overlay"]?["hex"] == .string("#0088ff") && named.json["appleContext"] != nil, "\(named.text.prefix(400))")
        // Not a color: a 400 naming it.
        let bad = try server.post("/v1/image/text-contrast?textColor=white&overlay=dark", try halfAndHalf())
        #expect(bad.status == 400 && bad.json["parameter"] == .string("overlay"), "\(bad.text)")
    }

    /// An accessibility auditor's pass: a 31 × 31 px white square (4.8% of a 200 × 100 black
    /// image) under white text passed on the 5th percentile with "nothing to apply" and no word;
    /// a note now says the worst area fails. A square under 16 px one way is noise-sized: its
    /// worst block still passes on average, and no note is given.
    @Test func aPassWhoseWorstAreaFailsSaysSo() throws {
        let server = try LiveServer()
        func image(square: Int) throws -> [UInt8] {
            var px: [UInt16] = []
            for y in 0..<100 {
                for x in 0..<200 {
                    let inside = x >= 80 && x < 80 + square && y >= 30 && y < 30 + square
                    px += inside ? [255, 255, 255] : [0, 0, 0]
                }
            }
            return try ImageEncoder.encode(pixels: px, width: 200, height: 100, bands: 3, format: .png)
        }
        let big = try server.post("/v1/image/text-contrast?textColor=white", try image(square: 31)).json
        #expect(big["passes"] == .bool(true) && big["worstArea"]?["mean"] == .number(1), "\(big)")
        let notes = big["notes"]?.array?.compactMap(\.string) ?? []
        #expect(notes.contains("passes on the 5th percentile, but its worst 16 × 16 px area (worstArea, at 80, 32) averages 1:1, below the target: text set over it there can be illegible; keep the text off it, or apply a fix, which is then judged on the region as a whole"), "\(notes)")
        let small = try server.post("/v1/image/text-contrast?textColor=white", try image(square: 3)).json
        #expect(small["passes"] == .bool(true) && small["notes"]?.array?.contains { $0.string?.hasPrefix("passes on the 5th percentile") == true } == false, "\(small)")
        // brightness() measured on the flattened image says where the filter must go when the
        // image has alpha (the same pass: on the <img> alone it left 70% of the pixels failing).
        let rgba = try ImageSamples.encode(.png, width: 60, height: 40, bands: 4, alpha: { x, _ in UInt16(min(255, x * 5)) })
        let translucent = try server.post("/v1/image/text-contrast?textColor=white", rgba).json
        #expect(translucent["fixes"]?["brightness"]?["factor"] != nil, "\(translucent)")
        #expect(translucent["notes"]?.array?.contains(.string("the brightness fix was measured on the image flattened over the backdrop #ffffff: put the filter on an element that paints that backdrop too (or flatten the image), not on an <img> whose transparent pixels show the page behind it")) == true, "\(translucent)")
        #expect(big["notes"]?.array?.contains { $0.string?.hasPrefix("the brightness fix") == true } == false)
    }

    /// A new user's pass: `appearance=dark` was an unknown parameter, so `systemBlue` could only
    /// be its light value (iOS 26: #0088ff light, #0091ff dark; iOS 15–18 dark #0a84ff). On the
    /// black half the ratio is the text's own against black.
    @Test func systemColorTextResolvesInTheAppleContext() throws {
        let server = try LiveServer()
        let image = try halfAndHalf()
        for (query, hex) in [("", "#0088ff"), ("&appearance=dark", "#0091ff"), ("&appearance=dark&generation=ios15-18", "#0a84ff")] {
            let r = try server.post("/v1/image/text-contrast?textColor=systemBlue&region=0,0,32,32\(query)", image)
            #expect(r.status == 200, "\(query): \(r.text)")
            #expect(r.json["textColor"]?["hex"] == .string(hex), "\(query): \(r.text)")
            #expect(r.json["appleContext"]?["appearance"] == .string(query.contains("dark") ? "dark" : "light"), "\(r.text)")
            let c = SIMD3<Double>(Double(Int(hex.dropFirst().prefix(2), radix: 16)!), Double(Int(hex.dropFirst(3).prefix(2), radix: 16)!),
                                  Double(Int(hex.dropFirst(5).prefix(2), radix: 16)!)) / 255
            let expected = WCAG.contrastRatio(WCAG.relativeLuminance(c), 0)
            #expect(abs((r.json["wcag"]?["minimum"]?.double ?? 0) - expected) < 1e-4, "\(query): \(r.text)")
        }
        // A CSS text color without a context gets no appleContext.
        let plain = try server.post("/v1/image/text-contrast?textColor=white", image)
        #expect(plain.json["appleContext"] == nil, "\(plain.text)")
    }

    /// The region is in displayed pixels: the black left half only, with white text, passes
    /// everywhere (21:1); large bold text lowers AA to 3:1; an APCA target reads the number as |Lc|.
    @Test func regionTextSizeAndAPCA() {
        let img = try! halfAndHalf()
        var r = callImage("/v1/image/text-contrast?textColor=%23fff&region=0,0,32,32", img)
        #expect(r.status == 200, "\(r.text)")
        #expect(r.json["passes"] == .bool(true))
        #expect(r.json["wcag"]?["minimum"] == .number(21))
        #expect(r.json["region"]?["pixels"] == .number(1024))
        #expect(r.json["region"]?["wholeImage"] == .bool(false))
        // A region that is the whole image says so (hostile pass: it had said false whenever
        // `region` was given).
        let whole = callImage("/v1/image/text-contrast?textColor=%23fff&region=0,0,64,32", img)
        #expect(whole.json["region"]?["wholeImage"] == .bool(true), "\(whole.text)")
        r = callImage("/v1/image/text-contrast?textColor=white&fontSize=24&target=AA", img)
        #expect(r.json["target"]?["minimum"] == .number(3))
        r = callImage("/v1/image/text-contrast?textColor=white&target=60", img)
        #expect(r.json["target"]?["metric"] == .string("apca"))
        #expect(r.json["apca"]?["failingShare"] == .number(0.5))
        #expect(r.json["wcag"]?["failingShare"] == .null)
        // A ratio is written 4.5:1; a bare 4.5 is refused, not read as Lc 4.5 (which any text on
        // a 1.51:1 photo had passed) nor guessed to be a ratio.
        r = callImage("/v1/image/text-contrast?textColor=white&target=4.5:1", img)
        #expect(r.json["target"]?["metric"] == .string("wcag2") && r.json["target"]?["minimum"] == .number(4.5), "\(r.text)")
        #expect(r.json["wcag"]?["failingShare"] == .number(0.5))
        r = callImage("/v1/image/text-contrast?textColor=white&target=4.5", img)
        #expect(r.status == 400 && r.text.contains("write 4.5:1"), "\(r.text)")
        // Out of range, the client's text is quoted (and cut), as in every problem.
        r = callImage("/v1/image/text-contrast?textColor=white&target=30:1", img)
        #expect(r.status == 400 && r.text.contains("between 1:1 and 21:1, got '30:1'"), "\(r.text)")
        // A number below 1 is no ratio either: no "write 0:1" (hostile pass).
        r = callImage("/v1/image/text-contrast?textColor=white&target=-0", img)
        #expect(r.status == 400 && !r.text.contains("0:1") && r.text.contains("give AA"), "\(r.text)")
        // An unknown target lists the names and the two number forms this route reads.
        r = callImage("/v1/image/text-contrast?textColor=white&target=abc:1", img)
        #expect(r.status == 400 && r.text.contains("AA-large") && r.text.contains("4.5:1") && r.text.contains("15 to 108"), "\(r.text)")
        // One sentence (a hostile pass read "…got 'inf' Or a WCAG ratio…").
        #expect(!r.text.contains(" Or a ") && r.text.contains("; or a WCAG ratio such as 4.5:1"), "\(r.text)")
        // Not-a-number and infinity are numbers that are not finite, not misspelled names
        // (hostile pass: target=nan was offered 'AA').
        for bad in ["nan", "NaN", "inf", "-infinity"] {
            r = callImage("/v1/image/text-contrast?textColor=white&target=\(bad)", img)
            #expect(r.status == 400 && r.text.contains("must be a finite number or a name such as AA, got '\(bad)'") && !r.text.contains("did you mean"), "\(r.text)")
        }
        // The box's coordinates one by one point to `region` (hostile pass: `x` was offered `textColor`).
        for bad in ["x=0&y=0&w=10&h=10", "left=4", "width=10", "h=8"] {
            r = callImage("/v1/image/text-contrast?textColor=white&\(bad)", img)
            #expect(r.status == 400 && r.text.contains("the text's box is one parameter, region=x,y,width,height in pixels"), "\(bad): \(r.text)")
        }
        // var() in a query: the image is the body, so the hint does not send the client to one.
        r = callImage("/v1/image/text-contrast?textColor=var(--brand)", img)
        #expect(r.status == 422 && r.text.contains("routes that read a JSON body") && !r.text.contains("POST body"), "\(r.text)")
    }

    /// EXIF orientation 6 (turned clockwise): a stored 64×32 image is displayed 32×64, its black
    /// half on top; region 0,0,32,32 is then all black.
    @Test func regionFollowsOrientation() {
        let img = try! halfAndHalf(.jpeg, orientation: 6)
        let r = callImage("/v1/image/text-contrast?textColor=white&region=0,0,32,32", img, contentType: "image/jpeg")
        #expect(r.status == 200, "\(r.text)")
        #expect((r.json["wcag"]?["percentile5"]?.double ?? 0) > 19)
        let outside = callImage("/v1/image/text-contrast?textColor=white&region=0,0,64,32", img, contentType: "image/jpeg")
        #expect(outside.status == 400)
        #expect(outside.json["parameter"] == .string("region"))
    }

    /// Translucent pixels are measured over `backdrop`: a white PNG whose left half is fully
    /// transparent, white text. Over the default white backdrop every pixel is white (1:1);
    /// over black the transparent half is black (21:1) and half the pixels pass.
    @Test func alphaOverTheBackdrop() throws {
        var px: [UInt16] = []
        for _ in 0..<16 { for x in 0..<32 { px += [255, 255, 255, x < 16 ? 0 : 255] } }
        let png = try ImageEncoder.encode(pixels: px, width: 32, height: 16, bands: 4, format: .png)
        var r = callImage("/v1/image/text-contrast?textColor=white", png)
        #expect(r.json["wcag"]?["maximum"] == .number(1))
        #expect(r.json["backdrop"]?["hex"] == .string("#ffffff"))
        r = callImage("/v1/image/text-contrast?textColor=white&backdrop=black", png)
        #expect(r.status == 200, "\(r.text)")
        #expect(r.json["wcag"]?["failingShare"] == .number(0.5))
        #expect(r.json["wcag"]?["maximum"] == .number(21))
        #expect(r.json["notes"]?.array?.contains { $0.string?.contains("alpha channel") == true } == true, "\(r.text)")
    }

    /// A real photograph (Debian desktop-base, Tests/Fixtures/images/README.md): white text over
    /// the whole picture and over its darker lower band, fixes that pass when measured again.
    @Test func realPhotograph() throws {
        let jpeg = Array(try Data(contentsOf: FixtureLoader.url("images/softwaves-900x506.jpg")))
        let r = callImage("/v1/image/text-contrast?textColor=white", jpeg, contentType: "image/jpeg")
        #expect(r.status == 200, "\(r.text)")
        let j = r.json
        #expect(j["image"]?["width"] == .number(900))
        let p5 = try #require(j["wcag"]?["percentile5"]?.double)
        let median = try #require(j["wcag"]?["median"]?.double)
        let minimum = try #require(j["wcag"]?["minimum"]?.double)
        #expect(minimum <= p5 && p5 <= median)
        // White 24 pt text (AA large, 3:1) over the lower band: the 5th percentile just misses
        // (2.95:1 with Debian 12's libjpeg-turbo), the median passes, a faint black scrim fixes it.
        let band = callImage("/v1/image/text-contrast?textColor=white&region=0,300,900,206&fontSize=24", jpeg, contentType: "image/jpeg")
        #expect(band.json["passes"] == .bool(false))
        let bandP5 = try #require(band.json["wcag"]?["percentile5"]?.double)
        #expect(bandP5 > 2.8 && bandP5 < 3)
        #expect((band.json["wcag"]?["median"]?.double ?? 0) > 4.5)
        #expect(band.json["fixes"]?["scrim"]?["recommended"] == .string("black"))
        #expect((band.json["fixes"]?["scrim"]?["black"]?["alpha"]?.double ?? 1) <= 0.05)
        #expect(band.json["fixes"]?["scrim"]?["gradient"]?["after"]?["passes"] == .bool(true))
        if j["passes"] == .bool(false) {
            let rec = try #require(j["fixes"]?["scrim"]?["recommended"]?.string)
            #expect(j["fixes"]?["scrim"]?[rec]?["after"]?["passes"] == .bool(true))
            #expect((j["fixes"]?["scrim"]?[rec]?["after"]?["wcag"]?["percentile5"]?.double ?? 0) >= 4.5)
        }
        // The heat map is a PNG of the region; the preview the whole image.
        let heat = callImage("/v1/image/text-contrast?textColor=white&region=100,100,200,50&heatmap=true", jpeg, contentType: "image/jpeg")
        #expect(heat.status == 200)
        #expect(heat.headers["content-type"] == "image/png")
        let map = try ImageFile.open(heat.body, format: .png, maxPixels: 1_000_000)
        #expect(map.width == 200 && map.height == 50)
        // Its headers say what it was judged against and how much is red: the JSON's share of
        // the same region (a new user's pass had needed a second request to read the colors).
        let same = callImage("/v1/image/text-contrast?textColor=white&region=100,100,200,50", jpeg, contentType: "image/jpeg")
        let share = try #require(same.json["wcag"]?["failingShare"]?.double)
        #expect(heat.headers["x-target"] == "wcag2 4.5; \(same.json["target"]?["basis"]?.string ?? "?")", "\(heat.headers)")
        #expect(heat.headers["x-failing-share"].flatMap(Double.init) == share, "\(heat.headers) \(share)")
        // And whether it passes, as the JSON says (the heat map had only the share).
        #expect(heat.headers["x-passes"] == (same.json["passes"] == .bool(true) ? "true" : "false"), "\(heat.headers)")
        // White text on the black half passes, on the white half fails, on the whole fails.
        let halves = try halfAndHalf()
        for (region, passes) in [("0,0,32,32", "true"), ("32,0,32,32", "false"), ("0,0,64,32", "false")] {
            let map = callImage("/v1/image/text-contrast?textColor=white&region=\(region)&heatmap=true", halves)
            #expect(map.headers["x-passes"] == passes, "\(region): \(map.headers)")
        }
        let preview = callImage("/v1/image/text-contrast?textColor=white&region=100,100,200,50&preview=true", jpeg, contentType: "image/jpeg")
        #expect(preview.status == 200)
        #expect(preview.headers["x-scrim"] != nil)
        #expect(preview.headers["x-passes"] == (same.json["passes"] == .bool(true) ? "true" : "false") && preview.headers["x-failing-share"].flatMap(Double.init) == share, "\(preview.headers)")
        let whole = try ImageFile.open(preview.body, format: .png, maxPixels: 1_000_000)
        #expect(whole.width == 900 && whole.height == 506)
        let gradient = callImage("/v1/image/text-contrast?textColor=white&region=100,100,200,50&preview=true&scrim=gradient", jpeg, contentType: "image/jpeg")
        #expect(gradient.status == 200)
        #expect(gradient.headers["x-scrim"]?.hasPrefix("linear-gradient(to ") == true)
    }

    /// A real photograph with a CC0 license (scikit-image's "coffee", Tests/Fixtures/images/README.md):
    /// a cup of coffee whose light and dark areas lie side by side, so neither white nor black
    /// text passes over the whole of it; each recommended scrim, the gradient and brightness() pass when
    /// measured again, and the one that helps is the opposite of the text.
    @Test func realPhotographWithBothLightAndDark() throws {
        let jpeg = Array(try Data(contentsOf: FixtureLoader.url("images/coffee-600x400.jpg")))
        for (text, scrim) in [("white", "black"), ("black", "white")] {
            let r = callImage("/v1/image/text-contrast?textColor=\(text)", jpeg, contentType: "image/jpeg")
            #expect(r.status == 200, "\(r.text)")
            let j = r.json
            #expect(j["passes"] == .bool(false), "\(text)")
            let p5 = try #require(j["wcag"]?["percentile5"]?.double)
            let median = try #require(j["wcag"]?["median"]?.double)
            #expect(p5 < 2 && median > 3.5, "\(text): \(p5) \(median)")
            #expect((j["wcag"]?["failingShare"]?.double ?? 0) > 0.3)
            let fixes = try #require(j["fixes"])
            #expect(fixes["scrim"]?["recommended"] == .string(scrim), "\(text)")
            let solid = try #require(fixes["scrim"]?[scrim]?["alpha"]?.double)
            #expect(solid > 0.3 && solid < 0.6, "\(text): \(solid)")
            for fix in [fixes["scrim"]?[scrim], fixes["scrim"]?["gradient"], fixes["brightness"]] {
                #expect(fix?["after"]?["passes"] == .bool(true), "\(text): \(r.text)")
                #expect((fix?["after"]?["wcag"]?["percentile5"]?.double ?? 0) >= 4.5)
            }
            #expect((fixes["scrim"]?["gradient"]?["alpha"]?.double ?? 0) >= solid)
        }
    }

    /// A new user's pass on the docs' own example: the gradient scrim for white text over the top
    /// band of the coffee photo was solid at the band's bottom (a hard line across the cup) and
    /// fading off the top of the image. It now starts at the image's top edge; for a box lower
    /// down, at the bottom edge, solid up to the box; the element spans the image's width. A
    /// region that already passes gets no recommended scrim (it had been "black" at alpha 0).
    @Test func gradientScrimStartsAtTheImagesNearestEdge() throws {
        let jpeg = Array(try Data(contentsOf: FixtureLoader.url("images/coffee-600x400.jpg")))
        let top = callImage("/v1/image/text-contrast?textColor=white&region=0,0,600,100&fontSize=24", jpeg, contentType: "image/jpeg")
        #expect(top.status == 200, "\(top.text)")
        let g = top.json["fixes"]?["scrim"]?["gradient"]
        #expect(g?["edge"] == .string("top"), "\(top.text)")
        #expect(g?["css"]?.string?.hasPrefix("background-image: linear-gradient(to bottom, rgb(0 0 0 / ") == true)
        #expect(g?["element"] == .object([("x", .number(0)), ("y", .number(0)), ("width", .number(600)), ("height", .number(200))]))
        #expect(g?["after"]?["passes"] == .bool(true))
        let low = callImage("/v1/image/text-contrast?textColor=white&region=150,240,300,100", jpeg, contentType: "image/jpeg")
        let l = low.json["fixes"]?["scrim"]?["gradient"]
        #expect(l?["edge"] == .string("bottom"), "\(low.text)")
        let css = try #require(l?["css"]?.string)
        #expect(css.hasPrefix("background-image: linear-gradient(to top, rgb(0 0 0 / 0.") && css.hasSuffix(") 60px, rgb(0 0 0 / 0))"), "\(low.text)")
        #expect(l?["element"] == .object([("x", .number(0)), ("y", .number(140)), ("width", .number(600)), ("height", .number(260))]))
        #expect(l?["after"]?["passes"] == .bool(true))
        let preview = callImage("/v1/image/text-contrast?textColor=white&region=150,240,300,100&preview=true&scrim=gradient", jpeg, contentType: "image/jpeg")
        #expect("background-image: " + (preview.headers["x-scrim"] ?? "") == css)
        // The element as a header too (a new user's pass: the CSS alone, over the whole image, is another scrim).
        #expect(preview.headers["x-scrim-element"] == "0,140,600,260", "\(preview.headers)")
        let solid = callImage("/v1/image/text-contrast?textColor=white&region=150,240,300,100&preview=true&scrim=black", jpeg, contentType: "image/jpeg")
        #expect(solid.status == 200 && solid.headers["x-scrim-element"] == nil)
        // White text on the black half of the half-and-half image passes: nothing to recommend.
        let passing = callImage("/v1/image/text-contrast?textColor=white&region=0,0,32,32", try halfAndHalf())
        #expect(passing.json["passes"] == .bool(true), "\(passing.text)")
        #expect(passing.json["fixes"]?["scrim"]?["recommended"] == .null && passing.json["fixes"]?["scrim"]?["gradient"] == .null)
        // Hex without '#' is read with the note /v1/contrast gives.
        let bare = callImage("/v1/image/text-contrast?textColor=FFFFFF&region=0,0,32,32", try halfAndHalf())
        #expect(bare.json["textColor"]?["notes"]?.array?.first?.string?.contains("has no '#'") == true, "\(bare.text)")
        let none = callImage("/v1/image/text-contrast?textColor=white&region=0,0,32,32&preview=true", try halfAndHalf())
        #expect(none.headers["x-scrim"] == "none (the text already passes)")
    }

    @Test(arguments: [
        ("region=1,2,3", "region"), ("region=0,0,65,10", "region"), ("region=-1,0,5,5", "region"),
        ("region=0,0,0,5", "region"), ("target=AAAA", "target"), ("target=200", "target"),
        ("textColor=notacolor", "textColor"), ("textColor=rgb(0%200%200%25%20/%200.5)", "textColor"),
        ("backdrop=nope", "backdrop"), ("heatmap=maybe", "heatmap"), ("shape=round", "shape"),
        ("fontSize=-3", "fontSize"), ("scrim=gradient", "scrim"), ("preview=true&scrim=red", "scrim"),
    ])
    func badInputNamesTheParameter(_ query: String, _ parameter: String) {
        let img = try! halfAndHalf()
        let q = query.hasPrefix("textColor") ? query : "textColor=white&" + query
        let r = callImage("/v1/image/text-contrast?" + q, img)
        #expect(r.status == 400, "\(query): \(r.text)")
        #expect(r.json["parameter"] == .string(parameter), "\(query): \(r.text)")
    }

    @Test func missingTextColorIsA400() {
        let r = callImage("/v1/image/text-contrast", try! halfAndHalf())
        #expect(r.status == 400)
        #expect(r.json["parameter"] == .string("textColor"))
    }

    /// The size an image answer reserves in the memory budget before it is built (a hostile
    /// pass: two 92 MB previews were built at once past the budget) must bound what is built:
    /// noise, the worst case for every encoder, as PNG previews and heat maps, and dimmed PNG,
    /// JPEG and WebP at quality 100, with and without alpha.
    @Test func reservedAnswerSizesBoundTheAnswers() throws {
        let server = try LiveServer()
        var state: UInt64 = 0x9E3779B97F4A7C15
        func noise(_ bands: Int, _ w: Int, _ h: Int) throws -> [UInt8] {
            let px = (0..<(w * h * bands)).map { _ -> UInt16 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt16(state >> 56)
            }
            return try ImageEncoder.encode(pixels: px, width: w, height: h, bands: bands, format: .png)
        }
        // The bound `ImageEndpoint.largestEncodedBytes` gives: raw rows and a quarter, 64 KiB.
        func bound(_ w: Int, _ h: Int, _ bytesPerPixel: Int) -> Int { (w * bytesPerPixel + 1) * h * 5 / 4 + 65_536 }
        let (w, h) = (301, 203)
        for bands in [3, 4] {
            let image = try noise(bands, w, h)
            for target in ["/v1/image/text-contrast?textColor=white&preview=true", "/v1/image/text-contrast?textColor=white&heatmap=true",
                           "/v1/image/dim?amount=0.8&format=png", "/v1/image/dim?amount=0.8&format=jpeg&quality=100",
                           "/v1/image/dim?amount=0.8&format=webp&quality=100"] {
                let r = try server.post(target, image)
                #expect(r.status == 200, "\(target): \(r.text.prefix(200))")
                let perPixel = target.hasPrefix("/v1/image/dim") && bands == 4 ? 4 : 3
                // Without the 64 KiB of headers the answers still fit the raw rows and a quarter.
                #expect(r.body.count <= bound(w, h, perPixel) - 65_536, "\(target), \(bands) bands: \(r.body.count) bytes")
            }
        }
    }
}
