import CZlib

/// gzip content coding (RFC 9110 §8.4.1.3) for large responses, with zlib.
public enum Compression {
    /// Bodies smaller than this are sent as they are (the gzip header would not pay off).
    public static let minimumBytes = 1024
    /// zlib level `1...9`: 3 keeps large matrix answers fast while shrinking JSON about 10×.
    public static let level: Int32 = 3

    /// Whether the request accepts gzip and does not prefer the body as it is (RFC 9110 §12.5.3):
    /// `Accept-Encoding` lists `gzip` with q > 0, or does not list it and lists `*` with q > 0 (a
    /// named coding outranks `*`, so `*, gzip;q=0` refuses gzip); and `identity` (or, unlisted,
    /// `*`) does not carry a higher weight (`gzip;q=0.5, identity` prefers no coding). A weight
    /// that is not a valid qvalue (§12.4.2: `0`…`1` with at most three decimals) makes its
    /// member refuse: `gzip;q=abc` and `gzip;q=1.5` are not read as acceptance.
    public static func acceptsGzip(_ request: HTTPRequest) -> Bool {
        guard let header = request.header("accept-encoding") else { return false }
        var gzipQ: Double?, anyQ: Double?, identityQ: Double?
        for (coding, q) in weightedMembers(header) {
            if coding == "gzip" || coding == "x-gzip" {
                gzipQ = max(gzipQ ?? 0, q)
            } else if coding == "*" {
                anyQ = max(anyQ ?? 0, q)
            } else if coding == "identity" {
                identityQ = max(identityQ ?? 0, q)
            }
        }
        let gzip = gzipQ ?? anyQ ?? 0
        return gzip > 0 && gzip >= (identityQ ?? anyQ ?? 0)
    }

    /// The members of a weighted header list (RFC 9110 §12.4.2: `Accept`, `Accept-Encoding`),
    /// each lower-cased without its parameters, with its weight: 1 without `q=`, 0 for a `q=`
    /// that is not a valid `qvalue` (such a member refuses, as a weight of 0 does).
    public static func weightedMembers(_ header: String) -> [(value: String, weight: Double)] {
        header.split(separator: ",").compactMap { part in
            let fields = part.split(separator: ";").map { trim($0).lowercased() }
            guard let value = fields.first else { return nil }
            let weight = fields.dropFirst().first(where: { $0.hasPrefix("q=") }).map { qvalue($0.dropFirst(2)) ?? 0 } ?? 1
            return (value, weight)
        }
    }

    /// RFC 9110 §12.4.2 `qvalue`: `0` or `1`, optionally followed by `.` and up to three digits
    /// (only zeros after a 1); nil for anything else.
    static func qvalue(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        if bytes.count == 1 { return Double(first - 48) }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        let decimals = bytes.dropFirst(2)
        guard decimals.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        if first == UInt8(ascii: "1") { return decimals.allSatisfy { $0 == 48 } ? 1 : nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The response gzip-compressed when the request accepts it, the body is at least
    /// `minimumBytes`, the content type is text-like (JSON, text, SVG, CSV, XML, JavaScript) and
    /// no coding is set yet; otherwise `response` unchanged. Adds `Vary: Accept-Encoding` to
    /// compressible responses of `minimumBytes` or more either way, so caches keep the variants
    /// apart (a smaller body is never compressed, so it has no variants).
    public static func apply(to response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard response.body.count >= minimumBytes,
            let type = response.header("content-type")?.lowercased(), isCompressible(type),
            response.header("content-encoding") == nil
        else { return response }
        var out = response
        out.headers.append(("Vary", "Accept-Encoding"))
        guard acceptsGzip(request), let gz = gzip(response.body) else { return out }
        out.body = gz
        out.headers.append(("Content-Encoding", "gzip"))
        return out
    }

    static func trim(_ s: Substring) -> Substring {
        var t = s
        while let f = t.first, f == " " || f == "\t" { t.removeFirst() }
        while let l = t.last, l == " " || l == "\t" { t.removeLast() }
        return t
    }

    /// Whether a lower-cased media type is text-like: `text/*`, or it names JSON, SVG, XML or
    /// JavaScript (`application/problem+json`, `image/svg+xml`, …). Byte comparison: a few
    /// nanoseconds, where `String.contains` costs microseconds per call on Linux.
    static func isCompressible(_ type: String) -> Bool {
        var type = type
        return type.withUTF8 { bytes in
            if bytes.starts(with: "text/".utf8) { return true }
            for token in ["json", "svg", "xml", "javascript"] as [StaticString] {
                let needle = UnsafeBufferPointer(start: token.utf8Start, count: token.utf8CodeUnitCount)
                if needle.count <= bytes.count {
                    for start in 0...(bytes.count - needle.count)
                    where bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) {
                        return true
                    }
                }
            }
            return false
        }
    }

    /// gzip of `data` (nil if zlib fails, which it does only when out of memory).
    public static func gzip(_ data: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var out = [UInt8](repeating: 0, count: bound)
        let status: Int32 = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }
}
