// The libmicrohttpd callbacks: C function pointers that capture nothing and reach their state
// through `Unmanaged` pointers (the daemon's `ServerContext`, each request's `RequestState`).
// They run on MHD's worker threads, so they must stay out of main.swift (main-actor code).

import CMicroHTTPD
import CMicroHTTPDShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Shared by all worker threads of one server; outlives the daemon (owned by `HTTPServer`).
final class ServerContext: Sendable {
    let handler: HTTPHandler
    let maxBodyBytes: Int
    /// Per-path replacements of `maxBodyBytes` (`ServerConfiguration.maxBodyBytesByPath`), the
    /// paths as NUL-terminated UTF-8 compared with the request's C string (a handful of paths:
    /// cheaper than making a String and hashing it for every request).
    private let bodyLimitPaths: [(path: ContiguousArray<CChar>, limit: Int)]
    /// Once this much of an oversized body has been read and dropped, the connection is closed
    /// without an answer rather than reading an endless upload.
    let discardLimit: Int
    /// Requests whose headers have arrived and whose answer has not been fully sent.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop()`: answers get `Connection: close` so keep-alive clients go away.
    let draining = Atomic<Bool>(false)
    /// Open connections, limits and request deadlines.
    let tracker: ConnectionTracker
    /// Sees every answer the server makes without `handler` (see ``HTTPServer/RejectionHandler``).
    let rejectionHandler: HTTPServer.RejectionHandler?
    /// `ServerConfiguration.maxHeaderBytes`.
    let maxHeaderBytes: Int
    /// Renders the problems the server answers itself (``HTTPServer/init(configuration:problems:handler:rejectionHandler:)``).
    let problems: ProblemRenderer

    init(handler: @escaping HTTPHandler, maxBodyBytes: Int, maxBodyBytesByPath: [String: Int] = [:],
         tracker: ConnectionTracker = ConnectionTracker(connectionLimit: .max, perIPConnectionLimit: 0, requestTimeoutSeconds: 0),
         rejectionHandler: HTTPServer.RejectionHandler? = nil, maxHeaderBytes: Int = .max,
         problems: ProblemRenderer = .standard) {
        self.handler = handler
        self.problems = problems
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.bodyLimitPaths = maxBodyBytesByPath.map { ($0.key.utf8CString, $0.value) }
        self.tracker = tracker
        self.rejectionHandler = rejectionHandler
        let (scaled, overflow) = maxBodyBytes.multipliedReportingOverflow(by: 8)
        self.discardLimit = overflow ? Int.max : max(scaled, 8 * 1_048_576)
    }

    /// The body cap for `url` (no allocation).
    func bodyLimit(for url: UnsafePointer<CChar>) -> Int {
        for entry in bodyLimitPaths where entry.path.withUnsafeBufferPointer({ strcmp($0.baseAddress!, url) }) == 0 {
            return entry.limit
        }
        return maxBodyBytes
    }
}

/// Per-request state from the first access-handler call to `NOTIFY_COMPLETED`.
final class RequestState {
    var body: [UInt8] = []
    /// This request's body cap (`ServerContext.bodyLimit(for:)`).
    var limit: Int
    /// `MonotonicClock.nanoseconds()` at the first call (the headers had arrived).
    let receivedAt: UInt64
    /// The connection's record, when connections are tracked.
    let connection: ConnectionRecord?
    /// The header fields by lower-cased name, read once at the first call.
    let headers: HTTPHeaderFields
    init(limit: Int, receivedAt: UInt64, connection: ConnectionRecord?, headers: HTTPHeaderFields) {
        self.limit = limit
        self.receivedAt = receivedAt
        self.connection = connection
        self.headers = headers
    }
    /// The body outgrew `maxBodyBytes`: the rest is read and dropped, then 413 is answered.
    var tooLarge = false
    var discarded = 0
}

