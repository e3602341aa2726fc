import Foundation
import Synchronization
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Lets a test hold a request inside the `/slow` handler: the handler signals `entered`, then
/// waits for `release` (at most 60 s, so a failing test cannot hang the run).
private final class HandlerGate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = Atomic<Bool>(false)
    /// Whether `finished` was already true when `stop()` returned.
    let finishedWhenStopReturned = Atomic<Bool>(false)
}

/// A small application used by the live-server tests.
private func testRouter(gate: HandlerGate = HandlerGate()) -> Router {
    var router = Router()
    router.add("GET", "/query") { request in
        let pairs = request.query.map { "\($0.name)=\($0.value ?? "<nil>")" }.joined(separator: "&")
        return .text("\(request.path)|\(pairs)|first a=\(request.queryValue("a") ?? "<absent>")"
                     + (request.malformedQueryParameter.map { "|malformed \($0)" } ?? ""))
    }
    router.add("POST", "/echo") { request in
        HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", request.header("Content-Type") ?? "application/octet-stream"),
                ("X-Remote", request.remoteAddress ?? "?"),
                ("X-Custom", request.header("x-custom") ?? "?"),
                ("X-Body-Length", String(request.body.count)),
            ],
            body: request.body
        )
    }
    router.add("GET", "/hello") { _ in .text("hello") }
    router.add("GET", "/slow") { _ in
        gate.entered.signal()
        _ = gate.release.wait(timeout: .now() + 60)
        gate.finished.store(true, ordering: .sequentiallyConsistent)
        return .text("slow done")
    }
    return router
}

