import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A parsed HTTP response from the wire or from `ContrastService.handle`.
struct Reply {
    var status: Int
    var headers: [String: String]  // lower-cased names
    var body: [UInt8]

    var json: JSON {
        (try? JSONParser.parse(body)) ?? .string("<not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))>")
    }
    var text: String { String(decoding: body, as: UTF8.self) }

    init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(_ r: HTTPResponse) {
        var h: [String: String] = [:]
        for (k, v) in r.headers { h[k.lowercased()] = v }
        self.init(status: r.status, headers: h, body: r.body)
    }
}

/// The service answered in-process, without sockets.
func call(_ method: String, _ target: String, body: String? = nil, contentType: String? = "application/json",
          configuration: ServiceConfiguration = testConfiguration()) -> Reply {
    let service = ContrastService(configuration: configuration)
    var path = target, query: [(name: String, value: String?)] = []
    if let q = target.firstIndex(of: "?") {
        path = String(target[..<q])
        for part in target[target.index(after: q)...].split(separator: "&") {
            let kv = part.split(separator: "=", maxSplits: 1)
            let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            let value = kv.count > 1 ? (String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(kv[1])) : nil
            query.append((name, value))
        }
    }
    var headers: [String: String] = [:]
    if body != nil, let contentType { headers["content-type"] = contentType }
    let request = HTTPRequest(method: method, path: path, query: query, headers: headers, body: Array((body ?? "").utf8))
    return Reply(service.handle(request))
}

/// Configuration for tests: the repository's Public/ folder, defaults otherwise.
func testConfiguration() -> ServiceConfiguration {
    var c = ServiceConfiguration()
    c.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
    c.port = 0
    return c
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Percent-encodes a query value.
func q(_ s: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
}

/// A real server on a free loopback port, stopped when the test ends.
final class LiveServer: @unchecked Sendable {
    let server: HTTPServer
    var port: Int { server.port }

    init(configuration: ServiceConfiguration = testConfiguration()) throws {
        let service = ContrastService(configuration: configuration)
        server = HTTPServer(configuration: configuration.server, handler: { service.handle($0) })
        try server.start()
    }

    deinit { server.stop() }

    /// Sends raw bytes and reads the whole response (the request should say `Connection: close`).
    func raw(_ request: [UInt8]) throws -> Reply {
        let fd = try connectLoopback(port)
        defer { close(fd) }
        sendAll(fd, request)
        return try parseResponse(readAll(fd))
    }

    /// Sends one request with `Connection: close`.
    func request(_ method: String, _ target: String, body: String? = nil,
                 headers: [String: String] = ["Content-Type": "application/json"]) throws -> Reply {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (k, v) in headers where body != nil || k.lowercased() != "content-type" { text += "\(k): \(v)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try raw(Array(text.utf8))
    }

    func parseResponse(_ data: [UInt8]) throws -> Reply {
        guard let end = data.firstRange(of: [13, 10, 13, 10]) else { throw POSIXError(.EBADMSG) }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let c = line.firstIndex(of: ":") else { continue }
            headers[line[..<c].lowercased()] = line[line.index(after: c)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Reply(status: status, headers: headers, body: body)
    }

    func dechunk(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while let lineEnd = b[i...].firstRange(of: [13, 10]) {
            let size = Int(String(decoding: b[i..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
            if size == 0 { break }
            out.append(contentsOf: b[lineEnd.upperBound..<lineEnd.upperBound + size])
            i = lineEnd.upperBound + size + 2
        }
        return out
    }
}

/// Checks a reply is an RFC 9457 problem with the given status, and returns its JSON.
@discardableResult
func expectProblem(_ r: Reply, _ status: Int, pointer: String? = nil, parameter: String? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) -> JSON {
    #expect(r.status == status, "status \(r.status): \(r.text)", sourceLocation: sourceLocation)
    #expect(r.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
    let j = r.json
    #expect(j["status"] == .number(Double(status)), sourceLocation: sourceLocation)
    for key in ["type", "title", "detail"] {
        if case .string(let s)? = j[key] { #expect(!s.isEmpty, sourceLocation: sourceLocation) } else {
            Issue.record("problem lacks \(key): \(r.text)", sourceLocation: sourceLocation)
        }
    }
    if let pointer { #expect(j["pointer"] == .string(pointer), "\(r.text)", sourceLocation: sourceLocation) }
    if let parameter { #expect(j["parameter"] == .string(parameter), "\(r.text)", sourceLocation: sourceLocation) }
    return j
}

extension JSON {
    var double: Double? { if case .number(let d) = self { return d }; return nil }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    var array: [JSON]? { if case .array(let a) = self { return a }; return nil }
}

// MARK: - Raw sockets (shared by LiveServer and the production tests)

/// Opens a TCP connection to 127.0.0.1:`port` with a receive timeout.
func connectLoopback(_ port: Int, timeoutSeconds: Int = 10) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let ok = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard ok == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
    return fd
}

/// Sends all of `bytes`; stops early when the peer stops reading (it may answer early and close).
func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
        let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { return }
        sent += n
    }
}

/// Reads until the peer closes the connection (or the receive timeout passes).
func readAll(_ fd: Int32) -> [UInt8] {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 { break }
        data.append(contentsOf: buffer[0..<n])
    }
    return data
}