/// `MHD_AccessHandlerCallback`: called once with the headers, once per body chunk, and once
/// more (upload size 0) to answer.
func httpServerAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestCls else {
        return .NO
    }
    return Unmanaged<ServerContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        guard let statePointer = requestCls.pointee, QueryArgumentsMarker.arguments(statePointer) == nil else {
            // First call: headers only. Refuse connections over a limit, and a declared
            // oversized body before reading it.
            let receivedAt = MonotonicClock.nanoseconds()
            let record = connectionRecord(connection)
            if let record, record.refusal != 0 {
                requestCls.pointee = nil
                context.tracker.refused.wrappingAdd(1, ordering: .relaxed)
                return reject(overConnectionLimit(record.refusal, context: context), connection: connection, url: url,
                              method: method, context: context, receivedAt: receivedAt, close: true)
            }
            let headers = readHeaders(connection)
            let path = originPath(url)
            if path != url, let form = absoluteForm(url), !isHostAndPort(form.authority) {
                requestCls.pointee = nil
                return reject(.badRequest("The request target's authority is not a host and optional port (RFC 9112 §3.2.2; user info is not allowed, RFC 9110 §4.2.4)."),
                              connection: connection, url: url, method: method, context: context, receivedAt: receivedAt,
                              headers: headers.fields, close: true)
            }
            if let marker = requestCls.pointee, let arguments = QueryArgumentsMarker.arguments(marker) {
                requestCls.pointee = nil
                return reject(.tooManyQueryArguments(arguments, limit: HTTPServer.maxQueryArguments), connection: connection, url: url, method: method,
                              context: context, receivedAt: receivedAt, headers: headers.fields, close: true)
            }
            if let refusal = framingRefusal(headers, version: version, maxHeaderBytes: context.maxHeaderBytes) {
                return reject(refusal, connection: connection, url: url, method: method, context: context,
                              receivedAt: receivedAt, headers: headers.fields, close: true)
            }
            var expected = 0
            let limit = context.bodyLimit(for: path)
            if let lengthText = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
                guard let length = parseContentLength(lengthText) else {
                    return reject(.badRequest("Content-Length is not a valid number."),
                                  connection: connection, url: url, method: method, context: context, receivedAt: receivedAt,
                                  headers: headers.fields)
                }
                if length > limit {
                    return reject(.contentTooLarge(limit: limit), connection: connection, url: url, method: method,
                                  context: context, receivedAt: receivedAt, headers: headers.fields)
                }
                expected = length
            }
            let state = RequestState(limit: limit, receivedAt: receivedAt, connection: record, headers: headers.fields)
            if expected > 0 {
                state.body.reserveCapacity(expected)
            }
            requestCls.pointee = Unmanaged.passRetained(state).toOpaque()
            context.inFlight.wrappingAdd(1, ordering: .relaxed)
            return .YES
        }

        let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            // A body chunk: keep it while under the cap, otherwise count and drop it.
            uploadDataSize.pointee = 0
            if state.tooLarge {
                state.discarded += chunkSize
                return state.discarded > context.discardLimit ? .NO : .YES
            }
            if state.body.count + chunkSize > state.limit {
                state.tooLarge = true
                state.discarded = state.body.count + chunkSize
                state.body = []
                return .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: chunkSize) { bytes in
                    state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: chunkSize))
                }
            }
            return .YES
        }

        // Final call: the whole request is here.
        state.connection?.enter(ConnectionRecord.handling)
        let isHead = strcmpHEAD(method)
        if state.tooLarge {
            return reject(.contentTooLarge(limit: state.limit), connection: connection, url: url, method: method,
                          context: context, receivedAt: state.receivedAt, headers: state.headers, close: true)
        }
        var body: [UInt8] = []
        swap(&body, &state.body)
        let arguments = queryArguments(connection)
        var request = HTTPRequest(
            method: methodString(method),
            path: String(cString: originPath(url)),
            query: arguments.query,
            lowercasedHeaders: state.headers,
            body: body,
            remoteAddress: requestAddress(state.connection, connection),
            receivedAtNanoseconds: state.receivedAt
        )
        request.malformedQueryParameter = arguments.malformed
        let response = context.handler(request)
        return queue(response, on: connection, context: context, isHead: isHead)
    }
}

