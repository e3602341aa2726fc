/// A problem the HTTP layer answers itself, before or instead of the application (RFC 9457
/// problem details): a stable `kind`, the status, a title, a detail for a person, an optional
/// numeric limit, and the header fields the answer needs (`Allow`, `Retry-After`,
/// `Accept-Encoding`). A value, not yet a body: it is rendered once, by the ``ProblemRenderer``
/// the application configures on the ``Router``, the ``StaticFiles`` and the ``HTTPServer``.
public struct HTTPProblem: Sendable {
    /// HTTP status `400...599`.
    public var status: Int
    /// Stable kind, e.g. `not-found`, `payload-too-large` (an application may turn it into a
    /// `type` URI; the standard renderer writes `about:blank`).
    public var kind: String
    /// The status's reason phrase, e.g. `Not Found`.
    public var title: String
    /// What exactly is wrong, for a person.
    public var detail: String
    /// The limit that was passed (bytes, arguments, connections), if any.
    public var limit: Int?
    /// Header fields the answer carries after `Content-Type`, in order.
    public var headers: [(name: String, value: String)]
    /// When the problem refuses a request because a limit was reached, which limit; `nil` for a
    /// problem with the request itself. Several limits share a status (five 503s), so a status
    /// alone cannot say which one was hit.
    public var rejection: HTTPRejection?

    public init(status: Int, kind: String, title: String, detail: String, limit: Int? = nil,
                headers: [(name: String, value: String)] = [], rejection: HTTPRejection? = nil) {
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.limit = limit
        self.headers = headers
        self.rejection = rejection
    }

