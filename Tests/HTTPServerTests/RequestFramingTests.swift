@testable import HTTPServer
import Testing

/// The framing rules as pure functions, without a socket (RFC 9110, RFC 9112). The same rules
/// are exercised through a live server in HTTPServerTests and the ContrastAPI framing tests.
@Suite struct RequestFramingTests {
    /// The census of `fields` as libmicrohttpd would hand them over.
    func census(_ fields: [(String, String)]) -> HeaderCensus {
        var census = HeaderCensus()
        for (name, value) in fields {
            name.withCString { n in
                value.withCString { v in
                    census.add(name: n, nameCount: name.utf8.count, value: v, valueCount: value.utf8.count)
                }
            }
        }
        return census
    }

    func refusal(_ fields: [(String, String)], version: String = "HTTP/1.1", maxHeaderBytes: Int = 8192) -> HTTPProblem? {
        version.withCString { framingRefusal(census(fields), version: $0, maxHeaderBytes: maxHeaderBytes) }
    }

    @Test func acceptableRequestsPass() {
        #expect(refusal([("Host", "example.com")]) == nil)
        #expect(refusal([("Host", "[::1]:8080"), ("Content-Length", "3"), ("Content-Type", "application/json")]) == nil)
        #expect(refusal([("Host", "x"), ("Transfer-Encoding", "chunked")]) == nil)
        #expect(refusal([], version: "HTTP/1.0") == nil)  // HTTP/1.0 needs no Host
        #expect(refusal([("Host", "x"), ("Content-Encoding", "gzip")]) == nil)  // no body: nothing to decode
        #expect(refusal([("Host", "x"), ("Content-Length", "2"), ("Content-Encoding", " identity ")]) == nil)
    }

    @Test func hostMustBeExactlyOneHostAndPort() throws {
        #expect(try #require(refusal([])).detail.contains("exactly one Host"))
        #expect(try #require(refusal([("Host", "a"), ("host", "b")])).status == 400)
        for bad in ["localhost:abc", "a:80:80", "[::1", ":80", "user@host", "a b", "h:123456"] {
            let problem = try #require(refusal([("Host", bad)]), "\(bad)")
            #expect(problem.status == 400 && problem.kind == "malformed-request" && problem.detail.contains("not a host"))
        }
        for good in ["localhost", "localhost:8080", "127.0.0.1:1", "[::1]", "[2001:db8::1]:443", " example.com "] {
            #expect(refusal([("Host", good)]) == nil, "\(good)")
        }
    }

    @Test func ambiguousBodiesAreRefused() throws {
        #expect(try #require(refusal([("Host", "x"), ("Content-Length", "1"), ("content-length", "1")])).detail
            .contains("More than one Content-Length"))
        #expect(try #require(refusal([("Host", "x"), ("Content-Type", "a/b"), ("Content-Type", "a/b")])).detail
            .contains("More than one Content-Type"))
        #expect(try #require(refusal([("Host", "x"), ("Content-Length", "1"), ("Transfer-Encoding", "chunked")])).detail
            .contains("Content-Length together with Transfer-Encoding"))
        #expect(try #require(refusal([("Transfer-Encoding", "chunked")], version: "HTTP/1.0")).detail
            .contains("HTTP/1.0"))
        // libmicrohttpd reads only the exact value as chunked.
        #expect(try #require(refusal([("Host", "x"), ("Transfer-Encoding", "chunked ")])).detail.contains("exactly 'chunked'"))
        // Repeated lines are one list: gzip, then chunked, is not chunked alone.
        let gzip = try #require(refusal([("Host", "x"), ("Transfer-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]))
        #expect(gzip.status == 501 && gzip.kind == "not-implemented" && gzip.detail.contains("'gzip, chunked'"))
    }

    @Test func codedBodiesGet415WithAcceptEncoding() throws {
        let problem = try #require(refusal([("Host", "x"), ("Content-Length", "5"), ("Content-Encoding", "gzip")]))
        #expect(problem.status == 415 && problem.kind == "unsupported-media-type")
        #expect(problem.headers.count == 1 && problem.headers[0].name == "Accept-Encoding" && problem.headers[0].value == "identity")
    }

    @Test func badFieldsAndOversizedHeaders() throws {
        #expect(try #require(refusal([("Host", "x"), ("Bad Name", "1")])).detail.contains("field name"))
        #expect(try #require(refusal([("Host", "x"), ("", "1")])).detail.contains("field name"))
        #expect(try #require(refusal([("Host", "x"), ("X", "a\rb")])).detail.contains("NUL, CR or LF"))
        // "Host: x" counts 4 + 1 + 4 bytes (name, value, ": " and CRLF).
        #expect(census([("Host", "x")]).bytes == 9)
        let big = try #require(refusal([("Host", "x"), ("X-Big", String(repeating: "a", count: 100))], maxHeaderBytes: 50))
        #expect(big.status == 431 && big.limit == 50 && big.detail == "The header fields take 118 bytes; the limit is 50.")
    }

    @Test func censusKeepsFieldsTrimmedAndJoined() {
        let c = census([("Accept", " a "), ("accept", "b"), ("X-Empty", "")])
        #expect(c.fields["accept"] == "a, b")
        #expect(c.fields["x-empty"] == "")
        #expect(c.hosts == 0 && !c.badName && !c.badValue)
    }

    @Test func versionsContentLengthsAndTargets() {
        func http11(_ v: String) -> Bool { v.withCString { isHTTP11OrLater($0) } }
        #expect(http11("HTTP/1.1") && http11("HTTP/1.10") && !http11("HTTP/1.0") && !http11("HTTP/1.00") && !http11("HTTP/2"))
        #expect(!http11("HTTP/1.") && !http11("HTTP/1.1a"))
        func length(_ t: String) -> Int? { t.withCString { parseContentLength($0) } }
        #expect(length("0") == 0 && length("123") == 123 && length("") == nil && length("-1") == nil && length("1 ") == nil)
        #expect(length("99999999999999999999999") == Int.max)
        func split(_ url: String) -> (String, String)? {
            url.withCString { pointer in
                absoluteForm(pointer).map { (String(decoding: $0.authority, as: UTF8.self), String(cString: $0.path)) }
            }
        }
        #expect(split("http://a.example:8080/x?y") ?? ("", "") == ("a.example:8080", "/x?y"))
        #expect(split("HTTPS://h") ?? ("", "") == ("h", "/"))
        #expect(split("/x") == nil && split("ftp://h/x") == nil && split("http:/h") == nil)
        #expect("/a".withCString { String(cString: originPath($0)) } == "/a")
        #expect("http://h/b".withCString { String(cString: originPath($0)) } == "/b")
        #expect("*".withCString { String(cString: originPath($0)) } == "*")
    }
}