/// `MHD_RequestCompletedCallback`: frees the request's state (also after broken connections).
func httpServerRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ requestCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    // MHD also reports requests that ended early (client gone, error): those keep their phase,
    // so a request cut off while arriving counts as abandoned when the connection closes.
    if reason == .REQUEST_TERMINATED_COMPLETED_OK, let connection, let record = connectionRecord(connection) {
        record.enter(ConnectionRecord.keptAlive)
    }
    guard let cls, let requestCls, let statePointer = requestCls.pointee else {
        return
    }
    requestCls.pointee = nil
    // A request cut off after its request line may still hold the marker: nothing to free.
    guard QueryArgumentsMarker.arguments(statePointer) == nil else { return }
    Unmanaged<RequestState>.fromOpaque(statePointer).release()
    _ = Unmanaged<ServerContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        context.inFlight.wrappingSubtract(1, ordering: .relaxed)
    }
}

// MARK: - Answers without the handler

/// Queues an answer the server makes itself (413, 400, 429, 503), after the rejection handler
/// has seen it. The request passed to that handler has headers but no body or query.
private func reject(
    _ problem: HTTPProblem,
    connection: OpaquePointer,
    url: UnsafePointer<CChar>,
    method: UnsafePointer<CChar>,
    context: ServerContext,
    receivedAt: UInt64,
    headers: HTTPHeaderFields? = nil,
    close: Bool = false
) -> MHD_Result {
    let record = connectionRecord(connection)
    record?.enter(ConnectionRecord.handling)
    var response = context.problems.response(problem)
    if let rejectionHandler = context.rejectionHandler {
        let request = HTTPRequest(
            method: String(cString: method),
            path: String(cString: originPath(url)),
            query: [],
            lowercasedHeaders: headers ?? headerFields(connection),
            body: [],
            remoteAddress: requestAddress(record, connection),
            receivedAtNanoseconds: receivedAt
        )
        response = rejectionHandler(request, response)
    }
    if close && !context.draining.load(ordering: .relaxed) {
        response.headers.append(("Connection", "close"))
    }
    return queue(response, on: connection, context: context, isHead: strcmpHEAD(method))
}

private func overConnectionLimit(_ status: Int, context: ServerContext) -> HTTPProblem {
    status == 429 ? .tooManyConnections(limit: context.tracker.perIPConnectionLimit)
        : .serverBusy(limit: context.tracker.connectionLimit)
}

// MARK: - Request framing

/// RFC 9110 §5.6.2 `tchar`: the bytes a field name may hold.
@inline(__always)
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
         UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
         UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): return true
    default: return false
    }
}

/// RFC 3986 §3.2.2 `reg-name` bytes: unreserved, pct-encoded and sub-delims (IPv4 addresses are
/// made of them too).
@inline(__always)
private func isRegNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
         UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
         UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): return true
    default: return false
    }
}

