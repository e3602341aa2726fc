/// One step around an application's handler: it may answer a request itself (a CORS preflight,
/// a 401) or call `next` and change what comes back (header fields, a 304). Steps are composed
/// in one ordered list by ``MiddlewareChain``; each lives in a file of its own.
///
/// A step sees two kinds of answer: those of the handler (``respond(to:next:)``) and those the
/// server makes itself before any handler runs — 413, 414, 429, 503, framing 400s —
/// (``decorate(rejectionOf:next:)``, by default passed through untouched).
public protocol HTTPMiddleware: Sendable {
    /// The answer to `request`: `next(request)` (or another request) changed, or an answer of
    /// the step's own without calling `next`.
    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse

    /// An answer the server made itself for `request` (headers only, no body), as `next`
    /// returns it: the step adds what every answer must carry (request id, security headers).
    func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse
}

extension HTTPMiddleware {
    /// Rejections pass through untouched unless a step says otherwise.
    public func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        next(request)
    }
}

/// Middleware steps in order, outermost first: the first step sees the request first and the
/// answer last.
///
/// ```swift
/// let chain = MiddlewareChain([RequestIDs(), SecurityHeaders(), ConditionalGET(cacheControl: "no-cache")])
/// let response = chain.respond(to: request) { router.handle($0) }
/// ```
public struct MiddlewareChain: Sendable {
    /// The steps, outermost first.
    public let steps: [any HTTPMiddleware]

    public init(_ steps: [any HTTPMiddleware]) {
        self.steps = steps
    }

    /// `request` through every step, then `handler`.
    public func respond(to request: HTTPRequest, handler: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        respond(request, from: 0, handler)
    }

    private func respond(_ request: HTTPRequest, from index: Int, _ handler: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        guard index < steps.count else { return handler(request) }
        return steps[index].respond(to: request) { respond($0, from: index + 1, handler) }
    }

    /// An answer the server made itself (`response`) through every step's
    /// ``HTTPMiddleware/decorate(rejectionOf:next:)``.
    public func decorate(rejectionOf request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        decorate(request, from: 0, response)
    }

    private func decorate(_ request: HTTPRequest, from index: Int, _ response: HTTPResponse) -> HTTPResponse {
        guard index < steps.count else { return response }
        return steps[index].decorate(rejectionOf: request) { decorate($0, from: index + 1, response) }
    }
}
