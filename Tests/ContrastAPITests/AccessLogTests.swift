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

/// Request IDs and the JSON access log (one line per request, no queries or secrets). Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct AccessLogTests {
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

    /// A second hostile pass, stop 43: a 499 (the client had closed, nothing is sent) was logged
    /// with the bytes of a problem body no one read.
    @Test func aClientClosedRequestIsLoggedWithNoBytes() throws {
        let lines = Mutex<[String]>([])
        let logging = AccessLogging(log: AccessLog(level: "info") { line in lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } })
        let request = HTTPRequest(method: "POST", path: "/v1/contrast/matrix")
        for problem in [HTTPProblem.clientClosedRequest(), .deadlineExceeded(seconds: 1)] {
            _ = logging.decorate(rejectionOf: request) { _ in ProblemRenderer.standard.response(problem) }
        }
        let logged = try lines.withLock { $0 }.map { try JSONParser.parse(Array($0.utf8)) }
        #expect(logged.count == 2 && logged[0]["status"] == 499 && logged[0]["bytes"] == 0, "\(logged)")
        #expect(logged[1]["status"] == 503 && (logged[1]["bytes"]?.double ?? 0) > 0, "\(logged)")
    }
}