    /// 400 `malformed-request`: the request's framing, target or path is not acceptable.
    public static func badRequest(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: 400, kind: "malformed-request", title: "Bad Request", detail: detail)
    }

    /// 404 `not-found`: nothing at `path`.
    public static func notFound(path: String) -> HTTPProblem {
        HTTPProblem(status: 404, kind: "not-found", title: "Not Found", detail: "No resource at \(path).")
    }

    /// 405 `method-not-allowed` with `Allow: allow` (RFC 9110 §15.5.6).
    public static func methodNotAllowed(_ method: String, path: String, allow: String) -> HTTPProblem {
        HTTPProblem(status: 405, kind: "method-not-allowed", title: "Method Not Allowed",
                    detail: "\(method) is not allowed on \(path); allowed: \(allow).", headers: [("Allow", allow)])
    }

    /// 413 `payload-too-large`: the body exceeds `limit` bytes.
    public static func contentTooLarge(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 413, kind: "payload-too-large", title: "Content Too Large",
                    detail: "The request body exceeds the limit of \(limit) bytes.", limit: limit, rejection: .contentTooLarge)
    }

    /// 414 `too-many-query-arguments`: the query has `arguments` parts, over `limit`.
    public static func tooManyQueryArguments(_ arguments: Int, limit: Int) -> HTTPProblem {
        HTTPProblem(status: 414, kind: "too-many-query-arguments", title: "URI Too Long",
                    detail: "The query has \(arguments) arguments; at most \(limit) are accepted.", limit: limit, rejection: .tooManyQueryArguments)
    }

    /// 414 `request-target-too-long`: the request target (path and query) is longer than
    /// `limit` bytes.
    public static func requestTargetTooLong(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 414, kind: "request-target-too-long", title: "URI Too Long",
                    detail: "The request target (path and query) is longer than \(limit) bytes; send long inputs in a POST body.", limit: limit)
    }

    /// 414 `too-many-query-arguments`: the query has `parts` `&`-separated parts counting empty
    /// ones, over `limit`.
    public static func tooManyQueryParts(_ parts: Int, limit: Int) -> HTTPProblem {
        HTTPProblem(status: 414, kind: "too-many-query-arguments", title: "URI Too Long",
                    detail: "The query has \(parts) '&'-separated parts, empty ones included; at most \(limit) are accepted.",
                    limit: limit, rejection: .tooManyQueryArguments)
    }

    /// 415 `unsupported-media-type`, with `Accept-Encoding: identity` when a content coding was
    /// refused (RFC 9110 §15.5.16).
    public static func unsupportedMediaType(_ detail: String, acceptEncoding: String? = nil) -> HTTPProblem {
        HTTPProblem(status: 415, kind: "unsupported-media-type", title: "Unsupported Media Type", detail: detail,
                    headers: acceptEncoding.map { [("Accept-Encoding", $0)] } ?? [])
    }

    /// 429 `too-many-connections`: this client has more than `limit` connections (`Retry-After: 1`).
    public static func tooManyConnections(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 429, kind: "too-many-connections", title: "Too Many Requests",
                    detail: "This client has more than \(limit) connections open; close some and retry.",
                    limit: limit, headers: [("Retry-After", "1")], rejection: .tooManyConnectionsFromClient)
    }

    /// 429 `too-many-heavy-requests`: this client already has `limit` heavy requests running or
    /// waiting (`Retry-After: 1`).
    public static func tooManyHeavyRequests(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 429, kind: "too-many-heavy-requests", title: "Too Many Requests",
                    detail: "This client already has \(limit) heavy requests (requests the heavy-work pool runs, such as this one) running or waiting; retry when one is answered.",
                    limit: limit, headers: [("Retry-After", "1")], rejection: .tooManyHeavyRequestsFromClient)
    }

    /// 431 `header-fields-too-large`: the header fields take `bytes`, over `limit`.
    public static func headerFieldsTooLarge(bytes: Int, limit: Int) -> HTTPProblem {
        HTTPProblem(status: 431, kind: "header-fields-too-large", title: "Request Header Fields Too Large",
                    detail: "The header fields take \(bytes) bytes; the limit is \(limit).", limit: limit, rejection: .headerFieldsTooLarge)
    }

    /// 501 `not-implemented`: a method or transfer coding the server does not implement.
    public static func notImplemented(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: 501, kind: "not-implemented", title: "Not Implemented", detail: detail)
    }

    /// 503 `server-busy`: the heavy-work queue holds `limit` requests already (`Retry-After: 1`).
    public static func heavyWorkQueueFull(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 503, kind: "server-busy", title: "Service Unavailable",
                    detail: "The server is already working on or queueing \(limit) heavy requests (requests its heavy-work pool runs, such as this one); retry shortly.",
                    limit: limit, headers: [("Retry-After", "1")], rejection: .heavyWorkQueueFull)
    }

    /// 503 `server-busy`: request bodies and unsent answers already hold `limit` bytes (`Retry-After: 1`).
    public static func memoryBudgetExceeded(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 503, kind: "server-busy", title: "Service Unavailable",
                    detail: "Request bodies and answers waiting to be sent hold more than the server's memory budget of \(limit) bytes; retry shortly.",
                    limit: limit, headers: [("Retry-After", "1")], rejection: .memoryBudgetExceeded)
    }

    /// 503 `deadline-exceeded`: a heavy request took longer than `seconds`; its work is dropped.
    public static func deadlineExceeded(seconds: Double) -> HTTPProblem {
        HTTPProblem(status: 503, kind: "deadline-exceeded", title: "Service Unavailable",
                    detail: "The request took longer than the server's limit of \(seconds.formatted) s for heavy work and was abandoned.",
                    headers: [("Retry-After", "1")], rejection: .deadlineExceeded)
    }

    /// 499 `client-closed-request` (nginx's code; not an HTTP status): the client closed its
    /// connection before its heavy request was answered. Never read by anyone: it is what the
    /// access log and `/metrics` record for the abandoned request.
    public static func clientClosedRequest() -> HTTPProblem {
        HTTPProblem(status: 499, kind: "client-closed-request", title: "Client Closed Request",
                    detail: "The client closed its connection before this heavy request was answered; its work was abandoned.",
                    rejection: .clientClosedRequest)
    }

    /// 503 `shutting-down`: the server stopped before this request was answered.
    public static func shuttingDown() -> HTTPProblem {
        HTTPProblem(status: 503, kind: "shutting-down", title: "Service Unavailable",
                    detail: "The server is shutting down and stopped before this request was answered; retry on another instance.",
                    headers: [("Retry-After", "1")], rejection: .shuttingDown)
    }

    /// 503 `server-busy`: the server has more than `limit` connections (`Retry-After: 1`).
    public static func serverBusy(limit: Int) -> HTTPProblem {
        HTTPProblem(status: 503, kind: "server-busy", title: "Service Unavailable",
                    detail: "The server has more than \(limit) connections open; retry shortly.",
                    limit: limit, headers: [("Retry-After", "1")], rejection: .tooManyConnections)
    }
}

