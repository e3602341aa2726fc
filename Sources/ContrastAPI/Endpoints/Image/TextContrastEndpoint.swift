import ColorScience
import HTTPServer
import ImageProcessing
import JSONValue

/// `POST /v1/image/text-contrast`: one text color over a region of an image.
///
/// The body is the image, taken as `/v1/image/analyze` takes it (same limits and checks; ICC to
/// sRGB; EXIF orientation applied, so `region` is in displayed pixels). Query parameters:
///
/// | parameter | meaning |
/// |---|---|
/// | `textColor` | required: any CSS color (opaque) or Apple system color name (resolved in the context below) |
/// | `appearance`, `level`, `contrast`, `generation` | the Apple context for system color names (`textColor`, `backdrop`, `overlay`), as in `/v1/contrast` (default light, base, standard, newest); echoed as `appleContext` when given or used |
/// | `region` | `x,y,width,height` in pixels of the displayed image (default: the whole image); 400 when not inside it |
/// | `fontSize`, `fontSizeUnit`, `fontWeight` | the text size, as `/v1/contrast` takes it: decides what `AA`/`AAA` require |
/// | `target` | `AA` (default), `AAA`, the other names of `/v1/suggest`, a WCAG ratio `4.5:1` (`1...21`), or a number: an APCA \|Lc\| `15...108` |
/// | `backdrop` | opaque color behind translucent pixels (default white) |
/// | `overlay` | a color layer the design already draws over the whole image (`rgb(0 0 0 / 0.4)`, Tailwind's `bg-black/40`), composited source-over before anything is measured; the fixes add to it |
/// | `heatmap` | `true`: answer a PNG of the region, green where the text meets the target, red where not |
/// | `preview` | `true`: answer the whole image as PNG with the recommended scrim over the region |
///
/// Answer (JSON): `image`, `region`, `textColor`, `backdrop`, `target`, `passes` (the 5th
/// percentile meets the target), `wcag` and `apca` (`minimum`, `percentile5`, `median`,
/// `maximum`, `failingShare`, `percentile5Pixel`), `worstArea` (the 16×16 block with the lowest
/// mean, in image coordinates), `fixes` (`scrim.black`, `scrim.white`, `scrim.recommended`,
/// `brightness`, `textColor`: each with `after`, the distribution measured again) and `notes`.
extension ImageEndpoint {
    static let textContrastPath = "/v1/image/text-contrast"
    /// The Apple context in which system color names (`textColor`, `backdrop`, `overlay`) resolve, as in
    /// `/v1/contrast` (default light, base, standard, newest generation).
    static let appleContextFields: Set<String> = ["appearance", "level", "contrast", "generation"]
    static let textContrastFields: Set<String> = Set(["textColor", "region", "fontSize", "fontSizeUnit", "fontWeight",
                                                      "target", "backdrop", "overlay", "heatmap", "preview", "scrim"]).union(appleContextFields)

    /// `POST /v1/image/text-contrast` as a router handler (JSON, or PNG for `heatmap`/`preview`).
    var textContrastHandler: HTTPHandler {
        let endpoint = self
        return { request in
            do throws(Problem) {
                return try endpoint.textContrast(request)
            } catch {
                return error.response
            }
        }
    }

    struct Region { var x, y, width, height: Int }

