import HTTPServer
import Synchronization

/// What every answer of the service goes through, in this order:
///
/// 1. **Request id**: a valid `X-Request-ID` (1–128 characters of `A-Z a-z 0-9 . _ -`) is
///    kept, anything else replaced by a generated one; echoed in `X-Request-ID`.
/// 2. **CORS preflight** for allowed origins (see ``CORSPolicy``), answered without a token.
/// 3. **Bearer tokens** on `/v1`, `/api` and `/metrics` when configured (see ``BearerAuth``):
///    401 problem details with `WWW-Authenticate: Bearer`.
/// 4. The router (`HEAD` runs as `GET`, so its `ETag` matches), then **caching**: strong
///    `ETag`, `Cache-Control` and 304 for `If-None-Match` (see ``Caching``).
/// 5. **Headers on every answer**: `X-Content-Type-Options: nosniff`, a
///    `Content-Security-Policy` (``contentSecurityPolicy`` on HTML pages, ``apiContentSecurityPolicy``
///    on everything else), `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`,
///    `Strict-Transport-Security` when serving HTTPS, CORS headers for allowed origins.
///
/// Metrics and the access log are recorded around it by the server from ``ContrastService/makeServer(accessLog:)``.
final class Middleware: Sendable {
    /// The policy for HTML pages (the page in `Public/`): scripts and style sheets only from
    /// files of the same origin (no inline `<script>`, `<style>` or `style` attribute, no `eval`;
    /// scripts may still set `element.style`), same-origin fetches, no plugins, no framing.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; "
        + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        + "frame-ancestors 'none'"

    /// The policy for every answer that is not an HTML page (JSON, problem details, exports,
    /// images, the page's scripts and style sheets): nothing may load or run, no framing (OWASP
    /// REST Security Cheat Sheet, "Security headers"). It governs only what a browser opens as a
    /// document (an exported SVG, a JSON answer opened in a tab); fetches and subresources ignore it.
    /// About 160 bytes shorter than the page's policy on every API answer.
    static let apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    let auth: BearerAuth
    let cors: CORSPolicy
    let metrics: Metrics
    /// `Cache-Control` of successful GET answers.
    let cacheControl: String
    private let securityHeaders: [(name: String, value: String)]
    private let requestIDs = RequestIDGenerator()

