import HTTPServer
import JSONValue

/// The HTTP API: routes every endpoint, turns thrown `Problem`s into problem details, and serves
/// `Public/` for everything else. Testable as `HTTPRequest -> HTTPResponse` without sockets.
public struct ContrastService: Sendable {
    /// Service version reported by `/healthz`.
    public static let version = "0.1.0"

    /// Routes whose work can take long (image decoding, palettes, matrices, audits,
    /// simulations): the server runs them on its bounded heavy-work pool, with a deadline, so
    /// `/healthz` and small requests are never behind them (``ServerConfiguration/heavyPaths``).
    public static let heavyPaths: Set<String> = [
        ImageEndpoint.analyzePath, ImageEndpoint.dimPath, ImageEndpoint.textContrastPath, "/v1/contrast/matrix", ContrastBatchEndpoint.path, "/v1/palette/dark",
        "/v1/palette/export", "/v1/simulate", "/v1/audit", "/v1/table-stripes", TokensAuditEndpoint.path,
    ]

    public let configuration: ServiceConfiguration
    public let router: Router
    /// Request counts and durations served at `/metrics`.
    let metrics: Metrics
    /// The bearer tokens (``BearerAuthentication`` and the server's early answer).
    let auth: BearerAuth
    /// Request ids, CORS, bearer tokens, security headers, caching: the steps of
    /// ``ServiceMiddleware`` every answer goes through (the server adds metrics and the access log).
    let steps: [any HTTPMiddleware]
    /// `steps` as a chain, for answering in-process.
    let chain: MiddlewareChain

    /// What the bundled resources fail to give, one sentence each naming the routes that will
    /// answer 500 (empty when the resource bundle is installed): the server logs them at start,
    /// so a binary copied without `ContrastService_ContrastAPI.resources` says so at once.
    /// Only the bundle directory's presence is checked (`AppleData.bundleProblem()`): loading
    /// the data at start left the heap so that every plain `POST /v1/contrast` cost 20–80
    /// instructions more.
    public static func missingResources() -> [String] {
        guard let reason = AppleData.bundleProblem() else { return [] }
        // A file of the bundle missing, empty or damaged: that file is the news, whichever it is
        // (a hostile pass: a cut problem_types.json was announced as "the Apple reference data
        // cannot be loaded").
        if !AppleData.bundleIsAbsent {
            return ["the resource bundle cannot be used: \(reason); the server does not start"]
        }
        return ["the Apple reference data cannot be loaded (\(reason)): Apple system colors, audits, materials, text styles and dark palettes would answer 500, so the server does not start",
                "the OpenAPI document cannot be loaded (\(reason)): /openapi.json would answer 500; install ContrastService_ContrastAPI.resources beside the binary"]
    }

    /// What the bundled resources hold that the service cannot use, one sentence each naming the
    /// file (empty when every one loads): Apple's colors and the HIG supplement decoded, the
    /// OpenAPI document parsed, the problem types read. `contrast-server --check-resources` runs
    /// this in a child process at start, so that a file that is whole JSON with the wrong
    /// content (`{}`) stops the server (an operator's pass: it started, passed `/healthz` and
    /// answered 500 on every Apple route) while the server's own heap stays as it was (loading
    /// the data in the server had cost every plain `POST /v1/contrast` 20–80 instructions).
    public static func resourceContentProblems() -> [String] {
        if let reason = AppleData.bundleProblem() { return [reason] }
        var problems: [String] = []
        do { _ = try AppleData.load() } catch {
            problems.append("the Apple reference data (apple_system_colors.json, apple_hig_supplement.json) cannot be used: \(error.reason); Apple system colors, audits, materials, text styles and dark palettes would answer 500")
        }
        if case .failure(let problem) = OpenAPI.load() {
            problems.append("openapi.json cannot be used: \(problem.detail); /openapi.json would answer 500")
        }
        if ProblemTypes.load()?.isEmpty != false {
            problems.append("problem_types.json holds no problem types (a list of {kinds, status, when}); /problems/ would answer 404")
        }
        return problems
    }

