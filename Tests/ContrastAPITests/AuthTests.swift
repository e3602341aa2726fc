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

/// Bearer tokens: who gets in, how tokens load, and that no token is ever echoed or logged. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct AuthTests {
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
        try Data("# team tokens\n\n\(token)\n  \(otherToken)  # the Figma plugin\n".utf8).write(to: file)
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
}