/// Whether `value` is `uri-host [":" port]` (RFC 9112 §3.2, RFC 3986 §3.2.2–§3.2.3): an IP literal
/// in brackets (hex digits, `:` and `.`) or a reg-name, then optionally `:` and at most 5 digits.
/// An empty value is allowed (a target without authority); a port without a host is not.
/// It had been a byte filter, so `localhost:abc`, `a:80:80` and `[::1` passed (hostile test).
func isHostAndPort(_ value: UnsafeRawBufferPointer) -> Bool {
    if value.isEmpty { return true }
    var index = 0
    if value[0] == UInt8(ascii: "[") {
        guard let close = value.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
        for byte in value[1..<close] {
            let ok = (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
            if !ok { return false }
        }
        index = close + 1
    } else {
        while index < value.count && value[index] != UInt8(ascii: ":") {
            guard isRegNameByte(value[index]) else { return false }
            index += 1
        }
        if index == 0 { return false }
    }
    if index == value.count { return true }
    guard value[index] == UInt8(ascii: ":") else { return false }
    let port = value[(index + 1)...]
    return port.count <= 5 && port.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
}

/// Whether `name` is `lowercase` in any ASCII case.
@inline(__always)
private func asciiCaseInsensitiveEquals(_ name: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
    guard name.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = lowercase.utf8Start
    for index in 0..<name.count {
        let byte = name[index]
        if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected[index] { return false }
    }
    return true
}

/// The request's header fields, read in one pass: keyed by lower-cased name (repeated fields
/// joined with ", ", RFC 9110 §5.3), with what they say about the request's framing.
struct HeaderCensus {
    var fields = HTTPHeaderFields()
    var hosts = 0
    var contentLengths = 0
    var contentTypes = 0
    var transferEncoding: String?
    var contentEncoding: String?
    var badName = false
    var badValue = false
    /// A `Host` value that is not a host and optional port (`isHostAndPort`; RFC 9112 §3.2).
    var badHost = false
    /// Bytes of all fields as sent: `name: value` and CRLF.
    var bytes = 0
}

/// Every header field of the request, in one pass (see ``HeaderCensus``).
private func readHeaders(_ connection: OpaquePointer) -> HeaderCensus {
    var census = HeaderCensus()
    census.fields.reserveCapacity(8)
    _ = withUnsafeMutablePointer(to: &census) { pointer in
        MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let census = cls.assumingMemoryBound(to: HeaderCensus.self)
            let name = UnsafeRawBufferPointer(start: key, count: keySize)
            census.pointee.bytes += keySize + valueSize + 4
            if name.isEmpty || !name.allSatisfy(isTokenByte) { census.pointee.badName = true }
            if let value, UnsafeRawBufferPointer(start: value, count: valueSize).contains(where: { $0 == 0 || $0 == 0x0D || $0 == 0x0A }) {
                census.pointee.badValue = true
            }
            // The value without surrounding spaces and tabs (RFC 9110 §5.5: OWS is not part of it).
            var start = 0, end = valueSize
            if let value {
                while start < end && (value[start] == 0x20 || value[start] == 0x09) { start += 1 }
                while end > start && (value[end - 1] == 0x20 || value[end - 1] == 0x09) { end -= 1 }
            }
            let text = value.map { makeString($0 + start, end - start) } ?? ""
            // Framing fields are judged as sent: libmicrohttpd reads `chunked ` (with the space)
            // as no coding at all, so the refusal must see the space too.
            let raw = { value.map { makeString($0, valueSize) } ?? "" }
            if asciiCaseInsensitiveEquals(name, "host") {
                census.pointee.hosts += 1
                if let value, !isHostAndPort(UnsafeRawBufferPointer(start: value + start, count: end - start)) {
                    census.pointee.badHost = true
                }
            } else if asciiCaseInsensitiveEquals(name, "content-length") {
                census.pointee.contentLengths += 1
            } else if asciiCaseInsensitiveEquals(name, "content-type") {
                census.pointee.contentTypes += 1
            } else if asciiCaseInsensitiveEquals(name, "transfer-encoding") {
                // Repeated field lines are one list (RFC 9110 §5.3): judge them all, not the last.
                census.pointee.transferEncoding = census.pointee.transferEncoding.map { $0 + ", " + raw() } ?? raw()
            } else if asciiCaseInsensitiveEquals(name, "content-encoding") {
                census.pointee.contentEncoding = census.pointee.contentEncoding.map { $0 + ", " + raw() } ?? raw()
            }
            // A repeated field is joined with ", ".
            census.pointee.fields.add(makeLowercasedString(key, keySize), text)
            return .YES
        }, pointer)
    }
    return census
}

/// The header fields keyed by lower-cased name (for answers made before the census is kept).
private func headerFields(_ connection: OpaquePointer) -> HTTPHeaderFields {
    readHeaders(connection).fields
}

