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

/// Strong ETags, 304 revalidation and entity-tag conditions. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct CachingTests {
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
        // Values from an independent Python model of the definition in `EntityTag.strong`
        // (empty, one tail byte, one whole word, word + tail, a real answer).
        #expect(EntityTag.strong([]) == "\"0-4f43b61ebe0f3fa7\"")
        #expect(EntityTag.strong(Array("a".utf8)) == "\"1-5d5e9d8d68a1d9d2\"")
        #expect(EntityTag.strong(Array("abcdefgh".utf8)) == "\"8-edaee32d218af023\"")
        #expect(EntityTag.strong(Array("abcdefghi".utf8)) == "\"9-f9fd90644f029086\"")
        #expect(EntityTag.strong(Array(#"{"status":"ok","version":"0.1.0"}"#.utf8)) == "\"21-8aa1a7a9a09169a0\"")
        #expect(EntityTag.ifNoneMatch("\"x\"", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch(" W/\"x\" ", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch("\"a\", \"x\"", matches: "W/\"x\""))
        // `*` only on its own (RFC 9110 §13.1.2); in a list the field is invalid (hostile test).
        #expect(EntityTag.ifNoneMatch(" * ", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"y\", *", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"x\", *", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"xy\"", matches: "\"x\""))
    }
}