    init(configuration: ServiceConfiguration) {
        auth = BearerAuth(tokens: configuration.authTokens)
        cors = CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins)
        let tls = !configuration.tlsCertificateFile.isEmpty
        metrics = Metrics(tls: tls)
        let maxAge = configuration.cacheMaxAgeSeconds
        cacheControl = maxAge == 0 ? "no-cache" : "\(auth.isEnabled ? "private" : "public"), max-age=\(maxAge)"
        var headers: [(name: String, value: String)] = [
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
        ]
        if tls {
            headers.append(("Strict-Transport-Security", "max-age=31536000"))
        }
        securityHeaders = headers
    }

    /// Answers `request`: `answer` is the router (plus whatever the service wraps it in).
    func handle(_ request: HTTPRequest, router: Router, answer: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        let requestID = RequestIDGenerator.accepted(request.header("x-request-id")) ?? requestIDs.next()
        let allowOrigin = cors.allowOrigin(for: request.header("origin"))
        var response: HTTPResponse
        if let allowOrigin, CORSPolicy.isPreflight(request), let allow = router.allowedMethods(for: request.path) {
            response = cors.preflight(allowOrigin: allowOrigin, allow: allow)
        } else if auth.isEnabled, BearerAuth.protects(request.path), CORSPolicy.isPreflight(request),
                  router.allowedMethods(for: request.path) == nil {
            // Preflights carry no token, so under the protected prefixes an unknown path answers
            // as a known one would (with every method the server takes): a 404 here told anyone
            // which routes exist, where every other request without a token gets 401 (hostile test).
            let allow = router.allMethods
            response = allowOrigin.map { cors.preflight(allowOrigin: $0, allow: allow) }
                ?? HTTPResponse(status: 204, headers: [("Allow", allow)])
        } else if auth.isEnabled, BearerAuth.protects(request.path), !CORSPolicy.isPreflight(request),
                  case let verdict = auth.check(authorization: request.header("authorization")), verdict != .allowed {
            response = auth.challenge(verdict)
        } else {
            response = cached(request, answer: answer)
        }
        finish(&response, requestID: requestID, allowOrigin: allowOrigin)
        return response
    }

    /// The same headers on an answer the HTTP server made itself (413, 429, 503, …).
    func decorateRejection(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        let requestID = RequestIDGenerator.accepted(request.header("x-request-id")) ?? requestIDs.next()
        if response.header("Cache-Control") == nil {
            response.headers.append(("Cache-Control", "no-store"))
        }
        finish(&response, requestID: requestID, allowOrigin: cors.allowOrigin(for: request.header("origin")))
        return response
    }

    /// Runs `answer`, then applies the caching rules (see ``Caching``).
    private func cached(_ request: HTTPRequest, answer: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        let isHead = request.method == "HEAD"
        guard isHead || request.method == "GET" else {
            var response = answer(request)
            // Room for the headers added below and in finish(): no regrowth of the array.
            response.headers.reserveCapacity(response.headers.count + 8)
            if response.header("Cache-Control") == nil {
                response.headers.append(("Cache-Control", "no-store"))
            }
            return response
        }
        var response: HTTPResponse
        if isHead {
            var routed = request
            routed.method = "GET"
            response = answer(routed)
        } else {
            response = answer(request)
        }
        response.headers.reserveCapacity(response.headers.count + 8)
        if response.status == 200 {
            var cacheable = true
            if let existing = response.header("Cache-Control") {
                cacheable = !existing.contains("no-store")
            } else if request.path == "/healthz" {
                response.headers.append(("Cache-Control", "no-store"))
                cacheable = false
            } else {
                response.headers.append(("Cache-Control", cacheControl))
            }
            if cacheable {
                var etag = response.header("ETag")
                if etag == nil {
                    let tag = Caching.entityTag(response.body)
                    response.headers.append(("ETag", tag))
                    etag = tag
                }
                if let etag, let condition = request.header("if-none-match"), EntityTag.ifNoneMatch(condition, matches: etag) {
                    // A 304 may state only the 200's length (RFC 9110 §8.6), never 0.
                    let length = response.body.count
                    response = HTTPResponse(status: 304, headers: response.headers.filter { field in
                        ["etag", "cache-control", "vary", "content-location"].contains(field.name.lowercased())
                    })
                    response.headers.append(("Content-Length", String(length)))
                }
            }
        } else if response.status >= 400 && response.header("Cache-Control") == nil {
            response.headers.append(("Cache-Control", "no-store"))
        }
        return isHead ? Router.withoutBody(response) : response
    }

    private func finish(_ response: inout HTTPResponse, requestID: String, allowOrigin: String?) {
        // HTML pages carry the page's policy already (see `pagePolicy`); everything else gets the API's.
        let (hasNosniff, hasPolicy) = response.containsHeaders("X-Content-Type-Options", "Content-Security-Policy")
        if !hasNosniff {
            response.headers.append(("X-Content-Type-Options", "nosniff"))
        }
        // Not on a 304: a cache takes a 304's fields into the stored answer (RFC 9111 §4.3.4), and
        // the API's policy would replace a cached page's own, blocking its scripts.
        if !hasPolicy && response.status != 304 {
            response.headers.append(("Content-Security-Policy", Middleware.apiContentSecurityPolicy))
        }
        response.headers.append(contentsOf: securityHeaders)
        if cors.isEnabled {
            if let allowOrigin, response.header("Access-Control-Allow-Origin") == nil {
                response.headers.append(("Access-Control-Allow-Origin", allowOrigin))
                response.headers.append(("Access-Control-Expose-Headers", CORSPolicy.exposedHeaders))
            }
            if response.header("Vary")?.lowercased().contains("origin") != true {
                response.headers.append(("Vary", "Origin"))
            }
        }
        response.headers.append(("X-Request-ID", requestID))
    }
}

extension Middleware {
    /// `response` with the page's `Content-Security-Policy` when it is an HTML page (the static
    /// files' answers go through this; `finish` gives every other answer the API's policy).
    static func pagePolicy(_ response: HTTPResponse) -> HTTPResponse {
        guard let type = response.header("Content-Type"), isHTML(type) else { return response }
        var response = response
        response.headers.append(("Content-Security-Policy", contentSecurityPolicy))
        return response
    }