/// A refusal for requests whose framing is ambiguous or unsupported, before any body is read
/// (RFC 9112 §3.2, §6.1, §6.3; RFC 9110 §8.3, §8.4): an HTTP/1.1 request without exactly one `Host`;
/// more than one `Content-Length` or `Content-Type`, or a `Content-Length` together with `Transfer-Encoding` (a request a proxy
/// and this server could frame differently); a transfer coding other than `chunked` (501); a
/// content coding on the body (415: bodies are not decoded); a field name with whitespace or
/// control characters; header fields over `maxHeaderBytes` (431). libmicrohttpd answers a
/// `Content-Length` that is not a number itself.
func framingRefusal(_ census: HeaderCensus, version: UnsafePointer<CChar>?, maxHeaderBytes: Int) -> HTTPProblem? {
    func badRequest(_ detail: String) -> HTTPProblem { .badRequest(detail) }
    if census.bytes > maxHeaderBytes {
        return .headerFieldsTooLarge(bytes: census.bytes, limit: maxHeaderBytes)
    }
    if census.badName {
        return badRequest("A header field name is empty or has a character other than letters, digits and !#$%&'*+-.^_`|~ (RFC 9110 §5.1).")
    }
    if census.badValue {
        return badRequest("A header field value contains NUL, CR or LF (RFC 9110 §5.5).")
    }
    // HTTP/1.1 and any later 1.x minor version need Host; 1.0 does not.
    let isHTTP11 = version.map(isHTTP11OrLater) ?? false
    if census.hosts > 1 || (isHTTP11 && census.hosts == 0) {
        return badRequest("An HTTP/1.1 request needs exactly one Host header field (RFC 9112 §3.2).")
    }
    if census.badHost {
        return badRequest("The Host header field is not a host and optional port (RFC 9112 §3.2, RFC 3986 §3.2.2).")
    }
    if !isHTTP11 && census.transferEncoding != nil {
        // RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding MUST be treated as faulty framing.
        return badRequest("Transfer-Encoding in an HTTP/1.0 request (RFC 9112 §6.1): send Content-Length, or use HTTP/1.1.")
    }
    if census.contentLengths > 1 {
        return badRequest("More than one Content-Length header field (RFC 9112 §6.3).")
    }
    if census.contentTypes > 1 {
        // Joined, two lines read as "application/json, application/json" and got a 415.
        return badRequest("More than one Content-Type header field (RFC 9110 §8.3: a body has one media type).")
    }
    if let coding = census.transferEncoding {
        if census.contentLengths > 0 {
            return badRequest("Content-Length together with Transfer-Encoding (RFC 9112 §6.1): send one of them.")
        }
        let codings = coding.split(separator: ",").map { Compression.trim($0).lowercased() }
        if codings == ["chunked"] && coding.lowercased() != "chunked" {
            // libmicrohttpd reads only the exact value as chunked and would wait for a body of no length.
            return badRequest("Transfer-Encoding must be exactly 'chunked', without surrounding whitespace.")
        }
        if codings != ["chunked"] {
            return .notImplemented("Transfer-Encoding '\(coding.prefix(64))' is not supported; only chunked is (RFC 9112 §6.1).")
        }
    }
    let hasBody = census.contentLengths > 0 || census.transferEncoding != nil
    if hasBody, let coding = census.contentEncoding, Compression.trim(Substring(coding)).lowercased() != "identity" {
        return .unsupportedMediaType("Request bodies with Content-Encoding '\(coding.prefix(64))' are not accepted: send the body uncompressed.",
                                     acceptEncoding: "identity")  // RFC 9110 §15.5.16
    }
    return nil
}

// MARK: - Building the request

