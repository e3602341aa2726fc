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

/// Connection limits and request deadlines answered as problem details with the service's headers. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct ConnectionLimitTests {
    @Test func connectionLimitsAreProblemDetailsWithTheServiceHeaders() throws {
        let live = try ProductionServer { $0.perIPConnectionLimit = 1 }
        let held = try RawHTTPConnection(port: live.port)
        held.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(!held.receiveSome().isEmpty)
        let refused = try live.request("GET", "/v1/system-colors?name=label", headers: ["X-Request-ID": "over-limit"])
        expectProblem(refused.reply, 429)
        #expect(refused.json["type"] == "/problems/too-many-connections" && refused.json["limit"] == 1)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.header("X-Request-ID") == "over-limit")
        #expect(refused.header("Content-Security-Policy") != nil)
        #expect(refused.header("Cache-Control") == "no-store")
        let metrics = live.service.metrics.render()
        #expect(metrics.contains(#"contrast_http_rejected_total{reason="too_many_connections_from_client"} 1"#))
        // A health probe over the limit is answered all the same, then the connection closed
        // (an operator's pass: a kubelet sharing the clients' address failed liveness).
        let probe = try live.request("GET", "/healthz")
        #expect(probe.status == 200 && probe.header("Connection") == "close", "\(probe.statusLine)")
        _ = held
    }

    /// More connections than `connectionLimit`: the service's own 503 `server-busy` problem,
    /// with `Retry-After` and the service's headers (issue 21: the kind had no test).
    @Test func overTheConnectionLimitIsServerBusy() throws {
        let live = try ProductionServer { $0.connectionLimit = 1 }
        let held = try RawHTTPConnection(port: live.port)
        held.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try held.readResponse().status == 200)   // kept alive: the one connection allowed
        let busy = try live.request("GET", "/openapi.json", headers: ["X-Request-ID": "busy-1"])
        let problem = expectProblem(busy.reply, 503, kind: "server-busy")
        #expect(problem["limit"] == 1, "\(busy.text)")
        #expect(busy.header("Retry-After") != nil)
        #expect(busy.header("X-Request-ID") == "busy-1")
        #expect(busy.header("Content-Security-Policy") != nil)
        #expect(waitUntil { live.service.metrics.render().contains(#"contrast_http_rejected_total{reason="too_many_connections"} 1"#) },
                "\(live.service.metrics.render().split(separator: "\n").filter { $0.contains("rejected") })")
        // Liveness is not refused for being busy (an operator's pass: `/healthz` was 503 with the
        // connections full, so a kubelet would restart the busiest pod): GET and HEAD of it are
        // answered, and the connection closed; another route on the same path's neighbor is not.
        for method in ["GET", "HEAD"] {
            let probe = try live.request(method, "/healthz", headers: ["X-Request-ID": "probe"])
            #expect(probe.status == 200 && probe.header("Connection") == "close" && probe.header("X-Request-ID") == "probe", "\(method): \(probe.statusLine)")
        }
        #expect(try live.request("POST", "/healthz").status == 503)
        #expect(try live.request("GET", "/healthz/").status == 503)
        _ = held
    }

    /// A client sending headers one byte at a time is cut off by `requestTimeoutSeconds`
    /// while other clients are served; the metrics count it.
    @Test func slowlorisAgainstTheService() throws {
        let live = try ProductionServer { $0.requestTimeoutSeconds = 1; $0.threads = 1 }
        let slow = try RawHTTPConnection(port: live.port)
        // 2 000 bytes at one per 100 ms would take minutes: only the 1 s request deadline can
        // end it within the loop's generous 60 s.
        let request = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "s", count: 2000))\r\n\r\n".utf8)
        let started = Date()
        var index = 0
        func timedOut() -> Bool { live.server.statistics.requestsTimedOut > 0 }
        while index < request.count && !timedOut() && Date().timeIntervalSince(started) < 60 {
            if !slow.send([request[index]]) { break }
            index += 1
            if index % 8 == 0 {
                #expect(try live.request("GET", "/healthz").status == 200)
            }
            usleep(100_000)   // the slow client's pace, not a wait for anything
        }
        #expect(index < request.count)
        #expect(slow.readToEnd().isEmpty)
        #expect(waitUntil { live.service.metrics.render().contains(#"contrast_http_rejected_total{reason="request_timeout"} 1"#) },
                "not cut off by the request deadline after \(Date().timeIntervalSince(started)) s")
    }
}
