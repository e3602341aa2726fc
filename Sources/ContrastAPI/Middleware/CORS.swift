import HTTPServer

/// Cross-origin access for browser pages on other origins (Fetch standard, "CORS protocol").
///
/// `corsAllowedOrigins` lists exact origins (`https://design.example.com`, scheme + host +
/// port as browsers send them), `null` (the opaque origin a sandboxed iframe sends: a Figma
/// plugin's UI, whose `Origin` header is `null`; HTML, "sandboxed origin browsing context flag";
/// RFC 6454 §7.3), or `*` for any. Empty (the default) means same origin only: no
/// CORS header is ever sent, so browsers keep other origins' scripts from reading answers.
///
/// - A request with an allowed `Origin` gets `Access-Control-Allow-Origin` (the origin itself,
///   or `*`) and `Access-Control-Expose-Headers` (ETag, X-Request-ID, …).
/// - A preflight (`OPTIONS` with an allowed `Origin` and `Access-Control-Request-Method`) on a
///   routed path gets 204 with `Access-Control-Allow-Methods` (the path's methods),
///   `-Allow-Headers` (`Authorization`, `Content-Type`, `X-Request-ID`, `If-None-Match`) and
///   `-Max-Age` 600, without needing a token.
/// - With a non-empty list every answer carries `Vary: Origin`, so caches keep them apart.
/// No credentials mode: the API uses bearer tokens, never cookies.
public struct CORSPolicy: Sendable {
    private let origins: Set<String>
    private let anyOrigin: Bool

    /// A policy for these origins (`scheme://host[:port]`, or `*` for any); empty allows none.
    public init(allowedOrigins: [String]) {
        self.anyOrigin = allowedOrigins.contains("*")
        self.origins = Set(allowedOrigins.filter { $0 != "*" }.map { CORSPolicy.normalized($0) })
    }

    /// Whether any origin is allowed at all.
    public var isEnabled: Bool { anyOrigin || !origins.isEmpty }

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    public func allowOrigin(for origin: String?) -> String? {
        guard let origin, isEnabled else { return nil }
        if anyOrigin { return "*" }
        // Scheme and host are case-insensitive; a path (even `/`) makes it no origin at all. The
        // opaque origin is the word `null` as browsers send it (`NULL` matched it: a hostile pass).
        let lowered = origin.lowercased()
        if lowered == "null" && origin != "null" { return nil }
        return origins.contains(lowered) ? origin : nil
    }