/// Whether `version` is `HTTP/1.` followed by a decimal minor version of at least 1 (read from
/// the C string without making a String).
private func isHTTP11OrLater(_ version: UnsafePointer<CChar>) -> Bool {
    let prefix: StaticString = "HTTP/1."
    for index in 0..<prefix.utf8CodeUnitCount where UInt8(bitPattern: version[index]) != prefix.utf8Start[index] {
        return false
    }
    var pointer = version + prefix.utf8CodeUnitCount
    guard pointer.pointee != 0 else { return false }
    var nonZero = false
    while pointer.pointee != 0 {
        let digit = Int(pointer.pointee) - 48
        guard digit >= 0 && digit <= 9 else { return false }
        if digit != 0 { nonZero = true }
        pointer += 1
    }
    return nonZero
}

/// Decimal digits only, no sign, no overflow; nil otherwise.
private func parseContentLength(_ text: UnsafePointer<CChar>) -> Int? {
    var value = 0
    var pointer = text
    guard pointer.pointee != 0 else { return nil }
    while pointer.pointee != 0 {
        let digit = Int(pointer.pointee) - 48
        guard digit >= 0 && digit <= 9 else { return nil }
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(digit)
        if overflow1 || overflow2 { return Int.max }
        value = sum
        pointer += 1
    }
    return value
}

/// The path of a request target: itself in origin form (`/path`, the usual case, checked by
/// its first byte), the path of `absoluteForm` otherwise. Any other form is returned as it is
/// (`*`, or a target the router and the static files refuse).
@inline(__always)
func originPath(_ url: UnsafePointer<CChar>) -> UnsafePointer<CChar> {
    if url[0] == 0x2F { return url }
    return absoluteForm(url)?.path ?? url
}

/// An absolute-form target (`http://authority/path`, which a server MUST accept, RFC 9112
/// §3.2.2) split into its authority bytes (checked with `isHostAndPort`: `user@host`, a space or
/// a port of letters are refused) and its path (`/` when there is none); nil for other forms.
func absoluteForm(_ url: UnsafePointer<CChar>) -> (authority: UnsafeRawBufferPointer, path: UnsafePointer<CChar>)? {
    func lower(_ c: CChar) -> UInt8 {
        let byte = UInt8(bitPattern: c)
        return byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
    guard lower(url[0]) == UInt8(ascii: "h"), lower(url[1]) == UInt8(ascii: "t"), lower(url[2]) == UInt8(ascii: "t"),
          lower(url[3]) == UInt8(ascii: "p") else { return nil }
    var index = lower(url[4]) == UInt8(ascii: "s") ? 5 : 4
    guard url[index] == 0x3A, url[index + 1] == 0x2F, url[index + 2] == 0x2F else { return nil }
    index += 3
    let authorityStart = index
    while url[index] != 0 && url[index] != 0x2F { index += 1 }
    let authority = UnsafeRawBufferPointer(start: url + authorityStart, count: index - authorityStart)
    let path = url[index] == 0 ? UnsafeRawPointer(rootPath.utf8Start).assumingMemoryBound(to: CChar.self) : url + index
    return (authority, path)
}

/// `/` as a NUL-terminated C string.
private let rootPath: StaticString = "/"

/// The method as a String: the usual ones as literals (no decoding), others decoded.
@inline(__always)
private func methodString(_ method: UnsafePointer<CChar>) -> String {
    switch (method[0], method[1]) {
    case (0x47, 0x45) where method[2] == 0x54 && method[3] == 0: return "GET"
    case (0x50, 0x4F) where method[2] == 0x53 && method[3] == 0x54 && method[4] == 0: return "POST"
    case (0x48, 0x45) where strcmpHEAD(method): return "HEAD"
    default: return String(cString: method)
    }
}

@inline(__always)
private func strcmpHEAD(_ method: UnsafePointer<CChar>) -> Bool {
    method[0] == 0x48 && method[1] == 0x45 && method[2] == 0x41 && method[3] == 0x44 && method[4] == 0
}

@inline(__always)
private func makeString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
}

