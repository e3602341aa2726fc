import Foundation
import HTTPServer

/// Optional bearer-token authentication (RFC 6750) for the API routes.
///
/// Protected: every path under `/v1` and `/api`, and `/metrics`. Open: `/healthz` (probes),
/// `/openapi.json` and the static page. CORS preflights (`OPTIONS` with an allowed `Origin` and
/// `Access-Control-Request-Method`) are answered without a token, as browsers send none.
///
/// Tokens come from `authTokensFile` (one per line; blank lines ignored, and `#` comments to the
/// end of a line) and the environment variable `CONTRAST_AUTH_TOKENS` (comma-separated); none means
/// authentication is off. A token is 16–4096 characters of RFC 6750's `b64token` alphabet
/// (`A-Z a-z 0-9 - . _ ~ + /`, then `=` padding). Tokens are never logged or echoed.
public struct BearerAuth: Sendable {
    private let tokens: [[UInt8]]

    /// Authentication with these tokens; off when `tokens` is empty.
    public init(tokens: [String]) {
        self.tokens = tokens.map { Array($0.utf8) }
    }

    /// Whether any token is configured.
    public var isEnabled: Bool { !tokens.isEmpty }

    /// Whether `path` needs a token when authentication is on.
    public static func protects(_ path: String) -> Bool {
        path == "/metrics" || path == "/v1" || path == "/api" || path.hasPrefix("/v1/") || path.hasPrefix("/api/")
            || path.hasPrefix("/metrics/")  // as the other prefixes: no probing below it (hostile test)
    }

    /// The outcome of checking one request's `Authorization` field.
    public enum Verdict: Sendable, Equatable {
        /// A configured token was presented (or authentication is off for this path).
        case allowed
        /// No `Authorization: Bearer …` field.
        case missing
        /// A bearer token that matches none of the configured ones (or a malformed field).
        case invalid
    }

    /// Checks an `Authorization` value against every configured token. The time taken depends
    /// on the configured tokens' lengths only, never on where the presented token differs.
    public func check(authorization: String?) -> Verdict {
        guard let authorization else { return .missing }
        let bytes = Array(authorization.utf8)
        // "Bearer" is case-insensitive (RFC 9110 §11.1), then one or more spaces.
        guard bytes.count > 7,
              asciiLowercased(bytes[0..<6]) == Array("bearer".utf8), bytes[6] == 0x20
        else { return .missing }
        var start = 7
        while start < bytes.count && bytes[start] == 0x20 { start += 1 }
        var end = bytes.count
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        let presented = Array(bytes[start..<end])
        var matched: UInt8 = 0
        for token in tokens {
            matched |= BearerAuth.constantTimeEquals(token, presented)
        }
        return matched == 1 ? .allowed : .invalid
    }

    /// 1 when equal, 0 otherwise; runs over all of `expected` whatever `given` is.
    static func constantTimeEquals(_ expected: [UInt8], _ given: [UInt8]) -> UInt8 {
        var difference: UInt8 = expected.count == given.count ? 0 : 1
        let givenCount = given.count
        given.withUnsafeBufferPointer { g in
            for index in 0..<expected.count {
                let other: UInt8 = index < givenCount ? g[index] : 0
                difference |= expected[index] ^ other
            }
        }
        // Branch-free: 1 iff difference == 0.
        return UInt8(truncatingIfNeeded: (UInt16(difference) &- 1) >> 8) & 1
    }

    private func asciiLowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// Why `request` is refused (a protected path without a valid token), or nil when it may go
    /// on: authentication off, an open path, a CORS preflight (browsers send no token), or a valid
    /// token. The one rule of ``BearerAuthentication`` and of the server's early answer.
    func refusal(of request: HTTPRequest) -> Verdict? {
        guard isEnabled, BearerAuth.protects(request.path), !CORSPolicy.isPreflight(request) else { return nil }
        let verdict = check(authorization: request.header("authorization"))
        return verdict == .allowed ? nil : verdict
    }

    /// The 401 answer: problem details with `WWW-Authenticate: Bearer`. An invalid token also
    /// gets `error="invalid_token"` (RFC 6750 §3.1); a missing one does not.
    func challenge(_ verdict: Verdict) -> HTTPResponse {
        let detail = verdict == .missing
            ? "This route needs a bearer token: send 'Authorization: Bearer <token>'."
            : "The bearer token is not valid for this service."
        var response = Problem(status: 401, kind: "unauthorized", title: "Unauthorized", detail: detail).response
        response.headers.append(("WWW-Authenticate", verdict == .missing
            ? "Bearer realm=\"contrast\""
            : "Bearer realm=\"contrast\", error=\"invalid_token\""))
        return response
    }

    /// Reads tokens from `file` (if any) and `environment` (comma-separated), validating each.
    /// Errors name the file or variable and the line, never the token.
    static func loadTokens(file: String, environment: String?) throws(ConfigurationError) -> [String] {
        var tokens: [String] = []
        if !file.isEmpty {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ConfigurationError(key: "authTokensFile", problem: "cannot read \(file)")
            }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, raw) in lines.enumerated() {
                // A comment runs from `#` to the end of the line, after a token too (`#` is not
                // in a token's alphabet; a new user's pass: `token # plugin` stopped startup).
                let line = raw.prefix { $0 != "#" }.trimmingCharacters(in: .whitespacesAndNewlines)
                if line.isEmpty { continue }
                guard isValidToken(line) else {
                    throw ConfigurationError(key: "authTokensFile", problem: "\(file) line \(number + 1): \(tokenRule)")
                }
                tokens.append(line)
            }
            if tokens.isEmpty {
                throw ConfigurationError(key: "authTokensFile", problem: "\(file) holds no token")
            }
        }
        if let environment {
            for (index, part) in environment.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                let token = part.trimmingCharacters(in: .whitespaces)
                guard isValidToken(token) else {
                    throw ConfigurationError(key: "CONTRAST_AUTH_TOKENS", problem: "token \(index + 1): \(tokenRule)")
                }
                tokens.append(token)
            }
        }
        return tokens
    }

    static let tokenRule = "a token must be 16 to 4096 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding)"

    static func isValidToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard (16...4096).contains(bytes.count) else { return false }
        var index = 0
        while index < bytes.count {
            let b = bytes[index]
            let ok = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E || b == 0x2B || b == 0x2F
            if !ok { break }
            index += 1
        }
        guard index > 0 else { return false }
        while index < bytes.count && bytes[index] == 0x3D { index += 1 }
        return index == bytes.count
    }
}

/// Middleware: with tokens configured, a request to a protected path (``BearerAuth/protects(_:)``)
/// without a valid `Authorization: Bearer` token gets the 401 of ``BearerAuth/challenge(_:)``
/// before any handler runs. CORS preflights pass (``CORSPreflight`` answers them first).
struct BearerAuthentication: HTTPMiddleware {
    let auth: BearerAuth

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        if let verdict = auth.refusal(of: request) { return auth.challenge(verdict) }
        return next(request)
    }
}
