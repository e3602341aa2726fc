import HTTPServer

extension ContrastService {
    /// The HTTP server for this service: ``handle(_:)`` for requests, with metrics at `/metrics`
    /// and one access-log line per request (`accessLog`, standard error at `logLevel` when nil)
    /// around it (``ServiceMiddleware/observed(_:metrics:router:log:)``); the answers the server
    /// makes itself (413, 414, 429, 503) get the same decorating steps, with `Cache-Control:
    /// no-store`; a request with a large body that cannot reach an endpoint (401, 404, 405) is
    /// answered from its headers, before the body is read; every problem in the API's shape
    /// (``Problem/renderer``). Call `start()` on it.
    public func makeServer(accessLog: AccessLog? = nil) -> HTTPServer {
        let log = accessLog ?? AccessLog(level: configuration.logLevel)
        let router = self.router
        let metrics = self.metrics
        // The closures hold the chain and router, not `self`: a copy of the whole service value
        // (configuration included) per request cost about 2k instructions.
        let chain = ServiceMiddleware.observed(steps, metrics: metrics, router: router, log: log)
        let server = HTTPServer(
            configuration: configuration.server,
            problems: Problem.renderer,
            handler: { request in
                ContrastService.handle(request, chain: chain, router: router)
            },
            rejectionHandler: { request, response in
                var response = response
                if response.header("Cache-Control") == nil {
                    response.headers.append(("Cache-Control", "no-store"))
                }
                return chain.decorate(rejectionOf: request, response)
            },
            earlyHandler: { [auth] request in
                // A large body is not read for a request that cannot reach an endpoint: without
                // a valid token (401), or to a path or method with no handler (404, 405).
                guard auth.refusal(of: request) != nil || !router.routes(request.method, request.path) else { return nil }
                return ContrastService.handle(request, chain: chain, router: router)
            },
            answerCutHandler: { cut in log.recordCut(cut) }
        )
        metrics.attach { [weak server] in server?.statistics ?? HTTPServerStatistics() }
        return server
    }
}
