import HTTPServer

extension ContrastService {
    /// The HTTP server for this service: ``handle(_:)`` for requests, with metrics at `/metrics`
    /// and one access-log line per request (`accessLog`, standard error at `logLevel` when nil)
    /// around it (``ServiceMiddleware/observed(_:metrics:router:log:)``); the answers the server
    /// makes itself (413, 414, 429, 503) get the same decorating steps, with `Cache-Control:
    /// no-store`; every problem in the API's shape (``Problem/renderer``). Call `start()` on it.
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
            }
        )
        metrics.attach { [weak server] in server?.statistics ?? HTTPServerStatistics() }
        return server
    }
}
