@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Synchronization
import TestSupport

// Issue 8: limits, auth, CORS, security headers, caching, request ids, metrics, access log,
// TLS and graceful shutdown, each over the real server on port 0 unless it is a pure function.
// The suites are split by concern (AuthTests, SecurityHeadersTests, CachingTests, …); this file
// holds what they share.

/// The service's own server (`makeServer`: middleware, rejection headers, metrics, access log)
/// on a free loopback port; the access log is collected in `log.lines`.
final class ProductionServer: @unchecked Sendable {
    let service: ContrastService
    let server: HTTPServer
    let log = LogCollector()
    var port: Int { server.port }

    init(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        var configuration = testConfiguration()
        configure(&configuration)
        service = ContrastService(configuration: configuration)
        let collector = log
        server = service.makeServer(accessLog: AccessLog(level: configuration.logLevel) { line in
            collector.lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
        })
        try server.start()
    }

    deinit { server.stop() }

    /// Sends `text` as it is on a fresh connection and reads the answer until the server closes.
    func raw(_ text: String) throws -> RawResponse {
        try RawHTTP.exchange(port: port, text)
    }

    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil) throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try raw(text)
    }
}

/// Access-log lines written by a test server.
final class LogCollector: Sendable {
    let lines = Mutex<[String]>([])
}

let token = "test-token-0123456789abcdef"
let otherToken = "another-token-abcdefghijklmnop"

/// Runs a command-line tool; returns its exit status and standard output + error.
func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
