import Foundation
import HTTPServer
import TestSupport
import Testing

/// Router behaviour without sockets.
@Suite struct RouterTests {
    private func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/hello") { _ in .text("hello") }
        router.add("POST", "/hello") { request in HTTPResponse(status: 201, body: request.body) }
        router.add("delete", "/items") { _ in HTTPResponse(status: 204) }
        router.add("GET", "/empty") { _ in HTTPResponse(status: 204) }
        return router
    }

    @Test func routesByMethodAndExactPath() {
        let router = makeRouter()
        let get = router.handle(HTTPRequest(method: "GET", path: "/hello"))
        #expect(get.status == 200)
        #expect(get.body == Array("hello".utf8))
        let post = router.handle(HTTPRequest(method: "POST", path: "/hello", body: [1, 2, 3]))
        #expect(post.status == 201)
        #expect(post.body == [1, 2, 3])
        #expect(router.handle(HTTPRequest(method: "DELETE", path: "/items")).status == 204)
        // Exact paths only: no trailing-slash or prefix matching.
        #expect(router.handle(HTTPRequest(method: "GET", path: "/hello/")).status == 404)
        #expect(router.handle(HTTPRequest(method: "GET", path: "/hell")).status == 404)
    }

    @Test func unknownPathIsNotFoundProblem() throws {
        let response = makeRouter().handle(HTTPRequest(method: "GET", path: "/nope"))
        #expect(response.status == 404)
        #expect(response.header("content-type") == "application/problem+json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["type"] as? String == "about:blank")
        #expect(json["title"] as? String == "Not Found")
        #expect(json["status"] as? Int == 404)
        #expect((json["detail"] as? String)?.contains("/nope") == true)
    }

    @Test func wrongMethodIsMethodNotAllowedWithAllow() throws {
        let response = makeRouter().handle(HTTPRequest(method: "PUT", path: "/hello"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST, OPTIONS")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["status"] as? Int == 405)
        #expect(json["title"] as? String == "Method Not Allowed")
        // Methods are case-sensitive on the wire: "get" is no method this server knows, so 501
        // (RFC 9110 §9.1), as any unknown method, while a known one a route lacks is 405.
        #expect(makeRouter().handle(HTTPRequest(method: "get", path: "/hello")).status == 501)
        #expect(makeRouter().handle(HTTPRequest(method: "BREW", path: "/nowhere")).status == 501)
        #expect(makeRouter().handle(HTTPRequest(method: "DELETE", path: "/hello")).status == 405)
    }

    @Test func headIsGetWithoutBodyButWithLength() {
        let response = makeRouter().handle(HTTPRequest(method: "HEAD", path: "/hello"))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Length") == "5")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        // 204 must not state a length.
        let empty = makeRouter().handle(HTTPRequest(method: "HEAD", path: "/empty"))
        #expect(empty.status == 204)
        #expect(empty.header("Content-Length") == nil)
        // HEAD on a path without GET is 405.
        #expect(makeRouter().handle(HTTPRequest(method: "HEAD", path: "/items")).status == 405)
    }

    @Test func optionsAnswersAllow() {
        let response = makeRouter().handle(HTTPRequest(method: "OPTIONS", path: "/items"))
        #expect(response.status == 204)
        #expect(response.header("Allow") == "DELETE, OPTIONS")
        #expect(response.body.isEmpty)
    }

    @Test func fallbackTakesUnroutedPathsAndHeadLosesBody() {
        var router = makeRouter()
        router.setFallback { request in .text("fallback \(request.path)") }
        let get = router.handle(HTTPRequest(method: "GET", path: "/x/y"))
        #expect(get.status == 200)
        #expect(String(decoding: get.body, as: UTF8.self) == "fallback /x/y")
        let head = router.handle(HTTPRequest(method: "HEAD", path: "/x/y"))
        #expect(head.body.isEmpty)
        #expect(head.header("content-length") == "13")
        // Routed paths never reach the fallback.
        #expect(router.handle(HTTPRequest(method: "PUT", path: "/hello")).status == 405)
    }

    @Test func laterRegistrationReplacesEarlier() {
        var router = Router()
        router.add("GET", "/a") { _ in .text("one") }
        router.add("GET", "/a") { _ in .text("two") }
        #expect(router.handle(HTTPRequest(method: "GET", path: "/a")).body == Array("two".utf8))
        #expect(router.allowedMethods(for: "/a") == "GET, HEAD, OPTIONS")
        #expect(router.allowedMethods(for: "/b") == nil)
    }
}

@Suite struct RequestResponseTests {
    @Test func queryValueAndHeaderLookup() {
        let request = HTTPRequest(
            method: "GET",
            path: "/",
            query: [("a", "1"), ("flag", nil), ("a", "2")],
            headers: ["Content-Type": "application/json", "X-Thing": "v"]
        )
        #expect(request.queryValue("a") == "1")
        #expect(request.queryValue("flag") == "")
        #expect(request.queryValue("missing") == nil)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.header("CONTENT-TYPE") == "application/json")
        #expect(request.header("x-thing") == "v")
        #expect(request.header("absent") == nil)
    }

    @Test func problemBodyEscapesJSONStrings() throws {
        let nasty = "quote\" backslash\\ newline\n tab\t nul\u{0} bell\u{7} é 🎨 </script>"
        let response = HTTPResponse.problem(
            status: 422,
            title: "Unprocessable",
            detail: nasty,
            type: "https://example.com/probs/x",
            extra: [("field", "fg\"x"), ("status", "ignored"), ("field", "duplicate ignored")]
        )
        #expect(response.status == 422)
        #expect(response.header("Content-Type") == "application/problem+json")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"https://example.com/probs/x","title":"Unprocessable","status":422,"detail":"#))
        #expect(text.contains(#"\u0000"#) && text.contains(#"\u0007"#) && text.contains(#"\n"#))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["detail"] as? String == nasty)
        #expect(json["field"] as? String == "fg\"x")
        #expect(json["status"] as? Int == 422)
        #expect(json.count == 5)
    }
}
