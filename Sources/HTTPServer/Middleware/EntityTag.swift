/// Entity-tag validators (RFC 9110 §8.8.3), shared by ``StaticFiles`` and the service's
/// caching of GET answers.
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
}
