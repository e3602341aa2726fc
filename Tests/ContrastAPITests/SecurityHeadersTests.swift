@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// CORS (off by default, allow-list), security headers on every kind of answer, and the pages under the Content-Security-Policy. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct SecurityHeadersTests {
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
        // Every X- header an endpoint sets, found in the sources, is exposed (an ops pass: the
        // token audit's X-Audit-Passes was not, so a page could not read the verdict); the
        // security headers are for the browser, not the page.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ContrastAPI")
        var set = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            var rest = Substring(text)
            while let r = rest.range(of: "(\"X-") {
                let name = rest[rest.index(r.lowerBound, offsetBy: 2)...].prefix { $0.isLetter || $0 == "-" }
                set.insert(String(name))
                rest = rest[r.upperBound...]
            }
        }
        #expect(set.count >= 10 && set.contains("X-Audit-Passes"), "\(set.sorted())")
        for name in set.subtracting(["X-Content-Type-Options", "X-Frame-Options"]) {
            #expect(exposed.contains(name), "\(name) is set by an endpoint but not exposed to pages")
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

    /// A Figma plugin's UI runs in a sandboxed iframe, whose `Origin` is `null`: the service had
    /// refused to start with `"null"` listed, so only `*` let a plugin call it (a plugin author's
    /// pass). `null` is now an origin to list, and only it matches the opaque origin.
    @Test func theOpaqueOriginOfSandboxedIframesCanBeAllowed() throws {
        #expect(CORSPolicy.isConfigurableOrigin("null"))
        #expect(CORSPolicy(allowedOrigins: ["https://www.figma.com"]).allowOrigin(for: "null") == nil)
        #expect(CORSPolicy(allowedOrigins: ["null"]).allowOrigin(for: "https://www.figma.com") == nil)
        #expect(CORSPolicy(allowedOrigins: ["null"]).allowOrigin(for: "NULL") == nil && CORSPolicy(allowedOrigins: ["null"]).allowOrigin(for: "Null") == nil)
        let live = try ProductionServer { $0.corsAllowedOrigins = ["null"] }
        let preflight = try live.request("OPTIONS", "/v1/contrast", headers: [
            "Origin": "null", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "null")
        let actual = try live.request("POST", "/v1/contrast", headers: ["Origin": "null"],
                                      body: ##"{"foreground":"#000","background":"#fff"}"##)
        #expect(actual.status == 200 && actual.header("Access-Control-Allow-Origin") == "null")
        let other = try live.request("POST", "/v1/contrast", headers: ["Origin": "https://evil.example"],
                                     body: ##"{"foreground":"#000","background":"#fff"}"##)
        #expect(other.status == 200 && other.header("Access-Control-Allow-Origin") == nil)
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
                        == [index == 0 ? SecurityHeaders.contentSecurityPolicy : SecurityHeaders.apiContentSecurityPolicy],
                    "\(answer.status) \(answer.header("Content-Type") ?? "")")
            #expect(answer.header("Referrer-Policy") == "no-referrer")
            #expect(answer.header("X-Frame-Options") == "DENY")
            #expect(answer.header("X-Request-ID") != nil)
            #expect(answer.header("Strict-Transport-Security") == nil)   // plain HTTP
        }
        #expect(answers.last?.header("Cache-Control") == "no-store")
        let csp = SecurityHeaders.contentSecurityPolicy
        #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"))
        #expect(csp.contains("script-src 'self';") && !csp.contains("script-src 'self' 'unsafe"))
        #expect(SecurityHeaders.apiContentSecurityPolicy == "default-src 'none'; frame-ancestors 'none'")
        // A 304 carries no policy: a cache would take it into the stored page (RFC 9111 §4.3.4)
        // and the API's policy would then block the page's scripts.
        let page = try live.request("GET", "/")
        let revalidated = try live.request("GET", "/", headers: ["If-None-Match": page.header("ETag") ?? "-"])
        #expect(revalidated.status == 304 && revalidated.header("Content-Security-Policy") == nil, "\(revalidated.status)")
        let api = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff")
        let apiRevalidated = try live.request("GET", "/v1/contrast?foreground=%23000&background=%23fff", headers: ["If-None-Match": api.header("ETag") ?? "-"])
        #expect(apiRevalidated.status == 304 && apiRevalidated.header("Content-Security-Policy") == nil)
        #expect(answers[0].header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(SecurityHeaders.isHTML("text/html") && SecurityHeaders.isHTML("TEXT/HTML; charset=utf-8") && SecurityHeaders.isHTML("text/html ;q=1"))
        #expect(!SecurityHeaders.isHTML("text/htmlx") && !SecurityHeaders.isHTML("text/htm") && !SecurityHeaders.isHTML("application/json"))
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
}