    /// `x,y,width,height`, inside `w × h`.
    static func region(_ f: Fields, width w: Int, height h: Int) throws(Problem) -> Region {
        guard let s = try f.string("region") else { return Region(x: 0, y: 0, width: w, height: h) }
        let path = f.field("region")
        let parts = s.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.filter { $0 != " " }) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let rw = parts[2], let rh = parts[3] else {
            throw Problem.invalidField(path, "\(path.display) must be four integers x,y,width,height in pixels, such as \"0,0,200,80\"; got \(ClientText.quoted(s))")
        }
        guard x >= 0, y >= 0, rw > 0, rh > 0 else {
            throw Problem.invalidField(path, "\(path.display) needs x and y ≥ 0 and a width and height ≥ 1; got \(ClientText.quoted(s))")
        }
        guard x.addingReportingOverflow(rw).partialValue <= w, x <= w - rw, y <= h - rh else {
            throw Problem.invalidField(path, "\(path.display) \(x),\(y),\(rw),\(rh) is not inside the image, which is displayed \(w) × \(h) pixels (after its EXIF orientation)")
        }
        return Region(x: x, y: y, width: rw, height: rh)
    }

    /// `target`: a number is an APCA |Lc| `15...108`; `4.5:1` a WCAG ratio `1...21`; names as
    /// `/v1/suggest` reads them, sized by the text. A number below 15 is refused: it is no APCA
    /// level (Lc 15 is APCA's lowest, for non-text), and `target=4.5` had silently meant Lc 4.5,
    /// passing a 1.51:1 photo (new-user pass), where `/v1/pick` reads 4.5 as a ratio.
    static func textTarget(_ f: Fields, text: TextSpec?) throws(Problem) -> ContrastTarget {
        let path = f.field("target")
        guard let v = f.value("target") else {
            return try TargetInput.parse(.string("AA"), at: path, fromQuery: true, text: text, textPath: f.field("fontSize"))
        }
        if let r = try TargetInput.ratioText(v, at: path) {
            return .ratio(r, basis: "WCAG 2 contrast ratio of at least \(Fields.format(r)):1")
        }
        if case .string(let s) = v, let n = Fields.decimal(s) {
            guard n.isFinite, (0...108).contains(n) else {
                throw Problem.invalidField(path, "\(path.display) as a number is an APCA |Lc| and must be between 15 and 108, got \(Fields.format(n)); for a WCAG level give AA or AAA")
            }
            guard n >= 15 else {
                // Suggest the ratio form only where it is a ratio this route takes (hostile pass:
                // target=-0 was told to write 0:1, which is then refused).
                let ratio = n >= 1 ? "for a WCAG ratio write \(Fields.format(n)):1, or " : "for a WCAG level "
                throw Problem.invalidField(path, "\(path.display) as a number is an APCA |Lc|, and Lc \(Fields.format(n)) is below APCA's lowest level (Lc 15, non-text): \(ratio)give AA, AAA, AA-large or non-text")
            }
            return .apcaLc(n)
        }
        do throws(Problem) {
            return try TargetInput.parse(v, at: path, fromQuery: true, text: text, textPath: f.field("fontSize"))
        } catch {
            // The names are listed; this route also reads a ratio and an Lc (hostile pass: `abc:1`).
            var problem = error
            if problem.status == 400 {
                // One sentence: the names' message ends without a stop (a hostile pass read
                // "…got 'inf' Or a WCAG ratio…").
                if problem.detail.hasSuffix(".") { problem.detail.removeLast() }
                problem.detail += "; or a WCAG ratio such as 4.5:1, or an APCA |Lc| from 15 to 108 such as 60"
            }
            throw problem
        }
    }

    func textContrast(_ request: HTTPRequest) throws(Problem) -> HTTPResponse {
        let f = try Fields.query(request)
        try f.rejectUnknown(Self.textContrastFields)
        let appleContext = try f.appleContext()
        let contextGiven = Self.appleContextFields.contains { f.has($0) }
        let (text, backdropColor, overlayColor) = try AppleRequestScope.run(appleContext) { () throws(Problem) in
            (try f.color("textColor", required: true)!, try f.color("backdrop"), try f.color("overlay"))  // `required` throws when it is missing
        }
        guard text.display.alpha >= 1 else {
            throw Problem.invalidField(f.field("textColor"), "\(f.field("textColor").display) must be opaque: give the color the text shows as")
        }
        if let b = backdropColor, b.display.alpha < 1 {
            throw Problem.invalidField(f.field("backdrop"), "\(f.field("backdrop").display) must be opaque: it is what shows through translucent pixels")
        }
        let backdrop = backdropColor?.display.srgb ?? SIMD3(1, 1, 1)
        let spec = try TextSpec.from(f, unitWhereItMatters: true)
        let target = try Self.textTarget(f, text: spec)
        let heatmap = try f.bool("heatmap") ?? false
        let preview = try f.bool("preview") ?? false
        if heatmap && preview {
            throw Problem.contradictory(f.field("preview"), f.field("heatmap"), "\(f.field("heatmap").display) and \(f.field("preview").display) each answer one PNG; ask for one of them")
        }
        let previewScrim = try f.choice("scrim", PreviewScrim.self)
        if previewScrim != nil && !preview {
            throw Problem.invalidField(f.field("scrim"), "\(f.field("scrim").display) chooses the scrim drawn by preview=true; the JSON answer lists every scrim")
        }
        let file = try openImage(request)
        let r = try Self.region(f, width: file.displayWidth, height: file.displayHeight)
        // A PNG answer's size, known from the header, is reserved in the server's memory budget
        // before any decoding (a hostile pass: four clients that never read held two 92 MB
        // previews of a noise JPEG at once, budget 64 MB; with two workers, 275 MB).
        if heatmap || preview {
            let (w, h) = heatmap ? (r.width, r.height) : (file.displayWidth, file.displayHeight)
            if let refused = Self.reserve(Self.largestEncodedBytes(width: w, height: h, bytesPerPixel: 3), for: request,
                                          what: heatmap ? "heat map of the \(w)×\(h) region" : "preview of the \(w)×\(h) image") {
                return refused
            }
        }
        var whole = try Self.run { () throws(ImageError) in try file.orientedSRGB(over: backdrop) }
        // The design's own layer over the image (a new user's pass: a photo card with
        // `bg-black/40` under `text-white` could not be checked as built), drawn as a scrim is,
        // source-over on the 8-bit gamma-encoded pixels; everything after sees the card as shown.
        if let overlay = overlayColor?.display, overlay.alpha > 0 {
            whole = TextContrast.applyScrim(.overlay(color: overlay.srgb, alpha: overlay.alpha), to: whole,
                                            x: 0, y: 0, width: whole.width, height: whole.height)
        }
        let regionImage = r.width == whole.width && r.height == whole.height ? whole
            : whole.cropped(x: r.x, y: r.y, width: r.width, height: r.height)
        let textRGB = text.display.srgb
        var tables = TextContrast.Tables(text: textRGB, target: target)
        // A request the server has answered 503 (deadline) stops its fix searches.
        if let ticket = request.workTicket { tables.isCancelled = { ticket.isAbandoned } }
        // A PNG says what it was judged against in its headers, and how much fails, so that the
        // red needs no second request to be read (a new user's pass).
        let basis = String(String.UnicodeScalarView(target.basis.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }))
        let targetHeader = ("X-Target", "\(target.metric.rawValue) \(ContrastTarget.format(target.minimum)); \(basis)")
        /// A share `0...1` as the JSON's `failingShare` writes it (`shareRounded`).
        func share(_ v: Double) -> String { Fields.format(Self.shareRounded(v)) }
        if heatmap {
            var failing = 0
            let map = TextContrast.heatMap(regionImage, tables: tables, failing: &failing)
            try request.stopIfAbandoned()
            let png = try Self.run { () throws(ImageError) in try map.png() }
            var response = Self.png(png, name: "heatmap.png")
            let total = regionImage.width * regionImage.height
            // Whether the text passes, as the JSON's `passes` and the preview's header say it
            // (the heat map had only the failing share, which a reader had to weigh against 5%).
            response.headers += [targetHeader, ("X-Passes", TextContrast.passes(failing: failing, of: total) ? "true" : "false"),
                                 ("X-Failing-Share", share(Double(failing) / Double(Swift.max(1, total))))]
            return response
        }
        // The distribution and the fixes, two whole-region passes at a time. None is recommended
        // where the text already passes (a new user's pass: "black" at alpha 0); the gradient is
        // in the recommended scrim's color, from the image's edge nearest the region.
        let edges = ScrimEdge.nearest(x: r.x, y: r.y, width: r.width, height: r.height, imageWidth: whole.width, imageHeight: whole.height)
        let analysis = TextContrast.analyze(regionImage, tables: tables, text: textRGB, edges: edges, allFixes: !preview)
        let (before, black, white, recommended, gradient) = (analysis.before, analysis.black, analysis.white, analysis.recommended, analysis.gradient)
        let image = (width: whole.width, height: whole.height)
        if preview {
            let chosen: TextContrastFix?
            let drawn = previewScrim ?? .recommended
            switch drawn {
            case .recommended: chosen = recommended?.fix
            case .black: chosen = black
            case .white: chosen = white
            case .gradient: chosen = gradient
            }
            // The PNG is the costliest part (a 36 MP image): not made for a request already answered.
            try request.stopIfAbandoned()
            var out = whole
            if let fix = chosen {
                out = TextContrast.applyScrim(fix.adjustment, to: whole, x: r.x, y: r.y, width: r.width, height: r.height)
            }
            let png = try Self.run { () throws(ImageError) in try out.png() }
            var response = Self.png(png, name: "preview.png")
            let metric = target.metric == .wcag2 ? before.wcag : before.apca
            response.headers += [targetHeader, ("X-Passes", before.passes ? "true" : "false")]
            if let failing = metric.failingShare { response.headers.append(("X-Failing-Share", share(failing))) }
            let none = before.passes && drawn != .black && drawn != .white ? "none (the text already passes)" : "none (no such scrim passes)"
            response.headers.append(("X-Scrim", chosen.map { Self.scrimCSS($0.adjustment, region: r, image: image) } ?? none))
            // A drawn scrim that turns the text's polarity says so, as the JSON's does (a hostile
            // pass: the preview drew black 0.89 under gray text on a light image, where the JSON
            // recommends none and says why).
            if let fix = chosen, fix.reversesPolarity(textLuminance: WCAG.relativeLuminance(textRGB), before: before) {
                response.headers.append(("X-Scrim-Reverses-Polarity", "true"))
            }
            // A gradient scrim's element, as the JSON's `element` gives it: the CSS alone, stretched
            // over the whole image, is another scrim (a new user's pass).
            if let fix = chosen, case .gradientOverlay(_, _, let edge) = fix.adjustment {
                let e = edge.element(x: r.x, y: r.y, width: r.width, height: r.height, imageWidth: image.width, imageHeight: image.height)
                response.headers.append(("X-Scrim-Element", "\(e.x),\(e.y),\(e.width),\(e.height)"))
            }
            return response
        }
        let (brightness, newText) = (analysis.brightness, analysis.textColor)

        var out = JSONObject()
        out.append("image", Self.describe(file))
        out.append("region", .object([("x", .number(Double(r.x))), ("y", .number(Double(r.y))),
                                      ("width", .number(Double(r.width))), ("height", .number(Double(r.height))),
                                      ("wholeImage", .bool(r.x == 0 && r.y == 0 && r.width == whole.width && r.height == whole.height)), ("pixels", .number(Double(before.pixelCount)))]))
        // How the color was read (hex without '#', as /v1/contrast says it: a new user's pass).
        var textJSON: [(String, JSON)] = [("input", .string(text.input)), ("hex", .string(ColorJSON.hex(textRGB)))]
        if !text.notes.isEmpty { textJSON.append(("notes", .array(text.notes.map { .string($0) }))) }
        out.append("textColor", .object(textJSON))
        out.append("backdrop", .object([("hex", .string(ColorJSON.hex(backdrop))), ("source", .string(backdropColor == nil ? "default" : "backdrop"))]))
        if let overlayColor {
            out.append("overlay", .object([("input", .string(overlayColor.input)), ("hex", .string(ColorJSON.hex(overlayColor.display.srgb))),
                                           ("alpha", .number(overlayColor.display.alpha))]))
        }
        if contextGiven || text.systemColor != nil || backdropColor?.systemColor != nil || overlayColor?.systemColor != nil {
            out.append("appleContext", AppleJSON.context(appleContext))
        }
        out.append("target", TargetInput.json(target))
        out.append("statistic", "percentile5: at least 5% of the region's pixels have this contrast or less; a single darkest or lightest pixel (noise, JPEG ringing, anti-aliased edges) does not decide")
        out.append("passes", .bool(before.passes))
        out.append("wcag", Self.metricJSON(before.wcag))
        out.append("apca", Self.metricJSON(before.apca))
        let w = before.worstBlock
        out.append("worstArea", .object([("x", .number(Double(r.x + w.x))), ("y", .number(Double(r.y + w.y))),
                                         ("width", .number(Double(w.width))), ("height", .number(Double(w.height))),
                                         ("metric", .string(target.metric.rawValue)),
                                         ("mean", .number(Self.worstMean(w.mean, target.metric == .apca ? before.apca : before.wcag)))]))
        var fixes = JSONObject()
        // Each fix says when it turns the text's polarity (a new user's pass: a black scrim at
        // 0.75 recommended for slate text on a white label, which it turns dark). As on
        // gradients: no scrim is recommended when every passing one turns it and the text
        // color passes keeping it.
        let polarity = (textLuminance: WCAG.relativeLuminance(textRGB), before: before)
        func reverses(_ f: TextContrastFix) -> Bool { f.reversesPolarity(textLuminance: polarity.textLuminance, before: before) }
        var scrimNote: String?
        var (recommendedName, gradientFix) = (recommended.map(\.name), gradient)
        if let r = recommended, reverses(r.fix), let t = newText, t.after.passes, !reverses(t) {
            (recommendedName, gradientFix) = (nil, nil)
            scrimNote = "every scrim that passes turns the text's polarity (reversesPolarity), and textColor passes keeping it: no scrim is recommended"
        }
        var scrim = JSONObject()
        scrim.append("black", black.map { Self.fixJSON($0, polarity: polarity) } ?? .null)
        scrim.append("white", white.map { Self.fixJSON($0, polarity: polarity) } ?? .null)
        scrim.append("recommended", recommendedName.map { .string($0) } ?? .null)
        scrim.append("gradient", gradientFix.map { Self.fixJSON($0, region: r, image: image, polarity: polarity) } ?? .null)
        if let scrimNote { scrim.append("note", .string(scrimNote)) }
        fixes.append("scrim", .object(scrim))
        fixes.append("brightness", brightness.map { Self.fixJSON($0, polarity: polarity) } ?? .null)
        if before.passes {
            fixes.append("textColor", .object([("hex", .string(ColorJSON.hex(textRGB))), ("unchanged", true)]))
        } else {
            fixes.append("textColor", newText.map { Self.fixJSON($0, polarity: polarity) } ?? .null)
        }
        out.append("fixes", .object(fixes))
        out.append(APCAJSON.versionMember.0, APCAJSON.versionMember.1)
        var notes: [JSON] = []
        switch file.colorHandling {
        case .assumedSRGB:
            if file.invalidProfileIgnored {
                notes.append("the embedded ICC profile is not valid and was ignored, as browsers ignore it: the pixels were taken as sRGB")
            }
        case .profileKept(let d), .convertedToSRGB(let d):
            notes.append(.string("measured after converting \(ImageEndpoint.profileSource(file, d)) to sRGB; colors outside sRGB were clipped"))
        }
        if file.hasAlpha {
            // Said of the alpha channel, not of the pixels: an RGBA file may be fully opaque.
            notes.append(.string("the image has an alpha channel: any translucent pixels were composited over the backdrop \(ColorJSON.hex(backdrop)) before measuring"))
        }
        if file.pageCount > 1 {
            notes.append(.string("the file has \(file.pageCount) frames; only the first was read"))
        }
        if file.orientation != 1 { notes.append(.string("EXIF orientation \(file.orientation) applied: region is in displayed pixels")) }
        if let overlayColor {
            notes.append(.string("measured with the overlay \(ColorJSON.hex(overlayColor.display.srgb)) at alpha \(Fields.format(Self.round4(overlayColor.display.alpha))) (\(ClientText.quoted(overlayColor.input))) drawn over the whole image, as the design shows it; a scrim in the fixes goes on top of it, and brightness() is measured on the image and the overlay together (a filter on an element that holds both)"))
        }
        // A pass that a patch the size of a glyph fails: the 5th percentile excuses up to 5% of
        // the region, noise or a real patch alike (an accessibility auditor's pass: a 31 × 31 px
        // white square under white text passed with "nothing to apply").
        let judged = target.metric == .apca ? before.apca : before.wcag
        if before.passes, let required = judged.minimumRequired, w.mean < required {
            let mean = Self.worstMean(w.mean, judged)
            let shown = target.metric == .apca ? "Lc \(Fields.format(mean))" : "\(Fields.format(mean)):1"
            notes.append(.string("passes on the 5th percentile, but its worst \(w.width) × \(w.height) px area (worstArea, at \(r.x + w.x), \(r.y + w.y)) averages \(shown), below the target: text set over it there can be illegible; keep the text off it, or apply a fix, which is then judged on the region as a whole"))
        }
        // brightness() on an image with alpha darkens what shows through it only when the filter
        // is on an element that draws the backdrop too (an accessibility auditor's pass: on the
        // <img> alone, over a white page, the answer's factor left 70% of the pixels failing).
        if file.hasAlpha, brightness != nil {
            notes.append(.string("the brightness fix was measured on the image flattened over the backdrop \(ColorJSON.hex(backdrop)): put the filter on an element that paints that backdrop too (or flatten the image), not on an <img> whose transparent pixels show the page behind it"))
        }
        out.append("notes", .array(notes))
        return HTTPResponse(status: 200, contentType: "application/json", body: JSON.object(out).serialized())
    }

    /// An upper bound of the bytes an 8-bit image of `width`×`height` encodes to: the raw rows
    /// (`bytesPerPixel` a pixel and a PNG filter byte a row), a quarter more (deflate's stored
    /// blocks add 5 bytes in 64 KiB; a JPEG or lossy WebP of noise at quality 100 stays below
    /// the raw size and a quarter), and 64 KiB for headers and metadata (ICC, EXIF).
    static func largestEncodedBytes(width: Int, height: Int, bytesPerPixel: Int) -> Int {
        let raw = (width * bytesPerPixel + 1) * height
        return raw + raw / 4 + 65_536
    }

    /// Reserves `bytes` of the server's memory budget for an image answer before it is built
    /// (`WorkTicket.reserve`), or the 503 `server-busy` to answer instead when other answers
    /// hold it (a hostile pass: four clients that never read held two 92 MB previews at once,
    /// budget 64 MB). Nil when reserved, or when the request is not on the heavy-work pool.
    static func reserve(_ bytes: Int, for request: HTTPRequest, what: String) -> HTTPResponse? {
        guard let ticket = request.workTicket, !ticket.reserve(bytes) else { return nil }
        return Problem.renderer.response(HTTPProblem(
            status: 503, kind: "server-busy", title: "Service Unavailable",
            detail: "The \(what) may take up to \(bytes) bytes, and answers waiting to be sent already hold the server's memory budget; retry shortly.",
            headers: [("Retry-After", "1")], rejection: .memoryBudgetExceeded))
    }

    static func png(_ bytes: [UInt8], name: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "no-store"),
                                            ("Content-Disposition", "inline; filename=\"\(name)\"")], body: bytes)
    }

    static func round4(_ v: Double) -> Double { (v * 10000).rounded() / 10000 }

    /// A share `0...1` of pixels to 4 decimals, but never 0 when a pixel fails nor 1 when one
    /// passes (a new user's pass: one failing pixel in 24,000, red in the heat map, was
    /// `failingShare` 0 and "0.0% of the pixels fail" on the page).
    static func shareRounded(_ v: Double) -> Double {
        let r = round4(v)
        return v > 0 && r == 0 ? 0.0001 : v < 1 && r == 1 ? 0.9999 : r
    }

    /// `v` rounded to 4 decimals, but never up onto `required` from below (4.49999993 is
    /// 4.4999, not 4.5, as ratioText floors): the number shown stays on its verdict's side.
    static func shown(_ v: Double, required: Double?) -> Double {
        let r = round4(v)
        if let required, v < required, r >= required { return (v * 10000).rounded(.down) / 10000 }
        return r
    }

    /// The worst block's mean as shown: block means are summed from the distribution's bins
    /// (within a bin's width of the exact values), so it is held inside the region's exact
    /// minimum and maximum and never rounded up onto the target (a new user's pass, stop 38: a
    /// uniform #458301 under black text, 4.4999 everywhere, showed a mean of 4.5001).
    static func worstMean(_ mean: Double, _ m: TextContrastDistribution.Metric) -> Double {
        shown(Swift.min(Swift.max(mean, m.minimum), m.maximum), required: m.minimumRequired)
    }

    static func metricJSON(_ m: TextContrastDistribution.Metric) -> JSON {
        func shown(_ v: Double) -> Double { Self.shown(v, required: m.minimumRequired) }
        return .object([
            ("minimum", .number(shown(m.minimum))),
            ("percentile5", .number(shown(m.percentile5))),
            ("median", .number(shown(m.median))),
            ("maximum", .number(shown(m.maximum))),
            ("failingShare", m.failingShare.map { .number(shareRounded($0)) } ?? .null),
            ("percentile5Pixel", .string(ColorJSON.hex(m.percentile5Pixel))),
        ])
    }

    /// What `preview=true` draws: `scrim=recommended` (default), `black`, `white` or `gradient`.
    enum PreviewScrim: String, CaseIterable {
        case recommended, black, white, gradient
    }

    /// A scrim's CSS; a gradient's for its element (`ScrimEdge.element`) over `region` of `image`:
    /// solid over the element's first `solid` px, when the region does not touch the image's edge.
    static func scrimCSS(_ a: PixelAdjustment, region: Region? = nil, image: (width: Int, height: Int)? = nil) -> String {
        switch a {
        case .overlay(let c, let alpha):
            let v = c.x >= 0.5 ? "255 255 255" : "0 0 0"
            return "linear-gradient(rgb(\(v) / \(Fields.format(alpha))), rgb(\(v) / \(Fields.format(alpha))))"
        case .gradientOverlay(let c, let alpha, let edge):
            let v = c.x >= 0.5 ? "255 255 255" : "0 0 0"
            let solid = region.flatMap { r in
                image.map { edge.element(x: r.x, y: r.y, width: r.width, height: r.height, imageWidth: $0.width, imageHeight: $0.height).solid }
            } ?? 0
            if solid > 0 {
                return "linear-gradient(\(edge.cssDirection), rgb(\(v) / \(Fields.format(alpha))) \(solid)px, rgb(\(v) / 0))"
            }
            return "linear-gradient(\(edge.cssDirection), rgb(\(v) / \(Fields.format(alpha))), rgb(\(v) / 0))"
        case .brightness(let f): return "brightness(\(Fields.format(f)))"
        case .none: return "none"
        }
    }

    /// A fix as JSON; `region` of `image` places a gradient scrim's element (`ScrimEdge.element`:
    /// from the image's edge through the region and as far again beyond it, in image pixels; it
    /// may reach outside the image, which clips it).
    /// `polarity`: the text's relative luminance and the region's distribution before the fix;
    /// a fix after which the text lies on the other side of the median pixel turns the design's
    /// polarity and says so (`reversesPolarity`, `note`), as the gradient route does.
    static func fixJSON(_ fix: TextContrastFix, region: Region? = nil, image: (width: Int, height: Int)? = nil,
                        polarity: (textLuminance: Double, before: TextContrastDistribution)? = nil) -> JSON {
        var o = JSONObject()
        switch fix.adjustment {
        case .gradientOverlay(let c, let alpha, let edge):
            o.append("color", .string(ColorJSON.hex(c)))
            o.append("alpha", .number(alpha))
            o.append("edge", .string(edge.rawValue))
            o.append("alphaAtFarEdge", .number(round4(alpha / 2)))
            o.append("css", .string("background-image: \(scrimCSS(fix.adjustment, region: region, image: image))"))
            if let r = region, let image {
                let e = edge.element(x: r.x, y: r.y, width: r.width, height: r.height, imageWidth: image.width, imageHeight: image.height)
                o.append("element", .object([("x", .number(Double(e.x))), ("y", .number(Double(e.y))),
                                             ("width", .number(Double(e.width))), ("height", .number(Double(e.height)))]))
            }
        case .overlay(let c, let alpha):
            o.append("color", .string(ColorJSON.hex(c)))
            o.append("alpha", .number(alpha))
            o.append("css", .string("background-image: \(scrimCSS(fix.adjustment))"))
        case .brightness(let f):
            o.append("factor", .number(f))
            o.append("css", .string("filter: brightness(\(Fields.format(f)))"))
            // A factor far from 1 changes the whole photo (a new user's pass: brightness(2.67) on
            // the coffee photo, offered without a word).
            if f > 2 {
                o.append("note", .string("a strong brightening: the whole image is \(Fields.format(f)) times as light, its highlights clip to white; a scrim, or another text color, changes less of it"))
            } else if f < 0.5 {
                o.append("note", .string("a strong darkening: the whole image keeps \(Int((f * 100).rounded()))% of its light; a scrim under the text, or another text color, changes less of it"))
            }
        case .none:
            if let t = fix.textColor {
                o.append("hex", .string(ColorJSON.hex(t)))
                o.append("css", .string("color: \(ColorJSON.hex(t))"))
            }
        }
        // White text "fixed" by #2a2a2a on a photo, with no word (a new user's pass, stop 39);
        // said relative to the image, which can be light under white text (stop 49's pass:
        // "light text on a dark image" about a light sky).
        if let p = polarity, fix.reversesPolarity(textLuminance: p.textLuminance, before: p.before) {
            let lighter = p.textLuminance > p.before.medianLuminance
            o.append("reversesPolarity", true)
            let note: String
            if fix.textColor != nil {
                note = lighter
                    ? "the text is lighter than the median pixel under it and this color is darker: the text turns from lighter than the image to darker than it (its polarity reverses)"
                    : "the text is darker than the median pixel under it and this color is lighter: the text turns from darker than the image to lighter than it (its polarity reverses)"
            } else {
                note = lighter
                    ? "the text is lighter than the median pixel under it, and after this fix darker: the text turns from lighter than the image to darker than it (its polarity reverses)"
                    : "the text is darker than the median pixel under it, and after this fix lighter: the text turns from darker than the image to lighter than it (its polarity reverses)"
            }
            // The brightness fix may carry a note of its own already.
            if case .string(let earlier)? = o["note"] { o.set("note", .string(earlier + "; " + note)) } else { o.append("note", .string(note)) }
        }
        let a = fix.after
        o.append("after", .object([
            ("passes", .bool(a.passes)),
            ("wcag", .object([("minimum", .number(round4(a.wcag.minimum))), ("percentile5", .number(round4(a.wcag.percentile5))),
                              ("median", .number(round4(a.wcag.median))), ("failingShare", a.wcag.failingShare.map { .number(shareRounded($0)) } ?? .null)])),
            ("apca", .object([("minimum", .number(round4(a.apca.minimum))), ("percentile5", .number(round4(a.apca.percentile5))),
                              ("median", .number(round4(a.apca.median))), ("failingShare", a.apca.failingShare.map { .number(shareRounded($0)) } ?? .null)])),
        ]))
        return .object(o)
    }
}
