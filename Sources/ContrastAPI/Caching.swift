import HTTPServer

/// HTTP caching of GET answers (RFC 9110 §8.8.3, §13.1.2; RFC 9111).
///
/// The answers are deterministic (same request, same bytes), so a successful GET or HEAD gets
/// a strong `ETag` computed from its body, and `Cache-Control: public, max-age=N`
/// (`cacheMaxAgeSeconds`, 300 by default; `private` instead of `public` when bearer tokens are
/// required, so shared caches never hand one client's answer to another). A matching
/// `If-None-Match` is answered 304 with no body. Errors, POST answers, `/healthz` and
/// `/metrics` get `Cache-Control: no-store`. Answers that already carry `ETag` or
/// `Cache-Control` (static files, image answers) keep their own.
enum Caching {
    /// The strong entity tag of `body`: `"` + length (hex) + `-` + 64-bit FNV-1a (hex) + `"`.
    /// Stable across processes and machines (replicas behind a load balancer agree). One pass
    /// over the body, about 1 ns per byte.
    static func entityTag(_ body: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        body.withUnsafeBufferPointer { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return "\"" + String(body.count, radix: 16) + "-" + hex16(hash) + "\""
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                buffer[index] = digits[Int((value >> UInt64(60 - index * 4)) & 0xF)]
            }
            return 16
        }
    }
}