    /// Whether a `Content-Type` value is `text/html` (any case, parameters allowed).
    static func isHTML(_ contentType: String) -> Bool {
        let type = contentType.utf8
        let html = "text/html".utf8
        guard type.count >= html.count else { return false }
        for (byte, expected) in zip(type, html) where (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected {
            return false
        }
        guard let next = type.dropFirst(html.count).first else { return true }
        return next == UInt8(ascii: ";") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
    }
}

/// Request ids: a random 64-bit prefix per process and a counter, e.g. `9f2c51d07ab3e6f1-1a`
/// (unique across replicas with overwhelming likelihood; one atomic add per id).
final class RequestIDGenerator: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        prefix = String(repeating: "0", count: 16 - hex.count) + hex + "-"
    }

    /// `prefix` and the counter in lower-case hex, made as one string (no concatenation).
    func next() -> String {
        var value = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var digits = 1
        var probe = value >> 4
        while probe != 0 { digits += 1; probe >>= 4 }
        var prefix = self.prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + digits) { out in
                _ = out.initialize(fromContentsOf: head)
                let hex: StaticString = "0123456789abcdef"
                for index in stride(from: head.count + digits - 1, through: head.count, by: -1) {
                    out[index] = hex.utf8Start[Int(value & 0xF)]
                    value >>= 4
                }
                return head.count + digits
            }
        }
    }

    /// `value` when it is a valid id: 1–128 characters of `A-Z a-z 0-9 . _ -`.
    static func accepted(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128 else { return nil }
        for byte in value.utf8 {
            let ok = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
            if !ok { return nil }
        }
        return value
    }
}

extension ContrastService {
    /// The HTTP server for this service: ``handle(_:)`` for requests, the same headers on the
    /// answers the server makes itself (413, 429, 503), and around both the metrics at
    /// `/metrics` and one access-log line per request (`accessLog`, standard error at
    /// `logLevel` when nil). Call `start()` on it.
    public func makeServer(accessLog: AccessLog? = nil) -> HTTPServer {
        let log = accessLog ?? AccessLog(level: configuration.logLevel)
        let middleware = self.middleware
        let router = self.router
        // The closure holds the middleware and router, not `self`: a copy of the whole service
        // value (configuration included) per request cost about 2k instructions.
        let server = HTTPServer(
            configuration: configuration.server,
            problems: Problem.renderer,
            handler: { request in
                let started = MonotonicClock.nanoseconds()
                middleware.metrics.inFlight.wrappingAdd(1, ordering: .relaxed)
                let response = ContrastService.handle(request, middleware: middleware, router: router)
                middleware.metrics.inFlight.wrappingSubtract(1, ordering: .relaxed)
                ContrastService.observe(request, response, started: started, router: router, metrics: middleware.metrics, log: log)
                return response
            },
            rejectionHandler: { request, response in
                let decorated = middleware.decorateRejection(request, response)
                ContrastService.observe(request, decorated, started: MonotonicClock.nanoseconds(), router: router,
                                        metrics: middleware.metrics, log: log)
                return decorated
            }
        )
        middleware.metrics.attach { [weak server] in server?.statistics ?? HTTPServerStatistics() }
        return server
    }

    /// Records one answer in the metrics and the access log.
    static func observe(_ request: HTTPRequest, _ response: HTTPResponse, started: UInt64, router: Router,
                        metrics: Metrics, log: AccessLog) {
        let now = MonotonicClock.nanoseconds()
        let from = request.receivedAtNanoseconds > 0 ? min(request.receivedAtNanoseconds, started) : started
        let seconds = Double(now &- from) / 1e9
        let route = Metrics.routeLabel(for: request.path, status: response.status, router: router)
        metrics.record(route: route, method: request.method, status: response.status, seconds: seconds)
        if log.logs(status: response.status) {
            log.record(requestID: response.header("X-Request-ID") ?? "-", method: request.method, path: request.path,
                       status: response.status, durationMilliseconds: seconds * 1000,
                       bytes: response.body.count, remote: request.remoteAddress)
        }
    }
}
