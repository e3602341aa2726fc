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

/// HTTP framing and request semantics over the service's own server: HEAD lengths, query encoding, request smuggling, RFC 9110/9112 targets, hosts and methods. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct FramingTests {
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
        // A higher minor version is read as the highest one implemented, HTTP/1.1 (RFC 9110 §2.5:
        // a recipient "SHOULD process the message as if it were in the highest minor version
        // within that major version to which the recipient is conformant"), so HTTP/1.2 is no 505;
        // another major version is (libmicrohttpd answers it), and so is HTTP/0.9.
        let minor = try live.raw("GET /healthz HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(minor.status == 200 && minor.statusLine.hasPrefix("HTTP/1.1 "), "\(minor.statusLine)")
        #expect(try live.raw("GET /healthz HTTP/2.0\r\nHost: x\r\nConnection: close\r\n\r\n").status == 505)
        #expect(try live.raw("GET /healthz HTTP/0.9\r\nHost: x\r\nConnection: close\r\n\r\n").status == 505)
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
}
