@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

// Issue 8: limits, auth, CORS, security headers, caching, request ids, metrics, access log,
// TLS and graceful shutdown, each over the real server on port 0 unless it is a pure function.

/// A wire answer with every header field kept in order (repeated fields included).
private struct WireReply {
    var status: Int
    var fields: [(name: String, value: String)]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSON { (try? JSONParser.parse(body)) ?? .null }
    var reply: Reply {
        var headers: [String: String] = [:]
        for (name, value) in fields { headers[name.lowercased()] = value }
        return Reply(status: status, headers: headers, body: body)
    }
    func header(_ name: String) -> String? { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
    func headers(_ name: String) -> [String] { fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
}

private func parseWire(_ data: [UInt8]) throws -> WireReply {
    guard let end = data.firstRange(of: [13, 10, 13, 10]) else { throw POSIXError(.EBADMSG) }
    let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let parts = head[0].split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { throw POSIXError(.EBADMSG) }
    var fields: [(name: String, value: String)] = []
    for line in head.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    return WireReply(status: status, fields: fields, body: Array(data[end.upperBound...]))
}

/// The service's own server (`makeServer`: middleware, rejection headers, metrics, access log)
/// on a free loopback port; the access log is collected in `logLines`.
private final class ProductionServer: @unchecked Sendable {
    let service: ContrastService
    let server: HTTPServer
    let log = LogCollector()
    var port: Int { server.port }

    init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        var configuration = testConfiguration()
        configure(&configuration)
        service = ContrastService(configuration: configuration)
        let collector = log
        server = service.makeServer(accessLog: AccessLog(level: configuration.logLevel) { line in
            collector.lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
        })
        try server.start()
    }

    deinit { server.stop() }

    func raw(_ text: String) throws -> WireReply {
        let fd = try connectLoopback(port)
        defer { close(fd) }
        sendAll(fd, Array(text.utf8))
        return try parseWire(readAll(fd))
    }

    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil) throws -> WireReply {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try raw(text)
    }
}

/// Access-log lines written by a test server.
private final class LogCollector: Sendable {
    let lines = Mutex<[String]>([])
}

private let token = "test-token-0123456789abcdef"
private let otherToken = "another-token-abcdefghijklmnop"

@Suite(.serialized) struct ProductionTests {
    // MARK: - Who gets in