/// The name lower-cased (ASCII) straight into a new String: one allocation at most.
@inline(__always)
private func makeLowercasedString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) { source in
        String(unsafeUninitializedCapacity: count) { target in
            for index in 0..<count {
                let byte = source[index]
                target[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return count
        }
    }
}

private func queryArguments(_ connection: OpaquePointer) -> (query: [(name: String, value: String?)], malformed: String?) {
    var result: (query: [(name: String, value: String?)], malformed: String?) = ([], nil)
    _ = withUnsafeMutablePointer(to: &result) { pointer in
        MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            // An empty part (`a=1&&b=2`, a leading `&`) names nothing: skipped, as browsers do.
            if keySize == 0 && value == nil { return .YES }
            let result = cls.assumingMemoryBound(to: (query: [(name: String, value: String?)], malformed: String?).self)
            let name = makeValidatedString(key, keySize)
            let text = value.map { makeValidatedString($0, valueSize) }
            result.pointee.query.append((name.string, text?.string))
            // Invalid UTF-8, from the bytes sent or from a malformed escape (see cmhd_unescape_marking_malformed).
            if result.pointee.malformed == nil && (!name.isValid || text?.isValid == false) {
                result.pointee.malformed = name.string
            }
            return .YES
        }, pointer)
    }
    return result
}

/// `count` bytes as a String, and whether they were valid UTF-8 (invalid ones become U+FFFD).
private func makeValidatedString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> (string: String, isValid: Bool) {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        // ASCII (the usual query) is valid as it is: no validating pass.
        if !buffer.contains(where: { $0 >= 0x80 }) { return (String(decoding: buffer, as: UTF8.self), true) }
        if let valid = String(validating: buffer, as: UTF8.self) { return (valid, true) }
        return (String(decoding: buffer, as: UTF8.self), false)
    }
}

/// The client address of a request: read once per connection into its record, asked of
/// libmicrohttpd only when connections are not tracked.
private func requestAddress(_ record: ConnectionRecord?, _ connection: OpaquePointer) -> String? {
    record.map { $0.address } ?? clientAddress(connection)
}

func clientAddress(_ connection: OpaquePointer) -> String? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
        let length = cmhd_connection_client_address(connection, buffer.baseAddress, 64)
        return length > 0 ? makeString(buffer.baseAddress!, Int(length)) : nil
    }
}

// MARK: - Sending the response

/// Hands `response` to MHD (body copied once by MHD) and releases our reference to it.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, context: ServerContext, isHead: Bool) -> MHD_Result {
    let status = (100...999).contains(response.status) ? response.status : 500
    var mhdResponse: OpaquePointer?
    if (isHead || status == 304) && response.body.isEmpty, let length = statedContentLength(response), length > 0 {
        // A bodiless HEAD answer (see `HTTPResponse.headAnswer`) stating the GET length: MHD sends
        // a body's length but never a body for HEAD, so give it a body it will not read.
        mhdResponse = MHD_create_response_from_callback(UInt64(length), 4096, httpServerNoBodyReader, nil, nil)
    } else {
        mhdResponse = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
    guard let mhdResponse else {
        return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }
    for field in response.headers {
        // MHD computes Content-Length itself.
        if field.name.utf8.count == 14 && asciiCaseInsensitiveEquals(field.name, "Content-Length") {
            continue
        }
        // withCString borrows the string's own NUL-terminated storage (no copy for most strings).
        _ = field.name.withCString { name in
            field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
        }
    }
    if context.draining.load(ordering: .relaxed) {
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    return MHD_queue_response(connection, UInt32(status), mhdResponse)
}

private func statedContentLength(_ response: HTTPResponse) -> Int? {
    for field in response.headers where field.name.utf8.count == 14 && asciiCaseInsensitiveEquals(field.name, "Content-Length") {
        return Int(field.value)
    }
    return nil
}

/// `MHD_ContentReaderCallback` for HEAD answers: MHD never asks a HEAD answer for its body;
/// if it ever did, end the connection rather than send made-up bytes.
func httpServerNoBodyReader(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    -2   // MHD_CONTENT_READER_END_WITH_ERROR
}
