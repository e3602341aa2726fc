import Foundation
import JSONValue

#if canImport(Glibc)
import Glibc
#endif

/// A parsed HTTP/1.1 answer as it came off the wire, header fields in order (repeats kept).
public struct RawResponse: Sendable {
    public var statusLine: String
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(statusLine: String, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.statusLine = statusLine
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first field called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every field called `name`, in order.
    public func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a strict JSON value (`.null` when it is not JSON).
    public var json: JSON { (try? JSONParser.parse(body)) ?? .null }

    /// The body parsed as a JSON object by Foundation (nil if it is not one).
    public var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// The same answer with lower-cased, unique header names (the last repeat wins).
    public var reply: Reply {
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name.lowercased()] = value }
        return Reply(status: status, headers: fields, body: body)
    }
}

public enum RawHTTPError: Error, CustomStringConvertible {
    case socket(String)
    case malformed(String)

    public var description: String {
        switch self {
        case .socket(let s): return "socket: \(s)"
        case .malformed(let s): return "malformed answer: \(s)"
        }
    }
}

/// The one raw HTTP client of the tests: a blocking TCP connection that sends exactly the bytes
/// it is given, for requests no well-behaved client library would send (`..` paths, lying
/// lengths, endless bodies, one byte at a time). IPv4 or IPv6 by the host's form.
public final class RawHTTPConnection: @unchecked Sendable {
    public let fd: Int32

    /// `source`: an IPv4 address of this machine to connect from (`127.0.0.2`, another client
    /// of a server on `127.0.0.1`, as Linux routes all of 127/8 to loopback).
    public init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 10, source: String? = nil) throws {
        fd = try Self.connectedSocket(port: port, host: host, timeoutSeconds: timeoutSeconds, source: source)
    }

    /// A socket connected to `host`:`port`, or an error with the socket closed. The socket is
    /// made here, not in `init`: a class whose initializer throws once `fd` is set runs its
    /// `deinit`, and a failed connect was closed twice, the second time closing whatever socket
    /// another thread had been given the number since (a server's listening socket or epoll
    /// set: libmicrohttpd aborted the tests, "Failed to remove listen FD from epoll set").
    private static func connectedSocket(port: Int, host: String, timeoutSeconds: Int, source: String?) throws -> Int32 {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError.socket("socket: \(errno)") }
        if let source, !isIPv6 {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw RawHTTPError.socket("bind \(source): \(String(cString: strerror(code)))")
            }
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawHTTPError.socket("connect: \(String(cString: strerror(code)))")
        }
        return fd
    }

    deinit { close(fd) }

    /// Ends both directions (a FIN to the server, as a client that hangs up sends), keeping the
    /// descriptor until `deinit`.
    public func hangUp() { _ = shutdown(fd, Int32(SHUT_RDWR)) }

    /// Ends the sending direction only (a FIN), still able to read.
    public func halfClose() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Sends all of `bytes`; false when the peer has closed (EPIPE/ECONNRESET): it may answer
    /// early and close.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads whatever arrives next (at most `limit` bytes); empty when the peer closed.
    public func receiveSome(limit: Int = 4096) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Reads until the peer closes (or the receive timeout passes).
    public func readToEnd() -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }

    /// Reads exactly one response framed by Content-Length or chunking (keep-alive connections).
    public func readResponse(isHead: Bool = false) throws -> RawResponse {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let parsed = try? RawHTTP.parse(data, isHead: isHead, requireComplete: true) {
                return parsed
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return try RawHTTP.parse(data, isHead: isHead, requireComplete: false)
    }
}

public enum RawHTTP {
    /// One request on a fresh connection (it should say `Connection: close`); the parsed answer.
    public static func exchange(port: Int, _ request: String, host: String = "127.0.0.1", isHead: Bool = false,
                                timeoutSeconds: Int = 10) throws -> RawResponse {
        try exchange(port: port, Array(request.utf8), host: host, isHead: isHead, timeoutSeconds: timeoutSeconds)
    }

    public static func exchange(port: Int, _ request: [UInt8], host: String = "127.0.0.1", isHead: Bool = false,
                                timeoutSeconds: Int = 10) throws -> RawResponse {
        let connection = try RawHTTPConnection(port: port, host: host, timeoutSeconds: timeoutSeconds)
        connection.send(request)
        return try parse(connection.readToEnd(), isHead: isHead, requireComplete: false)
    }

    /// Request text with `Host` and `Connection: close`; `headers` are whole field lines.
    public static func request(_ method: String, _ target: String, headers: [String] = [], body: String? = nil,
                               host: String = "localhost") -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for header in headers { text += header + "\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n"
        if let body { text += body }
        return text
    }

    /// Parses one answer. Without `requireComplete` a short body is returned as it is.
    public static func parse(_ data: [UInt8], isHead: Bool, requireComplete: Bool) throws -> RawResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = data.firstRange(of: separator) else {
            throw RawHTTPError.malformed("no end of headers in \(data.count) bytes: \(String(decoding: data, as: UTF8.self))")
        }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw RawHTTPError.malformed("status line \(statusLine)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(statusLine: statusLine, status: status, headers: headers, body: [])
        var rest = Array(data[end.upperBound...])
        if isHead || status == 204 || status == 304 {
            return response
        }
        if response.header("transfer-encoding")?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while let lineEnd = rest.firstRange(of: [13, 10]) {
                let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
                if size == 0 { response.body = body; return response }
                let start = lineEnd.upperBound
                guard rest.count >= start + size + 2 else { break }
                body.append(contentsOf: rest[start..<start + size])
                rest = Array(rest[(start + size + 2)...])
            }
            if requireComplete { throw RawHTTPError.malformed("incomplete chunked body") }
            response.body = body
            return response
        }
        if let length = response.header("content-length").flatMap(Int.init) {
            if rest.count < length && requireComplete { throw RawHTTPError.malformed("short body") }
            response.body = Array(rest.prefix(length))
        } else {
            response.body = rest
        }
        return response
    }
}

/// A parsed HTTP answer with lower-cased, unique header names: from the wire or from
/// `ContrastService.handle` in-process.
public struct Reply: Sendable {
    public var status: Int
    public var headers: [String: String]  // lower-cased names
    public var body: [UInt8]

    public var json: JSON {
        (try? JSONParser.parse(body)) ?? .string("<not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))>")
    }
    public var text: String { String(decoding: body, as: UTF8.self) }

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension JSON {
    public var double: Double? { if case .number(let d) = self { return d }; return nil }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var array: [JSON]? { if case .array(let a) = self { return a }; return nil }
}
