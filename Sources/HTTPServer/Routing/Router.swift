/// A synchronous request handler. Runs on a libmicrohttpd thread; must not block for long.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Routes by method and exact path; testable without sockets:
///
/// ```swift
/// var router = Router()
/// router.add("GET", "/health") { _ in .text("ok") }
/// router.handle(HTTPRequest(method: "POST", path: "/health")).status    // 405, Allow: GET, HEAD, OPTIONS
/// router.handle(HTTPRequest(method: "GET", path: "/nope")).status       // 404 problem+json
/// ```
///
/// - `HEAD` on a path with a `GET` route runs the `GET` handler and drops the body, keeping
///   its length in `Content-Length`.
/// - `OPTIONS` on a known path without an `OPTIONS` route answers 204 with `Allow`.
/// - Unknown paths go to the fallback (see ``setFallback(_:)``), else 404 problem details.
///
/// Cost of ``handle(_:)``: one dictionary lookup by path and one by method.
public struct Router: Sendable {
    struct Route: Sendable {
        var handlers: [String: HTTPHandler] = [:]
        var allow: String = ""
    }

    private var routes: [String: Route] = [:]
    private var fallback: HTTPHandler?
    /// Renders the router's own problems (404, 405, 501, a bad `*` target).
    public var problems: ProblemRenderer = .standard

    public init() {}

    /// Registers `handler` for `method` (upper-cased) on the exact path `path`; replaces an
    /// earlier registration of the same pair.
    public mutating func add(_ method: String, _ path: String, _ handler: @escaping HTTPHandler) {
        let method = method.uppercased()
        var route = routes[path] ?? Route()
        route.handlers[method] = handler
        route.allow = Router.allowHeader(for: route.handlers.keys)
        routes[path] = route
    }

    /// Handles every request whose path has no route (for example ``StaticFiles`` for `GET`
    /// and `HEAD`). Its `HEAD` answers lose their body like routed ones.
    public mutating func setFallback(_ handler: @escaping HTTPHandler) {
        fallback = handler
    }

    /// The router as a handler for ``HTTPServer``.
    public var handler: HTTPHandler {
        let router = self
        return { router.handle($0) }
    }

    /// The routed paths, in no particular order.
    public var paths: [String] {
        Array(routes.keys)
    }

    /// Whether a handler is registered for `method` on `path` (the fallback not counted).
    public func routes(_ method: String, _ path: String) -> Bool {
        routes[path]?.handlers[method] != nil
    }

    /// The methods answered on `path` as an `Allow` value, or nil for an unrouted path.
    public func allowedMethods(for path: String) -> String? {
        routes[path]?.allow
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard Router.isRegisteredMethod(request.method) else {
            // RFC 9110 §9.1: an unrecognized method SHOULD get 501, not 405 (which would claim
            // the method exists but is not allowed here). Registered ones (QUERY, PROPFIND, …)
            // are recognized: 405 below.
            return problems.response(.notImplemented("The method \(request.method.prefix(32)) is not implemented; this server answers \(allMethods)."))
        }
        if request.path == "*" {
            // The asterisk form names the server itself, for OPTIONS only (RFC 9112 §3.2.4, RFC 9110 §9.3.7).
            if request.method == "OPTIONS" { return HTTPResponse(status: 204, headers: [("Allow", allMethods)]) }
            return problems.response(.badRequest("The target * is only for OPTIONS (RFC 9112 §3.2.4)."))
        }
        guard let route = routes[request.path] else {
            guard let fallback else {
                return notFound(request)
            }
            let response = fallback(request)
            return request.method == "HEAD" ? response.headAnswer() : response
        }
        if let handler = route.handlers[request.method] {
            let response = handler(request)
            return request.method == "HEAD" ? response.headAnswer() : response
        }
        switch request.method {
        case "HEAD":
            if let get = route.handlers["GET"] {
                return get(request).headAnswer()
            }
            // The GET's 405, without its body: a HEAD answer states the GET's fields, its
            // Content-Length included (RFC 9110 §9.3.2); its own detail named HEAD and was longer.
            var asGet = request
            asGet.method = "GET"
            return methodNotAllowed(asGet, allow: route.allow).headAnswer()
        case "OPTIONS":
            return HTTPResponse(status: 204, headers: [("Allow", route.allow)])
        default:
            break
        }
        return methodNotAllowed(request, allow: route.allow)
    }

    /// The 404 problem details answer for `request`, in the shape of ``problems``.
    public func notFound(_ request: HTTPRequest) -> HTTPResponse {
        problems.response(.notFound(path: request.path))
    }

    /// The 405 problem details answer for `request`, with `Allow: allow`, in the shape of ``problems``.
    public func methodNotAllowed(_ request: HTTPRequest, allow: String) -> HTTPResponse {
        problems.response(.methodNotAllowed(request.method, path: request.path, allow: allow))
    }

    private static let methodOrder = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Whether `method` is in the IANA HTTP Method Registry (RFC 9110 §16.1): recognized, so a
    /// route without it answers 405; any other token (`BREW`, lower-case `get`) is 501. The usual
    /// ones are compared directly, not hashed: this runs on every request.
    static func isRegisteredMethod(_ method: String) -> Bool {
        switch method {
        case "GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT": return true
        default: return registeredMethods.contains(method)
        }
    }

    /// The rest of the IANA HTTP Method Registry (WebDAV, CalDAV, versioning, QUERY, …).
    static let registeredMethods: Set<String> = [
        "ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK", "LOCK", "MERGE",
        "MKACTIVITY", "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE", "MOVE", "ORDERPATCH", "PRI",
        "PROPFIND", "PROPPATCH", "QUERY", "REBIND", "REPORT", "SEARCH", "UNBIND", "UNCHECKOUT", "UNLINK",
        "UNLOCK", "UPDATE", "UPDATEREDIRECTREF", "VERSION-CONTROL",
    ]

    /// Every method some route answers, as an `Allow` value (`OPTIONS *`).
    public var allMethods: String {
        Router.allowHeader(for: routes.values.flatMap(\.handlers.keys) + (fallback == nil ? [] : ["GET"]))
    }

    static func allowHeader(for methods: some Sequence<String>) -> String {
        var set = Set(methods)
        if set.contains("GET") {
            set.insert("HEAD")
        }
        set.insert("OPTIONS")
        let known = methodOrder.filter { set.contains($0) }
        let others = set.subtracting(methodOrder).sorted()
        return (known + others).joined(separator: ", ")
    }
}
