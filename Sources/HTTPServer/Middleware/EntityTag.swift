/// Entity tags (RFC 9110 §8.8.3): the strong tag of a body, and `If-None-Match` matching, shared
/// by ``StaticFiles`` and ``ConditionalGET``.
public enum EntityTag {
    /// Whether an `If-None-Match` field value matches `etag`, with the weak comparison this
    /// field prescribes (RFC 9110 §13.1.2: `W/` is ignored on both sides): `*` alone, or a
    /// comma-separated list holding the tag (a list with `*` in it is invalid and matches nothing).
    ///
    /// ```swift
    /// EntityTag.ifNoneMatch(#"W/"x", "y""#, matches: #""y""#)   // true
    /// ```
    public static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        let ours = etag.hasPrefix("W/") ? etag.dropFirst(2) : Substring(etag)
        // `*` is the whole field or nothing (RFC 9110 §13.1.2: `"*" / #entity-tag`): in a list
        // (`"x", *`) the field is invalid, and an invalid precondition is ignored (§13.1).
        let parts = header.split(separator: ",").map(Compression.trim)
        if parts.contains("*") { return parts.count == 1 }
        for var candidate in parts {
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == ours { return true }
        }
        return false
    }

    /// The strong entity tag of `body`: `"` + length (hex) + `-` + 64-bit hash (16 hex digits)
    /// + `"`. Stable across processes and machines (replicas behind a load balancer agree).
    ///
    /// The hash takes the body 8 bytes at a time (little-endian words, the tail zero-padded):
    /// `h = (h ^ word) &* 0x9E3779B97F4A7C15; h ^= h >> 32`, from `h = 0xcbf29ce484222325`, then
    /// a final mix (`h ^= h >> 29; h &*= 0xBF58476D1CE4E5B9; h ^= h >> 32`). Byte-at-a-time
    /// FNV-1a, used before, waited on one multiply per byte (about 1 µs per contrast answer).
    public static func strong(_ body: [UInt8]) -> String {
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
