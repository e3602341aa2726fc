// Request framing (RFC 9110, RFC 9112): what the header fields and the request line say about how
// a request is delimited, and whether it is acceptable, decided before any body byte is read.
// Pure functions over bytes: libmicrohttpd hands the fields over in `HTTPServer-callbacks.swift`,
// and the tests call these directly (Tests/HTTPServerTests/RequestFramingTests.swift).

/// RFC 9110 §5.6.2 `tchar`: the bytes a field name may hold.
@inline(__always)
func isTokenByte(_ byte: UInt8) -> Bool {
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
func isRegNameByte(_ byte: UInt8) -> Bool {
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
func asciiCaseInsensitiveEquals(_ name: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
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


extension HeaderCensus {
    /// Counts one header field as libmicrohttpd hands it over: `name` (`nameCount` bytes) and
    /// `value` (`valueCount` bytes, or nil), neither NUL-terminated within its count.
    @inline(__always)
    mutating func add(name key: UnsafePointer<CChar>, nameCount keySize: Int, value: UnsafePointer<CChar>?, valueCount valueSize: Int) {
        let name = UnsafeRawBufferPointer(start: key, count: keySize)
        bytes += keySize + valueSize + 4
        if name.isEmpty || !name.allSatisfy(isTokenByte) { badName = true }
        if let value, UnsafeRawBufferPointer(start: value, count: valueSize).contains(where: { $0 == 0 || $0 == 0x0D || $0 == 0x0A }) {
            badValue = true
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
            hosts += 1
            if let value, !isHostAndPort(UnsafeRawBufferPointer(start: value + start, count: end - start)) {
                badHost = true
            }
        } else if asciiCaseInsensitiveEquals(name, "content-length") {
            contentLengths += 1
        } else if asciiCaseInsensitiveEquals(name, "content-type") {
            contentTypes += 1
        } else if asciiCaseInsensitiveEquals(name, "transfer-encoding") {
            // Repeated field lines are one list (RFC 9110 §5.3): judge them all, not the last.
            transferEncoding = transferEncoding.map { $0 + ", " + raw() } ?? raw()
        } else if asciiCaseInsensitiveEquals(name, "content-encoding") {
            contentEncoding = contentEncoding.map { $0 + ", " + raw() } ?? raw()
        }
        // A repeated field is joined with ", ".
        fields.add(makeLowercasedString(key, keySize), text)
    }
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

/// Whether `version` is `HTTP/1.` followed by a decimal minor version of at least 1 (read from
/// the C string without making a String).
func isHTTP11OrLater(_ version: UnsafePointer<CChar>) -> Bool {
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
func parseContentLength(_ text: UnsafePointer<CChar>) -> Int? {
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
let rootPath: StaticString = "/"

@inline(__always)
func makeString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
}

/// The name lower-cased (ASCII) straight into a new String: one allocation at most.
@inline(__always)
func makeLowercasedString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
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