/// A limit that refused a request, named as `/metrics` labels it (`contrast_http_rejected_total`).
/// A one-byte value, so carrying it on every ``HTTPResponse`` costs nothing measurable.
/// `/metrics` lists the reasons in this order.
public enum HTTPRejection: String, Sendable, CaseIterable {
    /// 401: no valid bearer token (the application's own answer).
    case unauthorized = "unauthorized"
    /// 413: the body is over `maxBodyBytes` (or an endpoint's own byte limit).
    case contentTooLarge = "content_too_large"
    /// 414: too many query arguments or `&`-separated parts.
    case tooManyQueryArguments = "too_many_query_arguments"
    /// 429: one client holds too many connections.
    case tooManyConnectionsFromClient = "too_many_connections_from_client"
    /// 429: one client has `heavyPerClientLimit` heavy requests running or waiting.
    case tooManyHeavyRequestsFromClient = "too_many_heavy_requests_from_client"
    /// 431: the header fields are over `maxHeaderBytes`.
    case headerFieldsTooLarge = "header_fields_too_large"
    /// 503: the server holds `connectionLimit` connections.
    case tooManyConnections = "too_many_connections"
    /// 503: the heavy-work queue is full.
    case heavyWorkQueueFull = "heavy_work_queue_full"
    /// 503: bodies and unsent answers hold the memory budget.
    case memoryBudgetExceeded = "memory_budget_exceeded"
    /// 503: heavy work passed its deadline.
    case deadlineExceeded = "deadline_exceeded"
    /// 503: the server stopped before answering.
    case shuttingDown = "shutting_down"
    /// 499: the client closed its connection before its heavy request was answered (nginx's code).
    case clientClosedRequest = "client_closed_request"
}

/// Turns an ``HTTPProblem`` into its answer: the one problem shape of a server, chosen by the
/// application. The answer is `application/problem+json` with the problem's header fields.
public struct ProblemRenderer: Sendable {
    /// The problem's JSON body.
    public let body: @Sendable (HTTPProblem) -> [UInt8]

    public init(body: @escaping @Sendable (HTTPProblem) -> [UInt8]) {
        self.body = body
    }

    /// The answer carrying `problem`: `Content-Type: application/problem+json`, then the
    /// problem's own header fields.
    public func response(_ problem: HTTPProblem) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/problem+json")]
        headers.append(contentsOf: problem.headers)
        var response = HTTPResponse(status: problem.status, headers: headers, body: body(problem))
        response.rejection = problem.rejection
        return response
    }

    /// The shape of a server without an application's: `{"type":"about:blank","title",
    /// "status","detail","limit"?}` with `limit` as a JSON string (``HTTPResponse/problem(status:title:detail:type:extra:)``).
    public static let standard = ProblemRenderer { problem in
        HTTPResponse.problem(status: problem.status, title: problem.title, detail: problem.detail,
                             extra: problem.limit.map { [("limit", String($0))] } ?? []).body
    }
}

private extension Double {
    /// `20` for whole numbers, `2.5` otherwise.
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
