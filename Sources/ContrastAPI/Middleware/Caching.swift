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
    /// The strong entity tag of `body`: `"` + length (hex) + `-` + 64-bit hash (16 hex digits)
    /// + `"`. Stable across processes and machines (replicas behind a load balancer agree).
    ///
    /// The hash takes the body 8 bytes at a time (little-endian words, the tail zero-padded):
    /// `h = (h ^ word) &* 0x9E3779B97F4A7C15; h ^= h >> 32`, from `h = 0xcbf29ce484222325`, then
    /// a final mix (`h ^= h >> 29; h &*= 0xBF58476D1CE4E5B9; h ^= h >> 32`). Byte-at-a-time
    /// FNV-1a, used before, waited on one multiply per byte (about 1 µs per contrast answer).
    static func entityTag(_ body: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        body.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 32
                offset += 8
            }
            if offset < bytes.count {
                var word: UInt64 = 0
                for index in offset..<bytes.count { word |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 32
            }
        }
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
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