    @Test func bearerTokensGuardTheAPIButNotHealthOrThePage() throws {
        let live = try ProductionServer { $0.authTokens = [otherToken, token] }
        let missing = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff")
        expectProblem(missing.reply, 401)
        #expect(missing.header("WWW-Authenticate") == "Bearer realm=\"contrast\"")
        let wrong = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff",
                                     headers: ["Authorization": "Bearer \(token.dropLast())x"])
        expectProblem(wrong.reply, 401)
        #expect(wrong.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
        expectProblem(try live.request("GET", "/v1/contrast", headers: ["Authorization": "Basic \(token)"]).reply, 401)
        expectProblem(try live.request("POST", "/v1/contrast", body: ##"{"foreground":"#000","background":"#fff"}"##).reply, 401)
        expectProblem(try live.request("GET", "/api/webaim?fcolor=000000&bcolor=ffffff").reply, 401)
        expectProblem(try live.request("GET", "/metrics").reply, 401)
        // Unknown paths under a protected prefix are 401 too: no probing for routes.
        expectProblem(try live.request("GET", "/v1/no-such-thing").reply, 401)

        let ok = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff",
                                  headers: ["Authorization": "bearer  \(token)"])
        #expect(ok.status == 200)
        #expect(ok.header("Cache-Control") == "private, max-age=300")
        #expect(try live.request("GET", "/api/webaim?fcolor=000000&bcolor=ffffff",
                                 headers: ["Authorization": "Bearer \(otherToken)"]).status == 200)
        #expect(try live.request("GET", "/metrics", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        #expect(try live.request("GET", "/healthz").status == 200)
        #expect(try live.request("GET", "/").status == 200)
        #expect(try live.request("GET", "/openapi.json").status == 200)
        // The token never appears in the access log.
        #expect(!live.log.lines.withLock { $0.joined() }.contains(token))
    }

    @Test func bearerCheckIsExactAndIndependentOfWhereTokensDiffer() {
        let auth = BearerAuth(tokens: [token])
        #expect(auth.check(authorization: nil) == .missing)
        #expect(auth.check(authorization: "Bearer") == .missing)
        #expect(auth.check(authorization: "Bearer \(token)") == .allowed)
        #expect(auth.check(authorization: "BEARER \(token) ") == .allowed)
        #expect(auth.check(authorization: "Bearer \(token)a") == .invalid)
        #expect(auth.check(authorization: "Bearer \(token.dropLast())") == .invalid)
        #expect(auth.check(authorization: "Bearer ") == .missing)
        #expect(auth.check(authorization: "Bearer  ") == .invalid)
        #expect(BearerAuth.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)) == 1)
        #expect(BearerAuth.constantTimeEquals(Array("abc".utf8), Array("abd".utf8)) == 0)
        #expect(BearerAuth.constantTimeEquals(Array("abc".utf8), Array("ab".utf8)) == 0)
        #expect(BearerAuth.constantTimeEquals(Array("ab".utf8), Array("ab\0".utf8)) == 0)
        #expect(BearerAuth.constantTimeEquals([], []) == 1)
        #expect(!BearerAuth(tokens: []).isEnabled)
    }

    @Test func tokensLoadFromFileAndEnvironmentAndBadOnesAreRefusedWithoutEchoingThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tokens")
        try Data("# team tokens\n\n\(token)\n  \(otherToken)  \n".utf8).write(to: file)
        let config = dir.appendingPathComponent("c.json")
        try Data(#"{"authTokensFile": "tokens", "corsAllowedOrigins": ["https://a.example"]}"#.utf8).write(to: config)
        let loaded = try ServiceConfiguration.load(arguments: ["--config", config.path],
                                                   environment: ["CONTRAST_AUTH_TOKENS": "env-token-0123456789xyz"])
        #expect(loaded.authTokens == [token, otherToken, "env-token-0123456789xyz"])
        #expect(loaded.corsAllowedOrigins == ["https://a.example"])
        #expect(!loaded.json.serializedString.contains(token))

        let secret = "short secret with spaces"
        try Data("\(secret)\n".utf8).write(to: file)
        do {
            _ = try ServiceConfiguration.load(arguments: ["--config", config.path], environment: [:])
            Issue.record("a bad token was accepted")
        } catch {
            #expect(error.key == "authTokensFile")
            #expect(!error.description.contains(secret))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_AUTH_TOKENS": "tooshort"])
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_AUTH_TOKENS_FILE": dir.appendingPathComponent("none").path])
        }
        let env = try ServiceConfiguration.load(arguments: [], environment: [
            "CONTRAST_CORS_ALLOWED_ORIGINS": "https://a.example, https://b.example",
            "CONTRAST_REQUEST_TIMEOUT_SECONDS": "5", "CONTRAST_SHUTDOWN_GRACE_PERIOD_SECONDS": "3",
            "CONTRAST_CACHE_MAX_AGE_SECONDS": "60",
        ])
        #expect(env.corsAllowedOrigins == ["https://a.example", "https://b.example"])
        #expect(env.server.requestTimeoutSeconds == 5 && env.server.shutdownGracePeriodSeconds == 3)
        #expect(env.cacheMaxAgeSeconds == 60)
    }

    /// A HEAD answer states the GET answer's fields, Content-Length included, also for errors
    /// (hostile test: a HEAD 405 stated the length of the shorter body before the API's shape).
    @Test func headStatesTheLengthOfTheGetAnswer() throws {
        let live = try ProductionServer()
        for target in ["/v1/contrast/matrix", "/nope", "/v1/contrast?foreground=zzz&background=white",
                       "/v1/contrast?foreground=%23777&background=white", "/healthz", "/"] {
            let get = try live.request("GET", target)
            let head = try live.request("HEAD", target)
            #expect(head.status == get.status, "\(target)")
            #expect(head.header("Content-Length") == String(get.body.count), "\(target): HEAD \(head.header("Content-Length") ?? "-") GET \(get.body.count)")
            #expect(head.header("Content-Type") == get.header("Content-Type"), "\(target)")
        }
    }

    /// A query that is not valid percent-encoded UTF-8 is named as such, over real HTTP (hostile
    /// test: %ZZ was "'%' is not a CSS color", %C3%28 "unknown color function '�()'").
    @Test func malformedQueryEncodingIsNamed() throws {
        let live = try ProductionServer()
        for bad in ["%ZZ", "%2", "%00", "%C3%28", "%23fff%"] {
            let reply = try live.request("GET", "/v1/contrast?foreground=\(bad)&background=white")
            #expect(reply.status == 400, "\(bad)")
            let problem = try JSONParser.parse(reply.body)
            #expect(problem["parameter"] == "foreground", "\(bad)")
            #expect(problem["detail"]?.string?.contains("not valid percent-encoded UTF-8") == true, "\(bad)")
        }
        let format = try live.request("POST", "/v1/contrast/matrix?format=%ZZ", body: ##"{"colors": ["red"]}"##)
        let formatProblem = try JSONParser.parse(format.body)
        #expect(format.status == 400 && formatProblem["parameter"] == "format")
        // A literal % is %25: then it is an ordinary (here invalid) color.
        let literal = try live.request("GET", "/v1/contrast?foreground=%2523777&background=white")
        let literalProblem = try JSONParser.parse(literal.body)
        #expect(literal.status == 400 && literalProblem["type"] == "/problems/invalid-color")
        let fine = try live.request("GET", "/v1/contrast?foreground=%23777&background=white")
        #expect(fine.status == 200)
    }

    @Test func corsIsOffByDefaultAndFollowsTheAllowList() throws {
        let closed = try ProductionServer()
        let plain = try closed.request("GET", "/v1/contrast?foreground=%23000&background=%23fff", headers: ["Origin": "https://evil.example"])
        #expect(plain.status == 200)
        #expect(plain.header("Access-Control-Allow-Origin") == nil)
        #expect(plain.header("Vary") == nil || plain.header("Vary")?.contains("Origin") == false)

        let live = try ProductionServer {
            $0.corsAllowedOrigins = ["https://design.example"]
            $0.authTokens = [token]
        }
        // Preflight: 204, the path's methods, no token needed.
        let preflight = try live.request("OPTIONS", "/v1/contrast", headers: [
            "Origin": "https://design.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        ])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "https://design.example")
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD, POST, OPTIONS")
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        #expect(preflight.header("Access-Control-Allow-Headers")?.contains("Content-Type") == true)
        #expect(preflight.header("Access-Control-Max-Age") == "600")
        #expect(preflight.headers("Vary").joined(separator: ",").contains("Origin"))
        // A disallowed origin gets no CORS headers, and no 401 either: a preflight never carries a
        // token, and a 401 made the browser report an auth failure instead of the origin (hostile test).
        let foreign = try live.request("OPTIONS", "/v1/contrast", headers: [
            "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
        #expect(foreign.status == 204)
        #expect(foreign.header("Access-Control-Allow-Origin") == nil)
        // Under the protected prefixes a preflight cannot tell known routes from unknown ones
        // (unknown ones answered 404; hostile test, stop 14): both 204, from any origin.
        for origin in ["https://evil.example", "https://design.example"] {
            for path in ["/v1/contrast", "/v1/secret-admin", "/api/nope", "/metrics", "/metrics/x"] {
                let probe = try live.request("OPTIONS", path, headers: ["Origin": origin, "Access-Control-Request-Method": "GET"])
                #expect(probe.status == 204, "\(origin) \(path): \(probe.status)")
            }
        }
        #expect(try live.request("GET", "/v1/secret-admin").status == 401)
        #expect(try live.request("GET", "/metrics/x").status == 401)
        // The actual request: allowed origin echoed, exposed headers, Vary: Origin, also on 401.
        let actual = try live.request("POST", "/v1/contrast", headers: [
            "Origin": "https://design.example", "Authorization": "Bearer \(token)"],
            body: ##"{"foreground":"#000","background":"#fff"}"##)
        #expect(actual.status == 200)
        #expect(actual.header("Access-Control-Allow-Origin") == "https://design.example")
        #expect(actual.header("Access-Control-Expose-Headers")?.contains("X-Request-ID") == true)
        // Every header a page may need to read, the image and palette ones included (hostile test:
        // X-Palette-Passes, X-Image-Orientation, X-Flattened-Over and Content-Disposition were missing).
        let exposed = Set((actual.header("Access-Control-Expose-Headers") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        for name in ["ETag", "X-Request-ID", "Retry-After", "Content-Disposition", "X-Dim-Factor", "X-Dim-Basis",
                     "X-Color-Profile", "X-Image-Orientation", "X-Flattened-Over", "X-Palette-Passes"] {
            #expect(exposed.contains(name), "\(name) not exposed")
        }
        #expect(actual.headers("Vary").joined(separator: ",").contains("Origin"))
        let denied = try live.request("GET", "/v1/labels", headers: ["Origin": "https://design.example"])
        #expect(denied.status == 401)
        #expect(denied.header("Access-Control-Allow-Origin") == "https://design.example")
        let other = try live.request("GET", "/healthz", headers: ["Origin": "https://evil.example"])
        #expect(other.header("Access-Control-Allow-Origin") == nil)
        #expect(other.headers("Vary").joined(separator: ",").contains("Origin"))

        #expect(CORSPolicy(allowedOrigins: ["*"]).allowOrigin(for: "https://x.example") == "*")
        #expect(CORSPolicy(allowedOrigins: ["https://A.example/"]).allowOrigin(for: "https://a.example") == "https://a.example")
        // The default port is dropped, as browsers send origins without it (second hostile pass).
        #expect(CORSPolicy(allowedOrigins: ["https://a.example:443"]).allowOrigin(for: "https://a.example") == "https://a.example")
        #expect(CORSPolicy(allowedOrigins: ["http://a.example:80/"]).allowOrigin(for: "http://a.example") == "http://a.example")
        #expect(CORSPolicy(allowedOrigins: ["http://a.example:8080"]).allowOrigin(for: "http://a.example:8080") == "http://a.example:8080")
        #expect(CORSPolicy(allowedOrigins: ["https://a.example:80"]).allowOrigin(for: "https://a.example") == nil)
        // Letter case is ignored (scheme and host are case-insensitive); a path is no origin.
        #expect(CORSPolicy(allowedOrigins: ["https://a.example"]).allowOrigin(for: "HTTPS://A.example") == "HTTPS://A.example")
        #expect(CORSPolicy(allowedOrigins: ["https://a.example"]).allowOrigin(for: "https://a.example/") == nil)
        #expect(CORSPolicy(allowedOrigins: ["https://a.example"]).allowOrigin(for: "https://a.example.evil") == nil)
        #expect(CORSPolicy(allowedOrigins: []).allowOrigin(for: "https://a.example") == nil)
    }

    @Test func securityHeadersOnEveryKindOfAnswer() throws {
        let live = try ProductionServer { $0.maxBodyBytes = 100 }
        let answers = [
            try live.request("GET", "/"),
            try live.request("GET", "/app.js"),
            try live.request("GET", "/healthz"),
            try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff"),
            try live.request("GET", "/nowhere"),
            try live.request("PUT", "/v1/contrast", body: "{}"),
            try live.request("POST", "/v1/contrast", body: String(repeating: " ", count: 500)),   // 413 from the server
        ]
        #expect(answers.last?.status == 413)
        for (index, answer) in answers.enumerated() {
            #expect(answer.headers("X-Content-Type-Options") == ["nosniff"], "\(answer.status)")
            // The page gets the page's policy; everything else (its script, JSON, problems) the
            // API's, which lets nothing load or run.
            #expect(answer.headers("Content-Security-Policy")
                        == [index == 0 ? Middleware.contentSecurityPolicy : Middleware.apiContentSecurityPolicy],
                    "\(answer.status) \(answer.header("Content-Type") ?? "")")
            #expect(answer.header("Referrer-Policy") == "no-referrer")
            #expect(answer.header("X-Frame-Options") == "DENY")
            #expect(answer.header("X-Request-ID") != nil)
            #expect(answer.header("Strict-Transport-Security") == nil)   // plain HTTP
        }
        #expect(answers.last?.header("Cache-Control") == "no-store")
        let csp = Middleware.contentSecurityPolicy
        #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"))
        #expect(csp.contains("script-src 'self';") && !csp.contains("script-src 'self' 'unsafe"))
        #expect(Middleware.apiContentSecurityPolicy == "default-src 'none'; frame-ancestors 'none'")
        // A 304 carries no policy: a cache would take it into the stored page (RFC 9111 §4.3.4)
        // and the API's policy would then block the page's scripts.
        let page = try live.request("GET", "/")
        let revalidated = try live.request("GET", "/", headers: ["If-None-Match": page.header("ETag") ?? "-"])
        #expect(revalidated.status == 304 && revalidated.header("Content-Security-Policy") == nil, "\(revalidated.status)")
        let api = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff")
        let apiRevalidated = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff", headers: ["If-None-Match": api.header("ETag") ?? "-"])
        #expect(apiRevalidated.status == 304 && apiRevalidated.header("Content-Security-Policy") == nil)
        #expect(answers[0].header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(Middleware.isHTML("text/html") && Middleware.isHTML("TEXT/HTML; charset=utf-8") && Middleware.isHTML("text/html ;q=1"))
        #expect(!Middleware.isHTML("text/htmlx") && !Middleware.isHTML("text/htm") && !Middleware.isHTML("application/json"))
    }

    /// The CSP allows no inline script: the pages in Public/ must not rely on one.
    @Test func publicPagesFitTheContentSecurityPolicy() throws {
        let folder = repositoryRoot.appendingPathComponent("Public")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".html") }
        #expect(!pages.isEmpty)
        for page in pages {
            let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8).lowercased()
            var rest = html[...]
            while let open = rest.range(of: "<script") {
                let tagEnd = rest[open.upperBound...].firstIndex(of: ">") ?? rest.endIndex
                #expect(rest[open.upperBound..<tagEnd].contains("src="), "inline <script> in \(page)")
                rest = rest[tagEnd...]
            }
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "inline event handler in \(page)")
            #expect(!html.contains("<style"), "inline <style> in \(page)")
            #expect(html.range(of: #"\sstyle\s*="#, options: .regularExpression) == nil, "style attribute in \(page)")
            #expect(!html.contains("javascript:"), "javascript: URL in \(page)")
        }
    }

    // MARK: - Static files: no traversal in any encoding

    @Test func noTraversalOutOfThePublicFolderInAnyEncoding() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pub-\(UUID().uuidString)")
        let publicDir = dir.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: publicDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = "TOP-SECRET-\(UUID().uuidString)"
        try Data(marker.utf8).write(to: dir.appendingPathComponent("secret.txt"))
        try Data("<!doctype html><p>home</p>".utf8).write(to: publicDir.appendingPathComponent("index.html"))
        try FileManager.default.createSymbolicLink(atPath: publicDir.appendingPathComponent("leak.txt").path,
                                                   withDestinationPath: dir.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(atPath: publicDir.appendingPathComponent("up").path,
                                                   withDestinationPath: dir.path)
        let live = try ProductionServer { $0.publicDirectory = publicDir.path }
        #expect(try live.request("GET", "/").text.contains("home"))
        let attempts = [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt", "/%2e%2e%2fsecret.txt",
            "/..%2fsecret.txt", "/..%2Fsecret.txt", "/%252e%252e/secret.txt", "/..%252fsecret.txt",
            "/..\\secret.txt", "/%5c..%5csecret.txt", "/..%5csecret.txt", "/%c0%ae%c0%ae/secret.txt",
            "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/etc/passwd", "/%2fetc%2fpasswd",
            "/leak.txt", "/up/secret.txt", "/up/", "/./secret.txt", "/x/../../secret.txt", "/secret.txt%00.html",
            "/..;/secret.txt", "/%2e%2e;/secret.txt",
        ]
        for path in attempts {
            let answer = try live.raw("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.status == 400 || answer.status == 404, "\(path): \(answer.status)")
            #expect(!answer.text.contains(marker), "\(path) leaked the file")
            #expect(!answer.text.contains("root:"), "\(path) leaked /etc/passwd")
            #expect(answer.header("Content-Type") == "application/problem+json", "\(path)")
        }
        // An absolute-form request target is no way out either.
        let absolute = try live.raw("GET http://x\(dir.path)/secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(!absolute.text.contains(marker))
    }

    // MARK: - Caching

    @Test func getAnswersHaveStrongETagsAndRevalidateWith304() throws {
        let live = try ProductionServer()
        let target = "/v1/contrast?foreground=%23777&background=white"
        let first = try live.request("GET", target)
        let second = try live.request("GET", target)
        #expect(first.status == 200)
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        #expect(second.header("ETag") == etag)   // deterministic
        #expect(first.header("Cache-Control") == "public, max-age=300")
        #expect(first.body == second.body)

        let other = try live.request("GET", "/v1/contrast?foreground=%23778&background=white")
        #expect(other.header("ETag") != etag)

        let notModified = try live.request("GET", target, headers: ["If-None-Match": "\"nope\", W/\(etag)"])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)
        #expect(notModified.header("Cache-Control") == "public, max-age=300")
        // A 304 states the 200's length or none, never 0 (RFC 9110 §8.6); pages' files likewise.
        #expect(notModified.headers("Content-Length") == [String(first.body.count)])
        let page = try live.request("GET", "/index.html")
        let pageAgain = try live.request("GET", "/index.html", headers: ["If-None-Match": page.header("ETag") ?? "-"])
        #expect(pageAgain.status == 304 && pageAgain.headers("Content-Length") == [String(page.body.count)])
        #expect(try live.request("GET", target, headers: ["If-None-Match": "*"]).status == 304)
        #expect(try live.request("GET", target, headers: ["If-None-Match": "\"different\""]).status == 200)

        let head = try live.raw("HEAD \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(head.status == 200)
        #expect(head.header("ETag") == etag)
        #expect(head.header("Content-Length") == String(first.body.count))
        #expect(head.body.isEmpty)

        // Errors, POST answers, health and metrics are never stored.
        #expect(try live.request("GET", "/v1/contrast?foreground=nope&background=white").header("Cache-Control") == "no-store")
        #expect(try live.request("POST", "/v1/contrast", body: ##"{"foreground":"#000","background":"#fff"}"##)
            .header("Cache-Control") == "no-store")
        let health = try live.request("GET", "/healthz")
        #expect(health.header("Cache-Control") == "no-store" && health.header("ETag") == nil)
        #expect(try live.request("GET", "/metrics").header("Cache-Control") == "no-store")
        // Static files keep their own validators.
        #expect(try live.request("GET", "/app.js").header("ETag")?.hasPrefix("W/") == true)
    }

    @Test func entityTagsAndConditions() {
        // Values from an independent Python model of the definition in `Caching.entityTag`
        // (empty, one tail byte, one whole word, word + tail, a real answer).
        #expect(Caching.entityTag([]) == "\"0-4f43b61ebe0f3fa7\"")
        #expect(Caching.entityTag(Array("a".utf8)) == "\"1-5d5e9d8d68a1d9d2\"")
        #expect(Caching.entityTag(Array("abcdefgh".utf8)) == "\"8-edaee32d218af023\"")
        #expect(Caching.entityTag(Array("abcdefghi".utf8)) == "\"9-f9fd90644f029086\"")
        #expect(Caching.entityTag(Array(#"{"status":"ok","version":"0.1.0"}"#.utf8)) == "\"21-8aa1a7a9a09169a0\"")
        #expect(EntityTag.ifNoneMatch("\"x\"", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch(" W/\"x\" ", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch("\"a\", \"x\"", matches: "W/\"x\""))
        // `*` only on its own (RFC 9110 §13.1.2); in a list the field is invalid (hostile test).
        #expect(EntityTag.ifNoneMatch(" * ", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"y\", *", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"x\", *", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"xy\"", matches: "\"x\""))
    }

    // MARK: - Observability

    @Test func requestIDsAreAcceptedWhenValidAndGeneratedOtherwise() throws {
        let live = try ProductionServer()
        let given = "abc.DEF_123-xyz"
        #expect(try live.request("GET", "/healthz", headers: ["X-Request-ID": given]).header("X-Request-ID") == given)
        let long = String(repeating: "a", count: 129)
        for bad in [long, "has space", "quote\"s", "semi;colon", "ünï"] {
            let generated = try live.request("GET", "/healthz", headers: ["X-Request-ID": bad]).header("X-Request-ID")
            #expect(generated != nil && generated != bad)
            #expect(RequestIDGenerator.accepted(generated) == generated)
        }
        let a = try live.request("GET", "/healthz").header("X-Request-ID")
        let b = try live.request("GET", "/healthz").header("X-Request-ID")
        #expect(a != nil && a != b)
        #expect(RequestIDGenerator.accepted(String(repeating: "a", count: 128)) != nil)
        #expect(RequestIDGenerator.accepted("") == nil)
    }

    /// Spaces and tabs around a header value are not part of it (RFC 9110 §5.5), and empty
    /// parts of a query name nothing (found by a hostile test: `X-Request-ID: abc ` was
    /// replaced, `?a=1&&b=2` was "unknown field ''").
    @Test func headerValuesAreTrimmedAndEmptyQueryPartsSkipped() throws {
        let live = try ProductionServer()
        let trimmed = try live.raw("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-ID: \t abc-1 \t\r\n\r\n")
        #expect(trimmed.header("X-Request-ID") == "abc-1")
        for query in ["?foreground=%23777&&background=white", "?&foreground=%23777&background=white",
                      "?foreground=%23777&background=white&&"] {
            let answer = try live.request("GET", "/v1/contrast" + query)
            #expect(answer.status == 200, "\(query): \(answer.text)")
        }
        let named = try live.request("GET", "/v1/contrast?foreground=%23777&background=white&=x")
        #expect(named.status == 400)   // a value with an empty name is still a field nobody knows
    }

    /// Generated ids are a 16-digit hex prefix, '-', and the counter in lower-case hex.
    @Test func generatedRequestIDsCountInHex() {
        let generator = RequestIDGenerator()
        let ids = (1...300).map { _ in generator.next() }
        let prefix = ids[0].prefix(17)
        #expect(prefix.count == 17 && prefix.last == "-" && prefix.dropLast().allSatisfy(\.isHexDigit))
        for (offset, id) in ids.enumerated() {
            #expect(id == prefix + String(offset + 1, radix: 16))
        }
    }

    @Test func oneJSONAccessLogLinePerRequestWithoutQueriesOrSecrets() throws {
        let live = try ProductionServer { $0.authTokens = [token]; $0.maxBodyBytes = 200 }
        _ = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff&apiKey=QUERY-SECRET",
                             headers: ["Authorization": "Bearer \(token)", "X-Request-ID": "trace-1"])
        _ = try live.request("POST", "/v1/contrast", headers: ["Authorization": "Bearer \(token)", "X-Request-ID": "trace-2"],
                             body: ##"{"foreground":"BODY-SECRET","background":"#fff"}"##)
        _ = try live.request("GET", "/v1/labels", headers: ["X-Request-ID": "trace-3"])
        _ = try live.request("POST", "/v1/contrast", headers: ["X-Request-ID": "trace-4"], body: String(repeating: "x", count: 300))
        let lines = live.log.lines.withLock { $0 }
        #expect(lines.count == 4)
        let all = lines.joined()
        for secret in [token, "QUERY-SECRET", "BODY-SECRET", "apiKey", "Bearer"] {
            #expect(!all.contains(secret), "\(secret) in the log")
        }
        let expected: [(id: String, method: String, path: String, status: Int)] = [
            ("trace-1", "GET", "/v1/contrast", 400),   // apiKey is not a parameter of /v1/contrast
            ("trace-2", "POST", "/v1/contrast", 400),
            ("trace-3", "GET", "/v1/labels", 401), ("trace-4", "POST", "/v1/contrast", 413),
        ]
        for (line, want) in zip(lines, expected) {
            #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
            let json = try JSONParser.parse(Array(line.utf8))
            #expect(json["requestId"] == .string(want.id))
            #expect(json["method"] == .string(want.method))
            #expect(json["path"] == .string(want.path))
            #expect(json["status"] == .number(Double(want.status)))
            #expect(json["level"] == "info" && json["msg"] == "request")
            #expect((json["durationMs"]?.double ?? -1) >= 0)
            #expect((json["bytes"]?.double ?? -1) > 0)
            #expect(json["remote"] == "127.0.0.1")
            let time = json["time"]?.string ?? ""
            #expect(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil, "\(time)")
        }
        // logLevel warn keeps 5xx lines only; a client's unsupported transfer coding (501) is a warning.
        let quiet = try ProductionServer { $0.logLevel = "warn" }
        _ = try quiet.request("GET", "/healthz")
        #expect(quiet.log.lines.withLock { $0 }.isEmpty)
        _ = try quiet.raw("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
        let warned = quiet.log.lines.withLock { $0 }
        #expect(warned.count == 1 && warned.first?.contains(#""level":"warn""#) == true && warned.first?.contains(#""status":501"#) == true, "\(warned)")
        let strict = try ProductionServer { $0.logLevel = "error" }
        _ = try strict.raw("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
        #expect(strict.log.lines.withLock { $0 }.isEmpty)
    }

    @Test func prometheusMetricsCountRoutesStatusesLatencyAndRejections() throws {
        let live = try ProductionServer { $0.maxBodyBytes = 200 }
        for _ in 0..<3 { _ = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff") }
        _ = try live.request("GET", "/v1/contrast?foreground=bad&background=%23fff")
        _ = try live.request("GET", "/no/such/page")
        _ = try live.request("GET", "/")
        _ = try live.request("POST", "/v1/contrast", body: String(repeating: "x", count: 300))
        _ = try live.request("BREW", "/v1/contrast")
        // The earlier connections are closed by the server after their answers; under a loaded
        // test run its close notice can trail the next request, so scrape until only this
        // scrape's connection is open (at most 2 s), then check everything on that scrape.
        var metrics = try live.request("GET", "/metrics")
        let settle = Date().addingTimeInterval(2)
        while !metrics.text.contains("contrast_http_open_connections 1\n"), Date() < settle {
            usleep(20_000)
            metrics = try live.request("GET", "/metrics")
        }
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.text
        for line in [
            #"contrast_http_requests_total{route="/v1/contrast",method="GET",status="200"} 3"#,
            #"contrast_http_requests_total{route="/v1/contrast",method="GET",status="400"} 1"#,
            #"contrast_http_requests_total{route="/v1/contrast",method="POST",status="413"} 1"#,
            #"contrast_http_requests_total{route="/v1/contrast",method="other",status="501"} 1"#,
            #"contrast_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
            #"contrast_http_requests_total{route="static",method="GET",status="200"} 1"#,
            #"contrast_http_request_duration_seconds_bucket{route="/v1/contrast",le="+Inf"} 6"#,
            #"contrast_http_request_duration_seconds_count{route="/v1/contrast"} 6"#,
            #"contrast_http_requests_in_flight 1"#,   // this scrape
            #"contrast_http_rejected_total{reason="content_too_large"} 1"#,
            #"contrast_http_rejected_total{reason="unauthorized"} 0"#,
            #"contrast_http_rejected_total{reason="request_timeout"} 0"#,
            #"contrast_build_info{version="\#(ContrastService.version)""#,
            "# TYPE contrast_http_request_duration_seconds histogram",
            "process_resident_memory_bytes ",
            "contrast_http_open_connections 1",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
        // Every sample line is `name{labels} value` or `name value`.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.range(of: #"^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$"#, options: .regularExpression) != nil, "\(line)")
        }
        // Cumulative buckets never decrease.
        var last = -1.0
        for line in text.split(separator: "\n") where line.hasPrefix(#"contrast_http_request_duration_seconds_bucket{route="/v1/contrast""#) {
            let value = Double(line.split(separator: " ").last!)!
            #expect(value >= last)
            last = value
        }
    }

    // MARK: - Limits answered as problem details by the service's server

    /// Requests a proxy and this server could frame differently are refused before any body is
    /// read (request smuggling), in the API's problem shape with the service's headers.
    @Test func ambiguousFramingIsRefusedBeforeTheBody() throws {
        let live = try ProductionServer { $0.maxBodyBytes = 100 }
        let body = #"{"foreground":"red","background":"white"}"#
        let cases: [(String, Int, String)] = [
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Length: 41\r\nContent-Length: 5\r\n\r\n\(body)", 400, "malformed-request"),
            // Two Content-Type lines, even equal ones, were joined and got a 415 (hostile test).
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Type: application/json\r\nContent-Length: 41\r\n\r\n\(body)", 400, "malformed-request"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Length: 41\r\nTransfer-Encoding: chunked\r\n\r\n\(body)", 400, "malformed-request"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n\(body)", 501, "not-implemented"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "not-implemented"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 41\r\n\r\n\(body)", 415, "unsupported-media-type"),
            // Repeated field lines are one list: every value counts, not the last one (found by
            // a hostile test: gzip then chunked hung the connection, gzip then identity passed).
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501, "not-implemented"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501, "not-implemented"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Encoding: identity\r\nContent-Length: 41\r\n\r\n\(body)", 415, "unsupported-media-type"),
            ("GET /healthz HTTP/1.1\r\n\r\n", 400, "malformed-request"),
            ("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "malformed-request"),
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n", 400, "malformed-request"),
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nX(Foo): y\r\n\r\n", 400, "malformed-request"),
            ("GET /healthz HTTP/1.2\r\n\r\n", 400, "malformed-request"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked \r\n\r\n29\r\n\(body)\r\n0\r\n\r\n", 400, "malformed-request"),
            ("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n", 413, "payload-too-large"),
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 9000))\r\n\r\n", 431, "header-fields-too-large"),
            ("GET /v1/convert?\((0..<500).map { "a\($0)=1" }.joined(separator: "&")) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "too-many-query-arguments"),
        ]
        for (request, status, kind) in cases {
            let answer = try live.raw(request)
            #expect(answer.status == status, "\(request.prefix(80)): \(answer.text)")
            #expect(answer.json["type"] == .string("/problems/\(kind)"), "\(answer.text)")
            #expect(answer.header("Connection") == "close")
            #expect(answer.header("X-Request-ID") != nil && answer.header("Content-Security-Policy") != nil)
            if status == 413 { #expect(answer.json["limit"] == 100) }
            if status == 415 { #expect(answer.header("Accept-Encoding") == "identity") }
            if status == 431 { #expect(answer.json["limit"] == 8192) }
            if status == 414 { #expect(answer.json["limit"] == 100) }
        }
        // Headers just under the limit pass; beyond libmicrohttpd's 32 KiB pool it answers 431 itself.
        #expect(try live.raw("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: \(String(repeating: "a", count: 8000))\r\n\r\n").status == 200)
        #expect(try live.raw("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: \(String(repeating: "a", count: 40000))\r\n\r\n").status == 431)
        // Still the same: HTTP/1.0 needs no Host, chunked alone is read, identity is no coding.
        #expect(try live.raw("GET /healthz HTTP/1.0\r\n\r\n").status == 200)
        let chunked = try live.raw("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n29\r\n\(body)\r\n0\r\n\r\n")
        #expect(chunked.status == 200 && chunked.json["ratio"] != nil, "\(chunked.text)")
        let identity = try live.request("POST", "/v1/contrast", headers: ["Content-Encoding": "identity"], body: body)
        #expect(identity.status == 200)
        #expect(try live.request("GET", "/healthz", headers: ["Content-Encoding": "br"]).status == 200)   // no body to decode
        // A body over the limit that arrives chunked: 413, and the connection is closed.
        let big = String(repeating: " ", count: 150)
        let chunked413 = try live.raw("POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n96\r\n\(big)\r\n0\r\n\r\n")
        #expect(chunked413.status == 413 && chunked413.header("Connection") == "close")
        #expect(chunked413.json["type"] == "/problems/payload-too-large")
        // The router's 405 in the same shape.
        let put = try live.request("PUT", "/v1/contrast", body: "{}")
        #expect(put.status == 405 && put.json["type"] == "/problems/method-not-allowed" && put.header("Allow") != nil)
    }

    /// RFC 9110/9112 points a hostile test found (stop 14): the absolute-form target (a server
    /// MUST accept it), `OPTIONS *`, a Host value that is no host, Transfer-Encoding in HTTP/1.0
    /// (faulty framing), and unknown methods (501, not 405).
    @Test func requestTargetsHostAndMethodsFollowTheRFCs() throws {
        let live = try ProductionServer()
        let absolute = try live.raw("GET http://127.0.0.1:\(live.port)/v1/contrast?foreground=%23777&background=white HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(absolute.status == 200 && absolute.json["ratioText"] == "4.47", "\(absolute.text)")
        let secure = try live.raw("GET HTTPS://example.com HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        #expect(secure.status == 200 && secure.header("Content-Type")?.hasPrefix("text/html") == true, "\(secure.status)")  // "/" is the page
        let post = try live.raw("POST http://x/v1/contrast HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 41\r\n\r\n{\"foreground\":\"#000\",\"background\":\"#fff\"}")
        #expect(post.status == 200 && post.json["ratio"] == 21, "\(post.text)")

        // An absolute-form authority is a host and port too; user info is refused (RFC 9110 §4.2.4).
        for target in ["http://localhost:abc/healthz", "http://user@localhost/healthz", "http://a:1:2/healthz"] {
            let bad = try live.raw("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(bad.status == 400 && bad.json["type"] == "/problems/malformed-request", "\(target): \(bad.status)")
        }
        let star = try live.raw("OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(star.status == 204 && star.header("Allow") == "GET, HEAD, POST, OPTIONS", "\(star.status) \(star.header("Allow") ?? "")")
        #expect(try live.raw("GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").status == 400)

        for host in ["a b", "x/y", "a\"b", "é.example", "a@b",
                     // Structure, not only bytes (second hostile pass, stop 14).
                     "localhost:abc", "localhost:-1", "localhost:80:80", ":80", "[::1", "[::1]x", "[zz]", "localhost:123456"] {
            let answer = try live.raw("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(answer.status == 400 && answer.json["type"] == "/problems/malformed-request", "\(host): \(answer.text)")
        }
        for host in ["x", "127.0.0.1:8080", "[::1]:80", "[::1]", "a-b.example", "xn--nxasmq6b.example", "", "localhost:"] {
            #expect(try live.raw("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n").status == 200, "\(host)")
        }

        let old = try live.raw("POST /v1/contrast HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n29\r\n{\"foreground\":\"#000\",\"background\":\"#fff\"}\r\n0\r\n\r\n")
        #expect(old.status == 400 && old.json["detail"]?.string?.contains("HTTP/1.0") == true, "\(old.text)")

        for method in ["FOO", "BREW", "get"] {
            let answer = try live.raw("\(method) /v1/contrast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.status == 501 && answer.json["type"] == "/problems/not-implemented", "\(method): \(answer.text)")
        }
        // Registered methods are recognized (IANA registry): 405 with Allow, as schemathesis's
        // QUERY expects (a 501 counted as a server error in CI).
        for method in ["QUERY", "PROPFIND"] {
            let answer = try live.raw("\(method) /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.status == 405 && answer.header("Allow") != nil, "\(method): \(answer.status)")
        }
        // Known methods a route does not take stay 405, on routes and on the page's files.
        #expect(try live.request("DELETE", "/v1/contrast").status == 405)
        #expect(try live.request("TRACE", "/healthz").status == 405)
    }

    @Test func connectionLimitsAreProblemDetailsWithTheServiceHeaders() throws {
        let live = try ProductionServer { $0.perIPConnectionLimit = 1 }
        let held = try connectLoopback(live.port)
        defer { close(held) }
        sendAll(held, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(recv(held, &buffer, buffer.count, 0) > 0)
        let refused = try live.request("GET", "/healthz", headers: ["X-Request-ID": "over-limit"])
        expectProblem(refused.reply, 429)
        #expect(refused.json["type"] == "/problems/too-many-connections" && refused.json["limit"] == 1)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("X-Request-ID") == "over-limit")
        #expect(refused.header("Content-Security-Policy") != nil)
        #expect(refused.header("Cache-Control") == "no-store")
        let metrics = live.service.middleware.metrics.render()
        #expect(metrics.contains(#"contrast_http_rejected_total{reason="too_many_connections_from_client"} 1"#))
    }

    /// A client sending headers one byte at a time is cut off by `requestTimeoutSeconds`
    /// while other clients are served; the metrics count it.
    @Test func slowlorisAgainstTheService() throws {
        let live = try ProductionServer { $0.requestTimeoutSeconds = 1; $0.threads = 1 }
        let fd = try connectLoopback(live.port)
        defer { close(fd) }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "s", count: 100))\r\n\r\n".utf8)
        let started = Date()
        var index = 0
        while index < request.count && Date().timeIntervalSince(started) < 6 {
            if send(fd, [request[index]], 1, Int32(MSG_NOSIGNAL)) <= 0 { break }
            index += 1
            if index % 8 == 0 {
                #expect(try live.request("GET", "/healthz").status == 200)
            }
            usleep(100_000)
        }
        #expect(index < request.count)
        #expect(readAll(fd).isEmpty)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(live.service.middleware.metrics.render().contains(#"contrast_http_rejected_total{reason="request_timeout"} 1"#))
    }

    // MARK: - Fuzz regressions

    /// Replays the request fuzzer's seed corpus (fuzz/corpus/request: first byte picks the
    /// route as in fuzz/FuzzRequest.swift, the rest is the body) through the service: never a
    /// 5xx, every 4xx a problem. Inputs that crashed the fuzzer are added to the corpus and so
    /// become regression cases here (none so far).
    @Test func fuzzCorpusReplaysWithoutServerErrors() throws {
        let routes = ["/v1/contrast", "/v1/convert", "/v1/difference", "/v1/audit", "/v1/table-stripes",
                      "/v1/contrast/matrix", "/v1/simulate"]
        let folder = repositoryRoot.appendingPathComponent("fuzz/corpus/request")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.count >= 10)
        var configuration = testConfiguration()
        configuration.maxPaletteSize = 32
        let service = ContrastService(configuration: configuration)
        for file in files {
            let data = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            guard let first = data.first else { continue }
            let route = routes[Int(first) % routes.count]
            let response = service.handle(HTTPRequest(method: "POST", path: route, headers: ["Content-Type": "application/json"],
                                                      body: Array(data.dropFirst())))
            #expect(response.status < 500, "\(file) on \(route): \(response.status)")
            if response.status >= 400 { expectProblem(Reply(response), response.status) }
        }
    }

    // MARK: - TLS

    static let tlsTools: Bool = ["/usr/bin/openssl", "/usr/bin/curl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: tlsTools, "needs the openssl and curl command-line tools (Debian openssl, curl)"))
    func httpsWithASelfSignedCertificate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        #expect(try runTool("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                  "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                                                  "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]).status == 0)
        let configFile = dir.appendingPathComponent("c.json")
        try Data(#"{"tlsCertificateFile": "cert.pem", "tlsKeyFile": "key.pem"}"#.utf8).write(to: configFile)
        var configuration = try ServiceConfiguration.load(arguments: ["--config", configFile.path], environment: [:])
        configuration.publicDirectory = testConfiguration().publicDirectory
        configuration.port = 0
        #expect(configuration.server.isTLS)
        let service = ContrastService(configuration: configuration)
        let server = service.makeServer(accessLog: AccessLog(level: "error"))
        try server.start()
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/v1/contrast?foreground=%23777&background=white"
        let curl = try runTool("/usr/bin/curl", ["-sS", "--cacert", cert, "--max-time", "10", "-D", "-", url])
        #expect(curl.status == 0, "\(curl.output)")
        #expect(curl.output.hasPrefix("HTTP/1.1 200"), "\(curl.output)")
        #expect(curl.output.contains("\"ratioText\":\"4.47\""))
        #expect(curl.output.lowercased().contains("strict-transport-security: max-age=31536000"))
        // Without the CA the certificate is refused; plain HTTP on the TLS port gets no answer.
        #expect(try runTool("/usr/bin/curl", ["-sS", "--max-time", "10", url]).status != 0)
        let plain = try connectLoopback(server.port, timeoutSeconds: 3)
        defer { close(plain) }
        sendAll(plain, Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(!String(decoding: readAll(plain), as: UTF8.self).contains("HTTP/1.1 200"))

        // A key that is missing or not PEM stops start-up with the key's name.
        try Data("nonsense".utf8).write(to: URL(fileURLWithPath: key))
        do {
            _ = try ServiceConfiguration.load(arguments: ["--config", configFile.path], environment: [:])
            Issue.record("a bad key was accepted")
        } catch {
            #expect(error.key == "tlsKeyFile")
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_TLS_CERTIFICATE_FILE": cert])
        }
    }

    // MARK: - SIGTERM with a request in flight

    /// SIGTERM while a request is in progress (headers in, body still arriving): the server
    /// stops accepting, answers the request when its body is complete, and exits 0.
    @Test func sigtermFinishesTheRequestInFlightThenExitsZero() throws {
        guard let binary = ExecutableTests.binary else {
            Issue.record("contrast-server is not built next to the tests (swift build)")
            return
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0"]
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CONTRAST_") }
        environment["CONTRAST_SHUTDOWN_GRACE_PERIOD_SECONDS"] = "10"
        environment["CONTRAST_AUTH_TOKENS"] = token
        process.environment = environment
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        while !text.contains("listening on"), Date() < deadline {
            let chunk = errorPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression)
            .map { Int(text[$0].split(separator: ":")[1])! }, "\(text)")
        // Lifecycle lines have the access log's shape: time, level, msg (hostile test, stop 14).
        let listening = try #require(text.split(separator: "\n").first { $0.contains("listening on") })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(listening.utf8)) as? [String: Any])
        #expect(fields["level"] as? String == "info" && (fields["msg"] as? String)?.hasPrefix("listening on") == true, "\(listening)")
        #expect((fields["time"] as? String)?.hasSuffix("Z") == true && fields["message"] == nil, "\(listening)")

        let body = ##"{"foreground": "#777777", "background": "#ffffff"}"##
        let fd = try connectLoopback(port)
        defer { close(fd) }
        let head = "POST /v1/contrast HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nX-Request-ID: in-flight-1\r\n\r\n"
        sendAll(fd, Array((head + body.prefix(10)).utf8))
        usleep(300_000)   // the headers are in: the request is in progress
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        usleep(500_000)
        #expect(process.isRunning, "exited without waiting for the request in flight")
        // No new connections are served once stopping.
        if let late = try? connectLoopback(port, timeoutSeconds: 1) {
            sendAll(late, Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(!String(decoding: readAll(late), as: UTF8.self).contains("200 OK"))
            close(late)
        }
        sendAll(fd, Array(body.dropFirst(10).utf8))
        let answer = try parseWire(readAll(fd))
        #expect(answer.status == 200)
        #expect(answer.json["ratioText"] == "4.47")
        #expect(answer.header("Connection")?.lowercased() == "close")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(Date().timeIntervalSince(signalled) < 8)

        let log = text + String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("\"requestId\":\"in-flight-1\""), "\(log)")
        #expect(log.contains("\"path\":\"/v1/contrast\""))
        #expect(!log.contains(token))   // query secrets: oneJSONAccessLogLinePerRequestWithoutQueriesOrSecrets
        #expect(log.contains("stopped"))
    }
}

/// Runs a command-line tool; returns its exit status and standard output + error.
private func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
