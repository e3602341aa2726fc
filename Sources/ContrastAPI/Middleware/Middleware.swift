import HTTPServer

/// The service's middleware, composed in one list. Every answer goes through these steps, outermost
/// first (the first sees the request first and the answer last):
///
/// | step | file | does |
/// |---|---|---|
/// | ``MetricsRecording`` | Metrics.swift | counts the answer at `/metrics` (server only) |
/// | ``AccessLogging`` | AccessLog.swift | one JSON line on standard error (server only) |
/// | ``RequestIDs`` | RequestIDs.swift | `X-Request-ID`, kept or generated |
/// | ``CORSHeaders`` | CORS.swift | `Access-Control-Allow-Origin`, `Vary: Origin` |
/// | ``SecurityHeaders`` | SecurityHeaders.swift | `nosniff`, CSP, referrer and framing policy, HSTS |
/// | ``CORSPreflight`` | CORS.swift | answers preflights (before authentication) |
/// | ``BearerAuthentication`` | Auth.swift | 401 without a valid token |
/// | ``ConditionalGET`` | HTTPServer | HEAD as GET, `Cache-Control`, `ETag`, 304 |
///
/// then the router, and gzip for large answers (``Compression``). The answers the server makes
/// itself (413, 414, 429, 503, framing 400s) go through the steps that decorate them: metrics,
/// access log, request id, CORS and security headers.
enum ServiceMiddleware {
    /// The steps every answer goes through, in order (without metrics and the access log, which
    /// only the running server adds: ``observed(_:metrics:router:log:)``).
    static func steps(configuration: ServiceConfiguration, router: Router, auth: BearerAuth) -> [any HTTPMiddleware] {
        let cors = CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins)
        let maxAge = configuration.cacheMaxAgeSeconds
        let cacheControl = maxAge == 0 ? "no-cache" : "\(auth.isEnabled ? "private" : "public"), max-age=\(maxAge)"
        return [
            RequestIDs(),
            CORSHeaders(policy: cors),
            SecurityHeaders(tls: !configuration.tlsCertificateFile.isEmpty),
            CORSPreflight(policy: cors, router: router, hidesUnknownRoutes: auth.isEnabled),
            BearerAuthentication(auth: auth),
            ConditionalGET(cacheControl: cacheControl, noStorePaths: ["/healthz"]),
        ]
    }

    /// `steps` with metrics and the access log around them: the chain of the running server.
    static func observed(_ steps: [any HTTPMiddleware], metrics: Metrics, router: Router, log: AccessLog) -> MiddlewareChain {
        MiddlewareChain([MetricsRecording(metrics: metrics, router: router), AccessLogging(log: log)] + steps)
    }
}