@Suite struct HTTPServerTests {
    @Test func getWithQuery() throws {
        try withServer(handler: testRouter().handler) { server in
            let response = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/query?a=1&flag&b=x%20y&a=2&empty="))
            #expect(response.status == 200)
            #expect(response.text == "/query|a=1&flag=<nil>&b=x y&a=2&empty=|first a=1")
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(response.header("Date") != nil)

            // %00 is not decoded (a NUL would silently cut the value, or path, short) and, like a
            // malformed escape or bytes that are not UTF-8, shows as U+FFFD and names the argument
            // (a stray '%' reached the color parser: hostile test).
            let nul = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/query?a=x%00y&b=%41"))
            #expect(nul.text == "/query|a=x\u{FFFD}00y&b=A|first a=x\u{FFFD}00y|malformed a")
            let cases: [(String, String)] = [
                ("/query?a=1&b=%ZZ", "|malformed b"), ("/query?a=1&b=%2", "|malformed b"), ("/query?b=%C3%28", "|malformed b"),
                ("/query?a=%25ZZ&b=caf%C3%A9", ""),
                // A malformed name is named as sent, percent-encoded, not with U+FFFD (which a
                // client cannot match; hostile test: fore%ZZground).
                ("/query?x%G1=1", "|malformed x%G1"), ("/query?fore%ZZground=1", "|malformed fore%ZZground"),
                ("/query?n%00=1", "|malformed n%00"), ("/query?caf%C3=1", "|malformed caf%C3"),
                ("/query?caf%C3%A9%=1", "|malformed caf%C3%A9%"), ("/query?%25%ZZ=1", "|malformed %25%ZZ"),
            ]
            for (target, suffix) in cases {
                let reply = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", target))
                #expect(reply.text.hasSuffix("|first a=" + (target.contains("a=1") ? "1" : target.contains("a=%25") ? "%ZZ" : "<absent>") + suffix),
                        "\(target): \(reply.text)")
            }
            // A malformed escape in the path is U+FFFD there too: it never matches a route by accident.
            let path = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/quer%ZZy"))
            #expect(path.status == 404)
        }
    }

    /// The percent-encoding of a malformed query name, byte by byte: the marker byte 0xFF of a
    /// `%` that started no valid escape is `%` again; a decoded `%FF` before two hex digits is not.
    @Test func percentEncodedQueryNames() {
        func encoded(_ bytes: [UInt8]) -> String { HTTPRequest.percentEncodedQueryName(bytes) }
        #expect(encoded(Array("fore".utf8) + [0xFF] + Array("ZZground".utf8)) == "fore%ZZground")
        #expect(encoded([0xFF, 0x30, 0x30]) == "%00")
        #expect(encoded([0xFF]) == "%")
        #expect(encoded([0xFF, 0x34, 0x31]) == "%FF41")
        #expect(encoded([0x63, 0xC3, 0xA9, 0xC3]) == "c%C3%A9%C3")
        #expect(encoded(Array("a b%&=#+\u{7F}\n".utf8)) == "a%20b%25%26%3D%23%2B%7F%0A")
    }

    @Test func postBodyEchoWithHeadersAndRemoteAddress() throws {
        try withServer(handler: testRouter().handler) { server in
            let json = ##"{"fg":"#000","bg":"#fff","text":"ünï"}"##
            let response = try RawHTTP.exchange(port: server.port, RawHTTP.request(
                "POST", "/echo", headers: ["Content-Type: application/json", "X-CUSTOM: yes"], body: json))
            #expect(response.status == 200)
            #expect(response.text == json)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("X-Custom") == "yes")
            // A repeated field arrives joined with ", " in order (RFC 9110 §5.3), whatever its case.
            let repeated = try RawHTTP.exchange(port: server.port, RawHTTP.request(
                "POST", "/echo", headers: ["X-Custom: one", "x-custom: two", "X-CUSTOM: three"], body: "{}"))
            #expect(repeated.header("X-Custom") == "one, two, three")
            #expect(response.header("X-Remote") == "127.0.0.1")

            // Chunked upload under the limit is assembled.
            let chunked = "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            let assembled = try RawHTTP.exchange(port: server.port, chunked)
            #expect(assembled.status == 200)
            #expect(assembled.text == "hello world")
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try withServer(handler: testRouter().handler) { server in
            let connection = try RawHTTPConnection(port: server.port)
            for index in 0..<3 {
                let body = "body \(index)"
                connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == body)
            }
        }
    }

    @Test func notFoundAndMethodNotAllowedAreProblemJSON() throws {
        try withServer(handler: testRouter().handler) { server in
            let missing = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/missing"))
            #expect(missing.status == 404)
            #expect(missing.header("Content-Type") == "application/problem+json")
            let notFound = try #require(missing.jsonObject)
            #expect(notFound["status"] as? Int == 404)
            #expect(notFound["title"] as? String == "Not Found")
            #expect(notFound["type"] as? String == "about:blank")
            #expect(notFound["detail"] is String)

            let wrong = try RawHTTP.exchange(port: server.port, RawHTTP.request("DELETE", "/echo"))
            #expect(wrong.status == 405)
            #expect(wrong.header("Allow") == "POST, OPTIONS")
            #expect(wrong.header("Content-Type") == "application/problem+json")
            #expect(try #require(wrong.jsonObject)["status"] as? Int == 405)

            let options = try RawHTTP.exchange(port: server.port, RawHTTP.request("OPTIONS", "/hello"))
            #expect(options.status == 204)
            #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test func headHasLengthButNoBody() throws {
        try withServer(handler: testRouter().handler) { server in
            // Read to EOF without HEAD-aware parsing: any body bytes would show up here.
            let connection = try RawHTTPConnection(port: server.port)
            connection.send(RawHTTP.request("HEAD", "/hello"))
            let raw = connection.readToEnd()
            let response = try RawHTTP.parse(raw, isHead: false, requireComplete: false)
            #expect(response.status == 200)
            #expect(response.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value) == ["5"])
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(response.body.isEmpty)

            // Framing stays right on a keep-alive connection: HEAD, then GET.
            let keepAlive = try RawHTTPConnection(port: server.port)
            keepAlive.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let raw2 = String(decoding: keepAlive.readToEnd(), as: UTF8.self)
            let responses = raw2.components(separatedBy: "HTTP/1.1 200 OK")
            #expect(responses.count == 3, "\(raw2)")
            #expect(raw2.hasSuffix("\r\n\r\nhello"))
        }
    }

    /// 413 arrives from the declared length alone: the body is never sent.
    @Test func declaredOversizedBodyIsRefusedBeforeReading() throws {
        try withServer({ $0.maxBodyBytes = 1_000 }, handler: testRouter().handler) { server in
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n")
            let response = try RawHTTP.parse(connection.readToEnd(), isHead: false, requireComplete: false)
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            let json = try #require(response.jsonObject)
            #expect(json["status"] as? Int == 413)
            #expect(json["limit"] as? String == "1000")

            // At the limit is fine.
            let exact = String(repeating: "x", count: 1_000)
            let ok = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/echo", body: exact))
            #expect(ok.status == 200)
            #expect(ok.text.count == 1_000)

            let invalid = try RawHTTP.exchange(port: server.port,
                "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: -5\r\n\r\n")
            #expect(invalid.status == 400)
        }
    }

    /// A chunked upload has no declared length: it is read, dropped past the cap, then refused.
    @Test func oversizedChunkedBodyIsRefused() throws {
        try withServer({ $0.maxBodyBytes = 1_000 }, handler: testRouter().handler) { server in
            var request = "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = String(repeating: "y", count: 300)
            for _ in 0..<10 {
                request += "12c\r\n\(chunk)\r\n"
            }
            request += "0\r\n\r\n"
            let response = try RawHTTP.exchange(port: server.port, request)
            #expect(response.status == 413)
            #expect(try #require(response.jsonObject)["status"] as? Int == 413)
            #expect(!response.text.contains(chunk))
        }
    }

    @Test func twoServersOnPortZeroGetDifferentPorts() throws {
        try withServer(handler: testRouter().handler) { first in
            try withServer(handler: testRouter().handler) { second in
                #expect(first.port > 0)
                #expect(second.port > 0)
                #expect(first.port != second.port)
                let fromFirst = try RawHTTP.exchange(port: first.port, RawHTTP.request("GET", "/hello"))
                let fromSecond = try RawHTTP.exchange(port: second.port, RawHTTP.request("GET", "/hello"))
                #expect(fromFirst.text == "hello")
                #expect(fromSecond.text == "hello")
            }
        }
    }

    @Test func portInUseAndBadHostFailClearly() throws {
        try withServer(handler: testRouter().handler) { running in
            var configuration = ServerConfiguration()
            configuration.port = running.port
            let clash = HTTPServer(configuration: configuration, handler: testRouter().handler)
            do throws(HTTPServerError) {
                try clash.start()
                Issue.record("second bind to \(running.port) should fail")
            } catch {
                guard case .startFailed(let message) = error else {
                    Issue.record("expected startFailed, got \(error)")
                    return
                }
                #expect(message.contains(String(running.port)))
                #expect(message.lowercased().contains("in use"), "message: \(message)")
            }
        }
        var bad = ServerConfiguration()
        bad.host = "example.com"
        bad.port = 0
        #expect(throws: HTTPServerError.self) { try HTTPServer(configuration: bad, handler: testRouter().handler).start() }
        do throws(HTTPServerError) {
            try HTTPServer(configuration: bad, handler: testRouter().handler).start()
        } catch {
            guard case .invalidHost("example.com") = error else {
                Issue.record("expected invalidHost, got \(error)")
                return
            }
            #expect(error.description.contains("example.com"))
        }
    }

    /// Whether this machine has an IPv6 loopback: a socket can be bound to [::1]:0. (Some
    /// containers run with IPv6 disabled; only there is the dual-stack test skipped, by name.)
    static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    @Test(.enabled(if: hasIPv6Loopback, "platform limit: this machine has no IPv6 loopback (::1 cannot be bound)"))
    func ipv6LoopbackAndDualStack() throws {
        var configuration = ServerConfiguration()
        configuration.host = "::"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, handler: testRouter().handler)
        // The machine has ::1, so a server on "::" must start.
        try server.start()
        defer { server.stop() }
        // IPv4 clients reach a "::" server; their address is reported in IPv4 form.
        let v4 = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/echo", body: "v4"))
        #expect(v4.text == "v4")
        #expect(v4.header("X-Remote") == "127.0.0.1")
        let connection = try RawHTTPConnection(port: server.port, host: "::1")
        connection.send(RawHTTP.request("POST", "/echo", body: "v6"))
        let v6 = try RawHTTP.parse(connection.readToEnd(), isHead: false, requireComplete: false)
        #expect(v6.status == 200)
        #expect(v6.header("X-Remote") == "::1")
    }

    @Test func oversizedHeadersAreRefusedByMHD() throws {
        try withServer({ $0.connectionMemoryLimitBytes = 8_192 }, handler: testRouter().handler) { server in
            let huge = String(repeating: "a", count: 16_000)
            let response = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello", headers: ["X-Huge: \(huge)"]))
            #expect(response.status == 431)
            let fine = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello"))
            #expect(fine.text == "hello")
        }
    }

    /// stop() lets a request in progress finish, then refuses new connections; twice is harmless.
    @Test func stopIsGracefulAndIdempotent() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.shutdownGracePeriodSeconds = 60
        let gate = HandlerGate()
        let server = HTTPServer(configuration: configuration, handler: testRouter(gate: gate).handler)
        try server.start()
        #expect(server.isRunning)
        let port = server.port

        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var slowResult: Result<RawResponse, Error>?
        Thread.detachNewThread {
            slowResult = Result { try RawHTTP.exchange(port: port, RawHTTP.request("GET", "/slow"), timeoutSeconds: 60) }
            done.signal()
        }
        // The handler says when the request is inside it (no guessing with a sleep).
        #expect(gate.entered.wait(timeout: .now() + 30) == .success, "the request never reached the handler")
        let stopCalled = DispatchSemaphore(value: 0), stopReturned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            stopCalled.signal()
            server.stop()
            gate.finishedWhenStopReturned.store(gate.finished.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            stopReturned.signal()
        }
        stopCalled.wait()
        gate.release.signal()   // the request in progress may finish now
        // stop() returns once the request has finished, long before the 60 s grace period.
        #expect(stopReturned.wait(timeout: .now() + 30) == .success, "stop waited out the grace period")
        let finishedFirst = gate.finishedWhenStopReturned.load(ordering: .sequentiallyConsistent)
        #expect(finishedFirst, "stop returned before the request finished")
        #expect(done.wait(timeout: .now() + 30) == .success)
        let slow = try #require(try slowResult?.get())
        #expect(slow.status == 200)
        #expect(slow.text == "slow done")
        #expect(!server.isRunning)

        server.stop()   // idempotent
        #expect(throws: (any Error).self) { try RawHTTPConnection(port: port) }
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    /// stop() under a stream of new connections, on a pool of two epoll threads: with
    /// `MHD_quiesce_daemon` (libmicrohttpd 0.9.75) a thread removing the listening socket from its
    /// epoll set while stop() removed it too aborted the process (a CI run, 2026-12-06). Stopped
    /// 600 times while six clients connect in a loop (with quiesce, five runs in six of this test
    /// aborted, at daemon.c:5531 or :4940); connections made while it drains are closed (or
    /// answered), never left hanging, and the process lives.
    @Test func stopUnderNewConnectionsDoesNotAbort() throws {
        for _ in 0..<600 {
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.threads = 2
            configuration.shutdownGracePeriodSeconds = 5
            let server = HTTPServer(configuration: configuration, handler: testRouter().handler)
            try server.start()
            let port = server.port
            let running = Atomic<Bool>(true)
            let finished = DispatchSemaphore(value: 0)
            for _ in 0..<6 {
                Thread.detachNewThread {
                    while running.load(ordering: .relaxed) {
                        _ = try? RawHTTP.exchange(port: port, RawHTTP.request("GET", "/hello"), timeoutSeconds: 5)
                    }
                    finished.signal()
                }
            }
            usleep(1_000)
            server.stop()
            running.store(false, ordering: .relaxed)
            for _ in 0..<6 { #expect(finished.wait(timeout: .now() + 30) == .success, "a client hung after stop") }
            #expect(!server.isRunning)
        }
    }

    /// A client that vanishes mid-body must not leave a request "in progress": stop() would
    /// then wait out the whole grace period.
    @Test func abandonedUploadIsCleanedUp() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.shutdownGracePeriodSeconds = 60
        let server = HTTPServer(configuration: configuration, handler: testRouter().handler)
        try server.start()
        do {
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nonly-a-little")
            // The upload is under way once the server counts the request in progress.
            withExtendedLifetime(connection) {
                #expect(waitUntil { server.statistics.requestsInProgress == 1 }, "the request never showed as in progress")
            }
        }   // connection closed here
        // The vanished client's request is no longer in progress, and its connection is gone.
        #expect(waitUntil { server.statistics.openConnections == 0 && server.statistics.requestsInProgress == 0 },
                "open \(server.statistics.openConnections), in progress \(server.statistics.requestsInProgress)")
        let stillServing = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/hello"))
        #expect(stillServing.text == "hello")
        // Nothing is left in progress, so stop() does not wait out the 60 s grace period.
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func stopBeforeStartAndConcurrentStops() throws {
        let never = HTTPServer(configuration: ServerConfiguration(), handler: testRouter().handler)
        never.stop()
        never.stop()
        #expect(never.port == 0)

        try withServer(handler: testRouter().handler) { server in
            let group = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) { server.stop() }
            }
            #expect(group.wait(timeout: .now() + 10) == .success)
            #expect(!server.isRunning)
        }
    }

    @Test func manyConcurrentRequests() throws {
        try withServer(handler: testRouter().handler) { server in
            let port = server.port
            let failures = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 64) { index in
                let body = "request-\(index)"
                let response = try? RawHTTP.exchange(port: port, RawHTTP.request("POST", "/echo", body: body))
                if response?.text != body {
                    failures.withLock { $0 += 1 }
                }
            }
            #expect(failures.withLock { $0 } == 0)
        }
    }
}
