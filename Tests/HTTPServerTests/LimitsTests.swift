import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

private func limitsRouter() -> Router {
    var router = Router()
    router.add("GET", "/hello") { _ in .text("hello") }
    router.add("POST", "/echo") { request in .text(String(decoding: request.body, as: UTF8.self)) }
    return router
}

/// Connection limits, request deadlines (slowloris), the rejection hook and statistics.
@Suite(.serialized) struct LimitsTests {
    /// A client sending its headers one byte at a time holds neither a worker nor other
    /// clients up, and is cut off once `requestTimeoutSeconds` has passed, although it never
    /// stays idle long enough for the idle timeout.
    @Test func slowlorisIsCutOffAndDoesNotBlockOthers() throws {
        try withServer({
            $0.threads = 1   // one worker: a held worker would block everyone
            $0.connectionTimeoutSeconds = 30
            $0.requestTimeoutSeconds = 2
        }, handler: limitsRouter().handler) { server in
            let slow = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
            // 2 000 bytes at one per 100 ms would take over 3 minutes: only the 2 s request deadline
            // can end it within the loop's generous 60 s (the 30 s idle timeout never fires while
            // bytes keep coming).
            let request = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "a", count: 2000))\r\n\r\n".utf8)
            let started = Date()
            var sent = 0
            var cutOff = false
            var servedWhileSlowWasOpen = 0
            while sent < request.count && Date().timeIntervalSince(started) < 60 && server.statistics.requestsTimedOut == 0 {
                guard slow.send([request[sent]]) else { cutOff = true; break }
                sent += 1
                // Meanwhile other clients are served, without waiting for the slow one to be cut
                // off: with one worker, a held worker would serve them only after the deadline.
                if sent % 10 == 0 {
                    let other = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello"))
                    #expect(other.text == "hello")
                    if server.statistics.requestsTimedOut == 0 { servedWhileSlowWasOpen += 1 }
                }
                usleep(100_000)   // the slow client's pace, not a wait for anything
            }
            // Either a send failed, or the server closed the connection without answering.
            let rest = cutOff ? [] : slow.readToEnd()
            let elapsed = Date().timeIntervalSince(started)
            #expect(sent < request.count, "the whole slow request was accepted")
            #expect(rest.isEmpty, "the slow request was answered: \(String(decoding: rest, as: UTF8.self))")
            #expect(waitUntil { server.statistics.requestsTimedOut >= 1 }, "not cut off by the request deadline (after \(elapsed) s)")
            #expect(servedWhileSlowWasOpen >= 1, "no other client was served while the slow one was open")
        }
    }

    /// A body trickling in slower than the deadline is cut off as well (slow POST).
    @Test func slowBodyIsCutOff() throws {
        try withServer({ $0.requestTimeoutSeconds = 1 }, handler: limitsRouter().handler) { server in
            let slow = try RawHTTPConnection(port: server.port, timeoutSeconds: 10)
            // 100 000 bytes at one per 100 ms never complete: only the 1 s deadline ends the upload.
            slow.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            let started = Date()
            var closed = false
            while !closed && server.statistics.requestsTimedOut == 0 && Date().timeIntervalSince(started) < 60 {
                if !slow.send("a") { closed = true }
                usleep(100_000)   // the slow client's pace, not a wait for anything
            }
            #expect(waitUntil { server.statistics.requestsTimedOut >= 1 }, "the slow body was not cut off by the deadline")
            let rest = slow.readToEnd()
            #expect(closed || rest.isEmpty)
        }
    }

    /// A kept-alive connection is not cut off while its requests arrive quickly, even when it
    /// lives longer than the deadline in total.
    @Test func keepAliveClientsUnderTheDeadlineAreServed() throws {
        try withServer({ $0.requestTimeoutSeconds = 1 }, handler: limitsRouter().handler) { server in
            let connection = try RawHTTPConnection(port: server.port)
            for _ in 0..<6 {
                connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().text == "hello")
                usleep(400_000)   // 2.4 s in all, each wait under the deadline
            }
        }
    }

    @Test func overTheConnectionLimitIsAnswered503() throws {
        let seen = Mutex<[Int]>([])
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.connectionLimit = 2
        let server = HTTPServer(configuration: configuration, handler: limitsRouter().handler) { request, response in
            seen.withLock { $0.append(response.status) }
            var response = response
            response.headers.append(("X-Seen-By", "rejection-handler \(request.path)"))
            return response
        }
        try server.start()
        defer { server.stop() }
        let held = try (0..<2).map { _ in try RawHTTPConnection(port: server.port) }
        for connection in held {   // both are served
            connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "hello")
        }
        let third = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello"))
        #expect(third.status == 503)
        #expect(third.header("Content-Type") == "application/problem+json")
        #expect(third.header("Retry-After") == "1")
        #expect(third.header("X-Seen-By") == "rejection-handler /hello")
        #expect(third.jsonObject?["limit"] as? String == "2")
        #expect(seen.withLock { $0 } == [503])
        #expect(server.statistics.connectionsRefused == 1)
        // The refused connection is closed by the server right after its answer.
        #expect(waitUntil { server.statistics.openConnections == 2 }, "open: \(server.statistics.openConnections)")
        _ = held
    }

    @Test func overThePerIPLimitIsAnswered429() throws {
        try withServer({ $0.perIPConnectionLimit = 1 }, handler: limitsRouter().handler) { server in
            let first = try RawHTTPConnection(port: server.port)
            first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try first.readResponse().text == "hello")
            let second = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello"))
            #expect(second.status == 429)
            #expect(second.header("Content-Type") == "application/problem+json")
            #expect(second.header("Connection")?.lowercased() == "close")
            // Once the first connection is gone, the client is served again.
            first.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _ = first.readToEnd()
            #expect(waitUntil { server.statistics.openConnections == 0 }, "the first connection is still counted")
            #expect(try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello")).text == "hello")
        }
    }

    /// 413 and the bad-length 400 pass through the rejection handler too.
    @Test func rejectionHandlerSeesEarlyAnswers() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.maxBodyBytes = 10
        let server = HTTPServer(configuration: configuration, handler: limitsRouter().handler) { request, response in
            var response = response
            response.headers.append(("X-Request-Header", request.header("x-probe") ?? "-"))
            #expect(request.receivedAtNanoseconds > 0)
            return response
        }
        try server.start()
        defer { server.stop() }
        let big = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/echo", headers: ["X-Probe: p1"], body: String(repeating: "x", count: 50)))
        #expect(big.status == 413)
        #expect(big.header("X-Request-Header") == "p1")
        let chunked = "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Probe: p2\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "20\r\n" + String(repeating: "y", count: 32) + "\r\n0\r\n\r\n"
        let late = try RawHTTP.exchange(port: server.port, chunked)
        #expect(late.status == 413)
        #expect(late.header("X-Request-Header") == "p2")
        let bad = try RawHTTP.exchange(port: server.port, "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Probe: p3\r\nContent-Length: 1x\r\n\r\n")
        #expect(bad.status == 400)   // from libmicrohttpd itself, which checks the length first
    }

    /// A query of about 460 arguments filled libmicrohttpd's 32 KiB connection pool so that its
    /// own 431 could not be sent: the request hung until the request timeout (hostile test,
    /// stop 14). More than `maxQueryArguments` now get a 414 problem at once, on a connection
    /// the server then closes; up to the limit is served.
    @Test func tooManyQueryArgumentsAreAnswered414AtOnce() throws {
        var router = Router()
        router.add("GET", "/count") { request in .text(String(request.query.count)) }
        try withServer({ $0.requestTimeoutSeconds = 20 }, handler: router.handler) { server in
            func query(_ n: Int) -> String { (0..<n).map { "a\($0)=1" }.joined(separator: "&") }
            let limit = HTTPServer.maxQueryArguments
            let atLimit = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?" + query(limit)))
            #expect(atLimit.status == 200 && atLimit.text == String(limit))
            for n in [limit + 1, 470, 600, 2000] {
                let started = Date()
                let over = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?" + query(n)), timeoutSeconds: 60)
                #expect(over.status == 414, "\(n): \(over.statusLine)")
                #expect(over.header("Content-Type") == "application/problem+json")
                #expect(over.jsonObject?["limit"] as? String == String(limit))
                #expect((over.jsonObject?["detail"] as? String)?.contains("\(n) arguments") == true)
                // Answered at once, not when the 20 s request deadline cut the request off.
                #expect(server.statistics.requestsTimedOut == 0, "\(n) arguments waited for the deadline (\(Date().timeIntervalSince(started)) s)")
            }
            // Empty parts name nothing and do not count as arguments (a trailing `&` made 100
            // arguments 101): 100 arguments and 103 empty parts are 203 parts, within 256.
            let padded = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?" + query(limit) + "&&&" + String(repeating: "&", count: 100)))
            #expect(padded.status == 200 && padded.text == String(limit), "\(padded.statusLine)")
            // But every part costs libmicrohttpd pool memory: `?` and 504 `&` hung the request
            // without an answer until the deadline (hostile test). More than 256 parts get a 414.
            for empties in [256, 504, 5000] {
                let started = Date()
                let hollow = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?" + String(repeating: "&", count: empties)), timeoutSeconds: 60)
                #expect(hollow.status == 414, "\(empties): \(hollow.statusLine)")
                #expect(hollow.jsonObject?["limit"] as? String == String(HTTPServer.maxQueryParts))
                #expect(hollow.jsonObject?["detail"] as? String
                    == "The query has \(empties + 1) '&'-separated parts, empty ones included; at most 256 are accepted.")
                #expect(server.statistics.requestsTimedOut == 0, "\(empties) empty parts waited for the deadline (\(Date().timeIntervalSince(started)) s)")
            }
            let atPartLimit = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?a=1" + String(repeating: "&", count: 255)))
            #expect(atPartLimit.status == 200 && atPartLimit.text == "1", "\(atPartLimit.statusLine)")
            // A request target over 16 KiB (3000 arguments, 21 KB) is refused for its length.
            let long = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?" + query(3000)), timeoutSeconds: 60)
            #expect(long.status == 414 && (long.jsonObject?["detail"] as? String)?.contains("longer than 16384 bytes") == true, "\(long.statusLine)")
            // A POST with a body is refused the same way, and the server still answers.
            let post = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/count?" + query(500), body: "{}"))
            #expect(post.status == 414)
            #expect(try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?a=1")).text == "1")
        }
    }

    /// A hostile pass: request lines of about 24,100 to 24,550 bytes, just short of
    /// libmicrohttpd's own 414, left its 32 KiB pool no room for the header fields or an
    /// answer: closed unanswered, or (24,480 to 24,540) held until the connection timeout. A
    /// request target over `maxRequestTargetBytes` is answered 414 at once, on the socket.
    /// RFC 9110 §5.6.7's IMF-fixdate.
    static let imfFixdate: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f
    }()

    @Test func longRequestTargetsAreAnswered414AtOnce() throws {
        var router = Router()
        router.add("GET", "/count") { request in .text(String(request.query.count)) }
        try withServer({ $0.connectionTimeoutSeconds = 20; $0.requestTimeoutSeconds = 20 }, handler: router.handler) { server in
            let fits = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?a=" + String(repeating: "b", count: HTTPServer.maxRequestTargetBytes - 9)))
            #expect(fits.status == 200 && fits.text == "1", "\(fits.statusLine)")
            for n in [HTTPServer.maxRequestTargetBytes - 8, 20_000, 24_150, 24_450, 24_500, 24_540, 30_000] {
                let started = Date()
                let over = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?a=" + String(repeating: "b", count: n)), timeoutSeconds: 60)
                let elapsed = Date().timeIntervalSince(started)
                #expect(over.status == 414 && elapsed < 5, "\(n): \(over.statusLine) after \(elapsed) s")
                if n < 24_550 {
                    #expect(over.header("Content-Type") == "application/problem+json" && over.jsonObject?["limit"] as? String == String(HTTPServer.maxRequestTargetBytes),
                            "\(n): \(over.text.prefix(200))")
                    // RFC 9110 §6.6.1: a 4xx from an origin server with a clock carries `Date`,
                    // the time it was sent (written over a placeholder in the prepared answer).
                    let date = over.header("Date").flatMap { Self.imfFixdate.date(from: $0) }
                    #expect(date.map { abs($0.timeIntervalSince(started)) < 60 } == true, "\(n): Date \(over.header("Date") ?? "missing")")
                }
            }
            #expect(try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/count?a=1")).text == "1")
        }
    }

    @Test func statisticsCountConnectionsAndAbandonedRequests() throws {
        try withServer(handler: limitsRouter().handler) { server in
            #expect(server.statistics.openConnections == 0)
            do {
                let connection = try RawHTTPConnection(port: server.port)
                connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n")   // headers never finished
                withExtendedLifetime(connection) {
                    #expect(waitUntil { server.statistics.openConnections == 1 }, "open: \(server.statistics.openConnections)")
                }
            }
            #expect(waitUntil { server.statistics.openConnections == 0 && server.statistics.requestsAbandoned == 1 },
                    "open \(server.statistics.openConnections), abandoned \(server.statistics.requestsAbandoned)")
            #expect(server.statistics.openConnections == 0)
            #expect(server.statistics.requestsAbandoned == 1)
            #expect(server.statistics.requestsInProgress == 0)
        }
    }

    @Test func tlsNeedsBothCertificateAndKey() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.tlsCertificatePEM = "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n"
        let server = HTTPServer(configuration: configuration, handler: limitsRouter().handler)
        #expect(throws: HTTPServerError.self) { try server.start() }
        configuration.tlsPrivateKeyPEM = "not a key"
        let bad = HTTPServer(configuration: configuration, handler: limitsRouter().handler)
        #expect(throws: HTTPServerError.self) { try bad.start() }
    }
}
