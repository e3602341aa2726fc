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

/// SIGTERM with a request in flight. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct ShutdownTests {
    /// The harness itself (CI flake, stop 38): a grandchild holding the standard-error pipe's
    /// write end open kept `finalLog` waiting its whole 30 s limit for end of file after the
    /// process had exited. Here `sh` writes a line and leaves `sleep 20` holding the pipe.
    @Test func finalLogReturnsOnceTheExitedProcessesOutputIsReadEvenIfThePipeStaysOpen() throws {
        let server = try ServerProcess(executable: URL(fileURLWithPath: "/bin/sh"),
                                       arguments: ["-c", "echo written-before-exit >&2; sleep 20 & exit 0"])
        let started = Date()
        let log = server.finalLog()
        #expect(Date().timeIntervalSince(started) < 5, "finalLog waited for end of file")
        #expect(log == "written-before-exit\n")
    }

    /// SIGTERM while a request is in progress (headers in, body still arriving): the server
    /// stops accepting, answers the request when its body is complete, and exits 0.
    @Test func sigtermFinishesTheRequestInFlightThenExitsZero() throws {
        let server = try ServerProcess(environment: ["CONTRAST_SHUTDOWN_GRACE_PERIOD_SECONDS": "10", "CONTRAST_AUTH_TOKENS": token])
        let port = try server.waitForPort()
        let text = server.log
        // Lifecycle lines have the access log's shape: time, level, msg (hostile test, stop 14).
        let listening = try #require(text.split(separator: "\n").first { $0.contains("listening on") })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(listening.utf8)) as? [String: Any])
        #expect(fields["level"] as? String == "info" && (fields["msg"] as? String)?.hasPrefix("listening on") == true, "\(listening)")
        #expect((fields["time"] as? String)?.hasSuffix("Z") == true && fields["message"] == nil, "\(listening)")

        func inProgress() -> Int? {
            guard let metrics = try? RawHTTP.exchange(port: port, RawHTTP.request("GET", "/metrics", headers: ["Authorization: Bearer \(token)"])),
                let line = metrics.text.split(separator: "\n").first(where: { $0.hasPrefix("contrast_http_requests_in_progress ") })
            else { return nil }
            return Int(line.split(separator: " ")[1])
        }
        let body = ##"{"foreground": "#777777", "background": "#ffffff"}"##
        let connection = try RawHTTPConnection(port: port, timeoutSeconds: 30)
        let head = "POST /v1/contrast HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nX-Request-ID: in-flight-1\r\n\r\n"
        connection.send(head + body.prefix(10))
        // The headers are in once the server counts the request in progress (the scrape is the other one).
        #expect(waitUntil { (inProgress() ?? 0) >= 2 }, "the request never showed as in progress")
        kill(server.process.processIdentifier, SIGTERM)
        // No new connections are served once stopping: wait until a new request gets no 200.
        let refusing = waitUntil {
            guard let late = try? RawHTTPConnection(port: port, timeoutSeconds: 1) else { return true }
            late.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return !String(decoding: late.readToEnd(), as: UTF8.self).contains("200 OK")
        }
        #expect(refusing, "still serving new connections after SIGTERM")
        #expect(server.isRunning, "exited without waiting for the request in flight")
        connection.send(String(body.dropFirst(10)))
        let bodyCompleted = Date()
        let answer = try RawHTTP.parse(connection.readToEnd(), isHead: false, requireComplete: false)
        #expect(answer.status == 200)
        #expect(answer.json["ratioText"] == "4.47")
        #expect(answer.header("Connection")?.lowercased() == "close")
        let log = server.finalLog()
        #expect(server.exit?.reason == .exit)
        #expect(server.terminationStatus == 0)
        // It exits once the request is answered, not when the 10 s grace period runs out.
        #expect(Date().timeIntervalSince(bodyCompleted) < 8)

        #expect(log.contains("\"requestId\":\"in-flight-1\""), "\(log)")
        #expect(log.contains("\"path\":\"/v1/contrast\""))
        #expect(!log.contains(token))   // query secrets: oneJSONAccessLogLinePerRequestWithoutQueriesOrSecrets
        #expect(log.contains("stopped"))
    }

    /// An ops pass: SIGHUP's default action ended the server at once (exit 129, no log line),
    /// dropping requests in flight. It is ignored: settings and tokens are read at start only.
    /// An answer whose connection closes before it is all sent is logged and counted, not left
    /// at the access log's complete 200 (a hostile pass: at shutdown a slow reader got 254 KB of
    /// a 19.7 MB answer, and the log said 200 with all 19.7 MB). Here the client reads a little
    /// of a 12 MB matrix and hangs up.
    @Test func anAnswerCutShortIsLoggedAndCounted() throws {
        let live = try ProductionServer()
        let colors = (0..<256).map { "\"#\(String(format: "%06x", $0 * 65_000))\"" }.joined(separator: ",")
        let body = "{\"colors\": [\(colors)]}"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(live.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(connected == 0)
        let request = Array("POST /v1/contrast/matrix HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = recv(fd, &buffer, buffer.count, 0)
        // Closed with unread bytes: the kernel sends a reset, and the server's next write fails.
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
        var cut: String?
        for _ in 0..<100 where cut == nil {
            cut = live.log.lines.withLock { $0.first { $0.contains("\"msg\":\"answer cut\"") } }
            if cut == nil { usleep(50_000) }
        }
        let line = try #require(cut, "\(live.log.lines.withLock { $0 })")
        #expect(line.contains("\"level\":\"warn\"") && line.contains("\"reason\":\"client_gone\"") && line.contains("\"remote\":\"127.0.0.1\""), "\(line)")
        let request2 = live.log.lines.withLock { $0.first { $0.contains("\"path\":\"/v1/contrast/matrix\"") } } ?? ""
        let id = request2.components(separatedBy: "\"requestId\":\"").dropFirst().first?.split(separator: "\"").first.map(String.init) ?? "?"
        #expect(line.contains("\"requestId\":\"\(id)\""), "\(line) / \(request2)")
        let metrics = try live.request("GET", "/metrics")
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("contrast_http_answers_cut_total 1"), "\(String(decoding: metrics.body, as: UTF8.self).suffix(800))")
        // An answer read to its end is no cut.
        let whole = try live.request("POST", "/v1/contrast/matrix", body: body)
        #expect(whole.status == 200)
        #expect(String(decoding: try live.request("GET", "/metrics").body, as: UTF8.self).contains("contrast_http_answers_cut_total 1"))
    }

    @Test func sighupIsIgnored() throws {
        let server = try ServerProcess()
        let port = try server.waitForPort()
        kill(server.process.processIdentifier, SIGHUP)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(server.isRunning, "SIGHUP ended the server")
        let health = try RawHTTP.exchange(port: port, RawHTTP.request("GET", "/healthz"))
        #expect(health.status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        _ = server.finalLog()
        #expect(server.terminationStatus == 0)
    }
}