    /// Builds the routes from `configuration` (public directory, limits).
    public init(configuration: ServiceConfiguration) {
        self.configuration = configuration
        let metrics = Metrics(tls: !configuration.tlsCertificateFile.isEmpty)
        var r = Router()
        r.problems = Problem.renderer
        let json = ContrastService.json
        let health = JSON.object([("status", "ok"), ("version", .string(ContrastService.version))]).serialized()
        r.add("GET", "/healthz") { _ in  // a constant: serialized once
            HTTPResponse(status: 200, contentType: "application/json", body: health)
        }
        r.add("GET", "/metrics") { _ in metrics.response() }
        r.add("GET", "/openapi.json") { _ in OpenAPI.response() }
        r.add("GET", "/v1/contrast", ContrastService.jsonBytes(ContrastEndpoint.handle))
        r.add("POST", "/v1/contrast", ContrastService.jsonBytes(ContrastEndpoint.handle))
        r.add("POST", "/v1/pick", ContrastService.jsonBytes(PickEndpoint.handle))
        r.add("GET", "/v1/system-colors", json(SystemColorsEndpoint.handle))
        r.add("POST", "/v1/audit", json(AuditEndpoint.handle))
        r.add("GET", "/v1/labels", json(LabelsEndpoint.handle))
        r.add("GET", "/v1/materials", json(MaterialsEndpoint.handle))
        r.add("GET", "/v1/text-styles", json(TextStylesEndpoint.handle))
        r.add("POST", "/v1/table-stripes", json(TableStripesEndpoint.handle))
        r.add("GET", "/api/webaim", json(WebAIMEndpoint.handle))
        r.add("GET", "/v1/convert", json(ConvertEndpoint.handle))
        r.add("POST", "/v1/convert", json(ConvertEndpoint.handle))
        r.add("GET", "/v1/difference", json(DifferenceEndpoint.handle))
        r.add("POST", "/v1/difference", json(DifferenceEndpoint.handle))
        r.add("GET", "/v1/apca/font", json(APCAEndpoint.handle))
        let matrix = MatrixEndpoint(maxPaletteSize: configuration.maxPaletteSize)
        r.add("POST", "/v1/contrast/matrix", { request in CSSRequestScope.run(request) { matrix.handle(request) } })
        r.add("POST", ContrastBatchEndpoint.path, ContrastService.jsonBytes(ContrastBatchEndpoint.handle))
        let simulate = SimulateEndpoint(maxPaletteSize: configuration.maxPaletteSize)
        r.add("POST", "/v1/simulate", json(simulate.handle))
        let images = ImageEndpoint(configuration: configuration)
        r.add("POST", ImageEndpoint.analyzePath, json(images.analyze))
        r.add("POST", ImageEndpoint.dimPath, images.dimHandler)
        r.add("POST", ImageEndpoint.textContrastPath, images.textContrastHandler)
        r.add("GET", "/v1/suggest", json(SuggestEndpoint.handle))
        r.add("POST", "/v1/suggest", json(SuggestEndpoint.handle))
        let paletteDark = PaletteDarkEndpoint(maxPaletteSize: configuration.maxPaletteSize)
        r.add("POST", "/v1/palette/dark", json(paletteDark.handle))
        let tokensAudit = TokensAuditEndpoint()
        r.add("POST", TokensAuditEndpoint.path, { request in CSSRequestScope.run(request) { tokensAudit.handle(request) } })
        let paletteExport = PaletteExportEndpoint(maxPaletteSize: configuration.maxPaletteSize)
        r.add("POST", "/v1/palette/export", { request in CSSRequestScope.run(request) { paletteExport.handle(request) } })
        let files = {
            var files = StaticFiles(root: configuration.publicDirectory)
            files.problems = Problem.renderer
            return files
        }()
        // The page's folder is looked up once: started from another directory, `GET /` had been a
        // bare 404 with the reason only in the log (new-user pass).
        let pageMissing = !configuration.hasPublicDirectory
        let publicDirectory = configuration.publicDirectory
        r.setFallback { request in
            // Files of the page: GET and HEAD; other methods get 405 (OPTIONS 204) from StaticFiles.
            if let response = files.response(for: request) { return SecurityHeaders.pagePolicy(response) }
            // What each problem `type` means (RFC 9457 §3.1.1), built on first use.
            if request.method == "GET" || request.method == "HEAD", let page = ProblemTypes.response(for: request.path) {
                return SecurityHeaders.pagePolicy(page)
            }
            let hint = pageMissing && (request.path == "/" || request.path == "/index.html")
                ? "; the web page is served from publicDirectory '\(publicDirectory)', which is not a folder here: start the server in the repository or set CONTRAST_PUBLIC_DIRECTORY" : ""
            return Problem(status: 404, kind: "not-found", title: "Not Found",
                           detail: "no endpoint or file at \(request.path)\(hint)").response
        }
        self.router = r
        self.metrics = metrics
        self.auth = BearerAuth(tokens: configuration.authTokens)
        self.steps = ServiceMiddleware.steps(configuration: configuration, router: r, auth: auth)
        self.chain = MiddlewareChain(steps)
    }

    /// Answers one request: the middleware steps, the router, then gzip for large answers.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        ContrastService.handle(request, chain: chain, router: router)
    }

    /// `request` through `chain` to `router`, then gzip for large answers.
    static func handle(_ request: HTTPRequest, chain: MiddlewareChain, router: Router) -> HTTPResponse {
        chain.respond(to: request) { Compression.apply(to: router.handle($0), for: $0) }
    }

    /// Adapts an endpoint that returns JSON or throws a `Problem`.
    static func json(_ body: @escaping @Sendable (HTTPRequest) throws(Problem) -> JSON) -> HTTPHandler {
        jsonBytes { request throws(Problem) in try body(request).serialized() }
    }

    /// Adapts an endpoint that writes its JSON answer as bytes itself (see `JSONByteWriter`).
    static func jsonBytes(_ body: @escaping @Sendable (HTTPRequest) throws(Problem) -> [UInt8]) -> HTTPHandler {
        return { request in
            CSSRequestScope.run(request) {
                do throws(Problem) {
                    return HTTPResponse(status: 200, contentType: "application/json", body: try body(request))
                } catch {
                    return error.kind == Problem.moveToHeavyPool.kind ? .moveToHeavyPool : error.response
                }
            }
        }
    }
}