    /// Whether a configured entry can ever match: `*`, or `http(s)://host[:port]` with at most
    /// a trailing `/` (RFC 6454 §6.2 serialization; `normalized` drops that `/`). The host is an
    /// IPv6 literal or a DNS name or IPv4 address as browsers send it: ASCII labels of letters,
    /// digits and inner hyphens, 1–63 bytes each (so no `*.example` wildcard, `_`, empty label
    /// or non-ASCII name: a browser sends `xn--` punycode); the port 1–65535.
    static func isConfigurableOrigin(_ text: String) -> Bool {
        if text == "*" || text == "null" { return true }
        let lowered = text.lowercased()
        guard let rest = lowered.hasPrefix("https://") ? lowered.dropFirst(8) : lowered.hasPrefix("http://") ? lowered.dropFirst(7) : nil else {
            return false
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \t\\".contains($0) }) else { return false }
        if authority.hasPrefix("[") {  // IPv6 literal, optional port
            guard let close = authority.firstIndex(of: "]") else { return false }
            let after = authority[authority.index(after: close)...]
            return after.isEmpty || (after.hasPrefix(":") && isPort(after.dropFirst()))
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        return isHostName(parts[0]) && (parts.count == 1 || (parts.count == 2 && isPort(parts[1])))
    }

    /// A DNS name or dotted IPv4 address, lower-cased: labels of `a-z 0-9 -`, 1–63 bytes, no
    /// leading or trailing hyphen, at most 253 bytes in all (RFC 1123 §2.1).
    private static func isHostName(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        if labels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) {
            // All digits: an IPv4 address as browsers write it (four 0–255, no leading zeros);
            // `256.1.1.1` is no address and never arrives (second hostile pass).
            return labels.count == 4 && labels.allSatisfy { ($0 == "0" || $0.first != "0") && $0.count <= 3 && Int($0)! <= 255 }
        }
        for label in labels {
            let bytes = label.utf8
            guard !bytes.isEmpty, bytes.count <= 63, bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-"),
                  bytes.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return true
    }

    /// 1–65535 without leading zeros (a browser sends `:80`, never `:080`).
    private static func isPort(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.count <= 5, text.first != "0", text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
              let n = Int(text) else { return false }
        return n >= 1 && n <= 65535
    }

    static let allowedRequestHeaders = "Authorization, Content-Type, X-Request-ID, If-None-Match"
    static let exposedHeaders = "ETag, X-Request-ID, Retry-After, WWW-Authenticate, Content-Disposition, X-Dim-Factor, X-Dim-Basis, "
        + "X-Color-Profile, X-Image-Orientation, X-Flattened-Over, X-Palette-Passes, X-Palette-Warning, X-Scrim, X-Scrim-Element, X-Scrim-Reverses-Polarity, X-Target, X-Passes, X-Failing-Share, "
        + "X-Audit-Passes"
    static let maxAgeSeconds = "600"

    /// Whether `request` is a CORS preflight.
    static func isPreflight(_ request: HTTPRequest) -> Bool {
        request.method == "OPTIONS" && request.header("origin") != nil
            && request.header("access-control-request-method") != nil
    }

    /// The 204 preflight answer for an allowed origin on a path answering `allow`.
    func preflight(allowOrigin: String, allow: String) -> HTTPResponse {
        HTTPResponse(status: 204, headers: [
            ("Access-Control-Allow-Origin", allowOrigin),
            ("Access-Control-Allow-Methods", allow),
            ("Access-Control-Allow-Headers", CORSPolicy.allowedRequestHeaders),
            ("Access-Control-Max-Age", CORSPolicy.maxAgeSeconds),
            ("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
            ("Allow", allow),
        ])
    }

    /// A configured origin as compared: lower-cased (scheme and host are case-insensitive), a
    /// trailing `/` (a common typo in configuration) dropped, and the scheme's default port
    /// (`:443` for https, `:80` for http) dropped, as browsers serialize origins without it
    /// (RFC 6454 §6.2). Request origins are only lower-cased.
    static func normalized(_ origin: String) -> String {
        var lowered = origin.lowercased()
        while lowered.hasSuffix("/") { lowered.removeLast() }
        if lowered.hasPrefix("https://") && lowered.hasSuffix(":443") {
            lowered.removeLast(4)
        } else if lowered.hasPrefix("http://") && lowered.hasSuffix(":80") {
            lowered.removeLast(3)
        }
        return lowered
    }
}

/// Middleware: the CORS fields on every answer, rejections included: for an allowed `Origin`,
/// `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers` (unless the answer has
/// them, as a preflight does); with any origin configured, `Vary: Origin`. Nothing at all when
/// no origin is configured.
struct CORSHeaders: HTTPMiddleware {
    let policy: CORSPolicy

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        guard policy.isEnabled else { return next(request) }
        let allowOrigin = policy.allowOrigin(for: request.header("origin"))
        var response = next(request)
        if let allowOrigin, response.header("Access-Control-Allow-Origin") == nil {
            response.headers.append(("Access-Control-Allow-Origin", allowOrigin))
            response.headers.append(("Access-Control-Expose-Headers", CORSPolicy.exposedHeaders))
        }
        if response.header("Vary")?.lowercased().contains("origin") != true {
            response.headers.append(("Vary", "Origin"))
        }
        return response
    }

    func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        respond(to: request, next: next)
    }
}

/// Middleware: CORS preflights answered before authentication (browsers send no token with
/// them). An allowed origin's preflight on a routed path gets the 204 of ``CORSPolicy/preflight(allowOrigin:allow:)``.
/// With bearer tokens on, a preflight on an unknown path under a protected prefix is answered as
/// a known path would be (every method the server takes): a 404 there told anyone which routes
/// exist, where every other request without a token gets 401 (hostile test).
struct CORSPreflight: HTTPMiddleware {
    let policy: CORSPolicy
    let router: Router
    /// Bearer tokens are on: unknown protected paths must not be told apart from known ones.
    let hidesUnknownRoutes: Bool

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        guard request.method == "OPTIONS", CORSPolicy.isPreflight(request) else { return next(request) }
        let allowOrigin = policy.allowOrigin(for: request.header("origin"))
        if let allowOrigin, let allow = router.allowedMethods(for: request.path) {
            return policy.preflight(allowOrigin: allowOrigin, allow: allow)
        }
        if hidesUnknownRoutes, BearerAuth.protects(request.path), router.allowedMethods(for: request.path) == nil {
            let allow = router.allMethods
            return allowOrigin.map { policy.preflight(allowOrigin: $0, allow: allow) }
                ?? HTTPResponse(status: 204, headers: [("Allow", allow)])
        }
        return next(request)
    }
}
